// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "remote" case: who may read another thread's
 * counters, and change them only while it is stopped under ptrace.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vperfctr.h"

/* --- other threads' counters --- */

START_TEST(remote_read_as_root)
{
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c;
	struct vperfctr *vp;
	struct report r;
	struct kid k;

	kid_start(&k, counting_kid, NULL);
	kid_read(&k, &r, sizeof(r));
	vp = vperfctr_open_tid(k.pid);
	ck_assert_msg(vp, "open %d: %s", (int)k.pid, strerror(errno));
	ck_assert(!vperfctr_state(vp));
	ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
	ck_assert_mem_eq(&s, &r.sums, SUMS_SIZE);
	ck_assert_int_eq(vperfctr_read_control(vp, &c), 0);
	ck_assert_mem_eq(&c, &r.ctl, CTL_SIZE);
	kid_done(&k);
}

/*
 * As nobody, reads a child's counters: allowed when the child is
 * dumpable (same uid), EACCES when it is not.
 */
static int unprivileged_reader(int rd, int wr, void *arg)
{
	int nodump = *(int *)arg, ok, err;
	struct report r;
	struct kid t;

	(void)rd;
	(void)wr;
	if (setuid(NOBODY))
		return kid_fail(30);
	/* setuid() made us non-dumpable; our child inherits this. */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(31);
	err = kid_spawn_report(&t, counting_kid, &nodump, &r, sizeof(r));
	if (err)
		return err;
	ok = nodump ? read_refused(t.pid) : reads_report(t.pid, &r);
	if (kid_reap(&t))
		return kid_fail(35);
	return ok ? 0 : 34;
}

START_TEST(remote_read_same_uid)
{
	kid_run_int(unprivileged_reader, 0);
}

START_TEST(remote_read_not_dumpable_refused)
{
	kid_run_int(unprivileged_reader, 1);
}

