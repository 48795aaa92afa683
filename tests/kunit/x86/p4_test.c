// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the Pentium 4's ESCR map and PEBS registers, checked against
 * Intel's manual rather than the driver's tables.
 */
#include "arch_test.h"

#define C(n)	BIT(n)

/*
 * Intel SDM Vol. 3, the P4 and NetBurst Xeon table "Performance Counter
 * MSRs and Associated CCCR and ESCR MSRs", by ESCR: its MSR, the
 * ESCR_SELECT a CCCR gives to pick it, and the counters whose CCCRs can.
 * IQ_ESCR0/1 exist on models 1 and 2 only.
 */
struct p4_escr {
	const char *name;
	u16 msr;
	u8 select;
	u32 counters;
};

static const struct p4_escr sdm_escrs[] = {
	{ "BSU_ESCR0", 0x3A0, 7, C(0) | C(1) },
	{ "BSU_ESCR1", 0x3A1, 7, C(2) | C(3) },
	{ "FSB_ESCR0", 0x3A2, 6, C(0) | C(1) },
	{ "FSB_ESCR1", 0x3A3, 6, C(2) | C(3) },
	{ "FIRM_ESCR0", 0x3A4, 1, C(8) | C(9) },
	{ "FIRM_ESCR1", 0x3A5, 1, C(10) | C(11) },
	{ "FLAME_ESCR0", 0x3A6, 0, C(8) | C(9) },
	{ "FLAME_ESCR1", 0x3A7, 0, C(10) | C(11) },
	{ "DAC_ESCR0", 0x3A8, 5, C(8) | C(9) },
	{ "DAC_ESCR1", 0x3A9, 5, C(10) | C(11) },
	{ "MOB_ESCR0", 0x3AA, 2, C(0) | C(1) },
	{ "MOB_ESCR1", 0x3AB, 2, C(2) | C(3) },
	{ "PMH_ESCR0", 0x3AC, 4, C(0) | C(1) },
	{ "PMH_ESCR1", 0x3AD, 4, C(2) | C(3) },
	{ "SAAT_ESCR0", 0x3AE, 2, C(8) | C(9) },
	{ "SAAT_ESCR1", 0x3AF, 2, C(10) | C(11) },
	{ "U2L_ESCR0", 0x3B0, 3, C(8) | C(9) },
	{ "U2L_ESCR1", 0x3B1, 3, C(10) | C(11) },
	{ "BPU_ESCR0", 0x3B2, 0, C(0) | C(1) },
	{ "BPU_ESCR1", 0x3B3, 0, C(2) | C(3) },
	{ "IS_ESCR0", 0x3B4, 1, C(0) | C(1) },
	{ "IS_ESCR1", 0x3B5, 1, C(2) | C(3) },
	{ "ITLB_ESCR0", 0x3B6, 3, C(0) | C(1) },
	{ "ITLB_ESCR1", 0x3B7, 3, C(2) | C(3) },
	{ "CRU_ESCR0", 0x3B8, 4, C(12) | C(13) | C(16) },
	{ "CRU_ESCR1", 0x3B9, 4, C(14) | C(15) | C(17) },
	{ "IQ_ESCR0", 0x3BA, 0, C(12) | C(13) | C(16) },
	{ "IQ_ESCR1", 0x3BB, 0, C(14) | C(15) | C(17) },
	{ "RAT_ESCR0", 0x3BC, 2, C(12) | C(13) | C(16) },
	{ "RAT_ESCR1", 0x3BD, 2, C(14) | C(15) | C(17) },
	{ "SSU_ESCR0", 0x3BE, 3, C(12) | C(13) | C(16) },
	{ "MS_ESCR0", 0x3C0, 0, C(4) | C(5) },
	{ "MS_ESCR1", 0x3C1, 0, C(6) | C(7) },
	{ "TBPU_ESCR0", 0x3C2, 2, C(4) | C(5) },
	{ "TBPU_ESCR1", 0x3C3, 2, C(6) | C(7) },
	{ "TC_ESCR0", 0x3C4, 1, C(4) | C(5) },
	{ "TC_ESCR1", 0x3C5, 1, C(6) | C(7) },
	{ "IX_ESCR0", 0x3C8, 5, C(0) | C(1) },
	{ "IX_ESCR1", 0x3C9, 5, C(2) | C(3) },
	{ "ALF_ESCR0", 0x3CA, 1, C(12) | C(13) | C(16) },
	{ "ALF_ESCR1", 0x3CB, 1, C(14) | C(15) | C(17) },
	{ "CRU_ESCR2", 0x3CC, 5, C(12) | C(13) | C(16) },
	{ "CRU_ESCR3", 0x3CD, 5, C(14) | C(15) | C(17) },
	{ "CRU_ESCR4", 0x3E0, 6, C(12) | C(13) | C(16) },
	{ "CRU_ESCR5", 0x3E1, 6, C(14) | C(15) | C(17) },
};

