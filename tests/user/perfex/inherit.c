// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "inherit" case: a multi-threaded command and a
 * forking one (a grandchild outliving its parent among them) are each
 * counted exactly once. busy's workers each use a known amount of CPU
 * time, so the TSC total must be that work, plus what starting them
 * costs: a member lost would leave it short, one counted twice would
 * double it. On a simulated PMU every counter counts TSC cycles, so each
 * event's total must also be within 10% of the TSC's.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

#define WORKERS		"4"
#define WORK_MS		100

static void check_counted_once(const char *mode)
{
	const char *argv[10] = { "-x", ";", px_busy() };
	unsigned long long tsc, work = 4 * ms_ticks(WORK_MS), v;
	struct px_row rows[PX_MAX_ROWS];
	char ms[16];
	struct px_result r;
	int i = 3, n;

	if (mode)
		argv[i++] = mode;
	argv[i++] = WORKERS;
	snprintf(ms, sizeof(ms), "%d", WORK_MS);
	argv[i++] = ms;
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(!strstr(r.err, "still running") &&
		      !strstr(r.err, "not counted"), "%s", r.err);
	tsc = px_tsc(&r);
	ck_assert_msg(tsc >= work * 95 / 100 && tsc <= work * 3 / 2 + ms_ticks(100),
		      "tsc %llu for work of %llu ticks:\n%s", tsc, work, r.err);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	for (i = 0; model && i < n; i++) {
		ck_assert(px_is_uint(rows[i].value));
		v = strtoull(rows[i].value, NULL, 10);
		ck_assert_msg(within(v, tsc, 10), "%s %llu, tsc %llu",
			      rows[i].name, v, tsc);
	}
}

START_TEST(threads_counted_once)
{
	check_counted_once(NULL);
}

START_TEST(processes_counted_once)
{
	check_counted_once("-f");
}

void px_inherit_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "inherit", NULL, NULL);

	tcase_add_test(tc, threads_counted_once);
	tcase_add_test(tc, processes_counted_once);
}
