// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex: AMD Instruction-Based Sampling of the command (perfex.rst,
 * --ibs-op and --ibs-fetch). The child sets IBS up on itself and sends
 * its sample ring along with its counters (run.c); perfex drains the
 * ring every few milliseconds while the command runs, and once more
 * after it exits, writing each sample as a -x SEP line or a -j object.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfex.h"

/* --- the command line --- */

/*
 * --ibs-op=MAXCNT, --ibs-fetch=MAXCNT: decimal or 0x hex, a multiple of
 * 16 from 0x10 to @max. Says what is wrong; 0 or -1.
 */
int parse_maxcnt(const char *opt, const char *arg, unsigned long max,
		 __u32 *val)
{
	int hex = arg[0] == '0' && (arg[1] == 'x' || arg[1] == 'X');
	const char *digits = arg + (hex ? 2 : 0);
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(digits, &end, hex ? 16 : 10);
	/* strtoull() would take blanks and a sign first. */
	if (!(hex ? isxdigit(*digits) : isdigit(*digits)) || *end ||
	    (errno && errno != ERANGE)) {
		fprintf(stderr,
			"perfex: %s=%s: give MAXCNT as a number, decimal or 0x hex (e.g. %s=0x10000)\n",
			opt, arg, opt);
		return -1;
	}
	if (v < PERFCTR_IBS_MIN || v > max) {
		fprintf(stderr,
			"perfex: %s=%s: MAXCNT goes from 0x%x to 0x%lx\n",
			opt, arg, PERFCTR_IBS_MIN, max);
		return -1;
	}
	if (v & 0xf) {
		fprintf(stderr,
			"perfex: %s=%s: MAXCNT must be a multiple of 16 (its low 4 bits are zero), e.g. 0x%llx\n",
			opt, arg, v & ~0xfULL);
		return -1;
	}
	*val = v;
	return 0;
}

/* The options that go with an engine: each needs its engine. */
int check_ibs_opts(const struct opts *o)
{
	const struct perfctr_ibs_control *c = &o->ibs;
	const char *bad = NULL;

	if ((c->flags & PERFCTR_IBS_OP_CNT_OPS) && !(c->flags & PERFCTR_IBS_OP))
		bad = "--ibs-ops needs --ibs-op=MAXCNT";
	else if ((c->flags & PERFCTR_IBS_FETCH_RAND) &&
		 !(c->flags & PERFCTR_IBS_FETCH))
		bad = "--ibs-rand needs --ibs-fetch=MAXCNT";
	else if ((c->flags & PERFCTR_IBS_KERNEL) && !ibs_engines(c))
		bad = "--ibs-kernel needs --ibs-op or --ibs-fetch";
	else if (ibs_engines(c) && o->repeat > 1)
		bad = "--ibs-op and --ibs-fetch sample one run: drop -r";
	if (bad)
		fprintf(stderr, "perfex: %s\n", bad);
	return bad ? -1 : 0;
}

int ibs_engines(const struct perfctr_ibs_control *c)
{
	return c->flags & (PERFCTR_IBS_OP | PERFCTR_IBS_FETCH);
}

/*
 * What this CPU's IBS (info's ibs_caps) cannot do of @c, checked before
 * the command runs where the module says; 0 or EX_USAGE.
 */
int ibs_plan_check(const struct perfctr_ibs_control *c, unsigned int caps)
{
	if (!(caps & PERFCTR_IBS_CAP_AVAIL) || !(c->flags & PERFCTR_IBS_OP) ||
	    c->op_maxcnt <= PERFCTR_IBS_MAX || (caps & PERFCTR_IBS_CAP_OPCNTEXT))
		return 0;
	fprintf(stderr,
		"perfex: --ibs-op=0x%x: this CPU's op counter has 20 bits (no opcntext in ibs_caps): give at most 0x%x\n",
		c->op_maxcnt, PERFCTR_IBS_MAX);
	return EX_USAGE;
}

/* --- refusals --- */

static const char *drop_options(const struct perfctr_ibs_control *c)
{
	switch (c->flags & (PERFCTR_IBS_OP | PERFCTR_IBS_FETCH)) {
	case PERFCTR_IBS_OP:
		return "drop --ibs-op";
	case PERFCTR_IBS_FETCH:
		return "drop --ibs-fetch";
	}
	return "drop --ibs-op and --ibs-fetch";
}

