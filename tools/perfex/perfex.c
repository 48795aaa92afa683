// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex: perfctr's counting tool (Documentation/perfctr/perfex.rst).
 *
 *   perfex [-e EV[,EV...]]... [-M METRIC[,METRIC...]]... [-x SEP | -j]
 *          [-o FILE] [-r N] [--] CMD [ARG...]
 *                                        counts CMD, its threads and its
 *                                        children, as perf stat does
 *   perfex --ibs-op=N|--ibs-fetch=N [--ibs-ops] [--ibs-rand] [--ibs-kernel]
 *          [-e EV...] [-x SEP | -j] [-o FILE] [--] CMD [ARG...]
 *                                        CMD's IBS samples (AMD)
 *   perfex -l [-v] [--cpuid=ID] [GLOB]   this CPU's events (or ID's)
 *   perfex -l --metrics [-v] [GLOB]      and its metrics (-M NAME counts one)
 *   perfex -i                            the driver's information
 *   perfex [--cpuid=ID] --table          the event table of this CPU (ID)
 *   perfex [--cpuid=ID] -e EV[,EV...]... --print-control
 *                                        the control it would write
 *
 * -e also takes perfctr 2.6's EVNTSEL[/ESCR][@PMC], with --p4pe=N and
 * --p4pmv=N (compat26.c).
 *
 * -l and --print-control need no module: the tables are in libperfctr.
 * This file reads the command line; run.c counts, print.c prints.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfex.h"

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: perfex [-e EVENT[,EVENT...]]... [-M METRIC[,METRIC...]]...\n"
		"              [-x SEP | -j] [-o FILE] [-r N | -I MSEC] [--per-thread]\n"
		"              [--] COMMAND [ARG...]\n"
		"       perfex -a | -C LIST [-A] [-I MSEC] [-e EVENT...] [-M METRIC...]\n"
		"              [-x SEP | -j] [-o FILE] [-r N] [[--] COMMAND [ARG...]]\n"
		"       perfex -p PID[,PID...] | -t TID[,TID...] [-e EVENT...] [-M METRIC...]\n"
		"              [-x SEP | -j] [-o FILE] [[--] COMMAND [ARG...]]\n"
		"       perfex --ibs-op=MAXCNT | --ibs-fetch=MAXCNT [--ibs-ops] [--ibs-rand]\n"
		"              [--ibs-kernel] [-e EVENT...] [-x SEP | -j] [-o FILE]\n"
		"              [--] COMMAND [ARG...]\n"
		"       perfex -l [-v] [--metrics] [--cpuid=ID] [GLOB]\n"
		"       perfex -i\n"
		"       perfex [--cpuid=ID] --table\n"
		"       perfex [--cpuid=ID] -e EVENT[,EVENT...]... --print-control\n"
		"       perfex -e EVNTSEL[/ESCR][@PMC]... [--p4pe=N] [--p4pmv=N] [...] COMMAND\n");
}

