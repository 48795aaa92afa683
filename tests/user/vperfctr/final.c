// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "final" case: a descriptor opened on a thread's
 * files while it lived reads, after its exit, the final control, sums,
 * inherited total and status; also in another process, passed over a
 * Unix socket; unless the thread changed credentials since the open
 * (virtual.rst, "Final counts").
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "vperfctr.h"

/* A thread's files, as a parent keeps them to read the final counts. */
enum { F_CTL, F_SUMS, F_STATUS, F_CHILDREN, F_CMD, F_N };

static const char *const names[F_N] = {
	"control", "sums", "status", "children", "command",
};

static int open_all(pid_t tid, int fd[F_N])
{
	unsigned int i;

	for (i = 0; i < F_N; i++) {
		fd[i] = pfs_open(tid, names[i], i == F_CTL ? O_RDWR :
				 i == F_CMD ? O_WRONLY : O_RDONLY);
		if (fd[i] < 0)
			return -1;
	}
	return 0;
}

static void read_status(int fd, char buf[32])
{
	ssize_t n = pread(fd, buf, 31, 0);

	ck_assert_msg(n > 0, "status: %s", strerror(errno));
	buf[n] = 0;
}

/* Writes fail: nothing changes a thread that is gone. */
static void assert_writes_refused(const int fd[F_N])
{
	struct vperfctr_control c;

	tsc_control(&c);
	errno = 0;
	ck_assert_int_eq(put_control(fd[F_CTL], &c), -1);
	ck_assert_int_eq(errno, ESRCH);
	errno = 0;
	ck_assert_int_eq(put_command(fd[F_CMD], VPERFCTR_CMD_CLEAR), -1);
	ck_assert_int_eq(errno, ESRCH);
}

/* --- a process, its descriptors passed to its parent --- */

/* What the kid does after it passed its descriptors, before it exits. */
enum { AFTER_NOTHING, AFTER_SETUID, AFTER_NODUMP };

struct final_report {
	struct report r;
	int after;
};

static int working_kid(int rd, int wr, void *arg)
{
	(void)rd;
	(void)wr;
	(void)arg;
	spin(ms_ticks(5));
	return 0;
}

/*
 * Opens its files, counts with an inheriting control, has a child that
 * works, stops its own counters (its sums are then final), and sends the
 * descriptors and what it saw; exits when released.
 */
