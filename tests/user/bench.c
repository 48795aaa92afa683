// SPDX-License-Identifier: GPL-2.0-only
/*
 * bench [name...]: instructions per operation, one "BENCH <name> <n>" line
 * per figure, for a test VM run with -icount shift=0,sleep=off, where
 * virtual time advances with each instruction executed. The TSC runs at
 * whatever rate QEMU gives it, so a loop of known instruction count first
 * calibrates TSC ticks per instruction.
 *
 * Each figure runs in a child process of its own, so no counters or
 * events of one figure are live during another, pinned to CPU 0 (the
 * simulated P4's thread 1 has no counters). Figures are the median of
 * several repetitions, each less the same loop with an empty body.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/perf_event.h>

#include "check_util.h"

#define REPS	9
/*
 * Compiled as if called from anywhere: the timed loops and the operations
 * they call stay as written, with no inlining or specialising.
 */
#define opaque		__attribute__((noipa))

static double ticks_per_insn;
static const char *sim_model;	/* $PERFCTR_SIM_MODEL */

/* --- calibration --- */

/* @n iterations of exactly two instructions; @n == 0 skips the loop. */
static opaque unsigned long long time_loop(unsigned long n)
{
	unsigned long long t0, t1;

	t0 = rdtsc();
	asm volatile("test %0, %0\n\t"
		     "jz 2f\n"
		     "1:\tdec %0\n\t"
		     "jnz 1b\n"
		     "2:"
		     : "+r" (n) : : "cc");
	t1 = rdtsc();
	return t1 - t0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/*
 * An interrupt in the loop only adds ticks, so the fastest of several
 * short runs is the calibration.
 */
static void calibrate(void)
{
	const unsigned long n = 100000;
	double best = 0, v;
	int i;

	time_loop(n);			/* warm up */
	for (i = 0; i < REPS; i++) {
		v = (double)(time_loop(n) - time_loop(0)) / (2.0 * n);
		if (!i || v < best)
			best = v;
	}
	ticks_per_insn = best;
}

/* --- timing operations --- */

typedef void (*op_fn)(void *arg);

static opaque unsigned long long time_ops(op_fn op, void *arg, unsigned int k)
{
	unsigned long long t0, t1;
	unsigned int i;

	t0 = rdtsc();
	for (i = 0; i < k; i++)
		op(arg);
	t1 = rdtsc();
	return t1 - t0;
}

static opaque void op_empty(void *arg)
{
	asm volatile("" : : "r" (arg) : "memory");
}

/* Instructions per call of @op, loop and call overhead taken out. */
static long long measure(op_fn op, void *arg, unsigned int k)
{
	double v[REPS];
	int i;

	time_ops(op, arg, k);		/* warm up: faults, caches */
	for (i = 0; i < REPS; i++) {
		double d = (double)time_ops(op, arg, k) -
			   (double)time_ops(op_empty, arg, k);

		v[i] = d / k / ticks_per_insn;
	}
	return (long long)(median(v, REPS) + 0.5);
}

/* --- perfctr controls --- */

#define EN_CPL	0x00430000U	/* EN | OS | USR */
#define P4_CCCR(sel)	((1U << 12) | ((sel) << 13) | (3U << 16))
#define P4_ESCR		((0x13U << 25) | (1U << 9) | 0xC)

/* Two a-mode counters of the simulated family, or -1. */
static int sim_counters(struct perfctr_cpu_control *c)
{
	if (!sim_model)
		return -1;
	c->nractrs = 2;
	if (!strcmp(sim_model, "k7")) {
		c->pmc_map[0] = 0;
		c->evntsel[0] = EN_CPL | 0x76;
		c->pmc_map[1] = 3;
		c->evntsel[1] = EN_CPL | 0xC0;
	} else if (!strcmp(sim_model, "arch-v2")) {
		c->pmc_map[0] = 1;
		c->evntsel[0] = EN_CPL | 0x3C;
		c->pmc_map[1] = PERFCTR_X86_FIXED_PMC | 1;
		c->evntsel[1] = 0x3;
	} else if (!strcmp(sim_model, "p4-model3-ht")) {
		c->pmc_map[0] = 0x80000000U | 0;
		c->evntsel[0] = P4_CCCR(6);
		c->p4.escr[0] = P4_ESCR;
		c->pmc_map[1] = 0x80000000U | 12;
		c->evntsel[1] = P4_CCCR(4);
		c->p4.escr[1] = P4_ESCR;
	} else {
		return -1;
	}
	return 0;
}

/* The TSC, plus two counters if @pmcs, with @flags; 0 or -1. */
static int make_control(struct vperfctr_control *c, int pmcs, __u32 flags)
{
	memset(c, 0, sizeof(*c));
	c->cpu_control.tsc_on = 1;
	c->flags = flags;
	if (pmcs && sim_counters(&c->cpu_control)) {
		fprintf(stderr, "bench: no counters for PERFCTR_SIM_MODEL=%s\n",
			sim_model ? sim_model : "(unset)");
		return -1;
	}
	return 0;
}

/* The caller's counters: the TSC, plus two counters if @pmcs. */
static struct vperfctr *start_counters_flags(int pmcs, __u32 flags)
{
	struct vperfctr_control c;
	struct vperfctr *vp;

	if (make_control(&c, pmcs, flags))
		return NULL;
	vp = vperfctr_open();
	if (!vp || vperfctr_control(vp, &c)) {
		perror("bench: vperfctr");
		return NULL;
	}
	return vp;
}

static struct vperfctr *start_counters(int pmcs)
{
	return start_counters_flags(pmcs, 0);
}

/* A task-clock event on the caller, enabled unless @disabled; or -1. */
static int task_clock_open(int disabled)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_TASK_CLOCK;
	attr.disabled = disabled;
	return syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0);
}

