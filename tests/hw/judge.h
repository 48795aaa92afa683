/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The judging side of make check-hw: facts (key=value lines, as
 * tests/hw/run.sh and hwloop write them) in, a verdict out. Kept apart
 * from the measuring so that check_hw can feed it measured values.
 */
#ifndef HW_JUDGE_H
#define HW_JUDGE_H

#include <stdio.h>

#define HW_MAX_FACTS	96

struct hw_facts {
	unsigned int nr;
	char key[HW_MAX_FACTS][32];
	char val[HW_MAX_FACTS][512];
};

/* What hw_judge() returns, and hwjudge's exit status. */
enum hw_outcome { HW_PASS = 0, HW_FAIL = 1, HW_REFUSED = 2 };

/*
 * Adds one "key=value" line (newline optional), the value cut to fit;
 * -1 if malformed or full.
 */
int hw_fact_line(struct hw_facts *f, const char *line);
/* The value of @key, or NULL (also if empty); the last line wins. */
const char *hw_fact(const struct hw_facts *f, const char *key);

/* Writes why the check cannot run here to @out; HW_REFUSED or HW_PASS. */
enum hw_outcome hw_refusals(const struct hw_facts *f, FILE *out);
/* The whole verdict block; what it concludes. */
enum hw_outcome hw_judge(const struct hw_facts *f, FILE *out);

#endif /* HW_JUDGE_H */
