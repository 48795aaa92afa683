// SPDX-License-Identifier: GPL-2.0-only
/*
 * The security suite's "watches" case: a user keeps at most
 * perfctr.files_per_user files of /proc/perfctr/<tid>/ open, since each
 * keeps its thread (for the final counts) after its exit; one more gives
 * EMFILE, closing one frees its place, each file counts against its
 * opener, and CAP_SYS_RESOURCE is exempt (virtual.rst, "Final counts").
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include "security.h"

enum { NTHREADS = 3 };

/* Threads that tell their tid, then wait for the pipe to close. */
struct parked {
	int tell[2], hold[2];
	pthread_t th[NTHREADS];
	pid_t tid[NTHREADS];
};

static void *park(void *arg)
{
	struct parked *p = arg;
	pid_t tid = gettid();
	char c;

	if (write(p->tell[1], &tid, sizeof(tid)) != sizeof(tid))
		return NULL;
	while (read(p->hold[0], &c, 1) > 0)
		;
	return NULL;
}

static int park_start(struct parked *p)
{
	unsigned int i;

	if (pipe(p->tell) || pipe(p->hold))
		return -1;
	for (i = 0; i < NTHREADS; i++)
		if (pthread_create(&p->th[i], NULL, park, p) ||
		    read(p->tell[0], &p->tid[i], sizeof(pid_t)) != sizeof(pid_t))
			return -1;
	return 0;
}

static void park_stop(struct parked *p)
{
	unsigned int i;

	close(p->hold[1]);
	for (i = 0; i < NTHREADS; i++)
		pthread_join(p->th[i], NULL);
	close(p->hold[0]);
	close(p->tell[0]);
	close(p->tell[1]);
}

/* As nobody, with the limit at 2: the third file is one too many. */
static int limited_kid(int rd, int wr, void *arg)
{
	struct parked p;
	int a, a2, b;

	(void)rd;
	(void)wr;
	(void)arg;
	if (become_nobody() || park_start(&p))
		return kid_fail(1);
	a = pfs_open(p.tid[0], "sums", O_RDONLY);
	a2 = pfs_open(p.tid[0], "status", O_RDONLY);	/* counts too */
	if (a < 0 || a2 < 0)
		return kid_fail(2);
	errno = 0;
	b = pfs_open(p.tid[1], "sums", O_RDONLY);
	if (b >= 0 || errno != EMFILE)
		return kid_fail(3);
	errno = 0;
	b = pfs_open(p.tid[0], "control", O_RDONLY);
	if (b >= 0 || errno != EMFILE)
		return kid_fail(4);
	close(a);		/* a place is free */
	b = pfs_open(p.tid[1], "sums", O_RDONLY);
	if (b < 0)
		return kid_fail(5);
	close(a2);
	close(b);
	park_stop(&p);
	return 0;
}

START_TEST(watches_limited_per_user)
{
	ck_assert_int_eq(param_put("files_per_user", "2"), 0);
	kid_run(limited_kid, NULL);
}

/* Root has CAP_SYS_RESOURCE: the limit does not apply. */
START_TEST(watches_limit_spares_cap_sys_resource)
{
	struct parked p;
	unsigned int i;
	int fd[NTHREADS];

	ck_assert_int_eq(param_put("files_per_user", "2"), 0);
	ck_assert_int_eq(park_start(&p), 0);
	for (i = 0; i < NTHREADS; i++) {
		fd[i] = pfs_open(p.tid[i], "sums", O_RDONLY);
		ck_assert_msg(fd[i] >= 0, "thread %u: %s", i, strerror(errno));
	}
	for (i = 0; i < NTHREADS; i++)
		close(fd[i]);
	park_stop(&p);
}

/* The default lets a user keep many files open. */
START_TEST(watches_default_limit)
{
	ck_assert_int_eq(param_get("files_per_user"), 4096);
}

static void watch_defaults(void)
{
	defaults();
	param_put("files_per_user", "4096");
}

void sec_watches_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "watches", NULL, watch_defaults);

	tcase_add_test(tc, watches_default_limit);
	tcase_add_test(tc, watches_limited_per_user);
	tcase_add_test(tc, watches_limit_spares_cap_sys_resource);
}
