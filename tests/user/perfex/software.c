// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "software" case: perf stat's software events
 * (perfex.rst, "Software events"). The default output opens with
 * task-clock, context-switches, cpu-migrations and page-faults, as perf
 * stat's does; -e takes them among the counters' events, in the order
 * given. They are the command tree's: busy's workers use a known amount
 * of CPU time (busy.c), which task-clock must hold whether they are
 * threads or processes. cpu-migrations is <not supported>: no kernel
 * count of a tree's migrations exists.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

/* The CPU time busy's workers use, and what starting them may add. */
#define WORKERS		2
#define WORK_MS		150
#define SLACK_MS	2000	/* TCG: exec, the dynamic loader, threads */

static void run_ok(struct px_result *r, const char *const *argv)
{
	px_plain_cpuid();
	px_run(r, argv);
	ck_assert_msg(r->status == 0, "status %d:\n%s", r->status, r->err);
}

static const struct px_row *find_row(const struct px_row *rows, int n,
				     const char *name,
				     const struct px_result *r)
{
	const struct px_row *x = px_find(rows, n, name);

	ck_assert_msg(x, "no %s row:\n%s", name, r->err);
	return x;
}

/* task-clock: msec with two decimals; the rest integers. */
static double task_ms(const struct px_row *x, const struct px_result *r)
{
	char *end;
	double v = strtod(x->value, &end);

	ck_assert_msg(*end == '\0' && strchr(x->value, '.'),
		      "task-clock '%s':\n%s", x->value, r->err);
	ck_assert_str_eq(x->fields[1], "msec");
	return v;
}

/* perf stat's default rows: the software events first, tsc last. */
START_TEST(default_rows_open_with_software)
{
	static const char *const first[] = {
		"task-clock", "context-switches", "cpu-migrations", "page-faults",
	};
	static const char *const argv[] = { "-x", ";", "true", NULL };
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	int n, i;

	run_ok(&r, argv);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	ck_assert_msg(n >= 5, "%d rows:\n%s", n, r.err);
	for (i = 0; i < 4; i++)
		ck_assert_str_eq(rows[i].name, first[i]);
	ck_assert_str_eq(rows[n - 1].name, "tsc");
	task_ms(&rows[0], &r);
	ck_assert(px_is_uint(rows[1].value));
	ck_assert_str_eq(rows[2].value, "<not supported>");
	/* An exec'd program faults its pages in. */
	ck_assert(px_is_uint(rows[3].value));
	ck_assert_uint_gt(strtoull(rows[3].value, NULL, 10), 0);
	ck_assert_str_eq(rows[3].fields[1], "");
}

/* -e: software and counter events in the order given, aliases kept. */
START_TEST(given_in_order)
{
	static const char *const argv[] = {
		"-e", "faults,instructions,task-clock,cs,cycles", "-x", ";",
		"true", NULL
	};
	static const char *const names[] = {
		"faults", "instructions", "task-clock", "cs", "cycles", "tsc",
	};
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	int n, i;

	run_ok(&r, argv);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	ck_assert_msg(n == 6, "%d rows:\n%s", n, r.err);
	for (i = 0; i < n; i++)
		ck_assert_str_eq(rows[i].name, names[i]);
	task_ms(&rows[2], &r);
}

/* Software events alone: no counter is asked for, the TSC still runs. */
START_TEST(software_alone)
{
	static const char *const argv[] = {
		"-e", "task-clock,minor-faults,major-faults", "-j", "true", NULL
	};
	struct px_json_member m[16];
	char *line, *save = NULL;
	struct px_result r;
	int n, seen = 0, i;

	run_ok(&r, argv);
	for (line = strtok_r(r.err, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '{')
			continue;
		n = px_json_line(line, m, 16);
		ck_assert_int_gt(n, 0);
		for (i = 0; i < n; i++)
			if (!strcmp(m[i].key, "unit") && !strcmp(m[i].val, "msec"))
				seen++;
	}
	ck_assert_int_eq(seen, 1);	/* task-clock's, and only its */
}

/* The tree's CPU time: workers as threads, then as processes. */
static const char *const tree_argv[][8] = {
	{ "-e", "task-clock,context-switches", "-x", ";", "busy", "2", "150" },
	{ "-e", "task-clock,context-switches", "-x", ";", "busy", "-f", "2",
	  "150" },
};

START_TEST(task_clock_holds_the_tree)
{
	const char *argv[9];
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	double ms;
	int n;

	memcpy(argv, tree_argv[_i], sizeof(tree_argv[_i]));
	argv[8] = NULL;
	argv[4] = px_busy();
	run_ok(&r, argv);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	ms = task_ms(find_row(rows, n, "task-clock", &r), &r);
	ck_assert_msg(ms >= WORKERS * WORK_MS && ms < WORKERS * WORK_MS + SLACK_MS,
		      "task-clock %.2f ms for %d workers of %d ms:\n%s", ms,
		      WORKERS, WORK_MS, r.err);
	/* busy waits for its workers: it sleeps at least once. */
	ck_assert_uint_gt(strtoull(find_row(rows, n, "context-switches",
					    &r)->value, NULL, 10), 0);
}

/* The table: task-clock's unit in perf's column, its rate metrics. */
START_TEST(table_layout)
{
	static const char *const argv[] = {
		"-e", "task-clock,page-faults", "true", NULL
	};
	struct px_result r;

	run_ok(&r, argv);
	ck_assert_msg(strstr(r.err, " msec task-clock "), "%s", r.err);
	ck_assert_msg(strstr(r.err, "CPUs utilized"), "%s", r.err);
	ck_assert_msg(strstr(r.err, "/sec"), "%s", r.err);
}

/* Modifiers or a group on a software event: a usage error saying why. */
static const char *const refused[][4] = {
	{ "-e", "task-clock:u", "true" },
	{ "-e", "{cs,instructions}", "true" },
	{ "-e", "instructions,{faults}:k", "true" },
};

START_TEST(refuses_modifiers)
{
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, refused[_i]);
	ck_assert_msg(r.status == 2, "%s: status %d:\n%s", refused[_i][1],
		      r.status, r.err);
	ck_assert_msg(strstr(r.err, "software event takes no modifiers"),
		      "%s", r.err);
}

void px_software_tcase(struct Suite *s)
{
	struct TCase *tc;

	if (!px_once_per_arch())
		return;
	tc = add_tcase(s, "software", NULL, NULL);

	tcase_add_test(tc, default_rows_open_with_software);
	tcase_add_test(tc, given_in_order);
	tcase_add_test(tc, software_alone);
	tcase_add_loop_test(tc, task_clock_holds_the_tree, 0,
			    ARRAY_SIZE(tree_argv));
	tcase_add_test(tc, table_layout);
	tcase_add_loop_test(tc, refuses_modifiers, 0, ARRAY_SIZE(refused));
}
