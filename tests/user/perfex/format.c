// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "format" case: the layouts of perfex.rst. -x SEP
 * gives perf stat's CSV fields in perf's order (value, unit, event, [the
 * variance with -r,] run time, % running, metric value, metric unit), -j
 * one JSON object a line with perf's keys, -r N the mean and spread, -o
 * FILE the counts in FILE and nothing else changed. Every layout has a
 * row named tsc. The events requested are the rows, in order.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite.h"

#define OUT_FILE	"/tmp/px-counts"

/*
 * An event's row: its value an integer where events count (a simulated
 * PMU), "<not supported>" where only the TSC does (perfctr.ko).
 */
static void check_event_value(const struct px_row *r)
{
	if (model)
		ck_assert_msg(px_is_uint(r->value), "%s: value '%s'", r->name,
			      r->value);
	else
		ck_assert_str_eq(r->value, "<not supported>");
}

/* The rows of `perfex -e PX_EVENTS -x SEP true`: two events, then tsc. */
static void check_csv(const struct px_result *res, const char *sep, int runs)
{
	static const char *const names[] = { "instructions", "cycles", "tsc" };
	int fields = runs > 1 ? 8 : 7, n, i;
	struct px_row rows[PX_MAX_ROWS];

	n = px_csv(res->err, sep, rows, PX_MAX_ROWS);
	ck_assert_msg(n == 3, "%d rows:\n%s", n, res->err);
	for (i = 0; i < n; i++) {
		ck_assert_msg(rows[i].nfields == fields, "%d fields: %s",
			      rows[i].nfields, res->err);
		ck_assert_str_eq(rows[i].name, names[i]);
		ck_assert_str_eq(rows[i].fields[1], "");	/* unit */
		if (i < 2)
			check_event_value(&rows[i]);
		else
			ck_assert_msg(px_is_uint(rows[i].value), "tsc '%s'",
				      rows[i].value);
		/* The run time in ns, then the % running. */
		ck_assert(px_is_uint(rows[i].fields[fields - 4]));
		ck_assert(strchr(rows[i].fields[fields - 3], '.'));
		if (runs > 1)
			ck_assert_msg(rows[i].fields[3][0] &&
				      strchr(rows[i].fields[3], '%'),
				      "variance '%s'", rows[i].fields[3]);
	}
	ck_assert_uint_gt(strtoull(rows[2].value, NULL, 10), 0);
}

/* Separators of one and two characters, one of them the events' own. */
static const char *const csv_argv[][6] = {
	{ "-e", PX_EVENTS, "-x", ";", "true" },
	{ "-e", PX_EVENTS, "-x", ",", "true" },
	{ "-e", PX_EVENTS, "-x", "::", "true" },
};

START_TEST(csv_fields)
{
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, csv_argv[_i]);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	check_csv(&r, csv_argv[_i][3], 1);
	/* No table layout besides. */
	ck_assert_ptr_null(strstr(r.err, "time elapsed"));
}

START_TEST(csv_repeat_has_variance)
{
	static const char *const argv[] = {
		"-r", "3", "-e", PX_EVENTS, "-x", ";", "true", NULL
	};
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	check_csv(&r, ";", 3);
}

/* The reader tells -x's layout from the table's. */
START_TEST(csv_reader_tells_layouts)
{
	static const char table[] =
		"\n Performance counter stats for 'true':\n\n"
		"         1,234      tsc\n\n    0.001 seconds time elapsed\n";
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r = { 0 };
	int n, i;

	strcpy(r.err, "123;;tsc;5;100.00;;\n");
	ck_assert_uint_eq(px_tsc(&r), 123);
	n = px_csv(table, ";", rows, PX_MAX_ROWS);
	for (i = 0; i < n; i++)
		ck_assert_int_eq(rows[i].nfields, 1);
	ck_assert_ptr_null(px_find(rows, n, "tsc"));
}

