// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: Intel architectural perfmon versions 3 to 5 and hybrids
 * (arch/x86/perfctr/arch.c) on the models of tests/sim/x86/intel.c.
 * Expected values come from the Intel SDM, order no. 325462-080US: the
 * CPUID leaves of vol. 2A and vol. 3B chapter 20 (intel.c names the
 * sections), never from the driver: a v2 counter counts only with its
 * EN and its IA32_PERF_GLOBAL_CTRL bit; IA32_PMCx writes sign-extend bit
 * 31, IA32_A_PMCx (PERF_CAPABILITIES[13]) take the whole 48 bits; v5's
 * leaf 0AH ECX adds fixed counters; EDX[15] deprecates AnyThread.
 */
#include "arch_test.h"
#include "../../../arch/x86/perfctr/x86.h"

#define FX(n)		(PERFCTR_X86_FIXED_PMC | (n))
#define ANY		BIT(21)		/* EVNTSEL AnyThread */
#define FX_ANY		0x4U		/* its fixed-counter field bit */
#define GP_OK		(EN | CPL | 0x3C)
#define W48		(BIT_ULL(48) - 1)

#define LEAF_A_EAX(version, gp)	((7U << 24) | (48U << 16) | ((gp) << 8) | (version))
#define LEAF_A_EDX(fixed)	((fixed) | (48U << 5))

static void intel_exit(struct kunit *test)
{
	sim_repin(test);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
	sim_stop(test);
}

/* One a-mode counter at @pmc with @sel: what update_control says. */
static int try_one(struct kunit *test, u32 pmc, u32 sel)
{
	struct perfctr_cpu_state *state = sim_state(test);
	struct perfctr_cpu_control *c = &state->control;

	c->tsc_on = 1;
	c->nractrs = 1;
	c->pmc_map[0] = pmc;
	c->evntsel[0] = sel;
	return perfctr_cpu_update_control(state, false);
}

/* --- The models as detected: counters, widths, full-width writes --- */

struct intel_detect_case {
	const char *name;
	const struct perfctr_x86_sim_model *m;
	u32 gp, fixed;			/* leaf 0AH, the SDM's per model */
};

static const struct intel_detect_case intel_detect_cases[] = {
	{ "skylake", &sim_skylake, 0xF, 0x7 },
	{ "sapphire-rapids", &sim_sapphire_rapids, 0xFF, 0xF },
};

SIM_CASE_DESC(intel_detect_case);
KUNIT_ARRAY_PARAM(intel_detect, intel_detect_cases, intel_detect_case_desc);

static void intel_detected(struct kunit *test)
{
	const struct intel_detect_case *c = test->param_value;

	KUNIT_ASSERT_EQ(test, sim_start(test, c->m), 0);
	KUNIT_EXPECT_STREQ(test, perfctr_info.name, "Intel architectural perfmon");
	KUNIT_EXPECT_EQ(test, pc_family.pmc_mask, c->gp);
	KUNIT_EXPECT_EQ(test, pc_family.fixed_mask, c->fixed);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, hweight32(c->gp) + hweight32(c->fixed));
	KUNIT_EXPECT_EQ(test, (unsigned int)pc_family.ctr_bits, 48U);
	KUNIT_EXPECT_EQ(test, pc_family.ctr_wr_msr, 0x4C1U);
	KUNIT_EXPECT_NULL(test, perfctr_info.core_types);
}

/* --- The models themselves fail where the hardware would --- */

/* A counter counts only with its EN and its GLOBAL_CTRL bit (20.2.2). */
static void intel_model_needs_both_enables(struct kunit *test)
{
	const struct perfctr_x86_sim_model *const *m = test->param_value;

	sim_pin(test);
	perfctr_x86_sim_reset(*m);
	perfctr_sim_wrmsr(0x38F, 0);
	perfctr_sim_wrmsr(0x186, EN | CPL | 0x3C);
	perfctr_x86_sim_tick(100);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(0), 0ULL);	/* no global */
	perfctr_sim_wrmsr(0x38F, 1);
	perfctr_sim_wrmsr(0x186, CPL | 0x3C);
	perfctr_x86_sim_tick(100);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(0), 0ULL);	/* no EN */
	perfctr_sim_wrmsr(0x186, EN | CPL | 0x3C);
	perfctr_x86_sim_tick(100);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(0), 100ULL);
	/* Fixed counter 0: its field and global bit 32. */
	perfctr_sim_wrmsr(0x38D, 0x3);
	perfctr_x86_sim_tick(10);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(FX(0)), 0ULL);
	perfctr_sim_wrmsr(0x38F, 1 | BIT_ULL(32));
	perfctr_x86_sim_tick(10);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(FX(0)), 10ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
	sim_unpin(test);
}

