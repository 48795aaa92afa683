// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "ibs" case: --ibs-op and --ibs-fetch (perfex.rst).
 * A MAXCNT is a multiple of 16 from 0x10 to 0xFFFF0, or to 0x7FFFFF0 for
 * op sampling where the CPU has IbsOpCntExt (AMD's IBS description:
 * MaxCnt[19:4] in bits 15:0, the op count's extension in 26:20); every
 * bad one, and every option without its engine, is a usage error (2)
 * that runs nothing, and its twin is accepted. Without IBS (perfctr.ko
 * under QEMU, the simulated families before 10h) perfex says so and
 * what to drop. With IBS (the simulated zen and fam10h) the samples come
 * out: -x's header and fields, -j's objects, numbered from 0 one by
 * one, the op RIPs mostly inside the sampled program's own code, and
 * the summary; the privilege policy and perf's IBS refuse as documented.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite.h"

#define SAMPLES		"/tmp/px-ibs"
#define NR_FIELDS	15
#define NO_IBS		"perfex: this CPU has no IBS (AMD family 10h and later have it): "
#define NOBODY_KERNEL	"perfex: uid 65534 may not have IBS samples of kernel code: perfctr.paranoid is 2: drop --ibs-kernel"
#define NOBODY_3	"perfex: uid 65534 may not use IBS: perfctr.paranoid is 3"
#define SUID_COPY	"/tmp/px-ibs-suid-busy"
/* A little more than the second a busy answer of the driver stands. */
#define BUSY_AGE_US	1500000
#define WITHDRAWN	"perfex: cannot read the IBS samples: Permission denied: the command changed"
#define WITHHELD	"ran without counters or IBS: perfctr removed them at exec"
#define DROPPED_IBS	"perfex: " SUID_COPY " ran without counters or IBS: "

static const char *const fields[NR_FIELDS] = {
	"kind", "seq", "tsc", "valid", "ip",
	"fetch-ctl", "fetch-lin", "fetch-phys",
	"op-ctl", "op-rip", "op-data1", "op-data2", "op-data3",
	"dc-lin", "dc-phys",
};

/* CPUID Fn8000_001B EAX as info shows it; 0: no IBS. */
static unsigned int ibs_caps(void)
{
	const char *v = info_field("ibs_caps");

	return v ? strtoul(v, NULL, 16) : 0;
}

static int have(unsigned int caps)
{
	return (ibs_caps() & (PERFCTR_IBS_CAP_AVAIL | caps)) ==
	       (PERFCTR_IBS_CAP_AVAIL | caps);
}

/* Back to the defaults: the policy, and perf's IBS idle. */
static void ibs_defaults(void)
{
	param_put("paranoid", "2");
	param_put("ibs_busy", "0");
	unlink(SAMPLES);
}

/* --- usage --- */

static const struct {
	const char *argv[4];
	const char *says;
} bad_usage[] = {
	{ { "--ibs-op=0" }, "perfex: --ibs-op=0: MAXCNT goes from 0x10 to 0x7fffff0" },
	{ { "--ibs-fetch=0" }, "perfex: --ibs-fetch=0: MAXCNT goes from 0x10 to 0xffff0" },
	{ { "--ibs-op=0x11" }, "perfex: --ibs-op=0x11: MAXCNT must be a multiple of 16" },
	{ { "--ibs-fetch=24" }, "perfex: --ibs-fetch=24: MAXCNT must be a multiple of 16" },
	{ { "--ibs-op=0x8" }, "perfex: --ibs-op=0x8: MAXCNT goes from 0x10" },
	{ { "--ibs-op=0x8000000" },
	  "perfex: --ibs-op=0x8000000: MAXCNT goes from 0x10 to 0x7fffff0" },
	{ { "--ibs-fetch=0x100000" },
	  "perfex: --ibs-fetch=0x100000: MAXCNT goes from 0x10 to 0xffff0" },
	{ { "--ibs-op=99999999999999999999" }, "MAXCNT goes from 0x10" },
	{ { "--ibs-op=abc" }, "perfex: --ibs-op=abc: give MAXCNT as a number, decimal or 0x hex" },
	{ { "--ibs-op=0x" }, "give MAXCNT as a number" },
	{ { "--ibs-op=-16" }, "give MAXCNT as a number" },
	{ { "--ibs-op= 16" }, "give MAXCNT as a number" },
	{ { "--ibs-fetch=1e4" }, "give MAXCNT as a number" },
	{ { "--ibs-fetch=0x10k" }, "give MAXCNT as a number" },
	{ { "--ibs-ops" }, "perfex: --ibs-ops needs --ibs-op=MAXCNT" },
	{ { "--ibs-fetch=0x10", "--ibs-ops" }, "--ibs-ops needs --ibs-op=MAXCNT" },
	{ { "--ibs-rand" }, "perfex: --ibs-rand needs --ibs-fetch=MAXCNT" },
	{ { "--ibs-op=0x10", "--ibs-rand" }, "--ibs-rand needs --ibs-fetch=MAXCNT" },
	{ { "--ibs-kernel" }, "perfex: --ibs-kernel needs --ibs-op or --ibs-fetch" },
	{ { "--ibs-op=0x10", "-r", "2" },
	  "perfex: --ibs-op and --ibs-fetch sample one run: drop -r" },
	{ { "--ibs-op=0x10", "-l" }, "are for counting a command" },
};

/* argv of perfex: @opts, then PX_TOUCH. */
static void with_touch(const char *argv[8], const char *const *opts)
{
	static const char *const touch[] = { PX_TOUCH };
	int i, n = 0;

	for (i = 0; i < 4 && opts[i]; i++)
		argv[n++] = opts[i];
	for (i = 0; i < 3; i++)
		argv[n++] = touch[i];
	argv[n] = NULL;
}

START_TEST(ibs_usage_error_is_2)
{
	const char *argv[8];
	struct px_result r;

	with_touch(argv, bad_usage[_i].argv);
	unlink(MARKER);
	px_run(&r, argv);
	ck_assert_msg(r.status == 2, "%s: status %d:\n%s", argv[0], r.status,
		      r.err);
	ck_assert_msg(strstr(r.err, bad_usage[_i].says), "%s:\n%s", argv[0],
		      r.err);
	ck_assert_int_ne(access(MARKER, F_OK), 0);
}

/*
 * The twins: each accepted, and then sampled where the CPU can, or
 * refused for the CPU's want of IBS (1), never as usage (2).
 */
static const struct {
	const char *argv[4];
	unsigned int needs;	/* PERFCTR_IBS_CAP_* besides AVAIL */
} good_usage[] = {
	{ { "--ibs-op=0x10" }, PERFCTR_IBS_CAP_OPSAM },
	{ { "--ibs-op=16" }, PERFCTR_IBS_CAP_OPSAM },
	{ { "--ibs-op=0xFFFF0" }, PERFCTR_IBS_CAP_OPSAM },
	{ { "--ibs-fetch=0xffff0" }, PERFCTR_IBS_CAP_FETCHSAM },
	{ { "--ibs-fetch=1048560" }, PERFCTR_IBS_CAP_FETCHSAM },
	{ { "--ibs-op=0x10", "--ibs-ops" },
	  PERFCTR_IBS_CAP_OPSAM | PERFCTR_IBS_CAP_OPCNT },
	{ { "--ibs-fetch=0x10", "--ibs-rand" }, PERFCTR_IBS_CAP_FETCHSAM },
	{ { "--ibs-op=0x100", "--ibs-fetch=0x100" },
	  PERFCTR_IBS_CAP_OPSAM | PERFCTR_IBS_CAP_FETCHSAM },
	{ { "--ibs-op=0x10000", "--ibs-kernel" }, PERFCTR_IBS_CAP_OPSAM },
};

START_TEST(ibs_good_usage_runs)
{
	int can = have(good_usage[_i].needs);
	const char *argv[8];
	struct px_result r;

	with_touch(argv, good_usage[_i].argv);
	unlink(MARKER);
	px_run(&r, argv);
	ck_assert_msg(r.status == (can ? 0 : 1), "%s: status %d:\n%s",
		      argv[0], r.status, r.err);
	ck_assert_int_eq(access(MARKER, F_OK), can ? 0 : -1);
	if (!have(0))
		ck_assert_msg(strstr(r.err, NO_IBS), "%s", r.err);
	unlink(MARKER);
}

/*
 * 0x7FFFFF0 needs the extended op count: refused before the command
 * runs where ibs_caps lacks it, sampled where it has it.
 */
START_TEST(ibs_op_ext_needs_opcntext)
{
	static const char *const opts[] = { "--ibs-op=0x7FFFFF0", NULL };
	const char *argv[8];
	struct px_result r;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;		/* ibs_good_usage_runs: no IBS */
	with_touch(argv, opts);
	unlink(MARKER);
	px_run(&r, argv);
	if (have(PERFCTR_IBS_CAP_OPCNTEXT)) {
		ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
		ck_assert_int_eq(access(MARKER, F_OK), 0);
	} else {
		ck_assert_msg(r.status == 2, "status %d:\n%s", r.status, r.err);
		ck_assert_msg(strstr(r.err, "op counter has 20 bits") &&
			      strstr(r.err, "give at most 0xffff0"), "%s", r.err);
		ck_assert_int_ne(access(MARKER, F_OK), 0);
	}
	unlink(MARKER);
}

/* --- a CPU without IBS --- */

static const struct {
	const char *argv[4];
	const char *drop;
} no_ibs[] = {
	{ { "--ibs-op=0x10000" }, "drop --ibs-op\n" },
	{ { "--ibs-fetch=0x10000", "--ibs-rand" }, "drop --ibs-fetch\n" },
	{ { "--ibs-op=0x10000", "--ibs-fetch=0x10000" },
	  "drop --ibs-op and --ibs-fetch\n" },
};

START_TEST(no_ibs_says_drop)
{
	const char *argv[8];
	struct px_result r;
	char want[256];

	if (have(0))
		return;		/* the sampling tests below */
	with_touch(argv, no_ibs[_i].argv);
	unlink(MARKER);
	px_run(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	snprintf(want, sizeof(want), "%s%s", NO_IBS, no_ibs[_i].drop);
	ck_assert_msg(strstr(r.err, want), "want '%s' in:\n%s", want, r.err);
	ck_assert_int_ne(access(MARKER, F_OK), 0);
}

/* --- the samples --- */

/* The whole of @path, NUL-terminated; free() it. */
static char *slurp_file(const char *path)
{
	size_t size = 0, len = 0;
	char *buf = NULL;
	FILE *f = fopen(path, "r");
	size_t n;

	ck_assert_msg(f, "%s: %s", path, strerror(errno));
	do {
		if (len + 4096 + 1 > size) {
			size = 2 * size + 4096 + 1;
			buf = realloc(buf, size);
			ck_assert_ptr_nonnull(buf);
		}
		n = fread(buf + len, 1, 4096, f);
		len += n;
	} while (n);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* Whether @s is "0x" and lower-case hex digits. */
static int is_hex(const char *s)
{
	return !strncmp(s, "0x", 2) && s[2] &&
	       strspn(s + 2, "0123456789abcdef") == strlen(s + 2);
}

struct tally {
	unsigned int n, op, fetch;
	unsigned int with_ip, ip_inside;	/* op samples */
	unsigned long long text_start, text_end;	/* busy's code */
};

/* One sample's fields, in the documented order; into @t. */
static void check_sample(char f[NR_FIELDS][128], struct tally *t)
{
	unsigned long long ip;
	int i;

	ck_assert_msg(!strcmp(f[0], "op") || !strcmp(f[0], "fetch"),
		      "kind '%s'", f[0]);
	ck_assert_msg(px_is_uint(f[1]) && strtoull(f[1], NULL, 10) == t->n,
		      "sample %u has seq '%s'", t->n, f[1]);
	ck_assert_msg(px_is_uint(f[2]), "tsc '%s'", f[2]);
	ck_assert_msg(is_hex(f[3]), "valid '%s'", f[3]);
	ck_assert_msg(!f[4][0] || is_hex(f[4]), "ip '%s'", f[4]);
	for (i = 5; i < NR_FIELDS; i++)
		ck_assert_msg(is_hex(f[i]), "%s '%s'", fields[i], f[i]);
	t->n++;
	if (!strcmp(f[0], "fetch")) {
		t->fetch++;
		return;
	}
	t->op++;
	if (!f[4][0])
		return;
	/* An op's ip is its IbsOpRip. */
	ck_assert_str_eq(f[4], f[9]);
	ip = strtoull(f[4], NULL, 16);
	t->with_ip++;
	t->ip_inside += ip >= t->text_start && ip < t->text_end;
}

/* -x @sep's lines: the header, then one sample a line. */
static void check_csv(char *text, const char *sep, struct tally *t)
{
	char f[NR_FIELDS][128], header[512] = "", *line, *save = NULL, *p, *q;
	int i, n;

	for (i = 0; i < NR_FIELDS; i++)
		snprintf(header + strlen(header), sizeof(header) - strlen(header),
			 "%s%s", i ? sep : "", fields[i]);
	line = strtok_r(text, "\n", &save);
	ck_assert_ptr_nonnull(line);
	ck_assert_str_eq(line, header);
	while ((line = strtok_r(NULL, "\n", &save))) {
		for (n = 0, p = line;; p = q + strlen(sep)) {
			ck_assert_msg(n < NR_FIELDS, "too many fields: %s", line);
			q = strstr(p, sep);
			snprintf(f[n++], sizeof(f[0]), "%.*s",
				 q ? (int)(q - p) : (int)strlen(p), p);
			if (!q)
				break;
		}
		ck_assert_msg(n == NR_FIELDS, "%d fields: %s", n, line);
		check_sample(f, t);
	}
}

/* -j's lines: one flat object each, the documented keys in order. */
static void check_json(char *text, struct tally *t)
{
	struct px_json_member m[NR_FIELDS + 1];
	char f[NR_FIELDS][128], *line, *save = NULL;
	int i, n;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		n = px_json_line(line, m, NR_FIELDS + 1);
		ck_assert_msg(n == NR_FIELDS, "not a sample object: %s", line);
		for (i = 0; i < n; i++) {
			ck_assert_str_eq(m[i].key, fields[i]);
			/* seq and tsc are numbers, the rest strings. */
			ck_assert_int_eq(m[i].is_string, i < 1 || i > 2);
			snprintf(f[i], sizeof(f[i]), "%s", m[i].val);
		}
		check_sample(f, t);
	}
}

/* busy's "busy: text START END" from its standard output. */
static void busy_text(const struct px_result *r, struct tally *t)
{
	const char *p = strstr(r->out, "busy: text ");

	ck_assert_msg(p && sscanf(p, "busy: text %llx %llx", &t->text_start,
				  &t->text_end) == 2, "busy said:\n%s", r->out);
	ck_assert_uint_lt(t->text_start, t->text_end);
}

/* The summary line: its count of samples written must be @t's. */
static void check_summary(const struct px_result *r, const struct tally *t)
{
	const char *p = strstr(r->err, "perfex: ");
	unsigned long long written = 0, lost, filtered;
	int found = 0;

	for (; p; p = strstr(p + 1, "perfex: "))
		if (sscanf(p, "perfex: %llu IBS samples written, %llu lost, %llu filtered",
			   &written, &lost, &filtered) == 3)
			found++;
	ck_assert_msg(found == 1, "no summary line:\n%s", r->err);
	ck_assert_uint_eq(written, t->n);
}

/*
 * Samples busy -s, single-threaded (IBS follows only the thread perfex
 * starts), into @t; @opts before -o and the command; as uid nobody if
 * @nobody.
 */
static void sample_busy_as(const char *const *opts, int json, const char *sep,
			   struct tally *t, int nobody)
{
	const char *argv[16];
	struct px_result r;
	char *text;
	int n = 0;

	for (; *opts; opts++)
		argv[n++] = *opts;
	argv[n++] = "-o";
	argv[n++] = SAMPLES;
	argv[n++] = px_busy();
	argv[n++] = "-s";
	argv[n++] = "1";
	argv[n++] = "300";
	argv[n] = NULL;
	memset(t, 0, sizeof(*t));
	unlink(SAMPLES);
	if (nobody)
		px_run_nobody(&r, argv);
	else
		px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	busy_text(&r, t);
	text = slurp_file(SAMPLES);
	if (json)
		check_json(text, t);
	else
		check_csv(text, sep, t);
	free(text);
	check_summary(&r, t);
	ck_assert_msg(t->n > 0, "no samples:\n%s", r.err);
}

static void sample_busy(const char *const *opts, int json, const char *sep,
			struct tally *t)
{
	sample_busy_as(opts, json, sep, t, 0);
}

/* Op samples as CSV: most RIPs are busy's own code. */
START_TEST(op_samples_csv)
{
	static const char *const opts[] = { "--ibs-op=0x10000", "-x", ",", NULL };
	struct tally t;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;		/* no_ibs_says_drop */
	sample_busy(opts, 0, ",", &t);
	ck_assert_uint_eq(t.op, t.n);
	ck_assert_msg(t.with_ip > 0 && t.ip_inside * 2 > t.with_ip,
		      "%u of %u RIPs in busy's code [%#llx, %#llx)",
		      t.ip_inside, t.with_ip, t.text_start, t.text_end);
}

/* The default layout is -x ','; a separator of two characters. */
START_TEST(op_samples_default_and_long_sep)
{
	static const char *const dflt[] = { "--ibs-op=0x10000", NULL };
	static const char *const two[] = {
		"--ibs-op=0x10000", "--ibs-ops", "-x", "::", NULL
	};
	struct tally t;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;
	sample_busy(dflt, 0, ",", &t);
	if (!have(PERFCTR_IBS_CAP_OPSAM | PERFCTR_IBS_CAP_OPCNT))
		return;
	sample_busy(two, 0, "::", &t);
	ck_assert_uint_eq(t.op, t.n);
}

START_TEST(op_samples_json)
{
	static const char *const opts[] = { "--ibs-op=0x10000", "-j", NULL };
	struct tally t;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;
	sample_busy(opts, 1, NULL, &t);
	ck_assert_uint_eq(t.op, t.n);
	ck_assert_msg(t.ip_inside * 2 > t.with_ip, "%u of %u RIPs in busy",
		      t.ip_inside, t.with_ip);
}

START_TEST(fetch_samples)
{
	static const char *const opts[] = {
		"--ibs-fetch=0x10000", "--ibs-rand", "-x", ";", NULL
	};
	struct tally t;

	if (!have(PERFCTR_IBS_CAP_FETCHSAM))
		return;
	sample_busy(opts, 0, ";", &t);
	ck_assert_uint_eq(t.fetch, t.n);
}

/* Both engines at once: both kinds, numbered in one sequence. */
START_TEST(op_and_fetch_samples)
{
	static const char *const opts[] = {
		"--ibs-op=0x10000", "--ibs-fetch=0x10000", "-j", NULL
	};
	struct tally t;

	if (!have(PERFCTR_IBS_CAP_OPSAM | PERFCTR_IBS_CAP_FETCHSAM))
		return;
	sample_busy(opts, 1, NULL, &t);
	ck_assert_uint_gt(t.op, 0);
	ck_assert_uint_gt(t.fetch, 0);
}

/* With -e the counts go to standard error, the samples to -o. */
START_TEST(samples_with_counts)
{
	static const char *const opts[] = {
		"-e", PX_EVENTS, "--ibs-op=0x10000", "-x", ";", NULL
	};
	struct tally t;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;
	px_plain_cpuid();
	sample_busy(opts, 0, ";", &t);
}

/* --- refusals --- */

START_TEST(perf_ibs_busy_says_perf)
{
	static const char *const opts[] = { "--ibs-op=0x10000", NULL };
	const char *argv[8];
	struct px_result r;
	int err;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;
	err = param_put("ibs_busy", "1");
	if (err == ENOENT)
		return;		/* not the simulation: no way to play perf */
	ck_assert_int_eq(err, 0);
	/* The driver's busy answer stands for a second (amd.rst). */
	usleep(BUSY_AGE_US);
	with_touch(argv, opts);
	unlink(MARKER);
	px_run(&r, argv);
	param_put("ibs_busy", "0");
	usleep(BUSY_AGE_US);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "perfex: IBS is in use by perf"), "%s",
		      r.err);
	ck_assert_int_ne(access(MARKER, F_OK), 0);
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "perf gone: status %d:\n%s", r.status,
		      r.err);
	unlink(MARKER);
}

