// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: the common low-level API on the 604, 750 and 74xx
 * performance monitors, and the timebase-only generic driver.
 *
 * The strategy is the x86 one (Documentation/perfctr/ppc32.rst): sums
 * accumulate 32-bit differences, a-mode counters are never written, each
 * CPU caches what its MMCRs hold, and i-mode counters are frozen at
 * suspend with the CPU recorded in k1.isuspend_cpu. The counters have no
 * enable bits of their own: MMCR0[FC] freezes them all.
 *
 * Suspend freezes the counters, so they count nobody else. User space
 * can read the PMCs at any time (UPMCn) where the CPU has the user
 * copies, and no bit takes that away; so a state's counters are also
 * zeroed when it is suspended there, or the next thread would read them.
 */
#include <linux/errno.h>
#include <linux/math.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/smp.h>
#include <linux/string.h>

#include "ppc.h"

struct perfctr_cpu_info perfctr_info;
/* No ppc32 CPU has counters some of its threads may not use. */
struct cpumask perfctr_cpus_forbidden_mask;
struct perfctr_ppc_family pp_family;

static DEFINE_PER_CPU(struct pp_cache, pp_caches);

/* PMC1SEL and PMC2SEL in MMCR0; PMC3SEL to PMC6SEL in MMCR1. */
const struct pp_sel_field pp_sel_fields[PP_MAX_PMCS] = {
	{ 0, 6, 7 }, { 0, 0, 6 }, { 1, 27, 5 }, { 1, 22, 5 },
	{ 1, 17, 5 }, { 1, 11, 6 },
};

/* The MMCR0 bit that lets hardware counter @pmc raise the exception. */
static u32 pp_ce_bit(u32 pmc)
{
	return pmc ? PP_MMCR0_PMCNCE : PP_MMCR0_PMC1CE;
}

struct pp_cache *pp_this_cache(void)
{
	return this_cpu_ptr(&pp_caches);
}

/*
 * Generic mode: the timebase or nothing (an empty control stops counting,
 * as on every family; perfctr 2.6's vperfctr_stop() writes one).
 */
static int pp_check_generic(const struct perfctr_cpu_control *c)
{
	if (!pp_family.nrctrs && (c->ppc.mmcr0 || c->ppc.mmcr2))
		return -EINVAL;
	return 0;
}

/*
 * Counter numbers, event selects and reset values. Sets *imask and
 * *amask to the hardware counters used in i-mode and a-mode.
 */
static int pp_check_ctrs(const struct perfctr_cpu_control *c, u32 *imask,
			 u32 *amask)
{
	unsigned int i, nrctrs = c->nractrs + c->nrictrs;
	u32 used = 0;

	*imask = 0;
	for (i = 0; i < nrctrs; i++) {
		u32 pmc = c->pmc_map[i];

		if (pmc >= pp_family.nrctrs || (used & BIT(pmc)))
			return -EINVAL;
		used |= BIT(pmc);
		if (c->evntsel[i] & ~GENMASK(pp_sel_fields[pmc].width - 1, 0))
			return -EINVAL;
		/* cpu.c checked ireset: the msb (0x80000000) is clear. */
		if (i >= c->nractrs)
			*imask |= BIT(pmc);
	}
	*amask = used & ~*imask;
	return 0;
}

/*
 * MMCR0: the event selects come from evntsel[] and FC is the driver's.
 * TBEE is refused: a timebase event is no counter overflow, so
 * perfctr_cpu_suspend() could not report it, and with FCECE it would
 * freeze the counters for good. The exception is enabled exactly
 * when there are i-mode counters, each of those with its overflow
 * condition on; a condition must not cover an a-mode counter, whose wrap
 * past the msb is no overflow.
 */
static int pp_check_mmcr0(u32 mmcr0, u32 imask, u32 amask)
{
	u32 ce, pmc;

	if (mmcr0 & (PP_MMCR0_PMCSEL | PP_MMCR0_FC | PP_MMCR0_TBEE))
		return -EINVAL;
	if (!(mmcr0 & PP_MMCR0_PMXE) != !imask)
		return -EINVAL;
	for (pmc = 0; pmc < PP_MAX_PMCS; pmc++) {
		ce = mmcr0 & pp_ce_bit(pmc);
		if ((imask & BIT(pmc)) && !ce)
			return -EINVAL;
		if ((amask & BIT(pmc)) && ce)
			return -EINVAL;
	}
	return 0;
}