/* IA32_PMCx sign-extends bit 31; IA32_A_PMCx is the whole width (20.2.6). */
static void intel_model_write_widths(struct kunit *test)
{
	const struct perfctr_x86_sim_model *const *m = test->param_value;
	u64 v;

	sim_pin(test);
	perfctr_x86_sim_reset(*m);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0xC1, 0x80000000ULL), 0);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(0), 0xFFFF80000000ULL);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x4C1, 0x80000000ULL), 0);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(0), 0x80000000ULL);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x4C1, 0x123456789ABCULL), 0);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(0), 0x123456789ABCULL);
	/* Bits above the width are reserved: #GP, the counter unchanged. */
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x4C1, BIT_ULL(48)), -EIO);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(0), 0x123456789ABCULL);
	/* PERF_CAPABILITIES is read-only; its bit 13 says A_PMCx exist. */
	KUNIT_EXPECT_EQ(test, perfctr_sim_rdmsr_safe(0x345, &v), 0);
	KUNIT_EXPECT_TRUE(test, v & BIT_ULL(13));
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x345, 0), -EIO);
	sim_unpin(test);
}

/* Without PERF_CAPABILITIES[13] (arch-v2) there is no IA32_A_PMCx. */
static void intel_model_no_fw_alias(struct kunit *test)
{
	u64 v;

	sim_pin(test);
	perfctr_x86_sim_reset(&sim_arch_v2);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x4C1, 1), -EIO);
	KUNIT_EXPECT_EQ(test, perfctr_sim_rdmsr_safe(0x345, &v), -EIO);
	sim_unpin(test);
}

/* v4: STATUS_SET (391H) sets, STATUS_RESET (390H) clears, 38EH reads. */
static void intel_model_v4_status(struct kunit *test)
{
	u64 v;

	sim_pin(test);
	perfctr_x86_sim_reset(&sim_skylake);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x391, 0x5), 0);
	KUNIT_EXPECT_EQ(test, perfctr_sim_rdmsr_safe(0x38E, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x5ULL);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x390, 0x1), 0);
	KUNIT_EXPECT_EQ(test, perfctr_sim_rdmsr_safe(0x38E, &v), 0);
	KUNIT_EXPECT_EQ(test, v, 0x4ULL);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x38E, 0), -EIO);
	/* Before v4 there is no STATUS_SET. */
	perfctr_x86_sim_reset(&sim_arch_v2);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x391, 0x1), -EIO);
	sim_unpin(test);
}

/* GLOBAL_CTRL's reserved bits #GP; bit 48 only with PERF_METRICS. */
static void intel_model_global_reserved(struct kunit *test)
{
	sim_pin(test);
	perfctr_x86_sim_reset(&sim_sapphire_rapids);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x38F, BIT_ULL(48) | BIT_ULL(35)), 0);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x38F, BIT_ULL(8)), -EIO);
	perfctr_x86_sim_reset(&sim_skylake);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x38F, BIT_ULL(48)), -EIO);
	KUNIT_EXPECT_EQ(test, perfctr_sim_wrmsr_safe(0x38F, BIT_ULL(35)), -EIO);
	sim_unpin(test);
}

static const struct perfctr_x86_sim_model *const intel_models[] = {
	&sim_skylake, &sim_sapphire_rapids, &sim_alder_lake,
};

KUNIT_ARRAY_PARAM(intel_model, intel_models, sim_model_desc);

/* --- Full-width presets --- */

/* An i-mode counter at @pmc from @high:@ireset (ABI 1.1) on @m: the verdict. */
static int try_wide(struct kunit *test, const struct perfctr_x86_sim_model *m,
		    u32 pmc, s32 high, s32 ireset,
		    struct perfctr_cpu_state **out)
{
	struct perfctr_cpu_state *state;
	struct perfctr_cpu_control *c;

