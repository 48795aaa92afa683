// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for perfctr's security model (Documentation/perfctr/
 * security.rst), in the test VM as root against perfctr.ko and, with
 * PERFCTR_SIM_MODEL=NAME, against perfctr_simpmu.ko model=NAME:
 *  - perfctr.paranoid: who may count what (kernel mode, counters at all);
 *  - who may read another process's counters;
 *  - the hardware taken back by CAP_PERFMON, and who holds it;
 *  - a set given to a tracee at a syscall stop while the tracee itself
 *    unlinks, rewrites or commands it (the link still pending);
 *  - exec into a setuid program, and with changed credentials;
 *  - user-space reads racing with overflow stops.
 * Unprivileged steps run in children that setuid() to nobody.
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
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"
#include "vp_util.h"
#include "simpmu_user.h"

#define RECLAIM_PATH	PERFCTR_ROOT "/reclaim"
#define SUID_HELPER	"/tmp/perfctr-suid-helper"
#define HELPER_ARG	"--suid-helper"
#define STACK_SIZE	65536

static void set_paranoid(int level)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "%d", level);
	ck_assert_int_eq(param_put("paranoid", buf), 0);
}

/* Every test leaves the defaults behind, whatever it changed. */
static void defaults(void)
{
	param_put("paranoid", "2");
	param_put("read_same_uid", "0");
}

/* --- unprivileged children --- */

static int become_nobody(void)
{
	if (setgid(NOBODY) || setuid(NOBODY))
		return -1;
	/* setuid() made us non-dumpable; a plain user process is not. */
	return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* What a child tries: a control; with @kernel, counting kernel mode too. */
struct try {
	int counters;	/* 0: TSC only */
	int kernel;
	int want;	/* 0, or the errno */
};

static void try_control(const struct try *t, struct vperfctr_control *c)
{
	tsc_control(c);
	if (t->counters)
		model->amode(&c->cpu_control);
	if (t->kernel)
		model->kernel(&c->cpu_control);
}

/*
 * As nobody: first a TSC-only control, then the one to try; a refusal
 * must leave the first in place, counting.
 */
static int try_kid(int rd, int wr, void *arg)
{
	const struct try *t = arg;
	struct vperfctr_control c, got;
	struct perfctr_sum_ctrs s0, s1;
	struct vperfctr *vp;
	int err;

	(void)rd;
	(void)wr;
	if (become_nobody())
		return kid_fail(10);
	vp = vperfctr_open();
	if (!vp)
		return kid_fail(11);
	tsc_control(&c);
	if (vperfctr_control(vp, &c))
		return kid_fail(12);
	try_control(t, &c);
	err = vperfctr_control(vp, &c) ? errno : 0;
	if (err != t->want)
		return kid_fail(13);
	if (vperfctr_read_control(vp, &got))
		return kid_fail(14);
	if (!err)
		return memcmp(&got, &c, sizeof(c)) ? kid_fail(15) : 0;
	/* Refused: the old control, still counting. */
	tsc_control(&c);
	if (memcmp(&got, &c, sizeof(c)) || vperfctr_read_sums(vp, &s0))
		return kid_fail(16);
	spin(ms_ticks(2));
	if (vperfctr_read_sums(vp, &s1) || s1.tsc <= s0.tsc)
		return kid_fail(17);
	return 0;
}

static void run_try(int level, int counters, int kernel, int want)
{
	struct try t = { counters, kernel, want };

	set_paranoid(level);
	kid_run(try_kid, &t);
}

/* --- paranoid --- */

static const char *const bad_levels[] = { "-2", "4", "1000", "x", "2x" };

START_TEST(paranoid_out_of_range_refused)
{
	set_paranoid(1);
	ck_assert_int_eq(param_put("paranoid", bad_levels[_i]), EINVAL);
	ck_assert_int_eq(param_get("paranoid"), 1);
}

START_TEST(paranoid_every_level_accepted)
{
	int level;

	for (level = -1; level <= 3; level++) {
		char want[8];
		const char *v;

		set_paranoid(level);
		ck_assert_int_eq(param_get("paranoid"), level);
		v = info_field("paranoid");
		snprintf(want, sizeof(want), "%d", level);
		ck_assert_msg(v && !strcmp(v, want), "info says paranoid %s", v);
	}
}

START_TEST(paranoid_default_is_2)
{
	ck_assert_int_eq(param_get("paranoid"), 2);
}

/* At 3 the TSC stays open to everyone. */
START_TEST(paranoid3_tsc_allowed)
{
	run_try(3, 0, 0, 0);
}

START_TEST(paranoid3_counters_refused)
{
	run_try(3, 1, 0, EACCES);
}

START_TEST(paranoid2_user_mode_allowed)
{
	run_try(2, 1, 0, 0);
}

START_TEST(paranoid2_kernel_mode_refused)
{
	run_try(2, 1, 1, EACCES);
}

START_TEST(paranoid1_kernel_mode_allowed)
{
	run_try(1, 1, 1, 0);
}

/* CAP_PERFMON (root here) bypasses every level. */
START_TEST(privileged_bypasses_paranoid)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;

	ck_assert_ptr_nonnull(vp);
	set_paranoid(3);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	model->kernel(&c.cpu_control);
	lib_control(vp, &c);
	vperfctr_unlink(vp);
	vperfctr_close(vp);
}

