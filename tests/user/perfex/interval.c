// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "interval" case: -I (perfex.rst, "Intervals"). Each
 * interval holds the counts since the last, so the intervals of one
 * count must add up to that count: under busy -p (a command whose
 * threads and processes report their own final sums, inherit.c) the TSC
 * over every interval must be exactly busy's total. The workers are
 * members of the command's tree and busy's main thread only waits, so
 * an interval before the command's end that counted no live member
 * would show next to nothing: the intervals before the last must hold
 * most of the work. Then the three layouts' interval fields, -a -I
 * against global mode, and the refusals.
 */
#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libperfctr.h"
#include "suite.h"

#define WORK_MS		600
#define MAX_LINES	256

struct iline {
	double time;
	char name[64];
	char value[64];
};

/* Splits @text's lines; the non-blank, non-'#' ones into @l by @parse. */
static int lines_of(const char *text, struct iline *l, int max,
		    int (*parse)(const char *line, struct iline *l))
{
	char buf[512];
	const char *s = text, *e;
	int n = 0;

	for (; *s && n < max; s = *e ? e + 1 : e) {
		e = strchrnul(s, '\n');
		if ((size_t)(e - s) >= sizeof(buf))
			continue;
		memcpy(buf, s, e - s);
		buf[e - s] = '\0';
		if (!buf[strspn(buf, " ")] || buf[0] == '#' ||
		    strncmp(buf + strspn(buf, " "), "perfex:", 7) == 0)
			continue;
		if (parse(buf, &l[n]))
			n++;
	}
	return n;
}

/* -x ';': time;value;unit;event;... */
static int parse_csv(const char *line, struct iline *l)
{
	char unit[64];

	return sscanf(line, " %lf;%63[^;];%63[^;];%63[^;];", &l->time,
		      l->value, unit, l->name) == 4 ||
	       sscanf(line, " %lf;%63[^;];;%63[^;];", &l->time, l->value,
		      l->name) == 3;
}

/* The table: "   time   value [unit] event ..." (value may hold commas). */
static int parse_table(const char *line, struct iline *l)
{
	char a[64], b[64], c[64];
	int n = sscanf(line, " %lf %63s %63s %63s", &l->time, a, b, c);

	if (n < 3)
		return 0;
	snprintf(l->value, sizeof(l->value), "%s", a);
	snprintf(l->name, sizeof(l->name), "%s",
		 n == 4 && !strcmp(b, "msec") ? c : b);
	return 1;
}

/* -j: {"interval" : T, "counter-value" : "V", "unit" : ..., "event" : "E" */
static int parse_json(const char *line, struct iline *l)
{
	struct px_json_member m[16];
	int n = px_json_line(line, m, 16), i, got = 0;

	for (i = 0; i < n; i++) {
		if (!strcmp(m[i].key, "interval") && !m[i].is_string) {
			l->time = strtod(m[i].val, NULL);
			got |= 1;
		} else if (!strcmp(m[i].key, "counter-value")) {
			snprintf(l->value, sizeof(l->value), "%s", m[i].val);
			got |= 2;
		} else if (!strcmp(m[i].key, "event")) {
			snprintf(l->name, sizeof(l->name), "%s", m[i].val);
			got |= 4;
		}
	}
	/* The interval key first, as perf has it. */
	return got == 7 && n > 0 && !strcmp(m[0].key, "interval");
}

/* The table's values have commas; -j's are "%f" strings. */
static unsigned long long value_of(const char *v)
{
	char digits[64], *end;
	size_t o = 0, i;
	double d;

	for (i = 0; v[i] && o + 1 < sizeof(digits); i++)
		if (v[i] != ',')
			digits[o++] = v[i];
	digits[o] = '\0';
	d = strtod(digits, &end);
	ck_assert_msg(o && !*end && d >= 0 && d == (unsigned long long)d,
		      "value '%s'", v);
	return (unsigned long long)d;
}

/*
 * The intervals' tsc rows: each interval's time after the last one's,
 * every interval with the same rows; their sum, and how many.
 */
static unsigned long long tsc_total(const struct iline *l, int n,
				    int *nint, unsigned long long *last)
{
	unsigned long long sum = 0, v = 0;
	double t = -1;
	int i, rows = 0, per = 0;

	*nint = 0;
	for (i = 0; i < n; i++) {
		if (l[i].time != t) {
			ck_assert_msg(l[i].time > t, "time %f after %f",
				      l[i].time, t);
			if (*nint == 1)
				per = rows;
			ck_assert(*nint < 2 || rows == per);
			t = l[i].time;
			rows = 0;
			(*nint)++;
		}
		rows++;
		if (!strcmp(l[i].name, "tsc")) {
			v = value_of(l[i].value);
			sum += v;
		}
	}
	*last = v;
	return sum;
}

