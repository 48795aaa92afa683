// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: AMD family 17h and later. PerfMonV2 (Zen 4): detection and the
 * counter count from CPUID Fn8000_0022, counting only with both PERF_CTL.EN
 * and the counter's PerfCntrGlobalCtl bit, the kernel's PerfCntrGlobalCtl
 * given back at release, overflow through PerfCntrGlobalStatus and
 * PerfCntrGlobalStatusClr, and the MSR writes of a switch against Zen 1's.
 * Large-increment events counted by a Merge pair. The expected values
 * come from the manuals (APM vol. 2, 24593 rev. 3.42, section 13.2; PPR
 * 55901 rev. 0.25, 2.1.13.3 and MSRC000_0300-0302), not from the driver.
 */
#include <asm/nmi.h>
#include <asm/ptrace.h>

#include "arch_test.h"

#define GLOBAL_STATUS		0xC0000300U
#define GLOBAL_CTL		0xC0000301U
#define GLOBAL_STATUS_CLR	0xC0000302U
#define F15H_CTL(n)		(0xC0010200U + 2 * (n))
#define F15H_CTR(n)		(0xC0010201U + 2 * (n))
#define CYCLES			0x76U		/* CPU clocks not halted */
#define MERGE_EN		(EN | 0xFFULL | 0xFULL << 32)

/* A copy of @base with CPUID Fn8000_0022 EBX[3:0] = @n counters. */
static const struct perfctr_x86_sim_model *
zen4_with(struct kunit *test, const struct perfctr_x86_sim_model *base,
	  unsigned int n)
{
	struct perfctr_x86_sim_model *m = kunit_kzalloc(test, sizeof(*m),
							GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, m);
	*m = *base;
	m->amd_v2_ctrs = n;
	m->pmc_mask = GENMASK(n - 1, 0);
	return m;
}

static void zen_exit(struct kunit *test)
{
	sim_repin(test);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
	sim_unpin(test);
}

/* The counter count is CPUID's, whatever it is; without V2, Zen 1-3's six. */
static void zen4_detect_counts(struct kunit *test)
{
	sim_pin(test);
	perfctr_x86_sim_reset(zen4_with(test, &sim_zen4, 4));
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	KUNIT_EXPECT_STREQ(test, perfctr_cpu_name(), "AMD PerfMonV2 (Zen 4 and later)");
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 4U);
	KUNIT_EXPECT_NULL(test, perfctr_info.fallback_reason);
	perfctr_cpu_exit();

	perfctr_x86_sim_reset(&sim_zen3);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	KUNIT_EXPECT_STREQ(test, perfctr_cpu_name(), "AMD Family 15h+ (6 core counters)");
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 6U);
	perfctr_cpu_exit();
}

/* The model as the manual says: neither enable alone counts. */
static void zen4_model_needs_both_enables(struct kunit *test)
{
	sim_pin(test);
	perfctr_x86_sim_reset(&sim_zen4);
	perfctr_sim_wrmsr(F15H_CTL(2), EN | CPL | CYCLES);
	perfctr_x86_sim_tick(100);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(2), 0ULL);
	perfctr_sim_wrmsr(F15H_CTL(2), CPL | CYCLES);
	perfctr_sim_wrmsr(GLOBAL_CTL, BIT(2));
	perfctr_x86_sim_tick(100);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(2), 0ULL);
	perfctr_sim_wrmsr(F15H_CTL(2), EN | CPL | CYCLES);
	perfctr_x86_sim_tick(100);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(2), 100ULL);
	/* Another counter's global bit does not start this one. */
	perfctr_sim_wrmsr(GLOBAL_CTL, BIT(3));
	perfctr_x86_sim_tick(100);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(2), 100ULL);
}