static void print_help(FILE *f)
{
	print_usage(f);
	fprintf(f,
		"Counts COMMAND with its threads and children, as perf stat does:\n"
		"  -e EVENTS  what to count (default: task-clock, context-switches,\n"
		"             cpu-migrations, page-faults, and cycles, instructions,\n"
		"             branches, branch-misses where this CPU has them); the\n"
		"             TSC always\n"
		"  -M METRICS perf's metrics, by name or group (case ignored), their\n"
		"             events counted with -e's at once (never multiplexed: all\n"
		"             must fit the counters); each value beside its first\n"
		"             event, as perf stat prints it; --metrics=METRICS too\n"
		"  -x SEP     perf stat's CSV fields, separated by SEP\n"
		"  -j         perf stat's JSON, one object a line\n"
		"  -o FILE    the counts to FILE (default: standard error)\n"
		"  -r N       run N times: each count's mean and spread\n"
		"  -a         every CPU, whatever runs there, while COMMAND runs or\n"
		"             until ^C (global mode: needs CAP_PERFMON)\n"
		"  -C LIST    the CPUs of LIST (0,2-3) only, as -a\n"
		"  -A         with -a or -C: a row per CPU\n"
		"  -p PID[,PID...], -t TID[,TID...]\n"
		"             the running processes (all their threads) or threads,\n"
		"             while COMMAND runs or until ^C; ptrace's permission\n"
		"  -I MSEC    print the counts of every MSEC ms (10 or more) as it\n"
		"             goes, with a time column, as perf stat -I\n"
		"  --per-thread  a row per thread of COMMAND, each thread's own\n"
		"             counts as it exited (perfex traces COMMAND)\n"
		"  --ibs-op=MAXCNT, --ibs-fetch=MAXCNT\n"
		"             AMD IBS: sample one op (fetch) of COMMAND's first thread\n"
		"             in MAXCNT cycles (fetches), a multiple of 16, decimal or\n"
		"             0x hex; the samples, -x (default ',') or -j, to standard\n"
		"             output or -o FILE; the counts of -e to standard error\n"
		"  --ibs-ops  MAXCNT of --ibs-op counts dispatched ops, not cycles\n"
		"  --ibs-rand randomise the low 4 bits of --ibs-fetch's count\n"
		"  --ibs-kernel  keep samples of kernel code (privileged)\n"
		"  -l         list this CPU's events; -v with descriptions\n"
		"  -l --metrics\n"
		"             list this CPU's metrics: name, [group], description;\n"
		"             -v with the expression and why one is unsupported\n"
		"  -i         the driver's information\n"
		"  --table    the event table this CPU's id picks\n"
		"  --cpuid=ID take ID for this CPU's id (PERFCTR_CPUID does too)\n"
		"  --print-control\n"
		"             with -e: the control the events make, not counting\n"
		"  -h, --help this text; --version the version\n"
		"EVENT: NAME[:u|:k], cpu/event=0xNN,umask=0xNN[,cmask=N,inv,edge]/[u|k],\n"
		"       rHEX (perf's raw syntax); 'perfex -l' lists the names.\n"
		"       Or perfctr 2.6's EVNTSEL[/ESCR][@PMC], the registers as given,\n"
		"       numbers in C syntax; --p4pe=N, --p4pmv=N: the P4's PEBS_ENABLE,\n"
		"       PEBS_MATRIX_VERT with them.\n"
		"Exit status: COMMAND's; 128+N if signal N killed it; 127 not found,\n"
		"126 not executable; 2 usage; 1 perfex could not count.\n"
		"See perfex(1).\n");
}

/* -l --metrics: name, group, description; -v the expression too. */
static int list_metric(const struct perfctr_metric_info *m, void *arg)
{
	const struct opts *o = arg;

	printf("%s  [%s]  %s%s\n", m->name, m->group[0] ? m->group : "-",
	       m->desc, m->unsupported ? "  [unsupported]" : "");
	if (!o->verbose)
		return 0;
	printf("  %s%s%s\n", m->expr, m->scale_unit[0] ? "; scale unit " : "",
	       m->scale_unit);
	if (m->unsupported)
		printf("  unsupported: %s\n", m->unsupported);
	return 0;
}

static int list_one(const struct perfctr_event_info *ev, void *arg)
{
	const struct opts *o = arg;

	if (!o->verbose) {
		printf("%s%s\n", ev->name, ev->unsupported ? "  [unsupported]" : "");
		return 0;
	}
	printf("%s\n  %s\n  %s; counters %s%s%s\n", ev->name, ev->desc,
	       ev->encoding, ev->counters, ev->generic[0] ? "; generic " : "",
	       ev->generic);
	if (ev->unsupported)
		printf("  unsupported: %s\n", ev->unsupported);
	return 0;
}

/* The watchdog's sysctl, as -i shows it beside reserved_by. */
static const char *nmi_watchdog_state(void)
{
	switch (perfctr_nmi_watchdog()) {
	case 1:
		return "1 (on; if reserved_by is perf_events: sysctl kernel.nmi_watchdog=0)";
	case 0:
		return "0";
	}
	return errno == ENOENT ? "none (this kernel has no NMI watchdog)" :
	       "unknown (cannot read /proc/sys/kernel/nmi_watchdog)";
}

