#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# make check-hw's runner (check-hw.sh builds, then calls it; the test VM
# has it as /bin/perfctr-check-hw). POSIX sh: busybox runs it in the VM.
#
#   run.sh [--module KO | --use-loaded] [--bin DIR] [-n N]
#          [--facts FILE] [--measure-only]
#
# Gathers the facts (this machine, perfctr's info, the loop counted
# through the state page, perfex and perf stat) as key=value lines, then
# lets hwjudge print the verdict; exits with its status: 0 PASS, 1 FAIL,
# 2 REFUSED. --module loads KO and unloads it before perf runs;
# --use-loaded measures with the module as it is (perf is skipped);
# --measure-only prints the facts instead of a verdict, whatever the
# refusals (the test VM's simulated PMU).
set -u

module='' use_loaded=0 measure_only=0 n=100000000 facts=''
bin=$(dirname "$0")
while [ $# -gt 0 ]; do
	case $1 in
	--module) module=$2; shift 2 ;;
	--use-loaded) use_loaded=1; shift ;;
	--bin) bin=$2; shift 2 ;;
	-n) n=$2; shift 2 ;;
	--facts) facts=$2; shift 2 ;;
	--measure-only) measure_only=1; shift ;;
	*) echo "usage: run.sh [--module KO | --use-loaded] [--bin DIR] [-n N] [--facts FILE] [--measure-only]" >&2
	   exit 1 ;;
	esac
done
hwloop=$bin/hwloop hwjudge=$bin/hwjudge perfex=$bin/perfex
tmp=$(mktemp -d) || { echo "check-hw: mktemp failed: is /tmp writable?" >&2; exit 1; }
: "${facts:=$tmp/facts}"
: >"$facts"
loaded=0

fact() { printf '%s=%s\n' "$1" "$2" >>"$facts"; }

cleanup() {
	if [ "$loaded" = 1 ]; then
		umount /proc/perfctr 2>/dev/null
		rmmod perfctr 2>/dev/null
	fi
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# This machine: the kernel, the CPU, who could hold the counters.
machine_facts() {
	fact uid "$(id -u)"
	fact kernel "$(uname -r)"
	fact kernel_build "$(uname -v)"
	fact machine "$(uname -m)"
	fact nmi_watchdog "$(cat /proc/sys/kernel/nmi_watchdog 2>/dev/null ||
		echo absent)"
	fact loop_n "$n"
	"$hwloop" cpu >>"$facts"
}

# Loads --module and mounts the file system; module_error says why not.
load_module() {
	if [ -d /sys/module/perfctr ]; then
		fact perfctr_preloaded yes
		return 1
	fi
	if [ -d /sys/module/perfctr_simpmu ]; then
		fact simulated yes
		return 1
	fi
	if ! err=$(insmod "$module" 2>&1); then
		fact module_error "insmod $module: $err; dmesg: $(dmesg | tail -n 1); what to do: with Secure Boot an unsigned module is refused (sign it with the kernel's scripts/sign-file and an enrolled key, or mokutil --disable-validation); a kernel too new for perfctr needs a port"
		return 1
	fi
	loaded=1
	mount -t perfctr perfctr /proc/perfctr ||
		{ fact module_error "mount -t perfctr perfctr /proc/perfctr failed"; return 1; }
}

# The sets of threads that just exited are freed a moment later: until
# then the module is busy.
unload_module() {
	umount /proc/perfctr
	i=0
	until rmmod perfctr 2>/dev/null; do
		i=$((i + 1))
		if [ "$i" -ge 5 ]; then
			fact module_error "rmmod perfctr failed: $(rmmod perfctr 2>&1): see lsmod, then rmmod perfctr by hand"
			return 1
		fi
		sleep 1
	done
	loaded=0
}

# /proc/perfctr/info's lines as perfctr_KEY facts.
info_facts() {
	[ -d /sys/module/perfctr_simpmu ] && fact simulated yes
	sed -n 's/^\([a-z_]*\): *\(.*\)$/perfctr_\1=\2/p' /proc/perfctr/info \
		>>"$facts"
}

