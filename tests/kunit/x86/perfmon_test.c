// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: /dev/perfmon's FreeBSD counter setups in each family's
 * registers (arch/x86/perfctr/perfmon.c). Expected words are typed from
 * the manuals: the Pentium Pro PerfEvtSel (event 7:0, unit mask 15:8,
 * USR 16, OS 17, E 18, PC 19, INT 20, EN 22, INV 23, CMASK 31:24) and
 * the Pentium CESR half (event 5:0, CC 8:6: CPL 0-2, CPL 3, clocks).
 */
#include <perfctr/perfmon.h>

#include "arch_test.h"

/* struct pmc's word: event, unit mask, flags, counter mask. */
#define WORD(ev, unit, flags, mask) \
	((ev) | ((unit) << 8) | ((flags) << 16) | ((u32)(mask) << 24))

struct pmon_case {
	const char *name;
	const struct perfctr_x86_sim_model *model;
	u32 words[NPMC];
	unsigned int run;
	int expect;
	unsigned int nractrs;		/* the control expected */
	u32 map[3], sel[3];
	unsigned int slot1;		/* counter 1's index, if it runs */
};

static const struct pmon_case pmon_cases[] = {
	/* P6: EN in PerfEvtSel0 only; counter 1 alone needs it there. */
	{ "p6-counter0", &sim_p6, { WORD(0xC0, 0, 0x03, 0) }, 1, 0,
	  1, { 0 }, { 0x004300C0 } },
	{ "p6-both", &sim_p6,
	  { WORD(0x79, 0, 0x03, 0), WORD(0xC0, 0, 0x01, 0) }, 3, 0,
	  2, { 0, 1 }, { 0x00430079, 0x000100C0 }, 1 },
	{ "p6-counter1-alone", &sim_p6, { 0, WORD(0xC0, 0, 0x01, 0) }, 2, 0,
	  2, { 1, 0 }, { 0x000100C0, 0x00400000 }, 0 },
	{ "p6-unit-cmask-inv-edge", &sim_p6,
	  { WORD(0x28, 0x0F, PMCF_USR | PMCF_E | PMCF_INV, 2) }, 1, 0,
	  1, { 0 }, { 0x02C50F28 } },
	{ "p6-no-mode", &sim_p6, { WORD(0xC0, 0, 0, 0) }, 1, 0,
	  1, { 0 }, { 0x004000C0 } },
	{ "p6-pc", &sim_p6, { WORD(0xC0, 0, 0x01 | PMCF_PC, 0) }, 1, -EINVAL },
	{ "p6-int", &sim_p6, { WORD(0xC0, 0, 0x01 | PMCF_INT, 0) }, 1, -EINVAL },
	{ "p6-en", &sim_p6, { WORD(0xC0, 0, 0x01 | PMCF_EN, 0) }, 1, -EINVAL },
	{ "p6-bit21", &sim_p6, { WORD(0xC0, 0, 0x21, 0) }, 1, -EINVAL },
	{ "p6-none-running", &sim_p6, { WORD(0xC0, 0, 0x01, 0) }, 0, 0, 0 },
	/* Arch perfmon and AMD: EN in each. */
	{ "arch-both", &sim_arch_v2,
	  { WORD(0x3C, 0, 0x03, 0), WORD(0xC0, 0, 0x01, 0) }, 3, 0,
	  2, { 0, 1 }, { 0x0043003C, 0x004100C0 }, 1 },
	{ "arch-counter1-alone", &sim_arch_v2, { 0, WORD(0xC0, 0, 0x02, 0) }, 2, 0,
	  1, { 1 }, { 0x004200C0 }, 0 },
	{ "arch-anythread", &sim_arch_v2, { WORD(0x3C, 0, 0x21, 0) }, 1, -EINVAL },
	{ "k7-both", &sim_k7,
	  { WORD(0x76, 0, 0x03, 0), WORD(0xC0, 0, 0x01, 0) }, 3, 0,
	  2, { 0, 1 }, { 0x00430076, 0x004100C0 }, 1 },
	{ "k7-cmask-inv", &sim_k7, { WORD(0xD2, 0, 0x81, 4) }, 1, 0,
	  1, { 0 }, { 0x04C100D2 } },
	{ "k7-int", &sim_k7, { WORD(0x76, 0, 0x11, 0) }, 1, -EINVAL },
	{ "fam15-counter1", &sim_fam15, { 0, WORD(0xC0, 0, 0x01, 0) }, 2, 0,
	  1, { 1 }, { 0x004100C0 }, 0 },
	/* P5: CC is OS 6, USR 7, clocks 8; no unit mask, cmask nor INV. */
	{ "p5-events-any-cpl", &sim_p5, { WORD(0x16, 0, 0x07, 0) }, 1, 0,
	  1, { 0 }, { 0x00D6 } },
	{ "p5-duration", &sim_p5, { WORD(0x16, 0, 0x03, 0) }, 1, 0,
	  1, { 0 }, { 0x01D6 } },
	{ "p5-usr", &sim_p5mmx, { 0, WORD(0x12, 0, 0x05, 0) }, 2, 0,
	  1, { 1 }, { 0x0092 }, 0 },
	{ "p5-os-both", &sim_p5mmx,
	  { WORD(0x16, 0, 0x06, 0), WORD(0x29, 0, 0x05, 0) }, 3, 0,
	  2, { 0, 1 }, { 0x0056, 0x00A9 }, 1 },
	{ "p5-no-mode", &sim_p5, { WORD(0x16, 0, PMCF_E, 0) }, 1, -EINVAL },
	{ "p5-unit", &sim_p5, { WORD(0x16, 1, 0x07, 0) }, 1, -EINVAL },
	{ "p5-cmask", &sim_p5, { WORD(0x16, 0, 0x07, 1) }, 1, -EINVAL },
	{ "p5-inv", &sim_p5, { WORD(0x16, 0, 0x07 | PMCF_INV, 0) }, 1, -EINVAL },
	{ "p5-event-0x3f", &sim_p5, { WORD(0x3F, 0, 0x07, 0) }, 1, 0,
	  1, { 0 }, { 0x00FF } },
	{ "p5-event-0x40", &sim_p5, { WORD(0x40, 0, 0x07, 0) }, 1, -EINVAL },
	/* Cyrix MII: event bit 6 is CESR bit 10. */
	{ "mii-event-0x45", &sim_mii, { WORD(0x45, 0, 0x07, 0) }, 1, 0,
	  1, { 0 }, { 0x04C5 } },
	{ "mii-event-0x80", &sim_mii, { WORD(0x80, 0, 0x07, 0) }, 1, -EINVAL },
	/* Neither layout: the TSC only. */
	{ "p4", &sim_p4, { WORD(0xC0, 0, 0x03, 0) }, 1, -EOPNOTSUPP },
	{ "winchip", &sim_winchip, { WORD(0x16, 0, 0x03, 0) }, 1, -EOPNOTSUPP },
	{ "c3", &sim_c3, { 0, WORD(0xC0, 0, 0x03, 0) }, 2, -EOPNOTSUPP },
	{ "generic", &sim_generic, { WORD(0xC0, 0, 0x03, 0) }, 1, -EOPNOTSUPP },
};

