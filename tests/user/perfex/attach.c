// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "attach" case: -p and -t (perfex.rst, "Attaching").
 * The target is check_perfex itself run as TARGET_ARG: it waits on a
 * FIFO for an order (work for a known CPU time, with threads or not; make
 * a counter set of its own; exit) and answers on another when done.
 * perfex's command is check_perfex as KICK_ARG, which gives one order
 * and waits for the answer: so the window holds exactly that work. The
 * target must be counted for it, be left running and without a set, and
 * a thread's own set must be left alone. Orders that make threads or a
 * child write their ids to AUX, one a line.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <semaphore.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libperfctr.h"
#include "suite.h"

#define GO	"/tmp/px-go"
#define DONE	"/tmp/px-done"
#define AUX	"/tmp/px-aux"
#define WORK_MS	150
#define MANY	300	/* threads: 5 files each would pass 1024 */

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

static void aux_id(long id)
{
	FILE *f = fopen(AUX, "a");

	if (!f || fprintf(f, "%ld\n", id) < 0 || fclose(f)) {
		perror("check_perfex --target: " AUX);
		_exit(3);
	}
}

/*
 * 's': works, then stops the set perfex gave it (its own to command) and
 * writes its final TSC sum to AUX: what perfex must then print exactly.
 */
static void work_and_report(void)
{
	struct perfctr_sum_ctrs s;
	int cmd = open(PERFCTR_ROOT "/self/command", O_WRONLY);
	int sums = open(PERFCTR_ROOT "/self/sums", O_RDONLY);
	__u32 suspend = VPERFCTR_CMD_SUSPEND;

	spin_ms(WORK_MS);
	if (cmd < 0 || sums < 0 ||
	    pwrite(cmd, &suspend, sizeof(suspend), 0) != sizeof(suspend) ||
	    pread(sums, &s, sizeof(s), 0) != sizeof(s)) {
		perror("check_perfex --target: its final sums");
		_exit(3);
	}
	close(cmd);
	close(sums);
	aux_id((long)s.tsc);
}

static int never[2];	/* a pipe never written: parked threads read it */

static void *parked(void *ready)
{
	char c;

	aux_id(syscall(SYS_gettid));
	sem_post(ready);
	while (read(never[0], &c, 1) < 0)
		;
	return NULL;
}

/*
 * A thread made while counted whose set is its own: perfex's control,
 * read from its creator, with another label (a foreign set that looks
 * like a member).
 */
static void *relabel(void *ready)
{
	struct vperfctr_control c;
	int fd = open(PERFCTR_ROOT "/self/control", O_RDWR);

	if (fd < 0 || pread(fd, &c, sizeof(c), 0) != sizeof(c)) {
		perror("check_perfex --target: its control");
		_exit(3);
	}
	c.label ^= 0x5a5a;
	if (pwrite(fd, &c, sizeof(c), 0) != sizeof(c)) {
		perror("check_perfex --target: its relabelled control");
		_exit(3);
	}
	close(fd);
	return parked(ready);
}

/* 'f': a child process, that waits for its end. */
static void fork_child(void)
{
	pid_t pid = fork();

	if (!pid) {
		pause();
		_exit(0);
	}
	aux_id(pid);
}

/* @n threads running @fn, each answered for, left running. */
static void make_threads(void *(*fn)(void *), int n)
{
	pthread_t t;
	sem_t ready;
	int i;

	sem_init(&ready, 0, 0);
	for (i = 0; i < n; i++) {
		if (pthread_create(&t, NULL, fn, &ready)) {
			perror("check_perfex --target: a thread");
			_exit(3);
		}
		sem_wait(&ready);
	}
}

/*
 * 'X': a new program, with ids other than those the set was given
 * under, which removes the set at the exec (virtual.rst, execve()): it
 * answers as it starts.
 */