static int do_info(void)
{
	struct perfctr_info info;
	const struct perfctr_event_table *t;

	if (perfctr_info(&info)) {
		fprintf(stderr, "perfex: cannot read %s/info: %s\n"
			"Load the module (modprobe perfctr, or insmod perfctr.ko) and run again.\n",
			PERFCTR_ROOT, strerror(errno));
		return 1;
	}
	t = info.cpuid[0] ? perfctr_event_table(info.cpuid) : NULL;
	printf("version\t\t%s\nabi_version\t0x%04x\ncpu_type\t%s\n"
	       "cpuid\t\t%s\nevent table\t%s\nnrctrs\t\t%u\ncpu_khz\t\t%u\n"
	       "features\t%s%s%s\ncpus_forbidden\t%s\nfallback\t%s\n"
	       "paranoid\t%d\nreserved_by\t%s\nibs_caps\t0x%x\n"
	       "nmi_watchdog\t%s\n",
	       info.version, info.abi_version, info.cpu_type, info.cpuid,
	       t ? perfctr_event_table_name(t) : "none", info.nrctrs,
	       info.cpu_khz,
	       info.features & PERFCTR_FEATURE_RDPMC ? "rdpmc " : "",
	       info.features & PERFCTR_FEATURE_RDTSC ? "rdtsc " : "",
	       info.features & PERFCTR_FEATURE_PCINT ? "pcint" : "",
	       info.cpus_forbidden[0] ? info.cpus_forbidden : "none",
	       info.fallback, info.paranoid, info.reserved_by, info.ibs_caps,
	       nmi_watchdog_state());
	return 0;
}

static void print_array(const char *name, const __u32 *v, unsigned int n,
			int hex)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		printf(hex ? "%s[%u]\t0x%08x\n" : "%s[%u]\t%u\n", name, i, v[i]);
}

static void print_control(const struct vperfctr_control *ctl,
			  const struct perfctr_event_set *set)
{
	const struct perfctr_cpu_control *c = &ctl->cpu_control;
	unsigned int i, n = c->nractrs + c->nrictrs;

	for (i = 0; i < set->nr; i++)
		printf("# counter %u: %s\n", set->ev[i].counter, set->ev[i].text);
	printf("tsc_on\t\t%u\nnractrs\t\t%u\nnrictrs\t\t%u\n",
	       c->tsc_on, c->nractrs, c->nrictrs);
	print_array("pmc_map", c->pmc_map, n, 1);
	print_array("evntsel", c->evntsel, n, 1);
#ifdef __powerpc__
	printf("ppc.mmcr0\t0x%08x\nppc.mmcr2\t0x%08x\n", c->ppc.mmcr0,
	       c->ppc.mmcr2);
#else
	for (i = 0; i < n; i++)
		if (c->evntsel_high[i])
			printf("evntsel_high[%u]\t0x%08x\n", i, c->evntsel_high[i]);
	for (i = 0; i < n; i++)
		if (c->p4.escr[i])
			printf("p4.escr[%u]\t0x%08x\n", i, c->p4.escr[i]);
	if (c->p4.pebs_enable)
		printf("p4.pebs_enable\t0x%08x\np4.pebs_matrix_vert\t0x%08x\n",
		       c->p4.pebs_enable, c->p4.pebs_matrix_vert);
#endif
}

static int do_control(const struct opts *o)
{
	const struct perfctr_event_table *t;
	struct perfctr_event_set set;
	struct vperfctr_control ctl;
	int err;

	if (o->n26) {
		err = p26_plan(o, &ctl, &set);
		if (!err)
			print_control(&ctl, &set);
		return err;
	}
	t = pick_table(o->cpuid);
	if (!t)
		return 1;
	if (perfctr_event_encode(t, o->events, default_modes(), &ctl, &set)) {
		fprintf(stderr, "perfex: %s\n", set.error);
		return 1;
	}
	print_control(&ctl, &set);
	return 0;
}

/* -e and -M: each given list appended to those before, with a comma. */
static int append_list(char *list, size_t size, const char *arg,
		       const char *what)
{
	size_t len = strlen(list);

	if (len + strlen(arg) + 2 > size) {
		fprintf(stderr, "perfex: too many %s: give fewer\n", what);
		return -1;
	}
	snprintf(list + len, size - len, "%s%s", len ? "," : "", arg);
	return 0;
}

