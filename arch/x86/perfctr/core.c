// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: the common low-level API on top of the family drivers.
 *
 * Rules shared by every family are checked here; each family file checks
 * its own. Sums use accumulate-differences: a period's count is the
 * 32-bit difference between two reads, so a-mode counters are never
 * written and one wrap per period is harmless.
 *
 * Suspend stops every counter of the state, so that it counts nobody
 * else (enum pc_gate: one GLOBAL_CTRL write on arch perfmon v2, the
 * enable bits elsewhere); where nothing can stop them, resume zeroes
 * them. Writing MSRs is slow, so each CPU caches what its control
 * registers hold (struct pc_cache): resuming the state that ran last
 * writes only the enables. I-mode counters are stopped at suspend too,
 * and the CPU they were stopped on is recorded in k1.isuspend_cpu: if the
 * same state resumes there with nobody in between, the counters still
 * hold their values and are not rewritten.
 */
#include <linux/errno.h>
#include <linux/percpu.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/tsc.h>
#include <perfctr/compat.h>

#include "x86.h"

struct perfctr_cpu_info perfctr_info;
struct cpumask perfctr_cpus_forbidden_mask;
struct perfctr_x86_family pc_family;

static DEFINE_PER_CPU(struct pc_cache, pc_caches);

/*
 * Like perf's /sys/bus/event_source/devices/cpu/rdpmc, which this module
 * cannot read (Documentation/perfctr/x86.rst): 0 never lets user space
 * RDPMC, 1 lets a set's owner while it runs, 2 never takes it away.
 */
int pc_rdpmc = 1;

static int pc_rdpmc_set(const char *val, const struct kernel_param *kp)
{
	int mode, err = kstrtoint(val, 0, &mode);

	if (err)
		return err;
	if (mode < 0 || mode > 2)
		return -EINVAL;
	WRITE_ONCE(*(int *)kp->arg, mode);
	return 0;
}

const struct kernel_param_ops pc_rdpmc_ops = {
	.set = pc_rdpmc_set,
	.get = param_get_int,
};

module_param_cb(rdpmc, &pc_rdpmc_ops, &pc_rdpmc, 0644);
MODULE_PARM_DESC(rdpmc, "user-space RDPMC: 0 never, 1 the set's owner while it runs (default), 2 always");

/*
 * ABI 1.1's wide presets (ireset_high[], Documentation/perfctr/x86.rst):
 * i-mode counters only, on counters that take them, negative and no
 * lower than -2^(width - 1), so the counter starts with its top bit set.
 */
static int pc_check_wide(const struct perfctr_cpu_control *c)
{
	unsigned int i, n = c->nractrs + c->nrictrs;
	s64 preset;

	for (i = 0; i < PERFCTR_NR_PMCS; i++) {
		if (!c->ireset_high[i])
			continue;
		if (i < c->nractrs || i >= n)
			return -EINVAL;
		if (!pc_wide_preset(c->pmc_map[i]))
			return -EOPNOTSUPP;
		preset = (s64)((u64)(u32)c->ireset_high[i] << 32 |
			       (u32)c->ireset[i]);
		if (preset >= 0 ||
		    preset < -(s64)(pc_ctr_mask(c->pmc_map[i]) >> 1) - 1)
			return -EINVAL;
	}
	return 0;
}

/* drivers/perfctr/cpu.c checked the rules every arch shares. */
int perfctr_arch_check_control(const struct perfctr_cpu_state *state,
			       bool is_global)
{
	/* No TSC (CPUID), or one that does not work (WinChip). */
	int err;

	if (state->control.tsc_on &&
	    !(perfctr_info.features & PERFCTR_FEATURE_RDTSC))
		return -EINVAL;
	err = pc_family.check_control(state, is_global);
	return err ?: pc_check_wide(&state->control);
}

