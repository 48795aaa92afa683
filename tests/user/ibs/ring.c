// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_ibs: the samples. On the simulated models the op engine counts
 * the cycles the thread runs (testing.rst, "IBS"), so a spin of T cycles
 * with MaxCnt M gives T / M samples, at the RIPs the spin runs at.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ibs.h"

#define SAMPLE	sizeof(struct perfctr_ibs_sample)

/* Consumes every sample there is into @s (up to @max): how many. */
static size_t drain(int fd, struct perfctr_ibs_sample *s, size_t max)
{
	size_t n = 0;
	ssize_t got;

	while (n < max && (got = read(fd, s + n, (max - n) * SAMPLE)) > 0)
		n += got / SAMPLE;
	ck_assert_int_ge(got, 0);
	return n;
}

/* Op samples in this program's code, in order, with their fields. */
static void check_samples(const struct perfctr_ibs_sample *s, size_t n,
			  unsigned long long first)
{
	unsigned long lo, hi;
	size_t i, inside = 0;

	ibs_text(&lo, &hi);
	for (i = 0; i < n; i++) {
		ck_assert_uint_eq(s[i].kind, PERFCTR_IBS_SAMPLE_OP);
		ck_assert_uint_eq(s[i].seq, first + i);
		ck_assert(s[i].valid & PERFCTR_IBS_VALID_OP_RIP);
		/* Physical addresses only with PERFCTR_IBS_PHYS. */
		ck_assert(!(s[i].valid & (PERFCTR_IBS_VALID_DC_PHYS |
					  PERFCTR_IBS_VALID_FETCH_PHYS)));
		ck_assert_uint_eq(s[i].dc_phys, 0);
		if (s[i].op_rip >= lo && s[i].op_rip < hi)
			inside++;
	}
	/* The spin is all this thread runs, but for its syscalls' returns. */
	ck_assert_msg(inside * 10 >= n * 9, "%zu of %zu RIPs in our code",
		      inside, n);
}

static struct perfctr_ibs_sample buf[4096];

/* Samples arrive, at the spin's own RIPs, numbered from 0. */
START_TEST(test_samples)
{
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, 0xFFFF0);
	size_t n;
	int fd;

	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	fd = ibs_start(&c);
	ibs_spin(300);
	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
	n = drain(fd, buf, 4096);
	ck_assert_uint_gt(n, 0);
	check_samples(buf, n, 0);
	close(fd);
}

/* The programmed rate: T / M samples for a spin of T cycles. */
START_TEST(test_rate)
{
	unsigned int m = 0x4000000;
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, m);
	unsigned long long t0, t1, want;
	size_t n;
	int fd;

	/* Without the 27-bit MaxCnt the rate outruns the model's tick. */
	if (!(ibs_caps & PERFCTR_IBS_CAP_OPCNTEXT))
		return;
	fd = ibs_start(&c);
	t0 = rdtsc();
	ibs_spin(1500);
	t1 = rdtsc();
	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
	n = drain(fd, buf, 4096);
	want = (t1 - t0) / m;
	ck_assert_msg(want >= 5, "spin too short: %llu cycles", t1 - t0);
	/* Preemption and the test's own syscalls cost a few. */
	ck_assert_msg(n * 10 >= want * 6 && n <= want + 2,
		      "%zu samples, %llu expected", n, want);
	check_samples(buf, n, 0);
	close(fd);
}

static int fills;

static void on_fill(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (si->si_code == 'I')
		__atomic_add_fetch(&fills, 1, __ATOMIC_RELAXED);
}