static int passing_kid(int rd, int wr, void *arg)
{
	struct final_report rep = { .after = *(int *)arg };
	int sock = *((int *)arg + 1), fd[F_N];
	struct kid child;

	(void)wr;
	if (open_all(getpid(), fd))
		return kid_fail(40);
	full_control(&rep.r.ctl);
	rep.r.ctl.flags = VPERFCTR_CONTROL_INHERIT;
	if (put_control(fd[F_CTL], &rep.r.ctl) != CTL_SIZE)
		return kid_fail(41);
	if (kid_spawn(&child, working_kid, NULL))
		return kid_fail(42);
	if (kid_reap(&child))
		return kid_fail(43);
	spin(ms_ticks(5));
	if (put_command(fd[F_CMD], VPERFCTR_CMD_SUSPEND) != 4 ||
	    pread(fd[F_SUMS], &rep.r.sums, SUMS_SIZE, 0) != SUMS_SIZE)
		return kid_fail(44);
	if (fds_send(sock, fd, F_N, &rep, sizeof(rep)))
		return kid_fail(45);
	kid_wait_go(rd);
	if (rep.after == AFTER_SETUID && setresuid(NOBODY, NOBODY, NOBODY))
		return kid_fail(46);
	if (rep.after == AFTER_NODUMP && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return kid_fail(47);
	return 0;
}

static void run_passing_kid(int after, int fd[F_N], struct final_report *rep)
{
	int sv[2], arg[2] = { after };
	struct kid k;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	arg[1] = sv[1];
	kid_start(&k, passing_kid, arg);
	close(sv[1]);
	ck_assert_int_eq(fds_recv(sv[0], fd, F_N, rep, sizeof(*rep)), 0);
	kid_done(&k);			/* exited and reaped */
}

START_TEST(final_counts_over_unix_socket)
{
	struct vperfctr_children ch;
	struct final_report rep;
	struct vperfctr_control got;
	struct perfctr_sum_ctrs s;
	char buf[32];
	int fd[F_N];

	run_passing_kid(AFTER_NOTHING, fd, &rep);
	get_control(fd[F_CTL], &got);
	ck_assert_mem_eq(&got, &rep.r.ctl, CTL_SIZE);
	get_sums(fd[F_SUMS], &s);
	ck_assert_mem_eq(&s, &rep.r.sums, SUMS_SIZE);
	read_status(fd[F_STATUS], buf);
	ck_assert_str_eq(buf, "exited\n");
	/* Its child, counting_kid, was a member: in the total. */
	ck_assert_int_eq(pread(fd[F_CHILDREN], &ch, sizeof(ch), 0), sizeof(ch));
	ck_assert_uint_eq(ch.exited, 1);
	ck_assert_uint_eq(ch.live, 0);
	ck_assert_uint_gt(ch.sums.tsc, 0);
	assert_writes_refused(fd);
}

/*
 * ids changed, or the kid made itself not dumpable, after the open: the
 * open's check no longer holds.
 */
static const int refusing[] = { AFTER_SETUID, AFTER_NODUMP };

START_TEST(final_counts_refused_after_setuid_or_nodump)
{
	struct final_report rep;
	struct perfctr_sum_ctrs s;
	char buf[32];
	int fd[F_N];

	run_passing_kid(refusing[_i], fd, &rep);
	errno = 0;
	ck_assert_int_eq(pread(fd[F_SUMS], &s, sizeof(s), 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	errno = 0;
	ck_assert_int_eq(pread(fd[F_STATUS], buf, sizeof(buf), 0), -1);
	ck_assert_int_eq(errno, ESRCH);
}

/* --- threads: a join, then the final counts --- */

struct final_thread {
	int fd[F_N];
	int unlink;			/* drops its set before it exits */
	struct report r;
	int err;
};

static void *final_thread_fn(void *arg)
{
	struct final_thread *t = arg;

	if (open_all(gettid(), t->fd)) {
		t->err = 1;
		return NULL;
	}
	full_control(&t->r.ctl);
	if (put_control(t->fd[F_CTL], &t->r.ctl) != CTL_SIZE)
		t->err = 2;
	spin(ms_ticks(5));
	if (t->unlink && put_command(t->fd[F_CMD], VPERFCTR_CMD_UNLINK) != 4)
		t->err = 3;
	return NULL;
}

static void run_final_thread(struct final_thread *t)
{
	pthread_t th;

	ck_assert_int_eq(pthread_create(&th, NULL, final_thread_fn, t), 0);
	ck_assert_int_eq(pthread_join(th, NULL), 0);
	ck_assert_int_eq(t->err, 0);
}

/* Right after the join the thread may still be exiting: reads wait. */
START_TEST(final_counts_after_join)
{
	struct final_thread t = { 0 };
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control got;
	char buf[32];

	run_final_thread(&t);
	get_sums(t.fd[F_SUMS], &a);
	/* Not the spin's 5 ms: the thread may have waited for a CPU in it. */
	ck_assert_uint_gt(a.tsc, 0);
	read_status(t.fd[F_STATUS], buf);
	ck_assert_str_eq(buf, "exited\n");
	get_control(t.fd[F_CTL], &got);
	ck_assert_mem_eq(&got, &t.r.ctl, CTL_SIZE);
	usleep(20000);
	get_sums(t.fd[F_SUMS], &b);
	ck_assert_mem_eq(&a, &b, SUMS_SIZE);	/* final: it counts no more */
	assert_writes_refused(t.fd);
}

/* A thread that dropped its set exits with none: zeroes and "none". */
START_TEST(final_counts_none_after_unlink)
{
	struct final_thread t = { .unlink = 1 };
	struct vperfctr_control got;
	struct perfctr_sum_ctrs s;
	char buf[32];

	run_final_thread(&t);
	get_sums(t.fd[F_SUMS], &s);
	ck_assert(is_zero(&s, sizeof(s)));
	get_control(t.fd[F_CTL], &got);
	ck_assert(is_zero(&got, sizeof(got)));
	read_status(t.fd[F_STATUS], buf);
	ck_assert_str_eq(buf, "none\n");
}

void vp_final_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "final", NULL, NULL);

	tcase_add_test(tc, final_counts_over_unix_socket);
	tcase_add_loop_test(tc, final_counts_refused_after_setuid_or_nodump, 0,
			    ARRAY_SIZE(refusing));
	tcase_add_test(tc, final_counts_after_join);
	tcase_add_test(tc, final_counts_none_after_unlink);
}
