// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: Intel architectural performance monitoring, versions 1 to
 * 5 (Core 2 to Granite Rapids), hybrid CPUs included.
 *
 * Facts from the Intel SDM, order no. 325462-080US (June 2023): vol. 2A,
 * CPUID leaves 07H, 0AH, 1AH and 23H; vol. 3B chapter 20, "Performance
 * Monitoring", sections 20.2.1 to 20.2.5 (versions 1 to 5) and 20.2.6
 * (full-width writes). Documentation/perfctr/x86.rst has the table.
 *
 * Each EVNTSEL enables its own counter; from version 2 a counter counts
 * only with its IA32_PERF_GLOBAL_CTRL bit set too.
 */
#include <linux/cpu.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/percpu.h>

#include "x86.h"

#define ARCH_CYCLES		0x3CU	/* UnHalted Core Cycles */

/* MSRs and bits that not every supported kernel's headers name. */
#define ARCH_PERF_CAPABILITIES	0x345
#define ARCH_CAP_FW_WRITE	BIT_ULL(13)	/* IA32_A_PMCx exist */
#define ARCH_A_PMC0		0x4C1
#define ARCH_PERF_METRICS	0x329	/* IA32_PERF_METRICS, beside fixed counter 3 */
#define ARCH_STATUS_RESET	0x390	/* GLOBAL_OVF_CTRL before v4 */

#define ARCH_ANY		BIT(21)	/* EVNTSEL AnyThread, v3 on */

/* A fixed counter's field in IA32_FIXED_CTR_CTRL (FIXED_OS: x86.h). */
#define FIXED_USR		0x2U
#define FIXED_ANY		0x4U	/* AnyThread, v3 on */
#define FIXED_PMI		0x8U
#define FIXED_SHIFT(pmc)	(4 * PC_HW_INDEX(pmc))

#define ARCH_PDCM		BIT(15)	/* CPUID.01H:ECX: PERF_CAPABILITIES */
#define ARCH_HYBRID		BIT(15)	/* CPUID.07H.0:EDX */
#define ARCH_PERFMON_EXT	BIT(8)	/* CPUID.07H.1:EAX: leaf 23H */
#define ARCH_ANY_DEPRECATED	BIT(15)	/* CPUID.0AH:EDX */

/* What CPUID says one CPU has. */
struct arch_caps {
	unsigned int version, gp_bits, fixed_bits;
	u32 gp, fixed;			/* counter bitmaps */
	bool any_deprecated;
	u8 core_type;			/* CPUID.1AH:EAX[31:24]; 0: not hybrid */
};

/* A hybrid CPU's core types: what each has, and its CPUs. */
#define ARCH_MAX_TYPES		4

struct arch_core_type {
	struct arch_caps caps;
	struct cpumask cpus;
};

static unsigned int arch_version, arch_cpuid_level;
static bool arch_any_deprecated;
static u32 arch_some_gp, arch_some_fixed;	/* on some CPUs, not all */
static struct arch_core_type arch_types[ARCH_MAX_TYPES];
static unsigned int arch_nr_types;
static char arch_types_text[256];
static DEFINE_PER_CPU(u64, saved_global_ctrl);
/* This CPU's counters beyond the offer: general-purpose, fixed << 24. */
static DEFINE_PER_CPU(u32, arch_extra_ctrs);

/*
 * AnyThread counts the other hyper-thread's events too, which may be
 * another user's. Reserved before version 3; where CPUID deprecates it,
 * it has no use; elsewhere it is refused for what it would show.
 */
static int arch_any_err(void)
{
	if (arch_version < 3)
		return -EINVAL;
	return arch_any_deprecated ? -EOPNOTSUPP : -EPERM;
}

/* Counter @i's rules beyond pc_check_evntsels(): AnyThread, hybrids. */
static int arch_check_one(const struct perfctr_cpu_control *c, unsigned int i)
{
	u32 pmc = c->pmc_map[i];
	bool fixed = pc_is_fixed(pmc);
	u32 some = fixed ? arch_some_fixed : arch_some_gp;

	if (!(pmc & ~(PERFCTR_X86_FIXED_PMC | 0x1F)) &&
	    (some & BIT(PC_HW_INDEX(pmc))))
		return -EOPNOTSUPP;	/* not on every CPU: x86.rst */
	if (c->evntsel[i] & (fixed ? FIXED_ANY : ARCH_ANY))
		return arch_any_err();
	return 0;
}

