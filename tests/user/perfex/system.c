// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "system" case: -a, -C and -A (perfex.rst,
 * "System-wide counting"). perfex counts through global mode and stops
 * it before it reads, and global mode's sums stay readable when stopped
 * (global.rst): so what perfex prints must be exactly what
 * /proc/perfctr/global holds after it, CPU by CPU with -A, added up
 * without. Then the layouts, ^C without a command, hotplug during a
 * count, and every refusal.
 */
#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libperfctr.h"
#include "suite.h"

#define GLOBAL	"/proc/perfctr/global"
#define NSUMS	64

/* What global mode holds now, per CPU; how many CPUs. */
static int global_sums(struct perfctr_sum_ctrs *sums)
{
	int fd = open(GLOBAL, O_RDONLY);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	n = pread(fd, sums, NSUMS * sizeof(*sums), 0);
	close(fd);
	ck_assert_int_gt(n, 0);
	return n / sizeof(*sums);
}

/* The value global mode has for row @name (PX_EVENTS, then tsc). */
static unsigned long long sum_of(const struct perfctr_sum_ctrs *s,
				 const char *name)
{
	if (!strcmp(name, "tsc"))
		return s->tsc;
	return s->pmc[strcmp(name, "instructions") ? 1 : 0];
}

static int cpu_is_online(int cpu)
{
	char path[64], c = '1';
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online",
		 cpu);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, &c, 1) != 1)
			c = '1';
		close(fd);
	}
	return c == '1';
}

static void run_ok(struct px_result *r, const char *const *argv)
{
	px_plain_cpuid();
	px_run(r, argv);
	ck_assert_msg(r->status == 0, "status %d:\n%s", r->status, r->err);
}

/* Counted events are integers; on perfctr.ko only the TSC is. */
static void check_value(const char *name, const char *value,
			unsigned long long want)
{
	if (!model && strcmp(name, "tsc")) {
		ck_assert_str_eq(value, "<not supported>");
		return;
	}
	ck_assert_msg(px_is_uint(value), "%s: '%s'", name, value);
	ck_assert_msg(strtoull(value, NULL, 10) == want,
		      "%s: perfex %s, global mode %llu", name, value, want);
}

/* -a: each row is the CPUs' sums added up. */
START_TEST(aggregate_is_the_cpus_sum)
{
	static const char *const names[] = { "instructions", "cycles", "tsc" };
	const char *argv[9] = {
		"-a", "-x", ";", "-e", PX_EVENTS, px_busy(), "2", "50"
	};
	struct perfctr_sum_ctrs sums[NSUMS];
	struct px_row rows[PX_MAX_ROWS];
	unsigned long long want;
	struct px_result r;
	int n, i, c, ncpu;

	run_ok(&r, argv);
	ncpu = global_sums(sums);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	ck_assert_msg(n == 3, "%d rows:\n%s", n, r.err);
	for (i = 0; i < n; i++) {
		ck_assert_str_eq(rows[i].name, names[i]);
		for (want = 0, c = 0; c < ncpu; c++)
			want += sum_of(&sums[c], names[i]);
		check_value(names[i], rows[i].value, want);
	}
	ck_assert_uint_gt(sums[0].tsc, 0);
}

/* -A: CPUn;value;;event;... event by event, each CPU's own sums. */
static void check_per_cpu(const char *const *argv, int only)
{
	static const char *const names[] = { "instructions", "cycles", "tsc" };
	struct perfctr_sum_ctrs sums[NSUMS];
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	int n, i, c, ncpu, k = 0;
	char label[16];

	run_ok(&r, argv);
	ncpu = global_sums(sums);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	for (i = 0; i < 3; i++)
		for (c = 0; c < ncpu; c++) {
			if ((only >= 0 && c != only) || !cpu_is_online(c))
				continue;
			ck_assert_msg(k < n, "%d rows:\n%s", n, r.err);
			snprintf(label, sizeof(label), "CPU%d", c);
			ck_assert_str_eq(rows[k].fields[0], label);
			ck_assert_str_eq(rows[k].fields[3], names[i]);
			check_value(names[i], rows[k].fields[1],
				    sum_of(&sums[c], names[i]));
			k++;
		}
	ck_assert_msg(k == n, "%d rows, want %d:\n%s", n, k, r.err);
}

START_TEST(per_cpu_rows_are_the_cpus)
{
	static const char *const argv[] = {
		"-a", "-A", "-x", ";", "-e", PX_EVENTS, "true", NULL
	};

	check_per_cpu(argv, -1);
}

START_TEST(cpu_list_counts_those)
{
	static const char *const argv[] = {
		"-C", "0", "-A", "-x", ";", "-e", PX_EVENTS, "true", NULL
	};

	check_per_cpu(argv, 0);
}

