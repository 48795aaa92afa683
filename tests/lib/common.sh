# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# Shared by check.sh, run.sh and bench.sh: paths, build steps and the
# one way a test guest is booted (boot_plan).

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
BUILD=${PERFCTR_BUILD:-$ROOT/.build}
mkdir -p "$BUILD"

# The module sources, copied so each kernel gets its own build tree.
MODULE_SOURCES="Kbuild Makefile VERSION include arch drivers"

stage_module() {	# stage_module DIR
	rm -rf "$1"
	mkdir -p "$1/tests"
	# shellcheck disable=SC2086
	(cd "$ROOT" && cp -r $MODULE_SOURCES "$1/" &&
		cp -r tests/kunit tests/sim tests/simpmu "$1/tests/")
}

build_module() {	# build_module KDIR DIR LOG [make args...]
	local kdir=$1 dir=$2 log=$3
	shift 3
	stage_module "$dir"
	make -C "$kdir" M="$dir" -j"$(nproc)" "$@" modules >"$log" 2>&1
}

# build_module_checked KDIR DIR LOG [make args...]: build_module with
# W=1 and sparse (C=2), the tree's own sparse if it brings one
# (tests/stock-kernel.sh sid); module_findings DIR LOG then lists what
# there is to fix: warnings and errors, sparse not run, no perfctr.ko.
build_module_checked() {
	local chk=()
	[ -x "$1/../sparse/sparse" ] && chk=(CHECK="$1/../sparse/sparse")
	build_module "$@" W=1 C=2 "${chk[@]}"
}

module_findings() {	# module_findings DIR LOG
	grep -E '(warning|error|ERROR):' "$2"
	grep -E 'not available or not up to date' "$2"
	grep -q '  CHECK ' "$2" || echo "sparse did not run"
	[ -f "$1/perfctr.ko" ] || echo "no perfctr.ko"
}

build_user() {		# build_user OUTDIR [make args...]
	local out=$1
	shift
	mkdir -p "$out"
	make -s -C "$ROOT/tests/user" O="$out" "$@" >"$out/build.log" 2>&1
}

# The ppc32 guest: its kernel build and user-space tools.
# shellcheck disable=SC2034 # used by the scripts that source this
PPC_MAKE=(ARCH=powerpc CROSS_COMPILE=powerpc-linux-gnu-)

build_userland() {	# build_userland ARCH -> prints the dir (busybox, Check)
	"$ROOT/tests/kernel/build-userland.sh" "$1" | tail -n 1
}

build_kernel() {	# build_kernel ARCH -> prints the build dir
	"$ROOT/tests/kernel/build-kernel.sh" "$1" | tail -n 1
}

# build_x86 NAME: what make run and make bench boot, built or taken from
# the caches: the packages, the x86_64 test kernel (its dir in $kb), the
# modules in $BUILD/NAME and the user-space tests in $BUILD/user. Exits
# with the build's log on a failure.
build_x86() {
	bash "$ROOT/tests/deps.sh"
	echo ">> test kernel (first build takes several minutes, then cached)"
	kb=$(build_kernel x86_64)
	echo ">> module and tools"
	build_module "$kb" "$BUILD/$1" "$BUILD/$1.build.log" PERFCTR_TESTS=1 ||
		{ tail -n 20 "$BUILD/$1.build.log"; exit 1; }
	build_user "$BUILD/user" || { cat "$BUILD/user/build.log"; exit 1; }
}