/*
 * Unprivileged perfex sampled its command: the child handed it its own
 * ring (amd.rst, "The samples"), at the command's own RIPs.
 */
static void check_nobody_samples(void)
{
	static const char *const opts[] = { "--ibs-op=0x10000", NULL };
	struct tally t;

	sample_busy_as(opts, 0, ",", &t, 1);
	ck_assert_msg(t.with_ip > 0 && t.ip_inside * 2 > t.with_ip,
		      "%u of %u RIPs in busy's code [%#llx, %#llx)",
		      t.ip_inside, t.with_ip, t.text_start, t.text_end);
}

/* At paranoid 2 kernel samples need privilege; user samples do not. */
START_TEST(paranoid_2_refuses_kernel_samples)
{
	static const char *const kernel[] = {
		"--ibs-op=0x10000", "--ibs-kernel", "-o", SAMPLES, "true", NULL
	};
	struct px_result r;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;
	ck_assert_int_eq(param_put("paranoid", "2"), 0);
	unlink(SAMPLES);
	px_run_nobody(&r, kernel);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, NOBODY_KERNEL) &&
		      strstr(r.err, "CAP_PERFMON"), "%s", r.err);
	check_nobody_samples();
	unlink(SAMPLES);
	px_run(&r, kernel);
	ck_assert_msg(r.status == 0, "root: status %d:\n%s", r.status, r.err);
}