void perfctr_arch_commit_control(struct perfctr_cpu_state *state)
{
	const struct perfctr_cpu_control *c = &state->control;
	unsigned int i;

	state->wide = 0;
	for (i = c->nractrs; i < c->nractrs + c->nrictrs; i++) {
		state->start_high[i] = c->ireset_high[i];
		if (c->ireset_high[i])
			state->wide |= BIT(i);
	}
	if (pc_family.commit_control)
		pc_family.commit_control(state);
}

/* Stop the i-mode counters and fold their counts into the sums. */
static void pc_isuspend(struct perfctr_cpu_state *state, struct pc_cache *cache)
{
	unsigned int i = perfctr_cstatus_nractrs(state->cstatus);
	unsigned int nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	state->k1.isuspend_cpu = smp_processor_id();
	for (; i < nrctrs; i++) {
		u32 pmc = state->pmc[i].map;

		pc_family.stop_counter(pmc, cache);
		if (state->wide & BIT(i)) {
			u64 now = pc_read_counter_wide(pmc);

			state->start_high[i] = now >> 32;
			perfctr_accumulate(&state->pmc[i].sum,
					   &state->pmc[i].start, (u32)now);
			continue;
		}
		perfctr_accumulate(&state->pmc[i].sum, &state->pmc[i].start,
				   pc_read_counter(pmc));
	}
}

/* perfctr_ictrs_restart() for the wide counters: their top bit decides. */
static unsigned int pc_wide_restart(struct perfctr_cpu_state *state)
{
	unsigned long wide = state->wide;
	unsigned int i, mask = 0;

	for_each_set_bit(i, &wide, PERFCTR_NR_PMCS) {
		u32 pmc = state->pmc[i].map;
		u64 now = (u64)state->start_high[i] << 32 | state->pmc[i].start;

		if (!pc_wide_overflowed(pmc, now & pc_ctr_mask(pmc)))
			continue;
		mask |= BIT(i);
		state->pmc[i].start = state->control.ireset[i];
		state->start_high[i] = state->control.ireset_high[i];
	}
	return mask;
}

/* What i-mode counter @i starts from: wide, or sign-extended from 32 bits. */
static u64 pc_istart(const struct perfctr_cpu_state *state, unsigned int i)
{
	u32 pmc = state->pmc[i].map;

	if (state->wide & BIT(i))
		return ((u64)state->start_high[i] << 32 | state->pmc[i].start) &
		       pc_ctr_mask(pmc);
	return (u64)(s64)(s32)state->pmc[i].start & pc_ctr_mask(pmc);
}

/* Put the i-mode counters' start values back, unless they are still there. */
static void pc_iresume(const struct perfctr_cpu_state *state,
		       struct pc_cache *cache)
{
	unsigned int i = perfctr_cstatus_nractrs(state->cstatus);
	unsigned int nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	/* Nobody ran here since: resume rewrites only the selects. */
	if (cache->id == state->id &&
	    state->k1.isuspend_cpu == smp_processor_id())
		return;
	for (; i < nrctrs; i++) {
		u32 pmc = state->pmc[i].map;

		/* Another state may have left it counting: stop it first. */
		if (pc_ctl_live(pmc, cache))
			pc_family.stop_counter(pmc, cache);
		pc_wrmsr(pc_ctr_wr_msr(pmc), pc_istart(state, i));
	}
}

static void pc_sample_actrs(struct perfctr_cpu_state *state, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		perfctr_accumulate(&state->pmc[i].sum, &state->pmc[i].start,
				   pc_read_counter(state->pmc[i].map));
}

/* The global enable register: Intel's GLOBAL_CTRL or AMD PerfMonV2's. */
static u64 pc_global_read(void)
{
	if (pc_family.id == PERFCTR_X86_AMD_FAM10)
		return pc_amd_global_ctl_read();
	return pc_rdmsr(MSR_CORE_PERF_GLOBAL_CTRL);
}

static void pc_global_write(u64 val)
{
	if (pc_family.id == PERFCTR_X86_AMD_FAM10)
		pc_amd_global_ctl_write(val);
	else
		pc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, val);
}