	state = sim_start_state(test, m);
	c = &state->control;
	perfctr_info.features |= PERFCTR_FEATURE_PCINT;
	c->tsc_on = 1;
	c->nrictrs = 1;
	c->pmc_map[0] = pmc;
	c->evntsel[0] = pc_is_fixed(pmc) ? 0xA : GP_OK | INT;
	c->ireset[0] = ireset;
	c->ireset_high[0] = high;
	*out = state;
	return perfctr_cpu_update_control(state, false);
}

/* The same, accepted and resumed. */
static struct perfctr_cpu_state *wide_at(struct kunit *test,
					 const struct perfctr_x86_sim_model *m,
					 u32 pmc, s32 high, s32 ireset)
{
	struct perfctr_cpu_state *state;

	KUNIT_ASSERT_EQ(test, try_wide(test, m, pmc, high, ireset, &state), 0);
	sim_resume(state);
	return state;
}

/* An i-mode counter at @pmc from @ireset on @m, resumed. */
static struct perfctr_cpu_state *imode_at(struct kunit *test,
					  const struct perfctr_x86_sim_model *m,
					  u32 pmc, s32 ireset)
{
	return wide_at(test, m, pmc, 0, ireset);
}

/*
 * The preset goes through IA32_A_PMC1 and fills all 48 bits: 2^48 -
 * 1000, so the counter overflows at the 1000th event, not before.
 */
static void intel_preset_full_width(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_at(test, &sim_skylake, 1, -1000);

	KUNIT_EXPECT_GE(test, perfctr_x86_sim.nr_fw_writes, 1U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), W48 - 999);
	perfctr_x86_sim_tick(999);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ovf_pending, 0U);
	perfctr_x86_sim_tick(1);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ovf_pending, BIT(1));
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U);
}

/* Without full-width writes the legacy MSR's sign extension does it. */
static void intel_preset_legacy(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_at(test, &sim_arch_v2, 1, -1000);

	KUNIT_EXPECT_EQ(test, pc_family.ctr_wr_msr, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_fw_writes, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), W48 - 999);
	sim_suspend(state);
}

/*
 * ABI 1.1: -(2^40 + 5) as ireset_high -257, ireset -5. IA32_A_PMC1 takes
 * all 48 bits, so the counter starts at 2^48 - 2^40 - 5 and overflows
 * at the (2^40 + 5)th event, which a 32-bit preset could not ask for.
 */
static void intel_wide_preset(struct kunit *test)
{
	struct perfctr_cpu_state *state = wide_at(test, &sim_skylake, 1, -257, -5);

	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), W48 - BIT_ULL(40) - 4);
	sim_tick_sampled(state, BIT_ULL(40) + 4);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ovf_pending, 0U);
	perfctr_x86_sim_tick(1);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ovf_pending, BIT(1));
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, BIT_ULL(40) + 5);
	/* Restarted whole. */
	perfctr_cpu_ireload(state);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1), W48 - BIT_ULL(40) - 4);
	sim_suspend(state);
}

/*
 * Switched out part way and back after another state used the counter:
 * resume puts back all 48 bits of where it stopped, not a 32-bit value
 * sign-extended.
 */
static void intel_wide_preset_switch(struct kunit *test)
{
	struct perfctr_cpu_state *state = wide_at(test, &sim_skylake, 1, -256, 0);

	sim_tick_sampled(state, BIT_ULL(35));
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 0U);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, BIT_ULL(35));
	perfctr_x86_sim.ctr[1] = 0xDEAD;
	perfctr_cpu_ireload(state);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_counter(1),
			BIT_ULL(48) - BIT_ULL(40) + BIT_ULL(35));
	sim_tick_sampled(state, BIT_ULL(40) - BIT_ULL(35) - 1);
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 0U);
	sim_resume(state);
	perfctr_x86_sim_tick(1);
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, BIT_ULL(40));
}

/* A fixed counter, where A_PMCx exist, is preset whole too. */
static void intel_wide_preset_fixed(struct kunit *test)
{
	struct perfctr_cpu_state *state = wide_at(test, &sim_skylake, FX(1), -2, 0);

	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.fixed[1], BIT_ULL(48) - BIT_ULL(33));
	sim_suspend(state);
}

