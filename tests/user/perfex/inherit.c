// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "inherit" case: a multi-threaded command and a
 * forking one (a grandchild outliving its parent among them) are each
 * counted exactly once. Under busy -p every thread and process stops its
 * own counters as it ends and reports its final sums, and busy prints
 * their total: the total perfex prints must be exactly that, and at
 * least the CPU time the workers used (a member not counted would
 * report zeroes; one counted twice would add its sums again). On a
 * simulated PMU every counter counts TSC cycles, so each event's total
 * must also be within 10% of the TSC's.
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
	const char *argv[10] = { "-x", ";", px_busy(), "-p" };
	unsigned long long tsc, work = 4 * ms_ticks(WORK_MS), v;
	struct px_row rows[PX_MAX_ROWS];
	char ms[16];
	struct px_result r;
	int i = 4, n;

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
	ck_assert_msg(tsc == px_busy_tsc(&r), "perfex's tsc %llu, busy's %s:\n%s",
		      tsc, r.out, r.err);
	ck_assert_msg(tsc >= work * 8 / 10, "tsc %llu for %llu ticks of work",
		      tsc, work);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	for (i = 0; model && i < n; i++) {
		if (px_is_software(rows[i].name))
			continue;	/* the software case's */
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
	struct TCase *tc = add_tcase(s, "perfex-inherit", NULL, NULL);

	tcase_add_test(tc, threads_counted_once);
	tcase_add_test(tc, processes_counted_once);
}