/*
 * A control a tracer writes is judged on the tracer's privilege: the
 * tracee is nobody, and so (or not) is its tracer.
 */
static int traced_nobody(int rd, int wr, void *arg)
{
	(void)arg;
	(void)wr;
	if (become_nobody() || ptrace(PTRACE_TRACEME, 0, 0, 0))
		return kid_fail(40);
	raise(SIGSTOP);
	kid_wait_go(rd);
	return 0;
}

/* @tracer_nobody: the tracer drops to nobody first. Returns the errno. */
static int tracer_writes_kernel_control(int tracer_nobody)
{
	struct vperfctr_control c;
	int st, fd, err = 0;
	struct kid t;

	if (kid_spawn(&t, traced_nobody, NULL))
		return -1;
	if (waitpid(t.pid, &st, 0) != t.pid || !WIFSTOPPED(st))
		return -1;
	fd = pfs_open(t.pid, "control", O_RDWR);
	if (fd < 0)
		return -1;
	if (tracer_nobody && (setresgid(NOBODY, NOBODY, NOBODY) ||
			      setresuid(NOBODY, NOBODY, NOBODY)))
		return -1;
	tsc_control(&c);
	model->amode(&c.cpu_control);
	model->kernel(&c.cpu_control);
	if (put_control(fd, &c) != CTL_SIZE)
		err = errno;
	close(fd);
	kill(t.pid, SIGKILL);
	kid_reap(&t);
	return err;
}

static int tracer_kid(int rd, int wr, void *arg)
{
	int nobody = *(int *)arg;
	int want = nobody ? EACCES : 0;

	(void)rd;
	(void)wr;
	return tracer_writes_kernel_control(nobody) == want ? 0 : kid_fail(50);
}

START_TEST(tracer_privilege_judged_root)
{
	int nobody = 0;

	set_paranoid(2);
	kid_run(tracer_kid, &nobody);
}

START_TEST(tracer_privilege_judged_nobody)
{
	int nobody = 1;

	set_paranoid(2);
	kid_run(tracer_kid, &nobody);
}

/* --- who holds the hardware, and taking it back --- */

