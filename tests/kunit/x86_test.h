/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the x86 KUnit suites: bring up a simulated CPU, pin the
 * test to one CPU (the simulation is one CPU; the driver's caches are
 * per CPU), and call the driver the way the high-level driver does,
 * with preemption disabled.
 */
#ifndef _PERFCTR_X86_TEST_H
#define _PERFCTR_X86_TEST_H

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <perfctr/cpu.h>
#include "../sim/x86_sim.h"

#define SIM_SERVICE "kunit"

/* The simulated CPU and the driver's caches are per CPU: stay on one. */
static inline int sim_pin(struct kunit *test)
{
	return set_cpus_allowed_ptr(current, cpumask_of(raw_smp_processor_id()));
}

static inline void sim_unpin(struct kunit *test)
{
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

static inline int sim_start(struct kunit *test,
			    const struct perfctr_x86_sim_model *m)
{
	int err;

	sim_pin(test);
	perfctr_x86_sim_reset(m);
	/* Let the self-test see time pass; tests tick explicitly after. */
	perfctr_x86_sim.autotick = 1;
	err = perfctr_cpu_init();
	perfctr_x86_sim.autotick = 0;
	if (err)
		return err;
	/* Reserving clears the registers and this CPU's cache. */
	return perfctr_cpu_reserve(SIM_SERVICE) ? -EBUSY : 0;
}

static inline void sim_stop(struct kunit *test)
{
	perfctr_cpu_release(SIM_SERVICE);
	perfctr_cpu_exit();
	sim_unpin(test);
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

static inline void sim_sample(struct perfctr_cpu_state *state)
{
	preempt_disable();
	perfctr_cpu_sample(state);
	preempt_enable();
}

#endif /* _PERFCTR_X86_TEST_H */
