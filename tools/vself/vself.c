// SPDX-License-Identifier: GPL-2.0-only
/*
 * vself: show the calling thread's virtual counters at work. The thread
 * spins, then sleeps, then spins again; its counts grow only while it
 * runs. Reads go through the mmap'd state page (no system call) and,
 * for comparison, through a read() of the sums file.
 *
 *   vself [-e PMC:EVNTSEL[:HIGH]]...   counters as in gperfctr
 *   vself -E EVENT[,EVENT...]          named events (events.rst)
 *   vself -h|--help, vself --version
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

#include <libperfctr.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void spin(double seconds)
{
	double end = now() + seconds;

	while (now() < end)
		;
}

static void show(const char *what, const struct perfctr_sum_ctrs *s,
		 const struct perfctr_sum_ctrs *prev, unsigned int n)
{
	unsigned int i;

	printf("  %-22s tsc %15llu", what, s->tsc - (prev ? prev->tsc : 0));
	for (i = 0; i < n; i++)
		printf("  pmc%u %15llu", i, s->pmc[i] - (prev ? prev->pmc[i] : 0));
	printf("\n");
}

/* -E: named events, in user mode (any user may count those). */
static int named(struct vperfctr_control *ctl, const char *events)
{
	const struct perfctr_event_table *t;
	struct perfctr_event_set set;
	unsigned int i;
	char id[64];

	t = perfctr_cpuid(id, sizeof(id)) ? NULL : perfctr_event_table(id);
	if (!t) {
		fprintf(stderr, "vself: no event table for this CPU; give raw counters with -e\n");
		return -1;
	}
	if (perfctr_event_encode(t, events, PERFCTR_EVENT_USER, ctl, &set)) {
		fprintf(stderr, "vself: %s\n", set.error);
		return -1;
	}
	for (i = 0; i < set.nr; i++)
		printf("  pmc%u: %s\n", set.ev[i].counter, set.ev[i].text);
	return 0;
}

#define USAGE \
	"usage: vself [-e PMC:EVNTSEL[:HIGH]]...\n" \
	"       vself -E EVENT[,EVENT...]\n"

static void print_help(void)
{
	printf(USAGE
	       "Counts the calling thread while it spins, sleeps and spins\n"
	       "again, and prints its counts as read from the state page\n"
	       "(no system call) and from the sums file.\n"
	       "  -e PMC:EVNTSEL[:HIGH]  a counter: PMC its pmc_map, EVNTSEL\n"
	       "                         its event select, HIGH the upper half\n"
	       "                         (x86); numbers in C syntax; repeatable\n"
	       "  -E EVENTS              named events, perfex -l lists them;\n"
	       "                         alone, as the last option\n"
	       "  -h, --help             this text\n"
	       "      --version          the version\n"
	       "Exit status: 0 counted; 1 perfctr refused; 2 usage.\n"
	       "See vself(1).\n");
}

/* The options into @ctl: 0, or the exit status to leave with now. */
static int parse_args(int argc, char **argv, struct vperfctr_control *ctl)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "e:E:h", longopts, NULL)) != -1) {
		if (opt == 'h' || opt == 'V') {
			if (opt == 'h')
				print_help();
			else
				printf("vself (perfctr) %s\n", PERFCTR_VERSION);
			return -1;
		}
		if (opt == 'E' && !ctl->cpu_control.nractrs && optind == argc)
			return named(ctl, optarg) ? 1 : 0;
		if (opt != 'e' || perfctr_parse_counter(&ctl->cpu_control, optarg))
			break;
	}
	if (opt == -1 && optind == argc)
		return 0;
	fprintf(stderr, USAGE "Try 'vself --help' for more information.\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct perfctr_sum_ctrs s0, s1, s2, s3, sums;
	struct vperfctr_control ctl;
	struct perfctr_info info;
	struct vperfctr *vp;
	char status[80];
	unsigned int n;
	int ret;

	memset(&ctl, 0, sizeof(ctl));
	ctl.cpu_control.tsc_on = 1;
	ret = parse_args(argc, argv, &ctl);
	if (ret)
		return ret < 0 ? 0 : ret;
	if (perfctr_info(&info)) {
		perror("vself: " PERFCTR_ROOT "/info (is it mounted?)");
		return 1;
	}
	vp = vperfctr_open();
	if (!vp) {
		perror("vself: " PERFCTR_ROOT "/self");
		return 1;
	}
	if (vperfctr_control(vp, &ctl)) {
		int err = errno;
		const char *why = perfctr_explain(err);

		fprintf(stderr, "vself: control: %s\n", strerror(err));
		while (why && *why) {
			int len = strcspn(why, "\n");

			fprintf(stderr, "vself: %.*s\n", len, why);
			why += len + (why[len] == '\n');
		}
		return 1;
	}
	n = ctl.cpu_control.nractrs;
	printf("perfctr %s on %s; thread %ld counts the TSC and %u counter(s)\n",
	       info.version, info.cpu_type, (long)syscall(SYS_gettid), n);
	printf("  user-space reads: rdtsc %s, rdpmc %s\n",
	       info.features & PERFCTR_FEATURE_RDTSC ? "yes" : "no",
	       info.features & PERFCTR_FEATURE_RDPMC ? "yes" : "no");
	vperfctr_read_ctrs(vp, &s0);
	spin(0.1);
	vperfctr_read_ctrs(vp, &s1);
	usleep(100000);
	vperfctr_read_ctrs(vp, &s2);
	spin(0.05);
	vperfctr_read_ctrs(vp, &s3);
	if (!vperfctr_read_status(vp, status, sizeof(status)) &&
	    strcmp(status, "running"))
		printf("  the counters stopped: %s\n", status);
	vperfctr_suspend(vp);
	vperfctr_read_sums(vp, &sums);
	show("spin 100 ms:", &s1, &s0, n);
	show("sleep 100 ms:", &s2, &s1, n);
	show("spin 50 ms:", &s3, &s2, n);
	show("total (state page):", &s3, NULL, n);
	show("total (read of sums):", &sums, NULL, n);
	vperfctr_unlink(vp);
	vperfctr_close(vp);
	return 0;
}
