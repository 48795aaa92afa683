// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: Intel P6 (Pentium Pro, II, III, M) and every later Intel
 * CPU with architectural performance monitoring (CPUID leaf 0xA).
 *
 * Both have one EVNTSEL MSR per counter. On the P6 only EVNTSEL0 has an
 * enable bit, and it gates both counters; with architectural perfmon each
 * EVNTSEL enables its own counter, and version 2 adds a global control
 * register whose counter bits must be set too.
 */
#include <linux/percpu.h>

#include "x86.h"

/* Bit 19 (pin control) and bit 21 (AnyThread on arch perfmon) are off limits. */
#define P6_RESERVED		0x00280000U

#define P6_CYCLES		0x79U	/* CPU_CLK_UNHALTED */
#define ARCH_CYCLES		0x3CU	/* UnHalted Core Cycles */
#define COUNT_ALL		(EVNTSEL_EN | EVNTSEL_OS | EVNTSEL_USR)

static unsigned int arch_version;
static DEFINE_PER_CPU(u64, saved_global_ctrl);

/* A fixed counter's field in IA32_FIXED_CTR_CTRL (FIXED_OS: x86.h). */
#define FIXED_USR		0x2U
#define FIXED_PMI		0x8U	/* bit 2, AnyThread, is refused */
#define FIXED_SHIFT(pmc)	(4 * PC_HW_INDEX(pmc))

static int arch_check_fixed(const struct perfctr_cpu_control *c, unsigned int i)
{
	u32 pmc = c->pmc_map[i], field = c->evntsel[i];
	bool imode = i >= c->nractrs;

	if (pmc & ~(PERFCTR_X86_FIXED_PMC | 0x1F) ||
	    !(pc_family.fixed_mask & BIT(PC_HW_INDEX(pmc))))
		return -EINVAL;
	if (field & ~(FIXED_OS | FIXED_USR | FIXED_PMI) || c->evntsel_high[i])
		return -EINVAL;
	if (!(field & (FIXED_OS | FIXED_USR)))
		return -EINVAL;
	return !!(field & FIXED_PMI) == imode ? 0 : -EINVAL;
}

/* All fixed counters share one control register. */
static void arch_write_control(const struct perfctr_cpu_state *state,
			       struct pc_cache *cache)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u64 ctrl = 0;

	pc_write_evntsels(state, cache);
	if (!pc_family.fixed_mask)
		return;
	for (i = 0; i < nrctrs; i++)
		if (pc_is_fixed(state->pmc[i].map))
			ctrl |= (u64)state->control.evntsel[i] <<
				FIXED_SHIFT(state->pmc[i].map);
	if (cache->fixed_ctrl != ctrl) {
		pc_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, ctrl);
		cache->fixed_ctrl = ctrl;
	}
}

static void arch_stop_counter(u32 pmc, struct pc_cache *cache)
{
	if (!pc_is_fixed(pmc)) {
		pc_stop_evntsel(pmc, cache);
		return;
	}
	cache->fixed_ctrl &= ~(0xFULL << FIXED_SHIFT(pmc));
	pc_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, cache->fixed_ctrl);
}

/* Version 2 latches overflows in GLOBAL_STATUS until told otherwise. */
static void arch_ack_overflow(const struct perfctr_cpu_state *state,
			      unsigned int mask)
{
	unsigned long m = mask;
	unsigned int i;
	u64 bits = 0;

	if (arch_version < 2)
		return;
	for_each_set_bit(i, &m, PERFCTR_NR_PMCS) {
		u32 pmc = state->pmc[i].map;

		bits |= pc_is_fixed(pmc) ? BIT_ULL(32 + PC_HW_INDEX(pmc)) : BIT_ULL(pmc);
	}
	pc_wrmsr(MSR_CORE_PERF_GLOBAL_OVF_CTRL, bits);
}