static void pc_global_ctrl(struct pc_cache *cache, u64 val)
{
	if (cache->global_ctrl != val) {
		pc_global_write(val);
		cache->global_ctrl = val;
	}
}

/* Clear @bit in the control register of hardware counter @pmc. */
static void pc_gate_sel(u32 pmc, u64 bit, struct pc_cache *cache)
{
	u64 *ctl = &cache->ctl[PC_HW_INDEX(pmc)];

	if (*ctl & bit) {
		*ctl &= ~bit;
		pc_wrmsr(pc_sel_msr(pmc), *ctl);
	}
}

/* Stop @state's counters; resume's write_control() starts them again. */
static void pc_gate_off(const struct perfctr_cpu_state *state,
			struct pc_cache *cache)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	u64 bit = pc_family.gate == PC_GATE_CCCR ? PC_P4_CCCR_ENABLE : EVNTSEL_EN;

	switch (pc_family.gate) {
	case PC_GATE_GLOBAL:
		pc_global_ctrl(cache, cache->global_on & ~pc_all_ctrs());
		break;
	case PC_GATE_PMC0:
		pc_gate_sel(0, EVNTSEL_EN, cache);
		break;
	case PC_GATE_EACH:
	case PC_GATE_CCCR:
		for (i = 0; i < nrctrs; i++)
			if (!pc_is_fixed(state->pmc[i].map))
				pc_gate_sel(state->pmc[i].map, bit, cache);
		break;
	case PC_GATE_CESR:
		if (cache->ctl[0]) {
			pc_wrmsr(pc_family.sel_msr, 0);
			cache->ctl[0] = 0;
		}
		break;
	default:
		break;
	}
}

unsigned int perfctr_cpu_suspend(struct perfctr_cpu_state *state)
{
	struct pc_cache *cache = this_cpu_ptr(&pc_caches);
	u32 cstatus = state->cstatus;
	unsigned int ovf = 0;

	if (perfctr_cstatus_has_ictrs(cstatus)) {
		pc_isuspend(state, cache);
		ovf = perfctr_ictrs_restart(state, state->wide) |
		      pc_wide_restart(state);
		pc_irq_disarm(ovf);
	}
	/* Stopped first, so the sums end where the counting did. */
	if (perfctr_cstatus_nrctrs(cstatus))
		pc_gate_off(state, cache);
	pc_sample_actrs(state, perfctr_cstatus_nractrs(cstatus));
	if (perfctr_cstatus_has_tsc(cstatus))
		perfctr_accumulate(&state->tsc_sum, &state->tsc_start,
				   pc_rdtsc_low());
	if (ovf) {
		if (pc_family.ack_overflow)
			pc_family.ack_overflow(state, ovf);
		perfctr_cpu_ireload(state);
	}
	return ovf;
}

/*
 * Hardware counters of @state's counters from..to-1: bit n, 24 + n fixed.
 * From the control, which says what they are even while cstatus is 0.
 */
static u32 pc_hw_mask(const struct perfctr_cpu_state *state,
		      unsigned int from, unsigned int to)
{
	u32 mask = 0;

	for (; from < to; from++) {
		u32 pmc = state->control.pmc_map[from];

		mask |= pc_is_fixed(pmc) ? BIT(24 + PC_HW_INDEX(pmc)) :
					   BIT(PC_HW_INDEX(pmc));
	}
	return mask;
}

/* Zero the counters in @mask (bits as pc_hw_mask()'s). */
static void pc_zero_ctrs(unsigned long mask)
{
	unsigned int bit;

	for_each_set_bit(bit, &mask, 32) {
		u32 pmc = bit >= 24 ? PERFCTR_X86_FIXED_PMC | (bit - 24) : bit;

		pc_wrmsr(pc_ctr_wr_msr(pmc), 0);
	}
}

/*
 * A new owner: every counter the previous control or this one uses
 * still holds the previous owner's counts, which RDPMC and the start
 * values in the state page would show. Zero them, except the i-mode
 * counters just preset. Resuming the owner itself costs nothing.
 */
