/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr_stress: many threads and processes using the module at once
 * for a bounded time (testing.rst, "The stress run"). Every role runs in
 * processes of its own and adds to one shared table of figures; main.c
 * prints it and decides the result.
 */
#ifndef _PERFCTR_STRESS_H
#define _PERFCTR_STRESS_H

#include <errno.h>
#include <stdio.h>
#include <sys/types.h>

#include "check_util.h"

/* What the figures count, one slot each. */
enum op {
	OP_SWITCH,	/* yields and sleeps of counting threads */
	OP_AFFINITY,	/* sched_setaffinity() of a counting thread */
	OP_CONTROL,	/* control writes that took */
	OP_CTL_BUSY,	/* control writes refused EBUSY (global mode) */
	OP_SUSPEND,
	OP_RESUME,
	OP_CLEAR,
	OP_UNLINK,
	OP_SET_MADE,	/* sets made by a control write on a thread without */
	OP_READ,	/* sums files read by their owner */
	OP_FASTREAD,	/* state page reads by their owner */
	OP_FORK,	/* members made by an inheriting set */
	OP_EXEC,
	OP_EXIT,	/* threads and processes that exited with a set */
	OP_TRACE_STOP,	/* tracee stops a tracer looked at */
	OP_TRACE_READ,	/* a stopped tracee's sums read by its tracer */
	OP_TRACE_CTL,	/* controls written by a tracer */
	OP_TRACE_BUSY,	/* ... refused EBUSY (not yet switched out) */
	OP_GLOBAL,	/* global-mode controls that took */
	OP_GLOBAL_BUSY,	/* ... refused EBUSY (per-thread sets hold it) */
	OP_GLOBAL_READ,
	OP_PERFMON,	/* /dev/perfmon start-read-stop cycles */
	OP_PERFMON_BUSY,/* ... PMIOSTART refused EBUSY */
	OP_RDPMC,	/* RDPMC without a set, faulted as it must */
	OP_OFFLINE,	/* CPU 1 taken offline and back */
	OP_ERRORS,	/* unexpected errnos */
	OP_BAD,		/* broken invariants */
	OP_NR
};

struct stats {
	unsigned long long n[OP_NR];
	unsigned long long cpu_excess;	/* the most a sum passed CPU time by */
};

extern struct stats *stats;	/* shared by every process of the run */
extern unsigned long long t_end;	/* the TSC at which roles stop */
extern unsigned long long t_start;
extern const char *self_exe;
extern int tracer_controls;
extern int tracee_ops;

static inline void count(enum op op)
{
	__atomic_fetch_add(&stats->n[op], 1, __ATOMIC_RELAXED);
}

static inline int running(void)
{
	return rdtsc() < t_end;
}

static inline void note_excess(unsigned long long ticks)
{
	unsigned long long old = __atomic_load_n(&stats->cpu_excess,
						 __ATOMIC_RELAXED);

	while (ticks > old &&
	       !__atomic_compare_exchange_n(&stats->cpu_excess, &old, ticks, 0,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

/*
 * A sum may pass its thread's CPU time by this much (on top of half of
 * it): the sums also count the switch window after the scheduler stops
 * charging the thread, which a host stall of the vCPU stretches (20 ms
 * measured with the host's cores busy, 60 ms seen; testing.rst, "The
 * stress run").
 */
#define CPU_SLACK_MS	100

/* An errno that the documentation does not give for this request. */
#define unexpected(what) \
	do { \
		count(OP_ERRORS); \
		fprintf(stderr, "stress: %s: %s (%s:%d)\n", (what), \
			strerror(errno), __FILE__, __LINE__); \
	} while (0)

/* A broken invariant. */
#define bad(...) \
	do { \
		count(OP_BAD); \
		fprintf(stderr, "stress: BAD: " __VA_ARGS__); \
	} while (0)

/*
 * Global mode and counters in per-thread sets exclude each other, so the
 * run takes turns: in even phases threads may ask for counters, in odd
 * ones global mode takes them (per-thread sets count the TSC only).
 */
#define PHASE_MS	2000
int phase(void);
unsigned long long phase_no(void);
int phase_for_counters(void);
unsigned long long phase_left_ms(void);
unsigned int rnd(unsigned int *seed, unsigned int n);

/* The roles, each in a process of its own; each returns when t_end passes. */
void role_threads(int nthreads, int light);
void role_inherit(void);
void role_tracer(void);
void role_global(void);
void role_perfmon(void);
void role_hotplug(void);
void role_rdpmc(void);
void role_relink(void);
int exec_child(int argc, char **argv);

#endif /* _PERFCTR_STRESS_H */
