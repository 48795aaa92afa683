// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: what one thread's counters may learn of others, and what others
 * may learn of them (Documentation/perfctr/x86.rst, "Isolation"): the
 * counters stop at suspend, user reads of a stopped set, the NMI window
 * of disarm, counters zeroed at release, 64-bit control ids, the rdpmc
 * parameter and HT P4 hotplug.
 */
#include <asm/nmi.h>
#include <asm/ptrace.h>

#include "arch_test.h"
#include "../../../arch/x86/perfctr/x86.h"

static const struct perfctr_x86_sim_model *const sec_models[] = {
	&sim_p5, &sim_p5mmx, &sim_mii, &sim_winchip, &sim_p6, &sim_arch_v1,
	&sim_arch_v2, &sim_k7, &sim_k8, &sim_fam10, &sim_fam15, &sim_c3,
	&sim_p4,
	&sim_zen3, &sim_zen4, &sim_hygon,
	&sim_skylake, &sim_sapphire_rapids,
};

KUNIT_ARRAY_PARAM(sec, sec_models, sim_model_desc);

static int sec_init(struct kunit *test)
{
	const struct perfctr_x86_sim_model *const *m = test->param_value;

	pc_rdpmc = 1;
	return sim_start(test, m ? *m : &sim_k7);
}

static void sec_exit(struct kunit *test)
{
	sim_repin(test);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
	perfctr_x86_sim.nmi_window = NULL;
	cpumask_clear(&perfctr_cpus_forbidden_mask);
	pc_rdpmc = 1;
	sim_stop(test);
}

static void user_read(const struct perfctr_cpu_state *state, bool on)
{
	unsigned long flags;

	local_irq_save(flags);
	perfctr_cpu_user_read(state, on);
	local_irq_restore(flags);
}

/*
 * F5: what runs while the owner is switched out is not counted: the
 * counters stand still, or, where nothing stops them, resume zeroes
 * them. Either way the page's start values show no foreign count.
 */
static void sec_amode_stopped_at_suspend(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	unsigned int i, n = nr_pmcs(m);
	struct perfctr_cpu_state *a = amode_state(test, n, 0x16);
	u32 left = can_stop(m) ? 1000 : 0;

	sim_run(a, 1000);
	perfctr_x86_sim_tick(500);	/* someone else runs */
	for (i = 0; i < n && can_stop(m); i++)
		KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(a->pmc[i].map & 0x1F),
				1000ULL);
	sim_resume(a);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, a->pmc[i].start, left);
	perfctr_x86_sim_tick(250);
	sim_suspend(a);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, a->pmc[i].sum, 1250ULL);
}

/*
 * F7: a stopped set (cstatus 0, never resumed here since) whose owner
 * switches in: RDPMC is allowed, and reads its counters or zero, not the
 * counts another set left in the same registers. That set still counts
 * right afterwards.
 */
static void sec_user_read_stopped_set(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	bool rdpmc = perfctr_info.features & PERFCTR_FEATURE_RDPMC;
	unsigned int i, n = nr_pmcs(m);
	struct perfctr_cpu_state *a, *b;

	if (!rdpmc)
		kunit_skip(test, "no RDPMC: user space never reads the counters");
	a = amode_state(test, n, 0x16);
	b = amode_state(test, n, 0x17);
	a->cstatus = 0;			/* stopped by the high-level driver */
	sim_run(b, 300);
	user_read(a, true);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.user_rdpmc, rdpmc);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(a->pmc[i].map & 0x1F),
				0ULL);
	user_read(a, false);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.user_rdpmc);
	sim_run(b, 10);
	for (i = 0; i < n; i++)
		KUNIT_EXPECT_EQ(test, b->pmc[i].sum, 310ULL);
}

/* F7: the owner's own counts stay where it reads them. */
static void sec_user_read_own_counts(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_state *a = amode_state(test, 1, 0x16);
	unsigned int w;

	sim_run(a, 100);
	a->cstatus = 0;
	w = perfctr_x86_sim.nr_wrmsr;
	user_read(a, true);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, w);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(nth_pmc(m, 0)), 100ULL);
	user_read(a, false);
}

/* F7: an i-mode set whose registers a reader's claim zeroed gets its preset back. */
static void sec_user_read_imode_restored(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_state *b = imode_state(test, -100);
	struct perfctr_cpu_state *a = amode_state(test, nr_pmcs(m), 0x16);

	a->cstatus = 0;
	sim_run(b, 10);
	user_read(a, true);
	user_read(a, false);
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), preset(-90));
	perfctr_x86_sim_tick(10);
	sim_suspend(b);
	KUNIT_EXPECT_EQ(test, b->pmc[1].sum, 20ULL);
	KUNIT_EXPECT_EQ(test, b->pmc[0].sum, 20ULL);
}

