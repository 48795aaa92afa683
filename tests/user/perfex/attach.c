// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "attach" case: -p and -t (perfex.rst, "Attaching").
 * The target is check_perfex itself run as TARGET_ARG: it waits on a
 * FIFO for an order (work for a known CPU time, with threads or not; make
 * a counter set of its own; exit) and answers on another when done.
 * perfex's command is check_perfex as KICK_ARG, which gives one order
 * and waits for the answer: so the window holds exactly that work. The
 * target must be counted for it, be left running and without a set, and
 * a thread's own set must be left alone.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libperfctr.h"
#include "suite.h"

#define GO	"/tmp/px-go"
#define DONE	"/tmp/px-done"
#define WORK_MS	150

/* --- the target, and perfex's command --- */

static void spin_ms(int ms)
{
	struct timespec t0, t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	while ((t.tv_sec - t0.tv_sec) * 1000 +
	       (t.tv_nsec - t0.tv_nsec) / 1000000 < ms);
}

static void *worker(void *unused)
{
	(void)unused;
	spin_ms(WORK_MS);
	return NULL;
}

/* 'o': a set of the target's own, the TSC only. */
static void own_set(void)
{
	struct vperfctr_control ctl;
	struct vperfctr *vp = vperfctr_open();

	memset(&ctl, 0, sizeof(ctl));
	ctl.cpu_control.tsc_on = 1;
	if (!vp || vperfctr_control(vp, &ctl)) {
		perror("check_perfex --target: its own set");
		_exit(3);
	}
	/* The handle stays open: the set is the thread's until it exits. */
}

/*
 * Orders: 'w' the main thread works WORK_MS; 'W' two new threads do
 * (joined); 'o' own set; 'e' work, answer and exit; 'x' answer and
 * exit. Each is answered when done.
 */
int px_target_main(void)
{
	pthread_t t[2];
	char c, d = 'd';
	int go, done, i;

	for (;;) {
		go = open(GO, O_RDONLY);
		if (go < 0 || read(go, &c, 1) != 1) {
			perror("check_perfex --target: " GO);
			return 1;
		}
		close(go);
		if (c == 'w' || c == 'e')
			spin_ms(WORK_MS);
		for (i = 0; c == 'W' && i < 2; i++)
			pthread_create(&t[i], NULL, worker, NULL);
		for (i = 0; c == 'W' && i < 2; i++)
			pthread_join(t[i], NULL);
		if (c == 'o')
			own_set();
		done = open(DONE, O_WRONLY);
		if (done < 0 || write(done, &d, 1) != 1) {
			perror("check_perfex --target: " DONE);
			return 1;
		}
		close(done);
		if (c == 'e' || c == 'x')
			return 0;
	}
}

/* One order, and its answer; the FIFOs closed after, for the next. */
int px_kick_main(const char *order)
{
	int go = open(GO, O_WRONLY), done, bad;
	char d;

	if (go < 0)
		return 1;
	bad = write(go, order, 1) != 1;
	close(go);
	done = open(DONE, O_RDONLY);
	if (done < 0)
		return 1;
	bad |= read(done, &d, 1) != 1;
	close(done);
	return bad;
}

/* --- the tests' side --- */

static pid_t target;

static void start_target(void)
{
	unlink(GO);
	unlink(DONE);
	ck_assert_int_eq(mkfifo(GO, 0600), 0);
	ck_assert_int_eq(mkfifo(DONE, 0600), 0);
	fflush(NULL);
	target = fork();
	ck_assert_int_ge(target, 0);
	if (!target) {
		execl(px_self(), px_self(), TARGET_ARG, NULL);
		_exit(127);
	}
}

/* The test's own order, outside perfex. */
static void kick(const char *order)
{
	ck_assert_int_eq(px_kick_main(order), 0);
}

static void stop_target(void)
{
	int status;

	if (target > 0 && !kill(target, 0))
		kick("x");
	ck_assert_int_eq(waitpid(target, &status, 0), target);
	ck_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	target = 0;
}

static void thread_status(pid_t tid, char *buf, size_t size)
{
	struct vperfctr *vp = vperfctr_open_tid(tid);

	ck_assert_ptr_nonnull(vp);
	ck_assert_int_eq(vperfctr_read_status(vp, buf, size), 0);
	vperfctr_close(vp);
}

/* The TSC ticks of @ms of CPU time (check_util's khz: ticks per ms). */
static unsigned long long ticks(int ms)
{
	return (unsigned long long)ms * khz;
}

