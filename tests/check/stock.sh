# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets kb and results
# shellcheck disable=SC2034 # stock_trees is kernels.sh's
# check.sh's stock part: the module built against Debian's stock kernels
# (bookworm's 6.1 and 6.12, and sid's newest, 7.2 as written) and loaded
# there. Sourced by check.sh; packs with the test kernel $kb. The trees
# stay in stock_trees for the compile-only pass (tests/check/kernels.sh).

declare -A stock_trees

# stock_kernel SERIES NAME: the module built against Debian's stock kernel
# of SERIES (tests/stock-kernel.sh), loaded there, and the Check suites
# run against it; its log must show nothing but our line.
stock_kernel() {
	local series=$1 n=$2 hdrs vmlinuz noise
	section "stock kernel: Debian's $series (amd64)"
	if ! read -r hdrs vmlinuz < <(bash "$ROOT/tests/stock-kernel.sh" "$series"); then
		record FAIL "$n-kernel-fetch"
		return
	fi
	stock_trees[$n]=$hdrs
	echo "  $(cat "$hdrs/include/config/kernel.release" 2>/dev/null): $vmlinuz"
	# Checked too: the compile-only pass (kernels.sh) reads its log.
	if ! build_module_checked "$hdrs" "$BUILD/$n" "$BUILD/$n.build.log"; then
		record FAIL "$n-build-module" "see $BUILD/$n.build.log"
		tail -n 20 "$BUILD/$n.build.log"
		return
	fi
	record PASS "$n-build-module"
	boot_plan --kernel "$vmlinuz" --tcg-single --timeout 600 --user "$BUILD/user" \
		"$n" "$kb" stock "$BUILD/vm-$n.log" "$BUILD/$n/perfctr.ko" ||
		record FAIL "vm:$n-plan-completed" "see $BUILD/vm-$n.log"
	sed -n "s/^RESULT \(PASS\|FAIL\) stock-\(.*\)/\1 vm:$n-\2/p" \
		"$BUILD/vm-$n.log" >>"$results"
	sed -n '/== check begin/,/== check end/p' "$BUILD/vm-$n.log" |
		awk -v expect="$(ls "$BUILD"/user/check_* | wc -l)" \
		    -f "$ROOT/tests/lib/check.awk" |
		sed "s/ check:/ $n-check:/" >>"$results"
	# Silent apart from our one line and the kernel's taint notices for
	# an unsigned out-of-tree module.
	noise=$(sed -n '/== dmesg begin/,/== dmesg end/p' "$BUILD/vm-$n.log" |
		grep -vE '^== dmesg|perfctr: .+, [0-9]+ counters|loading out-of-tree module taints kernel|module verification failed: signature and/or required key missing' |
		grep -vE '^\[ *[0-9.]+\] *$' || true)
	if ! grep -q '== dmesg end' "$BUILD/vm-$n.log"; then
		record FAIL "$n-dmesg-silent" "no dmesg from the guest"
	elif [ -z "$noise" ]; then
		record PASS "$n-dmesg-silent"
	else
		record FAIL "$n-dmesg-silent" "unexpected kernel messages:"
		echo "$noise" | head -n 10 | sed 's/^/      /'
	fi
	log_clean "vm:$n-guest-log-clean" "$BUILD/vm-$n.log"
}

if want stock; then
	stock_kernel 6.1 stock
	stock_kernel 6.12 stock612
	# The background build fetched and prepared it, if it could.
	stock_kernel sid stocksid
fi
