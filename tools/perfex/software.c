// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex: perf stat's software events, from what the kernel accounts to
 * the command's tree anyway: wait4()'s rusage, which holds the command
 * and every descendant it waited for (perfex.rst, "Software events").
 * No counter is spent on them. cpu-migrations is the tree's count in
 * children (ABI 1.2; <not supported> before), which the module takes
 * from the scheduler's.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/resource.h>
#include <unistd.h>

#include "perfex.h"

static const struct {
	const char *name, *alias;
} sw_names[SW_NR] = {
	[SW_TASK_CLOCK] = { "task-clock", "cpu-clock" },
	[SW_CONTEXT_SWITCHES] = { "context-switches", "cs" },
	[SW_CPU_MIGRATIONS] = { "cpu-migrations", "migrations" },
	[SW_PAGE_FAULTS] = { "page-faults", "faults" },
	[SW_MINOR_FAULTS] = { "minor-faults", NULL },
	[SW_MAJOR_FAULTS] = { "major-faults", NULL },
};

const char *sw_name(int kind)
{
	return sw_names[kind].name;
}

/*
 * The software event @len bytes of @s name, or -1: modifiers and a
 * group's braces aside, which sw_token() then refuses.
 */
static int sw_find(const char *s, size_t len)
{
	int k;

	if (len && *s == '{') {
		s++;
		len--;
	}
	len = strcspn(s, ":}") < len ? strcspn(s, ":}") : len;
	for (k = 0; k < SW_NR; k++)
		if ((strlen(sw_names[k].name) == len &&
		     !strncasecmp(s, sw_names[k].name, len)) ||
		    (sw_names[k].alias && strlen(sw_names[k].alias) == len &&
		     !strncasecmp(s, sw_names[k].alias, len)))
			return k;
	return -1;
}

/* One event of -e's list: a software row, or the next PMU event's. */
static int sw_token(struct plan *p, const char *tok, size_t len, char *pmu,
		    size_t size, unsigned int *npmu)
{
	int k = sw_find(tok, len);
	size_t have = strlen(pmu);

	if (p->nrows == MAX_ROWS)
		return -1;
	if (k < 0) {
		if (have + len + 2 > size)
			return -1;
		if (have)
			pmu[have++] = ',';
		memcpy(pmu + have, tok, len);
		pmu[have + len] = '\0';
		p->rows[p->nrows].sw = -1;
		p->rows[p->nrows++].idx = (*npmu)++;
		return 0;
	}
	if (memchr(tok, ':', len) || memchr(tok, '{', len) ||
	    memchr(tok, '}', len)) {
		fprintf(stderr,
			"perfex: '%.*s': a software event takes no modifiers and no group: it counts the whole command, user and kernel; write it alone, as %s\n",
			(int)len, tok, sw_names[k].name);
		return -2;
	}
	p->rows[p->nrows].sw = k;
	snprintf(p->rows[p->nrows++].text, sizeof(p->rows[0].text), "%.*s",
		 (int)len, tok);
	return 0;
}

/*
 * Splits -e's list as libperfctr does (commas outside cpu/.../): the
 * software events become rows of their own, the rest, in order, the
 * list @pmu that libperfctr encodes. 0, or EX_USAGE after saying why.
 */
int sw_split(struct plan *p, const char *events, char *pmu, size_t size)
{
	const char *start = events, *s;
	unsigned int npmu = 0;
	int in_slash = 0, ret;

	pmu[0] = '\0';
	for (s = events;; s++) {
		if (*s == '/')
			in_slash = !in_slash;
		if ((*s != ',' || in_slash) && *s)
			continue;
		ret = sw_token(p, start, s - start, pmu, size, &npmu);
		if (ret == -1)
			fprintf(stderr, "perfex: too many events in '%s'\n",
				events);
		if (ret)
			return EX_USAGE;
		if (!*s)
			return 0;
		start = s + 1;
	}
}

/*
 * perf stat's default rows: the software events, then the counters'.
 * Counting CPUs (-a, -C), the first is their time, cpu-clock.
 */
void sw_default_rows(struct plan *p, int cpus)
{
	static const int kinds[] = {
		SW_TASK_CLOCK, SW_CONTEXT_SWITCHES, SW_CPU_MIGRATIONS,
		SW_PAGE_FAULTS,
	};
	unsigned int i;

	for (i = 0; i < sizeof(kinds) / sizeof(*kinds); i++) {
		p->rows[i].sw = kinds[i];
		snprintf(p->rows[i].text, sizeof(p->rows[i].text), "%s",
			 cpus && !i ? "cpu-clock" : sw_names[kinds[i]].name);
	}
	p->nrows = i;
}

/* The command's tree's figures from its rusage; task-clock in ns. */
void sw_from_rusage(const struct rusage *ru, double *sw)
{
	sw[SW_TASK_CLOCK] = (ru->ru_utime.tv_sec + ru->ru_stime.tv_sec) * 1e9 +
			    (ru->ru_utime.tv_usec + ru->ru_stime.tv_usec) * 1e3;
	sw[SW_CONTEXT_SWITCHES] = ru->ru_nvcsw + ru->ru_nivcsw;
	sw[SW_CPU_MIGRATIONS] = NAN;
	sw[SW_PAGE_FAULTS] = ru->ru_minflt + ru->ru_majflt;
	sw[SW_MINOR_FAULTS] = ru->ru_minflt;
	sw[SW_MAJOR_FAULTS] = ru->ru_majflt;
}

/* Whether the plan has no software row. */
int sw_none(const struct plan *p)
{
	unsigned int i;

	for (i = 0; i < p->nrows; i++)
		if (p->rows[i].sw >= 0)
			return 0;
	return 1;
}

/*
 * -I: the command's figures so far, from /proc/PID/stat: its threads
 * and the children it waited for (proc(5): minflt, cminflt, majflt,
 * cmajflt, utime, stime, cutime, cstime, fields 10-17). A process of
 * the tree not yet waited for is left out until the end; the context
 * switches of the tree are known only then (NaN: not counted).
 */
void sw_from_proc(pid_t pid, double *sw)
{
	unsigned long long v[8];
	char path[48], buf[1024], *s;
	double hz = sysconf(_SC_CLK_TCK);
	unsigned int i;
	ssize_t n;
	int fd;

	for (i = 0; i < SW_NR; i++)
		sw[i] = NAN;
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	/* The name may hold blanks and parentheses: after the last ')'. */
	s = strrchr(buf, ')');
	if (!s || hz <= 0 ||
	    sscanf(s + 1, " %*c %*d %*d %*d %*d %*d %*u %llu %llu %llu %llu %llu %llu %llu %llu",
		   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 8)
		return;
	sw[SW_TASK_CLOCK] = (v[4] + v[5] + v[6] + v[7]) / hz * 1e9;
	sw[SW_MINOR_FAULTS] = v[0] + v[1];
	sw[SW_MAJOR_FAULTS] = v[2] + v[3];
	sw[SW_PAGE_FAULTS] = sw[SW_MINOR_FAULTS] + sw[SW_MAJOR_FAULTS];
}