/*
 * The rules (x86.rst, "Wide presets"), each side of each: the counter
 * must take the write, the preset be negative and no lower than -2^47
 * on a 48-bit counter, and ireset_high[] be 0 but for i-mode counters.
 */
static void intel_wide_preset_rules(struct kunit *test)
{
	struct perfctr_cpu_state *state;
	struct perfctr_cpu_control *c;

	/* v2 without PERF_CAPABILITIES[13]: legacy writes sign-extend bit 31. */
	KUNIT_EXPECT_EQ(test, try_wide(test, &sim_arch_v2, 1, -2, 0, &state), -EOPNOTSUPP);
	sim_stop(test);
	KUNIT_EXPECT_EQ(test, try_wide(test, &sim_arch_v2, 1, 0, -5, &state), 0);
	sim_stop(test);
	KUNIT_EXPECT_EQ(test, try_wide(test, &sim_skylake, 1, -32768, 0, &state), 0);
	sim_stop(test);
	KUNIT_EXPECT_EQ(test, try_wide(test, &sim_skylake, 1, -32769, -1, &state), -EINVAL);
	sim_stop(test);
	KUNIT_EXPECT_EQ(test, try_wide(test, &sim_skylake, 1, 1, -5, &state), -EINVAL);
	sim_stop(test);
	/* -1:-5 is -5: wide, and as good as the 32-bit -5. */
	KUNIT_EXPECT_EQ(test, try_wide(test, &sim_skylake, 1, -1, -5, &state), 0);
	c = &state->control;
	c->nractrs = 1;
	c->nrictrs = 0;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_update_control(state, false), -EINVAL);
	c->nractrs = 0;
	c->nrictrs = 1;
	c->ireset_high[0] = 0;
	c->ireset_high[5] = -1;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_update_control(state, false), -EINVAL);
	c->ireset_high[5] = 0;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_update_control(state, false), 0);
}

/*
 * v4: an overflow's GLOBAL_STATUS bit is cleared through STATUS_RESET
 * when the suspend finds it, and release leaves none of ours set.
 */
static void intel_v4_status_acked(struct kunit *test)
{
	struct perfctr_cpu_state *state = imode_at(test, &sim_skylake, 2, -10);

	perfctr_x86_sim_tick(10);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_status, BIT_ULL(2));
	KUNIT_EXPECT_EQ(test, sim_suspend(state), 1U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_status, 0ULL);
	/* An overflow left standing at release is ours: cleared. */
	sim_resume(state);
	perfctr_x86_sim_tick(10);
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_status, 0ULL);
	KUNIT_ASSERT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
}

/* --- AnyThread --- */

struct intel_any_case {
	const char *name;
	const struct perfctr_x86_sim_model *m;
	u32 pmc, sel;
	int expect;
};

static const struct intel_any_case intel_any_cases[] = {
	/* v2: bit 21 and fixed bit 2 are reserved. */
	{ "v2-gp-reserved", &sim_arch_v2, 0, GP_OK | ANY, -EINVAL },
	{ "v2-fixed-reserved", &sim_arch_v2, FX(0), 0x2 | FX_ANY, -EINVAL },
	{ "v2-gp-without", &sim_arch_v2, 0, GP_OK, 0 },
	/* v4 (Skylake): AnyThread works, and would count the sibling. */
	{ "v4-gp-refused", &sim_skylake, 0, GP_OK | ANY, -EPERM },
	{ "v4-fixed-refused", &sim_skylake, FX(1), 0x2 | FX_ANY, -EPERM },
	{ "v4-gp-without", &sim_skylake, 0, GP_OK, 0 },
	{ "v4-fixed-without", &sim_skylake, FX(1), 0x2, 0 },
	/* v5 with EDX[15]: deprecated. */
	{ "v5-gp-deprecated", &sim_sapphire_rapids, 7, GP_OK | ANY, -EOPNOTSUPP },
	{ "v5-fixed-deprecated", &sim_sapphire_rapids, FX(2), 0x2 | FX_ANY, -EOPNOTSUPP },
	{ "v5-gp-without", &sim_sapphire_rapids, 7, GP_OK, 0 },
};

