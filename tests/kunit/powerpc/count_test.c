// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the ppc32 driver counting on simulated CPUs: accumulation and
 * wraparound, what is (and is not) rewritten at resume, i-mode presets,
 * overflow identification and reload, counters hidden from user space
 * at suspend, stale counters zeroed, and MMCR0 rewritten by the hardware
 * itself (FCECE, TRIGGER).
 */
#include "arch_test.h"
#include "../../../arch/powerpc/perfctr/ppc.h"

/* tsc_on, then @n a-mode counters: PMC(map[i]+1) counting event 1. */
static struct perfctr_cpu_state *amode_state(struct kunit *test,
					     unsigned int n, const u32 *map)
{
	struct perfctr_cpu_state *state = sim_state(test);
	unsigned int i;

	state->control.tsc_on = 1;
	state->control.nractrs = n;
	for (i = 0; i < n; i++) {
		state->control.pmc_map[i] = map[i];
		state->control.evntsel[i] = 1;
	}
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	return state;
}

/* Power on @m, load the driver, and an amode_state() for it. */
static struct perfctr_cpu_state *start_amode(struct kunit *test,
					     const struct sim_model *m,
					     unsigned int n, const u32 *map)
{
	KUNIT_ASSERT_EQ(test, sim_start(test, m), 0);
	return amode_state(test, n, map);
}

/* One a-mode PMC1 and one i-mode counter on PMC(@pmc+1) preset to @ireset. */
static struct perfctr_cpu_state *imode_state(struct kunit *test, u32 pmc,
					     s32 ireset, u32 extra)
{
	struct perfctr_cpu_state *state = sim_state(test);
	const struct sim_ctr ctrs[] = { { 0, 1 }, { pmc, 2, ireset } };

	sim_fill_control(&state->control, 1, 1, 1, PMXE | PMCNCE | extra,
			 ctrs, ARRAY_SIZE(ctrs));
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	return state;
}

/* Power on @m, load the driver, and an imode_state() for it. */
static struct perfctr_cpu_state *start_imode(struct kunit *test,
					     const struct sim_model *m,
					     u32 pmc, s32 ireset, u32 extra)
{
	KUNIT_ASSERT_EQ(test, sim_start(test, m), 0);
	return imode_state(test, pmc, ireset, extra);
}

/* @n events happen, by when the timebase reads @tb. */
static void advance(u32 n, u32 tb)
{
	perfctr_ppc_sim_tick(n);
	perfctr_ppc_sim.tb = tb;
}

static void ppc_count_accumulates(struct kunit *test)
{
	static const u32 map[] = { 0, 2 };
	struct perfctr_cpu_state *state;

	state = start_amode(test, &sim_ppc_750, 2, map);
	perfctr_ppc_sim.tb = 1000;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0], 1U << 6);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[1], 1U << 27);
	advance(500, 1300);
	sim_sample(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 500ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 500ULL);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 300ULL);
	advance(250, 1400);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 750ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 750ULL);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 400ULL);
	/* Suspended: what happens now is not ours. */
	advance(1000, 5000);
	sim_resume(state);
	advance(10, 5010);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 760ULL);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 410ULL);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_bad, 0U);
}

/* 32-bit differences: one wrap of a counter or the timebase is harmless. */
static void ppc_count_wraps(struct kunit *test)
{
	static const u32 map[] = { 1 };
	struct perfctr_cpu_state *state;

	state = start_amode(test, &sim_ppc_604e, 1, map);
	perfctr_ppc_sim.pmc[1] = 0xFFFFFF00;
	perfctr_ppc_sim.tb = 0xFFFFFFF0;
	sim_resume(state);
	advance(0x200, 0x10);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0x200ULL);
	KUNIT_EXPECT_EQ(test, state->tsc_sum, 0x20ULL);
}

/*
 * Even without user copies of the PMCs (604e), suspend freezes the
 * counters (MMCR0[FC]): what runs until resume is not counted (F5). They
 * keep their values, and resuming the same control writes MMCR0 only.
 */
