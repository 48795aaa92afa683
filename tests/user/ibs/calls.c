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

/*
 * CPU 1's calls for @n sets made and dropped without IBS: a TSC-only
 * control, then VPERFCTR_CMD_UNLINK. What the kernel does for any set
 * (its reap waits for an RCU grace period, which a guest kernel may
 * expedite with calls to every CPU) is not IBS's doing.
 */
static long long plain_set_calls(int n)
{
	struct vperfctr_control tsc;
	int ctl = pfs_open(gettid(), "control", O_RDWR);
	int cmd = pfs_open(gettid(), "command", O_WRONLY);
	long long before;
	int i;

	ck_assert_int_ge(ctl, 0);
	ck_assert_int_ge(cmd, 0);
	tsc_control(&tsc);
	before = calls_of(1);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(put_control(ctl, &tsc), sizeof(tsc));
		ck_assert_int_eq(put_command(cmd, VPERFCTR_CMD_UNLINK),
				 sizeof(__u32));
	}
	close(ctl);
	close(cmd);
	return calls_of(1) - before;
}

/*
 * From CPU 0, the first setup after the grace period reserves and calls
 * CPU 1 (which shows the count works); the loop after it calls CPU 1
 * about once a second at most for IBS, not for each write: no more than
 * the same number of sets made and dropped without IBS, and a few.
 */
START_TEST(test_toggles_call_no_cpu)
{
	struct perfctr_ibs_control c = some_setup(), off = ibs_ctl(0, 0, 0);
	long long before, reserved, after, plain;
	int i;

	if (!ibs_caps || sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;
	ck_assert_int_eq(pin(0), 0);
	usleep(PAST_US);
	before = calls_of(1);
	ck_assert_msg(before >= 0, "no CAL count for CPU 1");
	ck_assert_int_eq(ibs_put(&c), 0);
	reserved = calls_of(1);
	ck_assert_msg(reserved > before, "reserving IBS did not call CPU 1");
	for (i = 0; i < TOGGLES; i++) {
		ck_assert_int_eq(ibs_put(&off), 0);
		ck_assert_int_eq(ibs_put(&c), 0);
	}
	after = calls_of(1);
	ck_assert_int_eq(ibs_put(&off), 0);
	plain = plain_set_calls(TOGGLES);
	ck_assert_msg(after - reserved < plain + TOGGLES / 10,
		      "%d setups and stops called CPU 1 %lld times, as many sets without IBS %lld",
		      TOGGLES, after - reserved, plain);
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
