/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Helpers for the KUnit suites of both arches: bring up a simulated CPU,
 * pin the test to one CPU (the simulation is per CPU, and so are the
 * driver's caches), and call the driver the way the high-level driver
 * does, with preemption disabled. Each arch's arch_test.h adds its own.
 */
#ifndef _PERFCTR_SIM_TEST_H
#define _PERFCTR_SIM_TEST_H

#include <kunit/test.h>
#include <linux/cpumask.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/slab.h>

#include <perfctr/cpu.h>

/* The simulated CPU this arch has: its model, state and power-on. */
#if defined(CONFIG_X86)
#include "../sim/x86/model.h"
#define sim_model	perfctr_x86_sim_model
#define sim_cpu		perfctr_x86_sim
#define sim_reset	perfctr_x86_sim_reset
#define sim_tick	perfctr_x86_sim_tick
#elif defined(CONFIG_PPC32)
#include "../sim/powerpc/model.h"
#define sim_model	perfctr_ppc_sim_model
#define sim_cpu		perfctr_ppc_sim
#define sim_reset	perfctr_ppc_sim_reset
#define sim_tick	perfctr_ppc_sim_tick
#endif

#define SIM_SERVICE "kunit"

/* The CPU the test runs on, for its exit (sim_repin()). */
static inline int *sim_pin_cpu(void)
{
	static int cpu;

	return &cpu;
}

/* The simulated CPU and the driver's caches are per CPU: stay on one. */
static inline int sim_pin(struct kunit *test)
{
	*sim_pin_cpu() = raw_smp_processor_id();
	return set_cpus_allowed_ptr(current, cpumask_of(*sim_pin_cpu()));
}

/*
 * First in an exit that looks at the simulation: newer kernels (6.12)
 * run a test's exit in a thread of its own, which may start elsewhere.
 */
static inline void sim_repin(struct kunit *test)
{
	set_cpus_allowed_ptr(current, cpumask_of(*sim_pin_cpu()));
}

static inline void sim_unpin(struct kunit *test)
{
	set_cpus_allowed_ptr(current, cpu_possible_mask);
}

/* The driver up and reserved on the simulated CPU as it is set up now. */
static inline int sim_bring_up(struct kunit *test)
{
	int err;

	/* Let the self-test see time pass; tests tick explicitly after. */
	sim_cpu.autotick = 1;
	err = perfctr_cpu_init();
	sim_cpu.autotick = 0;
	if (err)
		return err;
	/* Reserving clears the registers and this CPU's cache. */
	return perfctr_cpu_reserve(SIM_SERVICE) ? -EBUSY : 0;
}

/* Power on @m, load the driver and reserve the counters. */
static inline int sim_start(struct kunit *test, const struct sim_model *m)
{
	sim_pin(test);
	sim_reset(m);
	return sim_bring_up(test);
}

static inline void sim_stop(struct kunit *test)
{
	sim_repin(test);
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

/* Power on @m and load the driver; a new state for it. */
static inline struct perfctr_cpu_state *sim_start_state(struct kunit *test,
							const struct sim_model *m)
{
	struct perfctr_cpu_state *state = sim_state(test);

	KUNIT_ASSERT_EQ(test, sim_start(test, m), 0);
	return state;
}

static inline void sim_resume(struct perfctr_cpu_state *state)
{
	preempt_disable();
	perfctr_cpu_resume(state);
	preempt_enable();
}

/* The overflowed i-mode counters, as perfctr_cpu_suspend() returns them. */
static inline unsigned int sim_suspend(struct perfctr_cpu_state *state)
{
	unsigned int ovf;

	preempt_disable();
	ovf = perfctr_cpu_suspend(state);
	preempt_enable();
	return ovf;
}

static inline void sim_sample(struct perfctr_cpu_state *state)
{
	preempt_disable();
	perfctr_cpu_sample(state);
	preempt_enable();
}

/*
 * @n events while @state runs, in steps of 2^31 with a sample after each,
 * as the 50 ms sampling timer bounds a 32-bit delta on real hardware.
 */
static inline void sim_tick_sampled(struct perfctr_cpu_state *state, u64 n)
{
	while (n) {
		u64 step = min_t(u64, n, 1ULL << 31);

		sim_tick(step);
		sim_sample(state);
		n -= step;
	}
}

/*
 * One time slice of @state: resumed, @n events happen, suspended. Returns
 * what the suspend did.
 */
static inline unsigned int sim_run(struct perfctr_cpu_state *state,
				   unsigned int n)
{
	sim_resume(state);
	sim_tick(n);
	return sim_suspend(state);
}

/*
 * Load the control already in @state and expect @expect: a refused
 * control leaves the state exactly as it was, an accepted one gets a
 * new id.
 */
static inline void sim_expect_update(struct kunit *test,
				     struct perfctr_cpu_state *state,
				     bool is_global, int expect)
{
	struct perfctr_cpu_state *before = sim_state(test);
	int err;

	state->id = 12345;
	*before = *state;
	err = perfctr_cpu_update_control(state, is_global);
	KUNIT_EXPECT_EQ(test, err, expect);
	if (err)
		KUNIT_EXPECT_EQ(test, memcmp(before, state, sizeof(*state)), 0);
	else
		KUNIT_EXPECT_NE(test, state->id, 12345ULL);
}

/* The name of a model, for parameterised cases over models. */
static inline void sim_model_desc(const struct sim_model *const *m, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", (*m)->name);
}

/* type##_desc(): a parameterised case of struct @type is named by its .name. */
#define SIM_CASE_DESC(type)						\
static void type##_desc(const struct type *c, char *desc)		\
{									\
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);		\
}

/*
 * The suite of the NULL-ended @cases; the initialisers after them give
 * its .name, .init and .exit. The .name starts a line: check.sh reads it.
 */
#define SUITEOF(cases, ...)						\
	static struct kunit_suite cases##_suite = {			\
		.test_cases = cases,					\
		__VA_ARGS__						\
	};								\
	kunit_test_suite(cases##_suite)

#endif /* _PERFCTR_SIM_TEST_H */