static void ppc_count_cached_control(struct kunit *test)
{
	static const u32 map[] = { 0, 3 };
	struct perfctr_cpu_state *state;
	unsigned int writes;

	state = start_amode(test, &sim_ppc_604e, 2, map);
	sim_run(state, 100);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
	perfctr_ppc_sim_tick(500);		/* someone else runs */
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[0], 100U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[3], 100U);
	writes = sim_reg_writes();
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, sim_reg_writes(), writes + 1);
	KUNIT_EXPECT_EQ(test, state->pmc[1].start, 100U);
	/* A new control is loaded, even one with the same contents. */
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_suspend(state);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, sim_reg_writes(), writes + 3);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_bad, 0U);
}

/*
 * Where user space reads the PMCs itself (750, 74xx), a suspended
 * state's counters are frozen and zeroed; resume unfreezes them and
 * rewrites only MMCR0. Zeroing a-mode counters deviates on purpose from
 * the specification's "same as x86" (a-mode counters only read): the
 * next thread would read them through UPMCn (ppc32.rst, "Deviation from
 * the specification"). This test asserts the deviation.
 */
static void ppc_count_hidden_at_suspend(struct kunit *test)
{
	static const u32 map[] = { 0, 3 };
	struct perfctr_cpu_state *state;
	unsigned int mmcr1_writes;

	state = start_amode(test, &sim_ppc_750, 2, map);
	sim_run(state, 1234);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 1234ULL);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[0], 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[3], 0U);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
	perfctr_ppc_sim_tick(99);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[3], 0U);
	mmcr1_writes = perfctr_ppc_sim.nr_mmcr_writes;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_mmcr_writes, mmcr1_writes + 1);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
	perfctr_ppc_sim_tick(6);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 1240ULL);
}

/* A TSC-only state neither touches nor hides anyone's counters. */
static void ppc_count_tsc_only_leaves_counters(struct kunit *test)
{
	static const u32 map[] = { 2 };
	struct perfctr_cpu_state *ctrs, *tsc;
	unsigned int writes;

	ctrs = start_amode(test, &sim_ppc_7450, 1, map);
	tsc = amode_state(test, 0, map);
	sim_resume(ctrs);
	writes = sim_reg_writes();
	perfctr_ppc_sim.tb = 50;
	sim_resume(tsc);
	perfctr_ppc_sim.tb = 80;
	sim_suspend(tsc);
	KUNIT_EXPECT_EQ(test, tsc->tsc_sum, 30ULL);
	KUNIT_EXPECT_EQ(test, sim_reg_writes(), writes);
}

/*
 * Counters a previous control used and this one does not are zeroed: a
 * deliberate counter write, asserted on purpose, so that the previous
 * owner's counts are not readable (ppc32.rst, "Deviation from the
 * specification").
 */
static void ppc_count_stale_scrubbed(struct kunit *test)
{
	static const u32 map_a[] = { 0, 1 }, map_b[] = { 2 };
	struct perfctr_cpu_state *a, *b;

	a = start_amode(test, &sim_ppc_7400, 2, map_a);
	b = amode_state(test, 1, map_b);
	sim_resume(a);
	perfctr_ppc_sim_tick(77);
	/* No suspend in between: global mode replacing its control. */
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[0], 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[1], 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
	perfctr_ppc_sim_tick(5);
	sim_suspend(b);
	KUNIT_EXPECT_EQ(test, b->pmc[0].sum, 5ULL);
}

static void ppc_count_imode_preset(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	state = start_imode(test, &sim_ppc_750gx, 1, 0x7FFFFF00, 0);
	perfctr_ppc_sim.pmc[1] = 42;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[1], 0x7FFFFF00U);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	perfctr_ppc_sim_tick(0x80);
	/*
	 * Frozen, PMXE off, counts folded in; nothing overflowed (bit 0 is
	 * still clear): 0, the start is the count so far, and MMCR0 stays
	 * as the control set it up.
	 */
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 0U);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 0x80ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1].start, 0x7FFFFF80U);
	KUNIT_EXPECT_NE(test, state->ppc_mmcr[0] & PMXE, 0U);
	KUNIT_EXPECT_FALSE(test, perfctr_ppc_sim.pmi_pending);
}

