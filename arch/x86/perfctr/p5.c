// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: Intel P5 and P5MMX, and the P5 clones from Cyrix
 * (6x86MX, MII, III) and Centaur (WinChip C6, 2, 3).
 *
 * Both counters share one control register, the CESR: each counter's
 * 16-bit evntsel fills one half (counter 0 the low half), so evntsel
 * bits 16-31 are reserved along with the family's own. Nothing can
 * raise an overflow interrupt, so there are no i-mode counters.
 */
#include "x86.h"

#define MSR_P5_CESR	0x11
#define MSR_P5_CTR0	0x12

#define P5_CPL		0x00C0U	/* count at CPL 0-2 and/or CPL 3 */
#define P5_CPL0_2	0x0040U	/* CC bit 6: count at CPL 0-2 */
#define P5_INSTR	0x0016U	/* event: instructions executed */

static u64 p5_cesr(const struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u64 cesr = 0;

	for (i = 0; i < nrctrs; i++)
		cesr |= (u64)state->control.evntsel[i] << (16 * state->pmc[i].map);
	return cesr;
}

static void p5_write_control(const struct perfctr_cpu_state *state,
			     struct pc_cache *cache)
{
	u64 cesr = p5_cesr(state);

	if (cache->ctl[0] != cesr) {
		pc_wrmsr(MSR_P5_CESR, cesr);
		cache->ctl[0] = cesr;
	}
}

/*
 * The CC field (bits 6-8) is events or clocks (bit 8), at CPL 3 (bit 7),
 * at CPL 0-2 (bit 6): codes 001, 011, 101 and 111 count the kernel.
 */
static bool p5_counts_kernel(const struct perfctr_cpu_state *state)
{
	return pc_evntsel_has(state, P5_CPL0_2, 0);
}

static void p5_clear_counters(struct pc_cache *cache)
{
	pc_wrmsr(MSR_P5_CESR, 0);
	cache->ctl[0] = 0;
}

/* sel_msr/msr_stride describe counter 0's half of the CESR only. */
#define P5_COMMON						\
	.nrctrs = 2,						\
	.pmc_mask = 0x3,					\
	.sel_msr = MSR_P5_CESR,					\
	.ctr_msr = MSR_P5_CTR0,					\
	.msr_stride = 1,					\
	.check_control = pc_check_evntsels,			\
	.write_control = p5_write_control,			\
	.clear_counters = p5_clear_counters

/*
 * The families with the CC field: they count where it says, and the
 * self-test counts instructions executed at any CPL.
 */
#define P5_CC_FAMILY(_reserved)					\
	.selftest_event = P5_CPL | P5_INSTR,			\
	.rules = { .reserved = (_reserved), .cpl = P5_CPL },	\
	.counts_kernel = p5_counts_kernel,			\
	P5_COMMON

/* The original Pentium has no RDPMC: the counters are read as MSRs. */
const struct perfctr_x86_family perfctr_p5_family = {
	.name = "Intel P5",
	.id = PERFCTR_X86_INTEL_P5,
	.features = PERFCTR_FEATURE_RDTSC,
	.read_by_msr = true,
	P5_CC_FAMILY(0xFFFFFE00U),
};

const struct perfctr_x86_family perfctr_p5mmx_family = {
	.name = "Intel P5MMX",
	.id = PERFCTR_X86_INTEL_P5MMX,
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC,
	P5_CC_FAMILY(0xFFFFFE00U),
};

/*
 * Bit 10 is the Cyrix event-select extension; bits 9, 11-15 reserved.
 * The CC field is the P5's.
 */
const struct perfctr_x86_family perfctr_mii_family = {
	.name = "Cyrix 6x86MX/MII/III",
	.id = PERFCTR_X86_CYRIX_MII,
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC,
	P5_CC_FAMILY(0xFFFFFA00U),
};

/*
 * The WinChip has no CPL bits (so its counters count the kernel too),
 * cannot stop its counters, and its TSC does not work. No self-test: no
 * emulator presents one.
 */
const struct perfctr_x86_family perfctr_winchip_family = {
	.name = "WinChip C6/2/3",
	.id = PERFCTR_X86_WINCHIP,
	.features = PERFCTR_FEATURE_RDPMC,
	.rules = { .reserved = 0xFFFFFF00U },
	P5_COMMON,
};