static int arch_check_control(const struct perfctr_cpu_state *state,
			      bool is_global)
{
	const struct perfctr_cpu_control *c = &state->control;
	unsigned int i, n = min_t(unsigned int, c->nractrs + c->nrictrs,
				  PERFCTR_NR_PMCS);
	int err;

	for (i = 0; i < n; i++) {
		err = arch_check_one(c, i);
		if (err)
			return err;
	}
	return pc_check_evntsels(state, is_global);
}

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

/*
 * From version 2, overflows stay in IA32_PERF_GLOBAL_STATUS until a 1
 * is written to their bit of GLOBAL_OVF_CTRL (v4: GLOBAL_STATUS_RESET,
 * the same MSR). GLOBAL_STATUS_SET (v4) is never written: nothing here
 * restores a status, as a hypervisor would.
 */
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
	pc_wrmsr(ARCH_STATUS_RESET, bits);
}

static void arch_clear_counters(struct pc_cache *cache)
{
	pc_clear_evntsels(cache);
	if (pc_family.fixed_mask) {
		pc_wrmsr(MSR_CORE_PERF_FIXED_CTR_CTRL, 0);
		cache->fixed_ctrl = 0;
	}
}

/*
 * From version 2 on, a counter counts only if its global bit is set
 * too. Only our counters' bits: bit 48 (PERF_METRICS, with fixed
 * counter 3) and the rest stay as the kernel had them.
 */
static void arch_reserve_cpu(void)
{
	unsigned long extra = this_cpu_read(arch_extra_ctrs);
	unsigned int bit;
	u64 global;

	/*
	 * A hybrid's counters that not every core type has are never ours,
	 * but a set's owner may RDPMC them: drop what perf left there,
	 * through the legacy MSRs (0 needs no full-width write), and with
	 * fixed counter 3 the topdown fractions RDPMC reads beside it.
	 */
	for_each_set_bit(bit, &extra, 32)
		pc_wrmsr(pc_ctr_msr(bit < 24 ? bit :
				    PERFCTR_X86_FIXED_PMC | (bit - 24)), 0);
	if ((extra | pc_family.fixed_mask << 24) & BIT(24 + 3))
		pc_wrmsr_safe(ARCH_PERF_METRICS, 0);
	if (arch_version < 2)
		return;
	global = pc_rdmsr(MSR_CORE_PERF_GLOBAL_CTRL);
	this_cpu_write(saved_global_ctrl, global);
	pc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, global | pc_all_ctrs());
}

/* Our counters' overflow flags would otherwise greet perf. */
static void arch_release_cpu(void)
{
	if (arch_version < 2)
		return;
	pc_wrmsr(ARCH_STATUS_RESET, pc_all_ctrs());
	pc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, this_cpu_read(saved_global_ctrl));
}

static u32 arch_first(unsigned int n)
{
	return n >= 32 ? ~0U : BIT(n) - 1;
}

/* v5 on: leaf 23H's bitmaps, where CPUID.07H.1:EAX[8] says it exists. */
static void arch_leaf_23(unsigned int cpu, struct arch_caps *caps)
{
	u32 a, b, c, d;

	if (arch_cpuid_level < 0x23)
		return;
	pc_cpuid_count_on(cpu, 0x7, 1, &a, &b, &c, &d);
	if (!(a & ARCH_PERFMON_EXT))
		return;
	pc_cpuid_count_on(cpu, 0x23, 0, &a, &b, &c, &d);
	if (!(a & BIT(1)))		/* no sub-leaf 1, the counters' */
		return;
	pc_cpuid_count_on(cpu, 0x23, 1, &a, &b, &c, &d);
	caps->gp = a;
	caps->fixed = b;
}

/* CPUID.1AH:EAX[31:24] on a hybrid part (CPUID.07H:EDX[15]), else 0. */
static u8 arch_core_type(unsigned int cpu)
{
	u32 a, b, c, d;

	if (arch_cpuid_level < 0x1A)
		return 0;
	pc_cpuid_count_on(cpu, 0x7, 0, &a, &b, &c, &d);
	if (!(d & ARCH_HYBRID))
		return 0;
	pc_cpuid_on(cpu, 0x1A, &a, &b, &c, &d);
	return a >> 24;
}

/*
 * Leaf 0AH: EAX[7:0] version, [15:8] general-purpose counters, [23:16]
 * their width; from v2 EDX[4:0] fixed counters 0 to n-1, EDX[12:5] their
 * width; from v5 ECX is a bitmap of further fixed counters and EDX[15]
 * deprecates AnyThread. Clamped to what a control can address.
 */
