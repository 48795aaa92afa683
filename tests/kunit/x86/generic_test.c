// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the generic x86 driver (TSC only) against the simulated register
 * file: detection, control validation, accumulate-differences arithmetic
 * including 32-bit wraparound, reservation, and the i-mode entry points.
 */
#include "arch_test.h"

static int generic_init(struct kunit *test)
{
	return sim_start(test, &sim_generic);
}

static void generic_exit(struct kunit *test)
{
	sim_stop(test);
}

#define new_state sim_state

/* A state running a valid TSC-only control. */
static struct perfctr_cpu_state *tsc_state(struct kunit *test)
{
	struct perfctr_cpu_state *state = new_state(test);

	state->control.tsc_on = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	return state;
}

static void generic_detected(struct kunit *test)
{
	KUNIT_EXPECT_STREQ(test, perfctr_cpu_name(), "Generic x86 with TSC");
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_info.features, PERFCTR_FEATURE_RDTSC);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&perfctr_cpus_forbidden_mask));
}

static void generic_needs_tsc(struct kunit *test)
{
	perfctr_x86_sim_reset(&sim_no_tsc);
	KUNIT_EXPECT_EQ(test, perfctr_cpu_init(), -ENODEV);
	perfctr_x86_sim_reset(&sim_generic);
	KUNIT_EXPECT_EQ(test, perfctr_cpu_init(), 0);
}

struct control_case {
	const char *name;
	void (*setup)(struct perfctr_cpu_control *c);
	int expect;
};

static void ctl_tsc(struct perfctr_cpu_control *c)
{
	c->tsc_on = 1;
}

static void ctl_nothing(struct perfctr_cpu_control *c)
{
}

static void ctl_tsc2(struct perfctr_cpu_control *c)
{
	c->tsc_on = 2;
}

static void ctl_one_actr(struct perfctr_cpu_control *c)
{
	c->tsc_on = 1;
	c->nractrs = 1;
}

static void ctl_actr_no_tsc(struct perfctr_cpu_control *c)
{
	c->nractrs = 1;
}

static void ctl_one_ictr(struct perfctr_cpu_control *c)
{
	c->tsc_on = 1;
	c->nrictrs = 1;
	c->ireset[0] = -1;
}

static void ctl_too_many(struct perfctr_cpu_control *c)
{
	c->tsc_on = 1;
	c->nractrs = PERFCTR_NR_PMCS + 1;
}

static void ctl_huge(struct perfctr_cpu_control *c)
{
	c->tsc_on = 1;
	c->nractrs = 0x80000000U;
	c->nrictrs = 0x80000000U;
}

static void ctl_reserved0(struct perfctr_cpu_control *c)
{
	c->tsc_on = 1;
	c->_reserved[0] = 1;
}

static void ctl_reserved3(struct perfctr_cpu_control *c)
{
	c->tsc_on = 1;
	c->_reserved[3] = 0x80000000U;
}

/* Per-counter fields beyond nractrs+nrictrs are not looked at. */
static void ctl_unused_fields(struct perfctr_cpu_control *c)
{
	c->tsc_on = 1;
	c->evntsel[0] = 0xffffffff;
	c->pmc_map[0] = 3;
	c->ireset[0] = 5;
}

static const struct control_case control_cases[] = {
	{ "tsc-only", ctl_tsc, 0 },
	{ "unused-fields-ignored", ctl_unused_fields, 0 },
	{ "nothing", ctl_nothing, 0 },
	{ "tsc_on-2", ctl_tsc2, -EINVAL },
	{ "a-mode-counter", ctl_one_actr, -EINVAL },
	{ "a-mode-without-tsc", ctl_actr_no_tsc, -EINVAL },
	{ "i-mode-counter", ctl_one_ictr, -EINVAL },
	{ "too-many-counters", ctl_too_many, -EINVAL },
	{ "counter-count-overflow", ctl_huge, -EINVAL },
	{ "reserved-0", ctl_reserved0, -EINVAL },
	{ "reserved-3", ctl_reserved3, -EINVAL },
};

SIM_CASE_DESC(control_case)
KUNIT_ARRAY_PARAM(control, control_cases, control_case_desc);

static void generic_update_control(struct kunit *test)
{
	const struct control_case *c = test->param_value;
	struct perfctr_cpu_state *state = tsc_state(test);
	struct perfctr_cpu_state before;
	int err;

	memset(&state->control, 0, sizeof(state->control));
	c->setup(&state->control);
	before = *state;
	err = perfctr_cpu_update_control(state, false);
	KUNIT_EXPECT_EQ(test, err, c->expect);
	if (err) {
		/* Rejected: nothing derived from the control changed. */
		KUNIT_EXPECT_EQ(test, memcmp(&before, state, sizeof(before)), 0);
	} else {
		KUNIT_EXPECT_EQ(test, state->cstatus,
				perfctr_mk_cstatus(state->control.tsc_on, 0, 0));
		KUNIT_EXPECT_NE(test, state->id, 0ULL);
		KUNIT_EXPECT_NE(test, state->id, before.id);
		/* User space sees no control id (F12). */
		KUNIT_EXPECT_EQ(test, state->k1.id, 0U);
	}
	/* Validation never touches the hardware. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_rdtsc, 0U);
}

/* is_global makes no difference to the generic driver. */
static void generic_update_control_global(struct kunit *test)
{
	struct perfctr_cpu_state *state = new_state(test);

	state->control.tsc_on = 1;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_update_control(state, true), 0);
	state->control.nractrs = 1;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_update_control(state, true), -EINVAL);
}

