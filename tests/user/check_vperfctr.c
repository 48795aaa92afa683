// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for the virtual per-thread counters (/proc/perfctr/<tid>/),
 * run in the test VM as root with /proc/perfctr mounted: against
 * perfctr.ko (the TSC only) and, with PERFCTR_SIM_MODEL=NAME, against
 * perfctr_simpmu.ko model=NAME, whose counters count TSC cycles, where
 * the tests that need counters (overflow signals among them) run too.
 *
 * Normal paths go through libperfctr; bad requests use the raw files, and
 * each refused one is checked to have left the control and the sums
 * exactly as they were. Every test runs in its own forked process, so no
 * counters carry over from one test to the next.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libperfctr.h"
#include "models.h"
#include "test_util.h"
#include "vp_util.h"

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

START_TEST(control_read_size)
{
	char buf[CTL_SIZE + 16];
	struct vperfctr_control c;
	struct files f;

	files_open(&f, gettid());
	tsc_control(&c);
	set_control(f.ctl, &c);
	errno = 0;
	ck_assert_int_eq(pread(f.ctl, buf, CTL_SIZE - 1, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(pread(f.ctl, buf, CTL_SIZE, 0), CTL_SIZE);
	ck_assert_mem_eq(buf, &c, CTL_SIZE);
	memset(buf, 0xff, sizeof(buf));
	ck_assert_int_eq(pread(f.ctl, buf, sizeof(buf), 0), CTL_SIZE);
	ck_assert_mem_eq(buf, &c, CTL_SIZE);
}

START_TEST(sums_read_size)
{
	char buf[SUMS_SIZE + 16];
	struct vperfctr_control c;
	struct files f;

	files_open(&f, gettid());
	tsc_control(&c);
	set_control(f.ctl, &c);
	errno = 0;
	ck_assert_int_eq(pread(f.sums, buf, SUMS_SIZE - 1, 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(pread(f.sums, buf, SUMS_SIZE, 0), SUMS_SIZE);
	ck_assert_int_eq(pread(f.sums, buf, sizeof(buf), 0), SUMS_SIZE);
	ck_assert_uint_gt(((struct perfctr_sum_ctrs *)buf)->tsc, 0);
}

/* --- counting the TSC, and the counters --- */

/*
 * Timing in an emulator on a shared host is noisy: a vCPU can stall for
 * milliseconds, or a kernel thread take the CPU, in the middle of a
 * measurement. So each timing check gets three attempts and passes if one
 * does; a real miscount fails all three.
 */
#define ATTEMPTS	3

struct timing {
	struct vperfctr *vp;
	unsigned int n;			/* counters besides the TSC */
	char why[256];			/* what the last failed attempt saw */
};

typedef int (*attempt_fn)(struct timing *t);

static void timing_start(struct timing *t)
{
	struct vperfctr_control c;

	t->vp = vperfctr_open();
	ck_assert_msg(t->vp, "vperfctr_open: %s", strerror(errno));
	t->n = full_control(&c);
	lib_control(t->vp, &c);
	t->why[0] = 0;
}

static void attempts(attempt_fn fn, struct timing *t)
{
	int i;

	for (i = 0; i < ATTEMPTS; i++)
		if (fn(t))
			return;
	ck_abort_msg("failed %d times, the last: %s", ATTEMPTS, t->why);
}

static int sleep_attempt(struct timing *t)
{
	unsigned long long limit = ms_ticks(200) / 20;
	struct perfctr_sum_ctrs a, b;
	unsigned int i;

	ck_assert_int_eq(vperfctr_read_sums(t->vp, &a), 0);
	usleep(200000);
	ck_assert_int_eq(vperfctr_read_sums(t->vp, &b), 0);
	/* The system calls ran, so something was counted. */
	ck_assert_uint_gt(b.tsc, a.tsc);
	if (b.tsc - a.tsc >= limit) {
		snprintf(t->why, sizeof(t->why), "tsc %llu in a 200 ms sleep", b.tsc - a.tsc);
		return 0;
	}
	for (i = 0; i < t->n; i++) {
		if (b.pmc[i] - a.pmc[i] >= limit) {
			snprintf(t->why, sizeof(t->why), "pmc%u %llu in a 200 ms sleep", i,
				 b.pmc[i] - a.pmc[i]);
			return 0;
		}
	}
	return 1;
}

START_TEST(tsc_sleeping_thread_accrues_little)
{
	struct timing t;

	timing_start(&t);
	attempts(sleep_attempt, &t);
}

static int spin_attempt(struct timing *t)
{
	unsigned long long busy, d;
	struct perfctr_sum_ctrs a, b;
	unsigned int i;

	ck_assert_int_eq(vperfctr_read_sums(t->vp, &a), 0);
	busy = spin(ms_ticks(200));
	ck_assert_int_eq(vperfctr_read_sums(t->vp, &b), 0);
	d = b.tsc - a.tsc;
	if (!within(d, busy, 10)) {
		snprintf(t->why, sizeof(t->why), "tsc %llu for %llu busy", d, busy);
		return 0;
	}
	/* The simulated counters count TSC cycles while enabled. */
	for (i = 0; i < t->n; i++) {
		if (!within(b.pmc[i] - a.pmc[i], d, 10)) {
			snprintf(t->why, sizeof(t->why), "pmc%u %llu for tsc %llu", i,
				 b.pmc[i] - a.pmc[i], d);
			return 0;
		}
	}
	return 1;
}

START_TEST(tsc_spinning_thread_accrues_runtime)
{
	struct timing t;

	timing_start(&t);
	attempts(spin_attempt, &t);
}

struct worker {
	int cpu;
	unsigned int sleep_ms, spin_ms;
	int failed;			/* step, 0 if none */
	unsigned long long sum, busy;
};

static void *worker_fn(void *arg)
{
	struct worker *w = arg;
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c;
	struct vperfctr *vp;

	if (pin(w->cpu)) {
		w->failed = 1;
		return NULL;
	}
	vp = vperfctr_open();
	if (!vp) {
		w->failed = 2;
		return NULL;
	}
	tsc_control(&c);
	if (vperfctr_control(vp, &c) || vperfctr_read_sums(vp, &a)) {
		w->failed = 3;
		return NULL;
	}
	usleep(w->sleep_ms * 1000);
	w->busy = spin(ms_ticks(w->spin_ms));
	if (vperfctr_read_sums(vp, &b)) {
		w->failed = 4;
		return NULL;
	}
	w->sum = b.tsc - a.tsc;
	vperfctr_close(vp);		/* the counters stay until exit */
	return NULL;
}

/*
 * Two threads on two CPUs at once, and a third waiting for them: each
 * one's sum is its own busy time, the sleeping part of the second one
 * and the workers' time in the waiting one left out.
 */
static int threads_attempt(struct timing *t)
{
	struct worker w[2] = {
		{ .cpu = 0, .sleep_ms = 0, .spin_ms = 200 },
		{ .cpu = 1, .sleep_ms = 100, .spin_ms = 50 },
	};
	struct perfctr_sum_ctrs a, b;
	pthread_t th[2];
	int i;

	ck_assert_int_eq(vperfctr_read_sums(t->vp, &a), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, worker_fn, &w[i]), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
	ck_assert_int_eq(vperfctr_read_sums(t->vp, &b), 0);
	for (i = 0; i < 2; i++) {
		ck_assert_msg(!w[i].failed, "worker %d step %d: %s", i, w[i].failed,
			      strerror(errno));
		/* Beyond its spin, a few system calls and a wakeup. */
		if (w[i].sum < w[i].busy * 9 / 10 ||
		    w[i].sum > w[i].busy * 11 / 10 + ms_ticks(5)) {
			snprintf(t->why, sizeof(t->why), "worker %d: tsc %llu for %llu busy", i,
				 w[i].sum, w[i].busy);
			return 0;
		}
	}
	if (b.tsc - a.tsc >= w[0].busy / 2) {
		snprintf(t->why, sizeof(t->why), "waiting thread: tsc %llu", b.tsc - a.tsc);
		return 0;
	}
	return 1;
}

START_TEST(threads_count_only_their_own)
{
	struct timing t;

	ck_assert_int_ge(ncpus, 2);
	/* The waiting thread counts the TSC only: its workers do too. */
	t.vp = vperfctr_open();
	ck_assert(t.vp);
	t.n = 0;
	ck_assert_int_eq(vperfctr_control(t.vp, &(struct vperfctr_control){
		.cpu_control.tsc_on = 1 }), 0);
	attempts(threads_attempt, &t);
}

/*
 * Two threads sharing one CPU (a uniprocessor): each counts its own turns,
 * as the kernel's own accounting of its CPU time sees them, whatever
 * share the scheduler gave it.
 */
struct sharer {
	unsigned long long ticks, sum, cpu;	/* cpu: its CPU time, in ticks */
	int failed;
};

static unsigned long long thread_cpu_ticks(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ((unsigned long long)ts.tv_sec * 1000000000ULL + ts.tv_nsec) *
	       khz / 1000000;
}

static void *sharer_fn(void *arg)
{
	struct sharer *sh = arg;
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c;
	struct vperfctr *vp = vperfctr_open();

	tsc_control(&c);
	if (!vp || vperfctr_control(vp, &c) || vperfctr_read_sums(vp, &a)) {
		sh->failed = 1;
		return NULL;
	}
	sh->cpu = thread_cpu_ticks();
	spin(sh->ticks);
	sh->cpu = thread_cpu_ticks() - sh->cpu;
	if (vperfctr_read_sums(vp, &b)) {
		sh->failed = 2;
		return NULL;
	}
	sh->sum = b.tsc - a.tsc;
	vperfctr_close(vp);
	return NULL;
}

static int timeshare_attempt(struct timing *t)
{
	struct sharer sh[2] = { { .ticks = ms_ticks(300) }, { .ticks = ms_ticks(300) } };
	unsigned long long t0, wall;
	pthread_t th[2];
	int i;

	t0 = rdtsc();
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, sharer_fn, &sh[i]), 0);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
	wall = rdtsc() - t0;
	for (i = 0; i < 2; i++) {
		ck_assert_msg(!sh[i].failed, "thread %d step %d", i, sh[i].failed);
		/* Both had turns; neither counted the other's. */
		if (sh[i].sum < wall / 20 || sh[i].sum > wall * 9 / 10 ||
		    !within(sh[i].sum, sh[i].cpu, 15)) {
			snprintf(t->why, sizeof(t->why),
				 "thread %d: tsc %llu, its CPU time %llu, of %llu",
				 i, sh[i].sum, sh[i].cpu, wall);
			return 0;
		}
	}
	if (sh[0].sum + sh[1].sum > wall * 11 / 10) {
		snprintf(t->why, sizeof(t->why), "tsc %llu + %llu of %llu",
			 sh[0].sum, sh[1].sum, wall);
		return 0;
	}
	return 1;
}

START_TEST(timeshared_threads_count_their_turns)
{
	struct timing t;

	t.vp = NULL;
	t.n = 0;
	attempts(timeshare_attempt, &t);
}

/* Alternating between CPU 0 and 1 loses and invents nothing. */
static int migration_attempt(struct timing *t)
{
	unsigned long long busy = 0, t0, elapsed, d;
	struct perfctr_sum_ctrs a, b;
	unsigned int i;

	ck_assert_int_eq(vperfctr_read_sums(t->vp, &a), 0);
	t0 = rdtsc();
	for (i = 0; i < 200; i++) {
		ck_assert_int_eq(pin(i & 1), 0);
		ck_assert_int_eq(sched_getcpu(), i & 1);
		busy += spin(ms_ticks(2));
	}
	elapsed = rdtsc() - t0;
	ck_assert_int_eq(vperfctr_read_sums(t->vp, &b), 0);
	d = b.tsc - a.tsc;
	if (d < busy * 9 / 10 || d > elapsed * 11 / 10) {
		snprintf(t->why, sizeof(t->why), "tsc %llu: busy %llu of %llu", d, busy,
			 elapsed);
		return 0;
	}
	for (i = 0; i < t->n; i++) {
		if (!within(b.pmc[i] - a.pmc[i], d, 10)) {
			snprintf(t->why, sizeof(t->why), "pmc%u %llu for tsc %llu", i,
				 b.pmc[i] - a.pmc[i], d);
			return 0;
		}
	}
	return 1;
}

START_TEST(migration_ping_pong)
{
	struct perfctr_sum_ctrs m, r;
	struct vperfctr_control c;
	struct timing t;
	unsigned int i;

	ck_assert_int_ge(ncpus, 2);
	timing_start(&t);
	/* A CPU without counters (P4 thread 1) can be visited with the TSC. */
	if (cpus_forbidden) {
		tsc_control(&c);
		lib_control(t.vp, &c);
		t.n = 0;
	}
	attempts(migration_attempt, &t);

	/* Stopped, the state page and the sums file agree exactly. */
	ck_assert_int_eq(vperfctr_suspend(t.vp), 0);
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(vperfctr_read_ctrs(t.vp, &m), 0);
	ck_assert_int_eq(vperfctr_read_sums(t.vp, &r), 0);
	ck_assert_uint_eq(m.tsc, r.tsc);
	for (i = 0; i < t.n; i++)
		ck_assert_uint_eq(m.pmc[i], r.pmc[i]);
	ck_assert_uint_eq(vperfctr_read_tsc(t.vp), r.tsc);
}

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
	struct vperfctr *vp = vperfctr_open();
	const struct vperfctr_state *st;
	struct perfctr_sum_ctrs m, r;
	struct vperfctr_control c;
	unsigned int i, n;

	ck_assert_ptr_nonnull(vp);
	st = state_of(vp);
	ck_assert(st);
	n = full_control(&c);
	lib_control(vp, &c);
	spin(ms_ticks(10));
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	memset(&m, 0, sizeof(m));
	ck_assert_int_eq(vperfctr_read_ctrs(vp, &m), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &r), 0);
	ck_assert_uint_gt(r.tsc, 0);
	ck_assert_uint_eq(m.tsc, r.tsc);
	ck_assert_uint_eq(vperfctr_read_tsc(vp), r.tsc);
	ck_assert_uint_eq(cstatus_of(st), 0);
	ck_assert_uint_eq(PAGE_LOAD(st->seq) & 1, 0);
	ck_assert_uint_eq(PAGE_LOAD(st->cpu_state.tsc_sum), r.tsc);
	for (i = 0; i < n; i++) {
		ck_assert_uint_gt(r.pmc[i], 0);
		ck_assert_uint_eq(m.pmc[i], r.pmc[i]);
		ck_assert_uint_eq(vperfctr_read_pmc(vp, i), r.pmc[i]);
		ck_assert_uint_eq(PAGE_LOAD(st->cpu_state.pmc[i].sum), r.pmc[i]);
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
	struct vperfctr *vp = vperfctr_open();
	unsigned long long prev = 0, a, b, gap[500];
	struct perfctr_sum_ctrs m1, s, m2;
	struct vperfctr_control c;
	unsigned int i, j, n;

	ck_assert_ptr_nonnull(vp);
	n = full_control(&c);
	lib_control(vp, &c);
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

/* --- control writes: each bad one refused, nothing changed --- */

struct bad_control {
	const char *name;
	int dlen;			/* written size - sizeof */
	int off;			/* written at */
	void (*bad)(struct vperfctr_control *c);
	void (*good)(struct vperfctr_control *c);	/* closest accepted */
};

static void c_flags_unknown(struct vperfctr_control *c)
{
	c->flags = VPERFCTR_CONTROL_FLAGS + 1;
}

static void c_flags_high(struct vperfctr_control *c)
{
	c->flags = 0x80000000U | VPERFCTR_CONTROL_CLOEXEC;
}

static void c_flags_cloexec(struct vperfctr_control *c)
{
	c->flags = VPERFCTR_CONTROL_CLOEXEC;
}

static void c_resv_first(struct vperfctr_control *c)
{
	c->_reserved[0] = 1;
}

static void c_resv_last(struct vperfctr_control *c)
{
	c->_reserved[4] = ~0U;
}

static void c_signo_65(struct vperfctr_control *c)
{
	c->si_signo = 65;
}

static void c_signo_64(struct vperfctr_control *c)
{
	c->si_signo = 64;
}

static void c_signo_huge(struct vperfctr_control *c)
{
	c->si_signo = ~0U;
}

static void c_signo_none(struct vperfctr_control *c)
{
	c->si_signo = 0;
}

static void c_preserve_bit_18(struct vperfctr_control *c)
{
	c->preserve = 1U << PERFCTR_NR_PMCS;
}

static void c_preserve_bit_30(struct vperfctr_control *c)
{
	c->preserve = 1U << 30;
}

static void c_preserve_all(struct vperfctr_control *c)
{
	c->preserve = VPERFCTR_PRESERVE_TSC | ((1U << PERFCTR_NR_PMCS) - 1);
}

static void c_tsc_on_2(struct vperfctr_control *c)
{
	c->cpu_control.tsc_on = 2;
}

static void c_nractrs_over(struct vperfctr_control *c)
{
	c->cpu_control.nractrs = nrctrs + 1;
}

static void c_cpu_resv_first(struct vperfctr_control *c)
{
	c->cpu_control._reserved[0] = 1;
}

static void c_cpu_resv_last(struct vperfctr_control *c)
{
	c->cpu_control._reserved[3] = ~0U;
}

static void c_imode(struct vperfctr_control *c)
{
	memset(&c->cpu_control, 0, sizeof(c->cpu_control));
	c->cpu_control.tsc_on = 1;
	model->imode(&c->cpu_control, IRESET_FAR);
	c->si_signo = SIGUSR1;
}

static void c_imode_no_signo(struct vperfctr_control *c)
{
	c_imode(c);
	c->si_signo = 0;
}

/* Start values the architecture's overflow can never come from. */
#ifdef __powerpc__
#define IRESET_BAD_1	(-1)
#define IRESET_BAD_2	(-0x7fffffff - 1)
#else
#define IRESET_BAD_1	0
#define IRESET_BAD_2	1000
#endif

static void c_ireset_bad_1(struct vperfctr_control *c)
{
	c_imode(c);
	c->cpu_control.ireset[1] = IRESET_BAD_1;
}

static void c_ireset_bad_2(struct vperfctr_control *c)
{
	c_imode(c);
	c->cpu_control.ireset[1] = IRESET_BAD_2;
}

static void c_refused(struct vperfctr_control *c)
{
	memset(&c->cpu_control, 0, sizeof(c->cpu_control));
	c->cpu_control.tsc_on = 1;
	model->refused(&c->cpu_control);
}

static const struct bad_control bad_controls[] = {
	{ "short", -1, 0, NULL, NULL },
	{ "oversized", 1, 0, NULL, NULL },
	{ "empty", -(int)CTL_SIZE, 0, NULL, NULL },
	{ "offset-1", 0, 1, NULL, NULL },
	{ "offset-end", 0, CTL_SIZE, NULL, NULL },
	{ "flags-unknown", 0, 0, c_flags_unknown, c_flags_cloexec },
	{ "flags-high", 0, 0, c_flags_high, c_flags_cloexec },
	{ "reserved-first", 0, 0, c_resv_first, NULL },
	{ "reserved-last", 0, 0, c_resv_last, NULL },
	{ "signo-65", 0, 0, c_signo_65, c_signo_64 },
	{ "signo-huge", 0, 0, c_signo_huge, c_signo_none },
	{ "preserve-bit-18", 0, 0, c_preserve_bit_18, c_preserve_all },
	{ "preserve-bit-30", 0, 0, c_preserve_bit_30, c_preserve_all },
	{ "tsc_on-2", 0, 0, c_tsc_on_2, NULL },
	{ "nractrs-over-nrctrs", 0, 0, c_nractrs_over, NULL },
	{ "cpu-reserved-first", 0, 0, c_cpu_resv_first, NULL },
	{ "cpu-reserved-last", 0, 0, c_cpu_resv_last, NULL },
};

/* These need counters (and interrupts) to have an accepted neighbour. */
static const struct bad_control sim_bad_controls[] = {
	{ "imode-without-signal", 0, 0, c_imode_no_signo, c_imode },
	{ "ireset-out-of-range-1", 0, 0, c_ireset_bad_1, c_imode },
	{ "ireset-out-of-range-2", 0, 0, c_ireset_bad_2, c_imode },
	{ "driver-refuses", 0, 0, c_refused, NULL },
};

static void check_bad_control(const struct bad_control *b)
{
	struct {
		struct vperfctr_control c;
		char extra[16];
	} buf;
	const struct vperfctr_state *st = map_state();
	struct perfctr_sum_ctrs before, after;
	struct vperfctr_control c0, got;
	struct files f;

	/* An overflow of the far i-mode counter would only be ignored. */
	signal(SIGUSR1, SIG_IGN);
	files_open(&f, gettid());
	full_control(&c0);
	c0.si_signo = SIGUSR2;
	set_control(f.ctl, &c0);
	spin(ms_ticks(10));
	/* Suspended, the sums must stay exactly what they are. */
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	get_sums(f.sums, &before);

	memset(&buf, 0, sizeof(buf));
	buf.c = c0;
	if (b->bad)
		b->bad(&buf.c);
	errno = 0;
	ck_assert_int_eq(pwrite(f.ctl, &buf, CTL_SIZE + b->dlen, b->off), -1);
	ck_assert_msg(errno == EINVAL, "%s: errno %d", b->name, errno);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c0, CTL_SIZE);
	get_sums(f.sums, &after);
	ck_assert_mem_eq(&after, &before, SUMS_SIZE);
	ck_assert_uint_eq(cstatus_of(st), 0);
	/* Resumed, they go on from where they were. */
	do_command(f.cmd, VPERFCTR_CMD_RESUME);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
	spin(ms_ticks(1));
	get_sums(f.sums, &after);
	ck_assert_uint_gt(after.tsc, before.tsc);

	/* The closest good control is accepted. */
	buf.c = c0;
	if (b->good)
		b->good(&buf.c);
	set_control(f.ctl, &buf.c);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &buf.c, CTL_SIZE);
}