SIM_CASE_DESC(intel_any_case);
KUNIT_ARRAY_PARAM(intel_any, intel_any_cases, intel_any_case_desc);

static void intel_anythread(struct kunit *test)
{
	const struct intel_any_case *c = test->param_value;
	struct perfctr_cpu_state *state = sim_start_state(test, c->m);

	state->control.tsc_on = 1;
	state->control.nractrs = 1;
	state->control.pmc_map[0] = c->pmc;
	state->control.evntsel[0] = c->sel;
	sim_expect_update(test, state, false, c->expect);
}

/* --- Fixed counter 3 (TOPDOWN.SLOTS) and PERF_METRICS --- */

/*
 * Sapphire Rapids' fixed counter 3 counts like the others; GLOBAL_CTRL
 * bit 48 (PERF_METRICS), which the kernel had set, is never touched.
 */
static void intel_fixed3_slots(struct kunit *test)
{
	struct perfctr_cpu_state *state = sim_start_state(test, &sim_sapphire_rapids);
	struct perfctr_cpu_control *c = &state->control;

	perfctr_cpu_release(SIM_SERVICE);
	perfctr_x86_sim.global_ctrl = BIT_ULL(48);
	KUNIT_ASSERT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
	c->tsc_on = 1;
	c->nractrs = 1;
	c->pmc_map[0] = FX(3);
	c->evntsel[0] = 0x2;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_resume(state);
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.global_ctrl & BIT_ULL(48));
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.global_ctrl & BIT_ULL(35));
	perfctr_x86_sim_tick(500);
	sim_suspend(state);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 500ULL);
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.global_ctrl & BIT_ULL(48));
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.global_ctrl, BIT_ULL(48));
	KUNIT_ASSERT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
}

/* Skylake has fixed counters 0-2 only; Sapphire Rapids none past 3. */
static void intel_fixed3_absent(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_skylake), 0);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(3), 0x2), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(2), 0x2), 0);
	sim_stop(test);
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_sapphire_rapids), 0);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(4), 0x2), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(3), 0x2), 0);
}

/* --- v5 leaf 0AH ECX and leaf 23H bitmaps --- */

/* Every online CPU answers leaf 0AH with @eax, @ecx, @edx. */
static void start_leaf_a5(struct kunit *test, u32 eax, u32 ecx, u32 edx)
{
	unsigned int cpu;

	sim_pin(test);
	perfctr_x86_sim_reset(&sim_sapphire_rapids);
	for_each_online_cpu(cpu)
		perfctr_x86_sim_set_leaf_a5(cpu, eax, ecx, edx);
	KUNIT_ASSERT_EQ(test, sim_bring_up(test), 0);
}

/* v5: fixed counter 3 from ECX alone, with EDX[4:0] saying 1. */
static void intel_v5_fixed_bitmap(struct kunit *test)
{
	start_leaf_a5(test, LEAF_A_EAX(5, 4), 0x8, LEAF_A_EDX(1));
	KUNIT_EXPECT_EQ(test, pc_family.fixed_mask, 0x9U);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 4U + 2U);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(3), 0x2), 0);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(0), 0x2), 0);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(1), 0x2), -EINVAL);
}

/* Before v5, ECX is reserved: it adds nothing. */
static void intel_v4_ecx_ignored(struct kunit *test)
{
	start_leaf_a5(test, LEAF_A_EAX(4, 4), 0x8, LEAF_A_EDX(1));
	KUNIT_EXPECT_EQ(test, pc_family.fixed_mask, 0x1U);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(3), 0x2), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(0), 0x2), 0);
}

/*
 * A CPU coming online must have the offered counters themselves, not
 * just as many: fixed 0 and 3 offered, a CPU with fixed 0-1 is refused.
 */
static void intel_v5_online_bitmap(struct kunit *test)
{
	unsigned int cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());
	char why[256] = "";

	if (cpu >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	start_leaf_a5(test, LEAF_A_EAX(5, 4), 0x8, LEAF_A_EDX(1));
	perfctr_x86_sim_set_leaf_a5(cpu, LEAF_A_EAX(5, 4), 0x0, LEAF_A_EDX(2));
	KUNIT_EXPECT_EQ(test, pc_family.check_cpu(cpu, why, sizeof(why)), -EBUSY);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, "fixed 0x3"), "why: %s", why);
	perfctr_x86_sim_set_leaf_a5(cpu, LEAF_A_EAX(5, 4), 0x8, LEAF_A_EDX(2));
	KUNIT_EXPECT_EQ(test, pc_family.check_cpu(cpu, why, sizeof(why)), 0);
}

