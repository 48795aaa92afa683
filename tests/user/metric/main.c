// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for perfex's metric expressions (tools/perfex/metric.c):
 * the evaluator alone, no module needed, so it runs on the host as in
 * the VM. Each rule of the grammar (perfex.rst, "Metrics") has a case it
 * must take, with the value worked out by hand, and one it must refuse,
 * with what the message must say.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metric.h"

/* The names the tests use, as perfex's would give them. */
static const struct {
	const char *name;
	double val;
} names[] = {
	{ "INST_RETIRED", 300 }, { "CYCLES", 200 }, { "ZERO", 0 },
	{ "l2_request_g1.all", 40 }, { "#smt_on", 1 }, { "duration_time", 5 },
};

static int lookup(const char *name, double *val, void *arg)
{
	size_t i;

	(void)arg;
	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (!strcasecmp(names[i].name, name)) {
			*val = names[i].val;
			return 0;
		}
	return -1;
}

static double eval_ok(const char *expr)
{
	char err[256];
	double v = -12345;

	ck_assert_msg(!metric_eval(expr, lookup, NULL, &v, err, sizeof(err)),
		      "'%s' refused: %s", expr, err);
	return v;
}

static void eval_bad(const char *expr, const char *says)
{
	char err[256];
	double v = -12345;

	ck_assert_msg(metric_eval(expr, lookup, NULL, &v, err, sizeof(err)),
		      "'%s' taken: %g", expr, v);
	ck_assert_msg(strstr(err, says), "'%s': '%s' lacks '%s'", expr, err,
		      says);
	ck_assert(v == -12345);
}

/* Values are small and exact: a tolerance for the last bit only. */
#define TOL		0.000000001
#define EQ(expr, want)	ck_assert_double_eq_tol(eval_ok(expr), (want), TOL)

START_TEST(numbers)
{
	EQ("42", 42);
	EQ("1.5", 1.5);
	EQ(".25", 0.25);
	EQ("1e3", 1000);
	EQ("2.5E-1", 0.25);
	eval_bad("0x10", "unexpected 'x10'");
	eval_bad(".", "malformed numeral");
	eval_bad("1e", "unexpected 'e'");
}

START_TEST(names_looked_up)
{
	EQ("INST_RETIRED", 300);
	EQ("inst_retired", 300);		/* case ignored by the lookup */
	EQ("l2_request_g1.all", 40);
	EQ("#smt_on", 1);
	EQ("duration_time", 5);
	eval_bad("NO_SUCH_EVENT", "'NO_SUCH_EVENT' is neither an event");
	eval_bad("#num_packages", "'#num_packages' is neither");
	eval_bad("#", "want a number, a name or '('");
	eval_bad("cpu@INST_RETIRED@", "'cpu@' (a PMU-qualified");
	eval_bad("@x", "'@' (a PMU-qualified");
	eval_bad("a\\-b", "'a\\' (a PMU-qualified or escaped");
}

START_TEST(arithmetic)
{
	EQ("INST_RETIRED / CYCLES", 1.5);		/* 300 / 200 */
	EQ("1 + 2 * 3", 7);				/* * binds tighter */
	EQ("(1 + 2) * 3", 9);
	EQ("10 - 4 - 3", 3);				/* left to right */
	EQ("12 / 3 / 2", 2);
	EQ("-3 + 5", 2);
	EQ("- -3", 3);
	EQ("2 * -CYCLES", -400);
	eval_bad("1 +", "want a number, a name or '(', found the end");
	eval_bad("* 2", "want a number");
	eval_bad("1 2", "unexpected '2'");
	eval_bad("(1 + 2", "want ')', found the end");
	eval_bad("1 + 2)", "unexpected ')'");
	eval_bad("1 % 2", "unexpected '% 2'");
	eval_bad("", "want a number");
}