START_TEST(control_bad_write)
{
	check_bad_control(&bad_controls[_i]);
}

START_TEST(sim_control_bad_write)
{
	check_bad_control(&sim_bad_controls[_i]);
}

/* preserve keeps the chosen sums across a new control; the others restart. */
START_TEST(control_preserve)
{
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c;
	unsigned long long t0;
	struct files f;

	files_open(&f, gettid());
	full_control(&c);
	set_control(f.ctl, &c);
	count_at_least(NULL, f.sums, ms_ticks(50));
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	get_sums(f.sums, &a);

	/* The TSC's and counter 0's sums kept, counter 1's restarted. */
	c.preserve = VPERFCTR_PRESERVE_TSC | (model ? 1 : 0);
	t0 = rdtsc();
	set_control(f.ctl, &c);
	get_sums(f.sums, &b);
	ck_assert_uint_ge(b.tsc, a.tsc);
	ck_assert(since(b.tsc - a.tsc, t0));
	if (model) {
		ck_assert_uint_ge(b.pmc[0], a.pmc[0]);
		ck_assert_msg(since(b.pmc[1], t0), "pmc1 %llu kept", b.pmc[1]);
	}

	/* Nothing kept. */
	c.preserve = 0;
	t0 = rdtsc();
	set_control(f.ctl, &c);
	get_sums(f.sums, &b);
	ck_assert_msg(since(b.tsc, t0), "tsc %llu kept", b.tsc);
	if (model)
		ck_assert_msg(since(b.pmc[0], t0), "pmc0 %llu kept", b.pmc[0]);
}