/* Overflow latches GlobalStatus; writes to it fault; StatusClr clears. */
static void zen4_model_global_status(struct kunit *test)
{
	u64 val = 0;

	sim_pin(test);
	perfctr_x86_sim_reset(&sim_zen4);
	perfctr_sim_wrmsr(GLOBAL_CTL, BIT(1));
	perfctr_sim_wrmsr(F15H_CTL(1), EN | CPL | CYCLES);
	perfctr_sim_wrmsr(F15H_CTR(1), GENMASK_ULL(47, 0) - 9);	/* -10 */
	perfctr_x86_sim_tick(9);
	KUNIT_EXPECT_EQ(test, perfctr_sim_rdmsr(GLOBAL_STATUS), 0ULL);
	perfctr_x86_sim_tick(1);
	KUNIT_EXPECT_EQ(test, perfctr_sim_rdmsr(GLOBAL_STATUS), BIT_ULL(1));
	/* Latched: it stays while the counter counts on from zero. */
	perfctr_x86_sim_tick(5);
	KUNIT_EXPECT_EQ(test, perfctr_sim_rdmsr(GLOBAL_STATUS), BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(GLOBAL_STATUS, 0), -EIO);
	perfctr_sim_wrmsr(GLOBAL_STATUS_CLR, BIT(0));
	KUNIT_EXPECT_EQ(test, perfctr_sim_rdmsr(GLOBAL_STATUS), BIT_ULL(1));
	perfctr_sim_wrmsr(GLOBAL_STATUS_CLR, BIT(1));
	KUNIT_EXPECT_EQ(test, perfctr_sim_rdmsr_safe(GLOBAL_STATUS, &val), 0);
	KUNIT_EXPECT_EQ(test, val, 0ULL);
}

/*
 * The driver: reserve keeps the kernel's other bits and leaves ours clear
 * until a state runs; resume sets them, suspend clears them; release
 * puts back exactly what the kernel had, for @kernel_had of each kind,
 * and leaves no overflow status of ours for perf to take as its own.
 */
static void zen4_global_discipline_from(struct kunit *test, u64 kernel_had)
{
	struct perfctr_cpu_state *state;

	sim_pin(test);
	perfctr_x86_sim_reset(&sim_zen4);
	perfctr_x86_sim.global_ctrl = kernel_had;
	KUNIT_ASSERT_EQ(test, sim_bring_up(test), 0);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl, kernel_had & ~0x3FULL);
	state = amode_state(test, 6, CYCLES);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl & 0x3F, 0x3FULL);
	perfctr_x86_sim_tick(1000);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl & 0x3F, 0ULL);
	/* Every PERF_CTL still has EN: only the global bits stop them. */
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.sel[5] & EN);
	perfctr_x86_sim_tick(500);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 1000ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[5].sum, 1000ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(5), 1000ULL);
	/* An a-mode counter that wrapped: its status bit, ours to clear. */
	perfctr_x86_sim.global_status = BIT_ULL(2);
	sim_stop(test);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl, kernel_had);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_status, 0ULL);
}

static void zen4_global_discipline(struct kunit *test)
{
	/* Linux clears it at CPU start and when perf stops the PMU. */
	zen4_global_discipline_from(test, 0);
	/* Its reset value, every counter on (a kernel without V2 support). */
	zen4_global_discipline_from(test, 0x3F);
}

/* The self-test, with the global bits set, finds counters that count. */
static void zen4_selftest_counts(struct kunit *test)
{
	sim_pin(test);
	perfctr_x86_sim_reset(&sim_zen4);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 6U);
	KUNIT_EXPECT_NULL(test, perfctr_info.fallback_reason);
	/* And leaves the kernel's (cleared) global control as it found it. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl, 0ULL);
	perfctr_cpu_exit();
}

static int deliver_nmi(void)
{
	struct pt_regs regs = {};
	int ret;

	preempt_disable();
	ret = pc_nmi_handler(NMI_LOCAL, &regs);
	preempt_enable();
	return ret;
}

static void zen_ihandler(unsigned long pc)
{
}

/*
 * The NMI is ours only if GlobalStatus names one of our i-mode counters;
 * suspend clears that bit through StatusClr.
 */
static void zen4_overflow_via_global_status(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_zen4), 0);
	perfctr_cpu_set_ihandler(zen_ihandler);
	state = imode_state(test, -100);	/* a-mode pmc 0, i-mode pmc 1 */
	sim_resume(state);
	perfctr_x86_sim_tick(50);
	/* Another counter's stale status is not ours. */
	perfctr_x86_sim.global_status = BIT_ULL(0) | BIT_ULL(4);
	KUNIT_EXPECT_EQ(test, deliver_nmi(), NMI_DONE);
	perfctr_x86_sim.global_status = 0;
	perfctr_x86_sim_tick(50);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_status, BIT_ULL(1));
	KUNIT_EXPECT_EQ(test, deliver_nmi(), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U << 1);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_status, 0ULL);
	perfctr_cpu_set_ihandler(NULL);
	sim_stop(test);
}

