// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex: the evaluator of perf's MetricExpr subset (perfex.rst,
 * "Metrics"): numbers, names, + - * /, unary minus, parentheses, < and >,
 * min(a, b), max(a, b), d_ratio(a, b) and "a if cond else b". The
 * grammar is tools/pmu-events/jevents.py's ExprParser: the generator
 * refuses what this would. Its input comes from tables and from the
 * command line, so nesting is bounded and names are copied with bounds.
 *
 *   expr  := binop0 [ "if" binop0 "else" expr ]
 *   binop0 := binop1 { ("<" | ">") binop1 }
 *   binop1 := binop2 { ("+" | "-") binop2 }
 *   binop2 := unary { ("*" | "/") unary }
 *   unary := "-" unary | NUMBER | NAME | FUNC "(" expr "," expr ")"
 *            | "(" expr ")"
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "metric.h"

struct parser {
	const char *s;		/* the expression */
	size_t pos;
	metric_lookup_fn lookup;
	void *arg;
	char *err;
	size_t size;
	int failed;
};

static double fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (p->failed)
		return 0;
	p->failed = 1;
	n = snprintf(p->err, p->size, "at column %zu: ", p->pos + 1);
	if (n < 0 || (size_t)n >= p->size)
		return 0;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->size - n, fmt, ap);
	va_end(ap);
	return 0;
}

static void skip_space(struct parser *p)
{
	while (isspace((unsigned char)p->s[p->pos]))
		p->pos++;
}

static int name_char(char c, int first)
{
	if (isalpha((unsigned char)c) || c == '_')
		return 1;
	if (first)
		return c == '#';
	return isdigit((unsigned char)c) || c == '.';
}

/* The name at the cursor into @buf, the cursor after it; 0 if none. */
static size_t take_name(struct parser *p, char *buf, size_t size)
{
	size_t len = 0;

	skip_space(p);
	if (!name_char(p->s[p->pos], 1) ||
	    (p->s[p->pos] == '#' && !isalpha((unsigned char)p->s[p->pos + 1]) &&
	     p->s[p->pos + 1] != '_'))
		return 0;
	while (name_char(p->s[p->pos + len], len == 0))
		len++;
	if (len >= size) {
		fail(p, "a name longer than %zu characters", size - 1);
		return 0;
	}
	memcpy(buf, p->s + p->pos, len);
	buf[len] = '\0';
	p->pos += len;
	return len;
}

/* Whether the next token is the word @w (not a longer name). */
static int at_word(struct parser *p, const char *w)
{
	size_t len = strlen(w);

	skip_space(p);
	return !strncmp(p->s + p->pos, w, len) &&
	       !name_char(p->s[p->pos + len], 0);
}

/* Takes the operator @c if it is next. */
static int take_op(struct parser *p, char c)
{
	skip_space(p);
	if (p->s[p->pos] != c)
		return 0;
	p->pos++;
	return 1;
}

static void want_op(struct parser *p, char c)
{
	if (!take_op(p, c))
		fail(p, "want '%c', found %s%.10s%s", c,
		     p->s[p->pos] ? "'" : "", p->s[p->pos] ? p->s + p->pos :
		     "the end", p->s[p->pos] ? "'" : "");
}

/* Digits, a fraction, an exponent: as jevents.py, no hex, no "inf". */
static double number(struct parser *p)
{
	const char *s = p->s + p->pos;
	char buf[64];
	size_t len = strspn(s, "0123456789");

	if (s[len] == '.')
		len += 1 + strspn(s + len + 1, "0123456789");
	if ((s[len] == 'e' || s[len] == 'E') &&
	    (isdigit((unsigned char)s[len + 1]) ||
	     ((s[len + 1] == '+' || s[len + 1] == '-') &&
	      isdigit((unsigned char)s[len + 2]))))
		len += 2 + strspn(s + len + 2, "0123456789");
	if (len >= sizeof(buf) || (len == 1 && s[0] == '.'))
		return fail(p, "a malformed numeral");
	memcpy(buf, s, len);
	buf[len] = '\0';
	p->pos += len;
	return strtod(buf, NULL);
}

static double expr(struct parser *p, unsigned int depth);