static void pc_scrub(const struct perfctr_cpu_state *state,
		     struct pc_cache *cache)
{
	u32 cstatus = state->cstatus;
	u32 used = pc_hw_mask(state, 0, perfctr_cstatus_nrctrs(cstatus));
	unsigned long dirty = cache->used | used;

	if (cache->owner == state->id)
		return;
	cache->owner = state->id;
	cache->used = used;
	dirty &= ~pc_hw_mask(state, perfctr_cstatus_nractrs(cstatus),
			     perfctr_cstatus_nrctrs(cstatus));
	pc_zero_ctrs(dirty);
}

/*
 * A new control: counters the last one enabled and this one does not
 * use would count on (write_control() writes only this one's selects).
 */
static void pc_stop_unused(const struct perfctr_cpu_state *state,
			   struct pc_cache *cache)
{
	u32 used = pc_hw_mask(state, 0, perfctr_cstatus_nrctrs(state->cstatus));
	unsigned long others = pc_family.pmc_mask & ~used;
	unsigned int pmc;

	if (!pc_family.stop_counter)
		return;
	for_each_set_bit(pmc, &others, 32)
		if (pc_ctl_live(pmc, cache))
			pc_family.stop_counter(pmc, cache);
}

/* Load @state's control, or just enable it again if it is loaded. */
static void pc_load(struct perfctr_cpu_state *state, struct pc_cache *cache)
{
	u32 cstatus = state->cstatus;

	if (perfctr_cstatus_has_ictrs(cstatus)) {
		pc_iresume(state, cache);
		pc_irq_arm(state);
	}
	/* Writes what differs from the cache: after suspend, the enables. */
	pc_family.write_control(state, cache);
	if (cache->id != state->id) {
		pc_stop_unused(state, cache);
		pc_scrub(state, cache);
		cache->id = state->id;
	} else if (pc_family.gate == PC_GATE_ZERO) {
		/* They counted whatever ran here since suspend. */
		pc_zero_ctrs(pc_hw_mask(state, 0, perfctr_cstatus_nrctrs(cstatus)));
	}
	if (pc_family.gate == PC_GATE_GLOBAL)
		pc_global_ctrl(cache, cache->global_on);
}

void perfctr_cpu_resume(struct perfctr_cpu_state *state)
{
	struct pc_cache *cache = this_cpu_ptr(&pc_caches);
	u32 cstatus = state->cstatus;
	unsigned int i, nractrs = perfctr_cstatus_nractrs(cstatus);

	/* A state without counters leaves them to whoever uses them. */
	if (perfctr_cstatus_nrctrs(cstatus))
		pc_load(state, cache);
	for (i = 0; i < nractrs; i++)
		state->pmc[i].start = pc_read_counter(state->pmc[i].map);
	if (perfctr_cstatus_has_tsc(cstatus))
		state->tsc_start = pc_rdtsc_low();
}

/* Suspend and resume in one: every counter keeps running. */
void perfctr_cpu_sample(struct perfctr_cpu_state *state)
{
	u32 cstatus = state->cstatus;

	pc_sample_actrs(state, perfctr_cstatus_nrctrs(cstatus));
	if (perfctr_cstatus_has_tsc(cstatus))
		perfctr_accumulate(&state->tsc_sum, &state->tsc_start,
				   pc_rdtsc_low());
}

int perfctr_cpu_read_tsc(u64 *tsc)
{
	if (!(perfctr_info.features & PERFCTR_FEATURE_RDTSC))
		return -EOPNOTSUPP;
	*tsc = pc_rdtsc();
	return 0;
}

void perfctr_cpu_ireload(struct perfctr_cpu_state *state)
{
	state->k1.isuspend_cpu = -1;
}

bool perfctr_cpu_counts_kernel(const struct perfctr_cpu_state *state)
{
	if (!perfctr_cstatus_nrctrs(state->cstatus))
		return false;
	return !pc_family.counts_kernel || pc_family.counts_kernel(state);
}