/* A full ring counts what it cannot take, and says so once. */
START_TEST(test_lost_and_signal)
{
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, 0x10);
	struct sigaction sa = { .sa_sigaction = on_fill, .sa_flags = SA_SIGINFO };
	const struct perfctr_ibs_ring *r;
	unsigned int i;
	size_t n;
	void *map;
	int fd;

	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	c.ring_pages = 1;
	c.si_signo = SIGUSR1;
	fd = ibs_start(&c);
	map = mmap(NULL, 2 * page_size(), PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(map, MAP_FAILED);
	r = map;
	ck_assert_uint_eq(r->magic, PERFCTR_IBS_RING_MAGIC);
	ck_assert_uint_eq(r->sample_size, SAMPLE);
	ck_assert_uint_eq(r->nr_slots, page_size() / SAMPLE);
	for (i = 0; i < 200 && !__atomic_load_n(&r->lost, __ATOMIC_RELAXED); i++)
		ibs_spin(50);
	ck_assert_msg(r->lost, "no sample lost in 10 s");
	ck_assert_uint_eq(r->head, r->nr_slots);
	ck_assert_int_eq(__atomic_load_n(&fills, __ATOMIC_RELAXED), 1);
	/* Stopped first: no new sample may take a slot drained below. */
	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
	/* The mapping shows what read() consumes. */
	n = drain(fd, buf, 4096);
	ck_assert_uint_eq(n, r->nr_slots);
	ck_assert(!memcmp(buf, (char *)map + page_size(), SAMPLE));
	check_samples(buf, n, 0);
	ck_assert_uint_eq(r->tail, r->head);
	munmap(map, 2 * page_size());
	close(fd);
}

/* The tail moves from tail to head, and the mapping is read-only. */
START_TEST(test_tail_and_map)
{
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, 0x1000);
	const struct perfctr_ibs_ring *r;
	unsigned long long t;
	void *map;
	int fd;

	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	c.ring_pages = 2;
	ck_assert_int_eq(ibs_put(&c), 0);
	fd = ibs_ring_open();
	ck_assert_int_ge(fd, 0);
	ck_assert(mmap(NULL, 2 * page_size(), PROT_READ, MAP_SHARED, fd, 0) ==
		  MAP_FAILED && errno == EINVAL);
	ck_assert(mmap(NULL, 3 * page_size(), PROT_READ, MAP_SHARED, fd,
		       page_size()) == MAP_FAILED && errno == EINVAL);
	ck_assert(mmap(NULL, 3 * page_size(), PROT_READ | PROT_WRITE,
		       MAP_SHARED, fd, 0) == MAP_FAILED && errno == EPERM);
	map = mmap(NULL, 3 * page_size(), PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(map, MAP_FAILED);
	ck_assert_int_ne(mprotect(map, page_size(), PROT_READ | PROT_WRITE), 0);
	r = map;
	ibs_spin(200);
	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
	t = r->head + 1;
	ck_assert_int_eq(pwrite(fd, &t, sizeof(t), 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	t = r->head;
	ck_assert_int_eq(pwrite(fd, &t, sizeof(t), 0), sizeof(t));
	ck_assert_uint_eq(r->tail, t);
	t = 0;
	ck_assert_int_eq(pwrite(fd, &t, sizeof(t), 0), -1);	/* backwards */
	ck_assert_int_eq(read(fd, buf, SAMPLE), 0);		/* nothing left */
	ck_assert_int_eq(read(fd, buf, SAMPLE - 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	munmap(map, 3 * page_size());
	close(fd);
}

struct thread_arg {
	int ready[2];
	int go[2];
	pid_t tid;
};

static void *sampled_thread(void *p)
{
	struct thread_arg *a = p;
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, 0xFFFF0);
	char x = 0;

	a->tid = syscall(SYS_gettid);
	if (ibs_put(&c))
		a->tid = -1;
	if (write(a->ready[1], &x, 1) != 1 || read(a->go[0], &x, 1) != 1)
		return NULL;
	ibs_spin(300);
	return NULL;
}

/* A thread's last samples, read after it exited. */
START_TEST(test_after_exit)
{
	struct thread_arg a;
	pthread_t t;
	char x = 0;
	size_t n;
	int fd;

	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	ck_assert_int_eq(pipe(a.ready), 0);
	ck_assert_int_eq(pipe(a.go), 0);
	ck_assert_int_eq(pthread_create(&t, NULL, sampled_thread, &a), 0);
	ck_assert_int_eq(read(a.ready[0], &x, 1), 1);
	ck_assert_int_gt(a.tid, 0);
	fd = pfs_open(a.tid, "ibs_ring", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(a.go[1], &x, 1), 1);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	n = drain(fd, buf, 4096);
	ck_assert_uint_gt(n, 0);
	check_samples(buf, n, 0);
	close(fd);
}

/* Thousands of samples and setups, for kmemleak's scan at the end. */
START_TEST(test_many)
{
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, 0x10);
	unsigned long long total = 0;
	unsigned int i;
	int fd;

	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	for (i = 0; i < 1000; i++) {
		c.ring_pages = 1U << (i % 4);
		ck_assert_int_eq(ibs_put(&c), 0);
	}
	fd = ibs_ring_open();
	ck_assert_int_ge(fd, 0);
	/* Up to 20 s of spinning: a loaded host gives the guest less. */
	for (i = 0; i < 400 && total < 2000; i++) {
		ibs_spin(50);
		total += drain(fd, buf, 4096);
	}
	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
	close(fd);
	ck_assert_msg(total >= 2000, "%llu samples in %u spins of 50 ms",
		      total, i);
}

/*
 * The bytes of vmalloc areas freed and waiting for the kernel's lazy
 * purge, which flushes every CPU's TLB: /proc/vmallocinfo's "unpurged
 * vm_area" lines (root only; neighbours are merged into one line).
 */
static long long vmap_lazy_bytes(void)
{
	FILE *f = fopen("/proc/vmallocinfo", "r");
	char line[512];
	long long n = 0;

	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		char *p = strstr(line, " unpurged vm_area");

		while (p && p > line && p[-1] != ' ')
			p--;
		if (p)
			n += strtoll(p, NULL, 10);
	}
	fclose(f);
	return n;
}

#define TOGGLES_RING	40

/*
 * A loop of setups and stops that never maps its rings reuses them
 * (S6), whatever sizes earlier setups left kept: without the reuse each
 * stop frees its ring (and its guard page) to vmalloc, to wait for a
 * purge, all 40 of them. A purge meanwhile only lowers the count; the
 * kernel's own frees (exiting threads' stacks, many on PREEMPT_RT) may
 * raise it now and then, hence a quarter, not none.
 */
START_TEST(test_toggles_reuse_rings)
{
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, 0x10000);
	long long ring = (PERFCTR_IBS_RING_MAX + 2) * page_size(), was, now;
	int i, freed = 0;

	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM) || geteuid())
		return;		/* no IBS, or vmallocinfo is not ours to read */
	for (i = 1; i <= 8; i <<= 1) {		/* other sizes, kept first */
		c.ring_pages = i;
		ck_assert_int_eq(ibs_put(&c), 0);
	}
	c.ring_pages = PERFCTR_IBS_RING_MAX;
	for (i = 0; i < TOGGLES_RING; i++) {
		was = vmap_lazy_bytes();
		ck_assert_int_eq(ibs_put(&c), 0);
		ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
		usleep(10000);		/* the free's work item runs */
		now = vmap_lazy_bytes();
		freed += now - was >= ring;
	}
	ck_assert_msg(freed <= TOGGLES_RING / 4,
		      "%d setups and stops freed %d rings",
		      TOGGLES_RING, freed);
}