static void exec_other_ids(void)
{
	if (setresgid(1, 1, 1)) {
		perror("check_perfex --target: setresgid");
		_exit(3);
	}
	/* Not px_self(): its ck_assert has no test to report to here. */
	execl("/proc/self/exe", "check_perfex", TARGET_ARG, "answer", NULL);
	perror("check_perfex --target: exec");
	_exit(3);
}

static int answer(void)
{
	char d = 'd';
	int done = open(DONE, O_WRONLY);

	if (done < 0 || write(done, &d, 1) != 1) {
		perror("check_perfex --target: " DONE);
		return 1;
	}
	close(done);
	return 0;
}

/*
 * Orders: 'w' the main thread works WORK_MS; 's' the same, then stops
 * its set and reports its TSC sum in AUX; 'W' two new threads do
 * (joined); 'o' own set; 'e' work, answer and exit; 'x' answer and
 * exit; 'f' fork a child; 'p' a parked thread, 'M' MANY of them; 'L' a
 * parked thread with a relabelled set; 'X' an exec with other ids.
 * Each is answered when done (X's by the new program).
 */
int px_target_main(int answered)
{
	pthread_t t[2];
	char c;
	int go, i;

	if (pipe(never) || (answered && answer()))
		return 1;
	for (;;) {
		go = open(GO, O_RDONLY);
		if (go < 0 || read(go, &c, 1) != 1) {
			perror("check_perfex --target: " GO);
			return 1;
		}
		close(go);
		if (c == 'w' || c == 'e')
			spin_ms(WORK_MS);
		if (c == 's')
			work_and_report();
		for (i = 0; c == 'W' && i < 2; i++)
			pthread_create(&t[i], NULL, worker, NULL);
		for (i = 0; c == 'W' && i < 2; i++)
			pthread_join(t[i], NULL);
		if (c == 'o')
			own_set();
		if (c == 'f')
			fork_child();
		if (c == 'p' || c == 'M')
			make_threads(parked, c == 'M' ? MANY : 1);
		if (c == 'L')
			make_threads(relabel, 1);
		if (c == 'X')
			exec_other_ids();
		if (answer())
			return 1;
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
	unlink(AUX);
	ck_assert_int_eq(mkfifo(GO, 0600), 0);
	ck_assert_int_eq(mkfifo(DONE, 0600), 0);
	fflush(NULL);
	target = fork();
	ck_assert_int_ge(target, 0);
	if (!target) {
		alarm(55);	/* never outlives a hung test (60 s) */
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

/* The ids an order wrote to AUX, in order; how many. */
static int aux_ids(pid_t *ids, int max)
{
	FILE *f = fopen(AUX, "r");
	int n = 0, id;

	ck_assert_ptr_nonnull(f);
	while (n < max && fscanf(f, "%d", &id) == 1)
		ids[n++] = id;
	fclose(f);
	return n;
}

/*
 * @tid of @tgid as perfex must leave it: untraced, not stopped (no
 * ptrace stop, no group stop) and no SIGSTOP pending, which would stop
 * it at its next return to user space.
 */
static void assert_free(pid_t tgid, pid_t tid)
{
	char path[64], line[128];
	unsigned long long pnd;
	FILE *f;
	int tracer = -1;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/status", (int)tgid,
		 (int)tid);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		ck_assert_msg(strncmp(line, "State:\tt", 9) &&
			      strncmp(line, "State:\tT", 9),
			      "thread %d left stopped: %s", (int)tid, line);
		if (sscanf(line, "TracerPid: %d", &tracer) == 1)
			continue;
		if (sscanf(line, "SigPnd: %llx", &pnd) == 1 ||
		    sscanf(line, "ShdPnd: %llx", &pnd) == 1)
			ck_assert_msg(!(pnd & (1ULL << (SIGSTOP - 1))),
				      "thread %d has a SIGSTOP pending: %s",
				      (int)tid, line);
	}
	fclose(f);
	ck_assert_int_eq(tracer, 0);
}

/* The TSC ticks of @ms of CPU time (check_util's khz: ticks per ms). */
static unsigned long long ticks(int ms)
{
	return (unsigned long long)ms * khz;
}

/*
 * Counted for the work the window held, not much more: @idle threads
 * that only block run a moment where perfex stops them, at the start
 * and at the end (5 ms each allowed, for TCG on a loaded host).
 */
static void check_counts_idle(const struct px_result *r, int ms, int idle)
{
	struct px_row rows[PX_MAX_ROWS];
	unsigned long long tsc, v, most;
	int n, i;

	n = px_csv(r->err, ";", rows, PX_MAX_ROWS);
	ck_assert_msg(n == 3, "%d rows:\n%s", n, r->err);
	tsc = px_tsc(r);
	most = ticks(ms) * 3 + ticks(500) + ticks(5 * idle);
	ck_assert_msg(tsc >= ticks(ms) * 9 / 10 && tsc < most,
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

static void check_counts(const struct px_result *r, int ms)
{
	check_counts_idle(r, ms, 0);
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
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
	check_counts(&r, WORK_MS);
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	assert_free(target, target);
	kick("w");		/* it runs, untraced and unstopped */
	stop_target();
}

/*
 * Just after boot a getrandom() that waits for entropy could outlast the
 * target (make run once lost its target so): perfex -p never waits, and
 * works where the kernel refuses GRND_INSECURE, or every getrandom().
 */
static const enum px_random ways[] = {
	PX_FRESH_BOOT, PX_NO_INSECURE, PX_GETRANDOM_REFUSED
};

START_TEST(attach_never_waits_for_entropy)
{
	char id[16], status[64];
	const char *argv[12] = {
		"-p", id, "-x", ";", "-e", PX_EVENTS, "--",
		px_self(), KICK_ARG, "w"
	};
	struct px_result r;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run_random(&r, argv, ways[_i]);
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
	check_counts(&r, WORK_MS);
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	assert_free(target, target);
	stop_target();
}

/*
 * --per-thread: a row per thread, labelled comm-tid, the target's among
 * them; the rows hold the work of the thread it makes while attached.
 */
START_TEST(per_thread_rows)
{
	char id[16], label[32];
	const char *argv[12] = {
		"-p", id, "--per-thread", "-x", ";", "-e", PX_EVENTS, "--",
		px_self(), KICK_ARG, "W"
	};
	unsigned long long sum = 0;
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	int n, i, own = 0;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
	/* px_csv() takes the label for the value: the fields are shifted. */
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	ck_assert_msg(n >= 3, "%d rows:\n%s", n, r.err);
	snprintf(label, sizeof(label), "-%d", (int)target);
	for (i = 0; i < n; i++) {
		if (rows[i].nfields < 4 || strcmp(rows[i].fields[3], "tsc"))
			continue;
		ck_assert(px_is_uint(rows[i].fields[1]));
		sum += strtoull(rows[i].fields[1], NULL, 10);
		own += strlen(rows[i].fields[0]) > strlen(label) &&
		       !strcmp(rows[i].fields[0] + strlen(rows[i].fields[0]) -
			       strlen(label), label);
	}
	ck_assert_msg(own == 1, "no row of %d:\n%s", (int)target, r.err);
	ck_assert_msg(sum >= ticks(2 * WORK_MS) * 9 / 10, "tsc %llu:\n%s", sum,
		      r.err);
	stop_target();
}

/*
 * Exactly what the target did: it stops perfex's set itself when its
 * work is done and reports the set's sum; perfex, reading after, must
 * print that sum, no more and no less (-p and -t).
 */
START_TEST(attach_counts_exactly)
{
	char id[16];
	const char *argv[12] = {
		_i ? "-t" : "-p", id, "-x", ";", "-e", PX_EVENTS, "--",
		px_self(), KICK_ARG, "s"
	};
	unsigned long long want = 0;
	struct px_result r;
	FILE *f;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
	f = fopen(AUX, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fscanf(f, "%llu", &want), 1);
	fclose(f);
	ck_assert_uint_ge(want, ticks(WORK_MS) * 9 / 10);
	ck_assert_msg(px_tsc(&r) == want, "perfex's tsc %llu, the target's %llu:\n%s",
		      px_tsc(&r), want, r.err);
	assert_free(target, target);
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
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
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
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
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
	ck_assert_msg(r.status == 1, "status %d:\n%.3000s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "has a counter set of its own already"),
		      "%s", r.err);
	ck_assert_msg(strstr(r.err, "no thread left to count"), "%s", r.err);
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "running");
	/* The command never ran: the target still waits, and answers. */
	assert_free(target, target);
	stop_target();
}

/* Bad lists, other modes, software events: a usage error saying why. */
static const char *const bad_argv[][7] = {
	{ "-p", "x", "true" },
	{ "-p", "12,", "true" },
	{ "-t", "-3", "true" },
	{ "-p", "1", "-a", "true" },
	{ "-p", "1", "-e", "task-clock", "true" },
	{ "-p", "1", "-r", "2", "true" },
	{ "-p", "1", "-I", "100", "true" },
	{ "-p", "1", "--per-thread", "-I", "100", "true" },
};

static const char *const bad_says[] = {
	"want process ids", "want process ids", "want thread ids",
	"give one of", "software events", "-r repeats",
	"-I does not print -p's or -t's", "thread by thread",
};

START_TEST(refuses_bad_options)
{
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, bad_argv[_i]);
	ck_assert_msg(r.status == 2, "status %d:\n%.3000s", r.status, r.err);
	ck_assert_msg(strstr(r.err, bad_says[_i]), "%s", r.err);
}

START_TEST(refuses_no_such_process)
{
	static const char *const argv[] = { "-p", "4000000", "true", NULL };
	struct px_result r;

	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%.3000s", r.status, r.err);
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
	ck_assert_msg(r.status == 1, "status %d:\n%.3000s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "ptrace's permission"), "%s", r.err);
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	stop_target();
}

/* The rows of -x ';' in @r, the events' and tsc. */
static int nrows(const struct px_result *r)
{
	struct px_row rows[PX_MAX_ROWS];

	return px_csv(r->err, ";", rows, PX_MAX_ROWS);
}

/* Run by perfex: what a target forks has no set, during or after. */
START_TEST(forked_child_has_no_set)
{
	char id[16], status[64];
	const char *argv[12] = {
		"-p", id, "-x", ";", "-e", PX_EVENTS, "--", px_self(),
		KICK_ARG, "f"
	};
	struct px_result r;
	pid_t child;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
	ck_assert_int_eq(nrows(&r), 3);
	ck_assert_int_eq(aux_ids(&child, 1), 1);
	thread_status(child, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	ck_assert(!kill(child, SIGKILL));
	stop_target();
}

/* A thread made meanwhile with perfex's control but not its label. */
START_TEST(foreign_label_left_alone)
{
	char id[16], status[64], says[96];
	const char *argv[12] = {
		"-p", id, "-x", ";", "-e", PX_EVENTS, "--", px_self(),
		KICK_ARG, "L"
	};
	struct px_result r;
	pid_t tid;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
	ck_assert_int_eq(aux_ids(&tid, 1), 1);
	snprintf(says, sizeof(says), "thread %d has a counter set that is not this perfex's",
		 (int)tid);
	ck_assert_msg(strstr(r.err, says), "%s", r.err);
	thread_status(tid, status, sizeof(status));
	ck_assert_str_eq(status, "running");	/* its own, left */
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	assert_free(target, target);
	stop_target();
}

/* Another tracer holds a thread at the end: the others are cleaned. */
static sem_t traced, release;

static void *other_tracer(void *arg)
{
	pid_t tid = *(pid_t *)arg;
	int status, i;

	/* perfex's command has begun: perfex has let go of the thread. */
	for (i = 0; i < 1000 && access(MARKER, F_OK); i++)
		usleep(10000);
	*(pid_t *)arg = ptrace(PTRACE_SEIZE, tid, NULL, NULL) ? -1 : tid;
	sem_post(&traced);
	sem_wait(&release);
	if (*(pid_t *)arg > 0 && !ptrace(PTRACE_INTERRUPT, tid, NULL, NULL) &&
	    waitpid(tid, &status, __WALL) == tid)
		ptrace(PTRACE_DETACH, tid, NULL, NULL);
	return NULL;
}

START_TEST(end_goes_on_past_a_traced_thread)
{
	char id[16], status[64], says[96];
	const char *argv[11] = {
		"-p", id, "-x", ";", "-e", PX_EVENTS, "--", "sh", "-c",
		": >" MARKER "; sleep 1"
	};
	struct px_result r;
	pthread_t t;
	pid_t tid, held;

	unlink(MARKER);
	start_target();
	kick("p");
	ck_assert_int_eq(aux_ids(&tid, 1), 1);
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	sem_init(&traced, 0, 0);
	sem_init(&release, 0, 0);
	held = tid;
	ck_assert_int_eq(pthread_create(&t, NULL, other_tracer, &held), 0);
	px_run(&r, argv);
	sem_wait(&traced);
	ck_assert_int_eq(held, tid);
	ck_assert_msg(r.status == 1, "status %d:\n%.3000s", r.status, r.err);
	snprintf(says, sizeof(says), "thread %d (process %d) may keep perfex's counter set",
		 (int)tid, (int)target);
	ck_assert_msg(strstr(r.err, says), "%s", r.err);
	ck_assert_int_eq(nrows(&r), 3);	/* still counted */
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	assert_free(target, target);
	sem_post(&release);
	pthread_join(t, NULL);
	assert_free(target, tid);
	stop_target();
}

/* MANY threads under RLIMIT_NOFILE 1024, soft and hard. */
START_TEST(many_threads_within_the_fd_limit)
{
	char id[16], status[64];
	const char *argv[12] = {
		"-p", id, "-x", ";", "-e", PX_EVENTS, "--", px_self(),
		KICK_ARG, "w"
	};
	struct rlimit old, lim = { 1024, 1024 };
	struct px_result r;
	static pid_t tids[MANY];
	int i;

	start_target();
	kick("M");
	ck_assert_int_eq(aux_ids(tids, MANY), MANY);
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	ck_assert_int_eq(getrlimit(RLIMIT_NOFILE, &old), 0);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &lim), 0);
	px_run(&r, argv);
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &old), 0);
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
	check_counts_idle(&r, WORK_MS, MANY);	/* the parked ones: a moment */
	for (i = 0; i < MANY; i++) {
		thread_status(tids[i], status, sizeof(status));
		ck_assert_str_eq(status, "none");
		assert_free(target, tids[i]);
	}
	stop_target();
}