static void arch_caps_on(unsigned int cpu, struct arch_caps *caps)
{
	u32 eax, ebx, ecx, edx;

	pc_cpuid_on(cpu, 0xA, &eax, &ebx, &ecx, &edx);
	memset(caps, 0, sizeof(*caps));
	caps->version = eax & 0xFF;
	caps->gp = arch_first((eax >> 8) & 0xFF);
	caps->gp_bits = (eax >> 16) & 0xFF;
	if (caps->version >= 2) {
		caps->fixed = arch_first(edx & 0x1F);
		caps->fixed_bits = (edx >> 5) & 0xFF;
	}
	if (caps->version >= 5) {
		caps->fixed |= ecx;
		caps->any_deprecated = edx & ARCH_ANY_DEPRECATED;
		arch_leaf_23(cpu, caps);
	}
	caps->gp &= arch_first(PERFCTR_NR_PMCS);
	caps->fixed &= arch_first(PC_MAX_FIXED);
	caps->core_type = arch_core_type(cpu);
}

/* Count @cpu under its core type (the first CPU of a type speaks for it). */
static void arch_note_type(unsigned int cpu, const struct arch_caps *caps)
{
	unsigned int i;

	for (i = 0; i < arch_nr_types; i++)
		if (arch_types[i].caps.core_type == caps->core_type)
			break;
	if (i == ARCH_MAX_TYPES)
		return;
	if (i == arch_nr_types) {
		arch_types[i].caps = *caps;
		cpumask_clear(&arch_types[i].cpus);
		arch_nr_types++;
	}
	cpumask_set_cpu(cpu, &arch_types[i].cpus);
}

/* What @cpu has beyond the offer, for arch_reserve_cpu() to scrub. */
static void arch_note_extra(unsigned int cpu, const struct arch_caps *has,
			    u32 gp, u32 fixed)
{
	per_cpu(arch_extra_ctrs, cpu) = (has->gp & ~gp) |
		((has->fixed & ~fixed & arch_first(PC_MAX_FIXED)) << 24);
}

static void arch_note_extras(u32 gp, u32 fixed)
{
	struct arch_caps has;
	unsigned int cpu;

	cpus_read_lock();
	for_each_online_cpu(cpu) {
		arch_caps_on(cpu, &has);
		arch_note_extra(cpu, &has, gp, fixed);
	}
	cpus_read_unlock();
}

static void arch_merge(struct arch_caps *all, u32 *any_gp, u32 *any_fixed,
		       const struct arch_caps *one)
{
	all->version = min(all->version, one->version);
	all->gp &= one->gp;
	all->gp_bits = min(all->gp_bits, one->gp_bits);
	all->fixed &= one->fixed;
	all->fixed_bits = min(all->fixed_bits, one->fixed_bits);
	all->any_deprecated &= one->any_deprecated;
	*any_gp |= one->gp;
	*any_fixed |= one->fixed;
}

/*
 * What every online CPU has. Hybrid and asymmetric CPUs differ, and a
 * kernel RDPMC of a counter the running CPU lacks is a #GP, so a control
 * must fit the poorest CPU. CPUs that come later are checked by
 * arch_check_cpu(); counters some CPUs lack are arch_some_*.
 */
static void arch_caps_all(struct arch_caps *all)
{
	u32 any_gp = 0, any_fixed = 0;
	struct arch_caps one;
	unsigned int cpu;

	*all = (struct arch_caps){
		.version = 0xFF, .gp = ~0U, .gp_bits = 0xFF,
		.fixed = ~0U, .fixed_bits = 0xFF, .any_deprecated = true,
	};
	arch_nr_types = 0;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		arch_caps_on(cpu, &one);
		arch_merge(all, &any_gp, &any_fixed, &one);
		arch_note_type(cpu, &one);
	}
	if (all->version < 2)
		all->fixed = 0;
	arch_some_gp = any_gp & ~all->gp;
	arch_some_fixed = any_fixed & ~all->fixed;
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
	u32 gp = pc_family.pmc_mask, fixed = pc_family.fixed_mask;
	struct arch_caps has;

	arch_caps_on(cpu, &has);
	if (has.version >= arch_version && (has.gp & gp) == gp &&
	    arch_width(has.gp_bits) >= pc_family.ctr_bits &&
	    (has.fixed & fixed) == fixed &&
	    (!fixed || arch_width(has.fixed_bits) >= pc_family.fixed_bits)) {
		arch_note_extra(cpu, &has, gp, fixed);
		return 0;
	}
	snprintf(why, len,
		 "CPU %u has fewer counters than perfctr uses (arch perfmon v%u, general-purpose 0x%x %u-bit, fixed 0x%x %u-bit; perfctr uses v%u, 0x%x %u-bit, 0x%x %u-bit); unload perfctr to bring it online",
		 cpu, has.version, has.gp, has.gp_bits, has.fixed, has.fixed_bits,
		 arch_version, gp, pc_family.ctr_bits, fixed, pc_family.fixed_bits);
	return -EBUSY;
}

