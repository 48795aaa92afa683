// SPDX-License-Identifier: GPL-2.0-only
/*
 * The security suite's "lifetime" case: a set a tracer gives at a
 * syscall stop while the tracee itself unlinks, rewrites or commands it
 * (F1), and exec into a setuid program or with changed ids (F2).
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "security.h"

#define SUID_HELPER	"/tmp/perfctr-suid-helper"
#define STACK_SIZE	65536

/* --- F1: the tracee's own request while its link is pending --- */

enum f1_kind { F1_UNLINK, F1_CONTROL, F1_COMMAND };

#define F1_ROUNDS	150

/* The tracee: its requests, each of which its tracer races. */
#define F1_IOVS		16

/*
 * Several requests in one system call: writev() writes each iovec with
 * its own ->write(), and between two of them the tracee may sleep on the
 * driver's mutex (see contender()) with its link still pending.
 */
static void f1_requests(int fd, const void *rec, size_t size)
{
	struct iovec iov[F1_IOVS];
	int i;

	for (i = 0; i < F1_IOVS; i++) {
		iov[i].iov_base = (void *)rec;
		iov[i].iov_len = size;
	}
	if (writev(fd, iov, F1_IOVS) < 0)
		return;		/* refused ones are as good a race */
}

static int f1_tracee(int rd, int wr, void *arg)
{
	enum f1_kind kind = *(int *)arg;
	__u32 unlink = VPERFCTR_CMD_UNLINK, suspend = VPERFCTR_CMD_SUSPEND;
	struct vperfctr_control c;
	int ctl = pfs_open(gettid(), "control", O_RDWR);
	int cmd = pfs_open(gettid(), "command", O_WRONLY);
	int i;

	(void)rd;
	(void)wr;
	if (ctl < 0 || cmd < 0 || ptrace(PTRACE_TRACEME, 0, 0, 0))
		return kid_fail(90);
	raise(SIGSTOP);
	tsc_control(&c);
	for (i = 0; i < F1_ROUNDS; i++) {
		if (kind == F1_UNLINK)
			f1_requests(cmd, &unlink, sizeof(unlink));
		else if (kind == F1_CONTROL)
			f1_requests(ctl, &c, sizeof(c));
		else
			f1_requests(cmd, &suspend, sizeof(suspend));
		/* Whatever the tracer left, the set goes now. */
		put_command(cmd, VPERFCTR_CMD_UNLINK);
	}
	return 0;
}

static int mover_stop;

/*
 * Moves the tracee from CPU to CPU as fast as it can: a running tracee
 * is preempted wherever it is, also between its own request on a set and
 * the task_work that links it (the window of F1).
 */
static void *mover(void *arg)
{
	pid_t pid = *(pid_t *)arg;
	cpu_set_t set;
	int cpu = 0;

	while (!__atomic_load_n(&mover_stop, __ATOMIC_RELAXED)) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(pid, sizeof(set), &set);
		cpu = (cpu + 1) % ncpus;
	}
	return NULL;
}

/*
 * Keeps the driver's mutex busy, so that a tracee that wants it between
 * two of its requests sleeps there: commands to its own thread, which has
 * no set (ENODATA), so it never resumes one and moves no CPU's pointers.
 */
static void *contender(void *arg)
{
	int fd = pfs_open(gettid(), "command", O_WRONLY);

	(void)arg;
	while (fd >= 0 && !__atomic_load_n(&mover_stop, __ATOMIC_RELAXED))
		put_command(fd, VPERFCTR_CMD_SUSPEND);
	if (fd >= 0)
		close(fd);
	return NULL;
}

/* Runs the tracee to its next syscall stop; false once it exited. */
static int next_stop(pid_t pid, int *st)
{
	if (ptrace(PTRACE_SYSCALL, pid, 0, 0))
		return 0;
	return waitpid(pid, st, 0) == pid && WIFSTOPPED(*st);
}

/*
 * At every syscall stop of the tracee, entry or exit, a set for it whose
 * link is left to task_work; the tracee's own requests race with it.
 */
