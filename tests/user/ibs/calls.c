// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_ibs: what setups cost the other CPUs (amd.rst, "Coexisting with
 * perf"). Reserving IBS and asking whether perf's IBS is busy call every
 * CPU; a user's loop of setups must not: the reservation outlives its
 * last user by a second and the busy answer stands for a second.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ibs.h"

/* Setups and stops written in the loop; the old driver called 3 a pair. */
#define TOGGLES		200
/* A little more than the grace period and the busy answer's age. */
#define PAST_US		1500000

static struct perfctr_ibs_control some_setup(void)
{
	if (ibs_caps & PERFCTR_IBS_CAP_OPSAM)
		return ibs_ctl(PERFCTR_IBS_OP, 0, 0x10000);
	return ibs_ctl(PERFCTR_IBS_FETCH, 0x10000, 0);
}

/*
 * The function-call interrupts (/proc/interrupts' "CAL" line) of the
 * online CPU in column @col, or -1 without that line or column.
 */
static long long calls_of(int col)
{
	FILE *f = fopen("/proc/interrupts", "r");
	long long n = -1;
	char line[8192];

	ck_assert_ptr_nonnull(f);
	while (n < 0 && fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " "), *end;
		int i;

		if (strncmp(p, "CAL:", 4))
			continue;
		p += 4;
		for (i = 0; i <= col; i++, p = end) {
			n = strtoll(p, &end, 10);
			if (end == p) {
				n = -1;
				break;
			}
		}
		break;
	}
	fclose(f);
	return n;
}

/* The driver's calls to every CPU so far (the simulation counts them). */
static long driver_calls(void)
{
	long n = -1;

	ck_assert_int_eq(param_read("cpu_calls", &n), 0);
	return n;
}

/*
 * From CPU 0, the first setup after the grace period reserves IBS, which
 * calls every CPU (CPU 1's function-call count grows: the count works);
 * the setups and stops after it make no call of the driver's to every
 * CPU for each write: at most one busy scan a second. (The kernel's own
 * calls that a set's making and freeing may bring, an RCU grace period
 * or a vmalloc purge, are not IBS's busy scan and are not counted.)
 */
START_TEST(test_toggles_call_no_cpu)
{
	struct perfctr_ibs_control c = some_setup(), off = ibs_ctl(0, 0, 0);
	long before, reserved, after, n;
	struct timespec t0, t1;
	int i;

	if (!ibs_caps || sysconf(_SC_NPROCESSORS_ONLN) < 2 ||
	    param_read("cpu_calls", &n) == ENOENT)
		return;		/* not the simulation: nothing counts them */
	ck_assert_int_eq(pin(0), 0);
	usleep(PAST_US);
	before = calls_of(1);
	ck_assert_msg(before >= 0, "no CAL count for CPU 1");
	n = driver_calls();
	ck_assert_int_eq(ibs_put(&c), 0);
	reserved = calls_of(1);
	ck_assert_msg(reserved > before, "reserving IBS did not call CPU 1");
	ck_assert_int_gt(driver_calls(), n);
	n = driver_calls();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = 0; i < TOGGLES; i++) {
		ck_assert_int_eq(ibs_put(&off), 0);
		ck_assert_int_eq(ibs_put(&c), 0);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	after = driver_calls();
	ck_assert_int_eq(ibs_put(&off), 0);
	ck_assert_msg(after - n <= t1.tv_sec - t0.tv_sec + 2,
		      "%d setups and stops in %ld s: %ld calls to every CPU",
		      TOGGLES, (long)(t1.tv_sec - t0.tv_sec), after - n);
}

/*
 * One setup every 100 ms for up to 3 s until one is answered @want (0 or
 * EBUSY; the other answer is the only other allowed): 1 if one was.
 */
static int answered_within(int want)
{
	struct perfctr_ibs_control c = some_setup(), off = ibs_ctl(0, 0, 0);
	int i, err;

	for (i = 0; i < 30; i++) {
		err = ibs_put(&c);
		if (!err)
			ck_assert_int_eq(ibs_put(&off), 0);
		if (err == want)
			return 1;
		ck_assert_int_eq(err, want ? 0 : EBUSY);
		usleep(100000);
	}
	return 0;
}

/*
 * Perf's IBS (the simulation's ibs_busy=1) is seen within about a
 * second: setups are refused with EBUSY; a second or so after perf lets
 * go they are taken again.
 */
START_TEST(test_perf_seen_within_a_second)
{
	struct perfctr_ibs_control c = some_setup();
	int err;

	if (!ibs_caps)
		return;
	err = param_put("ibs_busy", "1");
	if (err == ENOENT)
		return;		/* not the simulation: no way to play perf */
	ck_assert_int_eq(err, 0);
	ck_assert_msg(answered_within(EBUSY), "perf's IBS not seen in 3 s");
	ck_assert_int_eq(ibs_put(&c), EBUSY);
	ck_assert_int_eq(param_put("ibs_busy", "0"), 0);
	ck_assert_msg(answered_within(0), "perf's IBS still seen 3 s after");
}

static void calls_teardown(void)
{
	param_put("ibs_busy", "0");
}

void ibs_calls_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "calls", NULL, calls_teardown);

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_toggles_call_no_cpu);
	tcase_add_test(tc, test_perf_seen_within_a_second);
}