static int add_events(struct opts *o, const char *arg)
{
	return append_list(o->events, sizeof(o->events), arg, "events");
}

static int add_metrics(struct opts *o, const char *arg)
{
	if (!arg[0] || arg[0] == ',' || strstr(arg, ",,") ||
	    arg[strlen(arg) - 1] == ',') {
		fprintf(stderr,
			"perfex: -M '%s': give metric or group names separated by commas, e.g. -M IPC,branch_miss_rate\n",
			arg);
		return -1;
	}
	return append_list(o->metrics, sizeof(o->metrics), arg, "metrics");
}

/* -r N: a count of runs, 1 or more. */
static int parse_repeat(struct opts *o, const char *arg)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || *end || end == arg || arg[0] == '-' || !n || n > 1000000) {
		fprintf(stderr, "perfex: -r %s: give a number of runs, 1 or more\n",
			arg);
		return -1;
	}
	o->repeat = n;
	return 0;
}

/* perf stat's bounds: 10 ms at least; an hour at most, ours. */
static int parse_interval(struct opts *o, const char *arg)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(arg, &end, 10);
	if (errno || *end || end == arg || arg[0] == '-' || n < 10 ||
	    n > 3600000) {
		fprintf(stderr,
			"perfex: -I %s: give the interval in milliseconds, 10 to 3600000 (e.g. -I 1000)\n",
			arg);
		return -1;
	}
	o->interval_ms = n;
	return 0;
}

/* The long options that have no letter. */
enum {
	OPT_CPUID = 'U', OPT_PRINT_CONTROL = 'P', OPT_TABLE = 'T',
	OPT_VERSION = 'V', OPT_PER_THREAD = 'W',
	OPT_P4PE = 256, OPT_P4PMV, OPT_METRICS,
	OPT_IBS_OP, OPT_IBS_FETCH, OPT_IBS_OPS, OPT_IBS_RAND, OPT_IBS_KERNEL,
};

static int parse_ibs_option(struct opts *o, int c)
{
	struct perfctr_ibs_control *ibs = &o->ibs;

	switch (c) {
	case OPT_IBS_OP:
		ibs->flags |= PERFCTR_IBS_OP;
		return parse_maxcnt("--ibs-op", optarg, PERFCTR_IBS_MAX_EXT,
				    &ibs->op_maxcnt);
	case OPT_IBS_FETCH:
		ibs->flags |= PERFCTR_IBS_FETCH;
		return parse_maxcnt("--ibs-fetch", optarg, PERFCTR_IBS_MAX,
				    &ibs->fetch_maxcnt);
	case OPT_IBS_OPS:
		ibs->flags |= PERFCTR_IBS_OP_CNT_OPS;
		break;
	case OPT_IBS_RAND:
		ibs->flags |= PERFCTR_IBS_FETCH_RAND;
		break;
	case OPT_IBS_KERNEL:
		ibs->flags |= PERFCTR_IBS_KERNEL;
		break;
	}
	return 0;
}

/*
 * -x takes perf stat's separator: one that is an option itself is the
 * next option taken for it, most likely perfctr 2.6's -x (hex numbers).
 */
static int parse_sep(struct opts *o, const char *arg)
{
	if (!arg[0]) {
		fprintf(stderr, "perfex: -x needs a separator, e.g. -x ';'\n");
		return -1;
	}
	if (arg[0] == '-' &&
	    (isalpha((unsigned char)arg[1]) ||
	     (arg[1] == '-' && isalpha((unsigned char)arg[2])))) {
		fprintf(stderr,
			"perfex: -x %s: -x takes a CSV separator (perf stat's), e.g. -x ';'; perfctr 2.6's -x (hex numbers) has no equal: drop it and write hex numbers with 0x\n",
			arg);
		return -1;
	}
	o->sep = arg;
	return 0;
}

