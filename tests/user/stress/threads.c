// SPDX-License-Identifier: GPL-2.0-only
/*
 * Counting threads: more of them than CPUs, each with its own set, with
 * heavy (spinning) and light (mostly sleeping) work, changing its control,
 * commands and CPU affinity as it goes; and a thread without a set whose
 * RDPMC must fault.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "set.h"
#include "simpmu_user.h"

static void churn_affinity(unsigned int *seed)
{
	unsigned int pick = rnd(seed, 3);
	cpu_set_t set;

	CPU_ZERO(&set);
	if (pick != 1)
		CPU_SET(0, &set);
	if (pick != 0 && ncpus > 1)
		CPU_SET(1, &set);
	/* EINVAL: CPU 1 alone while it is offline. */
	if (sched_setaffinity(0, sizeof(set), &set) && errno != EINVAL)
		unexpected("sched_setaffinity");
	else
		count(OP_AFFINITY);
}

static void *counting_thread(void *arg)
{
	int light = (long)arg;
	struct vset v;

	if (vset_open(&v))
		return NULL;
	vset_control(&v, 0, 0);
	while (running()) {
		if (light)
			usleep(500 + rnd(&v.seed, 1500));
		else
			spin(ms_ticks(1) / 4 + rnd(&v.seed, ms_ticks(2)));
		vset_check(&v, light ? "light thread" : "heavy thread");
		vset_churn(&v, 0);
		vset_follow_phase(&v, 0);
		if (!rnd(&v.seed, 4))
			churn_affinity(&v.seed);
		if (!rnd(&v.seed, 2)) {
			sched_yield();
			count(OP_SWITCH);
		}
	}
	vset_check(&v, "last read");
	if (v.have)
		count(OP_EXIT);
	vset_close(&v);
	return NULL;
}

/* @nthreads threads, every other one light; returns when they are done. */
void role_threads(int nthreads, int light)
{
	pthread_t t[16];
	int i;

	if (nthreads > (int)ARRAY_SIZE(t))
		nthreads = ARRAY_SIZE(t);
	for (i = 0; i < nthreads; i++)
		if (pthread_create(&t[i], NULL, counting_thread,
				   (void *)(long)(light && (i & 1)))) {
			unexpected("pthread_create");
			nthreads = i;
		}
	for (i = 0; i < nthreads; i++)
		pthread_join(t[i], NULL);
}

/* --- RDPMC without a set --- */

static sigjmp_buf rdpmc_env;

static void on_fault(int sig)
{
	siglongjmp(rdpmc_env, sig);
}

static int try_rdpmc(void)
{
	unsigned int lo, hi;
	int sig = sigsetjmp(rdpmc_env, 1);

	if (sig)
		return sig;
	asm volatile("rdpmc" : "=a" (lo), "=d" (hi) : "c" (0));
	return 0;
}

/*
 * The simulated PMU's CR4.PCE: whether user RDPMC works on the CPU this
 * thread ran on all along the look (-1: it moved or the entry changed).
 */
static int sim_user_read(const struct simpmu_user_cpu *page)
{
	unsigned int cpu = sched_getcpu();
	__u32 seq, on;

	if (cpu >= SIMPMU_USER_CPUS)
		return -1;
	seq = __atomic_load_n(&page[cpu].seq, __ATOMIC_ACQUIRE);
	on = __atomic_load_n(&page[cpu].user_read, __ATOMIC_ACQUIRE);
	if ((seq & 1) || (unsigned int)sched_getcpu() != cpu ||
	    __atomic_load_n(&page[cpu].seq, __ATOMIC_ACQUIRE) != seq)
		return -1;
	return on;
}

/* A thread without a set, among counting ones: RDPMC must fault. */
void role_rdpmc(void)
{
	const struct simpmu_user_cpu *page = NULL;
	struct sigaction sa;
	unsigned int seed = getpid();
	int fd = open("/dev/perfctr_simpmu", O_RDONLY);
	int sig;

	if (fd >= 0) {
		page = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
		close(fd);
		if (page == MAP_FAILED)
			page = NULL;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fault;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGILL, &sa, NULL);
	while (running()) {
		sig = try_rdpmc();
		if (sig == SIGSEGV)
			count(OP_RDPMC);
		else
			bad("RDPMC without a set: %s\n",
			    sig ? strsignal(sig) : "no fault");
		if (page && sim_user_read(page) == 1)
			bad("user RDPMC on where a thread without a set runs\n");
		if (rnd(&seed, 2))
			sched_yield();
		else
			spin(rnd(&seed, ms_ticks(1)));
	}
}

/*
 * Not run by default: a set made again right after an unlink, then a
 * sleep; the new set must not count the sleep.
 */
void role_relink(void)
{
	struct vset v;
	int i;

	if (vset_open(&v))
		return;
	while (running()) {
		vset_control(&v, 0, 0);
		for (i = 0; i < 3; i++) {
			usleep(2000);
			vset_check(&v, "relink");
		}
		vset_unlink(&v);
		if (!rnd(&v.seed, 2))
			vset_check(&v, "unlinked");
	}
}
