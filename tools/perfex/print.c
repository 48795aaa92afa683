// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex: the counts, in perf stat's three layouts (perfex.rst): a table
 * for people, -x SEP's separated fields and -j's JSON lines, with the
 * fields in perf's order and under perf's names, so that what reads perf
 * stat's output reads perfex's. Over -r N runs each row is the mean, and
 * its spread the standard error of the mean as a percentage of it.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "perfex.h"

/* --- over the runs --- */

static void acc_add(struct stat_acc *a, double v)
{
	double d = v - a->mean;

	a->n++;
	a->mean += d / a->n;
	a->m2 += d * (v - a->mean);
}

/* The standard error of the mean, in % of the mean; 0 for one run. */
static double acc_spread(const struct stat_acc *a)
{
	if (a->n < 2 || a->mean == 0)
		return 0;
	return 100 * sqrt(a->m2 / (a->n - 1) / a->n) / fabs(a->mean);
}

void stats_add(struct stats *s, const struct plan *p, const struct counts *c)
{
	unsigned int i;

	s->runs++;
	s->dropped |= c->dropped;
	for (i = 0; i < p->set.nr; i++)
		acc_add(&s->ev[i], c->ev[i]);
	for (i = 0; i < SW_NR; i++)
		acc_add(&s->sw[i], c->sw[i]);
	acc_add(&s->tsc, c->tsc);
	acc_add(&s->elapsed, c->elapsed);
}

/* --- the rows --- */

struct row {
	const char *name;
	const char *missing;	/* "<not supported>" etc., or NULL */
	double value, spread;	/* mean, and its spread in % */
	double runtime;		/* ns the counter ran: the TSC's time */
	double metric;
	const char *metric_unit;	/* NULL: no metric */
	int percent;		/* the metric is a percentage */
	const char *unit;	/* "msec" for task-clock, else "" */
	const char *cpu;	/* -A: "CPUn", else NULL */
	const char *time;	/* -I: seconds since the start, else NULL */
	const char *thread;	/* --per-thread: "comm-tid", else NULL */
};

/* perf's generic name that @text names (modifiers aside), or NULL. */
static const char *generic_of(const char *text)
{
	static const char *const names[] = {
		"cycles", "instructions", "branches", "branch-misses",
	};
	size_t len = strcspn(text, ":"), i;

	for (i = 0; i < sizeof(names) / sizeof(*names); i++)
		if (strlen(names[i]) == len && !strncasecmp(text, names[i], len))
			return names[i];
	return NULL;
}

static const struct row *find_generic(const struct row *rows, unsigned int n,
				      const char *name)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!rows[i].missing && generic_of(rows[i].name) == name)
			return &rows[i];
	return NULL;
}

/* perf's derived figures for the events that have one. */
static void add_metric(struct row *r, const struct row *rows, unsigned int n)
{
	const char *g = generic_of(r->name);
	const struct row *by;

	if (r->missing || !g)
		return;
	if (!strcmp(g, "cycles") && r->runtime > 0) {
		r->metric = r->value / r->runtime;
		r->metric_unit = "GHz";
	} else if (!strcmp(g, "instructions")) {
		by = find_generic(rows, n, "cycles");
		if (by && by->value > 0) {
			r->metric = r->value / by->value;
			r->metric_unit = "insn per cycle";
		}
	} else if (!strcmp(g, "branch-misses")) {
		by = find_generic(rows, n, "branches");
		if (by && by->value > 0) {
			r->metric = 100 * r->value / by->value;
			r->metric_unit = "of all branches";
			r->percent = 1;
		}
	}
}

/* perf's rate of a software event: per second of task-clock. */
static void sw_rate(struct row *r, double task_ns)
{
	static const char *const units[] = { "/sec", "K/sec", "M/sec", "G/sec" };
	unsigned int u = 0;

	if (task_ns <= 0)
		return;
	r->metric = r->value / (task_ns / 1e9);
	while (r->metric >= 1000 && u < 3) {
		r->metric /= 1000;
		u++;
	}
	r->metric_unit = units[u];
}