static void ppc_count_imode_overflow(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	state = start_imode(test, &sim_ppc_7450, 4, 0x7FFFFFF0, 0);
	sim_resume(state);
	perfctr_ppc_sim_tick(0x20);
	KUNIT_EXPECT_TRUE(test, perfctr_ppc_sim.pmi_pending);
	/* Bit 0 set: the i-mode counter (index 1) overflowed, restarted. */
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U << 1);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 0x20ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1].start, 0x7FFFFFF0U);
	/* Resume presets the counter again, PMXE back on. */
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[4], 0x7FFFFFF0U);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	perfctr_ppc_sim_tick(4);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 0x24ULL);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_bad, 0U);
}

/*
 * On the CPU where i-mode counters were frozen, with nobody in between,
 * they still hold their values (604e: nothing zeroes them): no rewrite.
 * ireload forces one.
 */
static void ppc_count_isuspend_cpu(struct kunit *test)
{
	struct perfctr_cpu_state *state;
	unsigned int writes;

	state = start_imode(test, &sim_ppc_604e, 3, 1000, 0);
	sim_run(state, 10);
	KUNIT_EXPECT_EQ(test, state->k1.isuspend_cpu, (s32)smp_processor_id());
	writes = perfctr_ppc_sim.nr_pmc_writes;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_pmc_writes, writes);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[3], 1010U);
	sim_suspend(state);
	perfctr_cpu_ireload(state);
	sim_resume(state);
	/* The i-mode counter, and the two it does not use zeroed. */
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_pmc_writes, writes + 3);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[3], 1010U);
}

/* Another state in between: the i-mode values are written back. */
static void ppc_count_isuspend_other_state(struct kunit *test)
{
	static const u32 map[] = { 3 };
	struct perfctr_cpu_state *state, *other;

	state = start_imode(test, &sim_ppc_604e, 3, 1000, 0);
	other = amode_state(test, 1, map);
	sim_run(state, 10);
	sim_run(other, 5000);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[3], 1010U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[1], state->ppc_mmcr[1]);
}

/*
 * A negative value in a counter the state does not use, with the state's
 * PMCnCE covering it, raises the exception as soon as PMXE is on, and
 * again after each resume: an interrupt storm. The 604e zeroes nothing at
 * suspend, so an earlier a-mode state leaves one behind: resume zeroes
 * every counter the state does not use, and leaves its a-mode ones.
 */
static void ppc_count_stale_negative_zeroed(struct kunit *test)
{
	static const u32 map[] = { 2 };
	struct perfctr_cpu_state *a, *b;

	a = start_amode(test, &sim_ppc_604e, 1, map);
	perfctr_ppc_sim.pmc[2] = 0x7FFFFFF0;
	sim_run(a, 0x20);
	KUNIT_ASSERT_EQ(test, a->pmc[0].sum, 0x20ULL);
	KUNIT_ASSERT_EQ(test, perfctr_ppc_sim.pmc[2], 0x80000010U);
	/* a-mode PMC1, i-mode PMC2 under PMCnCE, which covers PMC3 too. */
	b = imode_state(test, 1, 1000, 0);
	perfctr_ppc_sim.pmc[0] = 1234;
	perfctr_ppc_sim.pmc[3] = 0x80000000;
	sim_resume(b);
	KUNIT_EXPECT_FALSE(test, perfctr_ppc_sim.pmi_pending);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[2], 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[3], 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[0], 1234U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[1], 1000U);
	perfctr_ppc_sim_tick(5);
	sim_suspend(b);
	KUNIT_EXPECT_EQ(test, b->pmc[0].sum, 5ULL);
	KUNIT_EXPECT_EQ(test, b->pmc[1].sum, 5ULL);
	KUNIT_EXPECT_FALSE(test, perfctr_ppc_sim.pmi_pending);
}

