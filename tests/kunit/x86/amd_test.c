// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: what AMD counters count with the per-event features of
 * PERF_CTL (counter mask, invert, edge, EventSelect[11:8], GuestOnly and
 * HostOnly), through the driver, on the simulated K7, K8, family 10h and
 * core-extension (zen) models. The expected counts come from the
 * model's documented pattern (testing.rst, "The AMD pattern event"):
 * event 0FFh occurs 0, 1, 2, 3 times in cycles 0, 1, 2, 3 mod 4, every
 * other event once a cycle; and from the manuals' rules for CntMask, Inv
 * and Edge (amd.rst). The simulated CPU has SVM off.
 */
#include "arch_test.h"

#define PAT	0xFFU			/* the pattern event, bits 7:0 */
#define EDGE	0x00040000U		/* bit 18 */
#define INV	0x00800000U		/* bit 23 */
#define CMASK(n)	((u32)(n) << 24)	/* bits 31:24 */
#define GUEST	0x100U			/* evntsel_high bit 8: bit 40 */
#define HOST	0x200U			/* evntsel_high bit 9: bit 41 */

struct pattern_case {
	const char *name;
	const struct perfctr_x86_sim_model *model;
	u32 evntsel, high;
	u32 first, gap, second;	/* cycles counted, not counted, counted */
	u64 expect;
};

/*
 * From cycle 0: 1000 cycles are 250 periods of 0, 1, 2, 3 occurrences
 * (6 a period). A split run counts cycles 0-2 and 5-1003 (1002-1003:
 * phases 2 and 3).
 */
