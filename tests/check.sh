#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: install what is missing, build everything, run every suite
# (KUnit and Check in the test VM, the stock-kernel load test, the lint
# gate), then print "N passed, N failed". Exits non-zero on any failure,
# timeout, or kernel complaint in a guest log. The parts (x86, rt, ppc32,
# stock, matrix, papi, and kernels, which goes with stock) are in
# tests/check/;
# this file holds what they share: the records, the log scans, the x86_64
# build and the tally.
set -uo pipefail
. "$(dirname "$0")/lib/common.sh"

results=$BUILD/results.txt
: >"$results"
start=$(date +%s)
lane_pid=

record() {	# record PASS|FAIL name [detail]
	echo "$1 $2" >>"$results"
	[ "$1" = PASS ] || echo "  $1 $2${3:+: $3}"
}

finish() {
	local p f s
	p=$(grep -c '^PASS ' "$results")
	f=$(grep -c '^FAIL ' "$results")
	s=$(grep -c '^SKIP ' "$results")
	if grep -q '^FAIL ' "$results"; then
		echo
		echo "failed:"
		sed -n 's/^FAIL /  /p' "$results"
	fi
	prebuild_stop
	lane_stop
	echo
	echo "make check took $(($(date +%s) - start)) s; logs in $BUILD"
	if [ "$s" -gt 0 ]; then
		echo "$p passed, $f failed, $s skipped"
	else
		echo "$p passed, $f failed"
	fi
	[ "$f" = 0 ] && [ "$p" -gt 0 ]
	exit $?
}

# Each heading says when it began, so a slow part shows in the log.
section() { echo; echo "=== $* [at $((SECONDS / 60))m$((SECONDS % 60))s]"; }

# PERFCTR_CHECK_ONLY="vp install x86 rt ppc32 stock pkg matrix papi lint"
# (any of them) runs only those parts, for work on one of them; make check
# runs them all.
want() {
	case " ${PERFCTR_CHECK_ONLY:-vp install x86 rt ppc32 stock pkg matrix papi lint} " in
	*" $1 "*) return 0 ;;
	esac
	return 1
}

# Guest complaints that fail a run even when every suite said ok.
KERNEL_COMPLAINTS='BUG: |WARNING: |UBSAN: |unreferenced object|Call Trace:|general protection fault|Oops|Kernel panic|cut here|list_add corruption|list_del corruption|possible recursive locking|inconsistent lock state|circular locking'

log_clean() {	# log_clean NAME LOG
	local bad
	bad=$(grep -nE "$KERNEL_COMPLAINTS" "$2" | head -n 5)
	if [ -z "$bad" ]; then
		record PASS "$1"
	else
		record FAIL "$1" "kernel complained:"
		echo "$bad" | sed 's/^/      /'
		log_report "$2" "${bad%%:*}"
	fi
}

# log_report LOG LINE: what a CI log needs to tell the cause of the
# complaint at LINE without the guest's log: the suite then running and
# the report's task, RIP and call trace.
log_report() {
	local first=$2
	echo "      -- running: $(head -n "$first" "$1" |
		grep -E '^Running suite|^# Subtest|^== ' | tail -n 1)"
	sed -n "${first},$((first + 60))p" "$1" |
		grep -E 'CPU: |RIP: |Comm: | [?]? ?[a-z_][a-zA-Z0-9_.]*\+0x' |
		head -n 30 | sed 's/^/      | /'
}