# make_initramfs OUT KBUILD MODDIR USERDIR [BUSYBOX [DEST=SRC...]]
make_initramfs() {
	local out=$1 kb=$2 mods=$3 user=$4 bb=${5:-/bin/busybox} extra=() f
	shift $(($# < 5 ? $# : 5))
	extra=("$@")
	for f in "$mods"/*.ko; do extra+=("/lib/modules/$(basename "$f")=$f"); done
	for f in "$user"/check_*; do extra+=("/tests/$(basename "$f")=$f"); done
	[ -f "$user/simpmu_check" ] && extra+=("/tests/simpmu_check=$user/simpmu_check")
	[ -f "$user/bench" ] && extra+=("/tests/bench=$user/bench")
	[ -f "$user/perfctr_fuzz" ] && extra+=("/tests/perfctr_fuzz=$user/perfctr_fuzz")
	[ -f "$user/perfctr_stress" ] && extra+=("/tests/perfctr_stress=$user/perfctr_stress")
	[ -f "$user/vself" ] && extra+=("/bin/vself=$user/vself")
	[ -f "$user/perfex" ] && extra+=("/bin/perfex=$user/perfex")
	[ -f "$user/busy" ] && extra+=("/bin/busy=$user/busy")
	[ -f "$user/perfmon-example" ] && extra+=("/bin/perfmon-example=$user/perfmon-example")
	[ -f "$user/perfmon-compat32" ] && extra+=("/tests/perfmon-compat32=$user/perfmon-compat32")
	# make check-hw's runner and programs, for check_hw.
	[ -f "$user/hwloop" ] && extra+=("/bin/hwloop=$user/hwloop"
		"/bin/hwjudge=$user/hwjudge"
		"/bin/perfctr-check-hw=$ROOT/tests/hw/run.sh")
	extra+=("/bin/vm-exit=$user/vm-exit" "/bin/gperfctr=$user/gperfctr")
	"$ROOT/tests/vm/build-initramfs.sh" --busybox "$bb" "$out" \
		"$kb/usr/gen_init_cpio" "${extra[@]}"
}

# boot_plan [options] NAME KBUILD PLAN LOG MODULE.ko...
# Packs the modules (into /lib/modules) in $BUILD/NAME.cpio.gz and boots
# KBUILD's kernel-image on tests/vm/plans/PLAN, its console in LOG; returns
# tests/vm/run-vm.sh's status. Every runner boots through here, so a guest
# is packed and started one way only.
#   --user DIR       also pack DIR's tests and tools (make_initramfs)
#   --busybox FILE   a static busybox of the guest's arch (default the host's)
#   --init FILE      FILE is /init, with no busybox and no plans
#   --file DEST=SRC  one more file
#   --kernel IMAGE   boot IMAGE (a stock kernel); KBUILD still packs
#   --ppc M --cpu C --smp N --timeout S --icount --show: for run-vm.sh
boot_plan() {
	local user="" bb=/bin/busybox init=() files=() vm=() kernel="" m
	local name kb plan log
	while :; do
		case $1 in
		--user) user=$2; shift 2 ;;
		--busybox) bb=$2; shift 2 ;;
		--init) init=(--init "$2"); shift 2 ;;
		--file) files+=("$2"); shift 2 ;;
		--kernel) kernel=$2; shift 2 ;;
		--ppc|--cpu|--smp|--timeout) vm+=("$1" "$2"); shift 2 ;;
		--icount|--show|--tcg-single) vm+=("$1"); shift ;;
		*) break ;;
		esac
	done
	name=$1 kb=$2 plan=$3 log=$4
	shift 4
	# A guest that cannot be packed leaves a log that says so, not an
	# older run's log for the callers to read.
	echo "boot_plan: packing $BUILD/$name.cpio.gz failed" >"$log"
	if [ -n "$user" ]; then
		# make_initramfs takes the modules as a directory.
		rm -rf "$BUILD/$name-mods"
		mkdir -p "$BUILD/$name-mods"
		cp "$@" "$BUILD/$name-mods/" || return 1
		make_initramfs "$BUILD/$name.cpio.gz" "$kb" "$BUILD/$name-mods" \
			"$user" "$bb" "${files[@]}" || return 1
	else
		for m in "$@"; do files+=("/lib/modules/${m##*/}=$m"); done
		"$ROOT/tests/vm/build-initramfs.sh" "${init[@]}" --busybox "$bb" \
			"$BUILD/$name.cpio.gz" "$kb/usr/gen_init_cpio" "${files[@]}" ||
			return 1
	fi
	"$ROOT/tests/vm/run-vm.sh" "${vm[@]}" "${kernel:-$kb/kernel-image}" \
		"$BUILD/$name.cpio.gz" "$plan" "$log"
}