static const struct pattern_case pattern_cases[] = {
	{ "k7-all", &sim_k7, EN | CPL | PAT, 0, 1000, 0, 0, 1500 },
	{ "k7-cmask1", &sim_k7, EN | CPL | CMASK(1) | PAT, 0, 1000, 0, 0, 750 },
	{ "k7-cmask2", &sim_k7, EN | CPL | CMASK(2) | PAT, 0, 1000, 0, 0, 500 },
	{ "k7-cmask3", &sim_k7, EN | CPL | CMASK(3) | PAT, 0, 1000, 0, 0, 250 },
	{ "k7-cmask4", &sim_k7, EN | CPL | CMASK(4) | PAT, 0, 1000, 0, 0, 0 },
	{ "k7-cmask255", &sim_k7, EN | CPL | CMASK(255) | PAT, 0, 1000, 0, 0, 0 },
	{ "k7-cmask1-inv", &sim_k7, EN | CPL | CMASK(1) | INV | PAT, 0, 1000, 0, 0, 250 },
	{ "k7-cmask2-inv", &sim_k7, EN | CPL | CMASK(2) | INV | PAT, 0, 1000, 0, 0, 500 },
	{ "k7-cmask4-inv", &sim_k7, EN | CPL | CMASK(4) | INV | PAT, 0, 1000, 0, 0, 1000 },
	/* Inv means nothing without a counter mask. */
	{ "k7-inv-alone", &sim_k7, EN | CPL | INV | PAT, 0, 1000, 0, 0, 1500 },
	/* Edge: the condition turns true once a period. */
	{ "k7-cmask1-edge", &sim_k7, EN | CPL | CMASK(1) | EDGE | PAT, 0, 1000, 0, 0, 250 },
	{ "k7-cmask3-edge", &sim_k7, EN | CPL | CMASK(3) | EDGE | PAT, 0, 1000, 0, 0, 250 },
	{ "k7-cmask2-inv-edge", &sim_k7,
	  EN | CPL | CMASK(2) | INV | EDGE | PAT, 0, 1000, 0, 0, 250 },
	{ "k7-edge-alone", &sim_k7, EN | CPL | EDGE | PAT, 0, 1000, 0, 0, 250 },
	{ "k7-cmask4-inv-edge", &sim_k7,
	  EN | CPL | CMASK(4) | INV | EDGE | PAT, 0, 1000, 0, 0, 0 },
	/* Counts that stop inside a period: 1003 cycles end on 0, 1, 2. */
	{ "k7-all-1003", &sim_k7, EN | CPL | PAT, 0, 1003, 0, 0, 1503 },
	{ "k7-cmask2-1003", &sim_k7, EN | CPL | CMASK(2) | PAT, 0, 1003, 0, 0, 501 },
	{ "k7-cmask2-inv-1003", &sim_k7,
	  EN | CPL | CMASK(2) | INV | PAT, 0, 1003, 0, 0, 502 },
	{ "k7-cmask1-edge-1003", &sim_k7,
	  EN | CPL | CMASK(1) | EDGE | PAT, 0, 1003, 0, 0, 251 },
	/* Cycles 0-2 (phase 2 once), then 5-1003: 249 periods and 1, 2, 3. */
	{ "k7-cmask2-split", &sim_k7, EN | CPL | CMASK(2) | PAT, 0, 3, 2, 999, 501 },
	{ "k7-all-split", &sim_k7, EN | CPL | PAT, 0, 3, 2, 999, 3 + 1494 + 6 },
	{ "k7-cmask1-edge-split", &sim_k7,
	  EN | CPL | CMASK(1) | EDGE | PAT, 0, 3, 2, 999, 1 + 249 + 1 },
	/* Any other event occurs once a cycle. */
	{ "k7-other-all", &sim_k7, EN | CPL | 0x76, 0, 1000, 0, 0, 1000 },
	{ "k7-other-cmask1", &sim_k7, EN | CPL | CMASK(1) | 0x76, 0, 1000, 0, 0, 1000 },
	{ "k7-other-cmask2", &sim_k7, EN | CPL | CMASK(2) | 0x76, 0, 1000, 0, 0, 0 },
	{ "k7-other-cmask2-inv", &sim_k7,
	  EN | CPL | CMASK(2) | INV | 0x76, 0, 1000, 0, 0, 1000 },
	{ "k7-other-edge", &sim_k7, EN | CPL | CMASK(1) | EDGE | 0x76, 0, 1000, 0, 0, 0 },
	{ "k8-cmask2", &sim_k8, EN | CPL | CMASK(2) | PAT, 0, 1000, 0, 0, 500 },
	{ "k8-cmask1-edge", &sim_k8, EN | CPL | CMASK(1) | EDGE | PAT, 0, 1000, 0, 0, 250 },
	/* Family 10h: EventSelect[11:8] is part of the event: 1FFh is not 0FFh. */
	{ "fam10-cmask2", &sim_fam10, EN | CPL | CMASK(2) | PAT, 0, 1000, 0, 0, 500 },
	{ "fam10-event-1ff", &sim_fam10, EN | CPL | CMASK(2) | PAT, 0x1, 1000, 0, 0, 0 },
	{ "fam10-event-1ff-all", &sim_fam10, EN | CPL | PAT, 0x1, 1000, 0, 0, 1000 },
	/* SVM off: GuestOnly or HostOnly alone counts nothing; both, all. */
	{ "fam10-guest-only", &sim_fam10, EN | CPL | PAT, GUEST, 1000, 0, 0, 0 },
	{ "fam10-host-only", &sim_fam10, EN | CPL | PAT, HOST, 1000, 0, 0, 0 },
	{ "fam10-guest-host", &sim_fam10, EN | CPL | PAT, GUEST | HOST, 1000, 0, 0, 1500 },
	{ "fam10-neither", &sim_fam10, EN | CPL | 0x76, 0, 1000, 0, 0, 1000 },
	/* The core extension's PERF_CTLs (family 15h on) the same. */
	{ "zen-cmask2-inv", &sim_fam15,
	  EN | CPL | CMASK(2) | INV | PAT, 0, 1000, 0, 0, 500 },
	{ "zen-cmask1-edge", &sim_fam15, EN | CPL | CMASK(1) | EDGE | PAT, 0, 1000, 0, 0, 250 },
	{ "zen-host-only", &sim_fam15, EN | CPL | 0x76, HOST, 1000, 0, 0, 0 },
	{ "zen-guest-host", &sim_fam15, EN | CPL | 0x76, GUEST | HOST, 1000, 0, 0, 1000 },
};

SIM_CASE_DESC(pattern_case)
KUNIT_ARRAY_PARAM(pattern, pattern_cases, pattern_case_desc);

static void amd_pattern_counts(struct kunit *test)
{
	const struct pattern_case *c = test->param_value;
	struct perfctr_cpu_state *state = sim_start_state(test, c->model);
	struct perfctr_cpu_control *ctl = &state->control;
	u32 pmc = nr_pmcs(c->model) - 1;	/* the last counter */

	ctl->tsc_on = 1;
	ctl->nractrs = 1;
	ctl->pmc_map[0] = pmc;
	ctl->evntsel[0] = c->evntsel;
	ctl->evntsel_high[0] = c->high;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	/* Cycle 0 of the pattern; the driver's self-test ran the clock. */
	perfctr_x86_sim.phase = 0;
	sim_run(state, c->first);
	perfctr_x86_sim_tick(c->gap);
	sim_run(state, c->second);
	KUNIT_EXPECT_EQ(test, state->pmc[0].sum, c->expect);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
}

static struct kunit_case amd_test_cases[] = {
	KUNIT_CASE_PARAM(amd_pattern_counts, pattern_gen_params),
	{}
};

SUITEOF(amd_test_cases, .name = "perfctr_x86_amd", .exit = sim_stop);