/* perf's: x / 0 is NaN (printed "nan"); d_ratio(x, 0) is 0. */
START_TEST(division_by_zero)
{
	ck_assert(isnan(eval_ok("INST_RETIRED / ZERO")));
	ck_assert(isnan(eval_ok("0 / 0")));
	EQ("d_ratio(INST_RETIRED, ZERO)", 0);
	EQ("d_ratio(INST_RETIRED, CYCLES)", 1.5);
	EQ("D_RATIO(3, 4)", 0.75);
}

START_TEST(functions)
{
	EQ("min(INST_RETIRED, CYCLES)", 200);
	EQ("max(INST_RETIRED, CYCLES)", 300);
	EQ("max(1, min(5, 3)) + 1", 4);
	/* as perf's a < b ? a : b: NaN second wins, NaN first loses */
	EQ("min(ZERO / ZERO, 1)", 1);
	ck_assert(isnan(eval_ok("min(1, ZERO / ZERO)")));
	EQ("max(ZERO / ZERO, 1)", 1);
	eval_bad("min(1)", "want ',', found ')'");
	eval_bad("max(1, 2", "want ')', found the end");
	eval_bad("source_count(CYCLES)",
		 "function source_count(): perfctr has min, max and d_ratio");
	eval_bad("min 1, 2", "'min' is neither");
}

START_TEST(comparisons)
{
	EQ("CYCLES < INST_RETIRED", 1);
	EQ("CYCLES > INST_RETIRED", 0);
	EQ("1 + 1 > 1", 1);			/* + binds tighter */
	eval_bad("1 < ", "want a number");
	eval_bad("1 == 1", "unexpected '== 1'");
}

START_TEST(if_else)
{
	EQ("1 if CYCLES > 0 else 2", 1);
	EQ("1 if ZERO > 0 else 2", 2);
	/* chained: the else takes the next if */
	EQ("1 if ZERO else 2 if ZERO else 3", 3);
	EQ("1 if ZERO else 2 if CYCLES else 3", 2);
	/* the lowest precedence: (1 + 1) if ... else (2 * 5) */
	EQ("1 + 1 if ZERO else 2 * 5", 10);
	eval_bad("1 if CYCLES", "want 'else' after 'if'");
	eval_bad("if CYCLES else 2", "want a number");
	eval_bad("1 else 2", "unexpected 'else 2'");
}

/* Hostile input: bounded nesting, bounded names, no overrun. */
START_TEST(limits)
{
	char deep[512], name[300];
	int i, n = METRIC_MAX_DEPTH;

	memset(deep, 0, sizeof(deep));
	for (i = 0; i < n; i++)
		deep[i] = '(';
	deep[n] = '7';
	for (i = 0; i < n; i++)
		deep[n + 1 + i] = ')';
	EQ(deep, 7);				/* 64 levels: taken */
	memmove(deep + 1, deep, strlen(deep) + 1);
	deep[0] = '(';
	strcat(deep, ")");
	eval_bad(deep, "nested deeper than 64");	/* 65: refused */
	memset(deep, '-', 200);
	strcpy(deep + 200, "1");
	eval_bad(deep, "nested deeper than 64");
	memset(name, 'A', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	eval_bad(name, "a name longer than 127 characters");
	name[METRIC_NAME_MAX - 1] = '\0';
	eval_bad(name, "is neither an event");	/* 127: looked up */
}

/* A short error buffer is cut, never overrun. */
START_TEST(short_error_buffer)
{
	char err[8] = "xxxxxxx";
	double v;

	ck_assert_int_eq(metric_eval("1 +", lookup, NULL, &v, err, 4), -1);
	ck_assert_str_eq(err, "at ");
	ck_assert_int_eq(err[4], 'x');
}

int main(void)
{
	Suite *s = suite_create("metric");
	TCase *tc = tcase_create("eval");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, numbers);
	tcase_add_test(tc, names_looked_up);
	tcase_add_test(tc, arithmetic);
	tcase_add_test(tc, division_by_zero);
	tcase_add_test(tc, functions);
	tcase_add_test(tc, comparisons);
	tcase_add_test(tc, if_else);
	tcase_add_test(tc, limits);
	tcase_add_test(tc, short_error_buffer);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
