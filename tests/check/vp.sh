# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets results
# check.sh's vp part: the sets' fast suite (tests/vp), virtual.c in user
# space against a fake kernel; seconds, no VM. One record per Check test.

vp_suite() {
	local log=$BUILD/vp.log res tcase test iter
	section "vp: the sets' fast suite"
	if ! make -C "$ROOT/tests/vp" O="$BUILD/vp" all >"$log" 2>&1; then
		record FAIL vp:build "see $log"
		return
	fi
	CK_VERBOSITY=verbose CK_FORK=yes ASAN_OPTIONS=detect_leaks=0 \
		"$BUILD/vp/vp_test" >>"$log" 2>&1
	# file:line:P|F|E:tcase:test:iteration: message
	while IFS=: read -r _ _ res tcase test iter _; do
		case $res in
		P) record PASS "vp:$tcase:$test:$iter" ;;
		F|E) record FAIL "vp:$tcase:$test:$iter" "see $log" ;;
		esac
	done < <(grep -E '^[^:]+:[0-9]+:[PFE]:[^:]+:[^:]+:' "$log")
}

if want vp; then
	vp_suite
fi