/* As nobody, reads root's (our) counters: EACCES; its own: allowed. */
static int other_uid_reader(int rd, int wr, void *arg)
{
	pid_t root_tid = *(pid_t *)arg;
	struct vperfctr_control c;
	int fd;

	(void)rd;
	(void)wr;
	if (setuid(NOBODY) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(30);
	if (!read_refused(root_tid))
		return kid_fail(31);
	fd = pfs_open(root_tid, "control", O_RDONLY);
	if (fd >= 0 || errno != EACCES)
		return kid_fail(33);
	return lib_open_tsc(&c) ? 0 : kid_fail(34);
}

START_TEST(remote_read_other_uid_refused)
{
	struct vperfctr *vp = vperfctr_open();
	pid_t me = gettid();
	struct vperfctr_control c;
	struct kid k;

	ck_assert_ptr_nonnull(vp);
	tsc_control(&c);
	lib_control(vp, &c);
	kid_start(&k, other_uid_reader, &me);
	kid_done(&k);
}

/*
 * The driver's own id rule, past the file's mode bits: the target's
 * effective uid is the reader's (the files are the reader's), its saved
 * uid is not. Allowed once every id matches.
 */
static int saved_uid_target(int rd, int wr, void *arg)
{
	uid_t suid = *(int *)arg;
	struct vperfctr_control c;
	char done = 1;

	if (setresuid(NOBODY, NOBODY, suid) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(40);
	if (!lib_open_tsc(&c))
		return kid_fail(41);
	if (write(wr, &done, 1) != 1)
		return kid_fail(42);
	kid_wait_go(rd);
	return 0;
}

static int saved_uid_reader(int rd, int wr, void *arg)
{
	uid_t suid = *(int *)arg;
	struct perfctr_sum_ctrs s;
	struct vperfctr *vp;
	struct kid t;
	int ok, err;
	char done;

	(void)rd;
	(void)wr;
	err = kid_spawn_report(&t, saved_uid_target, arg, &done, 1);
	if (err)
		return err;
	if (setresuid(NOBODY, NOBODY, NOBODY) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(31);
	if (suid != NOBODY) {
		ok = read_refused(t.pid);
	} else {
		vp = vperfctr_open_tid(t.pid);
		ok = vp && !vperfctr_read_sums(vp, &s);
	}
	if (kid_reap(&t))
		return kid_fail(33);
	return ok ? 0 : 32;
}

START_TEST(remote_read_saved_uid_refused)
{
	kid_run_int(saved_uid_reader, 0);
}

START_TEST(remote_read_all_ids_allowed)
{
	kid_run_int(saved_uid_reader, NOBODY);
}

/*
 * Permission holds per request, not per open: a descriptor opened while
 * the target could be read stops working when the target turns itself
 * non-dumpable, as a setuid program would be.
 */
static int turning_target(int rd, int wr, void *arg)
{
	struct vperfctr_control c;
	char b = 1;

	(void)arg;
	if (!lib_open_tsc(&c))
		return kid_fail(40);
	if (write(wr, &b, 1) != 1 || read(rd, &b, 1) != 1)
		return kid_fail(41);
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return kid_fail(42);
	if (write(wr, &b, 1) != 1)
		return kid_fail(43);
	kid_wait_go(rd);
	return 0;
}

static int recheck_reader(int rd, int wr, void *arg)
{
	struct perfctr_sum_ctrs s;
	int fd, ok, err;
	struct kid t;
	char b = 1;

	(void)rd;
	(void)wr;
	(void)arg;
	if (setuid(NOBODY) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(30);
	err = kid_spawn_report(&t, turning_target, NULL, &b, 1);
	if (err)
		return err;
	fd = pfs_open(t.pid, "sums", O_RDONLY);
	ok = fd >= 0 && pread(fd, &s, sizeof(s), 0) == sizeof(s);
	if (!ok)
		return kid_fail(32);
	if (write(t.wr, &b, 1) != 1 || read(t.rd, &b, 1) != 1)
		return kid_fail(33);
	errno = 0;
	ok = pread(fd, &s, sizeof(s), 0) == -1 && errno == EACCES;
	if (kid_reap(&t))
		return kid_fail(35);
	return ok ? 0 : 34;
}

START_TEST(remote_read_rechecked_per_request)
{
	kid_run(recheck_reader, NULL);
}

/* A tracee just stopped may still be leaving its CPU: EBUSY, try again. */
static ssize_t put_retry(int fd, const void *buf, size_t len)
{
	ssize_t n = -1;
	int i;

	for (i = 0; i < 1000; i++) {
		n = pwrite(fd, buf, len, 0);
		if (n >= 0 || errno != EBUSY)
			break;
		usleep(1000);
	}
	return n;
}

static void remote_new_control(struct vperfctr_control *c)
{
	full_control(c);
	c->si_signo = SIGUSR2;
	c->preserve = VPERFCTR_PRESERVE_TSC;
}

/*
 * Counts, reports, waits; then checks that its parent, while it was
 * stopped, replaced the control and suspended the counters.
 */
static int traced_kid(int rd, int wr, void *arg)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c, want;
	struct perfctr_sum_ctrs a, b;

	(void)arg;
	if (!vp)
		return kid_fail(20);
	full_control(&c);
	if (vperfctr_control(vp, &c))
		return kid_fail(21);
	if (write(wr, &c, sizeof(c)) != sizeof(c))
		return kid_fail(22);
	kid_wait_go(rd);
	remote_new_control(&want);
	if (vperfctr_read_control(vp, &c) || memcmp(&c, &want, sizeof(c)))
		return kid_fail(23);
	if (cstatus_of(state_of(vp)))
		return kid_fail(24);
	if (vperfctr_read_sums(vp, &a))
		return kid_fail(26);
	spin(ms_ticks(2));
	if (vperfctr_read_sums(vp, &b))
		return kid_fail(27);
	return memcmp(&a, &b, sizeof(a)) ? 25 : 0;
}

/* Stops our tracee @pid, then writes @c to its control file @ctl. */
static void control_stopped(pid_t pid, int ctl, const struct vperfctr_control *c)
{
	int status;

	ck_assert_int_eq(ptrace(PTRACE_INTERRUPT, pid, 0, 0), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSTOPPED(status));
	ck_assert_msg(put_retry(ctl, c, sizeof(*c)) == CTL_SIZE, "control: %s",
		      strerror(errno));
}

/* Lets the tracee go, to check what it was given, and waits for it. */
static void release_traced(struct kid *k)
{
	ck_assert_int_eq(ptrace(PTRACE_DETACH, k->pid, 0, 0), 0);
	ck_assert_int_eq(write(k->wr, "g", 1), 1);
	kid_done(k);
}

/* @c written to @ctl is refused (EPERM): the control is still @old. */
static void change_refused(int ctl, const struct vperfctr_control *c,
			   const struct vperfctr_control *old)
{
	struct vperfctr_control got;

	errno = 0;
	ck_assert_int_eq(put_control(ctl, c), -1);
	ck_assert_int_eq(errno, EPERM);
	get_control(ctl, &got);
	ck_assert_mem_eq(&got, old, CTL_SIZE);
}

START_TEST(remote_change_needs_ptrace_stop)
{
	struct vperfctr_control c0, c1, got;
	__u32 suspend;
	int ctl, cmd;
	struct kid k;

	kid_start(&k, traced_kid, NULL);
	kid_read(&k, &c0, sizeof(c0));
	ctl = pfs_open(k.pid, "control", O_RDWR);
	ck_assert_int_ge(ctl, 0);
	cmd = pfs_open(k.pid, "command", O_WRONLY);
	ck_assert_int_ge(cmd, 0);
	remote_new_control(&c1);

	/* Not traced: reading is allowed, changing is not. */
	errno = 0;
	ck_assert_int_eq(put_command(cmd, VPERFCTR_CMD_SUSPEND), -1);
	ck_assert_int_eq(errno, EPERM);
	change_refused(ctl, &c1, &c0);

	/* Traced but running: still not. */
	ck_assert_int_eq(ptrace(PTRACE_SEIZE, k.pid, 0, 0), 0);
	change_refused(ctl, &c1, &c0);

	/* Stopped by us: allowed. */
	control_stopped(k.pid, ctl, &c1);
	get_control(ctl, &got);
	ck_assert_mem_eq(&got, &c1, CTL_SIZE);
	suspend = VPERFCTR_CMD_SUSPEND;
	ck_assert_msg(put_retry(cmd, &suspend, sizeof(suspend)) == sizeof(suspend),
		      "suspend: %s", strerror(errno));
	release_traced(&k);
}

/* Has no counters until its stopped self is given some by its tracer. */
static int bare_traced_kid(int rd, int wr, void *arg)
{
	struct vperfctr_control c, want;
	struct vperfctr *vp;
	unsigned long long a, b;
	char ready = 'r';

	(void)arg;
	if (write(wr, &ready, 1) != 1)
		return kid_fail(20);
	kid_wait_go(rd);
	vp = vperfctr_open();
	if (!vp)
		return kid_fail(21);
	full_control(&want);
	if (vperfctr_read_control(vp, &c) || memcmp(&c, &want, sizeof(c)))
		return kid_fail(22);
	if (cstatus_of(state_of(vp)) != full_cstatus())
		return kid_fail(23);
	a = vperfctr_read_tsc(vp);
	spin(ms_ticks(2));
	b = vperfctr_read_tsc(vp);
	return b > a ? 0 : 24;
}

START_TEST(remote_control_creates_counters)
{
	struct vperfctr_control c, got;
	struct kid k;
	char ready;
	int ctl;

	kid_start(&k, bare_traced_kid, NULL);
	kid_read(&k, &ready, 1);
	ctl = pfs_open(k.pid, "control", O_RDWR);
	ck_assert_int_ge(ctl, 0);
	get_control(ctl, &got);
	ck_assert(is_zero(&got, sizeof(got)));
	full_control(&c);
	ck_assert_int_eq(ptrace(PTRACE_SEIZE, k.pid, 0, 0), 0);
	control_stopped(k.pid, ctl, &c);
	release_traced(&k);
}

/* The id rules below are perfctr.read_same_uid's: opt in for them. */
static void same_uid_on(void)
{
	ck_assert_int_eq(param_put("read_same_uid", "1"), 0);
}

static void same_uid_off(void)
{
	param_put("read_same_uid", "0");
}

void vp_remote_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "remote", same_uid_on, same_uid_off);

	tcase_add_test(tc, remote_read_as_root);
	tcase_add_test(tc, remote_read_same_uid);
	tcase_add_test(tc, remote_read_not_dumpable_refused);
	tcase_add_test(tc, remote_read_other_uid_refused);
	tcase_add_test(tc, remote_read_saved_uid_refused);
	tcase_add_test(tc, remote_read_all_ids_allowed);
	tcase_add_test(tc, remote_read_rechecked_per_request);
	tcase_add_test(tc, remote_change_needs_ptrace_stop);
	tcase_add_test(tc, remote_control_creates_counters);
}
