/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfex: perf's metric expressions (metric.c), on their own so that
 * check_metric tests them without the rest of perfex.
 */
#ifndef _PERFEX_METRIC_H
#define _PERFEX_METRIC_H

#include <stddef.h>

/* jevents.py's EXPR_DEPTH: the generator refuses deeper tables. */
#define METRIC_MAX_DEPTH	64
/* A name's length, its '\0' included. */
#define METRIC_NAME_MAX		128

/* @name's value into @val: 0, or -1 if it has none. */
typedef int (*metric_lookup_fn)(const char *name, double *val, void *arg);

/*
 * Evaluates @expr, each name through @lookup: 0 with *@val, or -1 with
 * @err (@size bytes) saying what is wrong and where. x / 0 is NaN, as
 * perf has it; d_ratio(x, 0) is 0.
 */
int metric_eval(const char *expr, metric_lookup_fn lookup, void *arg,
		double *val, char *err, size_t size);

#endif /* _PERFEX_METRIC_H */
