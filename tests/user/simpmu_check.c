// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for the simulated-PMU module (perfctr_simpmu.ko model=NAME,
 * NAME in $PERFCTR_SIM_MODEL): global mode with real counter programming
 * on a family whose simulated counters count real cycles. Each a-mode
 * counter must track the TSC; a control the family refuses must leave the
 * running one alone; a hyper-threaded P4's thread 1 must stay idle.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfctr/perfctr.h>

#include "check_util.h"

/*
 * An i-mode start value close to overflow: x86 counts up from a negative
 * value to zero, ppc32 from a non-negative one until the msb sets.
 */
#ifdef __powerpc__
#define IRESET_SOON	0x7FFFF000
#else
#define IRESET_SOON	(-1000)
#endif

enum ctl_kind { CTL_NONE, CTL_GOOD, CTL_BAD, CTL_IMODE };

/* Writes a control of @kind (CTL_NONE: stop) to global mode. */
static ssize_t apply(int fd, enum ctl_kind kind)
{
	struct perfctr_cpu_control c;

	memset(&c, 0, sizeof(c));
	c.tsc_on = kind != CTL_NONE;
	if (kind == CTL_GOOD)
		model->amode(&c);
	else if (kind == CTL_BAD)
		model->refused(&c);
	else if (kind == CTL_IMODE)
		model->imode(&c, IRESET_SOON);
	return write(fd, &c, sizeof(c));
}

static void accepted(int fd, enum ctl_kind kind)
{
	ck_assert_int_eq(apply(fd, kind), sizeof(struct perfctr_cpu_control));
}

/* Refused, and nothing else changes: the caller checks what runs. */
static void refused(int fd, enum ctl_kind kind)
{
	errno = 0;
	ck_assert_int_eq(apply(fd, kind), -1);
	ck_assert_int_eq(errno, EINVAL);
}

/* Global mode, counting CTL_GOOD on every CPU. */
static int open_counting(void)
{
	int fd = open_global();

	accepted(fd, CTL_GOOD);
	return fd;
}

static void stop_and_close(int fd)
{
	accepted(fd, CTL_NONE);
	close(fd);
}

static int forbidden(int cpu)
{
	return model->forbidden[0] && atoi(model->forbidden) == cpu;
}

START_TEST(info_names_family)
{
	ck_assert_str_eq(info_field("cpu_type"), model->cpu_type);
	ck_assert_str_eq(info_field("cpuid"), model->cpuid);
	ck_assert_str_eq(info_field("fallback"), "none");
	ck_assert_int_eq(atoi(info_field("nrctrs")), model->nrctrs);
	ck_assert_ptr_nonnull(strstr(info_field("features"), "pcint"));
	ck_assert_str_eq(info_field("cpus_forbidden"), model->forbidden);
	/* Of these families only zen4 has IBS, the simulated Zen's (0xff). */
	ck_assert_str_eq(info_field("ibs_caps"),
			 strcmp(model->name, "zen4") ? "0x0" : "0xff");
}

START_TEST(global_counters_track_tsc)
{
	struct perfctr_sum_ctrs sums[MAX_CPUS];
	int fd = open_counting(), cpu, n, counted = 0;

	usleep(300000);
	n = read_global(fd, sums);
	for (cpu = 0; cpu < n; cpu++) {
		unsigned long long tsc = sums[cpu].tsc;
		int i;

		if (forbidden(cpu)) {
			ck_assert_uint_eq(tsc, 0);
			ck_assert_uint_eq(sums[cpu].pmc[0], 0);
			continue;
		}
		if (!tsc)
			continue;	/* not online */
		counted++;
		for (i = 0; i < 2; i++) {
			ck_assert_uint_gt(sums[cpu].pmc[i], tsc * 9 / 10);
			ck_assert_uint_lt(sums[cpu].pmc[i], tsc * 11 / 10);
		}
	}
	ck_assert_int_gt(counted, 0);
	stop_and_close(fd);
}

START_TEST(global_refused_control_keeps_old)
{
	struct perfctr_sum_ctrs before[MAX_CPUS], after[MAX_CPUS];
	int fd = open_counting();

	usleep(50000);
	read_global(fd, before);
	refused(fd, CTL_BAD);
	usleep(50000);
	read_global(fd, after);
	ck_assert_uint_gt(after[0].pmc[1], before[0].pmc[1]);
	stop_and_close(fd);
}

/*
 * The driver accepts i-mode counters here (it has interrupts), but global
 * mode has no thread to signal: it refuses them, and nothing starts.
 */
START_TEST(global_refuses_imode)
{
	int fd = open_global();

	refused(fd, CTL_IMODE);
	ck_assert_str_eq(info_field("reserved_by"), "none");
	accepted(fd, CTL_GOOD);
	ck_assert_str_eq(info_field("reserved_by"), "global-mode perfctr (uid 0)");
	stop_and_close(fd);
}

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static void set_online(int cpu, int on)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, on ? "1" : "0", 1), 1);
	close(fd);
}

/* CPU 1 goes down and comes back while counting: it counts again. */
START_TEST(global_survives_cpu_hotplug)
{
	struct perfctr_sum_ctrs mid[MAX_CPUS], end[MAX_CPUS];
	int fd = open_counting();

	usleep(100000);
	set_online(1, 0);
	usleep(100000);
	read_global(fd, mid);
	set_online(1, 1);
	usleep(300000);
	read_global(fd, end);
	ck_assert_uint_gt(end[1].tsc, mid[1].tsc);
	ck_assert_uint_gt(end[1].pmc[0], mid[1].pmc[0]);
	ck_assert_uint_gt(end[1].pmc[0], end[1].tsc * 9 / 10);
	ck_assert_uint_lt(end[1].pmc[0], end[1].tsc * 11 / 10);
	stop_and_close(fd);
}

int main(void)
{
	const char *name = getenv("PERFCTR_SIM_MODEL");
	Suite *s = suite_create("simpmu");
	TCase *tc = tcase_create(name ? name : "none");

	model = sim_model_find(name);
	if (!model) {
		fprintf(stderr, "simpmu_check: unknown PERFCTR_SIM_MODEL\n");
		return 2;
	}
	tcase_add_test(tc, info_names_family);
	tcase_add_test(tc, global_counters_track_tsc);
	tcase_add_test(tc, global_refused_control_keeps_old);
	tcase_add_test(tc, global_refuses_imode);
	/* CPU 1 must exist (ppc32 guests are uniprocessors) and be usable. */
	if (!model->forbidden[0] && access(CPU1_ONLINE, F_OK) == 0)
		tcase_add_test(tc, global_survives_cpu_hotplug);
	suite_add_tcase(s, tc);
	return check_run(s);
}