/* As nobody: counters that run until released; reports its status. */
static int holding_kid(int rd, int wr, void *arg)
{
	struct vperfctr_control c;
	struct vperfctr *vp;
	char status[80] = "";
	int err;

	(void)arg;
	if (become_nobody())
		return kid_fail(60);
	vp = vperfctr_open();
	tsc_control(&c);
	model->amode(&c.cpu_control);
	if (!vp || vperfctr_control(vp, &c))
		return kid_fail(61);
	if (write(wr, "r", 1) != 1)
		return kid_fail(62);
	/* Released once the parent took the counters back. */
	kid_wait_go(rd);
	if (vperfctr_read_status(vp, status, sizeof(status)))
		return kid_fail(63);
	if (strcmp(status, "stopped: evicted"))
		return kid_fail(64);
	if (vperfctr_state(vp)->cpu_state.cstatus)
		return kid_fail(65);
	err = vperfctr_resume(vp) ? errno : 0;
	if (err != EBUSY)
		return kid_fail(66);
	/* A new control takes the hardware again. */
	if (vperfctr_control(vp, &c) ||
	    vperfctr_read_status(vp, status, sizeof(status)) ||
	    strcmp(status, "running"))
		return kid_fail(67);
	return 0;
}

/*
 * info's reserved_by once it says @want: sets of threads that just
 * exited are freed a moment later (an RCU grace period).
 */
static char *holder_settles(const char *want)
{
	char *v = NULL;
	int i;

	for (i = 0; i < 100; i++) {
		v = info_field("reserved_by");
		if (v && !strcmp(v, want))
			break;
		usleep(10000);
	}
	return v;
}

static void take_back(void)
{
	int fd = open(RECLAIM_PATH, O_WRONLY);

	ck_assert_msg(fd >= 0, "open %s: %s", RECLAIM_PATH, strerror(errno));
	ck_assert_int_eq(write(fd, "1\n", 2), 2);
	close(fd);
}

START_TEST(info_names_holder_and_reclaim_takes_back)
{
	char *v;
	char b;
	struct kid k;

	kid_start(&k, holding_kid, NULL);
	kid_read(&k, &b, 1);
	v = holder_settles("virtual counters (1 set; uid 65534)");
	ck_assert_msg(v && !strcmp(v, "virtual counters (1 set; uid 65534)"),
		      "reserved_by: %s", v);
	take_back();
	v = info_field("reserved_by");
	ck_assert_msg(v && !strcmp(v, "none"), "after reclaim: %s", v);
	kid_done(&k);
}

static int reclaim_kid(int rd, int wr, void *arg)
{
	int fd;

	(void)rd;
	(void)wr;
	(void)arg;
	if (become_nobody())
		return kid_fail(70);
	fd = open(RECLAIM_PATH, O_WRONLY);
	return fd < 0 && errno == EACCES ? 0 : kid_fail(71);
}

START_TEST(reclaim_needs_perfmon)
{
	kid_run(reclaim_kid, NULL);
}

#ifdef __powerpc__
#define KERNEL_HOLDER	"perf_events"
#else
#define KERNEL_HOLDER	"perf_events or the NMI watchdog"
#endif

/* The simulated PMU's kernel allocator says no, as perf_events would. */
START_TEST(info_names_kernel_holder)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;
	char *v;

	ck_assert_ptr_nonnull(vp);
	ck_assert_int_eq(param_put("kernel_busy", "1"), 0);
	usleep(1100000);	/* info asks the kernel once a second */
	v = info_field("reserved_by");
	ck_assert_msg(v && !strcmp(v, KERNEL_HOLDER), "reserved_by: %s", v);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	ck_assert_int_eq(vperfctr_control(vp, &c), -1);
	ck_assert_int_eq(errno, EBUSY);
	ck_assert_int_eq(param_put("kernel_busy", "0"), 0);
	usleep(1100000);
	v = info_field("reserved_by");
	ck_assert_msg(v && !strcmp(v, "none"), "reserved_by: %s", v);
	vperfctr_close(vp);
}

static void kernel_free(void)
{
	param_put("kernel_busy", "0");
}

START_TEST(reserved_by_none_when_free)
{
	char *v = holder_settles("none");

	ck_assert_msg(v && !strcmp(v, "none"), "reserved_by: %s", v);
}

/* --- global mode: CAP_PERFMON, whatever the file's owner --- */

#define CAP_PERFMON_BIT	38	/* linux/capability.h */