/* A software event's row (software.c): the command tree's rusage. */
static void sw_row(struct row *r, const struct plan_row *pr,
		   const struct stats *s)
{
	const struct stat_acc *a = &s->sw[pr->sw];
	double task_ns = s->sw[SW_TASK_CLOCK].mean;

	r->name = pr->text;
	r->unit = "";
	if (isnan(a->mean)) {
		r->missing = "<not supported>";
		return;
	}
	r->spread = acc_spread(a);
	r->runtime = task_ns;
	if (pr->sw != SW_TASK_CLOCK) {
		r->value = a->mean;
		sw_rate(r, task_ns);
		return;
	}
	r->value = a->mean / 1e6;
	r->unit = "msec";
	if (s->elapsed.mean > 0) {
		r->metric = task_ns / (s->elapsed.mean * 1e9);
		r->metric_unit = "CPUs utilized";
	}
}

/* The rows as the plan orders them, then the TSC's; returns how many. */
static unsigned int make_rows(const struct plan *p, const struct stats *s,
			      struct row *rows)
{
	double ns = p->tsc_khz ? s->tsc.mean * 1e6 / p->tsc_khz : 0;
	unsigned int i, k, n = p->nrows;

	memset(rows, 0, (n + 1) * sizeof(*rows));
	for (i = 0; i < n; i++) {
		rows[i].unit = "";
		if (p->rows[i].sw >= 0) {
			sw_row(&rows[i], &p->rows[i], s);
			continue;
		}
		k = p->rows[i].idx;
		rows[i].name = p->set.ev[k].text;
		if (!p->counted)
			rows[i].missing = "<not supported>";
		else if (s->dropped)
			rows[i].missing = "<not counted>";
		rows[i].value = s->ev[k].mean;
		rows[i].spread = acc_spread(&s->ev[k]);
		rows[i].runtime = rows[i].missing ? 0 : ns;
	}
	for (i = 0; i < n; i++)
		if (p->rows[i].sw < 0)
			add_metric(&rows[i], rows, n);
	rows[n].name = "tsc";
	rows[n].unit = "";
	rows[n].missing = s->dropped ? "<not counted>" : NULL;
	rows[n].value = s->tsc.mean;
	rows[n].spread = acc_spread(&s->tsc);
	rows[n].runtime = rows[n].missing ? 0 : ns;
	if (!rows[n].missing && ns > 0 && s->elapsed.mean > 0) {
		rows[n].metric = ns / (s->elapsed.mean * 1e9);
		rows[n].metric_unit = "CPUs utilized";
	}
	return n + 1;
}

/* --- perf stat's table --- */

/*
 * @v with @decimals and a comma every three digits of its whole part,
 * as perf stat's table has them.
 */
