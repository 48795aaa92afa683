/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The helpers every Check suite of the test VM shares, in one library
 * (tests/user/lib/): time in TSC ticks, CPU pinning, /proc/perfctr/info
 * and global, module parameters, child processes that report back
 * through pipes, and the controls and raw files of /proc/perfctr/<tid>/.
 * check_init() reads the driver's facts and $PERFCTR_SIM_MODEL once, in
 * main(); check_run() runs a suite and gives main()'s exit code, and
 * check_run_areas() does so for a suite split into one file per area.
 */
#ifndef _PERFCTR_CHECK_UTIL_H
#define _PERFCTR_CHECK_UTIL_H

#include <stddef.h>
#include <sys/types.h>

#include "libperfctr.h"
#include "models.h"

#define INFO_PATH	PERFCTR_ROOT "/info"
#define GLOBAL_PATH	PERFCTR_ROOT "/global"
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_CPUS	64	/* global mode's sums: more than the VMs have */
#define NOBODY		65534
#define CTL_SIZE	sizeof(struct vperfctr_control)
#define SUMS_SIZE	sizeof(struct perfctr_sum_ctrs)
/*
 * An i-mode start value that cannot overflow while a test runs, and one
 * that overflows some milliseconds after the counters start: x86 counts
 * up from a negative value to zero, ppc32 from a non-negative one until
 * the most significant bit (0x80000000) sets.
 */
#define IRESET_SPAN	10000000
#ifdef __powerpc__
#define IRESET_FAR	0
#define IRESET_NEAR	(0x7fffffff - IRESET_SPAN)
#else
#define IRESET_FAR	(-0x7fffffff)
#define IRESET_NEAR	(-IRESET_SPAN)
#endif

/* The kernel changes the state page under us: each read is a fresh load. */
#define PAGE_LOAD(x)	__atomic_load_n(&(x), __ATOMIC_ACQUIRE)

/* --- the driver's facts (check_util.c) --- */

extern const char *model_name;		/* $PERFCTR_SIM_MODEL */
extern const struct sim_model *model;	/* NULL: the TSC only */
extern unsigned long long khz;		/* TSC ticks per millisecond */
extern unsigned int nrctrs;
extern int cpus_forbidden;		/* some CPU has no counters */
extern long ncpus;

/* Reads cpu_khz, nrctrs, ... from /proc/perfctr/info; 0 or -1. */
int check_init(void);
/* The value of "key: value" in /proc/perfctr/info, or NULL. */
char *info_field(const char *key);
/* Runs @s, each test in its own process; EXIT_SUCCESS or EXIT_FAILURE. */
struct Suite;
struct TCase;
int check_run(struct Suite *s);
/*
 * A suite split into areas (tests/user/<suite>/): builds suite @name from
 * @areas, each adding its test cases, and runs it as check_run() does,
 * pinned to CPU 0 where some CPU has no counters.
 */
typedef void (*check_area_fn)(struct Suite *s);
int check_run_areas(const char *name, const check_area_fn *areas, size_t n);
/*
 * Test case @name, added to @s, with @setup and @teardown (either may be
 * NULL) run around each test in the test's own process.
 */
typedef void (*check_fixture_fn)(void);
struct TCase *add_tcase(struct Suite *s, const char *name,
			check_fixture_fn setup, check_fixture_fn teardown);

/* --- time --- */

/* The TSC, or on ppc32 the timebase: what the state page's tsc counts. */
static inline unsigned long long rdtsc(void)
{
	unsigned int lo, hi;
#ifdef __powerpc__
	unsigned int again;

	do {
		asm volatile("mftbu %0; mftb %1; mftbu %2"
			     : "=r" (hi), "=r" (lo), "=r" (again));
	} while (hi != again);
#else
	asm volatile("rdtsc" : "=a" (lo), "=d" (hi));
#endif
	return (unsigned long long)hi << 32 | lo;
}

unsigned long long ms_ticks(unsigned int ms);
int hop_cpus(unsigned int n);
unsigned long long spin(unsigned long long ticks);
int within(unsigned long long v, unsigned long long ref, unsigned int pct);
int since(unsigned long long sum, unsigned long long t0);
int pin(int cpu);
int is_zero(const void *p, size_t size);
size_t page_size(void);