/* Counted for the work the window held, not much more. */
static void check_counts(const struct px_result *r, int ms)
{
	struct px_row rows[PX_MAX_ROWS];
	unsigned long long tsc, v;
	int n, i;

	n = px_csv(r->err, ";", rows, PX_MAX_ROWS);
	ck_assert_msg(n == 3, "%d rows:\n%s", n, r->err);
	tsc = px_tsc(r);
	ck_assert_msg(tsc >= ticks(ms) * 9 / 10 && tsc < ticks(ms) * 3 + ticks(500),
		      "tsc %llu for %d ms of work (%llu ticks):\n%s", tsc, ms,
		      ticks(ms), r->err);
	for (i = 0; model && i < 2; i++) {
		/* The simulated counters count TSC cycles (testing.rst). */
		ck_assert(px_is_uint(rows[i].value));
		v = strtoull(rows[i].value, NULL, 10);
		ck_assert_msg(v >= tsc / 2 && v <= tsc * 2, "%s %llu, tsc %llu",
			      rows[i].name, v, tsc);
	}
}

/* -p and -t: the work counted; the target runs on, with no set. */
START_TEST(attach_counts_the_work)
{
	char id[16], status[64];
	const char *argv[12] = {
		_i ? "-t" : "-p", id, "-x", ";", "-e", PX_EVENTS, "--",
		px_self(), KICK_ARG, "w"
	};
	struct px_result r;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	check_counts(&r, WORK_MS);
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	kick("w");		/* it runs, untraced and unstopped */
	stop_target();
}

/* Threads made while attached inherit the set and are counted. */
START_TEST(new_threads_counted)
{
	char id[16];
	const char *argv[12] = {
		"-p", id, "-x", ";", "-e", PX_EVENTS, "--", px_self(),
		KICK_ARG, "W"
	};
	struct px_result r;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	check_counts(&r, 2 * WORK_MS);
	stop_target();
}

/* A target that exits while counted: its final counts, then the end. */
static void *kick_exit_later(void *unused)
{
	(void)unused;
	usleep(500000);
	px_kick_main("e");
	return NULL;
}

START_TEST(exit_keeps_final_counts)
{
	char id[16];
	const char *argv[8] = { "-p", id, "-x", ";", "-e", PX_EVENTS };
	struct px_result r;
	pthread_t t;
	int status;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	ck_assert_int_eq(pthread_create(&t, NULL, kick_exit_later, NULL), 0);
	px_run(&r, argv);	/* no command: it ends as the target does */
	pthread_join(t, NULL);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_int_eq(waitpid(target, &status, 0), target);
	target = 0;
	check_counts(&r, WORK_MS);
}

/* A thread with a set of its own is named and left as it was. */
START_TEST(own_set_left_alone)
{
	char id[16], status[64];
	const char *argv[10] = {
		"-t", id, "-e", PX_EVENTS, "--", px_self(), KICK_ARG, "w"
	};
	struct px_result r;

	start_target();
	kick("o");
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "has a counter set of its own already"),
		      "%s", r.err);
	ck_assert_msg(strstr(r.err, "no thread left to count"), "%s", r.err);
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "running");
	/* The command never ran: the target still waits for an order. */
	ck_assert(!kill(target, SIGKILL));
	ck_assert_int_eq(waitpid(target, NULL, 0), target);
	target = 0;
}

/* Bad lists, other modes, software events: a usage error saying why. */
static const char *const bad_argv[][6] = {
	{ "-p", "x", "true" },
	{ "-p", "12,", "true" },
	{ "-t", "-3", "true" },
	{ "-p", "1", "-a", "true" },
	{ "-p", "1", "-e", "task-clock", "true" },
	{ "-p", "1", "-r", "2", "true" },
};

static const char *const bad_says[] = {
	"want process ids", "want process ids", "want thread ids",
	"give one of", "software events", "-r repeats",
};

START_TEST(refuses_bad_options)
{
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, bad_argv[_i]);
	ck_assert_msg(r.status == 2, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, bad_says[_i]), "%s", r.err);
}

START_TEST(refuses_no_such_process)
{
	static const char *const argv[] = { "-p", "4000000", "true", NULL };
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "no such process"), "%s", r.err);
}

/* ptrace's rule, judged on the caller: nobody may not attach to root's. */
START_TEST(refuses_without_ptrace_permission)
{
	char id[16], status[64];
	const char *argv[4] = { "-p", id, "true" };
	struct px_result r;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run_nobody(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "ptrace's permission"), "%s", r.err);
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	stop_target();
}

void px_attach_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "attach", NULL, NULL);

	tcase_add_loop_test(tc, attach_counts_the_work, 0, 2);
	tcase_add_test(tc, new_threads_counted);
	tcase_add_test(tc, exit_keeps_final_counts);
	tcase_add_test(tc, own_set_left_alone);
	tcase_add_loop_test(tc, refuses_bad_options, 0, ARRAY_SIZE(bad_argv));
	tcase_add_test(tc, refuses_no_such_process);
	tcase_add_test(tc, refuses_without_ptrace_permission);
}
