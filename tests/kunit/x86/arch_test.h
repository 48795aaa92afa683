/* SPDX-License-Identifier: GPL-2.0-only */
/* What the x86 KUnit suites share beyond sim_test.h: controls for every family. */
#ifndef _PERFCTR_X86_ARCH_TEST_H
#define _PERFCTR_X86_ARCH_TEST_H

#include <linux/bitops.h>

#include "../sim_test.h"

/* Controls the tests share, valid on every simulated family. */
#define EN	0x00400000U
#define INT	0x00100000U
#define CPL	0x00030000U

/* P4: an ESCR_SELECT valid for every counter of @pmc's pair. */
static inline u32 p4_select(u32 pmc)
{
	return pmc >= 12 ? 4 : 0;	/* CRU_ESCR0/1, else the group's own */
}

/* P4: the ESCR value, counting at every CPL of thread 0. */
#define P4_ESCR	((0x2U << 25) | BIT(9) | 0xC)

/* An evntsel the model's rules accept for @pmc, counting event @ev. */
static inline u32 good_sel(const struct perfctr_x86_sim_model *m, u32 pmc,
			   bool imode, u32 ev)
{
	switch (m->kind) {
	case SIM_P5:
	case SIM_WINCHIP:
		return 0xC0 | (ev & 0x3F);
	case SIM_C3:
		return ev & 0x1FF;
	case SIM_P6:
		return (pmc == 0 ? EN : 0) | CPL | ev | (imode ? INT : 0);
	case SIM_P4:	/* CCCR: enable, select, any thread, threshold */
		return BIT(12) | (p4_select(pmc) << 13) | (3U << 16) |
		       ((ev & 0xF) << 20) | (imode ? BIT(26) : 0);
	default:
		return EN | CPL | ev | (imode ? INT : 0);
	}
}

/* Counter number @n of the model (C3: only counter 1 exists). */
static inline u32 nth_pmc(const struct perfctr_x86_sim_model *m, unsigned int n)
{
	unsigned long mask = m->pmc_mask;
	unsigned int pmc;

	for_each_set_bit(pmc, &mask, 32)
		if (n-- == 0)
			return pmc;
	return 0;
}

static inline unsigned int nr_pmcs(const struct perfctr_x86_sim_model *m)
{
	return hweight32(m->pmc_mask);
}

/* @n a-mode counters counting event @ev, and the TSC where it works. */
static inline void amode_control(struct kunit *test,
				 struct perfctr_cpu_state *state,
				 unsigned int n, u32 ev)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_control *c = &state->control;
	unsigned int i;

	memset(c, 0, sizeof(*c));
	c->tsc_on = m->kind != SIM_WINCHIP;
	c->nractrs = n;
	for (i = 0; i < n; i++) {
		c->pmc_map[i] = nth_pmc(m, i);
		c->evntsel[i] = good_sel(m, c->pmc_map[i], false, ev);
		c->p4.escr[i] = m->kind == SIM_P4 ? P4_ESCR : 0;
	}
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
}

/* One a-mode counter on pmc 0 and one i-mode counter on pmc 1. */
/* imode_control() with ABI 1.1's ireset_high[1] = @high. */
static inline void imode_control_wide(struct kunit *test,
				      struct perfctr_cpu_state *state,
				      s32 high, s32 ireset);

static inline void imode_control(struct kunit *test,
				 struct perfctr_cpu_state *state, s32 ireset)
{
	imode_control_wide(test, state, 0, ireset);
}

static inline void imode_control_wide(struct kunit *test,
				      struct perfctr_cpu_state *state,
				      s32 high, s32 ireset)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_control *c = &state->control;

	perfctr_info.features |= PERFCTR_FEATURE_PCINT;
	memset(c, 0, sizeof(*c));
	c->tsc_on = 1;
	c->nractrs = 1;
	c->nrictrs = 1;
	c->pmc_map[0] = 0;
	c->evntsel[0] = good_sel(m, 0, false, 0xC0);
	c->pmc_map[1] = 1;
	c->evntsel[1] = good_sel(m, 1, true, 0xC0);
	c->ireset[1] = ireset;
	c->ireset_high[1] = high;
	if (m->kind == SIM_P4) {
		c->p4.escr[0] = P4_ESCR;
		c->p4.escr[1] = P4_ESCR;
	}
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
}