/* Counters held by global mode: EBUSY, and nothing created. */
START_TEST(sim_control_busy_in_global_mode)
{
	struct perfctr_cpu_control gc;
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c, got;
	ssize_t ret = 0, got_ctl, got_sums;
	int g, tries, err;
	struct files f;

	files_open(&f, gettid());
	g = open(GLOBAL_PATH, O_RDWR);
	ck_assert_int_ge(g, 0);
	memset(&gc, 0, sizeof(gc));
	gc.tsc_on = 1;
	/* Sets of earlier tests' threads are freed a little after they exit. */
	for (tries = 0; tries < 100; tries++) {
		ret = write(g, &gc, sizeof(gc));
		if (ret >= 0 || errno != EBUSY)
			break;
		usleep(10000);
	}
	ck_assert_int_eq(ret, sizeof(gc));
	full_control(&c);
	errno = 0;
	ret = put_control(f.ctl, &c);
	err = errno;
	got_ctl = pread(f.ctl, &got, sizeof(got), 0);
	got_sums = pread(f.sums, &s, sizeof(s), 0);
	/* Stop global mode before anything can fail and leave it running. */
	memset(&gc, 0, sizeof(gc));
	ck_assert_int_eq(write(g, &gc, sizeof(gc)), sizeof(gc));
	close(g);
	ck_assert_int_eq(ret, -1);
	ck_assert_int_eq(err, EBUSY);
	ck_assert_int_eq(got_ctl, CTL_SIZE);
	ck_assert(is_zero(&got, sizeof(got)));
	ck_assert_int_eq(got_sums, SUMS_SIZE);
	ck_assert(is_zero(&s, sizeof(s)));
	set_control(f.ctl, &c);
}