/*
 * User space is about to read @state's counters, which are not
 * necessarily loaded: if another control's counts are in the registers,
 * stop everything and zero them and @state's, so RDPMC of any of its
 * counters reads its own count or zero. The next resume loads it afresh.
 */
static void pc_user_claim(const struct perfctr_cpu_state *state,
			  struct pc_cache *cache)
{
	const struct perfctr_cpu_control *c = &state->control;
	u32 used = pc_hw_mask(state, 0, c->nractrs + c->nrictrs);

	if (cache->owner == state->id)
		return;
	pc_family.clear_counters(cache);
	pc_zero_ctrs(cache->used | used);
	cache->id = 0;
	cache->owner = state->id;
	cache->used = used;
}

void perfctr_cpu_user_read(const struct perfctr_cpu_state *state, bool on)
{
	int mode = READ_ONCE(pc_rdpmc);

	if (!(pc_family.features & PERFCTR_FEATURE_RDPMC) ||
	    !perfctr_may_set_pce())
		return;
	if (!on) {
		/* 2: other threads of the mm may read theirs (perf's "always"). */
		if (mode != 2)
			pc_user_rdpmc(false);
		return;
	}
	if (!mode || !(state->control.nractrs + state->control.nrictrs))
		return;
	/* An HT P4's thread 1: the registers are its sibling's. */
	if (cpumask_test_cpu(smp_processor_id(), &perfctr_cpus_forbidden_mask))
		return;
	pc_user_claim(state, this_cpu_ptr(&pc_caches));
	pc_user_rdpmc(true);
}

unsigned int perfctr_cpu_features(void)
{
	unsigned int features = perfctr_info.features;

	if (!READ_ONCE(pc_rdpmc) || !perfctr_may_set_pce())
		features &= ~PERFCTR_FEATURE_RDPMC;
	return features;
}

static bool pc_has_pmi(void)
{
	return perfctr_info.features & PERFCTR_FEATURE_PCINT;
}

/* Runs on every CPU: nothing counts, and the cache knows it. */
static void pc_clear_cpu(void *unused)
{
	struct pc_cache *cache = this_cpu_ptr(&pc_caches);

	pc_family.clear_counters(cache);
	cache->id = 0;
	cache->owner = 0;
	/* Whatever ran before us may have left counts: scrub them all. */
	cache->used = pc_family.pmc_mask | (pc_family.fixed_mask << 24);
}

/*
 * Nothing of the last owner stays behind for perf, whose rdpmc users
 * could read counters it never cleared.
 */
static void pc_zero_all(void)
{
	pc_zero_ctrs(pc_family.pmc_mask | (pc_family.fixed_mask << 24));
}

/* @regs: this CPU's counter registers are its own to set (see below). */
static void pc_setup_cpu(bool regs)
{
	struct pc_cache *cache = this_cpu_ptr(&pc_caches);

	if (regs) {
		pc_clear_cpu(NULL);
		if (pc_family.reserve_cpu)
			pc_family.reserve_cpu();
	}
	/* Our counters enabled globally only while a state runs. */
	if (regs && pc_family.gate == PC_GATE_GLOBAL) {
		cache->global_on = pc_global_read() | pc_all_ctrs();
		cache->global_ctrl = cache->global_on;
		pc_global_ctrl(cache, cache->global_on & ~pc_all_ctrs());
	}
	if (pc_has_pmi())
		pc_irq_setup_cpu();
}

static void pc_restore_cpu(bool regs)
{
	if (regs) {
		pc_clear_cpu(NULL);
		pc_zero_all();
		if (pc_family.release_cpu)
			pc_family.release_cpu();
	}
	if (pc_has_pmi())
		pc_irq_restore_cpu();
}

static void pc_reserve_cpu(void *unused)
{
	pc_setup_cpu(true);
}

static void pc_release_cpu(void *unused)
{
	pc_restore_cpu(true);
}

/*
 * An HT P4's thread 1 shares its core's CCCRs and ESCRs with thread 0,
 * whose counters may be running: going up or down it leaves them alone.
 */