/*
 * A root whose set an exec removed counts no more: without a command,
 * perfex ends as it would at its exit, and the new program runs on.
 */
static void *kick_later(void *order)
{
	usleep(500000);
	px_kick_main(order);
	return NULL;
}

START_TEST(exec_ends_the_count)
{
	char id[16], status[64];
	const char *argv[8] = { "-p", id, "-x", ";", "-e", PX_EVENTS };
	struct px_result r;
	pthread_t t;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	ck_assert_int_eq(pthread_create(&t, NULL, kick_later, "X"), 0);
	px_run(&r, argv);	/* no command: it ends at the exec */
	pthread_join(t, NULL);
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
	ck_assert_int_eq(nrows(&r), 3);
	thread_status(target, status, sizeof(status));
	ck_assert_str_eq(status, "none");
	assert_free(target, target);
	stop_target();
}

/* The table and -j parse too; -j's tsc is the work's. */
START_TEST(formats_parse)
{
	char id[16], title[96];
	const char *argv[12] = {
		"-p", id, "-e", PX_EVENTS, "--", px_self(), KICK_ARG, "w"
	};
	const char *json[12] = {
		"-p", id, "-e", PX_EVENTS, "-j", "--", px_self(), KICK_ARG, "w"
	};
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	double tsc;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	px_plain_cpuid();
	px_run(&r, _i ? json : argv);
	ck_assert_msg(r.status == 0, "status %d:\n%.3000s", r.status, r.err);
	if (!_i) {
		snprintf(title, sizeof(title),
			 " Performance counter stats for process id '%d':",
			 (int)target);
		ck_assert_msg(strstr(r.err, title), "%s", r.err);
		ck_assert_msg(strstr(r.err, " tsc"), "%s", r.err);
		stop_target();
		return;
	}
	ck_assert_msg(px_json(r.err, rows, PX_MAX_ROWS, 0) == 3, "%s", r.err);
	ck_assert_str_eq(rows[2].name, "tsc");
	tsc = strtod(rows[2].value, NULL);
	ck_assert_msg(tsc >= ticks(WORK_MS) * 9 / 10 &&
		      tsc < ticks(WORK_MS) * 3 + ticks(500), "%s", r.err);
	stop_target();
}

