# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets results
# check.sh's rt part: the module on a PREEMPT_RT kernel (linux-source
# 6.12 with PREEMPT_RT, lockdep and raw-lock nesting checks; see
# tests/kernel/x86_64-rt.config): KUnit, the Check suites on the TSC and
# on simulated PMUs, and the stress suite, with every kernel complaint a
# failure. What RT finds is what the 6.1 kernel cannot: a sleeping lock
# taken where a raw one is held, or in hard interrupt context.

want rt || return 0
section "PREEMPT_RT: KUnit, Check and stress on Linux 6.12-rt (x86_64, TCG, -smp 2)"
rt_run() {
	local rt_kb
	rt_kb=$(build_kernel x86_64-rt) || { record FAIL rt-kernel-build; return; }
	echo "  $rt_kb"
	if ! build_module "$rt_kb" "$BUILD/x86_64-rt" "$BUILD/x86_64-rt.build.log" \
		PERFCTR_TESTS=1; then
		record FAIL rt-build-module "see $BUILD/x86_64-rt.build.log"
		tail -n 20 "$BUILD/x86_64-rt.build.log"
		return
	fi
	record PASS rt-build-module
	vm_suites rt x86 "$BUILD/user" "$BUILD/vm-rt.log" \
		--timeout 900 --user "$BUILD/user" rt "$rt_kb" rt \
		"$BUILD/vm-rt.log" "$BUILD/x86_64-rt"/{perfctr,perfctr_test,perfctr_simpmu}.ko
}
rt_run