/* --- global mode and module parameters --- */

int open_global(void);
int read_global(int fd, struct perfctr_sum_ctrs *sums);
/* Global mode takes the counters (the TSC only): its file, for global_give(). */
int global_take(void);
/* Global mode lets them go: an all-zero control, and the file closed. */
void global_give(int fd);
/* The loaded module's parameter @name: write @val (0 or errno); read. */
int param_put(const char *name, const char *val);
int param_get(const char *name);
/* The same, without failing the test: 0 or the errno (ENOENT: no such). */
int param_read(const char *name, long *val);

/*
 * From here on this process and its children see @value (e.g. "1\n"; NULL:
 * no such file) with @mode as /proc/sys/kernel/nmi_watchdog: a tmpfs over
 * /proc/sys in a mount namespace of their own. The test VM's kernel has
 * no NMI watchdog, and TCG no PMU for one to hold.
 */
void fake_nmi_watchdog(const char *value, mode_t mode);

/* --- child processes (kid.c) --- */

struct kid {
	pid_t pid;
	int rd;		/* from the child */
	int wr;		/* to the child; closing it releases the child */
};

typedef int (*kid_fn)(int rd, int wr, void *arg);

int kid_spawn(struct kid *k, kid_fn fn, void *arg);
int kid_reap(struct kid *k);
int kid_fail(int step);
void kid_read(struct kid *k, void *buf, size_t size);
void kid_start(struct kid *k, kid_fn fn, void *arg);
void kid_done(struct kid *k);
void kid_run(kid_fn fn, void *arg);
void kid_run_int(kid_fn fn, int val);
void kid_wait_go(int rd);
int kid_spawn_report(struct kid *k, kid_fn fn, void *arg, void *buf,
		     size_t size);

/* Descriptors over a Unix socket, with a message (kid.c). */
#define FDS_MAX	8
int fds_send(int sock, const int *fd, unsigned int n, const void *data,
	     size_t len);
int fds_recv(int sock, int *fd, unsigned int n, void *data, size_t len);

/* --- the virtual counters' controls and files (vfiles.c) --- */

struct files {
	pid_t tid;
	int ctl, sums, cmd;
};

/* What a counting child tells its parent. */
struct report {
	struct vperfctr_control ctl;
	struct perfctr_sum_ctrs sums;
};

void tsc_control(struct vperfctr_control *c);
unsigned int full_control(struct vperfctr_control *c);
__u32 full_cstatus(void);
int pfs_open(pid_t tid, const char *name, int flags);
int files_try(struct files *f, pid_t tid);
void files_open(struct files *f, pid_t tid);
ssize_t put_control(int fd, const struct vperfctr_control *c);
ssize_t put_command(int fd, __u32 cmd);
void get_control(int fd, struct vperfctr_control *c);
void get_sums(int fd, struct perfctr_sum_ctrs *s);
void set_control(int fd, const struct vperfctr_control *c);
void do_command(int fd, __u32 cmd);
void lib_control(struct vperfctr *vp, const struct vperfctr_control *c);
struct vperfctr *lib_open_full(struct vperfctr_control *c, unsigned int *n);
struct vperfctr *lib_open_tsc(struct vperfctr_control *c);

/* The caller's counters running full_control(), as most tests want them. */
struct full_set {
	struct vperfctr_control c;
	struct vperfctr *vp;
	const struct vperfctr_state *st;	/* its state page */
	unsigned int n;				/* counters besides the TSC */
};

void full_set_open(struct full_set *f);
void count_at_least(struct vperfctr *vp, int fd, unsigned long long ticks);
__u32 cstatus_of(const struct vperfctr_state *st);
const struct vperfctr_state *state_of(const struct vperfctr *vp);
const struct vperfctr_state *map_state(void);
int counting_kid(int rd, int wr, void *arg);
int read_refused(pid_t tid);
int reads_report(pid_t tid, const struct report *r);

#endif /* _PERFCTR_CHECK_UTIL_H */
