// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: hardware reservation and overflow interrupts. The simulated
 * kernel counter allocator, local APIC and NMI registration are
 * observed; the tests deliver the "NMI" by calling the driver's handler,
 * as the kernel's NMI code would.
 */
#include <linux/delay.h>
#include <linux/irq_work.h>
#include <asm/apicdef.h>
#include <asm/nmi.h>
#include <asm/ptrace.h>

#include "arch_test.h"

#define OLD_LVTPC	(APIC_DM_NMI | 0x12345)	/* what perf left there */

static atomic_t handler_calls;
static unsigned long handler_pc;

/* The context the handler ran in (A21). */
static bool handler_hardirq, handler_nmi, handler_irqs_off, handler_preemptible;

static void test_ihandler(unsigned long pc)
{
	handler_pc = pc;
	handler_hardirq = in_hardirq();
	handler_nmi = in_nmi();
	handler_irqs_off = irqs_disabled();
	handler_preemptible = preemptible();
	atomic_inc(&handler_calls);
}

static int irq_init(struct kunit *test)
{
	int err;

	atomic_set(&handler_calls, 0);
	handler_pc = 0;
	handler_hardirq = false;
	handler_nmi = true;
	handler_irqs_off = false;
	handler_preemptible = true;
	perfctr_cpu_release(SIM_SERVICE);	/* reserve again below */
	err = sim_start(test, &sim_k7);
	if (err)
		return err;
	perfctr_cpu_release(SIM_SERVICE);
	perfctr_x86_sim.lvtpc = OLD_LVTPC;
	if (perfctr_cpu_reserve(SIM_SERVICE))
		return -EBUSY;
	perfctr_cpu_set_ihandler(test_ihandler);
	return 0;
}

static void irq_exit(struct kunit *test)
{
	sim_stop(test);
}

static int deliver_nmi(unsigned long ip)
{
	struct pt_regs regs = { .ip = ip };
	int ret;

	preempt_disable();
	ret = pc_nmi_handler(NMI_LOCAL, &regs);
	preempt_enable();
	return ret;
}

static void wait_for_handler(void)
{
	unsigned int i;

	for (i = 0; i < 1000 && !atomic_read(&handler_calls); i++)
		usleep_range(100, 200);
}

static void irq_reserve_sets_up_apic(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, perfctr_info.features & PERFCTR_FEATURE_PCINT);
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.nmi_registered);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.lvtpc, APIC_DM_NMI | APIC_LVT_MASKED);
	perfctr_cpu_release(SIM_SERVICE);
	/* Release hands back what was there before. */
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.nmi_registered);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.lvtpc, OLD_LVTPC);
}

static void irq_resume_unmasks(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);

	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.lvtpc, APIC_DM_NMI);
	sim_suspend(state);
}

static void irq_not_ours_without_overflow(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);

	sim_resume(state);
	perfctr_x86_sim_tick(50);
	KUNIT_EXPECT_EQ(test, deliver_nmi(0x1234), NMI_DONE);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.lvtpc, APIC_DM_NMI);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, atomic_read(&handler_calls), 0);
}

/*
 * A wide preset, -2^40 on the K7's 48-bit counter (AMD's counters take
 * all 48 bits): its low 32 bits are 0, which a 32-bit overflow test
 * would call overflowed. The NMI is ours only once the top bit clears.
 */
static void irq_wide_preset_judged_whole(struct kunit *test)
{
	struct perfctr_cpu_state *state = sim_state(test);

	imode_control_wide(test, state, -256, 0);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ctr[1], BIT_ULL(48) - BIT_ULL(40));
	perfctr_x86_sim_tick(50);
	KUNIT_EXPECT_EQ(test, deliver_nmi(0x1234), NMI_DONE);
	/* To the edge in steps a 50 ms sample would bound, then over it. */
	sim_tick_sampled(state, BIT_ULL(40) - 51);
	KUNIT_EXPECT_EQ(test, deliver_nmi(0x1234), NMI_DONE);
	perfctr_x86_sim_tick(1);
	KUNIT_ASSERT_EQ(test, perfctr_x86_sim.ovf_pending, 1U << 1);
	KUNIT_EXPECT_EQ(test, deliver_nmi(0xfeed), NMI_HANDLED);
	wait_for_handler();
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U << 1);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, BIT_ULL(40));
	/* Restarted from the whole preset, not from its low half. */
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ctr[1], BIT_ULL(48) - BIT_ULL(40));
	sim_suspend(state);
}

