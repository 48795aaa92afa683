// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events suite's "count" case, on perfctr_simpmu.ko only: an event
 * named in the simulated model's table, encoded by libperfctr, is the
 * control the manual gives (typed here), the module takes it, and it
 * counts as the same control written raw beside it does. The simulated
 * counters count TSC (timebase) ticks, so both must come out within 1%
 * of each other and within 10% of the TSC.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "events.h"

struct named {
	const char *model, *event, *perf_event;	/* perf's tables: its name */
	__u32 pmc, evntsel, escr, mmcr0;
	__u32 raw_pmc;				/* the raw twin's counter */
};

static const struct named nameds[] = {
#ifndef __powerpc__
	/* RETIRED_INSTRUCTIONS C0H, USR and EN (BKDG). */
	{ "k7", "RETIRED_INSTRUCTIONS:u", NULL, 0, 0x004100C0, 0, 0, 1 },
	/* Instructions retired C0H (SDM architectural events). */
	{ "arch-v2", "INSTRUCTION_RETIRED:u", "INST_RETIRED.ANY_P:u",
	  0, 0x004100C0, 0, 0, 1 },
	/*
	 * instr_retired on CRU_ESCR0, counter 12; the twin on counter 13
	 * shares the ESCR with the same value.
	 */
	{ "p4-model3-ht", "INSTR_RETIRED.NBOGUSNTAG:u", NULL,
	  0x8000000C, 0x00039000, 0x04000204, 0, 0x8000000D },
#else
	/* Processor cycles, event 1 on PMC1; FCS for user mode only. */
	{ "7450", "PROCESSOR_CYCLES:u", NULL, 0, 1, 0, 0x40000000, 1 },
	{ "750", "PROCESSOR_CYCLES:u", NULL, 0, 1, 0, 0x40000000, 1 },
#endif
};

static const struct named *this_model(void)
{
	unsigned int i;

	for (i = 0; model_name && i < ARRAY_SIZE(nameds); i++)
		if (!strcmp(nameds[i].model, model_name))
			return &nameds[i];
	return NULL;
}

/* Named on counter 0 of the control, its raw twin on counter 1. */
static void encode_pair(const struct named *n, struct vperfctr_control *ctl)
{
	const char *ev = n->perf_event && ev_have_perf_tables() ?
		n->perf_event : n->event;
	struct perfctr_cpu_control *c = &ctl->cpu_control;
	struct perfctr_event_set set;
	char id[64];

	ck_assert_int_eq(perfctr_cpuid(id, sizeof(id)), 0);
	ck_assert_int_eq(perfctr_event_encode(perfctr_event_table(id), ev,
					      PERFCTR_EVENT_USER, ctl, &set), 0);
	ck_assert_uint_eq(c->nractrs, 1);
	ck_assert_uint_eq(c->pmc_map[0], n->pmc);
	ck_assert_uint_eq(c->evntsel[0], n->evntsel);
#ifndef __powerpc__
	ck_assert_uint_eq(c->p4.escr[0], n->escr);
	c->p4.escr[1] = c->p4.escr[0];
#else
	ck_assert_uint_eq(c->ppc.mmcr0, n->mmcr0);
#endif
	c->pmc_map[1] = n->raw_pmc;
	c->evntsel[1] = n->evntsel;
	c->nractrs = 2;
}

START_TEST(count_named_as_raw)
{
	const struct named *n = this_model();
	struct vperfctr_control ctl, back;
	struct perfctr_sum_ctrs sums;
	struct vperfctr *vp;

	if (!n)
		return;		/* no counters: perfctr.ko */
	encode_pair(n, &ctl);
	vp = vperfctr_open();
	ck_assert_ptr_nonnull(vp);
	ck_assert_int_eq(vperfctr_control(vp, &ctl), 0);
	spin(ms_ticks(50));
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &sums), 0);
	ck_assert_int_eq(vperfctr_read_control(vp, &back), 0);
	ck_assert_mem_eq(&back.cpu_control, &ctl.cpu_control,
			 sizeof(ctl.cpu_control));
	ck_assert_uint_gt(sums.pmc[0], 0);
	ck_assert_msg(within(sums.pmc[0], sums.pmc[1], 1),
		      "named %llu, raw %llu", sums.pmc[0], sums.pmc[1]);
	ck_assert_msg(within(sums.pmc[0], sums.tsc, 10),
		      "named %llu, tsc %llu", sums.pmc[0], sums.tsc);
	vperfctr_close(vp);
}

/*
 * On the simulated zen and zen4 (family 17h and 19h: family 10h's PERF_CTL
 * bits, the core extension's six counters; zen4 counts only with its
 * PerfMonV2 global enable), event 0FFh occurs 0, 1, 2, 3 times in
 * successive cycles (testing.rst, "The AMD pattern event"), and SVM is
 * off. So, against cycles (76h) in the same set: all occurrences 6/4 of
 * them, cmask=2 1/2, cmask=2 with inv 1/2, cmask=1 with edge 1/4, and
 * HostOnly alone nothing (amd.rst: with EFER.SVME clear, GuestOnly or
 * HostOnly alone counts nothing).
 */
static const struct {
	const char *event;
	unsigned int per_4;	/* counts per 4 cycles */
} amd_events[] = {
	{ "cpu/event=0x76/u", 4 },
	{ "cpu/event=0xff/u", 6 },
	{ "cpu/event=0xff,cmask=2/u", 2 },
	{ "cpu/event=0xff/:c=2:i:u", 2 },		/* libpfm's modifiers */
	{ "cpu/event=0xff,cmask=1,edge/u", 1 },
	{ "cpu/event=0x76/uH", 0 },
};

START_TEST(count_amd_per_event_features)
{
	struct perfctr_sum_ctrs sums;
	struct vperfctr_control ctl;
	struct perfctr_event_set set;
	struct vperfctr *vp;
	unsigned long long want;
	char id[64], list[512] = "";
	unsigned int i;

	if (!model_name || (strcmp(model_name, "zen") && strcmp(model_name, "zen4")))
		return;
	for (i = 0; i < ARRAY_SIZE(amd_events); i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list),
			 "%s%s", i ? "," : "", amd_events[i].event);
	ck_assert_int_eq(perfctr_cpuid(id, sizeof(id)), 0);
	ck_assert_msg(!perfctr_event_encode(perfctr_event_table(id), list,
					    PERFCTR_EVENT_USER, &ctl, &set),
		      "%s", set.error);
	ck_assert_uint_eq(ctl.cpu_control.nractrs, ARRAY_SIZE(amd_events));
	vp = vperfctr_open();
	ck_assert_ptr_nonnull(vp);
	ck_assert_int_eq(vperfctr_control(vp, &ctl), 0);
	spin(ms_ticks(300));
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &sums), 0);
	ck_assert_uint_gt(sums.pmc[0], 1000000);
	for (i = 1; i < ARRAY_SIZE(amd_events); i++) {
		want = sums.pmc[0] / 4 * amd_events[i].per_4;
		if (!want)
			ck_assert_msg(sums.pmc[i] == 0, "%s: %llu, want 0",
				      set.ev[i].text, sums.pmc[i]);
		else
			ck_assert_msg(within(sums.pmc[i], want, 3),
				      "%s: %llu, want %llu (cycles %llu)",
				      set.ev[i].text, sums.pmc[i], want,
				      sums.pmc[0]);
	}
	vperfctr_close(vp);
}

void ev_count_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "count", NULL, NULL);

	tcase_add_test(tc, count_named_as_raw);
	tcase_add_test(tc, count_amd_per_event_features);
}