SIM_CASE_DESC(pmon_case)
KUNIT_ARRAY_PARAM(pmon, pmon_cases, pmon_case_desc);

/* The control built, and the driver's verdict on it: the same. */
static void x86_perfmon_control(struct kunit *test)
{
	const struct pmon_case *c = test->param_value;
	struct perfctr_cpu_state *state = sim_start_state(test, c->model);
	struct perfctr_cpu_control *ctl = &state->control;
	unsigned int i, slot[NPMC] = { 9, 9 };
	int err;

	err = perfctr_cpu_perfmon_control(ctl, c->words, c->run, slot);
	if (!err)
		err = perfctr_cpu_update_control(state, false);
	KUNIT_ASSERT_EQ(test, err, c->expect);
	if (err)
		return;
	KUNIT_EXPECT_EQ(test, ctl->tsc_on, 1U);
	KUNIT_EXPECT_EQ(test, ctl->nractrs, c->nractrs);
	KUNIT_EXPECT_EQ(test, ctl->nrictrs, 0U);
	for (i = 0; i < c->nractrs; i++) {
		KUNIT_EXPECT_EQ(test, ctl->pmc_map[i], c->map[i]);
		KUNIT_EXPECT_EQ(test, ctl->evntsel[i], c->sel[i]);
		KUNIT_EXPECT_EQ(test, ctl->evntsel_high[i], 0U);
	}
	if (c->run & 1)
		KUNIT_EXPECT_EQ(test, slot[0], 0U);
	if (c->run & 2)
		KUNIT_EXPECT_EQ(test, slot[1], c->slot1);
}

/* P6 counter 1 alone counts; counter 0, its enable, counts nothing. */
static void x86_perfmon_p6_counter1(struct kunit *test)
{
	struct perfctr_cpu_state *state = sim_start_state(test, &sim_p6);
	const u32 words[NPMC] = { 0, WORD(0xC0, 0, PMCF_USR, 0) };
	unsigned int slot[NPMC];

	KUNIT_ASSERT_EQ(test, perfctr_cpu_perfmon_control(&state->control,
							  words, 2, slot), 0);
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, false), 0);
	sim_run(state, 1000);
	KUNIT_EXPECT_EQ(test, state->pmc[slot[1]].sum, 1000ULL);
	KUNIT_EXPECT_EQ(test, state->pmc[1 - slot[1]].sum, 0ULL);
}

static struct kunit_case perfmon_test_cases[] = {
	KUNIT_CASE_PARAM(x86_perfmon_control, pmon_gen_params),
	KUNIT_CASE(x86_perfmon_p6_counter1),
	{}
};

SUITEOF(perfmon_test_cases,
	.name = "perfctr_x86_perfmon", .exit = sim_stop);