static void irq_overflow_calls_handler(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);

	sim_resume(state);
	perfctr_x86_sim_tick(150);
	KUNIT_ASSERT_EQ(test, perfctr_x86_sim.ovf_pending, 1U << 1);
	KUNIT_EXPECT_EQ(test, deliver_nmi(0xfeed), NMI_HANDLED);
	/* Masked until the counters resume: no NMI storm. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.lvtpc, APIC_DM_NMI | APIC_LVT_MASKED);
	wait_for_handler();
	KUNIT_EXPECT_EQ(test, atomic_read(&handler_calls), 1);
	KUNIT_EXPECT_EQ(test, handler_pc, 0xfeedUL);
	/*
	 * The seed: "called in IRQ context, with preemption disabled". Not
	 * in the NMI itself, where little is allowed, but in the hard
	 * irq_work the NMI queued.
	 */
	KUNIT_EXPECT_TRUE(test, handler_hardirq);
	KUNIT_EXPECT_FALSE(test, handler_nmi);
	KUNIT_EXPECT_TRUE(test, handler_irqs_off);
	KUNIT_EXPECT_FALSE(test, handler_preemptible);
	/* What the high-level handler does next. */
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U << 1);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 150ULL);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.lvtpc, APIC_DM_NMI);
	sim_suspend(state);
}

/* An overflow NMI that lands just after suspend is claimed, once. */
static void irq_late_nmi_claimed_once(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);

	KUNIT_EXPECT_EQ(test, sim_run(state, 150), 1U << 1);
	KUNIT_EXPECT_EQ(test, deliver_nmi(1), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, deliver_nmi(2), NMI_DONE);
	wait_for_handler();
	KUNIT_EXPECT_EQ(test, atomic_read(&handler_calls), 1);
}

/* Suspended without a wrap: a later NMI is someone else's. */
static void irq_no_late_claim_without_overflow(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);

	KUNIT_EXPECT_EQ(test, sim_run(state, 50), 0U);
	KUNIT_EXPECT_EQ(test, deliver_nmi(4), NMI_DONE);
	KUNIT_EXPECT_EQ(test, atomic_read(&handler_calls), 0);
}

/*
 * The low-level API: "after overflowing [i-mode counters] are reset to
 * their (re)start values". The SDM: a counter preset to -100 overflows
 * (and interrupts, with the INT bit) after 100 events, counting up
 * through zero. 150 events later suspend reports that counter, bit 1 for
 * state->pmc[1], and has restarted it: its start is ireset again and the
 * next resume writes the preset, sign-extended to the counter's width.
 * The a-mode counter beside it counted 150 too, and is not reported.
 */
static void irq_suspend_reports_overflow(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);
	unsigned int w;

	sim_resume(state);
	perfctr_x86_sim_tick(150);
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U << 1);
	KUNIT_EXPECT_EQ(test, state->pmc[1].start, (u32)-100);
	KUNIT_EXPECT_EQ(test, state->pmc[1].sum, 150ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 150ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), 50ULL);
	w = perfctr_x86_sim.nr_wrmsr;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), preset(-100));
	/* The preset, the select and the a-mode enable: nothing skipped. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr,
			w + 2 + start_writes(perfctr_x86_sim.m, 1));
	sim_suspend(state);
}

/*
 * No overflow (50 of 100 events): 0, and the i-mode counter is left as it
 * is: its start is the count so far, and resumed on the same CPU with
 * nobody in between it carries on from there, unwritten.
 */
static void irq_suspend_without_overflow(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_state(test, -100);
	unsigned int w;

	sim_resume(state);
	perfctr_x86_sim_tick(50);
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 0U);
	KUNIT_EXPECT_EQ(test, state->pmc[1].start, (u32)-50);
	KUNIT_EXPECT_EQ(test, state->k1.isuspend_cpu, (s32)smp_processor_id());
	w = perfctr_x86_sim.nr_wrmsr;
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), preset(-50));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr,
			w + 1 + start_writes(perfctr_x86_sim.m, 1));
	sim_suspend(state);
}

/* An a-mode counter past 2^31 is no overflow: never reported. */
static void irq_suspend_amode_never_reported(struct kunit *test)
{
	struct perfctr_cpu_state *state = amode_state(test, 1, 0xC0);

	sim_resume(state);
	perfctr_x86_sim_tick(0x80000010);
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 0U);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 0x80000010ULL);
}

/* A-mode only: NMIs are never ours. */
static void irq_amode_never_claims(struct kunit *test)
{
	struct perfctr_cpu_state *state = amode_state(test, 1, 0x76);

	sim_resume(state);
	perfctr_x86_sim.ctr[0] = 5;		/* non-negative, like a wrap */
	KUNIT_EXPECT_EQ(test, deliver_nmi(3), NMI_DONE);
	sim_suspend(state);
}

/* Families without overflow interrupts leave the APIC alone. */
static void irq_p5_has_no_pmi(struct kunit *test)
{
	sim_stop(test);
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_p5mmx), 0);
	KUNIT_EXPECT_FALSE(test, perfctr_info.features & PERFCTR_FEATURE_PCINT);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.nmi_registered);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.lvtpc, 0U);
}

/*
 * Overflow interrupts need the local APIC's LVTPC (X13). A P6 whose CPUID
 * hides the APIC gets no PCINT, its LVTPC is never written, and an i-mode
 * control is refused; the same control is accepted where the APIC is.
 */