/* Keep the lowest @n bits set in @mask. */
static u32 arch_lowest(u32 mask, unsigned int n)
{
	u32 out = 0;

	for (; mask && n; n--) {
		out |= mask & -mask;
		mask &= mask - 1;
	}
	return out;
}

static const char *arch_type_name(u8 type)
{
	switch (type) {
	case 0x20:
		return "E-core (Atom)";
	case 0x40:
		return "P-core (Core)";
	default:
		return "core";
	}
}

/* The info file's core_types line: each type, its CPUs and counters. */
static const char *arch_describe_types(void)
{
	size_t len = sizeof(arch_types_text), n = 0;
	unsigned int i;

	if (!arch_nr_types || !arch_types[0].caps.core_type)
		return NULL;
	for (i = 0; i < arch_nr_types && n < len; i++) {
		const struct arch_core_type *t = &arch_types[i];

		n += scnprintf(arch_types_text + n, len - n,
			       "%s%s 0x%02x cpus %*pbl: general-purpose 0x%x, fixed 0x%x",
			       i ? "; " : "", arch_type_name(t->caps.core_type),
			       t->caps.core_type, cpumask_pr_args(&t->cpus),
			       t->caps.gp, t->caps.version >= 2 ? t->caps.fixed : 0);
	}
	return arch_types_text;
}

/* Full-width writes: IA32_PERF_CAPABILITIES bit 13, where PDCM says it exists. */
static bool arch_fw_write(void)
{
	u32 a, b, c, d;
	u64 caps;

	pc_cpuid_on(smp_processor_id(), 0x1, &a, &b, &c, &d);
	if (!(c & ARCH_PDCM))
		return false;
	return !pc_rdmsr_safe(ARCH_PERF_CAPABILITIES, &caps) &&
	       (caps & ARCH_CAP_FW_WRITE);
}

static void arch_fill(const struct arch_caps *all, struct perfctr_x86_family *out)
{
	u32 fixed = arch_lowest(all->fixed, PERFCTR_NR_PMCS - hweight32(all->gp));

	*out = perfctr_arch_family;
	out->ctr_bits = arch_width(all->gp_bits);
	out->fixed_bits = arch_width(all->fixed_bits);
	out->nrctrs = hweight32(all->gp) + hweight32(fixed);
	out->pmc_mask = all->gp;
	out->fixed_mask = fixed;
	out->global_ctrl = all->version >= 2;
	preempt_disable();
	if (arch_fw_write())
		out->ctr_wr_msr = ARCH_A_PMC0;
	preempt_enable();
}

bool pc_arch_perfmon_probe(const struct pc_cpu_ident *id,
			   struct perfctr_x86_family *out)
{
	struct arch_caps all;

	if (id->cpuid_level < 0xA)
		return false;
	arch_cpuid_level = id->cpuid_level;
	arch_caps_all(&all);
	arch_version = all.version;
	arch_any_deprecated = all.any_deprecated;
	perfctr_info.core_types = arch_describe_types();
	if (!all.version || !all.gp)
		return false;
	arch_fill(&all, out);
	arch_note_extras(out->pmc_mask, out->fixed_mask);
	return true;
}

/* Counter counts and masks come from CPUID: pc_arch_perfmon_probe(). */
const struct perfctr_x86_family perfctr_arch_family = {
	.name = "Intel architectural perfmon",
	.id = PERFCTR_X86_INTEL_ARCH,
	.selftest_event = COUNT_ALL | ARCH_CYCLES,
	.rules = {
		.reserved = PC_P6_RESERVED,
		.enable = PC_EN_EACH,
		.intr = EVNTSEL_INT,
	},
	.check_control = arch_check_control,
	.check_fixed = arch_check_fixed,
	.check_cpu = arch_check_cpu,
	.write_control = arch_write_control,
	.stop_counter = arch_stop_counter,
	.ack_overflow = arch_ack_overflow,
	.clear_counters = arch_clear_counters,
	.reserve_cpu = arch_reserve_cpu,
	.release_cpu = arch_release_cpu,
	PC_P6_COMMON,
};
