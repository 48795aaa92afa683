// SPDX-License-Identifier: GPL-2.0-only
/*
 * The security suite's "tsc" case: a thread that forbade itself RDTSC
 * (prctl(PR_SET_TSC, PR_TSC_SIGSEGV), x86) gets no TSC from perfctr
 * (security.rst, "The TSC and PR_SET_TSC"): a control counting it is
 * refused with EPERM and the old control stays, whoever writes it.
 * After the prctl the children must not execute RDTSC themselves: they
 * use the files, not the state page nor the helpers that spin.
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

#include "security.h"

#define SELF_CONTROL	PERFCTR_ROOT "/self/control"
#define SELF_SUMS	PERFCTR_ROOT "/self/sums"

/* A control that differs from tsc_control() only in what it keeps. */
static void tsc_preserving(struct vperfctr_control *c)
{
	tsc_control(c);
	c->preserve = VPERFCTR_PRESERVE_TSC;
}

/* Busy for a while without RDTSC. */
static void work(void)
{
	unsigned long i;

	for (i = 0; i < 20000000; i++)
		asm volatile("" : : : "memory");
}

/*
 * A TSC-only control of its own first; then, with @notsc, the prctl;
 * then a second TSC control: 0 or the errno, and the control read back
 * must be the one in force.
 */
static int tsc_kid(int rd, int wr, void *arg)
{
	int notsc = *(int *)arg;
	struct vperfctr_control old, c, got;
	int fd, err = 0;

	(void)rd;
	(void)wr;
	fd = open(SELF_CONTROL, O_RDWR);
	tsc_control(&old);
	if (fd < 0 || put_control(fd, &old) != CTL_SIZE)
		return kid_fail(1);
	if (notsc && prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0))
		return kid_fail(2);
	tsc_preserving(&c);
	if (put_control(fd, &c) != CTL_SIZE)
		err = errno;
	if (err != (notsc ? EPERM : 0))
		return kid_fail(3);
	if (pread(fd, &got, sizeof(got), 0) != CTL_SIZE ||
	    memcmp(&got, err ? &old : &c, sizeof(got)))
		return kid_fail(4);
	/* Allowed again with the TSC: the flag is judged at each write. */
	if (notsc && (prctl(PR_SET_TSC, PR_TSC_ENABLE, 0, 0, 0) ||
		      put_control(fd, &c) != CTL_SIZE))
		return kid_fail(5);
	close(fd);
	return 0;
}

START_TEST(tsc_control_accepted)
{
	kid_run_int(tsc_kid, 0);
}

START_TEST(notsc_tsc_control_refused)
{
	kid_run_int(tsc_kid, 1);
}

/* The tracee forbade itself RDTSC: its root tracer gets EPERM too. */
static int notsc_tracee(int rd, int wr, void *arg)
{
	struct vperfctr_control c;
	int fd = open(SELF_CONTROL, O_RDWR);

	(void)wr;
	(void)arg;
	tsc_control(&c);
	if (fd < 0 || put_control(fd, &c) != CTL_SIZE)
		return kid_fail(10);
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0) ||
	    ptrace(PTRACE_TRACEME, 0, 0, 0))
		return kid_fail(11);
	raise(SIGSTOP);
	kid_wait_go(rd);
	return 0;
}

START_TEST(notsc_tracer_control_refused)
{
	struct vperfctr_control c, got;
	struct kid k;
	int st, fd;

	kid_start(&k, notsc_tracee, NULL);
	ck_assert_int_eq(waitpid(k.pid, &st, 0), k.pid);
	ck_assert(WIFSTOPPED(st));
	fd = pfs_open(k.pid, "control", O_RDWR);
	ck_assert_int_ge(fd, 0);
	tsc_preserving(&c);
	ck_assert_int_eq(put_control(fd, &c), -1);
	ck_assert_int_eq(errno, EPERM);
	get_control(fd, &got);
	tsc_control(&c);
	ck_assert_mem_eq(&got, &c, sizeof(c));
	close(fd);
	kill(k.pid, SIGKILL);
	kid_reap(&k);
}