# suite_results LOG ARCH USERDIR [PREFIX] -> records KUnit, Check and
# RESULT lines, named PREFIX-kunit:..., PREFIX-check:..., PREFIX-vm:...
# (kunit:, check:, vm: without PREFIX). The KUnit suites expected are
# the arch-neutral ones and ARCH's (x86, ppc).
suite_results() {
	local log=$1 arch=$2 user=$3 pfx=${4:+$4-} suites nchk
	suites=$(sed -n 's/^\t*\.name = "\(perfctr_[a-z0-9_]*\)".*/\1/p' \
		"$ROOT"/tests/kunit/cstatus_test.c \
		"$ROOT"/tests/kunit/"${arch/#ppc/powerpc}"/*_test.c | tr '\n' ' ')
	nchk=$(ls "$user"/check_* | wc -l)
	sed -n '/== kunit begin/,/== kunit end/p' "$log" |
		awk -v suites="$suites" -f "$ROOT/tests/lib/ktap.awk" |
		sed "s/ kunit:/ ${pfx}kunit:/" >>"$results"
	sed -n '/== check begin/,/== check end/p' "$log" |
		awk -v expect="$nchk" -f "$ROOT/tests/lib/check.awk" |
		sed "s/ check:/ ${pfx}check:/" >>"$results"
	sed -n "s/^RESULT \(PASS\|FAIL\) \(.*\)/\1 ${pfx}vm:\2/p" "$log" >>"$results"
}

# vm_suites PREFIX ARCH USERDIR LOG BOOT_PLAN_ARGS...: boots a guest that
# runs the KUnit and Check suites (boot_plan BOOT_PLAN_ARGS, whose log is
# LOG) and records its plan's end, its suites and its log's cleanliness.
vm_suites() {
	local pfx=$1 arch=$2 user=$3 log=$4 n=${1:+$1-}
	shift 4
	if boot_plan "$@"; then
		record PASS "${n}vm:plan-completed"
	else
		record FAIL "${n}vm:plan-completed" "see $log"
	fi
	suite_results "$log" "$arch" "$user" "$pfx"
	log_clean "${n}vm:guest-log-clean" "$log"
}

# The later parts' kernels, the ppc32 user space and sid's kernel tree
# (tests/stock-kernel.sh sid) build in the background, niced, while the
# guests run: they leave some of the host idle, and a cold run has four
# kernels to build and one to prepare.
# Each build holds its cache directory's lock, so a part that needs one
# sooner waits for it rather than building it twice, and builds it
# itself (with the error in its own log) if the background one failed.
# Its disk reads and writes wait for the guests' too (ionice idle). In a
# process group of its own (set -m), so that a run that ends early, or is
# interrupted, stops all of it: a build cut short has no .built and is
# built again by the next run.
prebuild() {
	# In the order the parts want them: sid's kernel (minutes, mostly
	# download and unpacking) and the ppc32 builds for the second lane's
	# stock and ppc32 parts, minutes in; the pkg part's bookworm system
	# (debootstrap: a minute, mostly download) and the RT kernel for the
	# first lane's, after the x86 guest; the i386 kernel for the matrix.
	want stock && time bash "$ROOT/tests/stock-kernel.sh" sid
	if [ "$ppc_deps" = 1 ]; then
		build_userland ppc32
		build_kernel ppc32
	fi
	want pkg && time bash "$ROOT/tests/pkg/rootfs.sh"
	want pkg && ! want stock && time bash "$ROOT/tests/stock-kernel.sh" sid
	want rt && build_kernel x86_64-rt
	want matrix && build_kernel i386
}
prebuild_pid=
prebuild_start() {
	set -m
	(renice -n 19 -p "$BASHPID" >/dev/null
	 ionice -c 3 -p "$BASHPID" 2>/dev/null
	 prebuild) >"$BUILD/prebuild.log" 2>&1 &
	prebuild_pid=$!
	set +m
	echo "  the later parts' kernels build in the background: $BUILD/prebuild.log"
}
prebuild_stop() {
	[ -n "$prebuild_pid" ] || return 0
	kill -- -"$prebuild_pid" 2>/dev/null
	wait "$prebuild_pid" 2>/dev/null
	prebuild_pid=
}
# The second lane (below), stopped as the background builds are.
lane_stop() {
	[ -n "$lane_pid" ] || return 0
	kill -- -"$lane_pid" 2>/dev/null
	wait "$lane_pid" 2>/dev/null
	lane_pid=
}
trap 'prebuild_stop; lane_stop; exit 130' INT TERM

# The sets' fast suite first: seconds, and no VM.
. "$ROOT/tests/check/vp.sh"

section "dependencies"
# The ppc32 tools too, now: the background builds must not run apt. If
# they cannot be had, the ppc32 and matrix parts fail and the rest runs.
ppc_deps=0
if want ppc32 || want matrix; then
	if bash "$ROOT/tests/deps.sh" ppc; then
		ppc_deps=1
	else
		record FAIL ppc32-deps "the ppc32 cross tools or qemu-system-ppc"
	fi
fi
if [ "$ppc_deps" = 0 ]; then
	bash "$ROOT/tests/deps.sh" || { record FAIL deps; finish; }
fi

# User space installed, on the host: seconds.
. "$ROOT/tests/check/install.sh"

section "test kernel (x86_64, cached)"
kb=$(build_kernel x86_64) || { record FAIL kernel-build; finish; }
echo "  $kb"

prebuild_start

section "build: module, KUnit module, user-space tests"
if build_module "$kb" "$BUILD/x86_64" "$BUILD/x86_64.build.log" PERFCTR_TESTS=1; then
	record PASS build-module
else
	record FAIL build-module "see $BUILD/x86_64.build.log"
	tail -n 20 "$BUILD/x86_64.build.log"
	finish
fi
if build_user "$BUILD/user"; then
	record PASS build-user-tests
else
	record FAIL build-user-tests
	cat "$BUILD/user/build.log"
	finish
fi

# result_lines NAME LINES CMD...: runs CMD into $BUILD/NAME.log, records
# its RESULT lines and shows up to LINES of what else it said. A CMD that
# fails without a failed RESULT (it crashed) fails as NAME.
result_lines() {
	local name=$1 log=$BUILD/$1.log lines=$2 rc=0
	shift 2
	"$@" >"$log" 2>&1 || rc=$?
	sed -n 's/^RESULT \(PASS\|FAIL\) \(.*\)/\1 \2/p' "$log" >>"$results"
	grep -vE '^RESULT ' "$log" | head -n "$lines"
	if [ "$rc" != 0 ] && ! grep -q '^RESULT FAIL' "$log"; then
		record FAIL "$name" "exited $rc with no failed case: see $log"
	fi
}

# The compile-only pass, the event tables' checks and the lint gate,
# which use what the stock and ppc32 parts fetched and built.
last_parts() {
	. "$ROOT/tests/check/kernels.sh"

	# The event tables: their generator, AMD's own lists, their sources.
	want lint && {
	section "jevents: the event tables' generator refuses bad input"
	result_lines jevents 20 python3 "$ROOT/tests/pmu-events/test_jevents.py"
	section "amd-tables: the AMD tables against AMD's own event lists"
	result_lines amd-tables 60 python3 "$ROOT/tests/pmu-events/test_amd_tables.py"
	section "sources: every table's SOURCES names its rows' third-party-only sources"
	result_lines sources 40 python3 "$ROOT/tests/pmu-events/test_sources.py"
	}

	want lint && {
	section "lint: checkpatch --strict, sparse C=2, W=1"
	result_lines lint 40 bash "$ROOT/tests/lint.sh" "$kb" "$BUILD/lint" "$ppc_kb"
	}
}

# The parts, each in tests/check/PART.sh, in two lanes. The x86 guest
# keeps about 1.3 of the host's two CPUs busy and each other guest one,
# so the stock, ppc32, matrix and papi parts, then the last ones (the
# matrix, kernels and lint use what the ppc32 part built), run in a lane
# of their own (lane_start) beside the x86, pkg and rt parts; the lane's
# output is shown when both are done.
lane_start() {
	set -m
	# Its records in a file of its own: a sed or awk writing many lines
	# at once could split one where the other lane's come in between.
	(trap - INT TERM
	 results=$BUILD/lane.results
	 : >"$results"
	 . "$ROOT/tests/check/stock.sh"
	 . "$ROOT/tests/check/ppc32.sh"
	 . "$ROOT/tests/check/matrix.sh"
	 . "$ROOT/tests/check/papi.sh"
	 last_parts
	 echo done >"$BUILD/lane.done"
	) >"$BUILD/lane.log" 2>&1 &
	lane_pid=$!
	set +m
	echo "  the stock, ppc32, matrix, papi, kernels and lint parts run beside it: $BUILD/lane.log"
}
ppc_kb='' ppc_ul=''
rm -f "$BUILD/lane.done" "$BUILD/lane.results"
lane_start
. "$ROOT/tests/check/x86.sh"
. "$ROOT/tests/check/pkg.sh"
. "$ROOT/tests/check/rt.sh"
wait "$lane_pid"
lane_rc=$?
lane_pid=
cat "$BUILD/lane.log"
cat "$BUILD/lane.results" >>"$results" 2>/dev/null
# A shell error ends only the lane's subshell: it fails the run.
[ -f "$BUILD/lane.done" ] ||
	record FAIL lane "the second lane stopped early (status $lane_rc): see $BUILD/lane.log"

section "results"
awk '/^(PASS|FAIL|SKIP) / {
	split($2, p, ":"); g = (p[1] ~ /(^|-)(kunit|check)$/) ? p[1] ":" p[2] : p[1]
	n[g, $1]++; seen[g] = 1
} END {
	for (g in seen)
		printf "  %-36s %3d passed, %d failed, %d skipped\n", g,
		       n[g, "PASS"], n[g, "FAIL"], n[g, "SKIP"]
}' "$results" | sort
finish
