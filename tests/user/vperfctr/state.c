// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "state" case: the state page, the fast reads
 * from it, and the mappings of it that are refused.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "vperfctr.h"

/* --- the state page and the fast read path --- */

START_TEST(state_page_shows_cstatus)
{
	const struct vperfctr_state *st = map_state();
	struct vperfctr_control c;
	struct files f;

	files_open(&f, gettid());
	ck_assert_uint_eq(PAGE_LOAD(st->magic), VPERFCTR_STATE_MAGIC);
	ck_assert_uint_eq(cstatus_of(st), 0);
	ck_assert_uint_eq(PAGE_LOAD(st->seq) & 1, 0);
	full_control(&c);
	set_control(f.ctl, &c);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	ck_assert_uint_eq(cstatus_of(st), 0);
	ck_assert_uint_eq(PAGE_LOAD(st->seq) & 1, 0);
	do_command(f.cmd, VPERFCTR_CMD_RESUME);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
}

START_TEST(mmap_equals_sums_when_stopped)
{
	struct perfctr_sum_ctrs m, r;
	struct full_set f;
	unsigned int i;

	full_set_open(&f);
	spin(ms_ticks(10));
	ck_assert_int_eq(vperfctr_suspend(f.vp), 0);
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(vperfctr_read_ctrs(f.vp, &m), 0);
	ck_assert_int_eq(vperfctr_read_sums(f.vp, &r), 0);
	ck_assert_uint_gt(r.tsc, 0);
	ck_assert_uint_eq(m.tsc, r.tsc);
	ck_assert_uint_eq(vperfctr_read_tsc(f.vp), r.tsc);
	ck_assert_uint_eq(cstatus_of(f.st), 0);
	ck_assert_uint_eq(PAGE_LOAD(f.st->seq) & 1, 0);
	ck_assert_uint_eq(PAGE_LOAD(f.st->cpu_state.tsc_sum), r.tsc);
	for (i = 0; i < f.n; i++) {
		ck_assert_uint_gt(r.pmc[i], 0);
		ck_assert_uint_eq(m.pmc[i], r.pmc[i]);
		ck_assert_uint_eq(vperfctr_read_pmc(f.vp, i), r.pmc[i]);
		ck_assert_uint_eq(PAGE_LOAD(f.st->cpu_state.pmc[i].sum), r.pmc[i]);
	}
}

/* Running, fast reads and file reads interleave in order, close together. */
static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static unsigned long long median(unsigned long long *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_ull);
	return v[n / 2];
}

/*
 * Fast reads and file reads interleave in order, and a fast read is as
 * fresh as a system call: a read_sums() between two fast reads takes a
 * fraction of a millisecond (typically; the median allows for stalls).
 */
START_TEST(mmap_close_to_sums_when_running)
{
	unsigned long long prev = 0, a, b, gap[500];
	struct perfctr_sum_ctrs m1, s, m2;
	struct vperfctr_control c;
	struct vperfctr *vp;
	unsigned int i, j, n;

	vp = lib_open_full(&c, &n);
	for (i = 0; i < ARRAY_SIZE(gap); i++) {
		a = vperfctr_read_tsc(vp);
		ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
		b = vperfctr_read_tsc(vp);
		ck_assert_uint_ge(a, prev);
		ck_assert_uint_ge(s.tsc, a);
		ck_assert_uint_ge(b, s.tsc);
		gap[i] = b - a;
		prev = b;
	}
	ck_assert_uint_lt(median(gap, ARRAY_SIZE(gap)), ms_ticks(1));
	for (j = 0; j < n; j++) {
		for (i = 0; i < 100; i++) {
			ck_assert_int_eq(vperfctr_read_ctrs(vp, &m1), 0);
			ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
			ck_assert_int_eq(vperfctr_read_ctrs(vp, &m2), 0);
			ck_assert_uint_le(m1.pmc[j], s.pmc[j]);
			ck_assert_uint_le(s.pmc[j], m2.pmc[j]);
			gap[i] = m2.pmc[j] - m1.pmc[j];
		}
		ck_assert_uint_lt(median(gap, 100), ms_ticks(1));
	}
}