static void arch_clear_counters(struct pc_cache *cache)
{
	pc_clear_evntsels(cache);
	if (pc_family.fixed_mask) {
		pc_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
		cache->fixed_ctrl = 0;
	}
}

/* From version 2 on, a counter counts only if its global bit is set too. */
static void arch_reserve_cpu(void)
{
	u64 global;

	if (arch_version < 2)
		return;
	global = pc_rdmsr(MSR_CORE_PERF_GLOBAL_CTRL);
	this_cpu_write(saved_global_ctrl, global);
	pc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, global | pc_family.pmc_mask |
		 ((u64)pc_family.fixed_mask << 32));
}

static void arch_release_cpu(void)
{
	if (arch_version >= 2)
		pc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, this_cpu_read(saved_global_ctrl));
}

/*
 * CPUID leaf 0xA: EAX[7:0] version, EAX[15:8] general-purpose counters;
 * from version 2, EDX[4:0] fixed-function counters.
 */
bool pc_arch_perfmon_probe(const struct pc_cpu_ident *id,
			   struct perfctr_x86_family *out)
{
	u32 eax, ebx, ecx, edx;
	unsigned int gp, fixed = 0;

	if (id->cpuid_level < 0xA)
		return false;
	pc_cpuid(0xA, &eax, &ebx, &ecx, &edx);
	arch_version = eax & 0xFF;
	gp = min_t(unsigned int, (eax >> 8) & 0xFF, PERFCTR_NR_PMCS);
	if (!arch_version || !gp)
		return false;
	if (arch_version >= 2)
		fixed = min_t(unsigned int, edx & 0x1F, PERFCTR_NR_PMCS - gp);
	*out = perfctr_arch_family;
	out->ctr_bits = clamp((eax >> 16) & 0xFF, 32U, 64U);
	out->fixed_bits = clamp((edx >> 5) & 0xFF, 32U, 64U);
	out->nrctrs = gp + fixed;
	out->pmc_mask = GENMASK(gp - 1, 0);
	out->fixed_mask = fixed ? GENMASK(fixed - 1, 0) : 0;
	out->global_ctrl = arch_version >= 2;
	return true;
}

#define P6_COMMON						\
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC, \
	.kernel_reserve = true,					\
	.pmi = true,						\
	.sel_msr = MSR_P6_EVNTSEL0,				\
	.ctr_msr = MSR_P6_PERFCTR0,				\
	.msr_stride = 1,					\
	.check_control = pc_check_evntsels,			\
	.counts_kernel = pc_evntsel_counts_kernel

const struct perfctr_x86_family perfctr_p6_family = {
	.name = "Intel P6",
	.ctr_bits = 40,
	.id = PERFCTR_X86_INTEL_P6,
	.nrctrs = 2,
	.pmc_mask = 0x3,
	.selftest_event = COUNT_ALL | P6_CYCLES,
	.rules = {
		.reserved = P6_RESERVED,
		.enable = PC_EN_PMC0,
		.intr = EVNTSEL_INT,
	},
	.write_control = pc_write_evntsels,
	.stop_counter = pc_stop_evntsel,
	.clear_counters = pc_clear_evntsels,
	P6_COMMON,
};

/* Counter counts and masks come from CPUID: pc_arch_perfmon_probe(). */
const struct perfctr_x86_family perfctr_arch_family = {
	.name = "Intel architectural perfmon",
	.id = PERFCTR_X86_INTEL_ARCH,
	.selftest_event = COUNT_ALL | ARCH_CYCLES,
	.rules = {
		.reserved = P6_RESERVED,
		.enable = PC_EN_EACH,
		.intr = EVNTSEL_INT,
	},
	.check_fixed = arch_check_fixed,
	.write_control = arch_write_control,
	.stop_counter = arch_stop_counter,
	.ack_overflow = arch_ack_overflow,
	.clear_counters = arch_clear_counters,
	.reserve_cpu = arch_reserve_cpu,
	.release_cpu = arch_release_cpu,
	P6_COMMON,
};