/* Suspend and resume of a loaded six-counter state: the writes it takes. */
static unsigned int switch_writes(struct kunit *test,
				  const struct perfctr_x86_sim_model *m)
{
	struct perfctr_cpu_state *state;
	unsigned int w;

	KUNIT_ASSERT_EQ(test, sim_start(test, m), 0);
	state = amode_state(test, 6, CYCLES);
	sim_run(state, 10);			/* loaded, and stopped */
	w = perfctr_x86_sim.nr_wrmsr;
	sim_run(state, 10);
	w = perfctr_x86_sim.nr_wrmsr - w;
	KUNIT_EXPECT_EQ(test, state->pmc[5].sum, 20ULL);
	sim_stop(test);
	return w;
}

/*
 * Zen 1 stops and starts each PERF_CTL (EN): 6 + 6 writes. Zen 4 writes
 * PerfCntrGlobalCtl once each way. The figures go to the kernel log for
 * the note.
 */
static void zen4_switch_writes(struct kunit *test)
{
	unsigned int zen1 = switch_writes(test, &sim_fam15);
	unsigned int zen4 = switch_writes(test, &sim_zen4);

	KUNIT_EXPECT_EQ(test, zen1, 12U);
	KUNIT_EXPECT_EQ(test, zen4, 2U);
	kunit_info(test, "MSR writes per switch, six counters: Zen 1 %u, Zen 4 %u\n",
		   zen1, zen4);
}

/*
 * Event 003h adds SIM_WIDE_PER_CYCLE (18) a cycle in the models: the pair
 * counts them all; an even counter alone, which the driver refuses, would
 * keep only the low four bits of each cycle's (2), as the model shows.
 */
static void zen_merge_pair_counts(struct kunit *test)
{
	const struct perfctr_x86_sim_model *const *m = test->param_value;
	struct perfctr_cpu_state *state;
	struct perfctr_cpu_control *c;

	KUNIT_ASSERT_EQ(test, sim_start(test, *m), 0);
	state = sim_state(test);
	c = &state->control;
	c->nractrs = 2;
	c->pmc_map[0] = 2;
	c->evntsel[0] = EN | CPL | SIM_WIDE_EVENT;
	c->pmc_map[1] = 3;
	c->evntsel[1] = EN | 0xFF;
	c->evntsel_high[1] = 0xF;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.sel[3], MERGE_EN);
	perfctr_x86_sim_tick(1000);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 1000ULL * SIM_WIDE_PER_CYCLE);
	sim_stop(test);

	/* Alone (written past the driver): the low four bits only. */
	perfctr_x86_sim_reset(*m);
	perfctr_sim_wrmsr_safe(GLOBAL_CTL, 0x3F);	/* #GP without V2 */
	perfctr_sim_wrmsr(F15H_CTL(2), EN | CPL | SIM_WIDE_EVENT);
	perfctr_x86_sim_tick(1000);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(2),
			1000ULL * (SIM_WIDE_PER_CYCLE & 0xF));
}

static const struct perfctr_x86_sim_model *const pair_models[] = {
	&sim_fam15, &sim_zen3, &sim_zen4, &sim_hygon,
};

KUNIT_ARRAY_PARAM(pair, pair_models, sim_model_desc);

static struct kunit_case zen_test_cases[] = {
	KUNIT_CASE(zen4_detect_counts),
	KUNIT_CASE(zen4_model_needs_both_enables),
	KUNIT_CASE(zen4_model_global_status),
	KUNIT_CASE(zen4_global_discipline),
	KUNIT_CASE(zen4_selftest_counts),
	KUNIT_CASE(zen4_overflow_via_global_status),
	KUNIT_CASE(zen4_switch_writes),
	KUNIT_CASE_PARAM(zen_merge_pair_counts, pair_gen_params),
	{}
};

SUITEOF(zen_test_cases, .name = "perfctr_x86_zen", .exit = zen_exit);
