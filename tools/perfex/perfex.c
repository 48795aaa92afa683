// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex: perfctr's counting tool (Documentation/perfctr/events.rst).
 *
 *   perfex -l [-v] [--cpuid=ID] [GLOB]   this CPU's events (or ID's)
 *   perfex -i                            the driver's information
 *   perfex [--cpuid=ID] --table          the event table of this CPU (ID)
 *   perfex [--cpuid=ID] -e EV[,EV...]... --print-control
 *                                        the control it would write
 *
 * -l and --print-control need no module: the tables are in libperfctr.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "libperfctr.h"

#define EX_USAGE	2	/* bad command line, as a shell's builtins */

struct opts {
	int list, info, verbose, print_control, table;
	const char *cpuid;
	char events[4096];
};

static void print_help(FILE *f)
{
	fprintf(f,
		"usage: perfex -l [-v] [--cpuid=ID] [GLOB]\n"
		"       perfex -i\n"
		"       perfex [--cpuid=ID] --table\n"
		"       perfex [--cpuid=ID] -e EVENT[,EVENT...]... --print-control\n"
		"EVENT: NAME[:u|:k], cpu/event=0xNN,umask=0xNN[,cmask=N,inv,edge]/[u|k],\n"
		"       rHEX (perf's raw syntax); 'perfex -l' lists the names.\n");
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

/* The table of --cpuid, PERFCTR_CPUID, the module's or the CPU's id. */
static const struct perfctr_event_table *pick_table(const struct opts *o)
{
	const struct perfctr_event_table *t;
	char id[64];

	if (o->cpuid) {
		snprintf(id, sizeof(id), "%s", o->cpuid);
	} else if (perfctr_cpuid(id, sizeof(id))) {
		fprintf(stderr,
			"perfex: cannot tell this CPU's id; give one with --cpuid=ID (e.g. GenuineIntel-6-2E)\n");
		return NULL;
	}
	t = perfctr_event_table(id);
	if (!t)
		fprintf(stderr,
			"perfex: no event table for CPU id '%s'; raw events (rNNNN) still need one: check the id, or see Documentation/perfctr/events.rst to add a CPU\n",
			id);
	return t;
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
	       "paranoid\t%d\nreserved_by\t%s\n",
	       info.version, info.abi_version, info.cpu_type, info.cpuid,
	       t ? perfctr_event_table_name(t) : "none", info.nrctrs,
	       info.cpu_khz,
	       info.features & PERFCTR_FEATURE_RDPMC ? "rdpmc " : "",
	       info.features & PERFCTR_FEATURE_RDTSC ? "rdtsc " : "",
	       info.features & PERFCTR_FEATURE_PCINT ? "pcint" : "",
	       info.cpus_forbidden[0] ? info.cpus_forbidden : "none",
	       info.fallback, info.paranoid, info.reserved_by);
	return 0;
}

/* Kernel mode too where the policy lets this user have it. */
static unsigned int default_modes(void)
{
	struct perfctr_info info;

	if (!perfctr_info(&info) && info.paranoid >= 2 && geteuid() != 0)
		return PERFCTR_EVENT_USER;
	return PERFCTR_EVENT_USER | PERFCTR_EVENT_KERNEL;
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
	const struct perfctr_event_table *t = pick_table(o);
	struct perfctr_event_set set;
	struct vperfctr_control ctl;

	if (!t)
		return 1;
	if (perfctr_event_encode(t, o->events, default_modes(), &ctl, &set)) {
		fprintf(stderr, "perfex: %s\n", set.error);
		return 1;
	}
	print_control(&ctl, &set);
	return 0;
}

static int add_events(struct opts *o, const char *arg)
{
	size_t len = strlen(o->events);

	if (len + strlen(arg) + 2 > sizeof(o->events)) {
		fprintf(stderr, "perfex: too many events\n");
		return -1;
	}
	snprintf(o->events + len, sizeof(o->events) - len, "%s%s",
		 len ? "," : "", arg);
	return 0;
}

static int parse_args(struct opts *o, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, NULL, 'l' },
		{ "info", no_argument, NULL, 'i' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "event", required_argument, NULL, 'e' },
		{ "cpuid", required_argument, NULL, 'C' },
		{ "print-control", no_argument, NULL, 'P' },
		{ "table", no_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	while ((c = getopt_long(argc, argv, "+live:h", longopts, NULL)) != -1) {
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
		case 'C':
			o->cpuid = optarg;
			break;
		case 'P':
			o->print_control = 1;
			break;
		case 'T':
			o->table = 1;
			break;
		case 'e':
			if (add_events(o, optarg))
				return -1;
			break;
		case 'h':
			print_help(stdout);
			exit(0);
		default:
			return -1;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	const struct perfctr_event_table *t;
	struct opts o = { 0 };

	if (parse_args(&o, argc, argv))
		goto bad;
	if (o.list) {
		if (optind < argc - 1)
			goto bad;
		t = pick_table(&o);
		return t ? perfctr_event_list(t, optind < argc ? argv[optind] :
					      NULL, list_one, &o) : 1;
	}
	if (o.info && optind == argc)
		return do_info();
	if (o.table && optind == argc) {
		t = pick_table(&o);
		if (t)
			printf("%s%s\n", perfctr_event_table_name(t),
			       perfctr_event_table_imported(t) ?
			       " (perf's)" : "");
		return !t;
	}
	if (o.print_control && o.events[0] && optind == argc)
		return do_control(&o);
	if (o.events[0] && !o.print_control)
		fprintf(stderr,
			"perfex: counting a command comes next; for now add --print-control to see the control\n");
bad:
	print_help(stderr);
	return EX_USAGE;
}