static int task_clock_event(void)
{
	int fd = task_clock_open(0);

	if (fd < 0)
		perror("bench: perf_event_open");
	return fd;
}

/* --- the read figures --- */

/* Makes @v look used, so the compiler keeps what computed it. */
static inline void consume(unsigned long long v)
{
	asm volatile("" : : "r" (v));
}

static void op_read_tsc(void *arg)
{
	consume(vperfctr_read_tsc(arg));
}

static void op_read_ctrs(void *arg)
{
	struct perfctr_sum_ctrs s;

	vperfctr_read_ctrs(arg, &s);
	consume(s.pmc[1]);
}

static void op_read_sums(void *arg)
{
	struct perfctr_sum_ctrs s;

	vperfctr_read_sums(arg, &s);
	consume(s.tsc);
}

static void op_perf_read(void *arg)
{
	unsigned long long v;

	if (read(*(int *)arg, &v, sizeof(v)) == sizeof(v))
		consume(v);
}

static void op_clock_gettime(void *arg)
{
	struct timespec ts;

	(void)arg;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	consume(ts.tv_nsec);
}

static long long fig_read_mmap_tsc(void)
{
	struct vperfctr *vp = start_counters(0);

	return vp ? measure(op_read_tsc, vp, 2000) : -1;
}

static long long fig_read_mmap_tsc_2pmc(void)
{
	struct vperfctr *vp = start_counters(1);

	return vp ? measure(op_read_ctrs, vp, 2000) : -1;
}

static long long fig_read_sums_file(void)
{
	struct vperfctr *vp = start_counters(0);

	return vp ? measure(op_read_sums, vp, 500) : -1;
}

static long long fig_perf_event_read(void)
{
	int fd = task_clock_event();

	return fd >= 0 ? measure(op_perf_read, &fd, 500) : -1;
}

static long long fig_clock_gettime(void)
{
	return measure(op_clock_gettime, NULL, 2000);
}

/* --- context switches --- */

enum ctxsw_kind { CTXSW_NONE, CTXSW_PERFCTR, CTXSW_PERF_EVENT };

