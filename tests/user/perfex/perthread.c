// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "per-thread" case: --per-thread (perfex.rst, "Per
 * thread"). Under busy -p every thread and process of the command stops
 * its own counters as it ends and reports its final sums, and busy
 * prints their total (inherit.c): perfex reads each thread's sums at its
 * exit stop, after that, so the rows must add up to busy's total
 * exactly, with a row for each thread, and each worker's row at least
 * the CPU time it used. In all three layouts, threads and processes;
 * then the refusals.
 */
#define _GNU_SOURCE
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

#define WORK_MS		100

struct trow {
	char thread[64];
	char name[64];
	unsigned long long value;
};

/* -x ';': thread;value;unit;event;... */
static int parse_csv(const char *line, struct trow *r)
{
	char v[64];

	if (sscanf(line, "%63[^;];%63[^;];;%63[^;];", r->thread, v,
		   r->name) != 3)
		return 0;
	r->value = strtoull(v, NULL, 10);
	return 1;
}

/* The table: "thread   value   event ...", values with commas. */
static int parse_table(const char *line, struct trow *r)
{
	char v[64], digits[64];
	size_t i, o = 0;

	if (sscanf(line, " %63s %63s %63s", r->thread, v, r->name) != 3 ||
	    !strchr(r->thread, '-'))
		return 0;
	for (i = 0; v[i] && o + 1 < sizeof(digits); i++)
		if (v[i] != ',')
			digits[o++] = v[i];
	digits[o] = '\0';
	r->value = strtoull(digits, NULL, 10);
	return 1;
}

/* -j: {"thread" : "comm-tid", "counter-value" : "V", ..., "event" : "E" */
static int parse_json(const char *line, struct trow *r)
{
	struct px_json_member m[16];
	int n = px_json_line(line, m, 16), i, got = 0;

	for (i = 0; i < n; i++) {
		if (!strcmp(m[i].key, "thread")) {
			snprintf(r->thread, sizeof(r->thread), "%s", m[i].val);
			got |= 1;
		} else if (!strcmp(m[i].key, "counter-value")) {
			r->value = strtod(m[i].val, NULL);
			got |= 2;
		} else if (!strcmp(m[i].key, "event")) {
			snprintf(r->name, sizeof(r->name), "%s", m[i].val);
			got |= 4;
		}
	}
	return got == 7 && !strcmp(m[0].key, "thread");
}

static int (*const parsers[])(const char *, struct trow *) = {
	parse_csv, parse_json, parse_table,
};

static const char *const layouts[][2] = {
	{ "-x", ";" }, { "-j", NULL }, { NULL, NULL },
};

/* The tsc rows of @text: how many, their sum, the least of them. */
static int tsc_rows(const char *text, int layout, unsigned long long *sum,
		    unsigned long long *least)
{
	char line[512];
	const char *s = text, *e;
	struct trow r;
	int n = 0;

	*sum = 0;
	*least = ~0ULL;
	for (; *s; s = *e ? e + 1 : e) {
		e = strchrnul(s, '\n');
		if ((size_t)(e - s) >= sizeof(line))
			continue;
		memcpy(line, s, e - s);
		line[e - s] = '\0';
		memset(&r, 0, sizeof(r));
		if (!parsers[layout](line, &r) || strcmp(r.name, "tsc"))
			continue;
		ck_assert_msg(!strncmp(r.thread, "busy-", 5), "row '%s'", line);
		*sum += r.value;
		if (r.value < *least)
			*least = r.value;
		n++;
	}
	return n;
}

static void check_rows(int layout, const char *mode, int nrows)
{
	const char *argv[12] = { "--per-thread", "-e", PX_EVENTS };
	unsigned long long sum, least;
	struct px_result r;
	char ms[16];
	int i = 3, n;

	if (layouts[layout][0])
		argv[i++] = layouts[layout][0];
	if (layouts[layout][1])
		argv[i++] = layouts[layout][1];
	argv[i++] = px_busy();
	argv[i++] = "-p";
	if (mode)
		argv[i++] = mode;
	argv[i++] = "3";
	snprintf(ms, sizeof(ms), "%d", WORK_MS);
	argv[i++] = ms;
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	n = tsc_rows(r.err, layout, &sum, &least);
	ck_assert_msg(n == nrows, "%d rows, not %d:\n%s", n, nrows, r.err);
	ck_assert_msg(sum == px_busy_tsc(&r), "rows' tsc %llu, busy's:\n%s%s", sum,
		      r.out, r.err);
	/* busy's main thread only waits; each worker did its work. */
	ck_assert_msg(sum >= 3 * ms_ticks(WORK_MS) * 8 / 10, "%llu", sum);
}

/* busy -p 3: its main thread and three workers. */
START_TEST(per_thread_threads)
{
	check_rows(_i, NULL, 4);
}

/* busy -p -f 3: busy, three processes, and the first one's child. */
START_TEST(per_thread_processes)
{
	check_rows(0, "-f", 5);
}

/*
 * Stops and SIGCONT are the command's own business: a SIGCONT, a stop
 * ended by another process's SIGCONT, and a process left running (a
 * daemon) each let perfex end with the command, in about its time.
 */
static const char *const own_business[] = {
	CONT_ARG, STOP_CONT_ARG, DAEMON_ARG,
};

START_TEST(per_thread_stops_and_daemons)
{
	const char *const argv[6] = { "--per-thread", "-x", ";", px_self(),
				      own_business[_i], NULL };
	unsigned long long t0 = rdtsc();
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(rdtsc() - t0 < ms_ticks(10000), "%s took too long",
		      own_business[_i]);
}

START_TEST(per_thread_refused)
{
	static const char *const bad[][6] = {
		{ "--per-thread", "-r", "2", "true" },
		{ "--per-thread", "-I", "100", "true" },
		{ "--per-thread", "-a", "true" },
	};
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, bad[_i]);
	ck_assert_int_eq(r.status, 2);
	ck_assert_msg(strstr(r.err, "--per-thread"), "%s", r.err);
}

void px_per_thread_tcase(struct Suite *s)
{
	struct TCase *tc;

	if (!px_once_per_arch())
		return;
	tc = add_tcase(s, "perfex-per-thread", NULL, NULL);
	tcase_add_loop_test(tc, per_thread_threads, 0, ARRAY_SIZE(layouts));
	tcase_add_test(tc, per_thread_processes);
	tcase_add_loop_test(tc, per_thread_refused, 0, 3);
	tcase_add_loop_test(tc, per_thread_stops_and_daemons, 0,
			    ARRAY_SIZE(own_business));
}
