// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "lifetime" case: threads and processes that exit
 * with live counters, many sets quickly, and what an exec keeps.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "vperfctr.h"

/* --- threads that exit with live counters --- */

struct exiting {
	pid_t tid;
	struct files f;
	int failed;
};

static void *exiting_thread(void *arg)
{
	struct exiting *e = arg;
	struct vperfctr_control c;
	struct perfctr_sum_ctrs s;
	struct vperfctr *vp;

	e->tid = gettid();
	vp = vperfctr_open();
	if (!vp || files_try(&e->f, e->tid)) {
		e->failed = 1;
		return NULL;
	}
	full_control(&c);
	/* Every operation works on the fds while the thread lives. */
	if (put_control(e->f.ctl, &c) != CTL_SIZE ||
	    pread(e->f.sums, &s, sizeof(s), 0) != sizeof(s) ||
	    put_command(e->f.cmd, VPERFCTR_CMD_CLEAR) != 4 ||
	    put_command(e->f.cmd, VPERFCTR_CMD_RESUME) != 4)
		e->failed = 2;
	return NULL;
}

/*
 * The tid disappears (ENOENT); the kept fds read the final control and
 * sums, and refuse every change with ESRCH.
 */
static void check_gone(pid_t tid, const struct files *f,
		       const struct vperfctr_control *ctl,
		       const struct perfctr_sum_ctrs *sums)
{
	struct vperfctr_control c, got;
	struct perfctr_sum_ctrs s;
	int fd = -1, i;

	/* Still exiting, it may be found (an fd) or not yet gone (ESRCH). */
	for (i = 0; i < 1000; i++) {
		fd = pfs_open(tid, "sums", O_RDONLY);
		if (fd < 0 && errno != ESRCH)
			break;
		if (fd >= 0)
			close(fd);
		usleep(2000);
	}
	ck_assert_int_eq(fd, -1);
	ck_assert_int_eq(errno, ENOENT);
	get_sums(f->sums, &s);
	if (sums)
		ck_assert_mem_eq(&s, sums, SUMS_SIZE);
	get_control(f->ctl, &got);
	ck_assert_mem_eq(&got, ctl, CTL_SIZE);
	tsc_control(&c);
	errno = 0;
	ck_assert_int_eq(put_control(f->ctl, &c), -1);
	ck_assert_int_eq(errno, ESRCH);
	errno = 0;
	ck_assert_int_eq(put_command(f->cmd, VPERFCTR_CMD_SUSPEND), -1);
	ck_assert_int_eq(errno, ESRCH);
}