# count_csv FILE EVENT: the count of EVENT in perf stat's -x , layout,
# or nothing when it was not counted. On a hybrid CPU perf has a row per
# core type (cpu_core/EVENT/, cpu_atom/EVENT/): their sum.
count_csv() {
	awk -F, -v ev="$2" '($3 == ev || index($3, "/" ev "/")) &&
		$1 ~ /^[0-9]+$/ { sum += $1; n++ }
		END { if (n) printf "%.0f\n", sum }' "$1"
}

# tool_counts TOOL PREFIX CMD...: counts the loop of 0 and of N with CMD
# (perfex or perf stat), as PREFIX_base_inst, PREFIX_inst, PREFIX_cycles
# (and PREFIX_tsc where there is a tsc row).
tool_counts() {
	tool=$1 pfx=$2
	shift 2
	for k in 0 "$n"; do
		out=$tmp/$pfx.$k
		if ! "$@" -x , -o "$out" -e instructions:u,cycles:u -- \
			"$hwloop" loop "$k" 2>"$tmp/err"; then
			fact "${pfx}_error" "$tool failed: $(head -n 2 "$tmp/err" | tr '\n' ' ')"
			return 1
		fi
		inst=$(count_csv "$out" instructions:u)
		cyc=$(count_csv "$out" cycles:u)
		if [ -z "$inst" ] || [ -z "$cyc" ]; then
			fact "${pfx}_error" "$tool counted nothing: $(tr '\n' ' ' <"$out")"
			return 1
		fi
		if [ "$k" = 0 ]; then
			fact "${pfx}_base_inst" "$inst"
		else
			fact "${pfx}_inst" "$inst"
			fact "${pfx}_cycles" "$cyc"
			# perfex's own row of the TSC (perf has none).
			fact "${pfx}_tsc" "$(count_csv "$out" tsc)"
		fi
	done
}

# The loop in-process and under perfex. Where some CPUs have no counters
# (a hyper-threaded P4's second threads), on CPU 0, which has them.
measure() {
	pin=
	if [ -n "$(sed -n 's/^cpus_forbidden: *//p' /proc/perfctr/info)" ]; then
		pin="taskset -c 0"
		fact pinned "CPU 0: perfctr forbids some CPUs"
	fi
	# $pin: a command prefix, or nothing.
	# shellcheck disable=SC2086
	$pin "$hwloop" state "$n" >>"$facts"
	# shellcheck disable=SC2086
	tool_counts perfex perfex $pin "$perfex"
}

perf_facts() {
	if [ "$use_loaded" = 1 ]; then
		fact perf skipped
		fact perf_reason "perfctr stays loaded (--use-loaded), and would keep the counters from perf"
	elif ! command -v perf >/dev/null 2>&1; then
		fact perf absent
		fact perf_reason "perf is not installed: apt install linux-perf (Debian), linux-tools-\$(uname -r) (Ubuntu), dnf install perf (Fedora); then run again to compare"
	elif ! perf --version >/dev/null 2>&1; then
		fact perf unusable
		fact perf_reason "perf does not run: $(perf --version 2>&1 | head -n 1): install the perf that matches this kernel"
	else
		fact perf_version "$(perf --version)"
		if tool_counts perf perf perf stat; then
			fact perf ok
		else
			fact perf unusable
			fact perf_reason "perf stat could not count here: $(sed -n 's/^perf_error=//p' "$facts" | tail -n 1)"
		fi
	fi
}

machine_facts
if [ "$(id -u)" = 0 ]; then
	if [ "$use_loaded" = 1 ] || load_module; then
		info_facts
		if [ "$measure_only" = 1 ] || "$hwjudge" --refused "$facts"; then
			measure
		fi
	fi
	# perf holds the PMU otherwise: perfctr goes first.
	[ "$loaded" = 1 ] && unload_module
	if [ "$measure_only" = 1 ] || "$hwjudge" --refused "$facts"; then
		perf_facts
	fi
fi
if [ "$measure_only" = 1 ]; then
	cat "$facts"
	exit 0
fi
"$hwjudge" "$facts"