/* --- commands --- */

struct bad_command {
	const char *name;
	size_t len;
	int off;
	__u32 cmd;
};

static const struct bad_command bad_commands[] = {
	{ "empty", 0, 0, VPERFCTR_CMD_SUSPEND },
	{ "short", 2, 0, VPERFCTR_CMD_SUSPEND },
	{ "long", 8, 0, VPERFCTR_CMD_SUSPEND },
	{ "offset", 4, 4, VPERFCTR_CMD_SUSPEND },
	{ "unknown-0", 4, 0, 0 },
	{ "unknown-6", 4, 0, VPERFCTR_CMD_UNLINK + 1 },
	{ "unknown-max", 4, 0, ~0U },
};

/* Refused while running: still running, same control, sums go on. */
START_TEST(command_bad_write)
{
	const struct bad_command *b = &bad_commands[_i];
	const struct vperfctr_state *st = map_state();
	struct perfctr_sum_ctrs s0, s1;
	struct vperfctr_control c, got;
	__u32 buf[2] = { b->cmd, 0 };
	struct files f;

	files_open(&f, gettid());
	full_control(&c);
	set_control(f.ctl, &c);
	spin(ms_ticks(2));
	get_sums(f.sums, &s0);
	errno = 0;
	ck_assert_int_eq(pwrite(f.cmd, buf, b->len, b->off), -1);
	ck_assert_msg(errno == EINVAL, "%s: errno %d", b->name, errno);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
	spin(ms_ticks(1));
	get_sums(f.sums, &s1);
	ck_assert_uint_gt(s1.tsc, s0.tsc);
	/* One __u32 at offset 0 is a command. */
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	ck_assert_uint_eq(cstatus_of(st), 0);
}

