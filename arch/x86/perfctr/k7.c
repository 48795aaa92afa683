// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: AMD K7, K8, and family 10h and later (Hygon too).
 *
 * P6-like, but every PERF_CTL has its own enable bit. Counter mask
 * (31:24), invert (23) and edge (18) are in the low half on every
 * generation; the K7 and K8 have nothing above bit 31. From family 10h
 * (BKDG 31116; APM vol. 2) the high half holds event select bits 11:8
 * (bits 35:32) and GuestOnly/HostOnly (40, 41). CPUs with the core
 * counter extension (family 15h on) have six counters at new MSRs, with
 * family 10h's bits. Documentation/perfctr/amd.rst has the table.
 */
#include "x86.h"

#define K7_RESERVED		0x00280000U	/* bits 21 and 19 */
#define K7_CYCLES		0x76U		/* CPU clocks not halted */

/*
 * evntsel_high[]: EventSelect[11:8], GuestOnly, HostOnly. The last two
 * pick host or guest, not a privilege level: only OS (bit 17) counts
 * CPL 0.
 */
#define FAM10_HIGH_ALLOWED	0x0000030FU

/* Every generation: own enable bit, INT for i-mode; @high: evntsel_high. */
#define K7_RULES(high) {					\
	.reserved = K7_RESERVED,				\
	.enable = PC_EN_EACH,					\
	.intr = EVNTSEL_INT,					\
	.high_allowed = (high),					\
}

#define K7_COMMON						\
	.ctr_bits = 48,						\
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC, \
	.kernel_reserve = true,					\
	.pmi = true,						\
	.selftest_event = COUNT_ALL | K7_CYCLES,		\
	.check_control = pc_check_evntsels,			\
	.counts_kernel = pc_evntsel_counts_kernel,		\
	.write_control = pc_write_evntsels,			\
	.stop_counter = pc_stop_evntsel,			\
	.clear_counters = pc_clear_evntsels

#define K7_LEGACY_MSRS						\
	.nrctrs = 4,						\
	.pmc_mask = 0xF,					\
	.sel_msr = MSR_K7_EVNTSEL0,				\
	.ctr_msr = MSR_K7_PERFCTR0,				\
	.msr_stride = 1

const struct perfctr_x86_family perfctr_k7_family = {
	.name = "AMD K7",
	.id = PERFCTR_X86_AMD_K7,
	.rules = K7_RULES(0),
	K7_LEGACY_MSRS,
	K7_COMMON,
};

const struct perfctr_x86_family perfctr_k8_family = {
	.name = "AMD K8",
	.id = PERFCTR_X86_AMD_K8,
	.rules = K7_RULES(0),
	K7_LEGACY_MSRS,
	K7_COMMON,
};

const struct perfctr_x86_family perfctr_fam10_family = {
	.name = "AMD Family 10h+",
	.id = PERFCTR_X86_AMD_FAM10,
	.rules = K7_RULES(FAM10_HIGH_ALLOWED),
	K7_LEGACY_MSRS,
	K7_COMMON,
};

/* Core counter extension: PERF_CTLn/PERF_CTRn interleaved from 0xC0010200. */
const struct perfctr_x86_family perfctr_fam15_family = {
	.name = "AMD Family 15h+ (6 core counters)",
	.id = PERFCTR_X86_AMD_FAM10,
	.nrctrs = 6,
	.pmc_mask = 0x3F,
	.sel_msr = MSR_F15H_PERF_CTL0,
	.ctr_msr = MSR_F15H_PERF_CTR0,
	.msr_stride = 2,
	.rules = K7_RULES(FAM10_HIGH_ALLOWED),
	K7_COMMON,
};
