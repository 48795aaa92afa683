/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the ppc32 KUnit suites: bring up a simulated CPU, pin the
 * test to one CPU (the simulation is per CPU, and so are the driver's
 * caches), and call the driver the way the high-level driver does, with
 * preemption disabled.
 */
#ifndef _PERFCTR_PPC_TEST_H
#define _PERFCTR_PPC_TEST_H

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <perfctr/cpu.h>
#include "../sim/ppc_sim.h"

#define SIM_SERVICE "kunit"

/* Bits of control.ppc.mmcr0 the tests use. */
#define PMXE	PERFCTR_PPC_MMCR0_PMXE
#define FCECE	PERFCTR_PPC_MMCR0_FCECE
#define PMC1CE	PERFCTR_PPC_MMCR0_PMC1CE
#define PMCNCE	PERFCTR_PPC_MMCR0_PMCNCE
#define TRIGGER	PERFCTR_PPC_MMCR0_TRIGGER
#define FC	PERFCTR_PPC_MMCR0_FC
#define TBEE	PERFCTR_PPC_MMCR0_TBEE

static inline void sim_pin(void)
{
	set_cpus_allowed_ptr(current, cpumask_of(raw_smp_processor_id()));
}

static inline void sim_unpin(void)
{
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* Power on @m, load the driver and reserve the counters. */
static inline int sim_start(const struct perfctr_ppc_sim_model *m)
{
	int err;

	sim_pin();
	perfctr_ppc_sim_reset(m);
	/* Let the self-test see time pass; tests tick explicitly after. */
	perfctr_ppc_sim.autotick = 1;
	err = perfctr_cpu_init();
	perfctr_ppc_sim.autotick = 0;
	if (err)
		return err;
	return perfctr_cpu_reserve(SIM_SERVICE) ? -EBUSY : 0;
}

static inline void sim_stop(struct kunit *test)
{
	perfctr_cpu_release(SIM_SERVICE);
	perfctr_cpu_exit();
	sim_unpin();
}

static inline struct perfctr_cpu_state *sim_state(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	state = kunit_kzalloc(test, sizeof(*state), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, state);
	return state;
}

static inline void sim_resume(struct perfctr_cpu_state *state)
{
	preempt_disable();
	perfctr_cpu_resume(state);
	preempt_enable();
}

static inline void sim_suspend(struct perfctr_cpu_state *state)
{
	preempt_disable();
	perfctr_cpu_suspend(state);
	preempt_enable();
}

/* The name of a model, for parameterised cases over models. */
static inline void sim_model_desc(const struct perfctr_ppc_sim_model *const *m,
				  char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", (*m)->name);
}

static inline void sim_sample(struct perfctr_cpu_state *state)
{
	preempt_disable();
	perfctr_cpu_sample(state);
	preempt_enable();
}

/* One counter of a control in a table of test cases. */
struct sim_ctr {
	u32 map, sel;
	s32 ireset;
};

/* A control with the counts and MMCR0 given and the first @n of @c. */
static inline void sim_fill_control(struct perfctr_cpu_control *control,
				    u32 tsc_on, u32 nractrs, u32 nrictrs,
				    u32 mmcr0, const struct sim_ctr *c,
				    unsigned int n)
{
	unsigned int i;

	memset(control, 0, sizeof(*control));
	control->tsc_on = tsc_on;
	control->nractrs = nractrs;
	control->nrictrs = nrictrs;
	control->ppc.mmcr0 = mmcr0;
	for (i = 0; i < n && i < PERFCTR_NR_PMCS; i++) {
		control->pmc_map[i] = c[i].map;
		control->evntsel[i] = c[i].sel;
		control->ireset[i] = c[i].ireset;
	}
}

#endif /* _PERFCTR_PPC_TEST_H */
