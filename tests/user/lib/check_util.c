// SPDX-License-Identifier: GPL-2.0-only
/*
 * The driver's facts, time, pinning, info, global mode and module
 * parameters, for every Check suite (check_util.h).
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check_util.h"

const char *model_name;
const struct sim_model *model;
unsigned long long khz;
unsigned int nrctrs;
int cpus_forbidden;
long ncpus;

int check_init(void)
{
	const char *v;

	model_name = getenv("PERFCTR_SIM_MODEL");
	model = sim_model_find(model_name);
	/* TSC (timebase) ticks per ms: the core clock over their ratio. */
	v = info_field("cpu_khz");
	khz = v ? strtoull(v, NULL, 10) : 0;
	v = info_field("tsc_to_cpu_mult");
	if (v && atoi(v) > 1)
		khz /= atoi(v);
	v = info_field("nrctrs");
	nrctrs = v ? atoi(v) : 0;
	v = info_field("cpus_forbidden");
	cpus_forbidden = v && *v;
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!khz) {
		fprintf(stderr, "%s: no cpu_khz in %s\n",
			program_invocation_short_name, INFO_PATH);
		return -1;
	}
	return 0;
}

char *info_field(const char *key)
{
	static char value[256];
	char line[512];
	size_t klen = strlen(key);
	FILE *f = fopen(INFO_PATH, "r");
	char *found = NULL;

	if (!f)
		return NULL;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, key, klen) || line[klen] != ':')
			continue;
		snprintf(value, sizeof(value), "%s", line + klen + 1);
		value[strcspn(value, "\n")] = 0;
		found = value + (value[0] == ' ');
		break;
	}
	fclose(f);
	return found;
}

int check_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int check_run_areas(const char *name, const check_area_fn *areas, size_t n)
{
	Suite *s = suite_create(name);
	size_t i;

	for (i = 0; i < n; i++)
		areas[i](s);
	/* Counters only where the model has them: P4 thread 1 has none. */
	if (model && cpus_forbidden && pin(0))
		return EXIT_FAILURE;
	return check_run(s);
}

TCase *add_tcase(Suite *s, const char *name, check_fixture_fn setup,
		 check_fixture_fn teardown)
{
	TCase *tc = tcase_create(name);

	if (setup || teardown)
		tcase_add_checked_fixture(tc, setup, teardown);
	suite_add_tcase(s, tc);
	return tc;
}

/* --- time --- */

unsigned long long ms_ticks(unsigned int ms)
{
	return khz * ms;
}

/*
 * Moves the caller from CPU 0 to 1 and back, @n times in all: each move
 * away from the CPU it is on is a migration (set_task_cpu()), done
 * before sched_setaffinity() returns; then the caller's affinity is
 * what it was. 0, or -1.
 */
int hop_cpus(unsigned int n)
{
	unsigned int i;
	cpu_set_t old;
	int err = 0;

	/* Put back after: a P4's second thread may refuse counters. */
	if (sched_getaffinity(0, sizeof(old), &old))
		return -1;
	for (i = 0; i < n && !err; i++)
		err = pin(i % 2) || sched_getcpu() != (int)(i % 2);
	if (sched_setaffinity(0, sizeof(old), &old))
		err = 1;
	return err ? -1 : 0;
}

/* Busy for @ticks TSC ticks; returns the ticks that really passed. */
unsigned long long spin(unsigned long long ticks)
{
	unsigned long long t0 = rdtsc(), t;

	do
		t = rdtsc();
	while (t - t0 < ticks);
	return t - t0;
}

int within(unsigned long long v, unsigned long long ref, unsigned int pct)
{
	return v >= ref * (100 - pct) / 100 && v <= ref * (100 + pct) / 100;
}

/*
 * A sum that (re)started at @t0 can hold no more than the TSC ticks since:
 * the check that it did not keep what it had. The slack covers TSCs a
 * little apart on two CPUs.
 */
int since(unsigned long long sum, unsigned long long t0)
{
	return sum <= rdtsc() - t0 + ms_ticks(1);
}

int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