static const char *const layouts[][2] = {
	{ "-x", ";" }, { "-j", NULL }, { NULL, NULL },
};

static int (*const parsers[])(const char *, struct iline *) = {
	parse_csv, parse_json, parse_table,
};

/* busy -p 2 WORK_MS under -I 100: the intervals add up to busy's total. */
START_TEST(interval_adds_up_live_members)
{
	const char *argv[16] = { "-I", "100", "-e", PX_EVENTS };
	unsigned long long sum, last, work = 2 * ms_ticks(WORK_MS);
	struct iline *l = calloc(MAX_LINES, sizeof(*l));
	struct px_result r;
	int i = 4, n, nint;
	char ms[16];

	ck_assert_ptr_nonnull(l);
	if (layouts[_i][0])
		argv[i++] = layouts[_i][0];
	if (layouts[_i][1])
		argv[i++] = layouts[_i][1];
	argv[i++] = px_busy();
	argv[i++] = "-p";
	argv[i++] = "2";
	snprintf(ms, sizeof(ms), "%d", WORK_MS);
	argv[i++] = ms;
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	if (!layouts[_i][0])
		ck_assert_msg(strstr(r.err, "#           time"), "%s", r.err);
	/* No summary after the intervals, as perf stat -I. */
	ck_assert_msg(!strstr(r.err, "Performance counter stats"), "%s", r.err);
	n = lines_of(r.err, l, MAX_LINES, parsers[_i]);
	sum = tsc_total(l, n, &nint, &last);
	ck_assert_msg(nint >= 3, "%d intervals:\n%s", nint, r.err);
	ck_assert_msg(sum == px_busy_tsc(&r), "intervals' tsc %llu, busy's:\n%s%s",
		      sum, r.out, r.err);
	ck_assert_msg(sum >= work * 8 / 10, "tsc %llu for %llu of work", sum,
		      work);
	/* The workers were counted while they ran, not at the end only. */
	ck_assert_msg(sum - last >= work / 2, "before the end %llu of %llu:\n%s",
		      sum - last, sum, r.err);
	free(l);
}

/* -a -I: the intervals add up to what global mode holds after. */
START_TEST(interval_system_wide)
{
	const char *const argv[] = { "-a", "-I", "100", "-x", ";", "-e",
				     PX_EVENTS, "sleep", "1", NULL };
	struct iline *l = calloc(MAX_LINES, sizeof(*l));
	unsigned long long sum, last, want = 0;
	struct perfctr_sum_ctrs s[64];
	struct px_result r;
	int n, nint, fd, i;
	ssize_t got;

	ck_assert_ptr_nonnull(l);
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	n = lines_of(r.err, l, MAX_LINES, parse_csv);
	sum = tsc_total(l, n, &nint, &last);
	ck_assert_msg(nint >= 3, "%d intervals:\n%s", nint, r.err);
	fd = open("/proc/perfctr/global", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	got = pread(fd, s, sizeof(s), 0);
	close(fd);
	ck_assert_int_gt(got, 0);
	for (i = 0; i < got / (ssize_t)sizeof(s[0]); i++)
		want += s[i].tsc;
	ck_assert_msg(sum == want, "intervals %llu, global %llu:\n%s", sum,
		      want, r.err);
	free(l);
}

/* Every bad -I refused with a usage error that says what to give. */
START_TEST(interval_refused)
{
	static const char *const bad[][6] = {
		{ "-I", "9", "true" },
		{ "-I", "3600001", "true" },
		{ "-I", "1x", "true" },
		{ "-I", "100", "-r", "2", "true" },
	};
	static const char *const good[] = { "-I", "10", "true", NULL };
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, bad[_i]);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "-I"), "%s", r.err);
	px_run(&r, good);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
}

void px_interval_tcase(struct Suite *s)
{
	struct TCase *tc;

	if (!px_once_per_arch())
		return;
	tc = add_tcase(s, "perfex-interval", NULL, NULL);

	tcase_add_loop_test(tc, interval_adds_up_live_members, 0,
			    ARRAY_SIZE(layouts));
	tcase_add_test(tc, interval_system_wide);
	tcase_add_loop_test(tc, interval_refused, 0, 4);
}
