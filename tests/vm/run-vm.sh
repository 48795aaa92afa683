#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# run-vm.sh [options] KERNEL INITRAMFS PLAN LOG
#   --icount     add -icount shift=0,sleep=off (TSC deltas become instruction counts)
#   --cpu MODEL  QEMU CPU model (default qemu64)
#   --smp N      vCPUs (default 2)
#   --timeout S  hard limit in seconds (default 300)
#   --qemu BIN   emulator (default qemu-system-x86_64)
#   --ppc M      a ppc32 guest on QEMU machine M (g3beige or mac99): console
#                on the Zilog port, ended by the guest powering off
#   --tcg-single one host thread for all vCPUs (x86): Debian's stock
#                kernels patch their text live (static keys: the
#                module's preempt notifiers, sched_clock), and under
#                multi-threaded TCG another vCPU may still run the int3
#                of a finished patch ("Oops: int3" in finish_task_switch
#                or sched_clock_cpu, Debian's 6.12, on a loaded host)
#
# Boots under TCG with the console on the serial port, copies the console
# to LOG (and to stdout with --show), and exits 0 only when the guest plan
# ran to its end and returned 0. A VM that outlives the limit is killed
# and reported as a timeout (exit 124).
set -uo pipefail

icount=() cpu=qemu64 smp=2 limit=300 qemu=qemu-system-x86_64 show=0 ppc=
accel=()
while [ $# -gt 4 ]; do
	case $1 in
	--icount) icount=(-icount shift=0,sleep=off); shift ;;
	--cpu) cpu=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--timeout) limit=$2; shift 2 ;;
	--qemu) qemu=$2; shift 2 ;;
	--ppc) ppc=$2; shift 2 ;;
	--show) show=1; shift ;;
	--tcg-single) accel=(-accel tcg,thread=single); shift ;;
	*) echo "run-vm: unknown option $1" >&2; exit 2 ;;
	esac
done
kernel=$1 initrd=$2 plan=$3 log=$4

common="loglevel=7 panic=-1 kmemleak=on perfctr.plan=$plan"
# The fuzzer's knobs (testing.rst, "The fuzzer"), read by the guest plan.
common+="${PERFCTR_FUZZ_SECONDS:+ perfctr_fuzz.seconds=$PERFCTR_FUZZ_SECONDS}"
common+="${PERFCTR_FUZZ_SEED:+ perfctr_fuzz.seed=$PERFCTR_FUZZ_SEED}"
# make check's stress run: seconds per module (tests/vm/plans/check).
common+=${PERFCTR_STRESS_SECONDS:+ perfctr_stress=$PERFCTR_STRESS_SECONDS}
if [ -n "$ppc" ]; then
	# Uniprocessor machines; OpenBIOS loads the ELF kernel.
	[ "$cpu" = qemu64 ] && cpu=7450
	args=(-M "$ppc" -m 512 -cpu "$cpu" "${icount[@]}"
	      -nographic -no-reboot -serial stdio -monitor none -vga none
	      -kernel "$kernel" -initrd "$initrd"
	      -append "console=ttyPZ0 $common")
	[ "$qemu" = qemu-system-x86_64 ] && qemu=qemu-system-ppc
else
	# tsc=reliable: under TCG the clocksource watchdog sees the TSC
	# jitter and marks it unstable, and the kernel then patches
	# sched_clock's static branch live, which TCG's vCPUs can see
	# half-done ("Oops: int3" in sched_clock_cpu, Debian's 6.12).
	args=(-M pc -m 1024 -smp "$smp" -cpu "$cpu" "${icount[@]}" "${accel[@]}"
	      -nographic -no-reboot -serial stdio -monitor none
	      -device isa-debug-exit,iobase=0xf4,iosize=0x04
	      -kernel "$kernel" -initrd "$initrd"
	      -append "console=ttyS0 nokaslr tsc=reliable $common")
fi

boot() {
	local out=/dev/null
	[ "$show" = 1 ] && out=/dev/stdout
	# --foreground: QEMU stays in the caller's process group, which
	# make check stops on ^C (its second lane's too).
	timeout --foreground --kill-after=10 "$limit" "$qemu" "${args[@]}" \
		</dev/null 2>&1 |
		tr -d '\r' | tee "$log" >"$out"
	return "${PIPESTATUS[0]}"
}

boot
rc=$?
# Now and then an emulated kernel hangs in its own boot self-tests (ppc32)
# or dies patching its text on a loaded host (x86 SMP under TCG: "Oops:
# int3" in sched_clock_cpu, Debian's 6.12, before any module is loaded),
# long before our plan: that is QEMU's, not ours, and earns one more try.
# The first log stays beside the second.
if ! grep -q '== perfctr-vm: plan' "$log"; then
	echo "run-vm: the kernel hung or died before the plan started (qemu exit $rc; $log.early); booting again" >&2
	mv "$log" "$log.early"
	boot
	rc=$?
fi

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "run-vm: TIMEOUT: VM still running after ${limit}s (plan $plan), killed" >&2
	exit 124
fi
# The kernel's console output may land on the same line as the marker.
if ! grep -qE '== perfctr-vm: end rc=0([^0-9]|$)' "$log"; then
	echo "run-vm: plan $plan did not finish cleanly (qemu exit $rc); see $log" >&2
	exit 1
fi
exit 0
