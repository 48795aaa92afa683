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
 *
 * Family 17h on (Zen, Hygon) pairs counters for events that add more
 * than 15 a cycle; PerfMonV2 (Zen 4 on) adds a global enable register.
 * Both live here rather than in files of their own: the PERF_CTL layout,
 * its rules and the MSRs are family 15h's, and each adds one rule or one
 * register, as arch perfmon's global control lives in p6.c.
 */
#include <linux/errno.h>
#include <linux/percpu.h>

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

/*
 * Large-increment events (PPR for family 19h model 11h, 55901 rev. 0.25,
 * section 2.1.13.3 "Large Increment per Cycle Events"; the same in the
 * family 17h PPRs): a counter adds at most 15 a cycle, so an event that
 * can add more is counted by an even counter with its odd neighbour
 * merged into it by the Merge event, 0xFFF, with EN set. The PPRs flag
 * one such event, 0x003 (retired SSE/AVX FLOPs).
 */
#define AMD_MERGE_EVENT		0xFFFU
#define AMD_WIDE_EVENT		0x003U

/* Set at detection: family 17h and later have the pair rule. */
static bool amd_pairs;

static u32 amd_event(const struct perfctr_cpu_control *c, unsigned int i)
{
	return (c->evntsel[i] & 0xFF) | (c->evntsel_high[i] & 0xF) << 8;
}

/* The index in @c of hardware counter @pmc, or -1. */
static int amd_find(const struct perfctr_cpu_control *c, u32 pmc)
{
	unsigned int i;

	for (i = 0; i < c->nractrs + c->nrictrs; i++)
		if (c->pmc_map[i] == pmc)
			return i;
	return -1;
}

/*
 * Counter i, if it is half of a pair, must be the right half of a whole
 * pair: the wide event on an even counter, Merge on the next, both
 * a-mode. The pair is one 64-bit counter whose top the odd half holds:
 * an i-mode preset of the even half alone would never overflow.
 */
static int amd_check_pair(const struct perfctr_cpu_control *c, unsigned int i)
{
	u32 pmc = c->pmc_map[i], ev = amd_event(c, i);
	int j;

	if (ev == AMD_MERGE_EVENT) {
		if (!(pmc & 1) || i >= c->nractrs)
			return -EINVAL;
		j = amd_find(c, pmc - 1);
		return j >= 0 && j < c->nractrs &&
		       amd_event(c, j) != AMD_MERGE_EVENT ? 0 : -EINVAL;
	}
	if (ev != AMD_WIDE_EVENT)
		return 0;
	if ((pmc & 1) || i >= c->nractrs)
		return -EINVAL;
	j = amd_find(c, pmc + 1);
	return j >= 0 && amd_event(c, j) == AMD_MERGE_EVENT ? 0 : -EINVAL;
}

static int k7_check_control(const struct perfctr_cpu_state *state,
			    bool is_global)
{
	const struct perfctr_cpu_control *c = &state->control;
	unsigned int i;
	int err = pc_check_evntsels(state, is_global);

	for (i = 0; !err && amd_pairs && i < c->nractrs + c->nrictrs; i++)
		err = amd_check_pair(c, i);
	return err;
}

void pc_amd_setup(const struct pc_cpu_ident *id)
{
	amd_pairs = id->family >= 0x17;
}

#define K7_COMMON						\
	.ctr_bits = 48,						\
	.wide_writes = true,					\
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC, \
	.kernel_reserve = true,					\
	.pmi = true,						\
	.selftest_event = COUNT_ALL | K7_CYCLES,		\
	.check_control = k7_check_control,			\
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

/*
 * PerfMonV2 (APM vol. 2, 24593 rev. 3.42, section 13.2; PPR 55901,
 * MSRC000_0300-0302): a core counter counts only if its bit in
 * PerfCntrGlobalCtl is set too. Linux clears that register at CPU start
 * and whenever perf stops the PMU. core.c's PC_GATE_GLOBAL sets our bits
 * at resume and clears them at suspend, one write each; reserve saves
 * what the kernel had, and release puts it back.
 */
