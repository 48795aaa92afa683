// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_perfmon: an open file's counters are its opener's virtual set,
 * shared with /proc/perfctr/<tid>/ (readable there, changed only through
 * the file), under the same hardware reservation as every set; other
 * threads may read them; they go with the file, and with the thread.
 */
#define _GNU_SOURCE	/* gettid() */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "perfmon.h"

static int pm_started(int num)
{
	int fd = pm_open();

	ck_assert_int_eq(pm_setup(fd, num, pm_word()), 0);
	ck_assert_int_eq(pm_num(fd, PMIOSTART, num), 0);
	return fd;
}

static void status_is(pid_t tid, const char *want)
{
	char buf[64] = "";
	int fd = pfs_open(tid, "status", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_gt(read(fd, buf, sizeof(buf) - 1), 0);
	close(fd);
	ck_assert_str_eq(buf, want);
}

/* The /proc files read the set: in step with PMIOREAD; never change it. */
START_TEST(test_proc_reads_not_writes)
{
	struct vperfctr_control c;
	struct perfctr_sum_ctrs s1, s2;
	struct files f;
	long long v;
	int fd;

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	fd = pm_started(0);
	files_open(&f, gettid());
	pm_work(100000);
	get_sums(f.sums, &s1);
	v = pm_read(fd, 0);
	get_sums(f.sums, &s2);
	ck_assert_uint_le(s1.pmc[0], (unsigned long long)v);
	ck_assert_uint_le((unsigned long long)v, s2.pmc[0]);
	ck_assert_uint_gt(s1.pmc[0], 0);
	tsc_control(&c);
	ck_assert_int_eq(put_control(f.ctl, &c), -1);
	ck_assert_int_eq(errno, EBUSY);
	ck_assert_int_eq(put_command(f.cmd, VPERFCTR_CMD_SUSPEND), -1);
	ck_assert_int_eq(errno, EBUSY);
	ck_assert_int_eq(put_command(f.cmd, VPERFCTR_CMD_UNLINK), -1);
	ck_assert_int_eq(errno, EBUSY);
	status_is(gettid(), "running\n");
	ck_assert_int_gt(pm_read(fd, 0), v);
	close(fd);
}

/* A thread with counters of its own (/proc, or another open): EBUSY. */
START_TEST(test_thread_has_set)
{
	struct vperfctr_control c;
	struct files f;
	int fd, fd2;

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	files_open(&f, gettid());
	tsc_control(&c);
	set_control(f.ctl, &c);
	fd = pm_open();
	ck_assert_int_eq(pm_setup(fd, 0, pm_word()), 0);
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 0), EBUSY);
	ck_assert_int_eq(pm_read(fd, 0), 0);
	do_command(f.cmd, VPERFCTR_CMD_UNLINK);
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 0), 0);
	fd2 = pm_open();
	ck_assert_int_eq(pm_setup(fd2, 1, pm_word()), 0);
	ck_assert_int_eq(pm_num(fd2, PMIOSTART, 1), EBUSY);
	close(fd);
	ck_assert_int_eq(pm_num(fd2, PMIOSTART, 1), 0);
	close(fd2);
}

/* Global mode holds the counters: PMIOSTART gets EBUSY, nothing changes. */
START_TEST(test_global_holds)
{
	int g, fd, err;

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	fd = pm_open();
	ck_assert_int_eq(pm_setup(fd, 0, pm_word()), 0);
	g = global_take();
	err = pm_num(fd, PMIOSTART, 0);
	global_give(g);
	ck_assert_int_eq(err, EBUSY);
	ck_assert_int_eq(pm_read(fd, 0), 0);
	ck_assert_int_eq(pm_num(fd, PMIOSTOP, 0), EBUSY);	/* not started */
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 0), 0);
	close(fd);
}

/* info's holder, once the sets of earlier tests' exited threads are gone. */
static int holder_is(const char *want)
{
	int tries;

	for (tries = 0; tries < 100; tries++) {
		if (!strncmp(info_field("reserved_by"), want, strlen(want)))
			return 1;
		usleep(10000);
	}
	return 0;
}

/* Closing the file takes the set away, and the hardware with it. */
START_TEST(test_close_releases)
{
	int fd;

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	fd = pm_started(0);
	status_is(gettid(), "running\n");
	ck_assert(holder_is("virtual counters"));
	close(fd);
	status_is(gettid(), "none\n");
	ck_assert(holder_is("none"));
}

struct other {
	int fd;
	int read_err, start_err, setup_err, stop_err, reset_err;
	long long value;
};

static void *other_thread(void *arg)
{
	struct other *o = arg;
	struct pmc_data d = { .pmcd_num = 0 };

	o->read_err = pm_ioctl(o->fd, PMIOREAD, &d);
	o->value = d.pmcd_value;
	o->start_err = pm_num(o->fd, PMIOSTART, 1);
	o->stop_err = pm_num(o->fd, PMIOSTOP, 0);
	o->reset_err = pm_num(o->fd, PMIORESET, 0);
	o->setup_err = pm_setup(o->fd, 1, pm_word());
	return NULL;
}

/* Another thread reads the opener's counters, and changes nothing. */
START_TEST(test_other_thread)
{
	struct other o = { 0 };
	pthread_t t;

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	o.fd = pm_started(0);
	/* Another thread sees the sums of the last sample: 50 ms apart. */
	spin(ms_ticks(120));
	ck_assert_int_eq(pthread_create(&t, NULL, other_thread, &o), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(o.read_err, 0);
	ck_assert_int_gt(o.value, 0);
	ck_assert_int_eq(o.start_err, EPERM);
	ck_assert_int_eq(o.stop_err, EPERM);
	ck_assert_int_eq(o.reset_err, EPERM);
	ck_assert_int_eq(o.setup_err, EPERM);
	ck_assert_int_ge(pm_read(o.fd, 0), o.value);
	ck_assert_int_eq(pm_num(o.fd, PMIOSTOP, 0), 0);
	close(o.fd);
}

static void *opener_thread(void *arg)
{
	*(int *)arg = pm_started(0);
	pm_work(100000);
	return NULL;
}

/* The opener exits: ESRCH for its counters; the TSC still reads. */
START_TEST(test_opener_exits)
{
	struct pmc_data d = { .pmcd_num = 0 };
	struct pmc_tstamp ts;
	pthread_t t;
	int fd = -1;

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	ck_assert_int_eq(pthread_create(&t, NULL, opener_thread, &fd), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_ge(fd, 0);
	/* pthread_join() can return before the kernel is done with it. */
	while (pm_ioctl(fd, PMIOREAD, &d) == 0)
		usleep(1000);
	ck_assert_int_eq(pm_ioctl(fd, PMIOREAD, &d), ESRCH);
	ck_assert_int_eq(pm_num(fd, PMIOSTOP, 0), ESRCH);
	ck_assert_int_eq(pm_ioctl(fd, PMIOTSTAMP, &ts), 0);
	close(fd);
}

void pm_share_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "share", NULL, NULL);

	tcase_add_test(tc, test_proc_reads_not_writes);
	tcase_add_test(tc, test_thread_has_set);
	tcase_add_test(tc, test_global_holds);
	tcase_add_test(tc, test_close_releases);
	tcase_add_test(tc, test_other_thread);
	tcase_add_test(tc, test_opener_exits);
}