/* A v5 part with leaf 23H: general-purpose counters 0 and 2 only. */
static const struct perfctr_x86_sim_model sim_leaf23 = {
	.name = "leaf23", .vendor = X86_VENDOR_INTEL, .family = 6,
	.model = 0xAD, .has_tsc = true, .cpuid_level = 0x23,
	.cpuid_a_eax = LEAF_A_EAX(5, 2), .nr_fixed = 1,
	.leaf23_gp = 0x5, .leaf23_fixed = 0x3, .kind = SIM_ARCH,
	.pmc_mask = 0x5, .sel_msr = 0x186, .ctr_msr = 0xC1, .stride = 1,
	.width = 48, .sext31 = true,
};

static void intel_leaf23_bitmaps(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_leaf23), 0);
	KUNIT_EXPECT_EQ(test, pc_family.pmc_mask, 0x5U);
	KUNIT_EXPECT_EQ(test, pc_family.fixed_mask, 0x3U);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 4U);
	KUNIT_EXPECT_EQ(test, try_one(test, 1, GP_OK), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(2), 0x2), -EINVAL);
	state = sim_state(test);
	state->control.nractrs = 1;
	state->control.pmc_map[0] = 2;
	state->control.evntsel[0] = GP_OK;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_run(state, 300);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, 300ULL);
}

/* --- Hybrid: Alder Lake, P-cores even, E-cores odd --- */

static void need_two_cpus(struct kunit *test)
{
	if (!cpu_online(0) || !cpu_online(1))
		kunit_skip(test, "needs CPUs 0 and 1 online");
}

/* What both core types have is offered; info names each type. */
static void intel_hybrid_offer(struct kunit *test)
{
	const char *t;

	need_two_cpus(test);
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_alder_lake), 0);
	KUNIT_EXPECT_EQ(test, pc_family.pmc_mask, 0x3FU);
	KUNIT_EXPECT_EQ(test, pc_family.fixed_mask, 0x7U);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 6U + 3U);
	t = perfctr_info.core_types;
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(t, "P-core (Core) 0x40 cpus 0"), "%s", t);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(t, "general-purpose 0xff, fixed 0xf"), "%s", t);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(t, "E-core (Atom) 0x20 cpus 1"), "%s", t);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(t, "general-purpose 0x3f, fixed 0x7"), "%s", t);
}

/*
 * More than the intersection: a counter only the P-cores have is
 * -EOPNOTSUPP, one no core has -EINVAL, one all have is accepted.
 */
static void intel_hybrid_beyond(struct kunit *test)
{
	need_two_cpus(test);
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_alder_lake), 0);
	KUNIT_EXPECT_EQ(test, try_one(test, 5, GP_OK), 0);
	KUNIT_EXPECT_EQ(test, try_one(test, 6, GP_OK), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, try_one(test, 7, GP_OK), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, try_one(test, 8, GP_OK), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(2), 0x2), 0);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(3), 0x2), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, try_one(test, FX(4), 0x2), -EINVAL);
	/* AnyThread is deprecated on both. */
	KUNIT_EXPECT_EQ(test, try_one(test, 0, GP_OK | ANY), -EOPNOTSUPP);
}

/* Each core type's CPU runs its own part: an E-core has no PMC6. */
static void intel_hybrid_parts(struct kunit *test)
{
	KUNIT_EXPECT_PTR_EQ(test, perfctr_x86_sim_part(&sim_alder_lake, 0), &sim_alder_lake);
	KUNIT_EXPECT_PTR_EQ(test, perfctr_x86_sim_part(&sim_alder_lake, 1), &sim_alder_lake_e);
	KUNIT_EXPECT_PTR_EQ(test, perfctr_x86_sim_part(&sim_skylake, 1), &sim_skylake);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim_fixed_mask(&sim_alder_lake_e), 0x7U);
}

