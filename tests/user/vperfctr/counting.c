// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "counting" case: what the TSC and the counters
 * count for sleeping, spinning, parallel, timeshared and migrating
 * threads.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vperfctr.h"

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

	t->vp = lib_open_full(&c, &t->n);
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

/*
 * The simulated counters count TSC cycles while enabled: from @a to @b
 * each counted the TSC's @d, within 10%.
 */
static int pmcs_track(struct timing *t, const struct perfctr_sum_ctrs *a,
		      const struct perfctr_sum_ctrs *b, unsigned long long d)
{
	unsigned int i;

	for (i = 0; i < t->n; i++) {
		if (!within(b->pmc[i] - a->pmc[i], d, 10)) {
			snprintf(t->why, sizeof(t->why), "pmc%u %llu for tsc %llu", i,
				 b->pmc[i] - a->pmc[i], d);
			return 0;
		}
	}
	return 1;
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

	ck_assert_int_eq(vperfctr_read_sums(t->vp, &a), 0);
	busy = spin(ms_ticks(200));
	ck_assert_int_eq(vperfctr_read_sums(t->vp, &b), 0);
	d = b.tsc - a.tsc;
	if (!within(d, busy, 10)) {
		snprintf(t->why, sizeof(t->why), "tsc %llu for %llu busy", d, busy);
		return 0;
	}
	return pmcs_track(t, &a, &b, d);
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
	return pmcs_track(t, &a, &b, d);
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

void vp_counting_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "counting", NULL, NULL);

	tcase_add_test(tc, tsc_sleeping_thread_accrues_little);
	tcase_add_test(tc, tsc_spinning_thread_accrues_runtime);
	/* Parallel threads and migration need two CPUs; a UP has turns. */
	if (ncpus >= 2) {
		tcase_add_test(tc, threads_count_only_their_own);
		tcase_add_test(tc, migration_ping_pong);
	} else {
		tcase_add_test(tc, timeshared_threads_count_their_turns);
	}
}