static int parse_option(struct opts *o, int c)
{
	if (c == OPT_P4PE || c == OPT_P4PMV)
		return p26_pebs(o, c == OPT_P4PMV,
				c == OPT_P4PE ? "--p4pe" : "--p4pmv", optarg);
	/* perf's --metrics=LIST is -M; bare, with -l, it lists them. */
	if (c == OPT_METRICS && !optarg)
		o->list_metrics = 1;
	if (c == OPT_METRICS && optarg)
		return add_metrics(o, optarg);
	if (c == OPT_METRICS)
		return 0;
	if (c >= OPT_IBS_OP)
		return parse_ibs_option(o, c);
	switch (c) {
	case 'l':
		o->list = 1;
		break;
	case 'i':
		o->info = 1;
		break;
	case 'v':
		o->verbose = 1;
		break;
	case OPT_CPUID:
		o->cpuid = optarg;
		break;
	case OPT_PRINT_CONTROL:
		o->print_control = 1;
		break;
	case OPT_TABLE:
		o->table = 1;
		break;
	case 'e':
		if (p26_is_event(optarg))
			return p26_add_event(o, optarg);
		return add_events(o, optarg);
	case 'M':
		return add_metrics(o, optarg);
	case 'x':
		return parse_sep(o, optarg);
	case 'j':
		o->json = 1;
		break;
	case 'o':
		o->output = optarg;
		break;
	case 'r':
		return parse_repeat(o, optarg);
	case 'a':
		o->all_cpus = 1;
		break;
	case 'C':
		o->cpu_list = optarg;
		break;
	case 'A':
		o->per_cpu = 1;
		break;
	case 'p':
		o->pid_list = optarg;
		break;
	case 't':
		o->thread_list = optarg;
		break;
	case 'I':
		return parse_interval(o, optarg);
	case OPT_PER_THREAD:
		o->per_thread = 1;
		break;
	case 'h':
		print_help(stdout);
		exit(0);
	case OPT_VERSION:
		printf("perfex (perfctr) %s\n", PERFCTR_VERSION);
		exit(0);
	default:
		return -1;
	}
	return 0;
}