static const __u32 all_commands[] = {
	VPERFCTR_CMD_SUSPEND, VPERFCTR_CMD_RESUME, VPERFCTR_CMD_CLEAR,
	VPERFCTR_CMD_IRESUME, VPERFCTR_CMD_UNLINK,
};

/* No counters (never mapped, never controlled): ENODATA, none created. */
START_TEST(command_without_counters)
{
	__u32 cmd = all_commands[_i];
	struct vperfctr_control c, got;
	struct files f;

	files_open(&f, gettid());
	errno = 0;
	ck_assert_int_eq(put_command(f.cmd, cmd), -1);
	ck_assert_int_eq(errno, ENODATA);
	get_control(f.ctl, &got);
	ck_assert(is_zero(&got, sizeof(got)));
	tsc_control(&c);
	set_control(f.ctl, &c);
	errno = 0;
	if (cmd == VPERFCTR_CMD_IRESUME) {
		/* Reaches the counters now: refused for another reason. */
		ck_assert_int_eq(put_command(f.cmd, cmd), -1);
		ck_assert_int_eq(errno, EINVAL);
	} else {
		do_command(f.cmd, cmd);
	}
}

START_TEST(command_suspend_resume)
{
	struct vperfctr *vp = vperfctr_open();
	const struct vperfctr_state *st;
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c;
	unsigned int i, n;

	ck_assert_ptr_nonnull(vp);
	st = state_of(vp);
	n = full_control(&c);
	lib_control(vp, &c);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
	spin(ms_ticks(2));
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_uint_eq(cstatus_of(st), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &a), 0);
	spin(ms_ticks(5));
	ck_assert_int_eq(vperfctr_read_sums(vp, &b), 0);
	ck_assert_mem_eq(&a, &b, SUMS_SIZE);
	/* Again: nothing more happens. */
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_uint_eq(cstatus_of(st), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &b), 0);
	ck_assert_mem_eq(&a, &b, SUMS_SIZE);
	ck_assert_int_eq(vperfctr_resume(vp), 0);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
	spin(ms_ticks(2));
	ck_assert_int_eq(vperfctr_read_sums(vp, &b), 0);
	ck_assert_uint_gt(b.tsc, a.tsc);
	for (i = 0; i < n; i++)
		ck_assert_uint_gt(b.pmc[i], a.pmc[i]);
}