START_TEST(state_mmap_write_refused)
{
	size_t pg = page_size();
	int fd = pfs_open(gettid(), "state", O_RDONLY), fdw;
	void *p, *q;

	ck_assert_int_ge(fd, 0);
	p = mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_uint_eq(((struct vperfctr_state *)p)->magic, VPERFCTR_STATE_MAGIC);
	/* Made writable later: refused too. */
	errno = 0;
	ck_assert_int_eq(mprotect(p, pg, PROT_READ | PROT_WRITE), -1);
	ck_assert_int_eq(errno, EACCES);
	/* A private writable mapping would be the page's until written. */
	errno = 0;
	q = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	ck_assert_ptr_eq(q, MAP_FAILED);
	ck_assert_int_eq(errno, EPERM);
	/* Root may open the 0400 file for writing; mapping it shared is still refused. */
	fdw = pfs_open(gettid(), "state", O_RDWR);
	if (fdw >= 0) {
		errno = 0;
		q = mmap(NULL, pg, PROT_READ | PROT_WRITE, MAP_SHARED, fdw, 0);
		ck_assert_ptr_eq(q, MAP_FAILED);
		ck_assert_int_eq(errno, EPERM);
		q = mmap(NULL, pg, PROT_READ, MAP_SHARED, fdw, 0);
		ck_assert_ptr_ne(q, MAP_FAILED);
		errno = 0;
		ck_assert_int_eq(mprotect(q, pg, PROT_READ | PROT_WRITE), -1);
		ck_assert_int_eq(errno, EACCES);
	}
}

START_TEST(state_mmap_offset_refused)
{
	size_t pg = page_size();
	int fd = pfs_open(gettid(), "state", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	errno = 0;
	ck_assert_ptr_eq(mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, pg), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_ne(mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0), MAP_FAILED);
}

START_TEST(state_mmap_length_refused)
{
	size_t pg = page_size();
	int fd = pfs_open(gettid(), "state", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	errno = 0;
	ck_assert_ptr_eq(mmap(NULL, 2 * pg, PROT_READ, MAP_SHARED, fd, 0), MAP_FAILED);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_ne(mmap(NULL, pg, PROT_READ, MAP_SHARED, fd, 0), MAP_FAILED);
	ck_assert_ptr_ne(mmap(NULL, 64, PROT_READ, MAP_SHARED, fd, 0), MAP_FAILED);
}

struct other_map {
	pid_t owner;
	int open_errno, map_errno, own_ok;
};

static void *other_map_thread(void *arg)
{
	struct other_map *o = arg;
	int fd = pfs_open(o->owner, "state", O_RDONLY);
	void *p;

	if (fd < 0) {
		o->open_errno = errno;
		return NULL;
	}
	errno = 0;
	p = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	o->map_errno = p == MAP_FAILED ? errno : 0;
	close(fd);
	/* The same request for its own page succeeds. */
	fd = pfs_open(gettid(), "state", O_RDONLY);
	p = fd < 0 ? MAP_FAILED : mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	o->own_ok = p != MAP_FAILED;
	return NULL;
}

START_TEST(state_mmap_other_thread_refused)
{
	struct other_map o = { .owner = gettid() };
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, other_map_thread, &o), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(o.open_errno, 0);
	ck_assert_int_eq(o.map_errno, EPERM);
	ck_assert_int_eq(o.own_ok, 1);
}

static int other_map_kid(int rd, int wr, void *arg)
{
	struct other_map *o = arg;

	(void)rd;
	(void)wr;
	other_map_thread(o);
	if (o->open_errno)
		return kid_fail(30);
	if (o->map_errno != EPERM)
		return kid_fail(31);
	return o->own_ok ? 0 : 32;
}

START_TEST(state_mmap_other_process_refused)
{
	struct other_map o = { .owner = gettid() };
	struct kid k;

	kid_start(&k, other_map_kid, &o);
	kid_done(&k);
}

void vp_state_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "state", NULL, NULL);

	tcase_add_test(tc, state_page_shows_cstatus);
	tcase_add_test(tc, mmap_equals_sums_when_stopped);
	tcase_add_test(tc, mmap_close_to_sums_when_running);
	tcase_add_test(tc, state_mmap_write_refused);
	tcase_add_test(tc, state_mmap_offset_refused);
	tcase_add_test(tc, state_mmap_length_refused);
	tcase_add_test(tc, state_mmap_other_thread_refused);
	tcase_add_test(tc, state_mmap_other_process_refused);
}
