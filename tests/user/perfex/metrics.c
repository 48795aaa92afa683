// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "metrics" case: -M and -l --metrics (perfex.rst,
 * "Metrics"). A metric's value must be its expression over the counts
 * perfex printed beside it: the tests take perfctr's own IPC, whose
 * expression (-l -v --metrics) is "A / B", and divide the printed A by
 * the printed B. Tables without it (perf's) and perfctr.ko, whose
 * events are <not supported>, have the refusals and the list only.
 */
#define _GNU_SOURCE
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

#ifdef __powerpc__
#define IPC_EXPR	"INSTR_COMPLETED / PROCESSOR_CYCLES"
/* With IPC's and branch_miss_rate's four: seven events, six PMCs. */
#define THREE_MORE	"VPU_INSTR_COMPLETED,VFPU_INSTR_COMPLETED,VIU1_INSTR_COMPLETED"
#else
#define IPC_EXPR	"RETIRED_INSTRUCTIONS / CPU_CLK_UNHALTED"
/* With IPC's and branch_miss_rate's four: five events, four counters. */
#define THREE_MORE	"DATA_CACHE_ACCESSES"
#endif

/* A printed metric is rounded to two decimals, one with a unit. */
#define ROUNDING	0.0051
#define ROUNDING_UNIT	0.051

static void run_ok(struct px_result *r, const char *const *argv)
{
	px_run(r, argv);
	ck_assert_msg(r->status == 0, "status %d:\n%s", r->status, r->err);
}

/*
 * IPC's two events, @a / @b, from this CPU's table; 0 where it has no
 * IPC perfctr defines, or counts nothing.
 */
static int ipc_events(char *a, char *b)
{
	static const char *const argv[] = {
		"-l", "-v", "--metrics", "IPC", NULL
	};
	struct px_result r;
	const char *e;

	if (!model)
		return 0;
	px_run(&r, argv);
	e = strstr(r.out, "IPC  [Summary]  ");
	if (r.status || !e)
		return 0;
	e = strchr(e, '\n');
	if (!e)
		return 0;
	return sscanf(e, "\n  %127s / %127s\n", a, b) == 2;
}

static double number(const char *s, const struct px_result *r)
{
	char *end;
	double v = strtod(s, &end);

	ck_assert_msg(end != s && *end == '\0', "'%s' is not a count:\n%s", s,
		      r->err);
	return v;
}

/* The metric beside @a must be @a's count over @b's. */
static void check_ratio_tol(double a, double b, double metric, double tol)
{
	ck_assert_msg(b > 0, "no count of the metric's divisor");
	ck_assert_msg(fabs(metric - a / b) <= tol,
		      "metric %.4f, the counts say %.0f / %.0f = %.4f", metric,
		      a, b, a / b);
}

static void check_ratio(double a, double b, double metric)
{
	check_ratio_tol(a, b, metric, ROUNDING);
}

/* -x: the metric's value and unit in perf's two fields of @a's row. */
static void check_csv(const struct px_result *r, const char *a, const char *b)
{
	struct px_row rows[PX_MAX_ROWS];
	const struct px_row *ra, *rb;
	int n = px_csv(r->err, ";", rows, PX_MAX_ROWS);

	ra = px_find(rows, n, a);
	rb = px_find(rows, n, b);
	ck_assert_msg(ra && rb, "no %s or %s row:\n%s", a, b, r->err);
	ck_assert_int_eq(ra->nfields, 7);
	ck_assert_str_eq(ra->fields[6], "IPC");
	ck_assert_str_eq(rb->fields[6], "");
	check_ratio(number(ra->value, r), number(rb->value, r),
		    number(ra->fields[5], r));
}

START_TEST(ipc_csv)
{
	static const char *const argv[] = { "-M", "IPC", "-x", ";", "true", NULL };
	char a[128], b[128];
	struct px_result r;

	if (!ipc_events(a, b))
		return;
	run_ok(&r, argv);
	check_csv(&r, a, b);
}

/* -j: "metric-value" and "metric-unit" of @a's object. */
START_TEST(ipc_json)
{
	static const char *const argv[] = { "-M", "ipc", "-j", "true", NULL };
	double va = -1, vb = -1, metric = -1;
	struct px_json_member m[16];
	char a[128], b[128], *line, *save = NULL;
	struct px_result r;
	int n, i, is_a, is_b;

	if (!ipc_events(a, b))
		return;
	run_ok(&r, argv);
	for (line = strtok_r(r.err, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '{')
			continue;
		n = px_json_line(line, m, 16);
		ck_assert_msg(n > 0, "not an object: %s", line);
		is_a = 0;
		is_b = 0;
		for (i = 0; i < n; i++) {
			is_a |= !strcmp(m[i].key, "event") && !strcmp(m[i].val, a);
			is_b |= !strcmp(m[i].key, "event") && !strcmp(m[i].val, b);
		}
		for (i = 0; i < n && (is_a || is_b); i++) {
			if (!strcmp(m[i].key, "counter-value"))
				*(is_a ? &va : &vb) = number(m[i].val, &r);
			if (is_a && !strcmp(m[i].key, "metric-value"))
				metric = number(m[i].val, &r);
			if (!strcmp(m[i].key, "metric-unit"))
				ck_assert_str_eq(m[i].val, is_a ? "IPC" : "");
		}
	}
	ck_assert_msg(va >= 0 && vb >= 0 && metric >= 0, "%s", r.err);
	check_ratio(va, vb, metric);
}

/* A table count: its thousands separated by commas. */
static double table_count(const char *line, const struct px_result *r)
{
	char digits[64];
	size_t o = 0;

	for (line += strspn(line, " "); *line && *line != ' '; line++)
		if (*line != ',' && o + 1 < sizeof(digits))
			digits[o++] = *line;
	digits[o] = '\0';
	return number(digits, r);
}

/* The table: "# value IPC" on @a's line, as perf stat comments it. */
START_TEST(ipc_table)
{
	static const char *const argv[] = { "-M", "IPC", "true", NULL };
	double va = -1, vb = -1, metric = -1;
	char a[128], b[128], *line, *save = NULL, *hash;
	struct px_result r;

	if (!ipc_events(a, b))
		return;
	run_ok(&r, argv);
	for (line = strtok_r(r.err, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		hash = strstr(line, "  # ");
		if (strstr(line, a) && hash) {
			va = table_count(line, &r);
			ck_assert_msg(sscanf(hash, "  # %lf IPC", &metric) == 1,
				      "%s", line);
			ck_assert(!strcmp(hash + strlen(hash) - 4, " IPC"));
		} else if (strstr(line, b)) {
			vb = table_count(line, &r);
			ck_assert_msg(!hash, "%s has a figure", line);
		}
	}
	ck_assert_msg(va >= 0 && vb >= 0 && metric >= 0, "%s", r.err);
	check_ratio(va, vb, metric);
}

/* Software events among -e's: the metric still on its event's row. */
START_TEST(with_software_events)
{
	static const char *const argv[] = {
		"-e", "task-clock,page-faults", "-M", "IPC", "-x", ";", "true",
		NULL
	};
	struct px_row rows[PX_MAX_ROWS];
	char a[128], b[128];
	struct px_result r;
	int n;

	if (!ipc_events(a, b))
		return;
	run_ok(&r, argv);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	ck_assert_msg(n == 5, "%d rows:\n%s", n, r.err);
	ck_assert_str_eq(rows[0].name, "task-clock");
	ck_assert_str_eq(rows[1].name, "page-faults");
	ck_assert_str_eq(rows[2].name, a);
	ck_assert_str_eq(rows[3].name, b);
	ck_assert_str_eq(rows[4].name, "tsc");
	check_csv(&r, a, b);
}

/* -a: every CPU's counts, the metric over their sums. */
START_TEST(system_wide)
{
	static const char *const argv[] = {
		"-a", "-M", "IPC", "-x", ";", "true", NULL
	};
	char a[128], b[128];
	struct px_result r;

	if (!ipc_events(a, b))
		return;
	run_ok(&r, argv);
	check_csv(&r, a, b);
}

/* A group picks its members, case ignored, as perf's -M does. */
START_TEST(group_by_name)
{
	static const char *const argv[] = {
		"-M", "summary", "-x", ";", "true", NULL
	};
	struct px_row rows[PX_MAX_ROWS];
	char a[128], b[128];
	struct px_result r;
	int n, i, ipc = 0, cpi = 0;

	if (!ipc_events(a, b))
		return;
	run_ok(&r, argv);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	for (i = 0; i < n; i++) {
		ipc += rows[i].nfields == 7 && !strcmp(rows[i].fields[6], "IPC");
		cpi += rows[i].nfields == 7 && !strcmp(rows[i].fields[6], "CPI");
	}
	ck_assert_msg(ipc == 1 && cpi == 1, "%s", r.err);
}

/*
 * Two metrics of one first event, IPC and insn_per_branch: the second
 * on a line of its own below the event's, in each layout as perf's.
 */
static const char *const own_line_argv[][7] = {
	{ "-M", "IPC,insn_per_branch", "-x", ";", "true" },
	{ "-M", "IPC,insn_per_branch", "-j", "true" },
	{ "-M", "IPC,insn_per_branch", "true" },
};

START_TEST(own_line)
{
	char a[128], b[128], *line, *save = NULL, *next;
	struct px_result r;

	static const char *const list[] = { "-l", "--metrics",
					    "insn_per_branch", NULL };

	if (!ipc_events(a, b))
		return;
	/* The 750's table has IPC and CPI only (its metrics.json). */
	run_ok(&r, list);
	if (!strstr(r.out, "insn_per_branch"))
		return;
	run_ok(&r, own_line_argv[_i]);
	for (line = strtok_r(r.err, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strstr(line, a) && strstr(line, "IPC"))
			break;
	ck_assert_msg(line, "no IPC on %s's line", a);
	next = strtok_r(NULL, "\n", &save);
	ck_assert_msg(next, "no line after %s's", a);
	if (_i == 0) {
		ck_assert_msg(!strncmp(next, ";;;;;", 5) &&
			      !strcmp(next + strlen(next) - 16, ";insn_per_branch"),
			      "%s", next);
	} else if (_i == 1) {
		ck_assert_msg(!strncmp(next, "{\"metric-value\" : \"", 19) &&
			      strstr(next, "\", \"metric-unit\" : \"insn_per_branch\"}"),
			      "%s", next);
	} else {
		ck_assert_msg(strspn(next, " ") > 40 &&
			      strstr(next, "  # ") &&
			      !strcmp(next + strlen(next) - 16, " insn_per_branch"),
			      "'%s'", next);
	}
}

/*
 * perf's imported tables: the first metric perfex can evaluate whose
 * expression is "A / B" or "d_ratio(A, B)", its ScaleUnit none or 100%,
 * found in -l -v --metrics; 0 if none. @label: its metric unit.
 */
static int imported_metric(char *name, char *a, char *b, double *scale,
			   char *label)
{
	static const char *const table[] = { "--table", NULL };
	static const char *const list[] = { "-l", "-v", "--metrics", NULL };
	char *line, *save = NULL, su[16];
	struct px_result r;
	int n;

	px_run(&r, table);
	if (!model || r.status || !strstr(r.out, "(perf's)"))
		return 0;
	px_run(&r, list);
	ck_assert_int_eq(r.status, 0);
	for (line = strtok_r(r.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != ' ') {
			n = sscanf(line, "%127s", name);
			if (strstr(line, "[unsupported]"))
				name[0] = '\0';
			continue;
		}
		if (!name[0] || line[1] != ' ')
			continue;
		su[0] = '\0';
		n = sscanf(line, "  d_ratio(%127[^,], %127[^)]); scale unit %15s",
			   a, b, su);
		if (n < 2)
			n = sscanf(line, "  %127[^ ] / %127[^;]; scale unit %15s",
				   a, b, su);
		if (n < 2 || strpbrk(a, "()*+-/ ") || strpbrk(b, "()*+-/ ") ||
		    (su[0] && strcmp(su, "100%")))
			continue;
		*scale = su[0] ? 100 : 1;
		snprintf(label, 160, "%s%s", su[0] ? "%  " : "", name);
		return 1;
	}
	return 0;
}

START_TEST(imported)
{
	char name[128] = "", a[128], b[128], label[160];
	const char *const argv[] = { "-M", name, "-x", ";", "true", NULL };
	struct px_row rows[PX_MAX_ROWS];
	const struct px_row *ra, *rb;
	struct px_result r;
	double scale;
	int n;

	if (!imported_metric(name, a, b, &scale, label))
		return;
	run_ok(&r, argv);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	ra = px_find(rows, n, a);
	rb = px_find(rows, n, b);
	ck_assert_msg(ra && rb && ra->nfields == 7, "-M %s:\n%s", name, r.err);
	ck_assert_str_eq(ra->fields[6], label);
	check_ratio_tol(scale * number(ra->value, &r), number(rb->value, &r),
			number(ra->fields[5], &r),
			scale > 1 ? ROUNDING_UNIT : ROUNDING);
}

/*
 * A metric of this table named as @glob whose expression is @expr alone:
 * its name into @name, 0 if there is none perfex can evaluate. The glob
 * keeps the list within what px_run() keeps of perf's long tables.
 */
static int metric_of_expr(const char *glob, const char *expr, char *name)
{
	const char *const list[] = { "-l", "-v", "--metrics", glob, NULL };
	char *line, *save = NULL;
	struct px_result r;

	name[0] = '\0';
	px_run(&r, list);
	ck_assert_int_eq(r.status, 0);
	for (line = strtok_r(r.out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != ' ' && strstr(line, "[unsupported]"))
			name[0] = '\0';
		else if (line[0] != ' ')
			sscanf(line, "%127s", name);
		else if (name[0] && !strncmp(line, "  ", 2) &&
			 !strcmp(line + 2, expr))
			return 1;
	}
	return 0;
}

/* duration_time is the elapsed time in seconds, as perf gives it. */
START_TEST(duration_time_in_seconds)
{
	char name[128], label[160], *line, *save = NULL, *hash;
	const char *const argv[] = { "-M", name, "true", NULL };
	double metric = -1, elapsed = -1;
	struct px_result r;

	if (!model || !metric_of_expr("*time*", "duration_time", name))
		return;
	run_ok(&r, argv);
	snprintf(label, sizeof(label), " %s", name);
	for (line = strtok_r(r.err, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		hash = strstr(line, "  # ");
		if (hash && strlen(hash) > strlen(label) &&
		    !strcmp(hash + strlen(hash) - strlen(label), label))
			metric = strtod(hash + 4, NULL);
		if (strstr(line, " seconds time elapsed"))
			elapsed = strtod(line, NULL);
	}
	ck_assert_msg(metric >= 0 && elapsed > 0, "%s", r.err);
	ck_assert_msg(fabs(metric - elapsed) <= ROUNDING, "%s", r.err);
}

/* -l --metrics: name, [group], description; -v the expression. */
START_TEST(listed)
{
	static const char *const argv[] = {
		"--cpuid=" PX_TABLE_CPUID, "-l", "--metrics", NULL
	};
	static const char *const verbose[] = {
		"--cpuid=" PX_TABLE_CPUID, "-l", "-v", "--metrics", "ipc", NULL
	};
	static const char *const glob[] = {
		"--cpuid=" PX_TABLE_CPUID, "-l", "--metrics", "branch*", NULL
	};
	struct px_result r;

	run_ok(&r, argv);
	ck_assert_msg(!strncmp(r.out, "IPC  [Summary]  Instructions per cycle",
			       38), "%s", r.out);
	ck_assert_msg(strstr(r.out, "\nbranch_miss_rate  [Branches]  "), "%s",
		      r.out);
	run_ok(&r, verbose);
	ck_assert_msg(strstr(r.out, "\n  " IPC_EXPR "\n"), "%s", r.out);
	ck_assert_msg(!strstr(r.out, "CPI"), "%s", r.out);
	run_ok(&r, glob);
	ck_assert_msg(!strncmp(r.out, "branch_miss_rate  [Branches]", 28) &&
		      !strchr(strchr(r.out, '\n') + 1, '\n'), "%s", r.out);
}

START_TEST(unknown_refused)
{
	static const char *const argv[] = {
		"-M", "NO_SUCH_METRIC", "true", NULL
	};
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err,
			     "perfex: -M NO_SUCH_METRIC: no metric or metric group of that name"),
		      "%s", r.err);
	ck_assert_msg(strstr(r.err, "'perfex -l --metrics' lists them"), "%s",
		      r.err);
}

/* Too many events at once: refused, the events and metrics named. */
START_TEST(no_fit_refused)
{
	static const char *const argv[] = {
		"--cpuid=" PX_TABLE_CPUID, "-M", "IPC,branch_miss_rate", "-e",
		THREE_MORE, "true", NULL
	};
	struct px_result r;

	px_run(&r, argv);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "do not fit this CPU's counters"), "%s",
		      r.err);
	ck_assert_msg(strstr(r.err, "perfex: -M IPC,branch_miss_rate needs IPC ("
			     IPC_EXPR "); branch_miss_rate ("), "%s", r.err);
	ck_assert_msg(strstr(r.err,
			     "count the metrics and the -e events in two runs"),
		      "%s", r.err);
}