/* min, max, d_ratio: their two arguments taken. */
static double call(struct parser *p, const char *fn, unsigned int depth)
{
	double a, b;

	a = expr(p, depth + 1);
	want_op(p, ',');
	b = expr(p, depth + 1);
	want_op(p, ')');
	/* perf's own comparisons, NaN included: min(1, NaN) is NaN. */
	if (!strcasecmp(fn, "min"))
		return a < b ? a : b;
	if (!strcasecmp(fn, "max"))
		return a > b ? a : b;
	/* perf's d_ratio: a ratio that is 0, not NaN, when b is. */
	return b == 0 ? 0 : a / b;
}

static double name_value(struct parser *p, const char *name, size_t start)
{
	double v;

	if (p->lookup(name, &v, p->arg)) {
		p->pos = start;
		return fail(p,
			    "'%s' is neither an event of this table nor one of #smt_on, #num_cpus, #num_cpus_online, duration_time",
			    name);
	}
	return v;
}

static double unary(struct parser *p, unsigned int depth)
{
	char name[METRIC_NAME_MAX];
	size_t start;
	double v;
	char c;

	if (depth > METRIC_MAX_DEPTH)
		return fail(p, "nested deeper than %d", METRIC_MAX_DEPTH);
	skip_space(p);
	start = p->pos;
	c = p->s[p->pos];
	if (isdigit((unsigned char)c) || c == '.')
		return number(p);
	if (take_op(p, '-'))
		return -unary(p, depth + 1);
	if (take_op(p, '(')) {
		v = expr(p, depth + 1);
		want_op(p, ')');
		return v;
	}
	if (c == '@' || c == '\\')
		return fail(p,
			    "'%c' (a PMU-qualified or escaped event): perfctr takes plain event names",
			    c);
	if (at_word(p, "if") || at_word(p, "else") ||
	    !take_name(p, name, sizeof(name)))
		return fail(p, "want a number, a name or '(', found %s%.10s%s",
			    c ? "'" : "", c ? p->s + p->pos : "the end",
			    c ? "'" : "");
	if (p->s[p->pos] == '@' || p->s[p->pos] == '\\')
		return fail(p,
			    "'%s%c' (a PMU-qualified or escaped event): perfctr takes plain event names",
			    name, p->s[p->pos]);
	if (!take_op(p, '('))
		return name_value(p, name, start);
	if (strcasecmp(name, "min") && strcasecmp(name, "max") &&
	    strcasecmp(name, "d_ratio"))
		return fail(p, "function %s(): perfctr has min, max and d_ratio",
			    name);
	return call(p, name, depth);
}

/* A comparison's 1 or 0, a sum, a product; perf's NaN for x / 0. */
static double apply(char op, double a, double b)
{
	switch (op) {
	case '<':
		return a < b;
	case '>':
		return a > b;
	case '+':
		return a + b;
	case '-':
		return a - b;
	case '*':
		return a * b;
	}
	return b == 0 ? NAN : a / b;
}

static double binop(struct parser *p, unsigned int level, unsigned int depth)
{
	static const char *const ops[] = { "<>", "+-", "*/" };
	double v, w;
	char op;

	if (level == 3)
		return unary(p, depth);
	v = binop(p, level + 1, depth);
	for (;;) {
		skip_space(p);
		op = p->s[p->pos];
		if (p->failed || !op || !strchr(ops[level], op))
			return v;
		p->pos++;
		w = binop(p, level + 1, depth);
		v = apply(op, v, w);
	}
}

static double expr(struct parser *p, unsigned int depth)
{
	double v, cond, other;

	if (depth > METRIC_MAX_DEPTH)
		return fail(p, "nested deeper than %d", METRIC_MAX_DEPTH);
	v = binop(p, 0, depth);
	if (p->failed || !at_word(p, "if"))
		return v;
	p->pos += 2;
	cond = binop(p, 0, depth);
	if (!at_word(p, "else"))
		return fail(p, "want 'else' after 'if'");
	p->pos += 4;
	other = expr(p, depth + 1);
	return cond != 0 ? v : other;
}

int metric_eval(const char *text, metric_lookup_fn lookup, void *arg,
		double *val, char *err, size_t size)
{
	struct parser p = {
		.s = text, .lookup = lookup, .arg = arg, .err = err,
		.size = size,
	};
	double v;

	if (size)
		err[0] = '\0';
	v = expr(&p, 0);
	skip_space(&p);
	if (!p.failed && p.s[p.pos])
		fail(&p, "unexpected '%.10s'", p.s + p.pos);
	if (p.failed)
		return -1;
	*val = v;
	return 0;
}