START_TEST(exit_thread_with_live_counters)
{
	struct exiting e = { 0 };
	struct vperfctr_control c;
	struct perfctr_sum_ctrs s;
	pthread_t t;
	int fd;

	ck_assert_int_eq(pthread_create(&t, NULL, exiting_thread, &e), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(e.failed, 0);
	full_control(&c);
	check_gone(e.tid, &e.f, &c, NULL);
	/* Our own files are unaffected. */
	fd = pfs_open(gettid(), "sums", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	get_sums(fd, &s);
}

START_TEST(exit_process_with_live_counters)
{
	struct perfctr_sum_ctrs s;
	struct files f;
	struct report r;
	struct kid k;

	kid_start(&k, counting_kid, NULL);
	kid_read(&k, &r, sizeof(r));
	files_open(&f, k.pid);
	get_sums(f.sums, &s);
	ck_assert_mem_eq(&s, &r.sums, SUMS_SIZE);
	kid_done(&k);			/* reaped: gone at once */
	check_gone(k.pid, &f, &r.ctl, &r.sums);
}

/* --- many sets, quickly --- */

struct rapid {
	int unlink;
	int failed;
};

static void *rapid_thread(void *arg)
{
	struct rapid *r = arg;
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c;

	if (!vp) {
		r->failed = 1;
		return NULL;
	}
	full_control(&c);
	if (vperfctr_control(vp, &c))
		r->failed = 2;
	else if (vperfctr_read_sums(vp, &s) || !s.tsc)
		r->failed = 3;
	else if (r->unlink && vperfctr_unlink(vp))
		r->failed = 4;
	vperfctr_close(vp);
	return NULL;
}

/* 200 threads, 8 at a time: half unlink, half exit with live counters. */
START_TEST(rapid_threads)
{
	struct rapid r[8];
	pthread_t t[8];
	int round, i, done = 0;

	for (round = 0; round < 25; round++) {
		for (i = 0; i < 8; i++) {
			r[i].unlink = i & 1;
			r[i].failed = 0;
			ck_assert_int_eq(pthread_create(&t[i], NULL, rapid_thread, &r[i]), 0);
		}
		for (i = 0; i < 8; i++) {
			ck_assert_int_eq(pthread_join(t[i], NULL), 0);
			ck_assert_msg(!r[i].failed, "thread %d step %d", round * 8 + i,
				      r[i].failed);
			done++;
		}
	}
	ck_assert_int_eq(done, 200);
}

static int rapid_kid(int rd, int wr, void *arg)
{
	struct rapid r = { .unlink = *(int *)arg };

	(void)rd;
	(void)wr;
	rapid_thread(&r);
	return r.failed;
}

START_TEST(rapid_processes)
{
	struct kid k;
	int i;

	for (i = 0; i < 100; i++) {
		int unlink = i & 1;

		kid_start(&k, rapid_kid, &unlink);
		kid_done(&k);
	}
}

/* 200 control/unlink cycles on one thread. */
START_TEST(rapid_control_unlink)
{
	struct vperfctr_control c, got;
	int i, bad_ctl = 0, bad_unlink = 0;
	struct files f;

	files_open(&f, gettid());
	for (i = 0; i < 200; i++) {
		full_control(&c);
		c.si_signo = i % 64 + 1;
		c.preserve = i & 1 ? VPERFCTR_PRESERVE_TSC : 0;
		set_control(f.ctl, &c);
		get_control(f.ctl, &got);
		bad_ctl += !!memcmp(&got, &c, CTL_SIZE);
		do_command(f.cmd, VPERFCTR_CMD_UNLINK);
		get_control(f.ctl, &got);
		bad_unlink += !is_zero(&got, sizeof(got));
		if (i % 10 == 0) {
			errno = 0;
			ck_assert_int_eq(put_command(f.cmd, VPERFCTR_CMD_CLEAR), -1);
			ck_assert_int_eq(errno, ENODATA);
		}
	}
	ck_assert_int_eq(bad_ctl, 0);
	ck_assert_int_eq(bad_unlink, 0);
}

/* --- exec --- */

#define PROBE_GONE	10	/* no control, no sums */
#define PROBE_KEPT	11	/* the TSC control, still counting */

/* Runs as the program exec'd by exec_kid(): what survived the exec? */
int exec_probe(void)
{
	struct vperfctr_control c;
	struct perfctr_sum_ctrs a, b;
	int ctl, sums;

	/*
	 * A CLOEXEC set goes when the thread is first switched in after the
	 * exec: sleep to be sure that has happened.
	 */
	usleep(10000);
	ctl = open(PERFCTR_ROOT "/self/control", O_RDONLY);
	sums = open(PERFCTR_ROOT "/self/sums", O_RDONLY);
	if (ctl < 0 || sums < 0 ||
	    pread(ctl, &c, sizeof(c), 0) != sizeof(c) ||
	    pread(sums, &a, sizeof(a), 0) != sizeof(a))
		return 13;
	if (is_zero(&c, sizeof(c)))
		return is_zero(&a, sizeof(a)) ? PROBE_GONE : 12;
	spin(1000000);
	if (pread(sums, &b, sizeof(b), 0) != sizeof(b))
		return 13;
	if (c.cpu_control.tsc_on == 1 && !c.flags && a.tsc && b.tsc > a.tsc)
		return PROBE_KEPT;
	return 12;
}

/*
 * Runs as the program exec'd by exec_imode_kid(), before its first
 * switch if it can: its own new set, on the counter the old program's
 * CLOEXEC set used in i-mode, must count as if the old one never was.
 */
int exec_new_set_probe(void)
{
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c;

	full_control(&c);
	if (!vp || vperfctr_control(vp, &c))
		return 13;
	usleep(1000);		/* switch out and in */
	spin(ms_ticks(5));
	if (vperfctr_read_sums(vp, &s) || !s.tsc)
		return 14;
	return within(s.pmc[1], s.tsc, 10) ? PROBE_KEPT : 12;
}

static int exec_imode_kid(int rd, int wr, void *arg)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;

	(void)rd;
	(void)wr;
	(void)arg;
	signal(SIGUSR1, SIG_IGN);
	tsc_control(&c);
	model->imode(&c.cpu_control, IRESET_FAR);
	c.si_signo = SIGUSR1;
	c.flags = VPERFCTR_CONTROL_CLOEXEC;
	if (!vp || vperfctr_control(vp, &c))
		return kid_fail(20);
	spin(ms_ticks(1));
	execl("/proc/self/exe", "check_vperfctr", PROBE_NEW_ARG, (char *)NULL);
	return kid_fail(23);
}

START_TEST(sim_exec_new_set_replaces_cloexec_set)
{
	struct kid k;

	kid_start(&k, exec_imode_kid, NULL);
	ck_assert_int_eq(kid_reap(&k), PROBE_KEPT);
}

static int exec_kid(int rd, int wr, void *arg)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;

	(void)rd;
	(void)wr;
	if (!vp)
		return kid_fail(20);
	tsc_control(&c);
	c.flags = *(__u32 *)arg;
	if (vperfctr_control(vp, &c))
		return kid_fail(21);
	spin(ms_ticks(1));
	if (!cstatus_of(state_of(vp)))
		return kid_fail(22);
	execl("/proc/self/exe", "check_vperfctr", PROBE_ARG, (char *)NULL);
	return kid_fail(23);
}

START_TEST(exec_cloexec_removes_counters)
{
	__u32 flags = VPERFCTR_CONTROL_CLOEXEC;
	struct kid k;

	kid_start(&k, exec_kid, &flags);
	ck_assert_int_eq(kid_reap(&k), PROBE_GONE);
}

START_TEST(exec_keeps_counters_without_cloexec)
{
	__u32 flags = 0;
	struct kid k;

	kid_start(&k, exec_kid, &flags);
	ck_assert_int_eq(kid_reap(&k), PROBE_KEPT);
}

void vp_lifetime_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "lifetime", NULL, NULL);

	tcase_add_test(tc, exit_thread_with_live_counters);
	tcase_add_test(tc, exit_process_with_live_counters);
	tcase_add_test(tc, rapid_threads);
	tcase_add_test(tc, rapid_processes);
	tcase_add_test(tc, rapid_control_unlink);
	tcase_add_test(tc, exec_cloexec_removes_counters);
	tcase_add_test(tc, exec_keeps_counters_without_cloexec);
	if (model)
		tcase_add_test(tc, sim_exec_new_set_replaces_cloexec_set);
}