/* drivers/perfctr/cpu.c checked the rules every arch shares. */
int perfctr_arch_check_control(const struct perfctr_cpu_state *state,
			       bool is_global)
{
	const struct perfctr_cpu_control *c = &state->control;
	u32 imask, amask;
	int err;

	err = pp_check_generic(c);
	if (!err)
		err = pp_check_ctrs(c, &imask, &amask);
	if (!err)
		err = pp_check_mmcr0(c->ppc.mmcr0, imask, amask);
	if (err)
		return err;
	/* MMCR2 exists on the 74xx only, and we take only THRESHMULT. */
	if (c->ppc.mmcr2 & ~PP_MMCR2_THRESHMULT)
		return -EINVAL;
	if (c->ppc.mmcr2 && pp_family.nrmmcrs < 3)
		return -EINVAL;
	return 0;
}

/* The MMCR0 value of a control: its global bits and PMC1SEL/PMC2SEL. */
static void pp_compute_mmcrs(struct perfctr_cpu_state *state, bool only0)
{
	const struct perfctr_cpu_control *c = &state->control;
	unsigned int i, nrctrs = c->nractrs + c->nrictrs;
	u32 mmcr[3] = { c->ppc.mmcr0, 0, c->ppc.mmcr2 };

	for (i = 0; i < nrctrs; i++) {
		const struct pp_sel_field *f = &pp_sel_fields[c->pmc_map[i]];

		mmcr[f->mmcr] |= c->evntsel[i] << f->shift;
	}
	state->ppc_mmcr[0] = mmcr[0];
	if (only0)
		return;
	state->ppc_mmcr[1] = mmcr[1];
	state->ppc_mmcr[2] = mmcr[2];
}

void perfctr_arch_commit_control(struct perfctr_cpu_state *state)
{
	pp_compute_mmcrs(state, false);
}

/* Stop every counter of this CPU (they keep their values). */
static void pp_freeze(struct pp_cache *cache)
{
	u32 frozen = (cache->mmcr[0] | PP_MMCR0_FC) & ~PP_MMCR0_PMXE;

	if (cache->mmcr[0] != frozen) {
		cache->mmcr[0] = frozen;
		pp_write_mmcr(0, frozen);
	}
}

/*
 * With FCECE or TRIGGER the hardware rewrites MMCR0[FC] and [TRIGGER]
 * by itself while the counters run. Read MMCR0 and freeze at once, so
 * nothing changes after the read: keep what the hardware did in the
 * state, so the next resume carries on from there, and know exactly
 * what the register holds. The counters stay frozen until resume.
 */
void pp_save_async(struct perfctr_cpu_state *state, struct pp_cache *cache)
{
	u32 hw = pp_read_mmcr(0);
	u32 frozen = (hw | PP_MMCR0_FC) & ~PP_MMCR0_PMXE;
	u32 keep = PP_MMCR0_FC | PP_MMCR0_TRIGGER;

	if (hw != frozen)
		pp_write_mmcr(0, frozen);
	cache->mmcr[0] = frozen;
	state->ppc_mmcr[0] = (state->ppc_mmcr[0] & ~keep) | (hw & keep);
}

/*
 * Only running counters change MMCR0 by themselves, and the hardware
 * only ever sets FC: once the cache says FC, the driver froze them (and
 * saved what they did), or the state was resumed frozen.
 */
static bool pp_mmcr0_async(const struct perfctr_cpu_state *state,
			   const struct pp_cache *cache)
{
	return (state->ppc_mmcr[0] & PP_MMCR0_ASYNC) &&
	       !(cache->mmcr[0] & PP_MMCR0_FC);
}

static void pp_accumulate_ctrs(struct perfctr_cpu_state *state,
			       unsigned int from, unsigned int to)
{
	for (; from < to; from++)
		perfctr_accumulate(&state->pmc[from].sum, &state->pmc[from].start,
				   pp_read_pmc(state->pmc[from].map));
}

/* The counters of @state, bit n for PMC(n+1). */
static u32 pp_used_mask(const struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u32 mask = 0;

	for (i = 0; i < nrctrs; i++)
		mask |= BIT(state->pmc[i].map);
	return mask;
}

/* Zero the counters in @mask (frozen first), so user space reads nothing. */
static void pp_zero_ctrs(u32 mask, struct pp_cache *cache)
{
	unsigned long bits = mask;
	unsigned int pmc;

	if (!bits)
		return;
	pp_freeze(cache);
	for_each_set_bit(pmc, &bits, PP_MAX_PMCS)
		pp_write_pmc(pmc, 0);
}

