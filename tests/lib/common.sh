# SPDX-License-Identifier: GPL-2.0-only
# Shared by check.sh, run.sh and bench.sh: paths and build steps.

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

build_user() {		# build_user OUTDIR [make args...]
	local out=$1
	shift
	mkdir -p "$out"
	make -s -C "$ROOT/tests/user" O="$out" "$@" >"$out/build.log" 2>&1
}

# The ppc32 guest: its kernel build and user-space tools.
PPC_MAKE=(ARCH=powerpc CROSS_COMPILE=powerpc-linux-gnu-)

build_userland() {	# build_userland ARCH -> prints the dir (busybox, Check)
	"$ROOT/tests/kernel/build-userland.sh" "$1" | tail -n 1
}

build_kernel() {	# build_kernel ARCH -> prints the build dir
	"$ROOT/tests/kernel/build-kernel.sh" "$1" | tail -n 1
}

# make_initramfs OUT KBUILD MODDIR USERDIR [BUSYBOX]
make_initramfs() {
	local out=$1 kb=$2 mods=$3 user=$4 bb=${5:-/bin/busybox} extra=() f
	for f in "$mods"/*.ko; do extra+=("/lib/modules/$(basename "$f")=$f"); done
	for f in "$user"/check_*; do extra+=("/tests/$(basename "$f")=$f"); done
	[ -f "$user/simpmu_check" ] && extra+=("/tests/simpmu_check=$user/simpmu_check")
	[ -f "$user/bench" ] && extra+=("/tests/bench=$user/bench")
	[ -f "$user/vself" ] && extra+=("/bin/vself=$user/vself")
	extra+=("/bin/vm-exit=$user/vm-exit" "/bin/gperfctr=$user/gperfctr")
	"$ROOT/tests/vm/build-initramfs.sh" --busybox "$bb" "$out" \
		"$kb/usr/gen_init_cpio" "${extra[@]}"
}