/* Keeps CAP_PERFMON alone (or nothing) across setuid(nobody). */
static int nobody_with_perfmon(int keep)
{
	struct { __u32 version; int pid; } hdr = { 0x20080522, 0 };
	struct { __u32 eff, perm, inh; } data[2] = { { 0 } };

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || become_nobody())
		return -1;
	if (keep) {
		data[1].eff = 1U << (CAP_PERFMON_BIT - 32);
		data[1].perm = data[1].eff;
	}
	return syscall(SYS_capset, &hdr, data);
}

static int global_open_kid(int rd, int wr, void *arg)
{
	int keep = *(int *)arg;
	int fd;

	(void)rd;
	(void)wr;
	if (nobody_with_perfmon(keep))
		return kid_fail(120);
	fd = open(PERFCTR_ROOT "/global", O_RDWR);
	if (keep)
		return fd >= 0 ? 0 : kid_fail(121);
	return fd < 0 && errno == EACCES ? 0 : kid_fail(122);
}

START_TEST(global_open_with_perfmon_only)
{
	int keep = 1;

	kid_run(global_open_kid, &keep);
}

START_TEST(global_open_without_perfmon_refused)
{
	int keep = 0;

	kid_run(global_open_kid, &keep);
}

/* --- status --- */

START_TEST(status_follows_the_set)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;
	char s[80];

	ck_assert_ptr_nonnull(vp);
	vperfctr_unlink(vp);
	ck_assert_int_eq(vperfctr_read_status(vp, s, sizeof(s)), 0);
	ck_assert_str_eq(s, "none");
	tsc_control(&c);
	lib_control(vp, &c);
	ck_assert_int_eq(vperfctr_read_status(vp, s, sizeof(s)), 0);
	ck_assert_str_eq(s, "running");
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_int_eq(vperfctr_read_status(vp, s, sizeof(s)), 0);
	ck_assert_str_eq(s, "stopped: suspended");
	vperfctr_close(vp);
}

/* --- reading another process's counters --- */

/* As nobody: a child of the same uid, read with or without tracing it. */
static int same_uid_reader(int rd, int wr, void *arg)
{
	int how = *(int *)arg;		/* 0: plain, 1: traced */
	struct perfctr_sum_ctrs s;
	struct report r;
	struct vperfctr *vp;
	struct kid t;
	int st, ok;

	(void)rd;
	(void)wr;
	if (become_nobody() || kid_spawn(&t, counting_kid, NULL))
		return kid_fail(80);
	if (read(t.rd, &r, sizeof(r)) != sizeof(r))
		return 100 + kid_reap(&t);
	if (how && (ptrace(PTRACE_ATTACH, t.pid, 0, 0) ||
		    waitpid(t.pid, &st, 0) != t.pid))
		return kid_fail(81);
	errno = 0;
	vp = vperfctr_open_tid(t.pid);
	if (how || param_get("read_same_uid"))
		ok = vp && !vperfctr_read_sums(vp, &s) &&
		     !memcmp(&s, &r.sums, sizeof(s));
	else
		ok = !vp && errno == EACCES &&
		     pfs_open(t.pid, "sums", O_RDONLY) < 0 && errno == EACCES;
	if (how)
		ptrace(PTRACE_DETACH, t.pid, 0, 0);
	if (kid_reap(&t))
		return kid_fail(83);
	return ok ? 0 : kid_fail(82);
}

static void run_reader(int how, const char *same_uid)
{
	ck_assert_int_eq(param_put("read_same_uid", same_uid), 0);
	kid_run(same_uid_reader, &how);
}

START_TEST(read_same_uid_refused_by_default)
{
	run_reader(0, "0");
}

START_TEST(read_same_uid_opted_in)
{
	run_reader(0, "1");
}

START_TEST(read_by_tracer_allowed)
{
	run_reader(1, "0");
}

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
static int suid_helper(int started, int out)
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

/* --- who may read the counters from user space --- */