static bool pc_regs_own(unsigned int cpu)
{
	return !cpumask_test_cpu(cpu, &perfctr_cpus_forbidden_mask);
}

/* A CPU that lacks counters we offer would #GP on their first RDPMC. */
int perfctr_arch_check_cpu(unsigned int cpu)
{
	char why[256];
	int err;

	if (!pc_family.check_cpu)
		return 0;
	err = pc_family.check_cpu(cpu, why, sizeof(why));
	if (err)
		pr_err("perfctr: %s\n", why);
	return err;
}

void perfctr_arch_cpu_up(unsigned int cpu)
{
	pc_setup_cpu(pc_regs_own(cpu));
}

void perfctr_arch_cpu_down(unsigned int cpu)
{
	pc_restore_cpu(pc_regs_own(cpu));
}

/*
 * What a refusal names when the kernel holds the counters. In-tree, only
 * perf_events takes them from this allocator, for all its users at once:
 * which of them hold them now, the module cannot see (sharing.rst).
 */
const char *const perfctr_kernel_holder =
	"perf_events (the NMI watchdog or a perf user)";

static void pc_release_kernel(unsigned int upto)
{
	unsigned int pmc;

	for (pmc = 0; pmc < upto; pmc++)
		if (pc_family.pmc_mask & (1U << pmc))
			pc_release_kernel_ctr(pc_ctr_msr(pmc), pc_sel_msr(pmc));
}

/* Take every counter we drive from the kernel's allocator, or none. */
static bool pc_reserve_kernel(void)
{
	unsigned int pmc, top;

	if (!pc_family.kernel_reserve)
		return true;
	top = fls(pc_family.pmc_mask);
	for (pmc = 0; pmc < top; pmc++) {
		if (!(pc_family.pmc_mask & (1U << pmc)))
			continue;
		if (!pc_reserve_kernel_ctr(pc_ctr_msr(pmc), pc_sel_msr(pmc))) {
			pc_release_kernel(pmc);
			return false;
		}
	}
	return true;
}

static void pc_unreserve_kernel(void)
{
	if (pc_family.kernel_reserve)
		pc_release_kernel(fls(pc_family.pmc_mask));
}

int perfctr_arch_reserve(void)
{
	if (!pc_reserve_kernel())
		return -EBUSY;
	if (pc_has_pmi() && pc_irq_init()) {
		pc_unreserve_kernel();
		return -EBUSY;
	}
	pc_on_ready_cpus(pc_reserve_cpu);
	return 0;
}

void perfctr_arch_release(void)
{
	pc_on_ready_cpus(pc_release_cpu);
	if (pc_has_pmi())
		pc_irq_exit();
	pc_unreserve_kernel();
}

bool perfctr_arch_kernel_busy(void)
{
	if (!pc_reserve_kernel())
		return true;
	pc_unreserve_kernel();
	return false;
}

/*
 * Emulators and many hypervisors accept the MSRs but never count. Count
 * kernel-mode events on counter 0 over a short loop and see if it moved.
 * Returns NULL if the counters count, else why not.
 */
static const char *pc_selftest(void)
{
	u32 pmc = __ffs(pc_family.pmc_mask);
	u32 sel = pc_sel_msr(pmc);
	u32 ctr = pc_ctr_msr(pmc);
	struct pc_cache *cache = this_cpu_ptr(&pc_caches);
	u64 before, after;
	unsigned int i;
	const char *why = NULL;

	if (!pc_family.selftest_event)
		return NULL;
	/* Probe with the safe accessors before anything can fault. */
	if (pc_wrmsr_safe(sel, 0) || pc_wrmsr_safe(ctr, 0))
		return "counter MSRs are not writable";
	if (pc_rdmsr_safe(ctr, &before))
		return "counter MSRs are not readable";
	pc_family.clear_counters(cache);
	if (pc_family.reserve_cpu)
		pc_family.reserve_cpu();
	if (pc_family.selftest_aux_msr &&
	    pc_wrmsr_safe(pc_family.selftest_aux_msr, pc_family.selftest_aux))
		why = "event select refused";
	if (!why && pc_wrmsr_safe(sel, pc_family.selftest_event))
		why = "event select refused";
	for (i = 0; !why && i < 1000; i++)
		barrier();
	if (!why && (pc_rdmsr_safe(ctr, &after) || after == before))
		why = "counters do not count (emulator or hypervisor?)";
	pc_family.clear_counters(cache);
	if (pc_family.release_cpu)
		pc_family.release_cpu();
	pc_wrmsr_safe(ctr, 0);
	cache->id = 0;
	return why;
}