static int parse_args(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "info", no_argument, NULL, 'i' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "event", required_argument, NULL, 'e' },
		{ "metrics", optional_argument, NULL, OPT_METRICS },
		{ "field-separator", required_argument, NULL, 'x' },
		{ "json", no_argument, NULL, 'j' },
		{ "output", required_argument, NULL, 'o' },
		{ "repeat", required_argument, NULL, 'r' },
		{ "all-cpus", no_argument, NULL, 'a' },
		{ "cpu", required_argument, NULL, 'C' },
		{ "no-aggr", no_argument, NULL, 'A' },
		{ "pid", required_argument, NULL, 'p' },
		{ "tid", required_argument, NULL, 't' },
		{ "interval-print", required_argument, NULL, 'I' },
		{ "per-thread", no_argument, NULL, OPT_PER_THREAD },
		{ "cpuid", required_argument, NULL, OPT_CPUID },
		{ "print-control", no_argument, NULL, OPT_PRINT_CONTROL },
		{ "table", no_argument, NULL, OPT_TABLE },
		{ "ibs-op", required_argument, NULL, OPT_IBS_OP },
		{ "ibs-fetch", required_argument, NULL, OPT_IBS_FETCH },
		{ "ibs-ops", no_argument, NULL, OPT_IBS_OPS },
		{ "ibs-rand", no_argument, NULL, OPT_IBS_RAND },
		{ "ibs-kernel", no_argument, NULL, OPT_IBS_KERNEL },
		/* perfctr 2.6's, under both its names */
		{ "p4pe", required_argument, NULL, OPT_P4PE },
		{ "p4_pebs_enable", required_argument, NULL, OPT_P4PE },
		{ "p4pmv", required_argument, NULL, OPT_P4PMV },
		{ "p4_pebs_matrix_vert", required_argument, NULL, OPT_P4PMV },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, OPT_VERSION },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	o->repeat = 1;
	while ((c = getopt_long(argc, argv, "+live:M:x:jo:r:haC:AI:p:t:",
				longopts,
				NULL)) != -1)
		if (parse_option(o, c))
			return -1;
	if (o->sep && o->json) {
		fprintf(stderr, "perfex: -x and -j: give one output format\n");
		return -1;
	}
	if (p26_check_opts(o))
		return -1;
	if (o->list_metrics && !o->list) {
		fprintf(stderr,
			"perfex: --metrics alone lists with -l only: count metrics with -M NAME (or --metrics=NAME), list them with -l --metrics\n");
		return -1;
	}
	if (o->metrics[0] && (o->n26 || o->ibs.flags)) {
		fprintf(stderr,
			"perfex: -M counts with named events: not with perfctr 2.6's events or IBS; count the metrics in a run of their own\n");
		return -1;
	}
	if (o->per_cpu && !o->all_cpus && !o->cpu_list) {
		fprintf(stderr,
			"perfex: -A prints a row per CPU of -a or -C: give one of them\n");
		return -1;
	}
	if ((o->all_cpus || o->cpu_list || o->pid_list || o->thread_list) &&
	    (o->ibs.flags || o->n26)) {
		fprintf(stderr,
			"perfex: -a, -C, -p and -t count with named events; IBS and perfctr 2.6's events are for a command's own threads\n");
		return -1;
	}
	if (!!(o->all_cpus || o->cpu_list) + !!o->pid_list + !!o->thread_list > 1) {
		fprintf(stderr,
			"perfex: give one of -a (or -C), -p and -t: they count different things\n");
		return -1;
	}
	if (o->repeat > 1 && (o->pid_list || o->thread_list)) {
		fprintf(stderr,
			"perfex: -r repeats a command; with -p or -t count once\n");
		return -1;
	}
	if (o->per_thread && (o->repeat > 1 || o->ibs.flags ||
			      o->interval_ms || o->all_cpus || o->cpu_list)) {
		fprintf(stderr,
			"perfex: --per-thread counts one run of a command, or of -p's or -t's threads, thread by thread: drop -r, -I, -a, -C and --ibs-*, or --per-thread\n");
		return -1;
	}
	if (o->interval_ms && (o->pid_list || o->thread_list)) {
		fprintf(stderr,
			"perfex: -I does not print -p's or -t's counts as it goes: drop -I, or count a command\n");
		return -1;
	}
	if (o->interval_ms && (o->repeat > 1 || o->ibs.flags)) {
		fprintf(stderr,
			"perfex: -I prints one count as it goes: drop -r or --ibs-*, or -I\n");
		return -1;
	}
	return check_ibs_opts(o);
}

/*
 * -o FILE: the counts, or with IBS the samples (whose default is
 * standard output; the counts then stay on standard error).
 */
static FILE *open_output(const struct opts *o, FILE *dflt)
{
	FILE *f;

	if (!o->output)
		return dflt;
	f = fopen(o->output, "we");
	if (!f)
		fprintf(stderr, "perfex: -o %s: %s: check the path and its permissions\n",
			o->output, strerror(errno));
	return f;
}

static int close_output(const struct opts *o, FILE *f, int ret)
{
	int err;

	if (f == stderr)
		return ret;
	err = ferror(f) | fflush(f);
	if (f != stdout)
		err |= fclose(f);
	if (err && !ret) {
		fprintf(stderr, "perfex: %s%s: %s\n", o->output ? "-o " : "",
			o->output ? o->output : "standard output",
			strerror(errno));
		ret = EX_FAIL;
	}
	return ret;
}

/*
 * -I counts a command's live members: <tid>/tree came with ABI 1.2.
 * Global mode reads the CPUs live in any version.
 */
static int interval_check(const struct opts *o, const struct plan *p)
{
	if (o->all_cpus || o->cpu_list || (p->info.abi_version & 0xFF) >= 2)
		return 0;
	fprintf(stderr,
		"perfex: -I needs a perfctr module of ABI 1.2 or later (this one is %u.%u), which reads a command's live threads: load a newer perfctr module, or drop -I\n",
		p->info.abi_version >> 8, p->info.abi_version & 0xFF);
	return EX_FAIL;
}

/* --per-thread's rows, and what they leave out. */
static void print_threads(FILE *out, const struct opts *o,
			  const struct plan *p, struct thread_rows *t,
			  const struct stats *s)
{
	print_stats_threads(out, o, p, t, s);
	if (t->lost)
		fprintf(stderr,
			"perfex: note: %u threads of the command have no row (out of memory): the totals without --per-thread still hold them\n",
			t->lost);
	free(t->v);
}