START_TEST(command_clear)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c, got;
	struct perfctr_sum_ctrs s;
	unsigned long long t0;

	ck_assert_ptr_nonnull(vp);
	full_control(&c);
	lib_control(vp, &c);
	count_at_least(vp, -1, ms_ticks(50));
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_int_eq(vperfctr_clear(vp), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
	ck_assert(is_zero(&s, sizeof(s)));
	ck_assert_int_eq(vperfctr_read_control(vp, &got), 0);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
	/* Resumed, it counts from zero. */
	t0 = rdtsc();
	ck_assert_int_eq(vperfctr_resume(vp), 0);
	spin(ms_ticks(1));
	ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
	ck_assert_uint_gt(s.tsc, 0);
	ck_assert(since(s.tsc, t0));
	/* Cleared while running, it goes on from zero. */
	count_at_least(vp, -1, ms_ticks(50));
	t0 = rdtsc();
	ck_assert_int_eq(vperfctr_clear(vp), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
	ck_assert_msg(since(s.tsc, t0), "tsc %llu after clear", s.tsc);
	ck_assert_uint_eq(cstatus_of(state_of(vp)), full_cstatus());
}

/* Without an overflow, running or suspended: EINVAL, nothing changed. */
START_TEST(command_iresume_needs_overflow)
{
	const struct vperfctr_state *st = map_state();
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c, got;
	struct files f;

	files_open(&f, gettid());
	full_control(&c);
	set_control(f.ctl, &c);
	errno = 0;
	ck_assert_int_eq(put_command(f.cmd, VPERFCTR_CMD_IRESUME), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);

	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	get_sums(f.sums, &a);
	errno = 0;
	ck_assert_int_eq(put_command(f.cmd, VPERFCTR_CMD_IRESUME), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(cstatus_of(st), 0);
	get_sums(f.sums, &b);
	ck_assert_mem_eq(&a, &b, SUMS_SIZE);
}

START_TEST(command_unlink)
{
	struct perfctr_sum_ctrs s;
	unsigned long long t0;
	struct vperfctr_control c, got;
	struct files f;

	files_open(&f, gettid());
	full_control(&c);
	c.si_signo = SIGUSR2;
	set_control(f.ctl, &c);
	count_at_least(NULL, f.sums, ms_ticks(50));
	do_command(f.cmd, VPERFCTR_CMD_UNLINK);
	get_control(f.ctl, &got);
	ck_assert(is_zero(&got, sizeof(got)));
	get_sums(f.sums, &s);
	ck_assert(is_zero(&s, sizeof(s)));
	errno = 0;
	ck_assert_int_eq(put_command(f.cmd, VPERFCTR_CMD_SUSPEND), -1);
	ck_assert_int_eq(errno, ENODATA);
	/* New counters, from zero. */
	t0 = rdtsc();
	set_control(f.ctl, &c);
	get_sums(f.sums, &s);
	ck_assert_msg(since(s.tsc, t0), "tsc %llu after unlink", s.tsc);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
}

/* --- overflow interrupts (simulated PMU) --- */

/* What the overflow handler saw; written there, read with __atomic. */
static struct {
	int count, signo, code;
	unsigned int mask, cstatus;
} ovf;
static const struct vperfctr_state *ovf_state;

#define OVF(field)	__atomic_load_n(&ovf.field, __ATOMIC_ACQUIRE)

static void ovf_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	__atomic_store_n(&ovf.signo, sig, __ATOMIC_RELAXED);
	__atomic_store_n(&ovf.code, si->si_code, __ATOMIC_RELAXED);
	__atomic_store_n(&ovf.mask, si->si_pmc_ovf_mask, __ATOMIC_RELAXED);
	__atomic_store_n(&ovf.cstatus, cstatus_of(ovf_state), __ATOMIC_RELAXED);
	__atomic_fetch_add(&ovf.count, 1, __ATOMIC_RELEASE);
}

/* Runs (so the counters count) until @n signals came or 2 s passed. */
static void wait_signals(int n)
{
	unsigned long long t0 = rdtsc();

	while (OVF(count) < n && rdtsc() - t0 < ms_ticks(2000))
		;
}

START_TEST(sim_overflow_signal_and_iresume)
{
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c;
	struct sigaction sa;
	__u32 cstatus;

	ck_assert_ptr_nonnull(vp);
	ovf_state = state_of(vp);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = ovf_handler;
	sa.sa_flags = SA_SIGINFO;
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	tsc_control(&c);
	model->imode(&c.cpu_control, IRESET_NEAR);
	c.si_signo = SIGUSR1;
	lib_control(vp, &c);

	wait_signals(1);
	ck_assert_int_eq(OVF(count), 1);
	ck_assert_int_eq(OVF(signo), SIGUSR1);
	ck_assert_int_eq(OVF(code), SI_PMC_OVF);
	ck_assert_uint_eq(OVF(mask), 1U << 1);	/* counter 1, the i-mode one */
	ck_assert_uint_eq(OVF(cstatus), 0);
	/* Stopped until IRESUME: every sum frozen, no further signal. */
	ck_assert_uint_eq(cstatus_of(ovf_state), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &a), 0);
	spin(ms_ticks(20));
	ck_assert_int_eq(vperfctr_read_sums(vp, &b), 0);
	ck_assert_mem_eq(&a, &b, SUMS_SIZE);
	ck_assert_int_eq(OVF(count), 1);
	ck_assert_uint_ge(a.pmc[1], IRESET_SPAN);

	ck_assert_int_eq(vperfctr_iresume(vp), 0);
	/* Counting again, unless a stall let it overflow again already. */
	cstatus = cstatus_of(ovf_state);
	ck_assert_msg(cstatus == perfctr_mk_cstatus(1, 1, 1) || OVF(count) == 2,
		      "cstatus %#x after iresume", cstatus);
	wait_signals(2);
	ck_assert_int_eq(OVF(count), 2);
	ck_assert_int_eq(OVF(code), SI_PMC_OVF);
	ck_assert_uint_eq(OVF(mask), 1U << 1);
	ck_assert_uint_eq(cstatus_of(ovf_state), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &b), 0);
	ck_assert_uint_gt(b.tsc, a.tsc);
	ck_assert_uint_ge(b.pmc[1], 2ULL * IRESET_SPAN);
}

/* An i-mode control that has not overflowed cannot be iresumed. */
START_TEST(sim_iresume_before_overflow_refused)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;

	ck_assert_ptr_nonnull(vp);
	signal(SIGUSR1, SIG_IGN);
	tsc_control(&c);
	model->imode(&c.cpu_control, IRESET_FAR);
	c.si_signo = SIGUSR1;
	lib_control(vp, &c);
	errno = 0;
	ck_assert_int_eq(vperfctr_iresume(vp), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(cstatus_of(state_of(vp)), perfctr_mk_cstatus(1, 1, 1));
}

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
	int nodump = *(int *)arg, ok, fd;
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c;
	struct vperfctr *vp;
	struct report r;
	struct kid t;

	(void)rd;
	(void)wr;
	if (setuid(NOBODY))
		return kid_fail(30);
	/* setuid() made us non-dumpable; our child inherits this. */
	if (prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(31);
	if (kid_spawn(&t, counting_kid, &nodump))
		return kid_fail(32);
	if (read(t.rd, &r, sizeof(r)) != sizeof(r))
		return 100 + kid_reap(&t);	/* its own step, offset */
	errno = 0;
	vp = vperfctr_open_tid(t.pid);
	if (nodump) {
		ok = !vp && errno == EACCES;
		fd = pfs_open(t.pid, "sums", O_RDONLY);
		ok = ok && fd < 0 && errno == EACCES;
	} else {
		ok = vp && !vperfctr_read_sums(vp, &s) &&
		     !memcmp(&s, &r.sums, sizeof(s)) &&
		     !vperfctr_read_control(vp, &c) &&
		     !memcmp(&c, &r.ctl, sizeof(c));
	}
	if (kid_reap(&t))
		return kid_fail(35);
	return ok ? 0 : 34;
}

START_TEST(remote_read_same_uid)
{
	int nodump = 0;
	struct kid k;

	kid_start(&k, unprivileged_reader, &nodump);
	kid_done(&k);
}

START_TEST(remote_read_not_dumpable_refused)
{
	int nodump = 1;
	struct kid k;

	kid_start(&k, unprivileged_reader, &nodump);
	kid_done(&k);
}