/* -j: the documented keys exactly, on every line. */
START_TEST(json_keys)
{
	static const char *const argv[] = {
		"-e", PX_EVENTS, "-j", "true", NULL
	};
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	int n;

	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	n = px_json(r.err, rows, PX_MAX_ROWS, 0);
	ck_assert_msg(n == 3, "%d objects:\n%s", n, r.err);
	ck_assert_str_eq(rows[0].name, "instructions");
	ck_assert_str_eq(rows[1].name, "cycles");
	ck_assert_str_eq(rows[2].name, "tsc");
	/* perf's counter-value is a string holding a number. */
	ck_assert_double_gt(strtod(rows[2].value, NULL), 0);
	if (model)
		ck_assert_double_gt(strtod(rows[0].value, NULL), 0);
	else
		ck_assert_str_eq(rows[0].value, "<not supported>");
}

START_TEST(json_repeat_has_variance)
{
	static const char *const argv[] = { "-r", "2", "-j", "true", NULL };
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	int n;

	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	n = px_json(r.err, rows, PX_MAX_ROWS, 1);
	ck_assert_msg(n >= 1, "not perfex's JSON with variance:\n%s", r.err);
	ck_assert_ptr_nonnull(px_find(rows, n, "tsc"));
	/* Without -r the same lines have a key too many. */
	ck_assert_int_eq(px_json(r.err, rows, PX_MAX_ROWS, 0), -1);
}

/*
 * The strict reader: each refused line breaks one rule. Written with '
 * for ", turned back by json_quotes(): a key missing; a number for a
 * string; text after the object; a key twice; a comma missing.
 */
static const char *const bad_json[] = {
	"{'counter-value' : '1', 'unit' : '', 'event' : 'tsc', 'event-runtime' : 1, 'pcnt-running' : 100.00, 'metric-value' : ''}",
	"{'counter-value' : 1, 'unit' : '', 'event' : 'tsc', 'event-runtime' : 1, 'pcnt-running' : 100.00, 'metric-value' : '', 'metric-unit' : ''}",
	"{'counter-value' : '1', 'unit' : '', 'event' : 'tsc', 'event-runtime' : 1, 'pcnt-running' : 100.00, 'metric-value' : '', 'metric-unit' : ''} x",
	"{'counter-value' : '1', 'unit' : '', 'event' : 'tsc', 'event-runtime' : 1, 'event-runtime' : 1, 'metric-value' : '', 'metric-unit' : ''}",
	"{'counter-value' : '1', 'unit' : '', 'event' : 'tsc' 'event-runtime' : 1, 'pcnt-running' : 100.00, 'metric-value' : '', 'metric-unit' : ''}",
};

/* Its accepting twin, with an escaped quote in the event's name. */
static const char *const good_json[] = {
	"{'counter-value' : '1.000000', 'unit' : '', 'event' : 'a\\'b', 'event-runtime' : 12, 'pcnt-running' : 100.00, 'metric-value' : '', 'metric-unit' : ''}",
};

static void json_quotes(char *dst, const char *src, size_t size)
{
	snprintf(dst, size, "%s", src);
	for (; *dst; dst++)
		if (*dst == '\'')
			*dst = '"';
}

START_TEST(json_reader_is_strict)
{
	struct px_row rows[2];
	char line[512];

	json_quotes(line, good_json[0], sizeof(line));
	ck_assert_int_eq(px_json(line, rows, 2, 0), 1);
	ck_assert_str_eq(rows[0].name, "a\"b");
	json_quotes(line, bad_json[_i], sizeof(line));
	ck_assert_int_eq(px_json(line, rows, 2, 0), -1);
}

/* -r 3 in the table: the runs, and a spread on every row and the time. */
START_TEST(table_repeat_has_spread)
{
	static const char *const argv[] = { "-r", "3", "true", NULL };
	struct px_result r;
	const char *tsc;

	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, " Performance counter stats for 'true' (3 runs):"),
		      "%s", r.err);
	tsc = strstr(r.err, " tsc ");
	ck_assert_msg(tsc && strstr(tsc, "( +-") < strchr(tsc, '\n'),
		      "%s", r.err);
	ck_assert_msg(strstr(r.err, " +- ") &&
		      strstr(r.err, "seconds time elapsed  ( +-"), "%s", r.err);
}

