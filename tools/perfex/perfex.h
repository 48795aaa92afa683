/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfex: what its parts share. perfex.c reads the command line and
 * lists events; run.c turns the events into a control and counts a
 * command with it; print.c prints the counts as perf stat would;
 * compat26.c takes perfctr 2.6's event arguments; ibs.c does IBS
 * (Documentation/perfctr/perfex.rst).
 */
#ifndef _PERFEX_H
#define _PERFEX_H

#include <stdio.h>
#include <sys/resource.h>

#include "libperfctr.h"

/* Exit statuses of perfex's own (the command's are passed on). */
#define EX_FAIL		1	/* perfex could not count */
#define EX_USAGE	2	/* bad command line, as a shell's builtins */
#define EX_NOEXEC	126	/* the command cannot be executed */
#define EX_NOTFOUND	127	/* no such command */

/* One perfctr 2.6 event, EVNTSEL[/ESCR][@PMC] (compat26.c). */
struct ev26 {
	__u32 evntsel, escr, pmc;
	int has_escr, has_pmc;
	char text[64];		/* as given */
};

struct opts {
	int list, info, verbose, print_control, table, json;
	const char *cpuid;
	const char *sep;	/* -x: CSV with this separator */
	const char *output;	/* -o */
	unsigned int repeat;	/* -r */
	char events[4096];	/* -e, joined with commas */
	char **cmd;		/* the command and its arguments */
	struct perfctr_ibs_control ibs;	/* --ibs-*: flags 0, none */
	struct ev26 ev26[PERFCTR_NR_PMCS];	/* -e in 2.6's form */
	unsigned int n26;
	__u32 p4pe, p4pmv;	/* --p4pe, --p4pmv */
	int has_p4pe, has_p4pmv;
	int all_cpus;		/* -a */
	const char *cpu_list;	/* -C */
	int per_cpu;		/* -A */
	const char *pid_list;	/* -p */
	const char *thread_list;	/* -t */
	unsigned int interval_ms;	/* -I; 0: one count at the end */
	int per_thread;		/* --per-thread */
	char metrics[1024];	/* -M, joined with commas */
	int list_metrics;	/* -l --metrics */
};

/* The CPUs -a and -C may count (global mode's read gives as many). */
#define MAX_CPUS	4096

/* perf's software events that perfex gives (software.c). */
enum {
	SW_TASK_CLOCK, SW_CONTEXT_SWITCHES, SW_CPU_MIGRATIONS, SW_PAGE_FAULTS,
	SW_MINOR_FAULTS, SW_MAJOR_FAULTS, SW_NR
};

#define MAX_ROWS	(PERFCTR_NR_PMCS + 8)

/* One row of the output: a software event, or the events' idx-th. */
struct plan_row {
	int sw;			/* SW_*, or -1: set.ev[idx] */
	unsigned int idx;
	char text[32];		/* a software event's name, as given */
};

/* A metric of -M (metrics.c). */
#define MAX_METRICS	16

struct plan_metric {
	const char *name;
	const char *expr;	/* MetricExpr: the table's string */
	double scale;		/* ScaleUnit's factor, else 1 */
	int decimals;		/* perf's: 1 with a ScaleUnit, else 2 */
	char label[160];	/* "UNIT  NAME", or "NAME": perf's metric unit */
	char first[128];	/* its first event: the row it is printed on */
};

struct ival;

/* What a run counts, and how its rows are named. */
struct plan {
	struct vperfctr_control ctl;
	struct perfctr_event_set set;	/* set.ev[i]: row i, its counter */
	int counted;		/* 0: the events are shown unsupported */
	struct perfctr_info info;
	unsigned long long tsc_khz;	/* TSC ticks per ms; 0: unknown */
	struct perfctr_ibs_control ibs;	/* the child's IBS; flags 0: none */
	int print_counts;	/* 0: IBS alone, no counts asked for */
	int raw26;		/* perfctr 2.6's events: the control as given */
	struct plan_row rows[MAX_ROWS];	/* in the order printed */
	unsigned int nrows;
	char title[272];	/* -a, -C: the header's, quoted */
	struct ival *ival;	/* -I: where the intervals go; NULL */
	struct thread_rows *threads;	/* --per-thread: filled; NULL */
	struct plan_metric metrics[MAX_METRICS];	/* -M's */
	unsigned int nmetrics;
};

/* One run's totals: the command's own plus its members'. */
struct counts {
	unsigned long long tsc;
	unsigned long long ev[PERFCTR_NR_PMCS];	/* by row */
	double elapsed;		/* seconds, from go to waitpid() */
	double sw[SW_NR];	/* task-clock in ns; NAN: not known */
	int dropped;		/* the counters were removed at exec */
};

/* Mean and spread over the runs, one per row (Welford's method). */
struct stat_acc {
	unsigned int n;
	double mean, m2;
};

struct stats {
	unsigned int runs;
	int dropped;
	struct stat_acc ev[PERFCTR_NR_PMCS], tsc, elapsed, sw[SW_NR];
};

