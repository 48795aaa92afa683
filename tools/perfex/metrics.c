// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex -M: perf stat's metrics (perfex.rst, "Metrics"). The names and
 * groups given pick metrics of the event table; the events their
 * expressions use join -e's in the one set perfex counts, never
 * multiplexed, so every value comes from counts of the same run. After
 * the run each expression is evaluated over the printed counts
 * (metric.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "perfex.h"
#include "metric.h"

/* Whether the comma-separated @list has @name, case ignored. */
static int has_token(const char *list, const char *name, char sep)
{
	size_t len = strlen(name), n;

	while (*list) {
		n = strcspn(list, (char[]){ sep, '\0' });
		if (n == len && !strncasecmp(list, name, len))
			return 1;
		list += n + (list[n] == sep);
	}
	return 0;
}

/* The values perfex knows that are no event: perf's literals. */
static int literal(const char *name, double *val, double elapsed)
{
	char buf[8] = "";
	FILE *f;

	if (!strcasecmp(name, "duration_time")) {
		/* perf counts it in ns, and gives expressions seconds. */
		*val = elapsed;
	} else if (!strcasecmp(name, "#num_cpus")) {
		*val = sysconf(_SC_NPROCESSORS_CONF);
	} else if (!strcasecmp(name, "#num_cpus_online")) {
		*val = sysconf(_SC_NPROCESSORS_ONLN);
	} else if (!strcasecmp(name, "#smt_on")) {
		/* No such file: a kernel without SMT control, so no SMT. */
		f = fopen("/sys/devices/system/cpu/smt/active", "re");
		if (f) {
			if (!fgets(buf, sizeof(buf), f))
				buf[0] = '\0';
			fclose(f);
		}
		*val = atoi(buf) > 0;
	} else {
		return -1;
	}
	return 0;
}

/* While picking: the events a metric uses, added to the list. */
struct collect {
	char *events;
	size_t size;
	char *first;		/* the first event named, its row's */
	int full;
};

static int collect_name(const char *name, double *val, void *arg)
{
	struct collect *c = arg;
	size_t len = strlen(c->events);

	*val = 1;
	if (!literal(name, val, 0))
		return 0;
	if (name[0] == '#')
		return -1;
	if (!c->first[0])
		snprintf(c->first, METRIC_NAME_MAX, "%s", name);
	if (has_token(c->events, name, ','))
		return 0;
	if (len + strlen(name) + 2 > c->size) {
		c->full = 1;
		return 0;
	}
	snprintf(c->events + len, c->size - len, "%s%s", len ? "," : "", name);
	return 0;
}

/* What -M chose so far, and where its events go. */
struct pick {
	const char *want;	/* the name or group asked for */
	struct plan *p;
	char *events;		/* -e's, then the metrics' */
	size_t size;
	int found, err;
};

/* ScaleUnit "100%": a factor and a unit, into the metric's label. */
static void scale_unit(struct plan_metric *pm, const char *su)
{
	char *end;

	pm->scale = 1;
	pm->decimals = su[0] ? 1 : 2;
	if (su[0]) {
		pm->scale = strtod(su, &end);
		while (*end == ' ')
			end++;
		if (*end) {
			snprintf(pm->label, sizeof(pm->label), "%s  %s", end,
				 pm->name);
			return;
		}
	}
	snprintf(pm->label, sizeof(pm->label), "%s", pm->name);
}

static int add_metric(struct pick *k, const struct perfctr_metric_info *m)
{
	struct plan *p = k->p;
	struct plan_metric *pm;
	struct collect c;
	char err[256];
	double v;

	if (p->nmetrics == MAX_METRICS) {
		fprintf(stderr,
			"perfex: -M %s: more than %d metrics at once: ask for fewer, and the rest in another run\n",
			k->want, MAX_METRICS);
		return -1;
	}
	pm = &p->metrics[p->nmetrics];
	memset(pm, 0, sizeof(*pm));
	pm->name = m->name;
	pm->expr = m->expr;
	c = (struct collect){ k->events, k->size, pm->first, 0 };
	if (metric_eval(m->expr, collect_name, &c, &v, err, sizeof(err))) {
		fprintf(stderr,
			"perfex: metric %s: MetricExpr '%s' %s: the table is at fault; report it, and leave this metric out\n",
			m->name, m->expr, err);
		return -1;
	}
	if (c.full) {
		fprintf(stderr, "perfex: -M %s: too many events\n", k->want);
		return -1;
	}
	scale_unit(pm, m->scale_unit);
	p->nmetrics++;
	return 0;
}

/* A metric of the table: taken if -M named it or a group of it. */
static int pick_one(const struct perfctr_metric_info *m, void *arg)
{
	struct pick *k = arg;
	int by_name = !strcasecmp(m->name, k->want);
	unsigned int i;

	if (!by_name && !has_token(m->group, k->want, ';'))
		return 0;
	k->found++;
	for (i = 0; i < k->p->nmetrics; i++)
		if (!strcasecmp(k->p->metrics[i].name, m->name))
			return 0;
	if (m->unsupported && by_name) {
		fprintf(stderr,
			"perfex: -M %s: perfex cannot evaluate it (%s); 'perfex -l -v --metrics' says why for each metric\n",
			k->want, m->unsupported);
		return -1;
	}
	if (m->unsupported) {
		fprintf(stderr, "perfex: note: -M %s: metric %s left out: %s\n",
			k->want, m->name, m->unsupported);
		k->found--;
		return 0;
	}
	return add_metric(k, m);
}

int metrics_plan(const struct opts *o, struct plan *p, char *events,
		 size_t size)
{
	const struct perfctr_event_table *t = pick_table(o->cpuid);
	struct pick k = { .p = p, .events = events, .size = size };
	char list[sizeof(o->metrics)], *save = NULL;

	if (!t)
		return EX_FAIL;
	snprintf(list, sizeof(list), "%s", o->metrics);
	for (k.want = strtok_r(list, ",", &save); k.want;
	     k.want = strtok_r(NULL, ",", &save)) {
		k.found = 0;
		if (perfctr_metric_list(t, NULL, pick_one, &k))
			return EX_USAGE;
		if (!k.found) {
			fprintf(stderr,
				"perfex: -M %s: no metric or metric group of that name (table %s) that perfex can evaluate: 'perfex -l --metrics' lists them\n",
				k.want, perfctr_event_table_name(t));
			return EX_USAGE;
		}
	}
	return 0;
}

/* -e's events and the metrics' did not fit: say which, and what next. */
void metrics_no_fit(const struct opts *o, const struct plan *p)
{
	unsigned int i;

	fprintf(stderr, "perfex: -M %s needs", o->metrics);
	for (i = 0; i < p->nmetrics; i++)
		fprintf(stderr, "%s %s (%s)", i ? ";" : "",
			p->metrics[i].name, p->metrics[i].expr);
	fprintf(stderr,
		"%s; perfex never multiplexes, so all must fit the counters at once: count %s in two runs\n",
		o->events[0] ? ", besides -e's events" : "",
		o->events[0] ? "the metrics and the -e events" :
		"fewer metrics at a time");
}

/* --- after the run --- */

struct values {
	const char *const *names;	/* the rows' events */
	const double *vals;
	const int *missing;
	unsigned int n;
	double elapsed;
	int unknown;			/* a name had no value */
};

static int value_of(const char *name, double *val, void *arg)
{
	struct values *v = arg;
	unsigned int i;

	if (!literal(name, val, v->elapsed))
		return 0;
	for (i = 0; i < v->n; i++)
		if (v->names[i] && !strcasecmp(v->names[i], name)) {
			v->unknown |= v->missing[i];
			*val = v->vals[i];
			return 0;
		}
	return -1;
}

int metric_value(const struct plan_metric *pm, const char *const *names,
		 const double *vals, const int *missing, unsigned int n,
		 double elapsed, double *val)
{
	struct values v = { names, vals, missing, n, elapsed, 0 };
	char err[256];

	if (metric_eval(pm->expr, value_of, &v, val, err, sizeof(err)) ||
	    v.unknown)
		return -1;
	*val *= pm->scale;
	return 0;
}