static void generic_accumulates(struct kunit *test)
{
	struct perfctr_cpu_state *state = tsc_state(test);

	perfctr_x86_sim.tsc = 1000;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, state->tsc_start, 1000U);
	perfctr_x86_sim.tsc = 1500;
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 500ULL);

	/* Time while suspended does not count. */
	perfctr_x86_sim.tsc = 9000;
	sim_resume(state);
	perfctr_x86_sim.tsc = 9600;
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 1100ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_rdpmc, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, 0U);
}

struct wrap_case {
	const char *name;
	u64 start, end, delta;
};

static const struct wrap_case wrap_cases[] = {
	{ "no-wrap", 0x10, 0x20, 0x10 },
	{ "wrap-32", 0xffffff00ULL, 0x100000100ULL, 0x200 },
	{ "high-bits-ignored", 0x7ffffffff0ULL, 0x8000000010ULL, 0x20 },
	{ "just-under-2^32", 0x1, 0x100000000ULL, 0xffffffffULL },
	{ "exactly-2^32-is-zero", 0x5, 0x100000005ULL, 0 },
};

SIM_CASE_DESC(wrap_case)
KUNIT_ARRAY_PARAM(wrap, wrap_cases, wrap_case_desc);

static void generic_wraparound(struct kunit *test)
{
	const struct wrap_case *c = test->param_value;
	struct perfctr_cpu_state *state = tsc_state(test);

	state->tsc_sum = 7;
	perfctr_x86_sim.tsc = c->start;
	sim_resume(state);
	perfctr_x86_sim.tsc = c->end;
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 7 + c->delta);
	KUNIT_EXPECT_EQ(test, state->tsc_start, (u32)c->end);
}

static void generic_sample(struct kunit *test)
{
	struct perfctr_cpu_state *state = tsc_state(test);

	perfctr_x86_sim.tsc = 100;
	sim_resume(state);
	perfctr_x86_sim.tsc = 0xfffffff0ULL;
	sim_sample(state);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 0xfffffff0ULL - 100);
	KUNIT_EXPECT_EQ(test, state->tsc_start, 0xfffffff0U);
	/* Sampling leaves the state running: the next period continues. */
	perfctr_x86_sim.tsc = 0x100000010ULL;
	sim_sample(state);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 0x100000010ULL - 100);
}

/* Many short periods add up exactly, whatever the wraps in between. */
static void generic_many_periods(struct kunit *test)
{
	struct perfctr_cpu_state *state = tsc_state(test);
	unsigned int i;

	perfctr_x86_sim.tsc = 0xfffff000ULL;
	perfctr_x86_sim.tsc_step = 0x333;
	sim_resume(state);
	for (i = 0; i < 1000; i++)
		sim_sample(state);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 1001ULL * 0x333);
}

static void generic_disabled_state_untouched(struct kunit *test)
{
	struct perfctr_cpu_state *state = new_state(test);

	state->tsc_sum = 42;
	perfctr_x86_sim.tsc = 1000;
	sim_resume(state);
	perfctr_x86_sim.tsc = 5000;
	sim_suspend(state);
	sim_sample(state);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 42ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_rdtsc, 0U);
}

/* No i-mode counters: suspend reports no overflow and leaves k1 alone. */
static void generic_no_overflow(struct kunit *test)
{
	struct perfctr_cpu_state *state = tsc_state(test);

	sim_resume(state);
	state->k1.isuspend_cpu = 1;
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 0U);
	KUNIT_EXPECT_EQ(test, state->k1.isuspend_cpu, 1);
	perfctr_cpu_ireload(state);
	KUNIT_EXPECT_EQ(test, state->k1.isuspend_cpu, -1);
}

static const char *const svc_a = "service A";
static const char *const svc_b = "service B";

static void generic_reserve(struct kunit *test)
{
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserved_by());
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserve(svc_a));
	KUNIT_EXPECT_PTR_EQ(test, perfctr_cpu_reserved_by(), svc_a);
	/* Busy: the refusal names the holder. */
	KUNIT_EXPECT_PTR_EQ(test, perfctr_cpu_reserve(svc_b), svc_a);
	/* Only the holder can release. */
	perfctr_cpu_release(svc_b);
	KUNIT_EXPECT_PTR_EQ(test, perfctr_cpu_reserved_by(), svc_a);
	perfctr_cpu_release(svc_a);
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserved_by());
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserve(svc_b));
	perfctr_cpu_release(svc_b);
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
}

static struct kunit_case generic_test_cases[] = {
	KUNIT_CASE(generic_detected),
	KUNIT_CASE(generic_needs_tsc),
	KUNIT_CASE_PARAM(generic_update_control, control_gen_params),
	KUNIT_CASE(generic_update_control_global),
	KUNIT_CASE(generic_accumulates),
	KUNIT_CASE_PARAM(generic_wraparound, wrap_gen_params),
	KUNIT_CASE(generic_sample),
	KUNIT_CASE(generic_many_periods),
	KUNIT_CASE(generic_disabled_state_untouched),
	KUNIT_CASE(generic_no_overflow),
	KUNIT_CASE(generic_reserve),
	{}
};

SUITEOF(generic_test_cases,
	.name = "perfctr_x86_generic", .init = generic_init, .exit = generic_exit);
