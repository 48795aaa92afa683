// SPDX-License-Identifier: GPL-2.0-only
/*
 * gperfctr: count with the global-mode counters for a while and print
 * what every CPU accrued. With the generic driver only the TSC counts.
 *
 *   gperfctr [-t SECONDS]
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <perfctr/perfctr.h>

#define GLOBAL_PATH "/proc/perfctr/global"

static int write_control(int fd, const struct perfctr_cpu_control *control)
{
	ssize_t n = write(fd, control, sizeof(*control));

	if (n == (ssize_t)sizeof(*control))
		return 0;
	fprintf(stderr, "gperfctr: write %s: %s\n", GLOBAL_PATH,
		n < 0 ? strerror(errno) : "short write");
	return -1;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	static struct perfctr_sum_ctrs sums[4096];
	struct perfctr_cpu_control control;
	double seconds = 1.0, t0, t1;
	ssize_t n;
	int fd, opt;
	size_t i;

	while ((opt = getopt(argc, argv, "t:")) != -1) {
		if (opt != 't') {
			fprintf(stderr, "usage: gperfctr [-t SECONDS]\n");
			return 2;
		}
		seconds = atof(optarg);
	}
	fd = open(GLOBAL_PATH, O_RDWR);
	if (fd < 0) {
		fprintf(stderr, "gperfctr: %s: %s\n", GLOBAL_PATH, strerror(errno));
		return 1;
	}
	memset(&control, 0, sizeof(control));
	control.tsc_on = 1;
	if (write_control(fd, &control))
		return 1;
	t0 = now_s();
	usleep((useconds_t)(seconds * 1e6));
	n = pread(fd, sums, sizeof(sums), 0);
	t1 = now_s();
	memset(&control, 0, sizeof(control));
	if (n < 0 || write_control(fd, &control)) {
		perror("gperfctr: read");
		return 1;
	}
	for (i = 0; i < (size_t)n / sizeof(sums[0]); i++)
		printf("cpu%zu: tsc %llu  (%.1f M ticks/s over %.2f s)\n", i,
		       (unsigned long long)sums[i].tsc,
		       sums[i].tsc / (t1 - t0) / 1e6, t1 - t0);
	close(fd);
	return 0;
}