static void f1_run(enum f1_kind kind)
{
	struct vperfctr_control c;
	int st, fd, gave = 0, stops = 0;
	pthread_t th, th2;
	struct kid k;

	kid_start(&k, f1_tracee, &kind);
	ck_assert_int_eq(waitpid(k.pid, &st, 0), k.pid);
	ck_assert(WIFSTOPPED(st));
	ptrace(PTRACE_SETOPTIONS, k.pid, 0, PTRACE_O_EXITKILL);
	fd = pfs_open(k.pid, "control", O_RDWR);
	ck_assert_int_ge(fd, 0);
	tsc_control(&c);
	__atomic_store_n(&mover_stop, 0, __ATOMIC_RELAXED);
	ck_assert_int_eq(pthread_create(&th, NULL, mover, &k.pid), 0);
	ck_assert_int_eq(pthread_create(&th2, NULL, contender, NULL), 0);
	while (next_stop(k.pid, &st)) {
		if (put_control(fd, &c) == CTL_SIZE)
			gave++;
		/*
		 * Now and then a pause longer than a sampling period, with
		 * nothing new resumed: a CPU still pointing at a set freed
		 * meanwhile would use it.
		 */
		if (++stops % 8 == 0)
			usleep(60000);
	}
	__atomic_store_n(&mover_stop, 1, __ATOMIC_RELAXED);
	pthread_join(th, NULL);
	pthread_join(th2, NULL);
	close(fd);
	close(k.rd);
	close(k.wr);
	ck_assert_msg(WIFEXITED(st) && !WEXITSTATUS(st), "tracee: %#x", st);
	ck_assert_int_gt(gave, F1_ROUNDS);
	/* A set freed under a pending link or a CPU's pointer shows now. */
	usleep(200000);
}

START_TEST(f1_tracee_unlinks_pending_set)
{
	f1_run(F1_UNLINK);
}

START_TEST(f1_tracee_writes_control_over_pending_set)
{
	f1_run(F1_CONTROL);
}

START_TEST(f1_tracee_commands_pending_set)
{
	f1_run(F1_COMMAND);
}

/* --- F2: exec --- */

/* An i-mode start value that overflows @ms after the counters start. */
static int ireset_after(unsigned int ms)
{
#ifdef __powerpc__
	return (int)(0x7fffffffLL - (long long)ms_ticks(ms));
#else
	return (int)-(long long)ms_ticks(ms);
#endif
}

/*
 * The exec'd helper: says it started (on @started, unless -1), runs a
 * while, then says on @out whether it has a set.
 */
int suid_helper(int started, int out)
{
	char status[80] = "unreadable\n";
	char line[128];
	ssize_t n;
	int fd;

	if (started >= 0 && write(started, "s", 1) != 1)
		return 1;
	spin(ms_ticks(300));	/* far past the overflow armed before exec */
	/* Not vperfctr_open(): mapping the state page would make a set. */
	fd = open(PERFCTR_ROOT "/self/status", O_RDONLY);
	n = fd < 0 ? -1 : read(fd, status, sizeof(status) - 1);
	if (n > 0)
		status[n] = '\0';
	snprintf(line, sizeof(line), "euid %d status %s", (int)geteuid(),
		 status);
	return write(out, line, strlen(line)) > 0 ? 0 : 1;
}

static int make_suid_helper(void)
{
	char buf[65536];
	int in = open("/proc/self/exe", O_RDONLY);
	int out = open(SUID_HELPER, O_WRONLY | O_CREAT | O_TRUNC, 0755);
	ssize_t n;

	if (in < 0 || out < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, n) != n)
			return -1;
	close(in);
	close(out);
	return chown(SUID_HELPER, 0, 0) || chmod(SUID_HELPER, 04755) ? -1 : 0;
}

struct exec_watch {
	unsigned int delay_ms;	/* the overflow, after the control */
	const struct vperfctr_state *st;
	int started;		/* read end: the helper started */
	int answer;		/* read end: the helper's line */
	char line[128];
	int done;
	int moved;		/* seq changed after the helper started */
};

/* The CLONE_VM watcher: from the helper's start to its end, seq stays. */
static int watcher(void *arg)
{
	struct exec_watch *w = arg;
	unsigned int seq;
	ssize_t n;
	char b;

	if (read(w->started, &b, 1) != 1)
		return 1;
	seq = PAGE_LOAD(w->st->seq);
	n = read(w->answer, w->line, sizeof(w->line) - 1);
	w->moved = PAGE_LOAD(w->st->seq) != seq;
	if (n > 0)
		w->line[n] = '\0';
	w->done = 1;
	return 0;
}

/*
 * As nobody: counters, with an i-mode one that overflows soon with
 * SIGSTOP where the PMU has interrupts; a CLONE_VM watcher; then exec of
 * the setuid-root helper.
 */