/* The hybrid counts on the counters it offers, wherever it runs. */
static void intel_hybrid_counts(struct kunit *test)
{
	struct perfctr_cpu_state *state;

	need_two_cpus(test);
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_alder_lake), 0);
	state = amode_state(test, 6, 0x3C);
	sim_run(state, 700);
	KUNIT_EXPECT_EQ(test, state->pmc[5].sum, 700ULL);
}

/*
 * perf's counts left on @cpu's counters at @pmcs (fixed n as 24 + n):
 * what reserving the hybrid leaves there.
 */
static void hybrid_leftovers(struct kunit *test, unsigned int cpu, u32 pmcs)
{
	unsigned long left = pmcs;
	unsigned int bit;

	if (!cpu_online(cpu))
		kunit_skip(test, "needs CPU %u online", cpu);
	KUNIT_ASSERT_EQ(test, set_cpus_allowed_ptr(current, cpumask_of(cpu)), 0);
	sim_pin(test);
	sim_reset(&sim_alder_lake);
	for_each_set_bit(bit, &left, 32) {
		if (bit < 24)
			perfctr_x86_sim.ctr[bit] = 0xC0FFEE;
		else
			perfctr_x86_sim.fixed[bit - 24] = 0xC0FFEE;
	}
	perfctr_x86_sim.perf_metrics = 0x1F2F3F4FULL;
	KUNIT_ASSERT_EQ(test, sim_bring_up(test), 0);
}

/*
 * A P-core's PMC6, PMC7 and fixed counter 3 are no set's (the E-cores
 * lack them), yet a set's owner may RDPMC them: reserving zeroes them.
 */
static void intel_hybrid_scrubs_extra(struct kunit *test)
{
	hybrid_leftovers(test, 0, BIT(6) | BIT(7) | BIT(24 + 3));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.perf_metrics, 0ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ctr[6], 0ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.ctr[7], 0ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.fixed[3], 0ULL);
	/* Zeroed, not taken: no control may name them. */
	KUNIT_EXPECT_EQ(test, try_one(test, 6, GP_OK), -EOPNOTSUPP);
}

/*
 * An E-core has nothing beyond the offer: reserving there touches no
 * register it lacks (a #GP on the hardware, nr_bad here).
 */
static void intel_hybrid_ecore_in_range(struct kunit *test)
{
	hybrid_leftovers(test, 1, 0);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
	KUNIT_EXPECT_EQ(test, try_one(test, 5, GP_OK), 0);
}

static struct kunit_case intel_test_cases[] = {
	KUNIT_CASE_PARAM(intel_detected, intel_detect_gen_params),
	KUNIT_CASE_PARAM(intel_model_needs_both_enables, intel_model_gen_params),
	KUNIT_CASE_PARAM(intel_model_write_widths, intel_model_gen_params),
	KUNIT_CASE(intel_model_no_fw_alias),
	KUNIT_CASE(intel_model_v4_status),
	KUNIT_CASE(intel_model_global_reserved),
	KUNIT_CASE(intel_preset_full_width),
	KUNIT_CASE(intel_preset_legacy),
	KUNIT_CASE(intel_wide_preset),
	KUNIT_CASE(intel_wide_preset_switch),
	KUNIT_CASE(intel_wide_preset_fixed),
	KUNIT_CASE(intel_wide_preset_rules),
	KUNIT_CASE(intel_v4_status_acked),
	KUNIT_CASE_PARAM(intel_anythread, intel_any_gen_params),
	KUNIT_CASE(intel_fixed3_slots),
	KUNIT_CASE(intel_fixed3_absent),
	KUNIT_CASE(intel_v5_fixed_bitmap),
	KUNIT_CASE(intel_v4_ecx_ignored),
	KUNIT_CASE(intel_v5_online_bitmap),
	KUNIT_CASE(intel_leaf23_bitmaps),
	KUNIT_CASE(intel_hybrid_offer),
	KUNIT_CASE(intel_hybrid_beyond),
	KUNIT_CASE(intel_hybrid_parts),
	KUNIT_CASE(intel_hybrid_counts),
	KUNIT_CASE(intel_hybrid_scrubs_extra),
	KUNIT_CASE(intel_hybrid_ecore_in_range),
	{}
};

SUITEOF(intel_test_cases,
	.name = "perfctr_x86_intel", .exit = intel_exit);