static DEFINE_PER_CPU(u64, amd_saved_global_ctl);

/* The self-test runs between these too: our counters globally on. */
static void amd_v2_reserve_cpu(void)
{
	u64 global = pc_amd_global_ctl_read();

	this_cpu_write(amd_saved_global_ctl, global);
	pc_amd_global_ctl_write(global | pc_family.pmc_mask);
	/* Overflows someone else left must not pass for ours. */
	pc_amd_global_status_clr(pc_family.pmc_mask);
}

/*
 * What the kernel had; and none of our overflow bits, which perf would
 * take for overflows of counters it never started (an a-mode counter
 * that wrapped sets one nobody clears).
 */
static void amd_v2_release_cpu(void)
{
	pc_amd_global_status_clr(pc_family.pmc_mask);
	pc_amd_global_ctl_write(this_cpu_read(amd_saved_global_ctl));
}

/* Hardware counters of @state's counters in @mask (bit n: pmc[n]). */
static u64 amd_v2_bits(const struct perfctr_cpu_state *state,
		       unsigned long mask)
{
	unsigned int i;
	u64 bits = 0;

	for_each_set_bit(i, &mask, PERFCTR_NR_PMCS)
		bits |= BIT_ULL(PC_HW_INDEX(state->pmc[i].map));
	return bits;
}

/* Overflow latches in PerfCntrGlobalStatus until cleared. */
static void amd_v2_ack_overflow(const struct perfctr_cpu_state *state,
				unsigned int mask)
{
	pc_amd_global_status_clr(amd_v2_bits(state, mask));
}

/* Did one of @state's i-mode counters overflow? GlobalStatus says. */
static bool amd_v2_ictrs_overflowed(const struct perfctr_cpu_state *state)
{
	unsigned int from = perfctr_cstatus_nractrs(state->cstatus);
	unsigned int to = perfctr_cstatus_nrctrs(state->cstatus);

	if (from == to)
		return false;
	return pc_amd_global_status() &
	       amd_v2_bits(state, GENMASK(to - 1, from));
}

/*
 * CPUID Fn8000_0022: EAX[0] PerfMonV2, EBX[3:0] the number of core
 * counters. False without PerfMonV2 (the family 15h driver then).
 */
bool pc_amd_v2_probe(const struct pc_cpu_ident *id,
		     struct perfctr_x86_family *out)
{
	unsigned int n, cpu = cpumask_first(cpu_online_mask);
	u32 eax, ebx, ecx, edx;

	pc_cpuid_on(cpu, 0x80000000, &eax, &ebx, &ecx, &edx);
	if (eax < 0x80000022)
		return false;
	pc_cpuid_on(cpu, 0x80000022, &eax, &ebx, &ecx, &edx);
	n = min_t(unsigned int, ebx & 0xF, PERFCTR_NR_PMCS);
	if (!(eax & 1) || !n)
		return false;
	*out = perfctr_amd_v2_family;
	out->nrctrs = n;
	out->pmc_mask = GENMASK(n - 1, 0);
	return true;
}

const struct perfctr_x86_family perfctr_amd_v2_family = {
	.name = "AMD PerfMonV2 (Zen 4 and later)",
	.id = PERFCTR_X86_AMD_FAM10,
	.global_ctrl = true,
	.sel_msr = MSR_F15H_PERF_CTL0,
	.ctr_msr = MSR_F15H_PERF_CTR0,
	.msr_stride = 2,
	.rules = K7_RULES(FAM10_HIGH_ALLOWED),
	.ack_overflow = amd_v2_ack_overflow,
	.ictrs_overflowed = amd_v2_ictrs_overflowed,
	.reserve_cpu = amd_v2_reserve_cpu,
	.release_cpu = amd_v2_release_cpu,
	K7_COMMON,
};
