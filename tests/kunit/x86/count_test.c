// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: x86 counting on every simulated family: accumulate-differences
 * with wraparound, control-register caching (counted MSR writes),
 * i-mode presets, overflow identification and reload, the suspend-CPU
 * shortcut, and the hardware reservation.
 */
#include "arch_test.h"

static const struct perfctr_x86_sim_model *const counting_models[] = {
	&sim_p5, &sim_p5mmx, &sim_mii, &sim_winchip, &sim_p6, &sim_arch_v1,
	&sim_arch_v2, &sim_k7, &sim_k8, &sim_fam10, &sim_fam15, &sim_c3,
	&sim_p4,
	&sim_zen3, &sim_zen4, &sim_hygon,
	&sim_skylake, &sim_sapphire_rapids,
};

static const struct perfctr_x86_sim_model *const imode_models[] = {
	&sim_p6, &sim_arch_v1, &sim_arch_v2, &sim_k7, &sim_k8, &sim_fam10,
	&sim_fam15, &sim_p4,
	&sim_zen3, &sim_zen4, &sim_hygon,
	&sim_skylake, &sim_sapphire_rapids,
};

KUNIT_ARRAY_PARAM(counting, counting_models, sim_model_desc);
KUNIT_ARRAY_PARAM(imode, imode_models, sim_model_desc);

static int count_init(struct kunit *test)
{
	const struct perfctr_x86_sim_model *const *m = test->param_value;

	return sim_start(test, *m);
}

static void count_exit(struct kunit *test)
{
	sim_repin(test);
	/* No driver path may touch a register the model lacks. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
	sim_stop(test);
}

static void count_all_amode(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	unsigned int i, n = nr_pmcs(m);
	struct perfctr_cpu_state *state = amode_state(test, n, 0x16);

	sim_run(state, 1000);
	/* Events while suspended belong to someone else. */
	perfctr_x86_sim_tick(500);
	sim_run(state, 250);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, state->pmc[i].sum, 1250ULL);
}

static void count_wraparound(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_state *state = amode_state(test, 1, 0x16);
	u32 pmc = nth_pmc(m, 0);

	/* The first resume zeroes the counter: it had no owner. */
	sim_resume(state);
	sim_suspend(state);
	/* Low 32 bits about to wrap, high bits of the wide counter set. */
	perfctr_x86_sim.ctr[pmc] = 0xAFFFFFFFF0ULL;
	sim_resume(state);
	perfctr_x86_sim_tick(0x20);
	sim_sample(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0x20ULL);
	perfctr_x86_sim_tick(0x7);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0x27ULL);
}

/* A TSC-only state (a thread's, beside global mode) leaves the PMCs be. */
static void count_tsc_only_leaves_counters(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_state *a, *t;
	unsigned int w;

	if (m->kind == SIM_WINCHIP)
		kunit_skip(test, "no usable TSC");
	a = amode_state(test, 1, 0x16);
	t = amode_state(test, 0, 0);
	sim_resume(a);
	w = perfctr_x86_sim.nr_wrmsr;
	preempt_disable();
	perfctr_cpu_resume(t);
	perfctr_x86_sim_tick(100);
	perfctr_cpu_suspend(t);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, w);
	perfctr_x86_sim_tick(100);
	sim_suspend(a);
	/* a's counter ran on through t's turn. */
	KUNIT_EXPECT_EQ(test, a->pmc[0].sum, 200ULL);
	KUNIT_EXPECT_EQ(test, t->pmc[0].sum, 0ULL);
}

/*
 * A new owner finds the counters as the last one left them, where RDPMC
 * and its state page's start values would show them: resume zeroes every
 * counter either control uses, shared or not. The owner itself resuming
 * finds its own counts and writes nothing. The specification says a-mode
 * counters are only read; these writes are a deliberate deviation, so
 * that no owner sees another's counts (x86.rst, "Deviation from the
 * specification"). This test asserts the deviation on purpose.
 */