/*
 * SIGTERM and SIGHUP, with a command or not, never leave a set: without
 * one they end the count, with one they go on to it and perfex cleans
 * up after it.
 */
static const char *const term_cmd[][2] = { { NULL }, { "sleep", "5" } };

START_TEST(term_leaves_no_set)
{
	static const int sigs[] = { SIGTERM, SIGHUP };
	char id[16], status[64];
	const char *argv[10] = { "-p", id, "-x", ";", "-e", PX_EVENTS };
	struct px_result r;
	int i;

	start_target();
	snprintf(id, sizeof(id), "%d", (int)target);
	if (_i) {
		argv[6] = "--";
		argv[7] = term_cmd[_i][0];
		argv[8] = term_cmd[_i][1];
	}
	for (i = 0; i < 2; i++) {
		px_plain_cpuid();
		px_run_signalled(&r, argv, sigs[i], 500);
		ck_assert_msg(r.status == (_i ? 128 + sigs[i] : 0),
			      "signal %d: status %d:\n%s", sigs[i], r.status,
			      r.err);
		ck_assert_int_eq(nrows(&r), 3);
		thread_status(target, status, sizeof(status));
		ck_assert_str_eq(status, "none");
		assert_free(target, target);
	}
	stop_target();
}

void px_attach_tcase(struct Suite *s)
{
	struct TCase *tc;

	if (!px_once_per_arch())	/* perfex's logic, not the PMU's */
		return;
	tc = add_tcase(s, "attach", NULL, NULL);

	tcase_add_loop_test(tc, attach_counts_the_work, 0, 2);
	if (px_have_seccomp())
		tcase_add_loop_test(tc, attach_never_waits_for_entropy, 0,
				    ARRAY_SIZE(ways));
	tcase_add_test(tc, new_threads_counted);
	tcase_add_test(tc, per_thread_rows);
	tcase_add_loop_test(tc, attach_counts_exactly, 0, 2);
	tcase_add_test(tc, exit_keeps_final_counts);
	tcase_add_test(tc, own_set_left_alone);
	tcase_add_test(tc, forked_child_has_no_set);
	tcase_add_test(tc, foreign_label_left_alone);
	tcase_add_test(tc, end_goes_on_past_a_traced_thread);
	tcase_add_test(tc, many_threads_within_the_fd_limit);
	tcase_add_test(tc, exec_ends_the_count);
	tcase_add_loop_test(tc, formats_parse, 0, 2);
	tcase_add_loop_test(tc, term_leaves_no_set, 0, ARRAY_SIZE(term_cmd));
	tcase_add_loop_test(tc, refuses_bad_options, 0, ARRAY_SIZE(bad_argv));
	tcase_add_test(tc, refuses_no_such_process);
	tcase_add_test(tc, refuses_without_ptrace_permission);
}