/* EOPNOTSUPP: no IBS, or not the engine or feature asked for. */
static void ibs_unsupported(const struct perfctr_ibs_control *c,
			    unsigned int caps)
{
	if (!(caps & PERFCTR_IBS_CAP_AVAIL))
		fprintf(stderr,
			"perfex: this CPU has no IBS (AMD family 10h and later have it): %s\n",
			drop_options(c));
	else if ((c->flags & PERFCTR_IBS_FETCH) &&
		 !(caps & PERFCTR_IBS_CAP_FETCHSAM))
		fprintf(stderr,
			"perfex: this CPU's IBS has no fetch sampling: drop --ibs-fetch\n");
	else if ((c->flags & PERFCTR_IBS_OP) && !(caps & PERFCTR_IBS_CAP_OPSAM))
		fprintf(stderr,
			"perfex: this CPU's IBS has no op sampling: drop --ibs-op\n");
	else if ((c->flags & PERFCTR_IBS_OP_CNT_OPS) &&
		 !(caps & PERFCTR_IBS_CAP_OPCNT))
		fprintf(stderr,
			"perfex: this CPU's IBS cannot count dispatched ops: drop --ibs-ops (MAXCNT then counts cycles)\n");
	else
		fprintf(stderr,
			"perfex: this CPU's IBS cannot sample so (ibs_caps %#x in %s/info): %s\n",
			caps, PERFCTR_ROOT, drop_options(c));
}

static void ibs_forbidden(const struct perfctr_ibs_control *c,
			  const struct perfctr_info *info)
{
	if (info->paranoid >= 3 || !(c->flags & PERFCTR_IBS_KERNEL))
		fprintf(stderr,
			"perfex: uid %d may not use IBS: perfctr.paranoid is %d: ask the administrator for CAP_PERFMON, or to lower /sys/module/perfctr/parameters/paranoid\n",
			(int)geteuid(), info->paranoid);
	else
		fprintf(stderr,
			"perfex: uid %d may not have IBS samples of kernel code: perfctr.paranoid is %d: drop --ibs-kernel, or ask the administrator for CAP_PERFMON, or to lower /sys/module/perfctr/parameters/paranoid\n",
			(int)geteuid(), info->paranoid);
}

/* The child could not set IBS up (@ring: or open its ring): why. */
void ibs_refused(const struct perfctr_ibs_control *c, int err, int ring)
{
	struct perfctr_info info;

	if (perfctr_info(&info))
		memset(&info, 0, sizeof(info));
	if (err == ENOENT && !ring) {
		fprintf(stderr,
			"perfex: this perfctr module has no IBS (no %s/self/ibs): load a newer perfctr module\n",
			PERFCTR_ROOT);
	} else if (err == EOPNOTSUPP && !ring) {
		ibs_unsupported(c, info.ibs_caps);
	} else if (err == EACCES || err == EPERM) {
		ibs_forbidden(c, &info);
	} else if (err == EBUSY) {
		fprintf(stderr,
			"perfex: IBS is in use by perf (perf record or perf top with ibs_op// or ibs_fetch//, or their -e cycles:pp): wait for it to end, then run again\n");
	} else if (err == EINVAL && !ring) {
		fprintf(stderr,
			"perfex: the module refused the IBS setup: %s: MAXCNT is a multiple of 16 from 0x%x to 0x%x (--ibs-op: 0x%x where ibs_caps has opcntext)\n",
			strerror(err), PERFCTR_IBS_MIN, PERFCTR_IBS_MAX,
			PERFCTR_IBS_MAX_EXT);
	} else {
		fprintf(stderr, "perfex: cannot %s: %s\n",
			ring ? "map the IBS sample ring" : "set IBS up",
			strerror(err));
	}
}

/* --- the samples --- */

/* The fields of a sample, in -x's header and -j's keys. */
static const char *const field_names[] = {
	"kind", "seq", "tsc", "valid", "ip",
	"fetch-ctl", "fetch-lin", "fetch-phys",
	"op-ctl", "op-rip", "op-data1", "op-data2", "op-data3",
	"dc-lin", "dc-phys",
};

#define NR_FIELDS	(sizeof(field_names) / sizeof(*field_names))
#define NR_NUMBERS	2	/* seq and tsc: numbers; the rest strings */

/* The sample's instruction address, if the hardware gave one. */
static int sample_ip(const struct perfctr_ibs_sample *s, __u64 *ip)
{
	if (s->kind == PERFCTR_IBS_SAMPLE_OP &&
	    (s->valid & PERFCTR_IBS_VALID_OP_RIP)) {
		*ip = s->op_rip;
		return 1;
	}
	if (s->kind == PERFCTR_IBS_SAMPLE_FETCH &&
	    (s->valid & PERFCTR_IBS_VALID_FETCH_LIN)) {
		*ip = s->fetch_lin;
		return 1;
	}
	return 0;
}

static const char *kind_name(__u32 kind)
{
	if (kind == PERFCTR_IBS_SAMPLE_OP)
		return "op";
	if (kind == PERFCTR_IBS_SAMPLE_FETCH)
		return "fetch";
	return "unknown";
}