/* Counters without the TSC still count; the TSC sum stays 0. */
static int notsc_counters_kid(int rd, int wr, void *arg)
{
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c;
	int fd, sums;

	(void)rd;
	(void)wr;
	(void)arg;
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0))
		return kid_fail(20);
	fd = open(SELF_CONTROL, O_RDWR);
	sums = open(SELF_SUMS, O_RDONLY);
	memset(&c, 0, sizeof(c));
	model->amode(&c.cpu_control);
	if (fd < 0 || sums < 0 || put_control(fd, &c) != CTL_SIZE)
		return kid_fail(21);
	work();
	if (pread(sums, &s, sizeof(s), 0) != SUMS_SIZE)
		return kid_fail(22);
	return s.tsc || !s.pmc[0] ? kid_fail(23) : 0;
}

START_TEST(notsc_counters_accepted)
{
	kid_run(notsc_counters_kid, NULL);
}

/* This thread's status line, without its newline, or "" on error. */
static void read_status(char *buf, size_t n)
{
	int fd = open(PERFCTR_ROOT "/self/status", O_RDONLY);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, n - 1);

	if (fd >= 0)
		close(fd);
	buf[len > 0 ? len - 1 : 0] = '\0';
}

/*
 * The TSC was on before the prctl: from the next switch-in the set
 * stands still ("stopped: notsc"), its TSC sum frozen, until the thread
 * allows RDTSC again. A sleep makes the switch.
 */
/* prctl(PR_SET_TSC, @mode), a switch (a sleep): is the status @want? */
static int tsc_mode_gives(int mode, const char *want)
{
	char st[80];

	if (prctl(PR_SET_TSC, mode, 0, 0, 0))
		return 0;
	usleep(1000);
	read_status(st, sizeof(st));
	return !strcmp(st, want);
}

static int late_notsc_kid(int rd, int wr, void *arg)
{
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c;
	int fd, sums;

	(void)rd;
	(void)wr;
	(void)arg;
	fd = open(SELF_CONTROL, O_RDWR);
	sums = open(SELF_SUMS, O_RDONLY);
	tsc_control(&c);
	if (fd < 0 || sums < 0 || put_control(fd, &c) != CTL_SIZE)
		return kid_fail(30);
	if (!tsc_mode_gives(PR_TSC_SIGSEGV, "stopped: notsc"))
		return kid_fail(31);
	if (pread(sums, &a, sizeof(a), 0) != SUMS_SIZE)
		return kid_fail(32);
	work();
	usleep(1000);
	if (pread(sums, &b, sizeof(b), 0) != SUMS_SIZE || b.tsc != a.tsc)
		return kid_fail(33);
	if (!tsc_mode_gives(PR_TSC_ENABLE, "running"))
		return kid_fail(34);
	work();
	if (pread(sums, &b, sizeof(b), 0) != SUMS_SIZE || b.tsc <= a.tsc)
		return kid_fail(35);
	return 0;
}

START_TEST(late_notsc_stops_the_set)
{
	kid_run(late_notsc_kid, NULL);
}

/* ppc32 has no such prctl (EINVAL): its timebase is always readable. */
void sec_tsc_tcase(Suite *s)
{
	TCase *tc;
	int mode;

	if (prctl(PR_GET_TSC, &mode, 0, 0, 0))
		return;
	tc = add_tcase(s, "tsc", NULL, defaults);
	tcase_add_test(tc, tsc_control_accepted);
	tcase_add_test(tc, notsc_tsc_control_refused);
	tcase_add_test(tc, notsc_tracer_control_refused);
	tcase_add_test(tc, late_notsc_stops_the_set);
	if (model)
		tcase_add_test(tc, notsc_counters_accepted);
}