/* 74xx models with a usable overflow interrupt: a 7400-family and a 745x. */
static const struct perfctr_ppc_sim_model *const pcint_74xx_models[] = {
	&sim_ppc_7410, &sim_ppc_7450,
};

KUNIT_ARRAY_PARAM(pcint_74xx, pcint_74xx_models, sim_model_desc);

static const struct perfctr_ppc_sim_model *const models_74xx[] = {
	&sim_ppc_7400, &sim_ppc_7450,
};

KUNIT_ARRAY_PARAM(models_74xx, models_74xx, sim_model_desc);

/*
 * FCECE: the overflow froze the counters (MPC7400/MPC7450 manuals: FC is
 * set when an enabled condition occurs), so the a-mode counter stopped
 * with it. Suspend reports the overflow and restarts the i-mode counter
 * as the control set it up, FC clear: the next slice counts again.
 */
static void ppc_count_fcece(struct kunit *test)
{
	const struct perfctr_ppc_sim_model *const *m = test->param_value;
	struct perfctr_cpu_state *state;

	state = start_imode(test, *m, 2, 0x7FFFFFFE, FCECE);
	sim_resume(state);
	perfctr_ppc_sim_tick(5);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
	perfctr_ppc_sim.pmi_pending = false;
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U << 1);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 5ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1].start, 0x7FFFFFFEU);
	KUNIT_EXPECT_EQ(test, state->ppc_mmcr[0] & FC, 0U);
	KUNIT_EXPECT_EQ(test, sim_run(state, 1), 0U);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 6ULL);
}

/* TRIGGER: PMC2-6 wait for PMC1's overflow; once started they stay so. */
static void ppc_count_trigger(struct kunit *test)
{
	const struct perfctr_ppc_sim_model *const *m = test->param_value;
	struct perfctr_cpu_state *state = sim_start_state(test, *m);
	const struct sim_ctr ctrs[] = { { 1, 1 }, { 0, 1, 0x7FFFFFF0 } };

	sim_fill_control(&state->control, 0, 1, 1, PMXE | PMC1CE | TRIGGER,
			 ctrs, ARRAY_SIZE(ctrs));
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_run(state, 8);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0ULL);
	KUNIT_EXPECT_NE(test, state->ppc_mmcr[0] & TRIGGER, 0U);
	sim_resume(state);
	perfctr_ppc_sim_tick(8);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & TRIGGER, 0U);
	perfctr_ppc_sim_tick(3);
	/* Overflow: restarted as set up, TRIGGER armed again. */
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U << 1);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 3ULL);
	KUNIT_EXPECT_NE(test, state->ppc_mmcr[0] & TRIGGER, 0U);
}

/*
 * PMC1 and PMC2 in a-mode under TRIGGER, run until PMC1 is 8 events short
 * of turning negative: PMC2 still held.
 */
static void trigger_amode_start(struct kunit *test,
				struct perfctr_cpu_state *state)
{
	const struct sim_ctr ctrs[] = { { 0, 1 }, { 1, 1 } };

	sim_fill_control(&state->control, 1, 2, 0, TRIGGER, ctrs,
			 ARRAY_SIZE(ctrs));
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	perfctr_ppc_sim.pmc[0] = 0x7FFFFFF0;
	sim_resume(state);
	perfctr_ppc_sim_tick(8);
}

/*
 * TRIGGER with an a-mode PMC1, which has no overflow condition: PMC2-6
 * are held until PMC1 is negative all the same (MPC7400/MPC7450 manuals:
 * "until PMC1 is negative or an enabled condition or event occurs"),
 * then TRIGGER clears and stays clear.
 */