struct pingpong {
	enum ctxsw_kind kind;
	int ping[2], pong[2];	/* to the echo thread, back */
	int failed;
};

/* What each of the two threads has live while they switch. */
static int ctxsw_setup(enum ctxsw_kind kind)
{
	switch (kind) {
	case CTXSW_PERFCTR:
		return start_counters(!!sim_model) ? 0 : -1;
	case CTXSW_PERF_EVENT:
		return task_clock_event() >= 0 ? 0 : -1;
	default:
		return 0;
	}
}

static void *echo_thread(void *arg)
{
	struct pingpong *p = arg;
	char b;

	if (ctxsw_setup(p->kind)) {
		p->failed = 1;
		close(p->pong[1]);	/* the other side sees EOF */
		return NULL;
	}
	while (read(p->ping[0], &b, 1) == 1 && b != 'q')
		if (write(p->pong[1], &b, 1) != 1)
			break;
	return NULL;
}

/* One round trip: two switches between two threads on one CPU. */
static void op_round_trip(void *arg)
{
	struct pingpong *p = arg;
	char b = 'x';

	if (write(p->ping[1], &b, 1) != 1 || read(p->pong[0], &b, 1) != 1)
		p->failed = 1;
}

static long long ctxsw(enum ctxsw_kind kind)
{
	struct pingpong p = { .kind = kind };
	long long n = -1;
	pthread_t t;
	char q = 'q';

	if (pipe(p.ping) || pipe(p.pong))
		return -1;
	if (ctxsw_setup(kind))
		return -1;
	/* The echo thread inherits our CPU 0 only affinity. */
	if (pthread_create(&t, NULL, echo_thread, &p))
		return -1;
	op_round_trip(&p);		/* the echo thread is set up */
	if (!p.failed)
		n = measure(op_round_trip, &p, 200);
	if (write(p.ping[1], &q, 1) != 1)
		return -1;
	pthread_join(t, NULL);
	return p.failed ? -1 : n;
}

static long long fig_ctxsw_none(void)
{
	return ctxsw(CTXSW_NONE);
}

static long long fig_ctxsw_perfctr(void)
{
	return ctxsw(CTXSW_PERFCTR);
}

static long long fig_ctxsw_perf_event(void)
{
	return ctxsw(CTXSW_PERF_EVENT);
}

/* --- fork and exit, starting to count --- */

/* fork(), the child's _exit() and the parent's waitpid(). */
static void op_fork_exit(void *arg)
{
	pid_t pid = fork();

	(void)arg;
	if (!pid)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
}

static long long fig_fork_exit_none(void)
{
	return measure(op_fork_exit, NULL, 20);
}

/*
 * The same with an inheriting set on the parent: each child gets a set
 * at fork and adds its sums to the parent's at exit.
 */
static long long fig_fork_exit_inherit(void)
{
	struct vperfctr *vp = start_counters_flags(!!sim_model,
						   VPERFCTR_CONTROL_INHERIT);

	return vp ? measure(op_fork_exit, NULL, 20) : -1;
}

struct control_arg {
	struct vperfctr *vp;
	struct vperfctr_control c;
	int failed;
};

static void op_control_write(void *arg)
{
	struct control_arg *a = arg;

	a->failed |= vperfctr_control(a->vp, &a->c) != 0;
}

/* Writing a control that starts counting, over one already running. */
static long long fig_control_write(void)
{
	struct control_arg a = { .vp = start_counters(!!sim_model) };
	long long n;

	if (!a.vp || make_control(&a.c, !!sim_model, 0))
		return -1;
	n = measure(op_control_write, &a, 200);
	return a.failed ? -1 : n;
}

/* perf's way to start counting: open a task-clock event, enable, close. */
static void op_perf_open_enable(void *arg)
{
	int fd = task_clock_open(1);

	if (fd < 0 || ioctl(fd, PERF_EVENT_IOC_ENABLE, 0))
		*(int *)arg = 1;
	if (fd >= 0)
		close(fd);
}