/*
 * -I: the intervals printed so far. Each is the counts since the last,
 * from the cumulative counts it is given (print_interval()).
 */
struct ival {
	const struct opts *o;
	FILE *f;
	const struct plan *p;
	struct counts prev;	/* cumulative, at the last interval */
	unsigned int n;		/* intervals printed */
};

/* --per-thread: each thread's own final sums, in the order they exited. */
struct thread_row {
	pid_t tid;
	char comm[16];
	struct perfctr_sum_ctrs s;
	int counted;		/* 0: it had no set of ours */
};

struct thread_rows {
	struct thread_row *v;
	unsigned int n, cap;
	unsigned int lost;	/* exited without a row: no memory */
};

/* Where the IBS samples go, and what the ring said at the end. */
struct ibs_sink {
	FILE *f;
	const char *sep;	/* -x SEP's, or "," */
	int json;		/* -j */
	unsigned long long written;
	struct vperfctr_ibs_stats stats;
	int done;		/* stats are final */
	int failed;		/* a drain failed: samples are missing */
};

/* run.c */
unsigned int default_modes(void);
const struct perfctr_event_table *pick_table(const char *cpuid);
int make_plan(const struct opts *o, struct plan *p);
int run_command(const struct plan *p, char **cmd, struct counts *c,
		int *status, struct ibs_sink *sink);
int exec_failed(const char *cmd, int err);

/* window.c: -a, -C, -p, -t count while a command runs, or until ^C. */
struct window_ops {
	int (*begin)(void *arg);	/* 0, or perfex's exit status */
	int (*tick)(void *arg);		/* at each nap; 1: nothing is left */
	int (*end)(void *arg);		/* 0, or perfex's exit status */
	long (*nap)(void *arg);		/* ns to the next tick; NULL: 50 ms */
};

int count_window(char **cmd, int *status, double *elapsed,
		 const struct window_ops *ops, void *arg);

/* system.c */
int sys_count(const struct opts *o, struct plan *p, FILE *out);

/* attach.c */
int attach_count(const struct opts *o, struct plan *p, FILE *out);
void one_line(FILE *f, const char *prefix, const char *text);

/* ibs.c */
#define IBS_RING_PAGES	32	/* 1024 samples between drains */
int parse_maxcnt(const char *opt, const char *arg, unsigned long max,
		 __u32 *val);
int ibs_engines(const struct perfctr_ibs_control *c);
int check_ibs_opts(const struct opts *o);
int ibs_plan_check(const struct perfctr_ibs_control *c, unsigned int caps);
void ibs_refused(const struct perfctr_ibs_control *c, int err, int ring);
void ibs_header(struct ibs_sink *k);
int ibs_follow(struct vperfctr_ibs_ring *r, pid_t pid, int *status,
	       struct rusage *ru, struct ibs_sink *k);
void ibs_summary(const struct ibs_sink *k);

/* compat26.c: perfctr 2.6's events and --p4pe, --p4pmv */
int p26_is_event(const char *arg);
int p26_add_event(struct opts *o, const char *arg);
int p26_pebs(struct opts *o, int vert, const char *opt, const char *arg);
int p26_check_opts(const struct opts *o);
int p26_plan(const struct opts *o, struct vperfctr_control *ctl,
	     struct perfctr_event_set *set);

/* threads.c */
struct thread_row *thread_row_new(struct thread_rows *t);
int threads_seize(pid_t pid);
int threads_follow(pid_t pid, int *status, struct rusage *ru,
		   struct thread_rows *t);

/* software.c */
const char *sw_name(int kind);
int sw_split(struct plan *p, const char *events, char *pmu, size_t size);
void sw_default_rows(struct plan *p, int cpus);
int sw_none(const struct plan *p);
void sw_from_rusage(const struct rusage *ru, double *sw);
void sw_from_proc(pid_t pid, double *sw);

/* metrics.c */
int metrics_plan(const struct opts *o, struct plan *p, char *events,
		 size_t size);
void metrics_no_fit(const struct opts *o, const struct plan *p);
int metric_value(const struct plan_metric *pm, const char *const *names,
		 const double *vals, const int *missing, unsigned int n,
		 double elapsed, double *val);

/* print.c */
void stats_add(struct stats *s, const struct plan *p, const struct counts *c);
void print_stats(FILE *f, const struct opts *o, const struct plan *p,
		 const struct stats *s);
void print_stats_cpus(FILE *f, const struct opts *o, const struct plan *p,
		      const struct stats *per, const unsigned char *cpus,
		      const struct stats *total);
void print_interval(struct ival *iv, const struct counts *now);
double interval_next(double next, double at, unsigned int ms);
void print_stats_threads(FILE *f, const struct opts *o, const struct plan *p,
			 const struct thread_rows *t, const struct stats *total);
void interval_delta(const struct plan *p, struct counts *prev,
		    const struct counts *now, struct stats *s);
void print_interval_cpus(struct ival *iv, const struct stats *per,
			 const unsigned char *cpus, double t);

#endif /* _PERFEX_H */
