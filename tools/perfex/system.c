// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex -a and -C LIST: every CPU, or those listed, counted through
 * global mode (global.rst) while a command runs, or until ^C without
 * one; -A prints a row per CPU (perfex.rst, "System-wide counting").
 * Global mode is one control for the whole machine: it needs
 * CAP_PERFMON, and perfex does not take it from a user who holds it.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfex.h"

#define GLOBAL_PATH	"/proc/perfctr/global"
#define ONLINE_PATH	"/sys/devices/system/cpu/online"
#define POSSIBLE_PATH	"/sys/devices/system/cpu/possible"
#define POLL_NS		(50 * 1000 * 1000)	/* hotplug is looked for */

/* --- CPU lists --- */

/*
 * A CPU list as the kernel writes them ("0-3,8"), into @set; 0, or -1
 * where it is not one or names a CPU at or above MAX_CPUS.
 */
static int cpu_list_parse(const char *s, unsigned char *set)
{
	unsigned long a, b;
	char *end;

	memset(set, 0, MAX_CPUS);
	if (!*s)
		return -1;
	for (;;) {
		errno = 0;
		a = strtoul(s, &end, 10);
		if (end == s || errno || a >= MAX_CPUS)
			return -1;
		b = a;
		if (*end == '-') {
			s = end + 1;
			b = strtoul(s, &end, 10);
			if (end == s || errno || b >= MAX_CPUS || b < a)
				return -1;
		}
		while (a <= b)
			set[a++] = 1;
		if (*end == '\n' && !end[1])
			return 0;
		if (!*end)
			return 0;
		if (*end != ',')
			return -1;
		s = end + 1;
	}
}

/* A CPU list file of sysfs into @set; -1 where the kernel does not say. */
static int read_cpu_list(const char *path, unsigned char *set)
{
	char buf[4096];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return cpu_list_parse(buf, set);
}

/* The CPUs online now; -1 where the kernel does not say. */
static int online_cpus(unsigned char *set)
{
	return read_cpu_list(ONLINE_PATH, set);
}

/* "0,2-3": @set as a list, for the header and the notes. */
static void cpu_list_format(const unsigned char *set, char *buf, size_t size)
{
	unsigned int a, b;
	size_t o = 0;

	buf[0] = '\0';
	for (a = 0; a < MAX_CPUS; a = b + 1) {
		if (!set[a]) {
			b = a;
			continue;
		}
		for (b = a; b + 1 < MAX_CPUS && set[b + 1]; b++)
			;
		o += snprintf(buf + o, o < size ? size - o : 0, "%s%u", o ? "," : "", a);
		if (b > a)
			o += snprintf(buf + o, o < size ? size - o : 0, "-%u", b);
	}
}

/* --- the kernel's own system-wide counts --- */

/* The value of @key in @path ("key value" lines), or NAN. */
static double proc_value(const char *path, const char *key)
{
	size_t len = strlen(key);
	char line[256];
	double v = NAN;
	FILE *f = fopen(path, "re");

	if (!f)
		return NAN;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ' ') {
			v = strtod(line + len + 1, NULL);
			break;
		}
	fclose(f);
	return v;
}

struct sys_snap {
	double ctxt, pgfault, pgmajfault;
};

static void snap(struct sys_snap *s)
{
	s->ctxt = proc_value("/proc/stat", "ctxt");
	s->pgfault = proc_value("/proc/vmstat", "pgfault");
	s->pgmajfault = proc_value("/proc/vmstat", "pgmajfault");
}

/*
 * The software events of a system-wide count: cpu-clock is the time of
 * every CPU counted; switches and faults are the machine's (the kernel
 * counts them for all CPUs, not per CPU), so only a count of every CPU,
 * aggregated, has them.
 */
static void sys_software(double *sw, const struct sys_snap *a,
			 const struct sys_snap *b, double seconds,
			 unsigned int ncpus, int whole)
{
	sw[SW_TASK_CLOCK] = seconds * 1e9 * ncpus;
	sw[SW_CPU_MIGRATIONS] = NAN;
	sw[SW_CONTEXT_SWITCHES] = whole ? b->ctxt - a->ctxt : NAN;
	sw[SW_PAGE_FAULTS] = whole ? b->pgfault - a->pgfault : NAN;
	sw[SW_MAJOR_FAULTS] = whole ? b->pgmajfault - a->pgmajfault : NAN;
	sw[SW_MINOR_FAULTS] = sw[SW_PAGE_FAULTS] - sw[SW_MAJOR_FAULTS];
}

