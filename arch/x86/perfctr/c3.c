// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: VIA C3. P6-like registers, but only PERFCTR1/EVNTSEL1 can
 * be programmed, so the one counter must map to hardware counter 1. The
 * evntsel has just the 9-bit event field; nothing else can be set, and
 * there is no overflow interrupt. No self-test: no emulator offers a C3.
 * With no mode bits the counter counts the kernel too: no counts_kernel.
 */
#include "x86.h"

const struct perfctr_x86_family perfctr_c3_family = {
	.name = "VIA C3",
	.id = PERFCTR_X86_VIA_C3,
	.nrctrs = 1,
	.pmc_mask = 0x2,
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC,
	.sel_msr = MSR_P6_EVNTSEL0,
	.ctr_msr = MSR_P6_PERFCTR0,
	.msr_stride = 1,
	.rules = { .reserved = 0xFFFFFE00U },
	.check_control = pc_check_evntsels,
	.write_control = pc_write_evntsels,
	.clear_counters = pc_clear_evntsels,
};
