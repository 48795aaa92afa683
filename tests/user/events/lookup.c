// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events suite's "lookup" case: each CPU id finds its table. The ids
 * are those of QEMU's CPU models in the check matrix (QEMU's
 * target/i386/cpu.c and target/ppc/cpu-models.h), of the simulated PMU
 * models, and of real parts (the vendors' CPUID and PVR tables); the
 * expected table is typed here, never read from the mapfile.
 */
#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "events.h"

struct want {
	const char *cpuid;
	const char *table;	/* NULL: none */
	const char *perf_table;	/* with perf's tables, if it differs */
};

static const struct want wants[] = {
#ifndef __powerpc__
	/*
	 * QEMU -cpu pentium, pentium2, pentium3, athlon, core2duo,
	 * Nehalem, phenom, EPYC.
	 */
	{ "GenuineIntel-5-4-3", "p5mmx", NULL },
	{ "GenuineIntel-6-5-2", "pentium2", NULL },
	{ "GenuineIntel-6-7-3", "pentium3", NULL },
	{ "AuthenticAMD-6-2-3", "k7", NULL },
	{ "GenuineIntel-6-F-B", "core2", NULL },
	{ "GenuineIntel-6-1A-3", "arch", "nehalemep" },
	{ "AuthenticAMD-16-2-3", "fam10h", NULL },
	{ "AuthenticAMD-23-1-2", "amd", "amdzen1" },
	/* The simulated models k7, arch-v2, p4-model3-ht. */
	{ "AuthenticAMD-6-2-0", "k7", NULL },
	{ "GenuineIntel-6-3A-9", "arch", "ivybridge" },
	{ "GenuineIntel-15-3-0", "netburst", NULL },
	/* Real parts of each remaining table. */
	{ "GenuineIntel-5-2-C", "p5", NULL },
	{ "GenuineIntel-6-1-9", "pentiumpro", NULL },
	{ "GenuineIntel-6-B-1", "pentium3", NULL },
	{ "GenuineIntel-6-D-6", "pentium-m", NULL },
	{ "GenuineIntel-6-E-8", "core", NULL },
	{ "GenuineIntel-6-17-A", "core2", NULL },
	{ "GenuineIntel-15-6-5", "netburst", NULL },
	{ "AuthenticAMD-15-5-1", "k8", NULL },
	{ "AuthenticAMD-17-3-1", "fam11h", NULL },
	{ "AuthenticAMD-18-1-0", "fam12h", NULL },
	{ "AuthenticAMD-20-2-0", "fam14h", NULL },
	{ "AuthenticAMD-21-2-0", "fam15h", NULL },	/* Interlagos, 00h-0Fh */
	{ "AuthenticAMD-21-10-1", "fam15h-m10h", NULL },	/* Trinity */
	{ "AuthenticAMD-21-13-1", "fam15h-m10h", NULL },	/* Richland */
	{ "AuthenticAMD-21-30-1", "fam15h-m30h", NULL },	/* Kaveri */
	{ "AuthenticAMD-21-60-1", "fam15h-m60h", NULL },	/* Carrizo */
	{ "AuthenticAMD-21-70-0", "fam15h-m60h", NULL },	/* Stoney Ridge */
	/* Models no BKDG describes: the models 00h-0Fh table. */
	{ "AuthenticAMD-21-20-0", "fam15h", NULL },
	{ "AuthenticAMD-21-48-0", "fam15h", NULL },
	{ "AuthenticAMD-21-1", "fam15h", NULL },	/* 21-1 is not 21-1x */
	{ "AuthenticAMD-22-0-1", "fam16h", NULL },	/* Kabini, 00h-0Fh */
	{ "AuthenticAMD-22-30-1", "fam16h", NULL },
	{ "HygonGenuine-24-0-1", "amd", NULL },
	{ "CyrixInstead-6-0-2", "cyrix-mii", NULL },
	{ "CentaurHauls-5-4-1", "winchip-c6", NULL },
	{ "CentaurHauls-5-8-1", "winchip", NULL },
	{ "CentaurHauls-6-9-8", "c3", NULL },
	/*
	 * perf's stepping rows: Skylake-X below stepping 5, Cascade Lake
	 * from 5; without perf's tables both are arch perfmon.
	 */
	{ "GenuineIntel-6-55-4", "arch", "skylakex" },
	{ "GenuineIntel-6-55-7", "arch", "cascadelakex" },
	{ "GenuineIntel-6-FF-0", "arch", NULL },	/* a model nobody knows */
	/* No table: a 486, a K6, a vendor nobody knows. */
	{ "GenuineIntel-4-8-0", NULL, NULL },
	{ "AuthenticAMD-5-8-C", NULL, NULL },
	{ "UnknownVendor-6-1-0", NULL, NULL },
	{ "GenuineIntel-6-5", "pentium2", NULL },	/* no stepping at all */
	{ "GenuineIntel-6-50-0", "arch", NULL },	/* 6-5 must not match 6-50 */
#else
	/*
	 * QEMU -cpu 604, 604e, 604r, 750, 740, 750cx, 7400, 7410, 7450,
	 * 7447a, 7457; the simulated 7450 and 750 (750GX).
	 */
	{ "0x00040103", "604", NULL },
	{ "0x00090204", "604e", NULL },
	{ "0x000a0101", "604e", NULL },
	{ "0x00083311", "750", NULL },
	{ "0x00083214", "750", NULL },
	{ "0x00082214", "750", NULL },
	{ "0x000c0209", "7400", NULL },
	{ "0x800c1104", "7400", NULL },
	{ "0x80000201", "7450", NULL },
	{ "0x80030101", "7450", NULL },
	{ "0x80020101", "7450", NULL },
	{ "0x70020102", "750", NULL },
	{ "0x70000203", "750", NULL },	/* 750FX */
	{ "0x80040201", "7450", NULL },	/* 7448 */
	/* No table: 601, 603e, an e300. */
	{ "0x00010001", NULL, NULL },
	{ "0x00070101", NULL, NULL },
	{ "0x80830010", NULL, NULL },
	{ "0x00040103-1", NULL, NULL },	/* the whole id must match */
#endif
};

START_TEST(lookup_finds_the_table)
{
	const struct want *w = &wants[_i];
	const char *want = ev_have_perf_tables() && w->perf_table ?
		w->perf_table : w->table;
	const struct perfctr_event_table *t;

	errno = 0;
	t = perfctr_event_table(w->cpuid);
	if (!want) {
		ck_assert_msg(!t, "%s: got table %s, want none", w->cpuid,
			      t ? perfctr_event_table_name(t) : "");
		ck_assert_int_eq(errno, ENOENT);
		return;
	}
	ck_assert_msg(t, "%s: no table, want %s", w->cpuid, want);
	ck_assert_str_eq(perfctr_event_table_name(t), want);
}

START_TEST(lookup_cpuid_override)
{
	struct perfctr_info info;
	char id[64];

	setenv("PERFCTR_CPUID", "CentaurHauls-6-9-8", 1);
	ck_assert_int_eq(perfctr_cpuid(id, sizeof(id)), 0);
	ck_assert_str_eq(id, "CentaurHauls-6-9-8");
	/* Empty is unset: the module's id, as info gives it. */
	setenv("PERFCTR_CPUID", "", 1);
	ck_assert_int_eq(perfctr_info(&info), 0);
	ck_assert_int_eq(perfctr_cpuid(id, sizeof(id)), 0);
	ck_assert_str_eq(id, info.cpuid);
	unsetenv("PERFCTR_CPUID");
}

/* This VM's CPU has a table, and the sim models' ids have theirs. */
START_TEST(lookup_this_cpu)
{
	char id[64];

	ck_assert_int_eq(perfctr_cpuid(id, sizeof(id)), 0);
	ck_assert_msg(perfctr_event_table(id), "no table for %s", id);
}

static int count_one(const struct perfctr_event_info *ev, void *arg)
{
	unsigned int *n = arg;

	ck_assert_ptr_nonnull(ev->name);
	ck_assert_ptr_nonnull(ev->desc);
	ck_assert(ev->counters[0]);
	(*n)++;
	return 0;
}

static int stop_at_second(const struct perfctr_event_info *ev, void *arg)
{
	unsigned int *n = arg;

	(void)ev;
	return ++*n == 2 ? 42 : 0;
}

static int stop_at_second_metric(const struct perfctr_metric_info *m,
				 void *arg)
{
	unsigned int *n = arg;

	(void)m;
	return ++*n == 2 ? 42 : 0;
}

START_TEST(lookup_lists_by_glob)
{
#ifndef __powerpc__
	const struct perfctr_event_table *t = perfctr_event_table("GenuineIntel-6-7-3");
	const char *glob = "l2_LD.*";	/* case is ignored */
#else
	const struct perfctr_event_table *t = perfctr_event_table("0x80000201");
	const char *glob = "instr_completed";
#endif
	unsigned int n = 0;

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(perfctr_event_list(t, glob, count_one, &n), 0);
#ifndef __powerpc__
	ck_assert_uint_eq(n, 5);	/* .M .E .S .I .MESI */
#else
	ck_assert_uint_eq(n, 1);	/* one name, whatever its codes */
#endif
	n = 0;
	ck_assert_int_eq(perfctr_event_list(t, "NO_SUCH_*", count_one, &n), 0);
	ck_assert_uint_eq(n, 0);
	n = 0;
	ck_assert_int_eq(perfctr_event_list(t, NULL, stop_at_second, &n), 42);
}

/* What perfctr_metric_list() gave: how many, and IPC's and the rates'. */
struct metrics_seen {
	unsigned int n, rates, unsupported;
	struct perfctr_metric_info ipc;
};

static int see_metric(const struct perfctr_metric_info *m, void *arg)
{
	struct metrics_seen *seen = arg;

	ck_assert_ptr_nonnull(m->name);
	ck_assert_ptr_nonnull(m->group);
	ck_assert_ptr_nonnull(m->desc);
	ck_assert_ptr_nonnull(m->expr);
	ck_assert_ptr_nonnull(m->scale_unit);
	seen->n++;
	if (!strcmp(m->name, "IPC"))
		seen->ipc = *m;
	if (strstr(m->name, "_rate")) {
		seen->rates++;
		ck_assert_str_eq(m->scale_unit, "100%");
	}
	if (m->unsupported && strstr(m->unsupported, "uses metric"))
		seen->unsupported++;
	return 0;
}

/* Our metrics.json's, as the table has them; a glob picks by name. */
START_TEST(lookup_lists_metrics)
{
#ifndef __powerpc__
	const struct perfctr_event_table *t = perfctr_event_table("GenuineIntel-6-7-3");
	const char *expr = "INST_RETIRED / CPU_CLK_UNHALTED";
	unsigned int all = 5, rates = 2;	/* branch_, cache_miss_rate */
#else
	const struct perfctr_event_table *t = perfctr_event_table("0x80000201");
	const char *expr = "INSTR_COMPLETED / PROCESSOR_CYCLES";
	unsigned int all = 4, rates = 1;	/* branch_miss_rate */
#endif
	struct metrics_seen seen = { 0 };

	ck_assert_ptr_nonnull(t);
	ck_assert_int_eq(perfctr_metric_list(t, NULL, see_metric, &seen), 0);
	ck_assert_uint_eq(seen.n, all);
	ck_assert_str_eq(seen.ipc.group, "Summary");
	ck_assert_str_eq(seen.ipc.expr, expr);
	ck_assert_str_eq(seen.ipc.scale_unit, "");
	ck_assert_ptr_null(seen.ipc.unsupported);
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(perfctr_metric_list(t, "*_RATE", see_metric, &seen),
			 0);
	ck_assert_uint_eq(seen.n, rates);
	ck_assert_uint_eq(seen.rates, rates);
	seen.n = 0;
	ck_assert_int_eq(perfctr_metric_list(t, NULL, stop_at_second_metric,
					     &seen.n), 42);
	ck_assert_uint_eq(seen.n, 2);
}

/* perf's: kept, those over other metrics unsupported, saying so. */
START_TEST(lookup_lists_perf_metrics)
{
	struct metrics_seen seen = { 0 };
	const struct perfctr_event_table *t;

	if (!ev_have_perf_tables())
		return;
	t = perfctr_event_table("GenuineIntel-6-3A-9");
	ck_assert_int_eq(perfctr_metric_list(t, NULL, see_metric, &seen), 0);
	ck_assert_uint_gt(seen.n, seen.unsupported);
	ck_assert_uint_gt(seen.unsupported, 0);
}

void ev_lookup_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "lookup", NULL, NULL);

	tcase_add_loop_test(tc, lookup_finds_the_table, 0, ARRAY_SIZE(wants));
	tcase_add_test(tc, lookup_cpuid_override);
	tcase_add_test(tc, lookup_this_cpu);
	tcase_add_test(tc, lookup_lists_by_glob);
	tcase_add_test(tc, lookup_lists_metrics);
	tcase_add_test(tc, lookup_lists_perf_metrics);
}
