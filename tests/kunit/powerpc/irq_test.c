// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the ppc32 performance monitor exception. The reservation hands
 * the kernel our handler; an overflow of an armed i-mode counter reaches
 * the high-level handler with the interrupted address; PMXE stays off
 * until resume; exceptions nobody armed for are absorbed.
 */
#include "arch_test.h"
#include "../../../arch/powerpc/perfctr/ppc.h"

static struct {
	unsigned int calls;
	unsigned long pc;
	unsigned int mask;
	u32 mmcr0;		/* MMCR0 when the high-level handler ran */
	bool cache_exact;	/* and whether the driver's cache knew it */
	bool irqs_off, preemptible;	/* the context it ran in */
	struct perfctr_cpu_state *state;
} seen;

/* What the high-level driver does: suspend, which finds the overflow. */
static void record_overflow(unsigned long pc)
{
	seen.calls++;
	seen.pc = pc;
	seen.mmcr0 = perfctr_ppc_sim.mmcr[0];
	seen.cache_exact = pp_this_cache()->mmcr[0] == seen.mmcr0;
	seen.irqs_off = irqs_disabled();
	seen.preemptible = preemptible();
	if (seen.state)
		seen.mask = perfctr_cpu_suspend(seen.state);
}

static int irq_test_init(struct kunit *test)
{
	memset(&seen, 0, sizeof(seen));
	seen.preemptible = true;
	return 0;
}

/* Also when a test stopped early: no handler outlives its test. */
static void irq_test_exit(struct kunit *test)
{
	perfctr_cpu_set_ihandler(NULL);
	sim_stop(test);
}

/*
 * A state with one i-mode counter, PMC(@pmc+1), 0x100 events short of its
 * overflow, resumed and @n events into it.
 */
static struct perfctr_cpu_state *run_overflowing(struct kunit *test, u32 pmc,
						 u32 n)
{
	struct perfctr_cpu_state *state = sim_state(test);
	const struct sim_ctr ctr = { pmc, 1, 0x7FFFFF00 };

	sim_fill_control(&state->control, 1, 0, 1,
			 PMXE | (pmc ? PMCNCE : PMC1CE), &ctr, 1);
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_resume(state);
	perfctr_ppc_sim_tick(n);
	return state;
}

/* Power on @m with record_overflow() as the high-level handler. */
static void start_recording(struct kunit *test, const struct sim_model *m)
{
	KUNIT_ASSERT_EQ(test, sim_start(test, m), 0);
	perfctr_cpu_set_ihandler(record_overflow);
}

/* start_recording() on @m, and a run_overflowing() state there. */
static struct perfctr_cpu_state *record_overflowing(struct kunit *test,
						    const struct sim_model *m,
						    u32 pmc, u32 n)
{
	start_recording(test, m);
	return run_overflowing(test, pmc, n);
}

/* The exception taken at @nip, as the kernel takes it: IRQs off. */
static bool deliver_pmi(unsigned long nip)
{
	bool taken;

	local_irq_disable();
	taken = perfctr_ppc_sim_deliver_pmi(nip);
	local_irq_enable();
	return taken;
}

static void ppc_irq_handler_installed(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_ppc_7450), 0);
	KUNIT_EXPECT_TRUE(test, perfctr_ppc_sim.handler == pp_perf_irq);
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_FALSE(test, perfctr_ppc_sim.reserved);
	KUNIT_EXPECT_NULL(test, perfctr_ppc_sim.handler);
}

static void ppc_irq_overflow_reaches_handler(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	state = record_overflowing(test, &sim_ppc_750gx, 0, 0x80);
	seen.state = state;
	KUNIT_EXPECT_FALSE(test, perfctr_ppc_sim.pmi_pending);
	perfctr_ppc_sim_tick(0x80);
	KUNIT_ASSERT_TRUE(test, perfctr_ppc_sim.pmi_pending);
	KUNIT_EXPECT_TRUE(test, deliver_pmi(0xC0DE0000));
	KUNIT_EXPECT_EQ(test, seen.calls, 1U);
	KUNIT_EXPECT_EQ(test, seen.pc, 0xC0DE0000UL);
	/*
	 * The seed: "called in IRQ context, with preemption disabled". The
	 * handler runs within the exception, which deliver_pmi() takes as
	 * the kernel does, IRQs off; deferred (a work item, a thread) it
	 * would run preemptible. in_hardirq() is the kernel's entry code's
	 * to set, which the simulation cannot stand in for.
	 */
	KUNIT_EXPECT_TRUE(test, seen.irqs_off);
	KUNIT_EXPECT_FALSE(test, seen.preemptible);
	/* Bit 0 (0x80000000) of PMC1 set: its counter, index 0, overflowed. */
	KUNIT_EXPECT_EQ(test, seen.mask, 1U);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0x100ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[0].start, 0x7FFFFF00U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	/* Restarted from ireset, PMXE back on. */
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[0], 0x7FFFFF00U);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	sim_suspend(state);
}

/* After suspend a late exception is not ours: absorbed, PMXE stays off. */
static void ppc_irq_late_is_absorbed(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	state = record_overflowing(test, &sim_ppc_7410, 2, 0x100);
	KUNIT_ASSERT_TRUE(test, perfctr_ppc_sim.pmi_pending);
	/* The overflow itself is found at suspend all the same. */
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U);
	KUNIT_EXPECT_TRUE(test, deliver_pmi(0x1000));
	KUNIT_EXPECT_EQ(test, seen.calls, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
}

