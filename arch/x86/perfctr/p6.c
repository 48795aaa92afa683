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
#include <linux/cpu.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/percpu.h>

#include "x86.h"

/* Bit 19 (pin control) and bit 21 (AnyThread on arch perfmon) are off limits. */
#define P6_RESERVED		0x00280000U

#define P6_CYCLES		0x79U	/* CPU_CLK_UNHALTED */
#define ARCH_CYCLES		0x3CU	/* UnHalted Core Cycles */

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

/* What CPUID leaf 0xA says a CPU has, clamped to what we can address. */
struct arch_caps {
	unsigned int version, gp, gp_bits, fixed, fixed_bits;
};

/*
 * Leaf 0xA: EAX[7:0] version, EAX[15:8] general-purpose counters,
 * EAX[23:16] their width; from version 2, EDX[4:0] fixed-function
 * counters, EDX[12:5] their width.
 */
static void arch_caps_on(unsigned int cpu, struct arch_caps *caps)
{
	u32 eax, ebx, ecx, edx;

	pc_cpuid_on(cpu, 0xA, &eax, &ebx, &ecx, &edx);
	caps->version = eax & 0xFF;
	caps->gp = min_t(unsigned int, (eax >> 8) & 0xFF, PERFCTR_NR_PMCS);
	caps->gp_bits = (eax >> 16) & 0xFF;
	caps->fixed = 0;
	caps->fixed_bits = 0;
	if (caps->version >= 2) {
		caps->fixed = min_t(unsigned int, edx & 0x1F, PC_MAX_FIXED);
		caps->fixed_bits = (edx >> 5) & 0xFF;
	}
}

/*
 * What every online CPU has. Hybrid and asymmetric CPUs may differ, and
 * a kernel RDPMC of a counter the running CPU lacks is a #GP, so a
 * control must fit the poorest CPU. CPUs that come later are checked by
 * arch_check_cpu().
 */
static void arch_caps_all(struct arch_caps *all)
{
	struct arch_caps one;
	unsigned int cpu;

	/* Start from the most any CPU could report, and take the least. */
	*all = (struct arch_caps){
		.version = 0xFF, .gp = PERFCTR_NR_PMCS, .gp_bits = 0xFF,
		.fixed = PC_MAX_FIXED, .fixed_bits = 0xFF,
	};
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		arch_caps_on(cpu, &one);
		all->version = min(all->version, one.version);
		all->gp = min(all->gp, one.gp);
		all->gp_bits = min(all->gp_bits, one.gp_bits);
		all->fixed = min(all->fixed, one.fixed);
		all->fixed_bits = min(all->fixed_bits, one.fixed_bits);
	}
	cpus_read_unlock();
}

static unsigned int arch_width(unsigned int bits)
{
	return clamp(bits, 32U, 64U);
}

/*
 * A CPU coming online must have every counter offered, as wide: controls
 * already accepted may use them. Shrinking the offer instead would
 * strand those controls, so the CPU is refused.
 */
static int arch_check_cpu(unsigned int cpu, char *why, size_t len)
{
	unsigned int gp = hweight32(pc_family.pmc_mask);
	unsigned int fixed = hweight32(pc_family.fixed_mask);
	struct arch_caps has;

	arch_caps_on(cpu, &has);
	if (has.version >= arch_version && has.gp >= gp &&
	    arch_width(has.gp_bits) >= pc_family.ctr_bits && has.fixed >= fixed &&
	    (!fixed || arch_width(has.fixed_bits) >= pc_family.fixed_bits))
		return 0;
	snprintf(why, len,
		 "CPU %u has fewer counters than perfctr uses (arch perfmon v%u, %u general-purpose %u-bit, %u fixed %u-bit; perfctr uses v%u, %u %u-bit, %u %u-bit); unload perfctr to bring it online",
		 cpu, has.version, has.gp, has.gp_bits, has.fixed, has.fixed_bits,
		 arch_version, gp, pc_family.ctr_bits, fixed, pc_family.fixed_bits);
	return -EBUSY;
}

bool pc_arch_perfmon_probe(const struct pc_cpu_ident *id,
			   struct perfctr_x86_family *out)
{
	struct arch_caps all;
	unsigned int fixed;

	if (id->cpuid_level < 0xA)
		return false;
	arch_caps_all(&all);
	arch_version = all.version;
	if (!all.version || !all.gp)
		return false;
	fixed = min(all.fixed, PERFCTR_NR_PMCS - all.gp);
	*out = perfctr_arch_family;
	out->ctr_bits = arch_width(all.gp_bits);
	out->fixed_bits = arch_width(all.fixed_bits);
	out->nrctrs = all.gp + fixed;
	out->pmc_mask = GENMASK(all.gp - 1, 0);
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
	.check_cpu = arch_check_cpu,
	.write_control = arch_write_control,
	.stop_counter = arch_stop_counter,
	.ack_overflow = arch_ack_overflow,
	.clear_counters = arch_clear_counters,
	.reserve_cpu = arch_reserve_cpu,
	.release_cpu = arch_release_cpu,
	P6_COMMON,
};
