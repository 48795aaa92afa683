// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "files" case: /proc/perfctr/self and <tid>, and
 * the control and sums files read back.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "vperfctr.h"

/* --- the perfctr file system --- */

static int self_link_ok(void)
{
	char buf[32], want[32];
	ssize_t n = readlink(PERFCTR_ROOT "/self", buf, sizeof(buf) - 1);

	if (n < 0)
		return 0;
	buf[n] = 0;
	snprintf(want, sizeof(want), "%d", (int)gettid());
	return !strcmp(buf, want);
}

static void *self_link_thread(void *arg)
{
	*(int *)arg = self_link_ok();
	return NULL;
}

/* "self" names the calling thread, not its process. */
START_TEST(self_names_calling_thread)
{
	pthread_t t;
	int ok = 0;

	ck_assert(self_link_ok());
	ck_assert_int_eq(pthread_create(&t, NULL, self_link_thread, &ok), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(ok, 1);
}

START_TEST(no_such_thread)
{
	/* pid_max is at most 4M: this tid cannot exist. */
	errno = 0;
	ck_assert_int_eq(pfs_open(0x7ffffff0, "sums", O_RDONLY), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_ge(pfs_open(gettid(), "sums", O_RDONLY), 0);
}

/* --- control and sums: reading back --- */

START_TEST(control_reads_back)
{
	struct vperfctr_control c, got;
	struct perfctr_sum_ctrs s;
	struct files f;

	files_open(&f, gettid());
	get_control(f.ctl, &got);
	ck_assert(is_zero(&got, sizeof(got)));
	get_sums(f.sums, &s);
	ck_assert(is_zero(&s, sizeof(s)));

	full_control(&c);
	c.si_signo = SIGUSR2;
	c.preserve = VPERFCTR_PRESERVE_TSC;
	c.flags = VPERFCTR_CONTROL_CLOEXEC;
	set_control(f.ctl, &c);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
	spin(ms_ticks(1));
	get_sums(f.sums, &s);
	ck_assert_uint_gt(s.tsc, 0);
}

#define ROOM	16	/* what a larger read offers beyond the record */

/*
 * With the TSC control @c running, reads of the file @name: one byte
 * short of @least is refused (EINVAL); @size bytes and more read @size,
 * into @exact and (@size + ROOM bytes, 0xff first) @over.
 */
static void read_sizes(const char *name, struct vperfctr_control *c,
		       size_t least, size_t size, void *exact, void *over)
{
	struct files f;
	int fd;

	files_open(&f, gettid());
	tsc_control(c);
	set_control(f.ctl, c);
	fd = pfs_open(gettid(), name, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	errno = 0;
	ck_assert_int_eq(pread(fd, exact, least - 1, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(pread(fd, exact, size, 0), size);
	memset(over, 0xff, size + ROOM);
	ck_assert_int_eq(pread(fd, over, size + ROOM, 0), size);
}

START_TEST(control_read_size)
{
	char exact[CTL_SIZE], over[CTL_SIZE + ROOM];
	struct vperfctr_control c;

	read_sizes("control", &c, VPERFCTR_CONTROL_SIZE_1_0, CTL_SIZE, exact, over);
	ck_assert_mem_eq(exact, &c, CTL_SIZE);
	ck_assert_mem_eq(over, &c, CTL_SIZE);
	/* Short of 1.1's size but not of 1.0's: 1.0's record (virtual.rst). */
	if (CTL_SIZE > VPERFCTR_CONTROL_SIZE_1_0) {
		int fd = pfs_open(gettid(), "control", O_RDONLY);

		ck_assert_int_eq(pread(fd, exact, CTL_SIZE - 1, 0),
				 VPERFCTR_CONTROL_SIZE_1_0);
		close(fd);
	}
}

START_TEST(sums_read_size)
{
	char exact[SUMS_SIZE], over[SUMS_SIZE + ROOM];
	struct vperfctr_control c;

	read_sizes("sums", &c, SUMS_SIZE, SUMS_SIZE, exact, over);
	ck_assert_uint_gt(((struct perfctr_sum_ctrs *)over)->tsc, 0);
}

void vp_files_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "files", NULL, NULL);

	tcase_add_test(tc, self_names_calling_thread);
	tcase_add_test(tc, no_such_thread);
	tcase_add_test(tc, control_reads_back);
	tcase_add_test(tc, control_read_size);
	tcase_add_test(tc, sums_read_size);
}