/* The table names what it counted; -C's rows are the list's. */
START_TEST(table_titles)
{
	static const char *const all[] = { "-a", "true", NULL };
	static const char *const some[] = { "-C", "0", "true", NULL };
	struct px_result r;

	run_ok(&r, all);
	ck_assert_msg(strstr(r.err, "Performance counter stats for 'system wide':"),
		      "%s", r.err);
	ck_assert_msg(strstr(r.err, " msec cpu-clock "), "%s", r.err);
	run_ok(&r, some);
	ck_assert_msg(strstr(r.err, "Performance counter stats for 'CPU(s) 0':"),
		      "%s", r.err);
}

/* -j -A: every object has perf's "cpu" key first, a CPU number. */
START_TEST(json_has_cpu)
{
	static const char *const argv[] = {
		"-a", "-A", "-j", "-e", PX_EVENTS, "true", NULL
	};
	struct px_json_member m[16];
	char *line, *save = NULL;
	struct px_result r;
	int n, objects = 0;

	run_ok(&r, argv);
	for (line = strtok_r(r.err, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] != '{')
			continue;
		n = px_json_line(line, m, 16);
		ck_assert_msg(n > 0, "not JSON: %s", line);
		ck_assert_str_eq(m[0].key, "cpu");
		ck_assert_msg(m[0].is_string && px_is_uint(m[0].val), "%s", line);
		objects++;
	}
	ck_assert_int_ge(objects, 3);
}

/* Without a command perfex counts until ^C, then prints, status 0. */
START_TEST(until_interrupted)
{
	static const char *const argv[] = { "-a", "-x", ";", NULL };
	struct px_row rows[PX_MAX_ROWS];
	const struct px_row *tsc, *clock;
	struct px_result r;
	int n;

	px_plain_cpuid();
	px_run_signalled(&r, argv, SIGINT, 500);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	tsc = px_find(rows, n, "tsc");
	clock = px_find(rows, n, "cpu-clock");
	ck_assert_msg(tsc && clock, "%s", r.err);
	ck_assert_uint_gt(strtoull(tsc->value, NULL, 10), 0);
	/* Every CPU's time: ^C came 500 ms after perfex began. */
	ck_assert_msg(strtod(clock->value, NULL) >= 200 * ncpus,
		      "cpu-clock %s ms, %ld CPUs", clock->value, ncpus);
}

/* Whether this kernel counts @key in /proc/vmstat. */
static int vmstat_has(const char *key)
{
	FILE *f = fopen("/proc/vmstat", "r");
	size_t len = strlen(key);
	char line[128];
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f))
		found = !strncmp(line, key, len) && line[len] == ' ';
	if (f)
		fclose(f);
	return found;
}

/* Whether global mode is idle: nobody holds the counters with it. */
static int global_idle(void)
{
	struct perfctr_info info;

	ck_assert_int_eq(perfctr_info(&info), 0);
	return strncmp(info.reserved_by, "global-mode perfctr", 19) != 0;
}

/*
 * SIGTERM or SIGHUP never leaves global mode counting: without a command
 * it ends the count (status 0, rows printed); with one it goes on to the
 * command, whose death by it is perfex's status, after the rows.
 */
static const char *const term_argv[][6] = {
	{ "-a", "-x", ";" },
	{ "-a", "-x", ";", "sleep", "5" },
};

START_TEST(term_stops_global_mode)
{
	static const int sigs[] = { SIGTERM, SIGHUP };
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	int i, n;

	for (i = 0; i < 2; i++) {
		px_plain_cpuid();
		px_run_signalled(&r, term_argv[_i], sigs[i], 500);
		ck_assert_msg(r.status == (_i ? 128 + sigs[i] : 0),
			      "signal %d: status %d:\n%s", sigs[i], r.status,
			      r.err);
		n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
		ck_assert_msg(px_find(rows, n, "tsc"), "%s", r.err);
		ck_assert(global_idle());
	}
}

/* The machine's switches and faults for -a; not for a CPU list. */
START_TEST(software_system_wide)
{
	static const char *const all[] = { "-a", "-x", ";", "true", NULL };
	static const char *const some[] = {
		"-C", "0", "-x", ";", "true", NULL
	};
	struct px_row rows[PX_MAX_ROWS];
	const struct px_row *cs, *pf;
	struct px_result r;
	int n;

	run_ok(&r, all);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	cs = px_find(rows, n, "context-switches");
	pf = px_find(rows, n, "page-faults");
	ck_assert_msg(cs && pf, "%s", r.err);
	/* true's own exec switches and faults at least once. */
	ck_assert_msg(px_is_uint(cs->value) && strtoull(cs->value, NULL, 10),
		      "%s", r.err);
	if (vmstat_has("pgfault"))
		ck_assert_msg(px_is_uint(pf->value) &&
			      strtoull(pf->value, NULL, 10), "%s", r.err);
	else	/* a kernel without CONFIG_VM_EVENT_COUNTERS */
		ck_assert_str_eq(pf->value, "<not supported>");
	ck_assert_str_eq(px_find(rows, n, "cpu-migrations")->value,
			 "<not supported>");
	run_ok(&r, some);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	cs = px_find(rows, n, "context-switches");
	ck_assert_msg(cs, "%s", r.err);
	ck_assert_str_eq(cs->value, "<not supported>");
}