static bool pp_user_reads_pmcs(void)
{
	return pp_family.features & PERFCTR_FEATURE_RDPMC;
}

unsigned int perfctr_cpu_suspend(struct perfctr_cpu_state *state)
{
	struct pp_cache *cache = this_cpu_ptr(&pp_caches);
	u32 cstatus = state->cstatus;
	unsigned int nrctrs = perfctr_cstatus_nrctrs(cstatus);
	unsigned int ovf = 0;

	if (nrctrs && pp_mmcr0_async(state, cache))
		pp_save_async(state, cache);
	/* Frozen before they are read: they count nobody else. */
	if (nrctrs)
		pp_freeze(cache);
	if (perfctr_cstatus_has_ictrs(cstatus)) {
		pp_irq_disarm();
		state->k1.isuspend_cpu = smp_processor_id();
	}
	pp_accumulate_ctrs(state, 0, nrctrs);
	if (perfctr_cstatus_has_tsc(cstatus))
		perfctr_accumulate(&state->tsc_sum, &state->tsc_start,
				   pp_mftb_low());
	if (nrctrs && pp_user_reads_pmcs()) {
		pp_zero_ctrs(pp_used_mask(state), cache);
		cache->used = 0;
		/* The i-mode values are gone from the hardware. */
		state->k1.isuspend_cpu = -1;
	}
	/* No flag to acknowledge: resume's preset clears the msb. */
	if (perfctr_cstatus_has_ictrs(cstatus))
		ovf = perfctr_ictrs_restart(state, 0);
	if (ovf)
		perfctr_cpu_ireload(state);
	return ovf;
}

/*
 * Put the i-mode counters' start values back, unless they are still
 * there. The overflow condition is a level: a counter this state does
 * not use but whose condition PMC1CE or PMCnCE enables would raise the
 * exception again and again if it held a negative value (left by an
 * earlier a-mode state, or on the 604 where nothing zeroes counters at
 * suspend). So every counter the state does not use is zeroed too; its
 * a-mode counters are left alone.
 */
static void pp_iresume(const struct perfctr_cpu_state *state,
		       struct pp_cache *cache)
{
	unsigned int i = perfctr_cstatus_nractrs(state->cstatus);
	unsigned int nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	unsigned long unused;
	unsigned int pmc;

	if (cache->id == state->id &&
	    state->k1.isuspend_cpu == smp_processor_id())
		return;
	pp_freeze(cache);
	for (; i < nrctrs; i++)
		pp_write_pmc(state->pmc[i].map, state->pmc[i].start);
	cache->used = pp_used_mask(state);
	unused = GENMASK(pp_family.nrctrs - 1, 0) & ~cache->used;
	for_each_set_bit(pmc, &unused, PP_MAX_PMCS)
		pp_write_pmc(pmc, 0);
}

/*
 * Counters the previous control used and this one does not still hold
 * the previous owner's counts, which user space could read: zero them.
 */
static void pp_scrub(const struct perfctr_cpu_state *state,
		     struct pp_cache *cache)
{
	u32 used = pp_used_mask(state);

	if (pp_user_reads_pmcs())
		pp_zero_ctrs(cache->used & ~used, cache);
	cache->used = used;
}

/* MMCR0 last: it unfreezes what the others set up. */
static void pp_write_mmcrs(const u32 *mmcr, struct pp_cache *cache)
{
	unsigned int n;

	for (n = pp_family.nrmmcrs; n-- > 0;) {
		if (cache->mmcr[n] != mmcr[n]) {
			cache->mmcr[n] = mmcr[n];
			pp_write_mmcr(n, mmcr[n]);
		}
	}
}

void perfctr_cpu_resume(struct perfctr_cpu_state *state)
{
	struct pp_cache *cache = this_cpu_ptr(&pp_caches);
	u32 cstatus = state->cstatus;
	unsigned int i, nractrs = perfctr_cstatus_nractrs(cstatus);

	/* A state without counters leaves them to whoever uses them. */
	if (perfctr_cstatus_nrctrs(cstatus)) {
		if (perfctr_cstatus_has_ictrs(cstatus)) {
			pp_iresume(state, cache);
			pp_irq_arm(state);
		}
		if (cache->id != state->id) {
			pp_scrub(state, cache);
			cache->id = state->id;
		}
		pp_write_mmcrs(state->ppc_mmcr, cache);
	}
	for (i = 0; i < nractrs; i++)
		state->pmc[i].start = pp_read_pmc(state->pmc[i].map);
	if (perfctr_cstatus_has_tsc(cstatus))
		state->tsc_start = pp_mftb_low();
}

