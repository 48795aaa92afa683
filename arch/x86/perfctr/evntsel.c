// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: rules and register writes shared by the families that
 * have one event select register per counter (P6, Intel architectural
 * perfmon, AMD K7 and later, VIA C3) and, for the rules, the P5s.
 */
#include <linux/bitops.h>
#include <linux/errno.h>

#include "x86.h"

static int check_enable(const struct perfctr_cpu_state *state, u32 pmc,
			u32 evntsel)
{
	switch (pc_family.rules.enable) {
	case PC_EN_EACH:
		return evntsel & EVNTSEL_EN ? 0 : -EINVAL;
	case PC_EN_PMC0:
		/* The global enable lives in EVNTSEL0 and nowhere else. */
		if (pmc == 0)
			return evntsel & EVNTSEL_EN ? 0 : -EINVAL;
		return evntsel & EVNTSEL_EN ? -EINVAL : 0;
	default:
		return 0;
	}
}

static int check_one(const struct perfctr_cpu_state *state, unsigned int i)
{
	const struct pc_evntsel_rules *rules = &pc_family.rules;
	const struct perfctr_cpu_control *control = &state->control;
	u32 evntsel = control->evntsel[i];
	u32 pmc = control->pmc_map[i];
	bool imode = i >= control->nractrs;

	if (pc_is_fixed(pmc))
		return pc_family.check_fixed ? pc_family.check_fixed(control, i)
					     : -EINVAL;
	if (pmc >= 32 || !(pc_family.pmc_mask & (1U << pmc)))
		return -EINVAL;
	if (evntsel & rules->reserved)
		return -EINVAL;
	if (rules->cpl && !(evntsel & rules->cpl))
		return -EINVAL;
	if (rules->intr && !!(evntsel & rules->intr) != imode)
		return -EINVAL;
	if (control->evntsel_high[i] & ~rules->high_allowed)
		return -EINVAL;
	return check_enable(state, pmc, evntsel);
}

/* A bit per hardware counter: general-purpose 0-31, fixed 32 and up. */
static u64 counter_bit(u32 pmc)
{
	return pc_is_fixed(pmc) ? BIT_ULL(32 + PC_HW_INDEX(pmc)) : BIT_ULL(pmc);
}

int pc_check_evntsels(const struct perfctr_cpu_state *state, bool is_global)
{
	const struct perfctr_cpu_control *control = &state->control;
	unsigned int i, nrctrs = control->nractrs + control->nrictrs;
	u64 used = 0;
	int err;

	for (i = 0; i < nrctrs; i++) {
		err = check_one(state, i);
		if (err)
			return err;
		if (used & counter_bit(control->pmc_map[i]))
			return -EINVAL;		/* two counters, one register */
		used |= counter_bit(control->pmc_map[i]);
	}
	/* Without EVNTSEL0's global enable no P6 counter counts. */
	if (pc_family.rules.enable == PC_EN_PMC0 && used && !(used & 1))
		return -EINVAL;
	return 0;
}

static u64 evntsel_value(const struct perfctr_cpu_control *control,
			 unsigned int i)
{
	return ((u64)control->evntsel_high[i] << 32) | control->evntsel[i];
}

void pc_write_evntsels(const struct perfctr_cpu_state *state,
		       struct pc_cache *cache)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	for (i = 0; i < nrctrs; i++) {
		u32 pmc = state->pmc[i].map;
		u64 val = evntsel_value(&state->control, i);

		if (pc_is_fixed(pmc))
			continue;		/* see p6.c */
		if (cache->ctl[pmc] != val) {
			pc_wrmsr(pc_sel_msr(pmc), val);
			cache->ctl[pmc] = val;
		}
	}
}

void pc_stop_evntsel(u32 pmc, struct pc_cache *cache)
{
	pc_wrmsr(pc_sel_msr(pmc), 0);
	cache->ctl[pmc] = 0;
}

void pc_clear_evntsels(struct pc_cache *cache)
{
	unsigned long mask = pc_family.pmc_mask;
	unsigned int pmc;

	for_each_set_bit(pmc, &mask, PERFCTR_NR_PMCS) {
		pc_wrmsr(pc_sel_msr(pmc), 0);
		cache->ctl[pmc] = 0;
	}
}

/* Has any counter of @state one of @bits set (a fixed counter: @fixed_bits)? */
bool pc_evntsel_has(const struct perfctr_cpu_state *state, u32 bits,
		    u32 fixed_bits)
{
	const struct perfctr_cpu_control *control = &state->control;
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	for (i = 0; i < nrctrs; i++) {
		u32 want = pc_is_fixed(control->pmc_map[i]) ? fixed_bits : bits;

		if (control->evntsel[i] & want)
			return true;
	}
	return false;
}

/* P6, arch perfmon, AMD: EVNTSEL.OS (bit 17) or a fixed field's OS bit. */
bool pc_evntsel_counts_kernel(const struct perfctr_cpu_state *state)
{
	return pc_evntsel_has(state, EVNTSEL_OS, FIXED_OS);
}
