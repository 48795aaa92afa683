// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: every control rule of the ppc32 drivers, each with accepting
 * and rejecting cases (Documentation/perfctr/ppc32.rst lists them). A
 * rejected control must leave the state exactly as it was.
 */
#include "arch_test.h"

struct rule_case {
	const char *name;
	const struct perfctr_ppc_sim_model *model;
	u32 tsc_on, nractrs, nrictrs;
	u32 mmcr0, mmcr2;
	struct sim_ctr c[7];
	bool is_global;		/* ignored on ppc32 */
	u32 reserved;		/* written to _reserved[3] */
	int expect;
};

#define OK 0
#define BAD -EINVAL
#define IM	(PMXE | PMCNCE)		/* i-mode on PMC2-PMC6 */

static const struct rule_case rule_cases[] = {
	/* Rules common to every family. */
	{ "750-tsc-only", &sim_ppc_750, 1, 0, 0, .expect = OK },
	{ "750-nothing", &sim_ppc_750, 0, 0, 0, .expect = OK },
	{ "750-tsc-on-2", &sim_ppc_750, 2, 0, 0, .expect = BAD },
	{ "750-reserved", &sim_ppc_750, 1, 0, 0, .reserved = 1, .expect = BAD },
	{ "750-nractrs-huge", &sim_ppc_750, 1, 0x80000001, 0, .expect = BAD },
	/* Counter numbers 0-5 (never SPR numbers), as many as the CPU has. */
	{ "604-two", &sim_ppc_604, 1, 2, 0, .c = { { 0, 1 }, { 1, 1 } }, .expect = OK },
	{ "604-three", &sim_ppc_604, 1, 3, 0,
	  .c = { { 0, 1 }, { 1, 1 }, { 2, 1 } }, .expect = BAD },
	{ "604-map2", &sim_ppc_604, 1, 1, 0, .c = { { 2, 1 } }, .expect = BAD },
	{ "604e-four", &sim_ppc_604e, 1, 4, 0,
	  .c = { { 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 } }, .expect = OK },
	{ "750-four", &sim_ppc_750, 1, 4, 0,
	  .c = { { 3, 1 }, { 2, 1 }, { 1, 1 }, { 0, 1 } }, .expect = OK },
	{ "750-five", &sim_ppc_750, 1, 5, 0,
	  .c = { { 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 } }, .expect = BAD },
	{ "750-map4", &sim_ppc_750, 1, 1, 0, .c = { { 4, 1 } }, .expect = BAD },
	{ "750-spr-number", &sim_ppc_750, 1, 1, 0, .c = { { 953, 1 } }, .expect = BAD },
	{ "750-same-map", &sim_ppc_750, 1, 2, 0, .c = { { 1, 1 }, { 1, 2 } }, .expect = BAD },
	{ "7400-four", &sim_ppc_7400, 1, 4, 0,
	  .c = { { 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 } }, .expect = OK },
	{ "7400-map4", &sim_ppc_7400, 1, 1, 0, .c = { { 4, 1 } }, .expect = BAD },
	{ "7450-six", &sim_ppc_7450, 1, 6, 0,
	  .c = { { 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 } },
	  .expect = OK },
	{ "7450-seven", &sim_ppc_7450, 1, 7, 0,
	  .c = { { 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 1 }, { 5, 1 },
		 { 5, 1 } },
	  .expect = BAD },
	{ "7450-map6", &sim_ppc_7450, 1, 1, 0, .c = { { 6, 1 } }, .expect = BAD },
	/* Each PMCnSEL field's width: 7, 6, 5, 5, 5 and 6 bits. */
	{ "750-pmc1sel-7bit", &sim_ppc_750, 0, 1, 0, .c = { { 0, 0x7F } }, .expect = OK },
	{ "750-pmc1sel-8bit", &sim_ppc_750, 0, 1, 0, .c = { { 0, 0x80 } }, .expect = BAD },
	{ "750-pmc2sel-6bit", &sim_ppc_750, 0, 1, 0, .c = { { 1, 0x3F } }, .expect = OK },
	{ "750-pmc2sel-7bit", &sim_ppc_750, 0, 1, 0, .c = { { 1, 0x40 } }, .expect = BAD },
	{ "750-pmc3sel-5bit", &sim_ppc_750, 0, 1, 0, .c = { { 2, 0x1F } }, .expect = OK },
	{ "750-pmc3sel-6bit", &sim_ppc_750, 0, 1, 0, .c = { { 2, 0x20 } }, .expect = BAD },
	{ "750-pmc4sel-5bit", &sim_ppc_750, 0, 1, 0, .c = { { 3, 0x1F } }, .expect = OK },
	{ "750-pmc4sel-high", &sim_ppc_750, 0, 1, 0,
	  .c = { { 3, 0x80000001 } }, .expect = BAD },
	{ "7450-pmc5sel-5bit", &sim_ppc_7450, 0, 1, 0, .c = { { 4, 0x1F } }, .expect = OK },
	{ "7450-pmc5sel-6bit", &sim_ppc_7450, 0, 1, 0, .c = { { 4, 0x20 } }, .expect = BAD },
	{ "7450-pmc6sel-6bit", &sim_ppc_7450, 0, 1, 0, .c = { { 5, 0x3F } }, .expect = OK },
	{ "7450-pmc6sel-7bit", &sim_ppc_7450, 0, 1, 0, .c = { { 5, 0x40 } }, .expect = BAD },
	/* control.ppc.mmcr0: PMC1SEL/PMC2SEL reserved, FC the driver's. */
	{ "750-mmcr0-fcs-fcp", &sim_ppc_750, 1, 1, 0, .mmcr0 = 0x60000000,
	  .c = { { 0, 1 } }, .expect = OK },
	{ "750-mmcr0-threshold", &sim_ppc_750, 1, 1, 0, .mmcr0 = 0x003F0000,
	  .c = { { 0, 1 } }, .expect = OK },
	{ "750-mmcr0-pmc1sel", &sim_ppc_750, 1, 1, 0, .mmcr0 = 0x00000040,
	  .c = { { 0, 1 } }, .expect = BAD },
	{ "750-mmcr0-pmc2sel", &sim_ppc_750, 1, 1, 0, .mmcr0 = 0x00000001,
	  .c = { { 0, 1 } }, .expect = BAD },
	{ "750-mmcr0-pmcsel-all", &sim_ppc_750, 1, 0, 0, .mmcr0 = 0x00001FFF,
	  .expect = BAD },
	{ "750-mmcr0-fc", &sim_ppc_750, 1, 1, 0, .mmcr0 = FC,
	  .c = { { 0, 1 } }, .expect = BAD },
	/* TBEE refused; its neighbour TBSEL alone does nothing and is fine. */
	{ "750-mmcr0-tbsel", &sim_ppc_750, 1, 1, 0, .mmcr0 = 0x01800000,
	  .c = { { 0, 1 } }, .expect = OK },
	{ "750-mmcr0-tbee", &sim_ppc_750, 1, 1, 0, .mmcr0 = TBEE,
	  .c = { { 0, 1 } }, .expect = BAD },
	{ "7450-tbee-fcece", &sim_ppc_7450, 1, 1, 0, .mmcr0 = TBEE | FCECE,
	  .c = { { 0, 1 } }, .expect = BAD },
	{ "7450-tbee-imode", &sim_ppc_7450, 1, 0, 1, .mmcr0 = IM | TBEE,
	  .c = { { 1, 1, 0 } }, .expect = BAD },
	{ "7450-fcece", &sim_ppc_7450, 1, 1, 0, .mmcr0 = FCECE,
	  .c = { { 0, 1 } }, .expect = OK },
	{ "7450-trigger", &sim_ppc_7450, 1, 2, 0, .mmcr0 = TRIGGER,
	  .c = { { 0, 1 }, { 1, 1 } }, .expect = OK },
	/* i-mode: ireset in [0, 0x7fffffff], PMXE and the condition on. */
	{ "750gx-imode", &sim_ppc_750gx, 1, 1, 1, .mmcr0 = IM,
	  .c = { { 0, 1 }, { 1, 1, 0x7FFFFF00 } }, .expect = OK },
	{ "750gx-imode-ireset-0", &sim_ppc_750gx, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = OK },
	{ "750gx-imode-ireset-max", &sim_ppc_750gx, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 2, 1, 0x7FFFFFFF } }, .expect = OK },
	{ "750gx-imode-ireset-negative", &sim_ppc_750gx, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, -1 } }, .expect = BAD },
	{ "750gx-imode-ireset-min", &sim_ppc_750gx, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, (s32)0x80000000 } }, .expect = BAD },
	{ "750gx-amode-ireset-ignored", &sim_ppc_750gx, 1, 1, 0,
	  .c = { { 1, 1, -1 } }, .expect = OK },
	{ "750gx-imode-no-pmxe", &sim_ppc_750gx, 1, 0, 1, .mmcr0 = PMCNCE,
	  .c = { { 1, 1, 0 } }, .expect = BAD },
	{ "750gx-pmxe-without-imode", &sim_ppc_750gx, 1, 1, 0, .mmcr0 = PMXE,
	  .c = { { 1, 1 } }, .expect = BAD },
	{ "750gx-imode-no-condition", &sim_ppc_750gx, 1, 0, 1, .mmcr0 = PMXE,
	  .c = { { 1, 1, 0 } }, .expect = BAD },
	{ "750gx-imode-pmc1", &sim_ppc_750gx, 1, 0, 1, .mmcr0 = PMXE | PMC1CE,
	  .c = { { 0, 1, 0 } }, .expect = OK },
	{ "750gx-imode-pmc1-wrong-condition", &sim_ppc_750gx, 1, 0, 1,
	  .mmcr0 = PMXE | PMCNCE, .c = { { 0, 1, 0 } }, .expect = BAD },
	{ "750gx-imode-pmc1-and-pmc3", &sim_ppc_750gx, 1, 0, 2,
	  .mmcr0 = PMXE | PMC1CE | PMCNCE,
	  .c = { { 0, 1, 0 }, { 2, 1, 0 } }, .expect = OK },
	{ "750gx-imode-pmc1-and-pmc3-one-condition", &sim_ppc_750gx, 1, 0, 2,
	  .mmcr0 = PMXE | PMC1CE, .c = { { 0, 1, 0 }, { 2, 1, 0 } },
	  .expect = BAD },
	{ "750gx-amode-pmc1-imode-pmc2", &sim_ppc_750gx, 1, 1, 1, .mmcr0 = IM,
	  .c = { { 0, 1 }, { 1, 1, 0 } }, .expect = OK },
	{ "750gx-condition-covers-amode", &sim_ppc_750gx, 1, 1, 1, .mmcr0 = IM,
	  .c = { { 2, 1 }, { 1, 1, 0 } }, .expect = BAD },
	{ "750gx-pmc1ce-on-amode", &sim_ppc_750gx, 1, 1, 1,
	  .mmcr0 = IM | PMC1CE, .c = { { 0, 1 }, { 1, 1, 0 } }, .expect = BAD },
	/*
	 * Only PCINT decides: one valid i-mode control, refused where the
	 * errata rule the overflow interrupt out.
	 */
	{ "750-imode-no-pcint", &sim_ppc_750, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = BAD },
	{ "750cxe-imode-no-pcint", &sim_ppc_750cxe, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = BAD },
	{ "750fx-dd2.2-imode", &sim_ppc_750fx_dd22, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = BAD },
	{ "750fx-dd2.3-imode", &sim_ppc_750fx, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = OK },
	{ "7400-imode-no-pcint", &sim_ppc_7400, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = BAD },
	{ "7410-r1.2-imode", &sim_ppc_7410_r12, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = BAD },
	{ "7410-r1.3-imode", &sim_ppc_7410, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = OK },
	{ "604-imode", &sim_ppc_604, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = OK },
	{ "604e-imode", &sim_ppc_604e, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 3, 1, 0 } }, .expect = OK },
	/* is_global plays no part: the same verdicts either way. */
	{ "750gx-imode-global", &sim_ppc_750gx, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .is_global = true, .expect = OK },
	{ "750gx-pmxe-without-imode-global", &sim_ppc_750gx, 1, 1, 0,
	  .mmcr0 = PMXE, .c = { { 1, 1 } }, .is_global = true, .expect = BAD },
	{ "750-imode-no-pcint-global", &sim_ppc_750, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .is_global = true, .expect = BAD },
	{ "7450-imode-pmc6", &sim_ppc_7450, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 5, 1, 100 } }, .expect = OK },
	/* control.ppc.mmcr2: THRESHMULT only, 74xx only. */
	{ "7450-threshmult", &sim_ppc_7450, 1, 1, 0, .mmcr2 = 0x80000000,
	  .c = { { 0, 1 } }, .expect = OK },
	{ "7400-threshmult", &sim_ppc_7400, 1, 1, 0, .mmcr2 = 0x80000000,
	  .c = { { 0, 1 } }, .expect = OK },
	{ "7450-mmcr2-other", &sim_ppc_7450, 1, 1, 0, .mmcr2 = 0x40000000,
	  .c = { { 0, 1 } }, .expect = BAD },
	{ "750-threshmult", &sim_ppc_750, 1, 1, 0, .mmcr2 = 0x80000000,
	  .c = { { 0, 1 } }, .expect = BAD },
	{ "604-threshmult", &sim_ppc_604, 1, 1, 0, .mmcr2 = 0x80000000,
	  .c = { { 0, 1 } }, .expect = BAD },
	/* Generic: the timebase or nothing (an empty control), no more. */
	{ "603e-tsc", &sim_ppc_603e, 1, 0, 0, .expect = OK },
	{ "603e-empty", &sim_ppc_603e, 0, 0, 0, .expect = OK },
	{ "603e-tsc_on-2", &sim_ppc_603e, 2, 0, 0, .expect = BAD },
	{ "603e-counter", &sim_ppc_603e, 1, 1, 0, .c = { { 0, 1 } }, .expect = BAD },
	{ "603e-imode", &sim_ppc_603e, 1, 0, 1, .mmcr0 = IM,
	  .c = { { 1, 1, 0 } }, .expect = BAD },
	{ "603e-mmcr0", &sim_ppc_603e, 1, 0, 0, .mmcr0 = 0x60000000, .expect = BAD },
	{ "603e-mmcr2", &sim_ppc_603e, 1, 0, 0, .mmcr2 = 0x80000000, .expect = BAD },
	{ "qemu-7450-falls-back", &sim_ppc_qemu_7450, 1, 1, 0,
	  .c = { { 0, 1 } }, .expect = BAD },
	{ "qemu-7450-tsc", &sim_ppc_qemu_7450, 1, 0, 0, .expect = OK },
};