/* Counting COMMAND: 0 or perfex's exit status, else the command's. */
static int count(const struct opts *o)
{
	struct ibs_sink sink = { .sep = o->sep ? o->sep : ",", .json = o->json };
	int ibs = ibs_engines(&o->ibs);
	struct stats s = { 0 };
	int ret, status = 0;
	struct ival iv = { 0 };
	struct thread_rows threads = { 0 };
	struct counts c;
	struct plan p;
	FILE *out;
	unsigned int i;

	out = open_output(o, ibs ? stdout : stderr);
	if (!out)
		return EX_FAIL;
	sink.f = ibs ? out : NULL;
	/* The command may write there too: whole lines, each one write. */
	if (out == stdout)
		setvbuf(stdout, NULL, _IOLBF, 0);
	ret = make_plan(o, &p);
	if (!ret && o->interval_ms) {
		iv.o = o;
		iv.f = out;
		iv.p = &p;
		p.ival = &iv;
		ret = interval_check(o, &p);
	}
	if (!ret && o->per_thread)
		p.threads = &threads;
	if (!ret && (o->all_cpus || o->cpu_list)) {
		ret = sys_count(o, &p, out);
		return close_output(o, out, ret);
	}
	if (!ret && (o->pid_list || o->thread_list)) {
		ret = attach_count(o, &p, out);
		free(threads.v);
		return close_output(o, out, ret);
	}
	for (i = 0; !ret && i < o->repeat; i++) {
		ret = run_command(&p, o->cmd, &c, &status, &sink);
		if (ret)
			break;
		stats_add(&s, &p, &c);
		/* As perf stat stops on ^C: a killed run ends the series. */
		if (WIFSIGNALED(status))
			break;
	}
	ibs_summary(&sink);
	/* -I: the last interval, to the command's end, is the final counts'. */
	if (s.runs && p.ival)
		print_interval(&iv, &c);
	else if (s.runs && p.threads)
		print_threads(out, o, &p, &threads, &s);
	else if (s.runs && p.print_counts)
		print_stats(ibs ? stderr : out, o, &p, &s);
	ret = close_output(o, out, ret);
	if (!ret && sink.failed)
		ret = EX_FAIL;
	if (ret)
		return ret;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	const struct perfctr_event_table *t;
	struct opts o = { 0 };
	int other = 0;

	if (parse_args(&o, argc, argv))
		goto bad;
	other = o.list || o.info || o.table || o.print_control;
	if (other && (o.sep || o.json || o.output || o.repeat > 1 ||
		      o.ibs.flags || o.metrics[0])) {
		fprintf(stderr,
			"perfex: -M, -x, -j, -o, -r and --ibs-* are for counting a command\n");
		goto bad;
	}
	if (o.list) {
		if (optind < argc - 1)
			goto bad;
		t = pick_table(o.cpuid);
		if (t && o.list_metrics)
			return perfctr_metric_list(t, optind < argc ?
						   argv[optind] : NULL,
						   list_metric, &o);
		return t ? perfctr_event_list(t, optind < argc ? argv[optind] :
					      NULL, list_one, &o) : 1;
	}
	if (o.info && optind == argc)
		return do_info();
	if (o.table && optind == argc) {
		t = pick_table(o.cpuid);
		if (t)
			printf("%s%s\n", perfctr_event_table_name(t),
			       perfctr_event_table_imported(t) ?
			       " (perf's)" : "");
		return !t;
	}
	if (o.print_control && (o.events[0] || o.n26) && optind == argc)
		return do_control(&o);
	if (!other && optind < argc) {
		o.cmd = argv + optind;
		return count(&o);
	}
	/* System-wide or attached without a command: until ^C, as perf. */
	if (!other && (o.all_cpus || o.cpu_list || o.pid_list || o.thread_list))
		return count(&o);
	if (!other)
		fprintf(stderr, "perfex: no command to count\n");
bad:
	print_usage(stderr);
	fprintf(stderr, "Try 'perfex --help' for more information.\n");
	return EX_USAGE;
}
