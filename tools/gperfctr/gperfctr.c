// SPDX-License-Identifier: GPL-2.0-only
/*
 * gperfctr: count with the global-mode counters for a while and print
 * what every CPU accrued: the TSC, and the counters given with -e.
 *
 *   gperfctr [-t SECONDS] [-e PMC:EVNTSEL[:HIGH]]...
 *   gperfctr -h|--help, gperfctr --version
 *
 * PMC is the counter (its pmc_map value, e.g. 0, or 0x40000001 for
 * Intel's fixed counter 1; on ppc32 0 for PMC1), EVNTSEL the event select
 * to program, HIGH its upper half where the CPU has one (x86 only); all
 * numbers may be hex (0x...).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <libperfctr.h>

#define GLOBAL_PATH "/proc/perfctr/global"

/*
 * What to do about an errno from GLOBAL_PATH, or NULL: libperfctr's
 * advice, but for the one rule that is global mode's own.
 */
static const char *advice(int err)
{
	if (err == EACCES || err == EPERM)
		return "global mode needs CAP_PERFMON: run gperfctr as root,\n"
		       "or give it the capability (setcap cap_perfmon+ep)";
	return perfctr_explain(err);
}

static void complain(const char *what, int err)
{
	const char *why = advice(err);

	fprintf(stderr, "gperfctr: %s %s: %s\n", what, GLOBAL_PATH,
		strerror(err));
	/* One prefixed line of advice per line. */
	while (why && *why) {
		int len = strcspn(why, "\n");

		fprintf(stderr, "gperfctr: %.*s\n", len, why);
		why += len + (why[len] == '\n');
	}
}

static int write_control(int fd, const struct perfctr_cpu_control *control)
{
	ssize_t n = write(fd, control, sizeof(*control));

	if (n == (ssize_t)sizeof(*control))
		return 0;
	complain("write", n < 0 ? errno : EIO);
	return -1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

#define USAGE "usage: gperfctr [-t SECONDS] [-e PMC:EVNTSEL[:HIGH]]...\n"

static void print_help(void)
{
	printf(USAGE
	       "Counts every CPU with global-mode counters for a while, then\n"
	       "prints what each CPU accrued. Needs CAP_PERFMON.\n"
	       "  -t SECONDS             how long to count (default 1)\n"
	       "  -e PMC:EVNTSEL[:HIGH]  a counter: PMC its pmc_map, EVNTSEL\n"
	       "                         its event select, HIGH the upper half\n"
	       "                         (x86); numbers in C syntax; repeatable\n"
	       "  -h, --help             this text\n"
	       "      --version          the version\n"
	       "Exit status: 0 counted; 1 perfctr refused; 2 usage.\n"
	       "See gperfctr(1).\n");
}

/* A -t argument: a positive number of seconds, or -1. */
static double parse_seconds(const char *arg)
{
	char *end;
	double s = strtod(arg, &end);

	return *arg && !*end && s > 0 && s < 1e6 ? s : -1;
}

/* The options: 0, or the exit status to leave with now (-1: 0). */
static int parse_args(int argc, char **argv,
		      struct perfctr_cpu_control *control, double *seconds)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int opt;

	while ((opt = getopt_long(argc, argv, "t:e:h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			print_help();
			return -1;
		}
		if (opt == 'V') {
			printf("gperfctr (perfctr) %s\n", PERFCTR_VERSION);
			return -1;
		}
		if (opt == 't')
			*seconds = parse_seconds(optarg);
		if ((opt == 't' && *seconds < 0) ||
		    (opt == 'e' && perfctr_parse_counter(control, optarg)) ||
		    (opt != 't' && opt != 'e'))
			break;
	}
	if (opt == -1 && optind == argc)
		return 0;
	fprintf(stderr, USAGE "Try 'gperfctr --help' for more information.\n");
	return 2;
}

static void print_sums(const struct perfctr_sum_ctrs *sums, size_t ncpus,
		       unsigned int nractrs, double seconds)
{
	unsigned int i;
	size_t cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		printf("cpu%zu: tsc %llu (%.1f M/s)", cpu,
		       (unsigned long long)sums[cpu].tsc,
		       sums[cpu].tsc / seconds / 1e6);
		for (i = 0; i < nractrs; i++)
			printf("  pmc%u %llu", i,
			       (unsigned long long)sums[cpu].pmc[i]);
		printf("\n");
	}
}

int main(int argc, char **argv)
{
	static struct perfctr_sum_ctrs sums[4096];
	struct perfctr_cpu_control control, stop;
	double seconds = 1.0, t0, t1;
	ssize_t n;
	int fd, ret;

	memset(&control, 0, sizeof(control));
	memset(&stop, 0, sizeof(stop));
	control.tsc_on = 1;
	ret = parse_args(argc, argv, &control, &seconds);
	if (ret)
		return ret < 0 ? 0 : ret;
	fd = open(GLOBAL_PATH, O_RDWR);
	if (fd < 0) {
		complain("open", errno);
		return 1;
	}
	if (write_control(fd, &control))
		return 1;
	t0 = now_s();
	usleep((useconds_t)(seconds * 1e6));
	n = pread(fd, sums, sizeof(sums), 0);
	t1 = now_s();
	if (n < 0 || write_control(fd, &stop)) {
		perror("gperfctr: read");
		return 1;
	}
	print_sums(sums, n / sizeof(sums[0]), control.nractrs, t1 - t0);
	close(fd);
	return 0;
}