static void commas(char *buf, size_t size, double v, int decimals)
{
	char digits[40];
	size_t len, i, o = 0;

	snprintf(digits, sizeof(digits), "%.*f", decimals, v);
	len = strcspn(digits, ".");
	for (i = 0; digits[i] && o + 2 < size; i++) {
		if (i && i < len && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

static void print_table_row(FILE *f, const struct row *r, unsigned int runs)
{
	int spread = runs > 1 && !r->missing;
	char value[40], metric[64] = "";

	if (r->time)
		fprintf(f, "%s ", r->time);
	if (r->cpu)
		fprintf(f, "%-8s", r->cpu);
	if (r->thread)
		fprintf(f, "%-20s", r->thread);

	if (r->missing)
		snprintf(value, sizeof(value), "%s", r->missing);
	else
		commas(value, sizeof(value), r->value, r->unit[0] ? 2 : 0);
	if (r->metric_unit)
		snprintf(metric, sizeof(metric),
			 r->percent ? "  # %7.2f%% %s" : "  # %8.2f %s",
			 r->metric, r->metric_unit);
	/* Columns only where something follows: no trailing blanks. */
	if (spread)
		fprintf(f, "%18s %-4s %-25s%-32s  ( +-%6.2f%% )\n", value,
			r->unit, r->name, metric, r->spread);
	else if (metric[0])
		fprintf(f, "%18s %-4s %-25s%s\n", value, r->unit, r->name,
			metric);
	else
		fprintf(f, "%18s %-4s %s\n", value, r->unit, r->name);
}

/* The table's head: the command, or what -a and -C counted. */
static void print_header(FILE *f, const struct opts *o, const struct plan *p,
			 const struct stats *s)
{
	char **a;

	fprintf(f, "\n Performance counter stats for ");
	if (p->title[0]) {
		fprintf(f, "%s", p->title);
	} else {
		fputc('\'', f);
		for (a = o->cmd; *a; a++)
			fprintf(f, "%s%s", a == o->cmd ? "" : " ", *a);
		fputc('\'', f);
	}
	fprintf(f, s->runs > 1 ? " (%u runs):\n\n" : ":\n\n", s->runs);
}

static void print_footer(FILE *f, const struct stats *s)
{
	fprintf(f, "\n%17.9f", s->elapsed.mean);
	if (s->runs > 1)
		fprintf(f, " +- %.9f", s->elapsed.mean *
			acc_spread(&s->elapsed) / 100);
	fprintf(f, " seconds time elapsed");
	if (s->runs > 1)
		fprintf(f, "  ( +-%6.2f%% )", acc_spread(&s->elapsed));
	fprintf(f, "\n\n");
}

/* --- -x SEP --- */

/*
 * value, unit, event, [variance with -r,] run time, % running, metric
 * value, metric unit: perf stat's CSV order.
 */
static void print_csv_row(FILE *f, const char *sep, const struct row *r,
			  unsigned int runs)
{
	if (r->time)
		fprintf(f, "%s%s", r->time, sep);
	if (r->cpu)
		fprintf(f, "%s%s", r->cpu, sep);
	if (r->thread)
		fprintf(f, "%s%s", r->thread, sep);
	if (r->missing)
		fprintf(f, "%s", r->missing);
	else
		fprintf(f, "%.*f", r->unit[0] ? 2 : 0, r->value);
	fprintf(f, "%s%s%s%s", sep, r->unit, sep, r->name);
	if (runs > 1)
		fprintf(f, "%s%.2f%%", sep, r->spread);
	fprintf(f, "%s%.0f%s%.2f%s", sep, r->runtime, sep,
		r->missing ? 0.0 : 100.0, sep);
	if (r->metric_unit)
		fprintf(f, "%.2f%s%s", r->metric, sep, r->metric_unit);
	else
		fprintf(f, "%s", sep);
	fputc('\n', f);
}

/* --- -j --- */

static void json_string(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			fprintf(f, "\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			fprintf(f, "\\u%04x", (unsigned char)*s);
		else
			fputc(*s, f);
	}
	fputc('"', f);
}

/* One object a line, perf stat's keys; counter-value is a string. */
static void print_json_row(FILE *f, const struct row *r, unsigned int runs)
{
	char value[40];

	if (r->missing)
		snprintf(value, sizeof(value), "%s", r->missing);
	else
		snprintf(value, sizeof(value), "%f", r->value);
	fprintf(f, "{");
	if (r->time)
		fprintf(f, "\"interval\" : %s, ", r->time + strspn(r->time, " "));
	if (r->cpu)
		fprintf(f, "\"cpu\" : \"%s\", ", r->cpu + 3);	/* "CPU" */
	if (r->thread) {
		fprintf(f, "\"thread\" : ");
		json_string(f, r->thread);
		fprintf(f, ", ");
	}
	fprintf(f, "\"counter-value\" : ");
	json_string(f, value);
	fprintf(f, ", \"unit\" : ");
	json_string(f, r->unit);
	fprintf(f, ", \"event\" : ");
	json_string(f, r->name);
	if (runs > 1)
		fprintf(f, ", \"variance\" : %.2f", r->spread);
	fprintf(f, ", \"event-runtime\" : %.0f, \"pcnt-running\" : %.2f",
		r->runtime, r->missing ? 0.0 : 100.0);
	if (r->metric_unit)
		snprintf(value, sizeof(value), "%f", r->metric);
	else
		value[0] = '\0';
	fprintf(f, ", \"metric-value\" : ");
	json_string(f, value);
	fprintf(f, ", \"metric-unit\" : ");
	json_string(f, r->metric_unit ? r->metric_unit : "");
	fprintf(f, "}\n");
}

static void print_row(FILE *f, const struct opts *o, const struct row *r,
		      unsigned int runs)
{
	if (o->json)
		print_json_row(f, r, runs);
	else if (o->sep)
		print_csv_row(f, o->sep, r, runs);
	else
		print_table_row(f, r, runs);
}

void print_stats(FILE *f, const struct opts *o, const struct plan *p,
		 const struct stats *s)
{
	struct row rows[MAX_ROWS + 1];
	unsigned int n = make_rows(p, s, rows), i;
	int table = !o->sep && !o->json;

	if (table)
		print_header(f, o, p, s);
	for (i = 0; i < n; i++)
		print_row(f, o, &rows[i], s->runs);
	if (table)
		print_footer(f, s);
	fflush(f);
}

/*
 * -A: each row once per CPU of @cpus, labelled CPUn, event by event as
 * perf stat -A prints them; @per holds each CPU's counts, @total the
 * runs' time. With @time (-I), one interval's rows, without head or foot.
 */
static void print_cpus(FILE *f, const struct opts *o, const struct plan *p,
		       const struct stats *per, const unsigned char *cpus,
		       const struct stats *total, const char *time)
{
	struct row (*rows)[MAX_ROWS + 1] = calloc(MAX_CPUS, sizeof(*rows));
	char (*label)[16] = calloc(MAX_CPUS, sizeof(*label));
	unsigned int n = 0, i, c;
	int table = !o->sep && !o->json && !time;

	if (!rows || !label) {
		fprintf(stderr, "perfex: out of memory\n");
		goto out;
	}
	for (c = 0; c < MAX_CPUS; c++) {
		if (!cpus[c])
			continue;
		n = make_rows(p, &per[c], rows[c]);
		snprintf(label[c], sizeof(label[c]), "CPU%u", c);
	}
	if (table)
		print_header(f, o, p, total);
	for (i = 0; i < n; i++)
		for (c = 0; c < MAX_CPUS; c++) {
			if (!cpus[c])
				continue;
			rows[c][i].cpu = label[c];
			rows[c][i].time = time;
			print_row(f, o, &rows[c][i], total->runs);
		}
	if (table)
		print_footer(f, total);
	fflush(f);
out:
	free(rows);
	free(label);
}

void print_stats_cpus(FILE *f, const struct opts *o, const struct plan *p,
		      const struct stats *per, const unsigned char *cpus,
		      const struct stats *total)
{
	print_cpus(f, o, p, per, cpus, total, NULL);
}

/* --- --per-thread --- */

/* @r's sums as one run of @p, over @total's time. */
static void thread_stats(const struct plan *p, const struct thread_row *r,
			 const struct stats *total, struct stats *s)
{
	struct counts c;
	unsigned int i;

	memset(&c, 0, sizeof(c));
	c.tsc = r->s.tsc;
	for (i = 0; i < p->set.nr && p->counted; i++)
		c.ev[i] = r->s.pmc[p->set.ev[i].counter];
	for (i = 0; i < SW_NR; i++)
		c.sw[i] = NAN;		/* the kernel gives no thread's alone */
	c.elapsed = total->elapsed.mean;
	c.dropped = !r->counted;
	memset(s, 0, sizeof(*s));
	stats_add(s, p, &c);
}

/*
 * A row per thread of @t and event, labelled "comm-tid", event by event
 * as perf stat --per-thread prints them.
 */
void print_stats_threads(FILE *f, const struct opts *o, const struct plan *p,
			 const struct thread_rows *t, const struct stats *total)
{
	struct row (*rows)[MAX_ROWS + 1] = calloc(t->n + 1, sizeof(*rows));
	char (*label)[40] = calloc(t->n + 1, sizeof(*label));
	int table = !o->sep && !o->json;
	unsigned int n = 0, i, k;
	struct stats s;

	if (!rows || !label) {
		fprintf(stderr, "perfex: out of memory\n");
		goto out;
	}
	for (k = 0; k < t->n; k++) {
		thread_stats(p, &t->v[k], total, &s);
		n = make_rows(p, &s, rows[k]);
		snprintf(label[k], sizeof(label[k]), "%s-%d", t->v[k].comm,
			 (int)t->v[k].tid);
	}
	if (table)
		print_header(f, o, p, total);
	for (i = 0; i < n; i++)
		for (k = 0; k < t->n; k++) {
			rows[k][i].thread = label[k];
			print_row(f, o, &rows[k][i], 1);
		}
	if (table)
		print_footer(f, total);
	fflush(f);
out:
	free(rows);
	free(label);
}

/* --- -I --- */

/* perf's interval time field, and its table's head line once. */
static void interval_start(struct ival *iv, double t, char *time, size_t size)
{
	snprintf(time, size, "%16.9f", t);
	if (iv->n++ || iv->o->sep || iv->o->json)
		return;
	fprintf(iv->f, iv->o->per_cpu ?
		"#           time CPU                 counts unit events\n" :
		"#           time             counts unit events\n");
}

/* @b - @a, or 0: a member that cleared its sums lowers a tree's total. */
static unsigned long long since_last(unsigned long long a,
				     unsigned long long b)
{
	return b > a ? b - a : 0;
}

/* @now's counts less @prev's: one interval's, as one run. */
void interval_delta(const struct plan *p, const struct counts *prev,
		    const struct counts *now, struct stats *s)
{
	struct counts d = *now;
	unsigned int i;

	d.tsc = since_last(prev->tsc, now->tsc);
	for (i = 0; i < p->set.nr; i++)
		d.ev[i] = since_last(prev->ev[i], now->ev[i]);
	for (i = 0; i < SW_NR; i++)
		d.sw[i] -= prev->sw[i];		/* NaN stays NaN */
	d.elapsed -= prev->elapsed;
	memset(s, 0, sizeof(*s));
	stats_add(s, p, &d);
}

/*
 * One interval: the counts since the last, from @now's cumulative ones
 * (now->elapsed: seconds since the start).
 */
void print_interval(struct ival *iv, const struct counts *now)
{
	struct row rows[MAX_ROWS + 1];
	unsigned int n, i;
	struct stats s;
	char time[32];

	interval_delta(iv->p, &iv->prev, now, &s);
	iv->prev = *now;
	interval_start(iv, now->elapsed, time, sizeof(time));
	n = make_rows(iv->p, &s, rows);
	for (i = 0; i < n; i++) {
		rows[i].time = time;
		print_row(iv->f, iv->o, &rows[i], 1);
	}
	fflush(iv->f);
}

/* -A's interval: @per holds each CPU's counts in it already. */
void print_interval_cpus(struct ival *iv, const struct stats *per,
			 const unsigned char *cpus, double t)
{
	struct stats total = { .runs = 1 };
	char time[32];

	interval_start(iv, t, time, sizeof(time));
	print_cpus(iv->f, iv->o, iv->p, per, cpus, &total, time);
}