#ifndef __powerpc__
/* The simulated PMU's page: whether user RDPMC works on @cpu now. */
static int rdpmc_on(const struct simpmu_user_cpu *page, int cpu)
{
	return __atomic_load_n(&page[cpu].user_read, __ATOMIC_ACQUIRE);
}

/* RDPMC is the owner's while its control has counters, and no longer. */
START_TEST(user_read_follows_the_control)
{
	struct vperfctr *vp = vperfctr_open();
	const struct simpmu_user_cpu *page;
	struct vperfctr_control c;
	int fd = open("/dev/perfctr_simpmu", O_RDONLY);

	ck_assert_int_eq(pin(0), 0);
	ck_assert_ptr_nonnull(vp);
	ck_assert_int_ge(fd, 0);
	page = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(page, MAP_FAILED);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	lib_control(vp, &c);
	ck_assert_int_eq(rdpmc_on(page, 0), 1);
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_int_eq(rdpmc_on(page, 0), 1);	/* stopped, still its own */
	tsc_control(&c);
	lib_control(vp, &c);
	ck_assert_int_eq(rdpmc_on(page, 0), 0);
	model->amode(&c.cpu_control);
	lib_control(vp, &c);
	ck_assert_int_eq(rdpmc_on(page, 0), 1);
	ck_assert_int_eq(vperfctr_unlink(vp), 0);
	ck_assert_int_eq(rdpmc_on(page, 0), 0);
	vperfctr_close(vp);
}
#endif

/* --- F7: user-space reads racing with overflow stops --- */

static int overflows;	/* lock-free atomics: signal-safe */

static void on_overflow(int sig)
{
	(void)sig;
	__atomic_fetch_add(&overflows, 1, __ATOMIC_RELAXED);
}

START_TEST(fast_read_survives_overflow_stops)
{
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c;
	unsigned long long t0 = rdtsc();
	int seen = 0;

	ck_assert_ptr_nonnull(vp);
	signal(SIGUSR1, on_overflow);
	tsc_control(&c);
	/* A few thousand TSC ticks a period: thousands of overflows. */
	model->imode(&c.cpu_control, IRESET_NEAR + IRESET_SPAN - 20000);
	c.si_signo = SIGUSR1;
	lib_control(vp, &c);
	while (seen < 2000 && rdtsc() - t0 < ms_ticks(20000)) {
		int now = __atomic_load_n(&overflows, __ATOMIC_RELAXED);

		ck_assert_int_eq(vperfctr_read_ctrs(vp, &s), 0);
		if (now != seen) {
			seen = now;
			vperfctr_iresume(vp);
		}
	}
	ck_assert_int_ge(seen, 500);
	vperfctr_unlink(vp);
	vperfctr_close(vp);
}

/* --- F17: an HT P4's thread 1 going down and up --- */