static void ppc_count_trigger_amode(struct kunit *test)
{
	const struct perfctr_ppc_sim_model *const *m = test->param_value;
	struct perfctr_cpu_state *state = sim_start_state(test, *m);

	trigger_amode_start(test, state);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[1], 0U);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & TRIGGER, 0U);
	perfctr_ppc_sim_tick(8);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & TRIGGER, 0U);
	perfctr_ppc_sim_tick(3);
	/* PMC1's bit 0 is set, but an a-mode counter has no overflow. */
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 0U);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 19ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 3ULL);
	KUNIT_EXPECT_EQ(test, state->ppc_mmcr[0] & TRIGGER, 0U);
	sim_run(state, 4);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 7ULL);
	KUNIT_EXPECT_FALSE(test, perfctr_ppc_sim.pmi_pending);
}

/*
 * With TRIGGER (or FCECE) suspend reads MMCR0 and freezes at once: what
 * the hardware does while suspend reads the counters can neither change
 * MMCR0 behind the driver's back nor be counted.
 */
static void ppc_count_async_frozen_at_read(struct kunit *test)
{
	struct perfctr_cpu_state *state = sim_start_state(test, &sim_ppc_604e);

	trigger_amode_start(test, state);
	/* Events keep happening while suspend reads the counters. */
	perfctr_ppc_sim.autotick = 0x10;
	sim_suspend(state);
	perfctr_ppc_sim.autotick = 0;
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	KUNIT_EXPECT_EQ(test, pp_this_cache()->mmcr[0], perfctr_ppc_sim.mmcr[0]);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 8ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 0ULL);
	KUNIT_EXPECT_NE(test, state->ppc_mmcr[0] & TRIGGER, 0U);
	KUNIT_EXPECT_EQ(test, state->ppc_mmcr[0] & FC, 0U);
	/* Resume carries on from there. */
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0], state->ppc_mmcr[0]);
	KUNIT_EXPECT_EQ(test, pp_this_cache()->mmcr[0], perfctr_ppc_sim.mmcr[0]);
	perfctr_ppc_sim_tick(0x10);
	perfctr_ppc_sim_tick(2);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0x1AULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 2ULL);
	KUNIT_EXPECT_EQ(test, state->ppc_mmcr[0] & TRIGGER, 0U);
}

/*
 * Without FCECE or TRIGGER, MMCR0 changes only as the driver writes it:
 * suspend reads no MMCR at all. With one of them it reads MMCR0 once.
 */
static void ppc_count_suspend_reads_mmcr0_only_async(struct kunit *test)
{
	static const u32 map[] = { 0, 2 };
	struct perfctr_cpu_state *a, *i, *f;
	unsigned int reads;

	a = start_amode(test, &sim_ppc_7450, 2, map);
	i = imode_state(test, 3, 1000, 0);
	f = imode_state(test, 3, 1000, FCECE);
	sim_resume(a);
	reads = perfctr_ppc_sim.nr_mmcr_reads;
	sim_suspend(a);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_mmcr_reads, reads);
	sim_run(i, 10);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_mmcr_reads, reads);
	sim_run(f, 10);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_mmcr_reads, reads + 1);
	KUNIT_EXPECT_EQ(test, i->pmc[1].sum, 10ULL);
	KUNIT_EXPECT_EQ(test, f->pmc[1].sum, 10ULL);
}

/* MMCR2 (THRESHMULT) reaches the hardware; the next control replaces it. */
static void ppc_count_mmcr2(struct kunit *test)
{
	const struct perfctr_ppc_sim_model *const *m = test->param_value;
	static const u32 map[] = { 0 };
	struct perfctr_cpu_state *t, *plain;

	KUNIT_ASSERT_EQ(test, sim_start(test, *m), 0);
	t = sim_state(test);
	t->control.tsc_on = 1;
	t->control.nractrs = 1;
	t->control.evntsel[0] = 1;
	t->control.ppc.mmcr2 = PERFCTR_PPC_MMCR2_THRESHMULT;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(t, false), 0);
	plain = amode_state(test, 1, map);
	sim_resume(t);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[2], 0x80000000U);
	sim_suspend(t);
	sim_resume(plain);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[2], 0U);
	sim_suspend(plain);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_bad, 0U);
}