/*
 * A ring user space mapped is never another setup's: the old mapping
 * keeps showing its own samples while a new setup of the same size
 * samples on.
 */
START_TEST(test_mapped_ring_not_reused)
{
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, 0x10);
	const struct perfctr_ibs_ring *r;
	unsigned long long head;
	void *map;
	int fd, fd2, i;

	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	c.ring_pages = 1;
	fd = ibs_start(&c);
	map = mmap(NULL, 2 * page_size(), PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(map, MAP_FAILED);
	close(fd);
	r = map;
	ibs_spin(100);
	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
	head = r->head;
	ck_assert_uint_gt(head, 0);
	/* Setups of that size, one sampling; the old setup's free runs. */
	for (i = 0; i < 8; i++) {
		ck_assert_int_eq(ibs_put(&c), 0);
		usleep(20000);
	}
	fd2 = ibs_ring_open();
	ck_assert_int_ge(fd2, 0);
	ibs_spin(100);
	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
	ck_assert_uint_gt(drain(fd2, buf, 4096), 0);
	ck_assert_uint_eq(r->magic, PERFCTR_IBS_RING_MAGIC);
	ck_assert_uint_eq(r->head, head);
	munmap(map, 2 * page_size());
	close(fd2);
}

void ibs_ring_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "ring", NULL, NULL);

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_samples);
	tcase_add_test(tc, test_rate);
	tcase_add_test(tc, test_lost_and_signal);
	tcase_add_test(tc, test_tail_and_map);
	tcase_add_test(tc, test_after_exit);
	tcase_add_test(tc, test_many);
	tcase_add_test(tc, test_toggles_reuse_rings);
	tcase_add_test(tc, test_mapped_ring_not_reused);
}
