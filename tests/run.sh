#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make run: build what is needed, boot the test VM with the module loaded
# and show it working. PERFCTR_ICOUNT=1 adds -icount shift=0.
# shellcheck disable=SC2154 # build_x86 (lib/common.sh) sets kb
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

opts=(--show --timeout 300)
[ "${PERFCTR_ICOUNT:-0}" = 1 ] && opts+=(--icount)

build_x86 run
echo ">> booting (qemu-system-x86_64, TCG, 2 vCPUs); console follows"
boot_plan "${opts[@]}" --user "$BUILD/user" run "$kb" run "$BUILD/vm-run.log" \
	"$BUILD/run"/{perfctr,perfctr_simpmu}.ko |
	sed -n '/== perfctr-vm: plan/,/== perfctr-vm: end/p'