/* F11: release leaves no count in any PMC. */
static void ppc_count_release_zeroes(struct kunit *test)
{
	static const u32 map[] = { 0, 1, 2, 3, 4, 5 };
	struct perfctr_cpu_state *state;
	unsigned int i;

	state = start_amode(test, &sim_ppc_7450, 6, map);
	sim_resume(state);
	perfctr_ppc_sim_tick(100);
	sim_sample(state);
	perfctr_cpu_release(SIM_SERVICE);
	for (i = 0; i < PP_MAX_PMCS; i++)
		KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[i], 0U);
}

/*
 * F12: ids equal in their low 32 bits are two controls all the same: b's
 * i-mode counter, preset by b and then used by a, is preset again.
 */
static void ppc_count_id_64bit(struct kunit *test)
{
	struct perfctr_cpu_state *a, *b;

	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_ppc_604e), 0);
	a = imode_state(test, 3, 1000, 0);
	b = imode_state(test, 3, 2000, 0);
	/* By hand: validation makes ids unpredictable. */
	a->id = BIT_ULL(32) + 4;
	b->id = 4;
	sim_run(b, 10);
	sim_run(a, 5);
	sim_resume(b);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[3], 2010U);
	sim_suspend(b);
}

/*
 * F7: user space reads UPMCn whenever it likes; when a state's owner
 * switches in, counters another state left live are zeroed, and its own
 * are left as they are.
 */
static void ppc_count_user_read_claims(struct kunit *test)
{
	static const u32 map[] = { 0, 1 };
	struct perfctr_cpu_state *a, *b;
	unsigned long flags;

	a = start_amode(test, &sim_ppc_750, 1, map);
	b = amode_state(test, 2, map);
	sim_resume(b);
	perfctr_ppc_sim_tick(100);
	local_irq_save(flags);
	perfctr_cpu_user_read(b, true);		/* its own: kept */
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[1], 100U);
	perfctr_cpu_user_read(a, true);
	local_irq_restore(flags);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[0], 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[1], 0U);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
}

static struct kunit_case count_test_cases[] = {
	KUNIT_CASE(ppc_count_accumulates),
	KUNIT_CASE(ppc_count_wraps),
	KUNIT_CASE(ppc_count_cached_control),
	KUNIT_CASE(ppc_count_hidden_at_suspend),
	KUNIT_CASE(ppc_count_tsc_only_leaves_counters),
	KUNIT_CASE(ppc_count_stale_scrubbed),
	KUNIT_CASE(ppc_count_imode_preset),
	KUNIT_CASE(ppc_count_imode_overflow),
	KUNIT_CASE(ppc_count_isuspend_cpu),
	KUNIT_CASE(ppc_count_isuspend_other_state),
	KUNIT_CASE(ppc_count_stale_negative_zeroed),
	KUNIT_CASE_PARAM(ppc_count_fcece, pcint_74xx_gen_params),
	KUNIT_CASE_PARAM(ppc_count_trigger, pcint_74xx_gen_params),
	KUNIT_CASE_PARAM(ppc_count_trigger_amode, models_74xx_gen_params),
	KUNIT_CASE(ppc_count_async_frozen_at_read),
	KUNIT_CASE(ppc_count_suspend_reads_mmcr0_only_async),
	KUNIT_CASE_PARAM(ppc_count_mmcr2, models_74xx_gen_params),
	KUNIT_CASE(ppc_count_release_zeroes),
	KUNIT_CASE(ppc_count_id_64bit),
	KUNIT_CASE(ppc_count_user_read_claims),
	{}
};

SUITEOF(count_test_cases,
	.name = "perfctr_ppc_count", .exit = sim_stop);
