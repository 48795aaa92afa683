// SPDX-License-Identifier: GPL-2.0-only
/*
 * gperfctr: count with the global-mode counters for a while and print
 * what every CPU accrued: the TSC, and the counters given with -e.
 *
 *   gperfctr [-t SECONDS] [-e PMC:EVNTSEL[:HIGH]]...
 *
 * PMC is the counter (its pmc_map value, e.g. 0, or 0x40000001 for
 * Intel's fixed counter 1; on ppc32 0 for PMC1), EVNTSEL the event select
 * to program, HIGH its upper half where the CPU has one (x86 only); all
 * numbers may be hex (0x...).
 */
#include <errno.h>
#include <fcntl.h>
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

static void print_usage_and_exit(void)
{
	fprintf(stderr, "gperfctr [-t SECONDS] [-e PMC:EVNTSEL[:HIGH]]...\n");
	exit(2);
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
	int fd, opt;

	memset(&control, 0, sizeof(control));
	memset(&stop, 0, sizeof(stop));
	control.tsc_on = 1;
	while ((opt = getopt(argc, argv, "t:e:")) != -1) {
		if (opt == 't')
			seconds = atof(optarg);
		else if (opt != 'e' || perfctr_parse_counter(&control, optarg))
			print_usage_and_exit();
	}
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