static long long fig_perf_event_open_enable(void)
{
	int failed = 0;
	long long n;

	op_perf_open_enable(&failed);
	if (failed) {
		perror("bench: perf_event_open");
		return -1;
	}
	n = measure(op_perf_open_enable, &failed, 200);
	return failed ? -1 : n;
}

/* --- main --- */

struct figure {
	const char *name;
	int needs_sim;		/* counters to read: the simulated PMU */
	long long (*run)(void);
};

static const struct figure figures[] = {
	{ "read_mmap_tsc", 0, fig_read_mmap_tsc },
	{ "read_mmap_tsc_2pmc", 1, fig_read_mmap_tsc_2pmc },
	{ "read_sums_file", 0, fig_read_sums_file },
	{ "perf_event_read", 0, fig_perf_event_read },
	{ "clock_gettime", 0, fig_clock_gettime },
	{ "ctxsw_none", 0, fig_ctxsw_none },
	{ "ctxsw_perfctr", 0, fig_ctxsw_perfctr },
	{ "ctxsw_perf_event", 0, fig_ctxsw_perf_event },
	/* ctxsw_perfctr with two simulated counters: what F5's gating adds. */
	{ "ctxsw_perfctr_sim", 1, fig_ctxsw_perfctr },
	{ "fork_exit_none", 0, fig_fork_exit_none },
	{ "fork_exit_inherit", 0, fig_fork_exit_inherit },
	{ "control_write", 0, fig_control_write },
	{ "perf_event_open_enable", 0, fig_perf_event_open_enable },
	/* The same two with two simulated counters in the control. */
	{ "fork_exit_inherit_sim", 1, fig_fork_exit_inherit },
	{ "control_write_sim", 1, fig_control_write },
};

/* In a child of its own, so nothing it starts outlives it. */
static int run_figure(const struct figure *f)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		long long n = f->run();

		if (n < 0) {
			fprintf(stderr, "bench: %s failed\n", f->name);
			_exit(1);
		}
		printf("BENCH %s %lld\n", f->name, n);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -1;
}

static const struct figure *find_figure(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(figures); i++)
		if (!strcmp(figures[i].name, name))
			return &figures[i];
	return NULL;
}

static void print_names(void)
{
	size_t i;

	fprintf(stderr, "usage: bench [name...]\nnames:");
	for (i = 0; i < ARRAY_SIZE(figures); i++)
		fprintf(stderr, " %s", figures[i].name);
	fprintf(stderr, "\n");
}

int main(int argc, char **argv)
{
	const struct figure *f;
	int i, failed = 0;
	cpu_set_t cpu0;

	sim_model = getenv("PERFCTR_SIM_MODEL");
	for (i = 1; i < argc; i++) {
		if (!find_figure(argv[i])) {
			print_names();
			return 2;
		}
	}
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	if (sched_setaffinity(0, sizeof(cpu0), &cpu0)) {
		perror("bench: sched_setaffinity");
		return 1;
	}
	calibrate();
	if (ticks_per_insn <= 0) {
		fprintf(stderr, "bench: calibration failed\n");
		return 1;
	}
	fprintf(stderr, "bench: %.4f TSC ticks per instruction\n", ticks_per_insn);

	if (argc > 1) {
		for (i = 1; i < argc; i++) {
			f = find_figure(argv[i]);
			if (f->needs_sim && !sim_model) {
				fprintf(stderr, "bench: %s needs PERFCTR_SIM_MODEL\n", f->name);
				failed = 1;
				continue;
			}
			failed |= run_figure(f) != 0;
		}
		return failed;
	}
	for (f = figures; f < figures + ARRAY_SIZE(figures); f++) {
		if (f->needs_sim && !sim_model) {
			fprintf(stderr, "bench: %s skipped: no simulated PMU\n", f->name);
			continue;
		}
		failed |= run_figure(f) != 0;
	}
	return failed;
}