/* Suspend and resume in one: every counter keeps running. */
void perfctr_cpu_sample(struct perfctr_cpu_state *state)
{
	u32 cstatus = state->cstatus;

	pp_accumulate_ctrs(state, 0, perfctr_cstatus_nrctrs(cstatus));
	if (perfctr_cstatus_has_tsc(cstatus))
		perfctr_accumulate(&state->tsc_sum, &state->tsc_start,
				   pp_mftb_low());
}

int perfctr_cpu_read_tsc(u64 *tsc)
{
	*tsc = pp_mftb();	/* every PowerPC has a time base */
	return 0;
}

/* /dev/perfmon: no PowerPC has the Pentium's or Pentium Pro's layout. */
int perfctr_cpu_perfmon_control(struct perfctr_cpu_control *control,
				const u32 *words, unsigned int run,
				unsigned int *slot)
{
	return -EOPNOTSUPP;
}

/* Also undoes what FCECE or TRIGGER did: the counters restart as set up. */
void perfctr_cpu_ireload(struct perfctr_cpu_state *state)
{
	state->k1.isuspend_cpu = -1;
	pp_compute_mmcrs(state, true);
}

/* Only MMCR0[FCS] keeps the counters out of supervisor state. */
bool perfctr_cpu_counts_kernel(const struct perfctr_cpu_state *state)
{
	return perfctr_cstatus_nrctrs(state->cstatus) &&
	       !(state->control.ppc.mmcr0 & PP_MMCR0_FCS);
}

/*
 * Where the user copies exist they are always readable: nothing to
 * switch on or off. Suspend leaves no counts behind; should another
 * state's counters still be live here (none is resumed while @state's
 * owner runs), freeze and zero them, so UPMCn reads nothing of theirs.
 * Not for a state without counters: global mode may be running beside it.
 */
void perfctr_cpu_user_read(const struct perfctr_cpu_state *state, bool on)
{
	const struct perfctr_cpu_control *c = &state->control;
	struct pp_cache *cache;

	if (!on || !pp_user_reads_pmcs() || !(c->nractrs + c->nrictrs))
		return;
	cache = this_cpu_ptr(&pp_caches);
	if (cache->id == state->id || !cache->used)
		return;
	pp_zero_ctrs(cache->used, cache);
	cache->used = 0;
	cache->id = 0;
}

unsigned int perfctr_cpu_features(void)
{
	return perfctr_info.features;
}

/* Runs on every CPU: nothing counts, nothing is left, and the cache knows it. */
static void pp_clear_cpu(void *unused)
{
	struct pp_cache *cache = this_cpu_ptr(&pp_caches);
	unsigned int n;

	if (!pp_family.nrctrs)
		return;
	cache->mmcr[0] = PP_MMCR0_FC;
	pp_write_mmcr(0, PP_MMCR0_FC);
	for (n = 1; n < pp_family.nrmmcrs; n++) {
		cache->mmcr[n] = 0;
		pp_write_mmcr(n, 0);
	}
	for (n = 0; n < pp_family.nrctrs; n++)
		pp_write_pmc(n, 0);
	if (pp_has_bamr(&pp_family))
		pp_write_bamr(0);
	cache->id = 0;
	cache->used = 0;
	pp_irq_disarm();
}

int perfctr_arch_check_cpu(unsigned int cpu)
{
	return 0;
}

/* Coming up or going down, a CPU leaves no counter running. */
void perfctr_arch_cpu_up(unsigned int cpu)
{
	pp_clear_cpu(NULL);
}

void perfctr_arch_cpu_down(unsigned int cpu)
{
	pp_clear_cpu(NULL);
}

/* What a refusal names when the kernel itself holds the counters. */
const char *const perfctr_kernel_holder = "perf_events";

int perfctr_arch_reserve(void)
{
	/* The PMI goes to one owner: take it even for a-mode counters. */
	if (pp_family.nrctrs && pp_reserve_hw(pp_perf_irq))
		return -EBUSY;
	pp_on_ready_cpus(pp_clear_cpu);
	return 0;
}