/* Malformed -M lists and --metrics without -l: usage errors. */
static const char *const bad[][5] = {
	{ "-M", ",IPC", "true" },
	{ "-M", "IPC,,CPI", "true" },
	{ "--metrics", "true" },
	{ "-M", "IPC", "-l" },
};

static const char *const says[] = {
	"give metric or group names separated by commas",
	"give metric or group names separated by commas",
	"--metrics alone lists with -l only",
	"are for counting a command",
};

START_TEST(bad_options_refused)
{
	struct px_result r;

	px_run(&r, bad[_i]);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, says[_i]), "%s", r.err);
}

void px_metrics_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "metrics", NULL, NULL);

	tcase_add_test(tc, ipc_csv);
	tcase_add_test(tc, ipc_json);
	tcase_add_test(tc, ipc_table);
	tcase_add_test(tc, with_software_events);
	tcase_add_test(tc, system_wide);
	tcase_add_test(tc, group_by_name);
	tcase_add_loop_test(tc, own_line, 0, ARRAY_SIZE(own_line_argv));
	tcase_add_test(tc, imported);
	tcase_add_test(tc, duration_time_in_seconds);
	tcase_add_test(tc, listed);
	tcase_add_test(tc, unknown_refused);
	tcase_add_test(tc, no_fit_refused);
	tcase_add_loop_test(tc, bad_options_refused, 0, ARRAY_SIZE(bad));
}