/* The SDM's ESCR for counter @hw with ESCR_SELECT @sel, or NULL. */
static const struct p4_escr *sdm_escr(u32 hw, u32 sel, u8 model)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sdm_escrs); i++) {
		const struct p4_escr *e = &sdm_escrs[i];

		if (e->select != sel || !(e->counters & BIT(hw)))
			continue;
		if ((e->msr == 0x3BA || e->msr == 0x3BB) && model > 2)
			return NULL;
		return e;
	}
	return NULL;
}

static const struct perfctr_x86_sim_model *const p4_models[] = {
	&sim_p4, &sim_p4_ht,
};

KUNIT_ARRAY_PARAM(p4_model, p4_models, sim_model_desc);

/* A valid ESCR value unique to (@hw, @sel): each one is written anew. */
static u32 cell_escr(u32 hw, u32 sel)
{
	return (hw << 25) | ((sel + 1) << 9) | BIT(3) | BIT(2);
}

/*
 * Counter @hw with ESCR_SELECT @sel: accepted exactly where the SDM has
 * an ESCR, whose MSR then receives p4.escr[] at resume (X7, P4-3).
 */
static void p4_cell(struct kunit *test, struct perfctr_cpu_state *state,
		    u32 hw, u32 sel)
{
	const struct p4_escr *e = sdm_escr(hw, sel, perfctr_x86_sim.m->model);
	const struct sim_ctr ctr = {
		hw, BIT(12) | (sel << 13) | (3U << 16), 0, 0, cell_escr(hw, sel),
	};

	sim_fill_control(&state->control, 1, 1, 0, &ctr, 1);
	sim_expect_update(test, state, false, e ? 0 : -EINVAL);
	if (!e)
		return;
	KUNIT_EXPECT_EQ_MSG(test, state->p4_escr_map[0], (u32)e->msr,
			    "counter %u select %u: %s", hw, sel, e->name);
	sim_resume(state);
	KUNIT_EXPECT_EQ_MSG(test, perfctr_x86_sim.escr[e->msr - SIM_P4_ESCR0],
			    (u64)cell_escr(hw, sel),
			    "counter %u select %u: %s", hw, sel, e->name);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.sel[hw], (u64)ctr.evntsel);
	sim_suspend(state);
}

static void p4_escr_map_from_sdm(struct kunit *test)
{
	const struct perfctr_x86_sim_model *m =
		*(const struct perfctr_x86_sim_model *const *)test->param_value;
	struct perfctr_cpu_state *state = sim_start_state(test, m);
	u32 hw, sel;

	for (hw = 0; hw < 18; hw++)
		for (sel = 0; sel < 8; sel++)
			p4_cell(test, state, hw, sel);
	/* No write went to an MSR the model lacks. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
}

/*
 * SDM Vol. 3, P4 replay tagging: IA32_PEBS_ENABLE (MSR 0x3F1) bit 24
 * ENABLE_UOP_TAG with bits 0-2, 9, 10 picking the replay event;
 * MSR_PEBS_MATRIX_VERT (0x3F2) bit 0 loads, bit 1 stores.
 */
struct pebs_case {
	const char *name;
	u32 pebs_enable, matrix_vert;
};

static const struct pebs_case pebs_cases[] = {
	{ "l1-load-miss", BIT(24) | BIT(0), BIT(0) },
	{ "dtlb-all-miss", BIT(24) | BIT(10) | BIT(9), BIT(1) | BIT(0) },
	{ "l2-load-miss-store", BIT(24) | BIT(1), BIT(1) },
};

SIM_CASE_DESC(pebs_case)
KUNIT_ARRAY_PARAM(pebs, pebs_cases, pebs_case_desc);

/*
 * P4-19: resume writes the control's p4.pebs_enable and
 * p4.pebs_matrix_vert to the two MSRs; a control without them clears
 * them, and so does releasing the counters.
 */
static void p4_pebs_registers(struct kunit *test)
{
	const struct pebs_case *c = test->param_value;
	struct perfctr_cpu_state *state = sim_start_state(test, &sim_p4);
	struct perfctr_cpu_state *plain = amode_state(test, 1, 0x3);

	amode_control(test, state, 1, 0x3);
	state->control.p4.pebs_enable = c->pebs_enable;
	state->control.p4.pebs_matrix_vert = c->matrix_vert;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_resume(state);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.pebs_enable, (u64)c->pebs_enable);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.pebs_matrix_vert,
			(u64)c->matrix_vert);
	sim_suspend(state);

	sim_resume(plain);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.pebs_enable, 0ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.pebs_matrix_vert, 0ULL);
	sim_suspend(plain);

	sim_run(state, 10);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.pebs_enable, (u64)c->pebs_enable);
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.pebs_enable, 0ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.pebs_matrix_vert, 0ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
}

static struct kunit_case p4_test_cases[] = {
	KUNIT_CASE_PARAM(p4_escr_map_from_sdm, p4_model_gen_params),
	KUNIT_CASE_PARAM(p4_pebs_registers, pebs_gen_params),
	{}
};

SUITEOF(p4_test_cases,
	.name = "perfctr_x86_p4", .exit = sim_stop);
