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
# PAPI's papi_avail and papi_command_line on the perfctr component
# (tests/papi/build-papi.sh: Debian's papi source, fetched and built
# once, then cached); the run goes on without them if that fails.
echo ">> PAPI (first build takes a minute, then cached)"
papi=()
if dir=$(bash "$ROOT/tests/papi/build-papi.sh" | tail -n 1) &&
	[ -x "$dir/bin/papi_avail" ]; then
	papi=(--file "/papi/bin/papi_avail=$dir/bin/papi_avail"
	      --file "/papi/bin/papi_command_line=$dir/bin/papi_command_line")
else
	echo ">> PAPI could not be built: the run shows perfctr's own tools only"
fi
echo ">> booting (qemu-system-x86_64, TCG, 2 vCPUs); console follows"
boot_plan "${opts[@]}" --user "$BUILD/user" "${papi[@]}" run "$kb" run \
	"$BUILD/vm-run.log" "$BUILD/run"/{perfctr,perfctr_simpmu}.ko |
	sed -n '/== perfctr-vm: plan/,/== perfctr-vm: end/p'