SIM_CASE_DESC(rule_case)
KUNIT_ARRAY_PARAM(rule, rule_cases, rule_case_desc);

static void ppc_rule(struct kunit *test)
{
	const struct rule_case *c = test->param_value;
	struct perfctr_cpu_state *state = sim_case_state(test, c);
	unsigned int writes;

	state->control.ppc.mmcr2 = c->mmcr2;
	state->control._reserved[3] = c->reserved;
	writes = sim_reg_writes();
	sim_expect_update(test, state, c->is_global, c->expect);
	/* Validation is pure: no register is touched. */
	KUNIT_EXPECT_EQ(test, sim_reg_writes(), writes);
}

/* The MMCRs a valid control computes: selects in place, globals kept. */
static void ppc_rule_mmcr_layout(struct kunit *test)
{
	struct perfctr_cpu_state *state = sim_state(test);
	struct perfctr_cpu_control *c = &state->control;
	static const u32 sel[6] = { 0x7F, 0x3F, 0x1F, 0x11, 0x0A, 0x2C };
	unsigned int i;

	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_ppc_7450), 0);
	c->tsc_on = 1;
	c->nractrs = 6;
	for (i = 0; i < 6; i++) {
		c->pmc_map[i] = 5 - i;
		c->evntsel[i] = sel[5 - i];
	}
	c->ppc.mmcr0 = 0x60000000;
	c->ppc.mmcr2 = 0x80000000;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	KUNIT_EXPECT_EQ(test, state->ppc_mmcr[0],
			0x60000000U | (0x7FU << 6) | 0x3FU);
	KUNIT_EXPECT_EQ(test, state->ppc_mmcr[1],
			(0x1FU << 27) | (0x11U << 22) | (0x0AU << 17) |
			(0x2CU << 11));
	KUNIT_EXPECT_EQ(test, state->ppc_mmcr[2], 0x80000000U);
	for (i = 0; i < 6; i++)
		KUNIT_EXPECT_EQ(test, state->pmc[i].map, 5 - i);
	KUNIT_EXPECT_EQ(test, state->cstatus, perfctr_mk_cstatus(1, 6, 0));
}

static struct kunit_case rules_test_cases[] = {
	KUNIT_CASE_PARAM(ppc_rule, rule_gen_params),
	KUNIT_CASE(ppc_rule_mmcr_layout),
	{}
};

SUITEOF(rules_test_cases,
	.name = "perfctr_ppc_rules", .exit = sim_stop);
