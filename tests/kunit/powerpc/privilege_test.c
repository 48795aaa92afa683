// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: perfctr_cpu_counts_kernel() on every ppc32 family. Each case is
 * a control the family accepts; the predicate must say whether its
 * counters can count in supervisor state. MMCR0 bit 1 (0x40000000 in
 * the manuals' MSB-0 numbering) stops every counter while MSR[PR] = 0:
 * FCS on the 750 and 74xx (MPC750, MPC7400 and MPC7450 user's manuals),
 * DP on the 604 and 604e (PowerPC 604 user's manual). Bit 2 (FCP, DU)
 * stops them in problem state (user mode) and does not keep the kernel
 * out.
 */
#include "arch_test.h"

#define FCS	0x40000000U
#define FCP	0x20000000U
#define IM	(PMXE | PMCNCE)		/* i-mode on PMC2-PMC6 */

struct priv_case {
	const char *name;
	const struct perfctr_ppc_sim_model *model;
	u32 tsc_on, nractrs, nrictrs;
	u32 mmcr0;
	struct sim_ctr c[2];
	bool kernel;		/* expected perfctr_cpu_counts_kernel() */
};

static const struct priv_case priv_cases[] = {
	/* Generic: the timebase only, which counts no events. */
	{ "generic-tb-only", &sim_ppc_603e, 1, 0, 0, .kernel = false },
	{ "750-tb-only", &sim_ppc_750, 1, 0, 0, .kernel = false },
	{ "604-fcs", &sim_ppc_604, 1, 1, 0, FCS, .c = { { 0, 1 } }, .kernel = false },
	{ "604-fcs-fcp", &sim_ppc_604, 1, 2, 0, FCS | FCP,
	  .c = { { 0, 1 }, { 1, 1 } }, .kernel = false },
	{ "604-no-fcs", &sim_ppc_604, 1, 1, 0, 0, .c = { { 1, 1 } }, .kernel = true },
	{ "604-fcp", &sim_ppc_604, 1, 1, 0, FCP, .c = { { 1, 1 } }, .kernel = true },
	{ "604-imode-fcs", &sim_ppc_604, 1, 0, 1, IM | FCS,
	  .c = { { 1, 1, 0 } }, .kernel = false },
	{ "604-imode-no-fcs", &sim_ppc_604, 1, 0, 1, IM,
	  .c = { { 1, 1, 0 } }, .kernel = true },
	{ "604e-fcs", &sim_ppc_604e, 1, 1, 0, FCS, .c = { { 3, 1 } }, .kernel = false },
	{ "604e-no-fcs", &sim_ppc_604e, 1, 1, 0, 0, .c = { { 3, 1 } }, .kernel = true },
	{ "750-fcs", &sim_ppc_750, 1, 1, 0, FCS, .c = { { 2, 1 } }, .kernel = false },
	{ "750-no-fcs", &sim_ppc_750, 1, 1, 0, FCP, .c = { { 2, 1 } }, .kernel = true },
	{ "750gx-imode-fcs", &sim_ppc_750gx, 1, 1, 1, IM | FCS,
	  .c = { { 0, 1 }, { 1, 1, 0 } }, .kernel = false },
	{ "750gx-imode-no-fcs", &sim_ppc_750gx, 1, 1, 1, IM,
	  .c = { { 0, 1 }, { 1, 1, 0 } }, .kernel = true },
	{ "7400-fcs", &sim_ppc_7400, 1, 1, 0, FCS, .c = { { 3, 1 } }, .kernel = false },
	{ "7400-no-fcs", &sim_ppc_7400, 1, 1, 0, 0, .c = { { 3, 1 } }, .kernel = true },
	{ "7450-fcs", &sim_ppc_7450, 1, 1, 0, FCS, .c = { { 5, 1 } }, .kernel = false },
	{ "7450-no-fcs", &sim_ppc_7450, 1, 1, 0, 0, .c = { { 5, 1 } }, .kernel = true },
	{ "7450-imode-fcs", &sim_ppc_7450, 1, 0, 1, IM | FCS,
	  .c = { { 4, 1, 100 } }, .kernel = false },
	{ "7450-imode-no-fcs", &sim_ppc_7450, 1, 0, 1, IM,
	  .c = { { 4, 1, 100 } }, .kernel = true },
};

SIM_CASE_DESC(priv_case)
KUNIT_ARRAY_PARAM(priv, priv_cases, priv_case_desc);

static void ppc_counts_kernel(struct kunit *test)
{
	const struct priv_case *c = test->param_value;
	struct perfctr_cpu_state *state = sim_case_state(test, c);

	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	KUNIT_EXPECT_EQ(test, perfctr_cpu_counts_kernel(state), c->kernel);
}

static struct kunit_case privilege_test_cases[] = {
	KUNIT_CASE_PARAM(ppc_counts_kernel, priv_gen_params),
	{}
};

SUITEOF(privilege_test_cases,
	.name = "perfctr_ppc_privilege", .exit = sim_stop);
