# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets kb and results
# check.sh's matrix part: detection and fallback on each QEMU CPU model
# of tests/vm/matrix.txt. Sourced by check.sh, after the ppc32 part,
# whose build (ppc_kb, ppc_ul) the ppc32 rows boot.

want matrix || return 0
section "CPU matrix: detection and fallback on QEMU's CPU models"

# matrix_kernel ARCH: the module for ARCH's test kernel, built once;
# prints the kernel build dir.
matrix_kernel() {
	local arch=$1 kb
	if [ "$arch" = ppc32 ]; then
		# The test build of the ppc32 VM: the KUnit suites run too.
		[ -n "$ppc_kb" ] || return 1
		echo "$ppc_kb"
		return
	fi
	kb=$(build_kernel "$arch") || return 1
	build_module "$kb" "$BUILD/matrix-$arch" "$BUILD/matrix-$arch.build.log" ||
		return 1
	echo "$kb"
}

# matrix_boot ARCH CPU LOG [run-vm options]: boots one row. x86 guests
# have tests/vm/guest/matrix-init.c as /init; ppc32 guests run
# tests/vm/plans/matrix under busybox, with the KUnit module.
matrix_boot() {
	local arch=$1 cpu=$2 log=$3
	local -a how mods
	shift 3
	case $arch in
	ppc32)	how=(--busybox "$ppc_ul/bin/busybox"
		     --file "/bin/vm-exit=$BUILD/user-ppc32/vm-exit"
		     --file "/bin/perfex=$BUILD/user-ppc32/perfex")
		mods=("$BUILD/ppc32"/{perfctr,perfctr_test}.ko) ;;
	i386)	how=(--init "$BUILD/user/matrix-init-32")
		mods=("$BUILD/matrix-$arch/perfctr.ko") ;;
	*)	how=(--init "$BUILD/user/matrix-init-64")
		mods=("$BUILD/matrix-$arch/perfctr.ko") ;;
	esac
	boot_plan "$@" "${how[@]}" --cpu "$cpu" --timeout 180 "matrix-$cpu" \
		"${matrix_kb[$arch]}" matrix "$log" "${mods[@]}"
}

declare -A matrix_kb
# The host's perfex looks up the x86 guests' CPU ids (their init has no
# libc); ppc32 guests run their own. With perf's tables, PERF/OURS in the
# table column means PERF.
make -s -C "$ROOT/tools" O="$BUILD/tools" >"$BUILD/tools.log" 2>&1 ||
	record FAIL "matrix:tools-build" "see $BUILD/tools.log"
perf_tables=$(grep -c "with perf's tables" "$BUILD/tools.log" || true)

# matrix_table CPU LOG WANT: the event table of the guest's CPU id.
matrix_table() {
	local cpu=$1 log=$2 want=$3 id got
	case $want in
	*/*) if [ "$perf_tables" -gt 0 ]; then want=${want%/*}; else want=${want#*/}; fi ;;
	esac
	got=$(sed -n 's/^event table: \([^ ]*\).*/\1/p' "$log")
	if [ -z "$got" ]; then
		id=$(sed -n 's/^cpuid: //p' "$log")
		got=$("$BUILD/tools/perfex" --cpuid="$id" --table 2>&1 | sed 's/ .*//')
	fi
	if [ "$got" = "$want" ]; then
		record PASS "matrix:$cpu:event-table"
	else
		record FAIL "matrix:$cpu:event-table" "got '$got', want '$want'"
	fi
}
while IFS='|' read -r arch cpu want_type want_fallback want_table; do
	arch=$(echo $arch) cpu=$(echo $cpu) want_table=$(echo $want_table)
	want_type=$(echo $want_type) want_fallback=$(echo $want_fallback)
	case $arch in ''|'#'*) continue ;; esac
	# ppc32:MACHINE names the QEMU machine too.
	vm=()
	case $arch in ppc32:*) vm=(--ppc "${arch#ppc32:}"); arch=ppc32 ;; esac
	if [ -z "${matrix_kb[$arch]:-}" ]; then
		if ! matrix_kb[$arch]=$(matrix_kernel "$arch"); then
			record FAIL "matrix:$arch:build"
			matrix_kb[$arch]=failed
		fi
	fi
	[ "${matrix_kb[$arch]}" = failed ] && { record FAIL "matrix:$cpu:not-run"; continue; }
	log=$BUILD/vm-matrix-$cpu.log
	matrix_boot "$arch" "$cpu" "$log" "${vm[@]}" ||
		record FAIL "matrix:$cpu:plan-completed" "see $log"
	sed -n "s/^RESULT \(PASS\|FAIL\) matrix-\(.*\)/\1 matrix:$cpu:\2/p" "$log" >>"$results"
	got=$(sed -n 's/^cpu_type: //p' "$log")
	if [ "$got" = "$want_type" ]; then
		record PASS "matrix:$cpu:cpu-type"
	else
		record FAIL "matrix:$cpu:cpu-type" "got '$got', want '$want_type'"
	fi
	got=$(sed -n 's/^fallback: //p' "$log")
	case $got in
	*"$want_fallback"*) record PASS "matrix:$cpu:fallback" ;;
	*) record FAIL "matrix:$cpu:fallback" "got '$got', want '*$want_fallback*'" ;;
	esac
	matrix_table "$cpu" "$log" "$want_table"
	log_clean "matrix:$cpu:guest-log-clean" "$log"
done <"$ROOT/tests/vm/matrix.txt"