/* Bad command lines: a usage error, saying what to give instead. */
static const char *const bad_argv[][5] = {
	{ "-A", "true" },
	{ "-C", "x", "true" },
	{ "-C", "5000", "true" },
	{ "-C", "3-1", "true" },
	{ "-C", "0,4000", "true" },
	{ "-a", "--ibs-op=0x10000", "true" },
	{ "-a", "-e", "0x004300c0", "true" },
};

static const char *const bad_says[] = {
	"give one of them", "CPU list", "CPU list", "CPU list",
	"does not exist here",
	"IBS and perfctr 2.6", "IBS and perfctr 2.6",
};

START_TEST(refuses_bad_options)
{
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, bad_argv[_i]);
	ck_assert_msg(r.status == 2, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, bad_says[_i]), "%s", r.err);
}

/* Global mode's rule is CAP_PERFMON; nobody gets told so. */
START_TEST(refuses_without_cap_perfmon)
{
	static const char *const argv[] = { "-a", "true", NULL };
	struct px_result r;

	px_plain_cpuid();
	px_run_nobody(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "needs CAP_PERFMON"), "%s", r.err);
}

/* Another user's global count is left alone, and perfex says why. */
START_TEST(leaves_a_running_global_count)
{
	static const char *const argv[] = { "-a", "true", NULL };
	struct perfctr_cpu_control ctl, stop;
	struct perfctr_sum_ctrs before[NSUMS], after[NSUMS];
	struct px_result r;
	int fd = open(GLOBAL, O_RDWR);

	ck_assert_int_ge(fd, 0);
	memset(&ctl, 0, sizeof(ctl));
	memset(&stop, 0, sizeof(stop));
	ctl.tsc_on = 1;
	ck_assert_int_eq(write(fd, &ctl, sizeof(ctl)), sizeof(ctl));
	usleep(20000);
	global_sums(before);
	px_plain_cpuid();
	px_run(&r, argv);
	global_sums(after);
	ck_assert_int_eq(write(fd, &stop, sizeof(stop)), sizeof(stop));
	close(fd);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "counting already"), "%s", r.err);
	/* Still counting, from where it was: not restarted from zero. */
	ck_assert_uint_gt(after[0].tsc, before[0].tsc);
}

/* A CPU taken offline and back during the count is reported. */
static void *toggle_cpu1(void *unused)
{
	int fd = open("/sys/devices/system/cpu/cpu1/online", O_WRONLY);

	(void)unused;
	if (fd < 0)
		return NULL;
	usleep(150000);
	if (pwrite(fd, "0", 1, 0) == 1) {
		usleep(150000);
		while (pwrite(fd, "1", 1, 0) != 1)
			usleep(10000);
	}
	close(fd);
	return NULL;
}

START_TEST(hotplug_is_reported)
{
	static const char *const argv[] = {
		"-a", "-A", "-x", ";", "sleep", "1", NULL
	};
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	pthread_t t;
	int n, i, cpu1 = 0;

	if (ncpus < 2 || access("/sys/devices/system/cpu/cpu1/online", W_OK))
		return;		/* one CPU, or none that can go */
	ck_assert_int_eq(pthread_create(&t, NULL, toggle_cpu1, NULL), 0);
	run_ok(&r, argv);
	pthread_join(t, NULL);
	ck_assert(cpu_is_online(1));
	ck_assert_msg(strstr(r.err, "CPU 1 went offline during the count"),
		      "%s", r.err);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	for (i = 0; i < n; i++)
		cpu1 += !strcmp(rows[i].fields[0], "CPU1");
	ck_assert_int_gt(cpu1, 0);	/* still a row: its time online */
}

void px_system_tcase(struct Suite *s)
{
	struct TCase *tc;

	if (!px_once_per_arch())
		return;
	tc = add_tcase(s, "system", NULL, NULL);

	tcase_add_test(tc, aggregate_is_the_cpus_sum);
	tcase_add_test(tc, per_cpu_rows_are_the_cpus);
	tcase_add_test(tc, cpu_list_counts_those);
	tcase_add_test(tc, table_titles);
	tcase_add_test(tc, json_has_cpu);
	tcase_add_test(tc, until_interrupted);
	tcase_add_loop_test(tc, term_stops_global_mode, 0, ARRAY_SIZE(term_argv));
	tcase_add_test(tc, software_system_wide);
	tcase_add_loop_test(tc, refuses_bad_options, 0, ARRAY_SIZE(bad_argv));
	tcase_add_test(tc, refuses_without_cap_perfmon);
	tcase_add_test(tc, leaves_a_running_global_count);
	tcase_add_test(tc, hotplug_is_reported);
}