static void count_stale_counters_scrubbed(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_state *a, *b;
	u32 first, second;

	if (nr_pmcs(m) < 2)
		kunit_skip(test, "one counter");
	a = amode_state(test, 2, 0x16);
	b = amode_state(test, 1, 0x16);
	first = a->pmc[0].map & 0x1F;
	second = a->pmc[1].map & 0x1F;	/* not a fixed counter */
	KUNIT_ASSERT_EQ(test, b->pmc[0].map & 0x1F, first);
	sim_run(a, 1234);
	KUNIT_ASSERT_NE(test, perfctr_x86_sim_counter(first), 0ULL);
	KUNIT_ASSERT_NE(test, perfctr_x86_sim_counter(second), 0ULL);
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(second), 0ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(first), 0ULL);
	KUNIT_EXPECT_EQ(test, b->pmc[0].start, 0U);
	perfctr_x86_sim_tick(10);
	sim_suspend(b);
	KUNIT_EXPECT_EQ(test, b->pmc[0].sum, 10ULL);
}

/*
 * Nobody in between: the owner finds its counts where it left them;
 * counters that cannot stop are zeroed, as anyone may have run since.
 */
static void count_owner_keeps_counts(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_state *a = amode_state(test, 1, 0x16);
	u32 first = nth_pmc(m, 0), left = can_stop(m) ? 1234 : 0;

	sim_run(a, 1234);
	sim_resume(a);
	KUNIT_EXPECT_EQ(test, a->pmc[0].start, left);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(first), (u64)left);
	sim_suspend(a);
}

/* User-space RDPMC is on only while a state with counters is resumed. */
static void count_user_rdpmc_gate(struct kunit *test)
{
	struct perfctr_cpu_state *a = amode_state(test, 1, 0x16);
	struct perfctr_cpu_state *t = amode_state(test, 0, 0);
	bool rdpmc = perfctr_info.features & PERFCTR_FEATURE_RDPMC;
	unsigned long flags;

	local_irq_save(flags);
	perfctr_cpu_user_read(t, true);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.user_rdpmc);
	perfctr_cpu_user_read(a, true);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.user_rdpmc, rdpmc);
	perfctr_cpu_user_read(a, false);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.user_rdpmc);
	local_irq_restore(flags);
}

/*
 * Writes to load a control that differs from the loaded, stopped one in
 * its last select only: that select, and the enables the stop cleared.
 */
static unsigned int load_writes(const struct perfctr_x86_sim_model *m,
				unsigned int n)
{
	if (m->kind == SIM_K7 && m->amd_v2_ctrs)
		return 2;				/* + PerfCntrGlobalCtl */
	switch (m->kind) {
	case SIM_ARCH:					/* v2: + GLOBAL_CTRL */
		return (m->cpuid_a_eax & 0xFF) >= 2 ? 2 : n;
	case SIM_P6:
		return n == 1 ? 1 : 2;			/* + EVNTSEL0.EN */
	case SIM_K7:
	case SIM_P4:
		return n;
	default:
		return 1;				/* the one CESR */
	}
}

/* Resuming the state that ran last writes only the enables. */
static void count_write_caching(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	unsigned int n = nr_pmcs(m), w, load = load_writes(m, n);
	struct perfctr_cpu_state *a = amode_state(test, n, 0x16);
	struct perfctr_cpu_state *b = amode_state(test, n, 0x16);

	/* b differs from a in its last counter only. */
	b->control.evntsel[n - 1] = good_sel(m, b->control.pmc_map[n - 1],
					     false, 0x17);
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(b, false), 0);

	w = perfctr_x86_sim.nr_wrmsr;
	sim_resume(a);
	KUNIT_EXPECT_GT(test, perfctr_x86_sim.nr_wrmsr, w);
	sim_suspend(a);
	w = perfctr_x86_sim.nr_wrmsr;
	sim_resume(a);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, w + start_writes(m, n));
	sim_suspend(a);
	w += start_writes(m, n) + stop_writes(m, n);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, w);
	/*
	 * Switching to b rewrites the control registers that differ, and
	 * zeroes the n counters a left: the deliberate a-mode counter
	 * writes of count_stale_counters_scrubbed, counted here on purpose.
	 */
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, w + load + n);
	sim_suspend(b);
	sim_resume(a);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr,
			w + 2 * (load + n) + stop_writes(m, n));
	sim_suspend(a);
}