/* Each field of @s as text, in field_names' order. */
static void sample_fields(const struct perfctr_ibs_sample *s,
			  char f[NR_FIELDS][24])
{
	const __u64 regs[] = {
		s->fetch_ctl, s->fetch_lin, s->fetch_phys, s->op_ctl,
		s->op_rip, s->op_data[0], s->op_data[1], s->op_data[2],
		s->dc_lin, s->dc_phys,
	};
	unsigned int i;
	__u64 ip;

	snprintf(f[0], sizeof(f[0]), "%s", kind_name(s->kind));
	snprintf(f[1], sizeof(f[1]), "%llu", (unsigned long long)s->seq);
	snprintf(f[2], sizeof(f[2]), "%llu", (unsigned long long)s->tsc);
	snprintf(f[3], sizeof(f[3]), "0x%x", s->valid);
	f[4][0] = '\0';
	if (sample_ip(s, &ip))
		snprintf(f[4], sizeof(f[4]), "0x%llx", (unsigned long long)ip);
	for (i = 0; i < sizeof(regs) / sizeof(*regs); i++)
		snprintf(f[5 + i], sizeof(f[0]), "0x%llx",
			 (unsigned long long)regs[i]);
}

/* -x SEP's header line; -j has none. */
void ibs_header(struct ibs_sink *k)
{
	unsigned int i;

	if (k->json)
		return;
	for (i = 0; i < NR_FIELDS; i++)
		fprintf(k->f, "%s%s", i ? k->sep : "", field_names[i]);
	fputc('\n', k->f);
	fflush(k->f);
}

static void write_sample(struct ibs_sink *k, const struct perfctr_ibs_sample *s)
{
	char f[NR_FIELDS][24];
	unsigned int i;

	sample_fields(s, f);
	if (k->json)
		fputc('{', k->f);
	for (i = 0; i < NR_FIELDS; i++) {
		if (!k->json)
			fprintf(k->f, "%s%s", i ? k->sep : "", f[i]);
		else if (i >= 1 && i <= NR_NUMBERS)
			fprintf(k->f, "%s\"%s\" : %s", i ? ", " : "",
				field_names[i], f[i]);
		else
			fprintf(k->f, "%s\"%s\" : \"%s\"", i ? ", " : "",
				field_names[i], f[i]);
	}
	fputs(k->json ? "}\n" : "\n", k->f);
	k->written++;
}

/* Every sample the ring holds now; how many, or -1. */
static int drain_all(struct vperfctr_ibs_ring *r, struct ibs_sink *k)
{
	struct perfctr_ibs_sample buf[64];
	int n, i, total = 0;

	do {
		n = vperfctr_ibs_drain(r, buf, 64);
		for (i = 0; i < n; i++)
			write_sample(k, &buf[i]);
		total += n > 0 ? n : 0;
	} while (n == 64);
	if (n < 0 && errno == EACCES) {
		fprintf(stderr,
			"perfex: cannot read the IBS samples: %s: the command changed its credentials or made itself undumpable (setuid(), prctl(PR_SET_DUMPABLE, 0)), and perfctr takes no samples of it from then on (amd.rst); those before are written: to sample all of such a program, use perf record -e ibs_op// as root\n",
			strerror(errno));
		return -1;
	}
	if (n < 0) {
		fprintf(stderr, "perfex: cannot read the IBS samples: %s\n",
			strerror(errno));
		return -1;
	}
	return total;
}

/*
 * Reaps @pid, draining @r meanwhile: every millisecond while the ring
 * fills fast, else every 5 ms; then what the command left. 0, or -1 if
 * wait4() failed.
 */
int ibs_follow(struct vperfctr_ibs_ring *r, pid_t pid, int *status,
	       struct rusage *ru, struct ibs_sink *k)
{
	unsigned int quarter = vperfctr_ibs_header(r)->nr_slots / 4;
	int n = 0, dead = 0;
	pid_t w;

	for (;;) {
		if (n >= 0)
			n = drain_all(r, k);
		k->failed |= n < 0;
		if (dead)
			break;
		w = wait4(pid, status, WNOHANG, ru);
		if (w < 0 && errno != EINTR)
			return -1;
		if (w == pid)
			dead = 1;	/* drain once more, then stop */
		else
			usleep(n >= 0 && (unsigned int)n > quarter ? 1000 : 5000);
	}
	vperfctr_ibs_stats(r, &k->stats);
	k->done = 1;
	return 0;
}

/* The summary line, on standard error. */
void ibs_summary(const struct ibs_sink *k)
{
	if (!k->done)
		return;
	fprintf(stderr, "perfex: %llu IBS samples written, %llu lost, %llu filtered\n",
		k->written, k->stats.lost, k->stats.filtered);
	if (k->stats.lost)
		fprintf(stderr,
			"perfex: note: the ring was full %llu times: give a larger MAXCNT to sample less often\n",
			k->stats.lost);
	if (k->stats.busy)
		fprintf(stderr,
			"perfex: note: perf's IBS held the CPU %llu times while the command ran there: no samples then\n",
			k->stats.busy);
}
