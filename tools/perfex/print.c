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

/* The events' rows, then the TSC's; returns how many. */
static unsigned int make_rows(const struct plan *p, const struct stats *s,
			      struct row *rows)
{
	double ns = p->tsc_khz ? s->tsc.mean * 1e6 / p->tsc_khz : 0;
	unsigned int i, n = p->set.nr;

	memset(rows, 0, (n + 1) * sizeof(*rows));
	for (i = 0; i < n; i++) {
		rows[i].name = p->set.ev[i].text;
		if (!p->counted)
			rows[i].missing = "<not supported>";
		else if (s->dropped)
			rows[i].missing = "<not counted>";
		rows[i].value = s->ev[i].mean;
		rows[i].spread = acc_spread(&s->ev[i]);
		rows[i].runtime = rows[i].missing ? 0 : ns;
	}
	for (i = 0; i < n; i++)
		add_metric(&rows[i], rows, n);
	rows[n].name = "tsc";
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

/* @v with a comma every three digits, as perf stat's table has them. */
static void commas(char *buf, size_t size, double v)
{
	char digits[32];
	size_t len, i, o = 0;

	snprintf(digits, sizeof(digits), "%.0f", v);
	len = strlen(digits);
	for (i = 0; i < len && o + 2 < size; i++) {
		if (i && (len - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = digits[i];
	}
	buf[o] = '\0';
}

static void print_table_row(FILE *f, const struct row *r, unsigned int runs)
{
	int spread = runs > 1 && !r->missing;
	char value[40], metric[64] = "";

	if (r->missing)
		snprintf(value, sizeof(value), "%s", r->missing);
	else
		commas(value, sizeof(value), r->value);
	if (r->metric_unit)
		snprintf(metric, sizeof(metric),
			 r->percent ? "  # %7.2f%% %s" : "  # %8.2f %s",
			 r->metric, r->metric_unit);
	/* Columns only where something follows: no trailing blanks. */
	if (spread)
		fprintf(f, "%18s      %-25s%-32s  ( +-%6.2f%% )\n", value,
			r->name, metric, r->spread);
	else if (metric[0])
		fprintf(f, "%18s      %-25s%s\n", value, r->name, metric);
	else
		fprintf(f, "%18s      %s\n", value, r->name);
}

static void print_table(FILE *f, const struct opts *o, const struct row *rows,
			unsigned int n, const struct stats *s)
{
	unsigned int i;
	char **a;

	fprintf(f, "\n Performance counter stats for '");
	for (a = o->cmd; *a; a++)
		fprintf(f, "%s%s", a == o->cmd ? "" : " ", *a);
	fprintf(f, s->runs > 1 ? "' (%u runs):\n\n" : "':\n\n", s->runs);
	for (i = 0; i < n; i++)
		print_table_row(f, &rows[i], s->runs);
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
	if (r->missing)
		fprintf(f, "%s", r->missing);
	else
		fprintf(f, "%.0f", r->value);
	fprintf(f, "%s%s%s", sep, sep, r->name);
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
	fprintf(f, "{\"counter-value\" : ");
	json_string(f, value);
	fprintf(f, ", \"unit\" : \"\", \"event\" : ");
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

void print_stats(FILE *f, const struct opts *o, const struct plan *p,
		 const struct stats *s)
{
	struct row rows[PERFCTR_NR_PMCS + 1];
	unsigned int n = make_rows(p, s, rows), i;

	if (!o->sep && !o->json) {
		print_table(f, o, rows, n, s);
	} else {
		for (i = 0; i < n; i++) {
			if (o->json)
				print_json_row(f, &rows[i], s->runs);
			else
				print_csv_row(f, o->sep, &rows[i], s->runs);
		}
	}
	fflush(f);
}