static void count_sample_keeps_running(struct kunit *test)
{
	struct perfctr_cpu_state *state = amode_state(test, 1, 0x16);

	perfctr_x86_sim.tsc_step = 10;
	sim_resume(state);
	perfctr_x86_sim_tick(100);
	sim_sample(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 100ULL);
	perfctr_x86_sim_tick(50);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 150ULL);
	if (state->control.tsc_on)
		KUNIT_EXPECT_EQ(test, state->tsc_sum, 20ULL);
}

static void imode_preset_and_count(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);

	KUNIT_EXPECT_EQ(test, state->pmc[1].start, (u32)-100);
	sim_resume(state);
	/* The full-width counter holds the sign-extended preset. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), preset(-100));
	perfctr_x86_sim_tick(60);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ovf_pending, 0U);
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 0U);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 60ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 60ULL);
}

static void imode_stopped_while_suspended(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);

	sim_resume(state);
	sim_suspend(state);
	/* A suspended i-mode counter cannot count or interrupt anyone. */
	perfctr_x86_sim_tick(1000);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), preset(-100));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ovf_pending, 0U);
}

static void imode_overflow_and_reload(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);
	unsigned int w;

	sim_run(state, 60);

	/* Same CPU, nobody in between: the select, and the a-mode enable. */
	w = perfctr_x86_sim.nr_wrmsr;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr,
			w + 1 + start_writes(perfctr_x86_sim.m, 1));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), preset(-40));

	perfctr_x86_sim_tick(60);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ovf_pending, 1U << 1);
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U << 1);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 120ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1].start, (u32)-100);

	/* The overflowed counter is preset again. */
	w = perfctr_x86_sim.nr_wrmsr;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr,
			w + 2 + start_writes(perfctr_x86_sim.m, 1));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), preset(-100));
	perfctr_x86_sim_tick(30);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 150ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 150ULL);
}

static void imode_ireload_forces_write(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);
	unsigned int w;

	sim_resume(state);
	sim_suspend(state);
	perfctr_x86_sim.ctr[1] = 12345;		/* someone scribbled on it */
	perfctr_cpu_ireload(state);
	w = perfctr_x86_sim.nr_wrmsr;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr,
			w + 2 + start_writes(perfctr_x86_sim.m, 1));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), preset(-100));
}

/* Another state used the counter in between: the preset must return. */
static void imode_other_state_between(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_state *a = imode_state(test, -100);
	struct perfctr_cpu_state *b = sim_state(test);

	b->control.tsc_on = 1;
	b->control.nractrs = 2;
	b->control.pmc_map[1] = 1;
	b->control.evntsel[0] = good_sel(m, 0, false, 0x76);
	b->control.evntsel[1] = good_sel(m, 1, false, 0x76);
	if (m->kind == SIM_P4) {
		b->control.p4.escr[0] = P4_ESCR;
		b->control.p4.escr[1] = P4_ESCR;
	}
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(b, false), 0);

	sim_run(a, 10);
	sim_run(b, 5000);
	sim_resume(a);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), preset(-90));
	/* b left counter 1 counting: it was stopped before the preset. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.sel_at_preset, 0ULL);
	perfctr_x86_sim_tick(10);
	sim_suspend(a);
	KUNIT_EXPECT_EQ(test, a->pmc[1].sum, 20ULL);
	KUNIT_EXPECT_EQ(test, b->pmc[1].sum, 5000ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ovf_pending, 0U);
}

static struct kunit_case count_test_cases[] = {
	KUNIT_CASE_PARAM(count_all_amode, counting_gen_params),
	KUNIT_CASE_PARAM(count_wraparound, counting_gen_params),
	KUNIT_CASE_PARAM(count_write_caching, counting_gen_params),
	KUNIT_CASE_PARAM(count_tsc_only_leaves_counters, counting_gen_params),
	KUNIT_CASE_PARAM(count_stale_counters_scrubbed, counting_gen_params),
	KUNIT_CASE_PARAM(count_owner_keeps_counts, counting_gen_params),
	KUNIT_CASE_PARAM(count_user_rdpmc_gate, counting_gen_params),
	KUNIT_CASE_PARAM(count_sample_keeps_running, counting_gen_params),
	KUNIT_CASE_PARAM(imode_preset_and_count, imode_gen_params),
	KUNIT_CASE_PARAM(imode_stopped_while_suspended, imode_gen_params),
	KUNIT_CASE_PARAM(imode_overflow_and_reload, imode_gen_params),
	KUNIT_CASE_PARAM(imode_ireload_forces_write, imode_gen_params),
	KUNIT_CASE_PARAM(imode_other_state_between, imode_gen_params),
	{}
};

SUITEOF(count_test_cases,
	.name = "perfctr_x86_count", .init = count_init, .exit = count_exit);

/* Intel fixed-function counters, next to a general-purpose one. */
#define FX(n)	(PERFCTR_X86_FIXED_PMC | (n))

