// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: Intel P6 (Pentium Pro, II, III, M). One EVNTSEL MSR per
 * counter, but only EVNTSEL0 has an enable bit, and it gates both
 * counters. Later Intel CPUs, with CPUID leaf 0xA, are arch.c's.
 */
#include "x86.h"

#define P6_CYCLES		0x79U	/* CPU_CLK_UNHALTED */

const struct perfctr_x86_family perfctr_p6_family = {
	.name = "Intel P6",
	.ctr_bits = 40,
	.id = PERFCTR_X86_INTEL_P6,
	.nrctrs = 2,
	.pmc_mask = 0x3,
	.selftest_event = COUNT_ALL | P6_CYCLES,
	.rules = {
		.reserved = PC_P6_RESERVED,
		.enable = PC_EN_PMC0,
		.intr = EVNTSEL_INT,
	},
	.write_control = pc_write_evntsels,
	.stop_counter = pc_stop_evntsel,
	.clear_counters = pc_clear_evntsels,
	.check_control = pc_check_evntsels,
	PC_P6_COMMON,
};