/* As nobody, reads root's (our) counters: EACCES; its own: allowed. */
static int other_uid_reader(int rd, int wr, void *arg)
{
	pid_t root_tid = *(pid_t *)arg;
	struct vperfctr_control c;
	struct vperfctr *vp;
	int fd;

	(void)rd;
	(void)wr;
	if (setuid(NOBODY) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(30);
	errno = 0;
	if (vperfctr_open_tid(root_tid) || errno != EACCES)
		return kid_fail(31);
	fd = pfs_open(root_tid, "sums", O_RDONLY);
	if (fd >= 0 || errno != EACCES)
		return kid_fail(32);
	fd = pfs_open(root_tid, "control", O_RDONLY);
	if (fd >= 0 || errno != EACCES)
		return kid_fail(33);
	vp = vperfctr_open();
	if (!vp)
		return kid_fail(34);
	tsc_control(&c);
	if (vperfctr_control(vp, &c))
		return kid_fail(35);
	return 0;
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
	uid_t suid = *(uid_t *)arg;
	struct vperfctr_control c;
	struct vperfctr *vp;
	char done = 1;

	if (setresuid(NOBODY, NOBODY, suid) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(40);
	vp = vperfctr_open();
	tsc_control(&c);
	if (!vp || vperfctr_control(vp, &c))
		return kid_fail(41);
	if (write(wr, &done, 1) != 1)
		return kid_fail(42);
	kid_wait_go(rd);
	return 0;
}

static int saved_uid_reader(int rd, int wr, void *arg)
{
	uid_t suid = *(uid_t *)arg;
	struct perfctr_sum_ctrs s;
	struct vperfctr *vp;
	struct kid t;
	char done;
	int ok, fd;

	(void)rd;
	(void)wr;
	if (kid_spawn(&t, saved_uid_target, arg))
		return kid_fail(30);
	if (read(t.rd, &done, 1) != 1)
		return 100 + kid_reap(&t);
	if (setresuid(NOBODY, NOBODY, NOBODY) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(31);
	errno = 0;
	vp = vperfctr_open_tid(t.pid);
	if (suid != NOBODY) {
		ok = !vp && errno == EACCES;
		fd = pfs_open(t.pid, "sums", O_RDONLY);
		ok = ok && fd < 0 && errno == EACCES;
	} else {
		ok = vp && !vperfctr_read_sums(vp, &s);
	}
	if (kid_reap(&t))
		return kid_fail(33);
	return ok ? 0 : 32;
}

START_TEST(remote_read_saved_uid_refused)
{
	uid_t suid = 0;
	struct kid k;

	kid_start(&k, saved_uid_reader, &suid);
	kid_done(&k);
}

START_TEST(remote_read_all_ids_allowed)
{
	uid_t suid = NOBODY;
	struct kid k;

	kid_start(&k, saved_uid_reader, &suid);
	kid_done(&k);
}

/*
 * Permission holds per request, not per open: a descriptor opened while
 * the target could be read stops working when the target turns itself
 * non-dumpable, as a setuid program would be.
 */
static int turning_target(int rd, int wr, void *arg)
{
	struct vperfctr_control c;
	struct vperfctr *vp = vperfctr_open();
	char b = 1;

	(void)arg;
	tsc_control(&c);
	if (!vp || vperfctr_control(vp, &c))
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
	int fd, ok;
	struct kid t;
	char b = 1;

	(void)rd;
	(void)wr;
	(void)arg;
	if (setuid(NOBODY) || prctl(PR_SET_DUMPABLE, 1, 0, 0, 0))
		return kid_fail(30);
	if (kid_spawn(&t, turning_target, NULL))
		return kid_fail(31);
	if (read(t.rd, &b, 1) != 1)
		return 100 + kid_reap(&t);
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
	struct kid k;

	kid_start(&k, recheck_reader, NULL);
	kid_done(&k);
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

static void stop_traced(pid_t pid)
{
	int status;

	ck_assert_int_eq(ptrace(PTRACE_INTERRUPT, pid, 0, 0), 0);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFSTOPPED(status));
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
	ck_assert_int_eq(put_control(ctl, &c1), -1);
	ck_assert_int_eq(errno, EPERM);
	errno = 0;
	ck_assert_int_eq(put_command(cmd, VPERFCTR_CMD_SUSPEND), -1);
	ck_assert_int_eq(errno, EPERM);
	get_control(ctl, &got);
	ck_assert_mem_eq(&got, &c0, CTL_SIZE);

	/* Traced but running: still not. */
	ck_assert_int_eq(ptrace(PTRACE_SEIZE, k.pid, 0, 0), 0);
	errno = 0;
	ck_assert_int_eq(put_control(ctl, &c1), -1);
	ck_assert_int_eq(errno, EPERM);
	get_control(ctl, &got);
	ck_assert_mem_eq(&got, &c0, CTL_SIZE);

	/* Stopped by us: allowed. */
	stop_traced(k.pid);
	ck_assert_msg(put_retry(ctl, &c1, sizeof(c1)) == CTL_SIZE, "control: %s",
		      strerror(errno));
	get_control(ctl, &got);
	ck_assert_mem_eq(&got, &c1, CTL_SIZE);
	suspend = VPERFCTR_CMD_SUSPEND;
	ck_assert_msg(put_retry(cmd, &suspend, sizeof(suspend)) == sizeof(suspend),
		      "suspend: %s", strerror(errno));
	ck_assert_int_eq(ptrace(PTRACE_DETACH, k.pid, 0, 0), 0);
	ck_assert_int_eq(write(k.wr, "g", 1), 1);
	kid_done(&k);
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
	stop_traced(k.pid);
	ck_assert_msg(put_retry(ctl, &c, sizeof(c)) == CTL_SIZE, "control: %s",
		      strerror(errno));
	ck_assert_int_eq(ptrace(PTRACE_DETACH, k.pid, 0, 0), 0);
	ck_assert_int_eq(write(k.wr, "g", 1), 1);
	kid_done(&k);
}

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

/* The tid disappears (ENOENT) and the kept fds say ESRCH to everything. */
static void check_gone(pid_t tid, const struct files *f)
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
	errno = 0;
	ck_assert_int_eq(pread(f->sums, &s, sizeof(s), 0), -1);
	ck_assert_int_eq(errno, ESRCH);
	errno = 0;
	ck_assert_int_eq(pread(f->ctl, &got, sizeof(got), 0), -1);
	ck_assert_int_eq(errno, ESRCH);
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
	struct perfctr_sum_ctrs s;
	pthread_t t;
	int fd;

	ck_assert_int_eq(pthread_create(&t, NULL, exiting_thread, &e), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(e.failed, 0);
	check_gone(e.tid, &e.f);
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
	check_gone(k.pid, &f);
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

#define PROBE_ARG	"--exec-probe"
#define PROBE_NEW_ARG	"--exec-new-set"
#define PROBE_GONE	10	/* no control, no sums */
#define PROBE_KEPT	11	/* the TSC control, still counting */

/* Runs as the program exec'd by exec_kid(): what survived the exec? */
static int exec_probe(void)
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
static int exec_new_set_probe(void)
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

/* --- the simulated model itself --- */

/* An HT P4's thread 1 has no counters: a thread that may run there gets none. */
START_TEST(sim_counters_refused_on_forbidden_cpus)
{
	struct vperfctr_control c, t, got;
	struct files f;
	cpu_set_t all;
	long i;

	files_open(&f, gettid());
	CPU_ZERO(&all);
	for (i = 0; i < ncpus; i++)
		CPU_SET(i, &all);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(all), &all), 0);
	full_control(&c);
	errno = 0;
	ck_assert_int_eq(put_control(f.ctl, &c), -1);
	ck_assert_int_eq(errno, EINVAL);
	get_control(f.ctl, &got);
	ck_assert(is_zero(&got, sizeof(got)));
	/* The TSC alone is fine anywhere. */
	tsc_control(&t);
	set_control(f.ctl, &t);
	/* Kept to CPU 0, the counters are allowed. */
	ck_assert_int_eq(pin(0), 0);
	set_control(f.ctl, &c);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
}

START_TEST(sim_model_known)
{
	ck_assert_msg(model, "unknown PERFCTR_SIM_MODEL %s", model_name);
	ck_assert_uint_ge(nrctrs, 2);
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

static Suite *vperfctr_suite(void)
{
	Suite *s = suite_create("vperfctr");
	TCase *tc;

	tc = tcase_create("files");
	tcase_add_test(tc, self_names_calling_thread);
	tcase_add_test(tc, no_such_thread);
	tcase_add_test(tc, control_reads_back);
	tcase_add_test(tc, control_read_size);
	tcase_add_test(tc, sums_read_size);
	suite_add_tcase(s, tc);

	tc = tcase_create("counting");
	tcase_add_test(tc, tsc_sleeping_thread_accrues_little);
	tcase_add_test(tc, tsc_spinning_thread_accrues_runtime);
	/* Parallel threads and migration need two CPUs; a UP has turns. */
	if (ncpus >= 2) {
		tcase_add_test(tc, threads_count_only_their_own);
		tcase_add_test(tc, migration_ping_pong);
	} else {
		tcase_add_test(tc, timeshared_threads_count_their_turns);
	}
	suite_add_tcase(s, tc);

	tc = tcase_create("state");
	tcase_add_test(tc, state_page_shows_cstatus);
	tcase_add_test(tc, mmap_equals_sums_when_stopped);
	tcase_add_test(tc, mmap_close_to_sums_when_running);
	tcase_add_test(tc, state_mmap_write_refused);
	tcase_add_test(tc, state_mmap_offset_refused);
	tcase_add_test(tc, state_mmap_length_refused);
	tcase_add_test(tc, state_mmap_other_thread_refused);
	tcase_add_test(tc, state_mmap_other_process_refused);
	suite_add_tcase(s, tc);

	tc = tcase_create("control");
	tcase_add_loop_test(tc, control_bad_write, 0, ARRAY_SIZE(bad_controls));
	tcase_add_test(tc, control_preserve);
	if (model) {
		tcase_add_loop_test(tc, sim_control_bad_write, 0,
				    ARRAY_SIZE(sim_bad_controls));
		tcase_add_test(tc, sim_control_busy_in_global_mode);
	}
	suite_add_tcase(s, tc);

	tc = tcase_create("command");
	tcase_add_loop_test(tc, command_bad_write, 0, ARRAY_SIZE(bad_commands));
	tcase_add_loop_test(tc, command_without_counters, 0, ARRAY_SIZE(all_commands));
	tcase_add_test(tc, command_suspend_resume);
	tcase_add_test(tc, command_clear);
	tcase_add_test(tc, command_iresume_needs_overflow);
	tcase_add_test(tc, command_unlink);
	if (model) {
		tcase_add_test(tc, sim_overflow_signal_and_iresume);
		tcase_add_test(tc, sim_iresume_before_overflow_refused);
	}
	suite_add_tcase(s, tc);

	tc = tcase_create("remote");
	tcase_add_checked_fixture(tc, same_uid_on, same_uid_off);
	tcase_add_test(tc, remote_read_as_root);
	tcase_add_test(tc, remote_read_same_uid);
	tcase_add_test(tc, remote_read_not_dumpable_refused);
	tcase_add_test(tc, remote_read_other_uid_refused);
	tcase_add_test(tc, remote_read_saved_uid_refused);
	tcase_add_test(tc, remote_read_all_ids_allowed);
	tcase_add_test(tc, remote_read_rechecked_per_request);
	tcase_add_test(tc, remote_change_needs_ptrace_stop);
	tcase_add_test(tc, remote_control_creates_counters);
	suite_add_tcase(s, tc);

	tc = tcase_create("lifetime");
	tcase_add_test(tc, exit_thread_with_live_counters);
	tcase_add_test(tc, exit_process_with_live_counters);
	tcase_add_test(tc, rapid_threads);
	tcase_add_test(tc, rapid_processes);
	tcase_add_test(tc, rapid_control_unlink);
	tcase_add_test(tc, exec_cloexec_removes_counters);
	tcase_add_test(tc, exec_keeps_counters_without_cloexec);
	if (model)
		tcase_add_test(tc, sim_exec_new_set_replaces_cloexec_set);
	suite_add_tcase(s, tc);

	if (model_name) {
		tc = tcase_create("sim");
		tcase_add_test(tc, sim_model_known);
		if (model && cpus_forbidden)
			tcase_add_test(tc, sim_counters_refused_on_forbidden_cpus);
		suite_add_tcase(s, tc);
	}
	return s;
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	if (argc > 1 && !strcmp(argv[1], PROBE_ARG))
		return exec_probe();

	if (vp_util_init())
		return EXIT_FAILURE;
	if (argc > 1 && !strcmp(argv[1], PROBE_NEW_ARG))
		return model ? exec_new_set_probe() : 15;
	/* Counters only where the model has them: P4 thread 1 has none. */
	if (model && cpus_forbidden && pin(0))
		return EXIT_FAILURE;

	sr = srunner_create(vperfctr_suite());
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
