#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
#
# make run: build what is needed, boot the test VM with the module loaded
# and show it working. PERFCTR_ICOUNT=1 adds -icount shift=0.
set -euo pipefail
. "$(dirname "$0")/lib/common.sh"

opts=(--show --timeout 300)
[ "${PERFCTR_ICOUNT:-0}" = 1 ] && opts+=(--icount)

bash "$ROOT/tests/deps.sh"
echo ">> test kernel (first build takes several minutes, then cached)"
kb=$(build_kernel x86_64)
echo ">> module and tools"
build_module "$kb" "$BUILD/run" "$BUILD/run.build.log" PERFCTR_TESTS=1 ||
	{ tail -n 20 "$BUILD/run.build.log"; exit 1; }
build_user "$BUILD/user" || { cat "$BUILD/user/build.log"; exit 1; }
echo ">> booting (qemu-system-x86_64, TCG, 2 vCPUs); console follows"
boot_plan "${opts[@]}" --user "$BUILD/user" run "$kb" run "$BUILD/vm-run.log" \
	"$BUILD/run"/{perfctr,perfctr_simpmu}.ko |
	sed -n '/== perfctr-vm: plan/,/== perfctr-vm: end/p'