static int cpu1_online(const char *val)
{
	int fd = open("/sys/devices/system/cpu/cpu1/online", O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Thread 0 (CPU 0, where main() pinned us) counts while thread 1 goes
 * offline and back: the core's shared registers must keep counting.
 */
START_TEST(ht_sibling_hotplug_keeps_counting)
{
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs s0, s1;
	struct vperfctr_control c;
	unsigned long long tsc;

	ck_assert_ptr_nonnull(vp);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	lib_control(vp, &c);
	spin(ms_ticks(20));
	ck_assert_int_eq(vperfctr_read_ctrs(vp, &s0), 0);
	ck_assert_int_eq(cpu1_online("0"), 0);
	spin(ms_ticks(20));
	ck_assert_int_eq(cpu1_online("1"), 0);
	spin(ms_ticks(20));
	ck_assert_int_eq(vperfctr_read_ctrs(vp, &s1), 0);
	/* The simulated counters count TSC ticks: all of them, still. */
	tsc = s1.tsc - s0.tsc;
	ck_assert_msg(within(s1.pmc[0] - s0.pmc[0], tsc, 10),
		      "pmc0 %llu over %llu TSC ticks", s1.pmc[0] - s0.pmc[0], tsc);
	ck_assert_msg(within(s1.pmc[1] - s0.pmc[1], tsc, 10),
		      "pmc1 %llu over %llu TSC ticks", s1.pmc[1] - s0.pmc[1], tsc);
	vperfctr_close(vp);
}

static void online_again(void)
{
	cpu1_online("1");
}

static Suite *security_suite(void)
{
	Suite *s = suite_create("security");
	TCase *tc;

	tc = tcase_create("paranoid");
	tcase_add_checked_fixture(tc, NULL, defaults);
	tcase_add_test(tc, paranoid_default_is_2);
	tcase_add_loop_test(tc, paranoid_out_of_range_refused, 0,
			    ARRAY_SIZE(bad_levels));
	tcase_add_test(tc, paranoid_every_level_accepted);
	tcase_add_test(tc, paranoid3_tsc_allowed);
	if (model) {
		tcase_add_test(tc, paranoid3_counters_refused);
		tcase_add_test(tc, paranoid2_user_mode_allowed);
		tcase_add_test(tc, paranoid2_kernel_mode_refused);
		tcase_add_test(tc, paranoid1_kernel_mode_allowed);
		tcase_add_test(tc, privileged_bypasses_paranoid);
		tcase_add_test(tc, tracer_privilege_judged_root);
		tcase_add_test(tc, tracer_privilege_judged_nobody);
	}
	suite_add_tcase(s, tc);

	tc = tcase_create("hardware");
	tcase_add_test(tc, reserved_by_none_when_free);
	tcase_add_test(tc, reclaim_needs_perfmon);
	tcase_add_test(tc, status_follows_the_set);
	tcase_add_test(tc, global_open_with_perfmon_only);
	tcase_add_test(tc, global_open_without_perfmon_refused);
	if (model && !cpus_forbidden)
		tcase_add_test(tc, info_names_holder_and_reclaim_takes_back);
	suite_add_tcase(s, tc);

	if (model) {
		tc = tcase_create("kernel");
		tcase_add_checked_fixture(tc, NULL, kernel_free);
		tcase_add_test(tc, info_names_kernel_holder);
		suite_add_tcase(s, tc);
	}

	tc = tcase_create("access");
	tcase_add_checked_fixture(tc, NULL, defaults);
	tcase_add_test(tc, read_same_uid_refused_by_default);
	tcase_add_test(tc, read_same_uid_opted_in);
	tcase_add_test(tc, read_by_tracer_allowed);
	suite_add_tcase(s, tc);

	tc = tcase_create("lifetime");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, f1_tracee_unlinks_pending_set);
	tcase_add_test(tc, f1_tracee_writes_control_over_pending_set);
	tcase_add_test(tc, f1_tracee_commands_pending_set);
	tcase_add_test(tc, exec_setuid_drops_the_set);
	tcase_add_test(tc, exec_with_changed_ids_drops_the_set);
	tcase_add_test(tc, exec_with_same_ids_keeps_the_set);
	suite_add_tcase(s, tc);

	if (model && cpus_forbidden && ncpus >= 2) {
		tc = tcase_create("hotplug");
		tcase_add_checked_fixture(tc, NULL, online_again);
		tcase_add_test(tc, ht_sibling_hotplug_keeps_counting);
		suite_add_tcase(s, tc);
	}

	if (model) {
		tc = tcase_create("fastread");
		tcase_set_timeout(tc, 60);
#ifndef __powerpc__
		tcase_add_test(tc, user_read_follows_the_control);
#endif
		tcase_add_test(tc, fast_read_survives_overflow_stops);
		suite_add_tcase(s, tc);
	}
	return s;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	if (vp_util_init())
		return EXIT_FAILURE;
	if (argc > 3 && !strcmp(argv[1], HELPER_ARG))
		return suid_helper(atoi(argv[2]), atoi(argv[3]));
	/* Counters only where the model has them: P4 thread 1 has none. */
	if (model && cpus_forbidden && pin(0))
		return EXIT_FAILURE;
	sr = srunner_create(security_suite());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