int is_zero(const void *p, size_t size)
{
	const unsigned char *b = p;

	while (size--)
		if (*b++)
			return 0;
	return 1;
}

size_t page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

/* --- global mode --- */

int open_global(void)
{
	int fd = open(GLOBAL_PATH, O_RDWR);

	ck_assert_msg(fd >= 0, "open %s: %s", GLOBAL_PATH, strerror(errno));
	return fd;
}

int global_take(void)
{
	struct perfctr_cpu_control gc;
	int g = open_global(), tries;
	ssize_t ret = 0;

	memset(&gc, 0, sizeof(gc));
	gc.tsc_on = 1;
	/* Sets of earlier tests' threads are freed a little after they exit. */
	for (tries = 0; tries < 100; tries++) {
		ret = write(g, &gc, sizeof(gc));
		if (ret >= 0 || errno != EBUSY)
			break;
		usleep(10000);
	}
	ck_assert_int_eq(ret, sizeof(gc));
	return g;
}

void global_give(int fd)
{
	struct perfctr_cpu_control gc;

	memset(&gc, 0, sizeof(gc));
	ck_assert_int_eq(write(fd, &gc, sizeof(gc)), sizeof(gc));
	close(fd);
}

/* Reads every CPU's sums; returns the number of CPU entries. */
int read_global(int fd, struct perfctr_sum_ctrs *sums)
{
	ssize_t n = pread(fd, sums, MAX_CPUS * sizeof(*sums), 0);

	ck_assert_msg(n > 0, "read %s: %s", GLOBAL_PATH, strerror(errno));
	ck_assert_int_eq(n % sizeof(*sums), 0);
	return n / sizeof(*sums);
}

/* --- module parameters --- */

static char param_dir[64];

/* perfctr.ko's or perfctr_simpmu.ko's parameters, whichever is loaded. */
static void find_module(void)
{
	const char *mod = access("/sys/module/perfctr_simpmu", F_OK) ?
			  "perfctr" : "perfctr_simpmu";

	snprintf(param_dir, sizeof(param_dir), "/sys/module/%s/parameters", mod);
}

/* Writes @val to parameter @name; 0 or the errno. */
int param_put(const char *name, const char *val)
{
	char path[128];
	int fd, err = 0;

	if (!param_dir[0])
		find_module();
	snprintf(path, sizeof(path), "%s/%s", param_dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

/* The parameter @name in *@val: 0, or the errno (ENOENT: none such). */
int param_read(const char *name, long *val)
{
	char path[128], buf[24] = "";
	int fd, err = 0;

	if (!param_dir[0])
		find_module();
	snprintf(path, sizeof(path), "%s/%s", param_dir, name);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return errno;
	if (read(fd, buf, sizeof(buf) - 1) <= 0)
		err = errno ? errno : EIO;
	close(fd);
	*val = atol(buf);
	return err;
}

int param_get(const char *name)
{
	char path[128], buf[16] = "";
	int fd;

	if (!param_dir[0])
		find_module();
	snprintf(path, sizeof(path), "%s/%s", param_dir, name);
	fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	ck_assert_int_gt(read(fd, buf, sizeof(buf) - 1), 0);
	close(fd);
	/* bool parameters read back as Y or N. */
	return buf[0] == 'Y' ? 1 : buf[0] == 'N' ? 0 : atoi(buf);
}

void fake_nmi_watchdog(const char *value, mode_t mode)
{
	const char *path = "/proc/sys/kernel/nmi_watchdog";
	int fd;

	ck_assert_msg(!unshare(CLONE_NEWNS), "unshare: %s", strerror(errno));
	/* Nothing mounted here may reach the other namespaces. */
	mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL);
	ck_assert_msg(!mount("tmpfs", "/proc/sys", "tmpfs", 0, "mode=0755"),
		      "mount /proc/sys: %s", strerror(errno));
	ck_assert_int_eq(mkdir("/proc/sys/kernel", 0755), 0);
	if (!value)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL, mode);
	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, value, strlen(value)),
			 (ssize_t)strlen(value));
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
}
