#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make bench: boot the test VM with -icount shift=0,sleep=off, where the
# guest's clock advances one step per instruction, and print the cost of
# each figure as "BENCH <name> <instructions>" (tests/user/bench.c).
# shellcheck disable=SC2154 # build_x86 (lib/common.sh) sets kb
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

build_x86 bench
echo ">> booting with -icount shift=0,sleep=off (1 vCPU)"
boot_plan --icount --smp 1 --timeout 600 --user "$BUILD/user" bench "$kb" \
	bench "$BUILD/vm-bench.log" "$BUILD/bench"/{perfctr,perfctr_simpmu}.ko || true
sed -n 's/\r$//; s/^\(BENCH [a-z0-9_]* [0-9]*\)$/\1/p' "$BUILD/vm-bench.log"
grep -q '^BENCH ' "$BUILD/vm-bench.log" ||
	{ echo "no figures; see $BUILD/vm-bench.log"; exit 1; }