void perfctr_arch_release(void)
{
	pp_on_ready_cpus(pp_clear_cpu);
	if (pp_family.nrctrs) {
		pp_release_hw();
		/*
		 * A PMI handler already running on another CPU runs with
		 * interrupts off, an RCU read-side section: wait for it,
		 * so it cannot outlive the module's text.
		 */
		synchronize_rcu();
	}
}

bool perfctr_arch_kernel_busy(void)
{
	if (!pp_family.nrctrs)
		return false;
	if (pp_reserve_hw(NULL))
		return true;
	pp_release_hw();
	return false;
}

/* PMC1SEL = 1: processor cycles on every family here; FC clear. */
#define PP_SELFTEST_MMCR0	BIT(6)

/*
 * Emulators keep the registers but never count: count cycles over a
 * short loop. Returns NULL if the counters count, else why not.
 */
static const char *pp_selftest(void)
{
	u32 before, after;
	unsigned int i;

	pp_clear_cpu(NULL);
	before = pp_read_pmc(0);
	pp_write_mmcr(0, PP_SELFTEST_MMCR0);
	for (i = 0; i < 1000; i++)
		barrier();
	after = pp_read_pmc(0);
	pp_clear_cpu(NULL);
	return after == before ?
		"counters do not count (emulator or hypervisor?)" : NULL;
}

/* The name stays the detected CPU's, whatever driver ends up in use. */
static void pp_use_family(const struct perfctr_ppc_family *f, bool pcint)
{
	pp_family = *f;
	perfctr_info.family_id = f->id;
	perfctr_info.features = f->features;
	if (pcint && f->nrctrs)
		perfctr_info.features |= PERFCTR_FEATURE_PCINT;
	perfctr_info.nrctrs = f->nrctrs;
}

/*
 * Open Firmware gives the core and timebase clocks. The generic driver
 * has nothing but the timebase: without its frequency it has nothing to
 * offer, and it does not load (-ENODEV).
 */
static int pp_set_clocks(void)
{
	struct pp_clocks clk;

	pp_clocks(&clk);
	if (!clk.tb_hz && !pp_family.nrctrs)
		return -ENODEV;
	perfctr_info.cpu_khz = clk.cpu_hz / 1000;
	perfctr_info.tsc_to_cpu_mult = clk.tb_hz && clk.cpu_hz >= clk.tb_hz ?
		DIV_ROUND_CLOSEST(clk.cpu_hz, clk.tb_hz) : 1;
	return 0;
}

int perfctr_arch_init(void)
{
	const struct perfctr_ppc_family *f;
	const char *why = NULL;
	bool pcint;
	u32 pvr;
	int err;

	err = pp_hw_setup();
	if (err)
		return err;
	pvr = pp_mfpvr();
	f = pp_detect_family(pvr, &pcint);
	if (!f) {
		err = -ENODEV;
		goto fail;
	}
	pp_use_family(f, pcint);
	perfctr_info.name = f->name;
	snprintf(perfctr_info.cpuid, sizeof(perfctr_info.cpuid), "0x%08x", pvr);
	/* Counters perf_events holds exist; leave them alone then. */
	if (f->nrctrs && !pp_reserve_hw(NULL)) {
		preempt_disable();
		why = pp_selftest();
		preempt_enable();
		pp_release_hw();
	}
	if (why) {
		pp_use_family(&perfctr_ppc_generic_family, false);
		perfctr_info.fallback_reason = why;
	}
	err = pp_set_clocks();
	if (!err)
		return 0;
fail:
	pp_hw_teardown();
	return err;
}

void perfctr_arch_exit(void)
{
	pp_hw_teardown();
}

/* AMD's Instruction-Based Sampling: x86 only. */
u32 perfctr_cpu_ibs_caps(void)
{
	return 0;
}

int perfctr_cpu_ibs_setup(struct perfctr_ibs_state *st,
			  const struct perfctr_ibs_control *c)
{
	return -EOPNOTSUPP;
}

int perfctr_cpu_ibs_reserve(void)
{
	return -EOPNOTSUPP;
}

void perfctr_cpu_ibs_release(void)
{
}

int perfctr_cpu_ibs_resume(struct perfctr_ibs_state *st)
{
	return -EOPNOTSUPP;
}

void perfctr_cpu_ibs_suspend(struct perfctr_ibs_state *st)
{
}

bool perfctr_cpu_ibs_busy(void)
{
	return false;
}

void perfctr_cpu_set_ibs_handler(perfctr_ibs_handler_t handler)
{
}