/* --- global mode --- */

static void global_refused(int err)
{
	const char *why = perfctr_explain(err);

	if (err == EACCES || err == EPERM)
		fprintf(stderr,
			"perfex: -a and -C count through perfctr's global mode, which needs CAP_PERFMON: run perfex as root, or give it the capability (setcap cap_perfmon+ep perfex)\n");
	else
		fprintf(stderr, "perfex: cannot count system-wide: %s%s%s\n",
			strerror(err), why ? "; " : "", why ? why : "");
}

/*
 * Global mode is one control: a second writer would replace the first's
 * counts. The module says who holds the counters (global.rst).
 */
static int global_open(const struct plan *p)
{
	struct perfctr_info info;
	int fd;

	if (!perfctr_info(&info) &&
	    !strncmp(info.reserved_by, "global-mode perfctr", 19)) {
		fprintf(stderr,
			"perfex: global mode is counting already (reserved_by: %s; gperfctr, or another perfex -a): perfex will not replace its counts; wait for it to stop\n",
			info.reserved_by);
		return -1;
	}
	fd = open(GLOBAL_PATH, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		global_refused(errno);
		return -1;
	}
	if (write(fd, &p->ctl.cpu_control, sizeof(p->ctl.cpu_control)) !=
	    (ssize_t)sizeof(p->ctl.cpu_control)) {
		global_refused(errno);
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * Stops the count; the sums stay readable (global.rst), so those read
 * after are final, and the same as anyone reads after perfex.
 */
static int global_stop(int fd)
{
	struct perfctr_cpu_control stop;

	memset(&stop, 0, sizeof(stop));
	if (write(fd, &stop, sizeof(stop)) == (ssize_t)sizeof(stop))
		return 0;
	fprintf(stderr, "perfex: cannot stop global mode: %s\n",
		strerror(errno));
	return -1;
}

/* --- one run --- */

struct sys_run {
	const struct plan *p;
	unsigned char online0[MAX_CPUS];	/* at the start */
	unsigned char gone[MAX_CPUS];		/* offline at some tick */
	struct perfctr_sum_ctrs sums[MAX_CPUS];
	unsigned int nsums;
	double elapsed;
	struct sys_snap a, b;
	int fd;
	double t0;
	struct sys_ival *iv;	/* -I, or NULL */
};

/* -I: what an interval needs besides the run's sums. */
struct sys_ival {
	const struct plan *p;
	const unsigned char *want;
	unsigned int ncpus;
	int whole;
	double next;		/* seconds from the start */
	struct counts *prev;	/* -A: each CPU's at the last interval */
	struct stats *per;	/* -A: each CPU's interval */
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

static void sys_counts(const struct plan *p, const struct sys_run *r,
		       const unsigned char *want, struct counts *c);
static void sys_software(double *sw, const struct sys_snap *a,
			 const struct sys_snap *b, double seconds,
			 unsigned int ncpus, int whole);

/* -I: the interval to now, from @r's sums (cumulative since the start). */
static void sys_interval(struct sys_run *r)
{
	struct sys_ival *iv = r->iv;
	const struct plan *p = iv->p;
	unsigned char one[MAX_CPUS];
	struct counts c;
	unsigned int cpu;

	sys_counts(p, r, iv->want, &c);
	sys_software(c.sw, &r->a, &r->b, r->elapsed, iv->ncpus, iv->whole);
	if (!iv->per) {
		print_interval(p->ival, &c);
		return;
	}
	memset(one, 0, sizeof(one));
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!iv->want[cpu])
			continue;
		one[cpu] = 1;
		sys_counts(p, r, one, &c);
		one[cpu] = 0;
		sys_software(c.sw, &r->a, &r->b, r->elapsed, 1, 0);
		interval_delta(p, &iv->prev[cpu], &c, &iv->per[cpu]);
	}
	print_interval_cpus(p->ival, iv->per, iv->want, r->elapsed);
}

/* The window's wait: to the next interval (-I), or to the next poll. */
static long sys_nap(void *arg)
{
	const struct sys_run *r = arg;
	double left;

	if (!r->iv)
		return POLL_NS;
	left = r->iv->next - (now_s() - r->t0);
	if (left <= 0)
		return 1;
	return left * 1e9 < POLL_NS ? (long)(left * 1e9) : POLL_NS;
}

/* -I: an interval is due; the CPUs' sums are read live (global.rst). */
static void sys_ival_tick(struct sys_run *r)
{
	ssize_t n;

	if (!r->iv || now_s() - r->t0 < r->iv->next)
		return;
	r->iv->next = interval_next(r->iv->next, now_s() - r->t0,
				    r->iv->p->ival->o->interval_ms);
	n = pread(r->fd, r->sums, sizeof(r->sums), 0);
	if (n <= 0)
		return;
	r->nsums = n / sizeof(r->sums[0]);
	r->elapsed = now_s() - r->t0;
	snap(&r->b);
	sys_interval(r);
}

static int sys_begin(void *arg)
{
	struct sys_run *r = arg;

	if (online_cpus(r->online0))
		memset(r->online0, 1, MAX_CPUS);
	r->fd = global_open(r->p);
	if (r->fd < 0)
		return EX_FAIL;
	snap(&r->a);
	r->t0 = now_s();
	return 0;
}

/* The CPUs that went offline (counted no more, named after); -I. */
static int sys_tick(void *arg)
{
	struct sys_run *r = arg;
	unsigned char now[MAX_CPUS];
	unsigned int c;

	if (!online_cpus(now))
		for (c = 0; c < MAX_CPUS; c++)
			if (r->online0[c] && !now[c])
				r->gone[c] = 1;
	sys_ival_tick(r);
	return 0;
}

/*
 * Stops the count and reads the final sums; run whatever ended the
 * window (the command, ^C, SIGTERM, SIGHUP): global mode is always
 * stopped before perfex leaves.
 */
static int sys_end(void *arg)
{
	struct sys_run *r = arg;
	ssize_t n;

	n = global_stop(r->fd) ? -1 : pread(r->fd, r->sums, sizeof(r->sums), 0);
	snap(&r->b);
	close(r->fd);
	if (n < 0) {
		fprintf(stderr, "perfex: cannot read %s: %s\n", GLOBAL_PATH,
			strerror(errno));
		return EX_FAIL;
	}
	r->nsums = n / sizeof(r->sums[0]);
	return 0;
}

static const struct window_ops sys_ops = {
	.begin = sys_begin, .tick = sys_tick, .end = sys_end, .nap = sys_nap,
};

/* One count: 0 with @r filled, or perfex's exit status. */
static int sys_run_once(const struct plan *p, char **cmd, struct sys_run *r,
			struct sys_ival *iv, int *status)
{
	memset(r, 0, sizeof(*r));
	r->p = p;
	r->iv = iv;
	return count_window(cmd, status, &r->elapsed, &sys_ops, r);
}

/* --- the counts --- */

/* The CPUs of @want in @r added up, as one run's counts. */
static void sys_counts(const struct plan *p, const struct sys_run *r,
		       const unsigned char *want, struct counts *c)
{
	unsigned int cpu, i;

	memset(c, 0, sizeof(*c));
	c->elapsed = r->elapsed;
	for (cpu = 0; cpu < r->nsums; cpu++) {
		if (!want[cpu])
			continue;
		c->tsc += r->sums[cpu].tsc;
		for (i = 0; i < p->set.nr && p->counted; i++)
			c->ev[i] += r->sums[cpu].pmc[p->set.ev[i].counter];
	}
}

static unsigned int count_set(const unsigned char *set)
{
	unsigned int c, n = 0;

	for (c = 0; c < MAX_CPUS; c++)
		n += set[c];
	return n;
}

/* What became of the CPUs asked for: offline, or gone during the run. */
static void sys_notes(const struct sys_run *r, const unsigned char *want)
{
	unsigned char off[MAX_CPUS], gone[MAX_CPUS];
	char list[256];
	unsigned int c;

	for (c = 0; c < MAX_CPUS; c++) {
		off[c] = want[c] && !r->online0[c];
		gone[c] = want[c] && r->gone[c];
	}
	cpu_list_format(off, list, sizeof(list));
	if (list[0])
		fprintf(stderr,
			"perfex: note: CPU %s offline when the count began: its rows count the time it was online, if any; bring it online (echo 1 > /sys/devices/system/cpu/cpuN/online) to count it\n",
			list);
	cpu_list_format(gone, list, sizeof(list));
	if (list[0])
		fprintf(stderr,
			"perfex: note: CPU %s went offline during the count: its counts stop while it is offline and go on when it comes back\n",
			list);
}

/* -C's CPUs must be CPUs of this machine, as perf has them. */
static int sys_cpus_exist(const char *arg, const unsigned char *want)
{
	unsigned char possible[MAX_CPUS];
	char list[256];
	unsigned int c;

	if (read_cpu_list(POSSIBLE_PATH, possible))
		return 0;	/* the kernel does not say: global mode will */
	for (c = 0; c < MAX_CPUS; c++)
		if (want[c] && !possible[c]) {
			cpu_list_format(possible, list, sizeof(list));
			fprintf(stderr,
				"perfex: -C %s: CPU %u does not exist here; the CPUs are %s\n",
				arg, c, list);
			return EX_USAGE;
		}
	return 0;
}

/* -a or -C: the CPUs to count. */
static int sys_cpus(const struct opts *o, unsigned char *want)
{
	unsigned char online[MAX_CPUS];

	if (o->cpu_list) {
		if (cpu_list_parse(o->cpu_list, want)) {
			fprintf(stderr,
				"perfex: -C %s: want a CPU list such as 0,2-3 (CPUs below %d)\n",
				o->cpu_list, MAX_CPUS);
			return EX_USAGE;
		}
		return sys_cpus_exist(o->cpu_list, want);
	}
	if (online_cpus(online))
		memset(online, 1, MAX_CPUS);
	memcpy(want, online, MAX_CPUS);
	return 0;
}

/* -I's state, with -A's per-CPU part (@per's array is reused). */
static int sys_ival_init(struct sys_ival *iv, const struct opts *o,
			 const struct plan *p, const unsigned char *want,
			 unsigned int ncpus)
{
	if (!o->interval_ms)
		return 0;
	iv->p = p;
	iv->want = want;
	iv->ncpus = ncpus;
	iv->whole = !o->cpu_list;
	iv->next = o->interval_ms / 1e3;
	if (!o->per_cpu)
		return 0;
	iv->prev = calloc(MAX_CPUS, sizeof(*iv->prev) + sizeof(*iv->per));
	if (!iv->prev)
		return -1;
	iv->per = (struct stats *)(iv->prev + MAX_CPUS);
	return 0;
}

/*
 * Counting system-wide: -r's runs, then the totals (or -A's rows per
 * CPU). 0 or perfex's exit status, else the command's.
 */
int sys_count(const struct opts *o, struct plan *p, FILE *out)
{
	unsigned char want[MAX_CPUS];
	struct stats total = { 0 }, *per;
	struct sys_ival iv = { 0 };
	struct counts c;
	struct sys_run *r;
	unsigned int i, cpu, ncpus;
	int ret, status = 0;
	char list[256];

	ret = sys_cpus(o, want);
	if (ret)
		return ret;
	ncpus = count_set(want);
	cpu_list_format(want, list, sizeof(list));
	if (o->cpu_list)
		snprintf(p->title, sizeof(p->title), "'CPU(s) %s'", list);
	else
		snprintf(p->title, sizeof(p->title), "'system wide'");
	per = calloc(MAX_CPUS, sizeof(*per));
	r = malloc(sizeof(*r));
	if (!per || !r || sys_ival_init(&iv, o, p, want, ncpus)) {
		fprintf(stderr, "perfex: out of memory\n");
		free(per);
		free(r);
		free(iv.prev);
		return EX_FAIL;
	}
	for (i = 0; i < o->repeat; i++) {
		ret = sys_run_once(p, o->cmd, r, iv.p ? &iv : NULL, &status);
		if (ret)
			break;
		/* -I: the last, shorter interval; no total after it. */
		if (iv.p) {
			sys_notes(r, want);
			sys_interval(r);
			break;
		}
		sys_notes(r, want);
		sys_counts(p, r, want, &c);
		sys_software(c.sw, &r->a, &r->b, r->elapsed, ncpus,
			     !o->cpu_list);
		stats_add(&total, p, &c);
		for (cpu = 0; o->per_cpu && cpu < MAX_CPUS; cpu++) {
			unsigned char one[MAX_CPUS] = { 0 };

			if (!want[cpu])
				continue;
			one[cpu] = 1;
			sys_counts(p, r, one, &c);
			sys_software(c.sw, &r->a, &r->b, r->elapsed, 1, 0);
			stats_add(&per[cpu], p, &c);
		}
		if (WIFSIGNALED(status) || !o->cmd)
			break;	/* as perf stat stops on ^C */
	}
	if (!ret && total.runs && !iv.p) {
		if (o->per_cpu)
			print_stats_cpus(out, o, p, per, want, &total);
		else
			print_stats(out, o, p, &total);
	}
	free(per);
	free(r);
	free(iv.prev);
	if (ret)
		return ret;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