static int fixed_init(struct kunit *test)
{
	return sim_start(test, &sim_arch_v2);
}

static struct perfctr_cpu_state *fixed_state(struct kunit *test, bool imode)
{
	struct perfctr_cpu_state *state = sim_state(test);
	struct perfctr_cpu_control *c = &state->control;

	perfctr_info.features |= PERFCTR_FEATURE_PCINT;
	c->tsc_on = 1;
	c->nractrs = 3;
	c->pmc_map[0] = 0;
	c->evntsel[0] = EN | CPL | 0x3C;
	c->pmc_map[1] = FX(0);
	c->evntsel[1] = 0x3;
	c->pmc_map[2] = FX(2);
	c->evntsel[2] = 0x2;
	if (imode) {
		c->nrictrs = 1;
		c->pmc_map[3] = FX(1);
		c->evntsel[3] = 0xB;
		c->ireset[3] = -100;
	}
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	return state;
}

static void fixed_counting_and_caching(struct kunit *test)
{
	struct perfctr_cpu_state *state = fixed_state(test, false);
	unsigned int i, w;

	sim_resume(state);		/* a new owner: counters zeroed */
	sim_suspend(state);
	perfctr_x86_sim.fixed[2] = 0xFFFFFFFF00ULL;	/* about to wrap */
	sim_resume(state);
	/* Both fixed fields land in the one shared control register. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.fixed_ctrl, 0x203ULL);
	perfctr_x86_sim_tick(400);
	sim_sample(state);
	perfctr_x86_sim_tick(600);
	sim_suspend(state);
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, state->pmc[i].sum, 1000ULL);
	/* One GLOBAL_CTRL write starts them all again. */
	w = perfctr_x86_sim.nr_wrmsr;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, w + 1);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
}

static void fixed_imode_overflow(struct kunit *test)
{
	struct perfctr_cpu_state *state = fixed_state(test, true);

	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(FX(1)),
			(u64)-100 & ((1ULL << 48) - 1));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.fixed_ctrl, 0x2B3ULL);
	perfctr_x86_sim_tick(150);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ovf_pending, BIT(24 + 1));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_status, BIT_ULL(32 + 1));
	KUNIT_EXPECT_EQ(test, sim_suspend(state), BIT(3));
	/* Suspend cleared only the i-mode counter's field. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.fixed_ctrl, 0x203ULL);
	/* Acknowledged in GLOBAL_STATUS, as version 2 requires. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_status, 0ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[3].sum, 150ULL);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(FX(1)),
			(u64)-100 & ((1ULL << 48) - 1));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.fixed_ctrl, 0x2B3ULL);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
}

/*
 * The global control enables every counter, the fixed ones too, while a
 * state runs, and none after reserve or suspend.
 */
static void fixed_global_enable(struct kunit *test)
{
	struct perfctr_cpu_state *state = fixed_state(test, false);

	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl, 0ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.fixed_ctrl, 0ULL);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl, 0x70000000FULL);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl, 0ULL);
}

static struct kunit_case fixed_test_cases[] = {
	KUNIT_CASE(fixed_counting_and_caching),
	KUNIT_CASE(fixed_imode_overflow),
	KUNIT_CASE(fixed_global_enable),
	{}
};

SUITEOF(fixed_test_cases,
	.name = "perfctr_x86_fixed", .init = fixed_init, .exit = count_exit);