/* No high-level handler installed: the exception is still absorbed. */
static void ppc_irq_without_handler(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_ppc_750fx), 0);
	state = run_overflowing(test, 3, 0x100);
	KUNIT_EXPECT_TRUE(test, deliver_pmi(0x2000));
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0x100ULL);
}

/* A spurious exception (no i-mode counter overflowed): resume re-enables. */
static void ppc_irq_spurious(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	state = record_overflowing(test, &sim_ppc_7450, 5, 0x10);
	seen.state = state;
	perfctr_ppc_sim.pmi_pending = true;	/* e.g. a timebase event */
	KUNIT_EXPECT_TRUE(test, deliver_pmi(0x3000));
	KUNIT_EXPECT_EQ(test, seen.calls, 1U);
	/* 0, and the counter carries on from where it was: untouched. */
	KUNIT_EXPECT_EQ(test, seen.mask, 0U);
	KUNIT_EXPECT_EQ(test, state->pmc[0].start, 0x7FFFFF10U);
	sim_resume(state);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[5], 0x7FFFFF10U);
	sim_suspend(state);
}

/*
 * Armed: the counters are frozen (FC on, PMXE off) before the high-level
 * handler runs, so nothing counts or changes MMCR0 while it suspends the
 * state, and the cache knows what MMCR0 holds.
 */
static void ppc_irq_armed_freezes(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	state = record_overflowing(test, &sim_ppc_7450, 1, 0x100);
	KUNIT_ASSERT_TRUE(test, perfctr_ppc_sim.pmi_pending);
	KUNIT_EXPECT_TRUE(test, deliver_pmi(0x4000));
	KUNIT_EXPECT_EQ(test, seen.calls, 1U);
	KUNIT_EXPECT_NE(test, seen.mmcr0 & FC, 0U);
	KUNIT_EXPECT_EQ(test, seen.mmcr0 & PMXE, 0U);
	KUNIT_EXPECT_TRUE(test, seen.cache_exact);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0x100ULL);
}

/*
 * Armed with FCECE, and nothing overflowed (a spurious exception): the
 * handler's own freeze is not FCECE's, and the state runs on afterwards.
 */
static void ppc_irq_armed_fcece_spurious(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	start_recording(test, &sim_ppc_7450);
	state = sim_state(test);
	state->control.tsc_on = 1;
	state->control.nrictrs = 1;
	state->control.pmc_map[0] = 2;
	state->control.evntsel[0] = 1;
	state->control.ireset[0] = 0x1000;
	state->control.ppc.mmcr0 = PMXE | PMCNCE | FCECE;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_resume(state);
	perfctr_ppc_sim_tick(0x10);
	perfctr_ppc_sim.pmi_pending = true;
	local_irq_disable();
	KUNIT_EXPECT_TRUE(test, perfctr_ppc_sim_deliver_pmi(0x5000));
	/* As vp_ihandler(): suspend, nothing overflowed, resume. */
	preempt_disable();
	perfctr_cpu_suspend(state);
	perfctr_cpu_resume(state);
	preempt_enable();
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, state->ppc_mmcr[0] & FC, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
	KUNIT_EXPECT_NE(test, perfctr_ppc_sim.mmcr[0] & PMXE, 0U);
	perfctr_ppc_sim_tick(5);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0x15ULL);
}

/*
 * Not armed: someone else's a-mode counters run on untouched, and MMCR0
 * is not even written when PMXE is already off.
 */
static void ppc_irq_unarmed_leaves_counters(struct kunit *test)
{
	struct perfctr_cpu_state *state = sim_state(test);
	unsigned int writes;

	start_recording(test, &sim_ppc_7450);
	state->control.tsc_on = 1;
	state->control.nractrs = 1;
	state->control.evntsel[0] = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_resume(state);
	perfctr_ppc_sim_tick(10);
	writes = perfctr_ppc_sim.nr_mmcr_writes;
	perfctr_ppc_sim.pmi_pending = true;	/* late, from an earlier state */
	KUNIT_EXPECT_TRUE(test, deliver_pmi(0x6000));
	KUNIT_EXPECT_EQ(test, seen.calls, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_mmcr_writes, writes);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0] & FC, 0U);
	/* PMXE still on (as the 604 leaves it): turned off, nothing else. */
	perfctr_ppc_sim.mmcr[0] |= PMXE;
	perfctr_ppc_sim.pmi_pending = true;
	KUNIT_EXPECT_TRUE(test, deliver_pmi(0x6000));
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_mmcr_writes, writes + 1);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0], state->ppc_mmcr[0]);
	KUNIT_EXPECT_EQ(test, pp_this_cache()->mmcr[0], perfctr_ppc_sim.mmcr[0]);
	perfctr_ppc_sim_tick(5);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 15ULL);
}

static struct kunit_case irq_test_cases[] = {
	KUNIT_CASE(ppc_irq_handler_installed),
	KUNIT_CASE(ppc_irq_overflow_reaches_handler),
	KUNIT_CASE(ppc_irq_late_is_absorbed),
	KUNIT_CASE(ppc_irq_without_handler),
	KUNIT_CASE(ppc_irq_spurious),
	KUNIT_CASE(ppc_irq_armed_freezes),
	KUNIT_CASE(ppc_irq_armed_fcece_spurious),
	KUNIT_CASE(ppc_irq_unarmed_leaves_counters),
	{}
};

SUITEOF(irq_test_cases,
	.name = "perfctr_ppc_irq", .init = irq_test_init, .exit = irq_test_exit);