static int exec_suid_kid(int rd, int wr, void *arg)
{
	struct exec_watch *w = arg;
	char *stack = malloc(STACK_SIZE);
	struct vperfctr_control c;
	struct vperfctr *vp;
	char fd1[16], fd2[16];
	int p1[2], p2[2];

	(void)rd;
	(void)wr;
	if (become_nobody() || pipe(p1) || pipe(p2))
		return kid_fail(100);
	vp = vperfctr_open();
	tsc_control(&c);
	if (model) {
		model->imode(&c.cpu_control, ireset_after(w->delay_ms));
		c.si_signo = SIGSTOP;
	}
	if (!vp || vperfctr_control(vp, &c))
		return kid_fail(101);
	w->st = vperfctr_state(vp);
	w->started = p1[0];
	w->answer = p2[0];
	if (!stack || clone(watcher, stack + STACK_SIZE, CLONE_VM | SIGCHLD,
			    w) < 0)
		return kid_fail(102);
	/* The helper talks to the watcher, which shares w with the test. */
	snprintf(fd1, sizeof(fd1), "%d", p1[1]);
	snprintf(fd2, sizeof(fd2), "%d", p2[1]);
	execl(SUID_HELPER, SUID_HELPER, HELPER_ARG, fd1, fd2, NULL);
	return kid_fail(104);
}

/* Is @pid, stopped, still the program that armed the overflow? */
static int stopped_before_exec(pid_t pid)
{
	char path[64], comm[32] = "";
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, comm, sizeof(comm) - 1) < 0)
			comm[0] = '\0';
		close(fd);
	}
	return strncmp(comm, "perfctr-suid", 12) != 0;
}

/*
 * One try with the overflow @delay_ms after the control: 1 if it came
 * before the exec (try again, later), else 0 with everything asserted.
 */
static int exec_setuid_try(unsigned int delay_ms)
{
	struct exec_watch *w;
	struct kid k;
	int st, i;

	w = mmap(NULL, sizeof(*w), PROT_READ | PROT_WRITE,
		 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	ck_assert_ptr_ne(w, MAP_FAILED);
	memset(w, 0, sizeof(*w));
	w->delay_ms = delay_ms;
	kid_start(&k, exec_suid_kid, w);
	ck_assert_int_eq(waitpid(k.pid, &st, WUNTRACED), k.pid);
	if (WIFSTOPPED(st)) {
		int early = stopped_before_exec(k.pid);

		kill(k.pid, SIGKILL);
		waitpid(k.pid, &st, 0);
		close(k.wr);
		close(k.rd);
		ck_assert_msg(early, "the setuid program was stopped");
		return 1;
	}
	ck_assert_msg(WIFEXITED(st) && !WEXITSTATUS(st), "status %#x", st);
	/* The watcher, our grandchild, was reparented: wait for its word. */
	for (i = 0; !w->done && i < 500; i++)
		usleep(10000);
	ck_assert_str_eq(w->line, "euid 0 status none\n");
	ck_assert_msg(!w->moved, "the page moved after the exec");
	close(k.wr);
	close(k.rd);
	return 0;
}

START_TEST(exec_setuid_drops_the_set)
{
	unsigned int delay_ms = 20;

	ck_assert_int_eq(make_suid_helper(), 0);
	while (exec_setuid_try(delay_ms)) {
		delay_ms *= 2;
		ck_assert_msg(delay_ms <= 160, "the overflow came before every exec");
	}
	unlink(SUID_HELPER);
}

/* Root drops its effective uid after the control: the set goes at exec. */
static int creds_kid(int rd, int wr, void *arg)
{
	int change = *(int *)arg;
	struct vperfctr_control c;
	struct vperfctr *vp = vperfctr_open();
	char out[16];

	(void)rd;
	tsc_control(&c);
	if (!vp || vperfctr_control(vp, &c))
		return kid_fail(110);
	/* Still dumpable, every id changed: only the ids say "go". */
	if (change && become_nobody())
		return kid_fail(111);
	snprintf(out, sizeof(out), "%d", wr);
	execl("/proc/self/exe", "check_security", HELPER_ARG, "-1", out, NULL);
	return kid_fail(112);
}

static void run_creds(int change, const char *want)
{
	char line[128] = "";
	struct kid k;
	ssize_t n;

	kid_start(&k, creds_kid, &change);
	n = read(k.rd, line, sizeof(line) - 1);
	ck_assert_int_gt(n, 0);
	line[n] = '\0';
	ck_assert_str_eq(line, want);
	kid_done(&k);
}

START_TEST(exec_with_changed_ids_drops_the_set)
{
	run_creds(1, "euid 65534 status none\n");
}

START_TEST(exec_with_same_ids_keeps_the_set)
{
	run_creds(0, "euid 0 status running\n");
}

void sec_lifetime_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "lifetime", NULL, NULL);

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, f1_tracee_unlinks_pending_set);
	tcase_add_test(tc, f1_tracee_writes_control_over_pending_set);
	tcase_add_test(tc, f1_tracee_commands_pending_set);
	tcase_add_test(tc, exec_setuid_drops_the_set);
	tcase_add_test(tc, exec_with_changed_ids_drops_the_set);
	tcase_add_test(tc, exec_with_same_ids_keeps_the_set);
}