static void irq_no_apic_refuses_imode(struct kunit *test)
{
	static const struct sim_ctr ctrs[] = {
		{ 0, EN | CPL | 0xC0 },
		{ 1, CPL | 0xC0 | INT, 0, -1000 },
	};
	struct perfctr_cpu_state *state = sim_state(test);

	sim_stop(test);
	sim_pin(test);
	perfctr_x86_sim_reset(&sim_p6_no_apic);
	perfctr_x86_sim.lvtpc = OLD_LVTPC;
	KUNIT_ASSERT_EQ(test, sim_bring_up(test), 0);
	KUNIT_EXPECT_FALSE(test, perfctr_info.features & PERFCTR_FEATURE_PCINT);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.nmi_registered);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.lvtpc, OLD_LVTPC);
	sim_fill_control(&state->control, 1, 1, 1, ctrs, ARRAY_SIZE(ctrs));
	sim_expect_update(test, state, false, -EINVAL);

	sim_stop(test);
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_p6), 0);
	KUNIT_EXPECT_TRUE(test, perfctr_info.features & PERFCTR_FEATURE_PCINT);
	sim_fill_control(&state->control, 1, 1, 1, ctrs, ARRAY_SIZE(ctrs));
	sim_expect_update(test, state, false, 0);
}

/* perf_events (the NMI watchdog, perf) holds the counters: busy, untouched. */
static void irq_kernel_busy(struct kunit *test)
{
	perfctr_cpu_release(SIM_SERVICE);
	perfctr_x86_sim.kernel_busy = true;
	perfctr_x86_sim.sel[2] = 0x1234;
	perfctr_x86_sim.lvtpc = OLD_LVTPC;
	KUNIT_EXPECT_PTR_EQ(test, perfctr_cpu_reserve(SIM_SERVICE),
			    perfctr_kernel_holder);
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserved_by());
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.sel[2], 0x1234ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.lvtpc, OLD_LVTPC);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.nmi_registered);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.kernel_reserved, 0U);
	perfctr_x86_sim.kernel_busy = false;
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
}

/*
 * A refusal is the kernel's answer: info shows it even to a reader who
 * may not ask, and one who may asks again only a second later. The
 * allocator lets go at once, so an answer of "busy" after it was not
 * asked.
 */
static void irq_kernel_refusal_seen(struct kunit *test)
{
	perfctr_cpu_release(SIM_SERVICE);
	perfctr_x86_sim.kernel_busy = true;
	KUNIT_EXPECT_PTR_EQ(test, perfctr_cpu_reserve(SIM_SERVICE),
			    perfctr_kernel_holder);
	perfctr_x86_sim.kernel_busy = false;
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_kernel_busy(false));
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_kernel_busy(true));
	msleep(1100);
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_kernel_busy(false));
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_kernel_busy(true));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.kernel_reserved, 0U);

	/* A granted reservation is an answer too; held by us, not busy. */
	perfctr_x86_sim.kernel_busy = true;
	msleep(1100);
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_kernel_busy(true));
	perfctr_x86_sim.kernel_busy = false;
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
	perfctr_x86_sim.kernel_busy = true;
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_kernel_busy(true));
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_kernel_busy(false));
	perfctr_x86_sim.kernel_busy = false;
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
}

/* Every counter and select is taken from the kernel, and given back. */
static void irq_kernel_reservation(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.kernel_reserved, 2 * 4U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.sel[0] | perfctr_x86_sim.sel[3], 0ULL);
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.kernel_reserved, 0U);
}

/*
 * Arch perfmon v2: the global enables of our counters are clear while
 * reserved and no state runs (a state's resume sets them), and what was
 * there before is restored at release.
 */
static void irq_arch_global_ctrl_restored(struct kunit *test)
{
	sim_stop(test);
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_arch_v2), 0);
	perfctr_cpu_release(SIM_SERVICE);
	perfctr_x86_sim.global_ctrl = 0x700000000ULL;	/* fixed ctrs only */
	KUNIT_ASSERT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl, 0ULL);
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl, 0x700000000ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
}

static struct kunit_case irq_test_cases[] = {
	KUNIT_CASE(irq_arch_global_ctrl_restored),
	KUNIT_CASE(irq_kernel_busy),
	KUNIT_CASE(irq_kernel_refusal_seen),
	KUNIT_CASE(irq_kernel_reservation),
	KUNIT_CASE(irq_reserve_sets_up_apic),
	KUNIT_CASE(irq_resume_unmasks),
	KUNIT_CASE(irq_not_ours_without_overflow),
	KUNIT_CASE(irq_wide_preset_judged_whole),
	KUNIT_CASE(irq_overflow_calls_handler),
	KUNIT_CASE(irq_suspend_reports_overflow),
	KUNIT_CASE(irq_suspend_without_overflow),
	KUNIT_CASE(irq_suspend_amode_never_reported),
	KUNIT_CASE(irq_late_nmi_claimed_once),
	KUNIT_CASE(irq_no_late_claim_without_overflow),
	KUNIT_CASE(irq_amode_never_claims),
	KUNIT_CASE(irq_p5_has_no_pmi),
	KUNIT_CASE(irq_no_apic_refuses_imode),
	{}
};

SUITEOF(irq_test_cases,
	.name = "perfctr_x86_irq", .init = irq_init, .exit = irq_exit);