START_TEST(paranoid_3_refuses_ibs)
{
	static const char *const argv[] = {
		"--ibs-op=0x10000", "-o", SAMPLES, "true", NULL
	};
	struct px_result r;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;
	ck_assert_int_eq(param_put("paranoid", "3"), 0);
	unlink(SAMPLES);
	px_run_nobody(&r, argv);
	param_put("paranoid", "2");
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, NOBODY_3) &&
		      strstr(r.err, "CAP_PERFMON"), "%s", r.err);
	check_nobody_samples();
}

/*
 * As nobody, a command that makes itself undumpable withdraws the ring
 * its process handed perfex (amd.rst), and its final counts: the samples
 * from before are written; no sample is taken after. Whether one taken
 * just before the prctl() was still unread (perfex then says so and
 * fails) depends on when perfex last drained. Root, who may read the
 * command whatever it is, drains those as it runs.
 */
START_TEST(undumpable_withdraws_samples)
{
	static const char *const argv[] = {
		"--ibs-op=0x10000", "-o", SAMPLES, NULL, "-s", "-u", "1", "300",
		NULL
	};
	const char *run[ARRAY_SIZE(argv)];
	struct px_result r;
	char *text;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;
	memcpy(run, argv, sizeof(argv));
	run[3] = px_busy();
	unlink(SAMPLES);
	px_run_nobody(&r, run);
	ck_assert_msg(r.status == 0 ||
		      (r.status == 1 && strstr(r.err, WITHDRAWN) &&
		       strstr(r.err, "perf record")),
		      "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, WITHHELD), "%s", r.err);
	text = slurp_file(SAMPLES);
	ck_assert_msg(strstr(text, "\nop,"), "no samples before the prctl:\n%s",
		      text);
	free(text);
	unlink(SAMPLES);
	px_run(&r, run);
	ck_assert_msg(r.status == 0, "root: status %d:\n%s", r.status, r.err);
}

/*
 * As nobody, a setuid-root command loses its IBS at exec with its
 * counters: perfex says so. A sample taken before the exec and not yet
 * read may find the ring withdrawn: then perfex says that too.
 */
START_TEST(setuid_drops_ibs)
{
	static const char *const argv[] = {
		"--ibs-op=0x10000", "-o", SAMPLES, SUID_COPY, "-s", "1", "300",
		NULL
	};
	struct px_result r;

	if (!have(PERFCTR_IBS_CAP_OPSAM))
		return;
	px_copy_busy(SUID_COPY, 04755);
	unlink(SAMPLES);
	px_run_nobody(&r, argv);
	ck_assert_msg(strstr(r.err, DROPPED_IBS), "%s", r.err);
	ck_assert_msg(r.status == 0 || (r.status == 1 && strstr(r.err, WITHDRAWN)),
		      "status %d:\n%s", r.status, r.err);
	px_copy_busy(SUID_COPY, 0755);
	unlink(SAMPLES);
	px_run_nobody(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_ptr_null(strstr(r.err, "without counters"));
	unlink(SUID_COPY);
}

void px_ibs_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "perfex-ibs", ibs_defaults,
				     ibs_defaults);

	tcase_add_loop_test(tc, ibs_usage_error_is_2, 0, ARRAY_SIZE(bad_usage));
	tcase_add_loop_test(tc, ibs_good_usage_runs, 0, ARRAY_SIZE(good_usage));
	tcase_add_test(tc, ibs_op_ext_needs_opcntext);
	tcase_add_loop_test(tc, no_ibs_says_drop, 0, ARRAY_SIZE(no_ibs));
	tcase_add_test(tc, op_samples_csv);
	tcase_add_test(tc, op_samples_default_and_long_sep);
	tcase_add_test(tc, op_samples_json);
	tcase_add_test(tc, fetch_samples);
	tcase_add_test(tc, op_and_fetch_samples);
	tcase_add_test(tc, samples_with_counts);
	tcase_add_test(tc, perf_ibs_busy_says_perf);
	tcase_add_test(tc, paranoid_2_refuses_kernel_samples);
	tcase_add_test(tc, paranoid_3_refuses_ibs);
	tcase_add_test(tc, undumpable_withdraws_samples);
	tcase_add_test(tc, setuid_drops_ibs);
}