/* A new state with amode_control(@n, @ev) loaded. */
static inline struct perfctr_cpu_state *amode_state(struct kunit *test,
						    unsigned int n, u32 ev)
{
	struct perfctr_cpu_state *state = sim_state(test);

	amode_control(test, state, n, ev);
	return state;
}

/* A new state with imode_control(@ireset) loaded. */
static inline struct perfctr_cpu_state *imode_state(struct kunit *test,
						    s32 ireset)
{
	struct perfctr_cpu_state *state = sim_state(test);

	imode_control(test, state, ireset);
	return state;
}

static inline u64 preset(s32 ireset)
{
	unsigned int width = perfctr_x86_sim.m->width;

	return (u64)(s64)ireset & ((1ULL << width) - 1);
}

/*
 * Control-register writes that stop a loaded state's @n counters at
 * suspend, from the manuals: arch perfmon v2 has one global enable
 * (IA32_PERF_GLOBAL_CTRL), the P6 one in EVNTSEL0, the P5 and its clones
 * a CESR whose zero value counts nothing; each K7 and arch v1 evntsel and
 * each P4 CCCR has an enable bit of its own, but AMD PerfMonV2 has one
 * global enable too (PerfCntrGlobalCtl). The WinChip and the C3 cannot
 * stop theirs.
 */
static inline unsigned int stop_writes(const struct perfctr_x86_sim_model *m,
				       unsigned int n)
{
	if (m->kind == SIM_K7 && m->amd_v2_ctrs)
		return 1;
	switch (m->kind) {
	case SIM_ARCH:
		return (m->cpuid_a_eax & 0xFF) >= 2 ? 1 : n;
	case SIM_P5:
	case SIM_P6:
		return 1;
	case SIM_WINCHIP:
	case SIM_C3:
		return 0;
	default:
		return n;
	}
}

/* Writes that start them again at resume; counters that never stop are zeroed. */
static inline unsigned int start_writes(const struct perfctr_x86_sim_model *m,
					unsigned int n)
{
	if (m->kind == SIM_WINCHIP || m->kind == SIM_C3)
		return n;
	return stop_writes(m, n);
}

static inline bool can_stop(const struct perfctr_x86_sim_model *m)
{
	return m->kind != SIM_WINCHIP && m->kind != SIM_C3;
}

/* One counter of a control in a table of test cases. */
struct sim_ctr {
	u32 map, evntsel, high;
	s32 ireset;
	u32 escr;		/* P4 */
};

/* A control with the counts given and the first @n of @c. */
static inline void sim_fill_control(struct perfctr_cpu_control *control,
				    u32 tsc_on, u32 nractrs, u32 nrictrs,
				    const struct sim_ctr *c, unsigned int n)
{
	unsigned int i;

	memset(control, 0, sizeof(*control));
	control->tsc_on = tsc_on;
	control->nractrs = nractrs;
	control->nrictrs = nrictrs;
	for (i = 0; i < n && i < PERFCTR_NR_PMCS; i++) {
		control->pmc_map[i] = c[i].map;
		control->evntsel[i] = c[i].evntsel;
		control->evntsel_high[i] = c[i].high;
		control->ireset[i] = c[i].ireset;
		control->p4.escr[i] = c[i].escr;
	}
}

/*
 * Power on the model of table case @tcase and return a new state with its
 * control filled in, not yet loaded. @tcase has .model, .tsc_on, .nractrs,
 * .nrictrs and an array .c of struct sim_ctr.
 */
#define sim_case_state(test, tcase) ({					\
	__auto_type __c = (tcase);					\
	struct perfctr_cpu_state *__state =				\
		sim_start_state(test, __c->model);			\
									\
	sim_fill_control(&__state->control, __c->tsc_on, __c->nractrs,	\
			 __c->nrictrs, __c->c, ARRAY_SIZE(__c->c));	\
	__state;							\
})

/*
 * Whether the overflow interrupt works is a test's to say, not the
 * model's: PCINT set as @on; returns the features to put back.
 */
static inline unsigned int sim_force_pcint(bool on)
{
	unsigned int features = perfctr_info.features;

	if (on)
		perfctr_info.features |= PERFCTR_FEATURE_PCINT;
	else
		perfctr_info.features &= ~PERFCTR_FEATURE_PCINT;
	return features;
}

#endif /* _PERFCTR_X86_ARCH_TEST_H */