/* F7: an HT P4's thread 1 may not read its sibling's registers. */
static void sec_user_read_forbidden_cpu(struct kunit *test)
{
	struct perfctr_cpu_state *a = amode_state(test, 1, 0x16);
	unsigned int w;

	cpumask_set_cpu(raw_smp_processor_id(), &perfctr_cpus_forbidden_mask);
	w = perfctr_x86_sim.nr_wrmsr;
	user_read(a, true);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.user_rdpmc);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, w);
	cpumask_clear_cpu(raw_smp_processor_id(), &perfctr_cpus_forbidden_mask);
	user_read(a, true);
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.user_rdpmc);
	user_read(a, false);
}

/* F13: rdpmc takes 0, 1 and 2, and nothing else. */
static void sec_rdpmc_param_values(struct kunit *test)
{
	static const char *const bad[] = { "3", "-1", "x", "" };
	struct kernel_param kp = { .arg = &pc_rdpmc };
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_EXPECT_EQ(test, pc_rdpmc_ops.set(bad[i], &kp), -EINVAL);
		KUNIT_EXPECT_EQ(test, pc_rdpmc, 1);
	}
	for (i = 0; i <= 2; i++) {
		char val[2] = { '0' + i };

		KUNIT_EXPECT_EQ(test, pc_rdpmc_ops.set(val, &kp), 0);
		KUNIT_EXPECT_EQ(test, pc_rdpmc, (int)i);
	}
}

/* F13: 0 never lets user space RDPMC, and info does not offer it. */
static void sec_rdpmc_never(struct kunit *test)
{
	struct perfctr_cpu_state *a = amode_state(test, 1, 0x16);

	KUNIT_EXPECT_TRUE(test, perfctr_cpu_features() & PERFCTR_FEATURE_RDPMC);
	pc_rdpmc = 0;
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_features() & PERFCTR_FEATURE_RDPMC);
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_features() & PERFCTR_FEATURE_RDTSC);
	user_read(a, true);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.user_rdpmc);
}

/* F13: 2 never takes RDPMC away: other threads of the mm may use it. */
static void sec_rdpmc_always(struct kunit *test)
{
	struct perfctr_cpu_state *a = amode_state(test, 1, 0x16);

	pc_rdpmc = 2;
	user_read(a, true);
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.user_rdpmc);
	user_read(a, false);
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.user_rdpmc);
	pc_rdpmc = 1;
	user_read(a, false);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.user_rdpmc);
}

/* F10: an NMI between disarm's stores, with an overflow latched. */
static int window_ret;

static void nmi_in_window(void)
{
	struct pt_regs regs = { .ip = 0x1234 };

	window_ret = pc_nmi_handler(NMI_LOCAL, &regs);
}

static void sec_disarm_window(struct kunit *test, unsigned int ticks, int want)
{
	struct perfctr_cpu_state *s = imode_state(test, -100);

	sim_resume(s);
	perfctr_x86_sim_tick(ticks);
	window_ret = -1;
	perfctr_x86_sim.nmi_window = nmi_in_window;
	sim_suspend(s);
	perfctr_x86_sim.nmi_window = NULL;
	KUNIT_EXPECT_EQ(test, window_ret, want);
}

static void sec_disarm_window_claims_overflow(struct kunit *test)
{
	sec_disarm_window(test, 150, NMI_HANDLED);
}

static void sec_disarm_window_not_ours(struct kunit *test)
{
	sec_disarm_window(test, 50, NMI_DONE);
}

/* F11: release leaves no count behind, fixed counters included. */
static void sec_release_zeroes_counters(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m = perfctr_x86_sim.m;
	struct perfctr_cpu_state *a = amode_state(test, nr_pmcs(m), 0x16);
	unsigned int i;

	sim_run(a, 1000);
	for (i = 0; i < SIM_MAX_CTRS; i++)
		perfctr_x86_sim.ctr[i] = m->pmc_mask & BIT(i) ? 77 : 0;
	for (i = 0; i < m->nr_fixed; i++)
		perfctr_x86_sim.fixed[i] = 77;
	perfctr_cpu_release(SIM_SERVICE);
	for (i = 0; i < SIM_MAX_CTRS; i++)
		KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ctr[i], 0ULL);
	for (i = 0; i < m->nr_fixed; i++)
		KUNIT_EXPECT_EQ(test, perfctr_x86_sim.fixed[i], 0ULL);
}

/*
 * F12: two controls whose ids agree in the low 32 bits are two
 * controls: the second is loaded and the first one's counts scrubbed.
 * (The ids are set by hand: validation makes them unpredictable.)
 */