static enum pc_gate pc_gate_of(const struct perfctr_x86_family *f)
{
	switch (f->id) {
	case PERFCTR_X86_GENERIC:
		return PC_GATE_NONE;
	case PERFCTR_X86_INTEL_P5:
	case PERFCTR_X86_INTEL_P5MMX:
	case PERFCTR_X86_CYRIX_MII:
		return PC_GATE_CESR;
	case PERFCTR_X86_WINCHIP:
	case PERFCTR_X86_VIA_C3:
		return PC_GATE_ZERO;
	case PERFCTR_X86_INTEL_P6:
		return PC_GATE_PMC0;
	case PERFCTR_X86_INTEL_P4:
		return PC_GATE_CCCR;
	case PERFCTR_X86_AMD_FAM10:	/* PerfMonV2 */
	case PERFCTR_X86_INTEL_ARCH:
		return f->global_ctrl ? PC_GATE_GLOBAL : PC_GATE_EACH;
	default:
		return PC_GATE_EACH;
	}
}

static void pc_use_family(const struct perfctr_x86_family *f)
{
	pc_family = *f;
	pc_family.gate = pc_gate_of(f);
	perfctr_info.family_id = f->id;
	perfctr_info.features = f->features;
	perfctr_info.nrctrs = f->nrctrs;
}

int perfctr_arch_init(void)
{
	struct perfctr_x86_family f;
	struct pc_cpu_ident id;
	const char *why;
	int err;

	err = pc_hw_setup();
	if (err)
		return err;
	pc_cpu_ident(&id);
	pc_ibs_init(&id);
	if (pc_detect_family(&id, &f, &why))
		goto nodev;

	pc_use_family(&f);
	snprintf(perfctr_info.cpuid, sizeof(perfctr_info.cpuid), "%s-%u-%X-%X",
		 id.vendor_id, id.family, id.model, id.stepping);
	if (f.pmi && id.has_apic)
		perfctr_info.features |= PERFCTR_FEATURE_PCINT;
	if (f.pmi && id.has_apic && (f.ctr_wr_msr || f.wide_writes))
		perfctr_info.features |= PERFCTR_FEATURE_WIDE_IRESET;
	/* A family's CPUs have a TSC, but a hypervisor may hide it. */
	if (!id.has_tsc)
		perfctr_info.features &= ~PERFCTR_FEATURE_RDTSC;
	perfctr_info.name = f.name;
	perfctr_info.fallback_reason = why;
	if (f.id == PERFCTR_X86_INTEL_P4 && id.siblings > 1)
		pc_thread1_cpus(&perfctr_cpus_forbidden_mask);
	/* Counters the kernel holds exist; leave them alone then. */
	if (f.nrctrs && pc_reserve_kernel()) {
		preempt_disable();
		why = pc_selftest();
		preempt_enable();
		pc_unreserve_kernel();
		if (why) {
			if (!id.has_tsc)
				goto nodev;
			pc_use_family(&perfctr_generic_family);
			perfctr_info.fallback_reason = why;
		}
	}
	perfctr_info.cpu_khz = cpu_khz;
	perfctr_info.tsc_to_cpu_mult =
		tsc_khz ? max(1U, DIV_ROUND_CLOSEST(cpu_khz, tsc_khz)) : 1;
	return 0;

nodev:
	pc_hw_teardown();
	return -ENODEV;
}

void perfctr_arch_exit(void)
{
	pc_ibs_exit();
	pc_hw_teardown();
}
