#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check: install what is missing, build everything, run every suite
# (KUnit and Check in the test VM, the stock-kernel load test, the lint
# gate), then print "N passed, N failed". Exits non-zero on any failure,
# timeout, or kernel complaint in a guest log.
set -uo pipefail
. "$(dirname "$0")/lib/common.sh"

results=$BUILD/results.txt
: >"$results"
start=$(date +%s)

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

section() { echo; echo "=== $*"; }

# PERFCTR_CHECK_ONLY="x86 ppc32 stock matrix lint" (any of them) runs only
# those parts, for work on one of them; make check runs them all.
want() {
	case " ${PERFCTR_CHECK_ONLY:-x86 ppc32 stock matrix lint} " in
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
	fi
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

section "dependencies"
bash "$ROOT/tests/deps.sh" || { record FAIL deps; finish; }

section "test kernel (x86_64, cached)"
kb=$(build_kernel x86_64) || { record FAIL kernel-build; finish; }
echo "  $kb"

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

want x86 && {
section "test VM: KUnit and Check suites (x86_64, TCG, -smp 2)"
mkdir -p "$BUILD/mods"
rm -f "$BUILD/mods"/*.ko
cp "$BUILD/x86_64"/perfctr.ko "$BUILD/x86_64"/perfctr_test.ko \
	"$BUILD/x86_64"/perfctr_simpmu.ko "$BUILD/mods/"
make_initramfs "$BUILD/initramfs.cpio.gz" "$kb" "$BUILD/mods" "$BUILD/user"
if "$ROOT/tests/vm/run-vm.sh" --timeout 600 "$kb/kernel-image" \
	"$BUILD/initramfs.cpio.gz" check "$BUILD/vm-check.log"; then
	record PASS vm:plan-completed
else
	record FAIL vm:plan-completed "see $BUILD/vm-check.log"
fi
suite_results "$BUILD/vm-check.log" x86 "$BUILD/user"
log_clean vm:guest-log-clean "$BUILD/vm-check.log"
}

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
ppc_kb= ppc_ul=
if ! want ppc32 && ! want matrix; then
	:
elif ppc_build; then
	record PASS ppc32-build
	want ppc32 && {
	mkdir -p "$BUILD/mods-ppc32"
	rm -f "$BUILD/mods-ppc32"/*.ko
	cp "$BUILD/ppc32"/perfctr.ko "$BUILD/ppc32"/perfctr_test.ko \
		"$BUILD/ppc32"/perfctr_simpmu.ko "$BUILD/mods-ppc32/"
	make_initramfs "$BUILD/initramfs-ppc32.cpio.gz" "$ppc_kb" \
		"$BUILD/mods-ppc32" "$BUILD/user-ppc32" "$ppc_ul/bin/busybox"
	if "$ROOT/tests/vm/run-vm.sh" --ppc mac99 --cpu 7450 --timeout 600 \
		"$ppc_kb/kernel-image" "$BUILD/initramfs-ppc32.cpio.gz" check \
		"$BUILD/vm-ppc32.log"; then
		record PASS ppc32-vm:plan-completed
	else
		record FAIL ppc32-vm:plan-completed "see $BUILD/vm-ppc32.log"
	fi
	suite_results "$BUILD/vm-ppc32.log" ppc "$BUILD/user-ppc32" ppc32
	log_clean ppc32-vm:guest-log-clean "$BUILD/vm-ppc32.log"
	}
else
	record FAIL ppc32-build "see $BUILD/ppc32.build.log, $BUILD/user-ppc32/build.log"
	ppc_kb=
fi

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
	if ! build_module "$hdrs" "$BUILD/$n" "$BUILD/$n.build.log"; then
		record FAIL "$n-build-module" "see $BUILD/$n.build.log"
		tail -n 20 "$BUILD/$n.build.log"
		return
	fi
	record PASS "$n-build-module"
	mkdir -p "$BUILD/$n-mods"
	cp "$BUILD/$n/perfctr.ko" "$BUILD/$n-mods/"
	make_initramfs "$BUILD/$n.cpio.gz" "$kb" "$BUILD/$n-mods" "$BUILD/user"
	"$ROOT/tests/vm/run-vm.sh" --timeout 400 "$vmlinuz" "$BUILD/$n.cpio.gz" \
		stock "$BUILD/vm-$n.log" || record FAIL "vm:$n-plan-completed" "see $BUILD/vm-$n.log"
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
fi

want matrix && {
section "CPU matrix: detection and fallback on QEMU's CPU models"
# matrix_kernel ARCH: build the module for ARCH's test kernel and its
# matrix initramfs once; prints the kernel build dir.
# ppc32 guests run tests/vm/plans/matrix under busybox.
matrix_kernel() {
	local arch=$1 kb bits=64 init mod extra=()
	[ "$arch" = i386 ] && bits=32
	if [ "$arch" = ppc32 ]; then
		# The test build of the ppc32 VM: the KUnit suites run too.
		[ -n "$ppc_kb" ] || return 1
		kb=$ppc_kb
		mod=$BUILD/ppc32
		init=(--busybox "$ppc_ul/bin/busybox")
		extra=("/bin/vm-exit=$BUILD/user-ppc32/vm-exit"
		       "/lib/modules/perfctr_test.ko=$BUILD/ppc32/perfctr_test.ko")
	else
		kb=$(build_kernel "$arch") || return 1
		mod=$BUILD/matrix-$arch
		build_module "$kb" "$mod" "$BUILD/matrix-$arch.build.log" || return 1
		init=(--init "$BUILD/user/matrix-init-$bits")
	fi
	"$ROOT/tests/vm/build-initramfs.sh" "${init[@]}" \
		"$BUILD/matrix-$arch.cpio.gz" "$kb/usr/gen_init_cpio" \
		"/lib/modules/perfctr.ko=$mod/perfctr.ko" "${extra[@]}" || return 1
	echo "$kb"
}
}

declare -A matrix_kb
want matrix &&
while IFS='|' read -r arch cpu want_type want_fallback; do
	arch=$(echo $arch) cpu=$(echo $cpu)
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
	"$ROOT/tests/vm/run-vm.sh" "${vm[@]}" --cpu "$cpu" --timeout 180 \
		"${matrix_kb[$arch]}/kernel-image" "$BUILD/matrix-$arch.cpio.gz" \
		matrix "$log" || record FAIL "matrix:$cpu:plan-completed" "see $log"
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
	log_clean "matrix:$cpu:guest-log-clean" "$log"
done <"$ROOT/tests/vm/matrix.txt"

want lint && {
section "lint: checkpatch --strict, sparse C=2, W=1"
bash "$ROOT/tests/lint.sh" "$kb" "$BUILD/lint" "$ppc_kb" >"$BUILD/lint.log" 2>&1
sed -n 's/^RESULT \(PASS\|FAIL\) \(.*\)/\1 \2/p' "$BUILD/lint.log" >>"$results"
grep -vE '^RESULT ' "$BUILD/lint.log" | head -n 40
}

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