/* One run: no spread (its accepting twin). */
START_TEST(table_one_run_has_none)
{
	static const char *const argv[] = { "true", NULL };
	struct px_result r;

	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, " Performance counter stats for 'true':\n"),
		      "%s", r.err);
	ck_assert_ptr_null(strstr(r.err, "+-"));
	ck_assert_ptr_nonnull(strstr(r.err, " tsc"));
}

/* -o FILE: the counts there, the command's output untouched. */
START_TEST(output_file)
{
	static const char *const argv[] = {
		"-o", OUT_FILE, "-x", ";", "sh", "-c", "echo hello; echo oops >&2",
		NULL
	};
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r, f = { 0 };
	FILE *in;

	unlink(OUT_FILE);
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_str_eq(r.out, "hello\n");
	/* stderr: the command's line, and perfex's notes at most. */
	ck_assert_msg(px_csv(r.err, ";", rows, PX_MAX_ROWS) == 1 &&
		      rows[0].nfields == 1 && !strcmp(rows[0].value, "oops"),
		      "%s", r.err);
	in = fopen(OUT_FILE, "r");
	ck_assert_ptr_nonnull(in);
	ck_assert_int_gt(fread(f.err, 1, sizeof(f.err) - 1, in), 0);
	fclose(in);
	ck_assert_uint_gt(px_tsc(&f), 0);
	unlink(OUT_FILE);
}

/* An -o that cannot be written: perfex fails (1) and runs nothing. */
START_TEST(output_file_unwritable)
{
	static const char *const argv[] = {
		"-o", "/nonexistent/px", PX_TOUCH, NULL
	};
	struct px_result r;

	unlink(MARKER);
	px_run(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "perfex: -o /nonexistent/px"));
	ck_assert_int_ne(access(MARKER, F_OK), 0);
}

/*
 * Zen's large-increment FLOPs event (003H) through its perf name: the
 * simulated Zen 4 has it occur 18 times a cycle, which only a pair with
 * Merge counts whole (amd.rst, "Counter pairs"; testing.rst). perfex
 * places the pair, the driver takes it, and the count is 18 cycles'.
 */
START_TEST(zen_pair_counts_whole)
{
	static const char *const argv[] = {
		"-x", ";", "-e", "fp_ret_sse_avx_ops.all:u,cycles:u", "--",
		"sh", "-c", "i=0; while [ $i -lt 2000 ]; do i=$((i+1)); done",
		NULL
	};
	struct px_row rows[PX_MAX_ROWS];
	unsigned long long flops, cycles;
	struct px_result r;
	int n;

	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	ck_assert_msg(n == 3, "%d rows:\n%s", n, r.err);
	ck_assert_str_eq(rows[0].name, "fp_ret_sse_avx_ops.all:u");
	flops = strtoull(rows[0].value, NULL, 10);
	cycles = strtoull(rows[1].value, NULL, 10);
	ck_assert_msg(cycles > 1000 && within(flops, 18 * cycles, 1),
		      "flops %llu, cycles %llu:\n%s", flops, cycles, r.err);
}

void px_format_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "perfex-format", NULL, NULL);

	tcase_add_loop_test(tc, csv_fields, 0, ARRAY_SIZE(csv_argv));
	tcase_add_test(tc, csv_repeat_has_variance);
	tcase_add_test(tc, csv_reader_tells_layouts);
	tcase_add_test(tc, json_keys);
	tcase_add_test(tc, json_repeat_has_variance);
	tcase_add_loop_test(tc, json_reader_is_strict, 0, ARRAY_SIZE(bad_json));
	tcase_add_test(tc, table_repeat_has_spread);
	tcase_add_test(tc, table_one_run_has_none);
	tcase_add_test(tc, output_file);
	tcase_add_test(tc, output_file_unwritable);
	if (model && !strcmp(model->name, "zen4"))
		tcase_add_test(tc, zen_pair_counts_whole);
}
