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
mkdir -p "$BUILD/run-mods"
rm -f "$BUILD/run-mods"/*.ko
cp "$BUILD/run/perfctr.ko" "$BUILD/run/perfctr_simpmu.ko" "$BUILD/run-mods/"
make_initramfs "$BUILD/run.cpio.gz" "$kb" "$BUILD/run-mods" "$BUILD/user"
echo ">> booting (qemu-system-x86_64, TCG, 2 vCPUs); console follows"
"$ROOT/tests/vm/run-vm.sh" "${opts[@]}" "$kb/kernel-image" \
	"$BUILD/run.cpio.gz" run "$BUILD/vm-run.log" |
	sed -n '/== perfctr-vm: plan/,/== perfctr-vm: end/p'
