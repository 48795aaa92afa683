#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make check-hw: perfctr on this machine's real counters (Documentation/
# perfctr/testing.rst, "Real counters"). Installs nothing: it says what
# is missing. Builds the module against the running kernel, the tools and
# the loop in .build/hw, then runs tests/hw/run.sh, which loads the
# module, counts, unloads it, runs perf stat and prints the verdict.
# Knob: PERFCTR_HW_LOOPS (default 100000000), KDIR (the kernel tree).
# Exit: 0 PASS, 1 FAIL (or could not build), 2 REFUSED.
set -uo pipefail
. "$(dirname "$0")/../lib/common.sh"

out=$BUILD/hw
kdir=${KDIR:-/lib/modules/$(uname -r)/build}
mkdir -p "$out"

die() { echo "check-hw: $*" >&2; exit 1; }

need() {	# need COMMAND WHAT-TO-INSTALL
	command -v "$1" >/dev/null 2>&1 ||
		die "$1 is missing: install $2, then run make check-hw again"
}

[ "$(uname -m)" = x86_64 ] || [ "$(uname -m)" = i686 ] ||
	die "the check's loop is x86 code; this is $(uname -m): run it on an x86 machine"
need cc "gcc (Debian/Ubuntu: apt install build-essential; Fedora: dnf install gcc make)"
need make "make"
need python3 "python3 (libperfctr's event tables are generated with it)"

echo ">> user space: libperfctr, perfex, hwloop, hwjudge (in $out)"
make -s -C "$ROOT/tools" O="$BUILD/tools" >"$out/tools.log" 2>&1 ||
	{ tail -n 20 "$out/tools.log"; die "make tools failed: the log is $out/tools.log"; }
make -s -C "$ROOT/tests/hw" O="$out" TOOLS_O="$BUILD/tools" \
	>"$out/hw.log" 2>&1 ||
	{ tail -n 20 "$out/hw.log"; die "building hwloop failed: the log is $out/hw.log"; }
# perfex finds libperfctr.so.1 beside it (its RUNPATH is $ORIGIN).
cp "$BUILD/tools/perfex" "$BUILD/tools/libperfctr.so.1" "$out/"

run=(sh "$ROOT/tests/hw/run.sh" --bin "$out" --facts "$out/facts.txt"
     -n "${PERFCTR_HW_LOOPS:-100000000}")
# Not root: the runner refuses, with the verdict, before any module.
[ "$(id -u)" = 0 ] || exec "${run[@]}"

[ -d "$kdir" ] || die "no build tree for the running kernel at $kdir: install its headers (Debian: apt install linux-headers-$(uname -r); Ubuntu: the same; Fedora: dnf install kernel-devel-$(uname -r)), or give KDIR=/path/to/build"
echo ">> module against $kdir"
build_module "$kdir" "$out/module" "$out/module.log" ||
	{ tail -n 20 "$out/module.log"; die "the module did not build against $kdir: the log is $out/module.log; a kernel newer than perfctr knows may need a port (README: which kernels are tested)"; }
echo ">> counting (about a minute); the facts go to $out/facts.txt"
"${run[@]}" --module "$out/module/perfctr.ko"
