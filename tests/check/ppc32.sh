# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets kb and results
# check.sh's ppc32 part: the KUnit and Check suites on a 7450 PowerMac.
# Sourced by check.sh. Its build serves the matrix and lint parts too:
# ppc_kb and ppc_ul stay set for them, empty when it failed or was not
# wanted.

section "ppc32: KUnit and Check suites (qemu-system-ppc mac99, 7450, TCG)"
# ppc_build: the ppc32 kernel, busybox and Check, the test modules and the
# static test programs; sets ppc_kb and ppc_ul.
ppc_build() {
	bash "$ROOT/tests/deps.sh" ppc || return 1
	ppc_kb=$(build_kernel ppc32) || return 1
	ppc_ul=$(build_userland ppc32) || return 1
	build_module "$ppc_kb" "$BUILD/ppc32" "$BUILD/ppc32.build.log" \
		"${PPC_MAKE[@]}" PERFCTR_TESTS=1 || return 1
	build_user "$BUILD/user-ppc32" CC=powerpc-linux-gnu-gcc \
		CHECK_PREFIX="$ppc_ul"
}
ppc_kb='' ppc_ul=''
if ! want ppc32 && ! want matrix; then
	:
elif ppc_build; then
	record PASS ppc32-build
	want ppc32 && {
	vm_suites ppc32 ppc "$BUILD/user-ppc32" "$BUILD/vm-ppc32.log" \
		--ppc mac99 --cpu 7450 \
		--timeout $((900 + 2 * ${PERFCTR_FUZZ_SECONDS:-20})) \
		--user "$BUILD/user-ppc32" --busybox "$ppc_ul/bin/busybox" \
		ppc32 "$ppc_kb" check "$BUILD/vm-ppc32.log" \
		"$BUILD/ppc32"/{perfctr,perfctr_test,perfctr_simpmu}.ko
	}
else
	record FAIL ppc32-build "see $BUILD/ppc32.build.log, $BUILD/user-ppc32/build.log"
	ppc_kb=
fi