static void sec_control_id_64bit(struct kunit *test)
{
	struct perfctr_cpu_state *a, *b;

	a = amode_state(test, 1, 0x16);
	b = amode_state(test, 1, 0x17);
	a->id = BIT_ULL(32) + 4;
	b->id = 4;
	sim_run(a, 1000);
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.sel[0] & 0xFF, 0x17ULL);
	KUNIT_EXPECT_EQ(test, b->pmc[0].start, 0U);
	perfctr_x86_sim_tick(10);
	sim_suspend(b);
	KUNIT_EXPECT_EQ(test, b->pmc[0].sum, 10ULL);
}

/*
 * S7: every state page shows its control's id, so the id must tell its
 * reader nothing about anyone else's activity. Validating the same
 * control again gives a new id (it still names a new control for the
 * register caches), never 0; and ids in a row are not consecutive, nor
 * a constant step apart, as a counter's would be. Random ids fail this
 * with a chance below 2^-60.
 */
static void sec_control_id_reveals_nothing(struct kunit *test)
{
	struct perfctr_cpu_state *state = amode_state(test, 1, 0x16);
	u64 id[4];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(id); i++) {
		KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
		id[i] = state->id;
		KUNIT_EXPECT_NE(test, id[i], 0ULL);
		KUNIT_EXPECT_EQ(test, state->k1.id, 0U);
	}
	for (i = 1; i < ARRAY_SIZE(id); i++) {
		KUNIT_EXPECT_NE(test, id[i], id[i - 1]);
		KUNIT_EXPECT_NE(test, id[i] - id[i - 1], 1ULL);
	}
	for (i = 2; i < ARRAY_SIZE(id); i++)
		KUNIT_EXPECT_NE(test, id[i] - id[i - 1], id[i - 1] - id[i - 2]);
}

/*
 * F17: an HT P4's thread 1 (this CPU, marked forbidden, sharing this
 * simulated register file) goes down and up while thread 0 counts: the
 * shared CCCRs and ESCRs stay as they are, and the count goes on. A
 * thread 0 going down does clear them.
 */
static void sec_p4_ht_hotplug(struct kunit *test)
{
	struct perfctr_cpu_state *a = amode_state(test, 1, 0x16);
	unsigned int cpu = raw_smp_processor_id();
	u64 cccr;

	sim_resume(a);
	perfctr_x86_sim_tick(100);
	cccr = perfctr_x86_sim.sel[0];
	KUNIT_ASSERT_NE(test, cccr, 0ULL);
	cpumask_set_cpu(cpu, &perfctr_cpus_forbidden_mask);
	perfctr_cpu_offline(cpu);
	perfctr_x86_sim_tick(100);
	perfctr_cpu_online(cpu);
	perfctr_x86_sim_tick(100);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.sel[0], cccr);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.escr[0x3B2 - SIM_P4_ESCR0],
			(u64)P4_ESCR);
	sim_sample(a);
	KUNIT_EXPECT_EQ(test, a->pmc[0].sum, 300ULL);
	cpumask_clear_cpu(cpu, &perfctr_cpus_forbidden_mask);
	perfctr_cpu_offline(cpu);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.sel[0], 0ULL);
	perfctr_cpu_online(cpu);
}

static struct kunit_case sec_model_cases[] = {
	KUNIT_CASE_PARAM(sec_amode_stopped_at_suspend, sec_gen_params),
	KUNIT_CASE_PARAM(sec_user_read_stopped_set, sec_gen_params),
	KUNIT_CASE_PARAM(sec_user_read_own_counts, sec_gen_params),
	KUNIT_CASE_PARAM(sec_release_zeroes_counters, sec_gen_params),
	{}
};

SUITEOF(sec_model_cases,
	.name = "perfctr_x86_security", .init = sec_init, .exit = sec_exit);

/* On the K7: i-mode, RDPMC and per-counter enables. */
static struct kunit_case sec_k7_cases[] = {
	KUNIT_CASE(sec_user_read_imode_restored),
	KUNIT_CASE(sec_user_read_forbidden_cpu),
	KUNIT_CASE(sec_rdpmc_param_values),
	KUNIT_CASE(sec_rdpmc_never),
	KUNIT_CASE(sec_rdpmc_always),
	KUNIT_CASE(sec_disarm_window_claims_overflow),
	KUNIT_CASE(sec_disarm_window_not_ours),
	KUNIT_CASE(sec_control_id_64bit),
	KUNIT_CASE(sec_control_id_reveals_nothing),
	{}
};

SUITEOF(sec_k7_cases,
	.name = "perfctr_x86_security_k7", .init = sec_init, .exit = sec_exit);

static int sec_p4_init(struct kunit *test)
{
	return sim_start(test, &sim_p4_ht);
}

static struct kunit_case sec_p4_cases[] = {
	KUNIT_CASE(sec_p4_ht_hotplug),
	{}
};

SUITEOF(sec_p4_cases,
	.name = "perfctr_x86_security_p4ht", .init = sec_p4_init, .exit = sec_exit);

