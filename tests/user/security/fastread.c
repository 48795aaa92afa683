// SPDX-License-Identifier: GPL-2.0-only
/*
 * The security suite's "hotplug" and "fastread" cases, on a simulated
 * PMU: who may read the counters from user space, reads racing with
 * overflow stops, and an HT P4's thread 1 going down and up.
 */
#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include "security.h"
#include "simpmu_user.h"

/* --- who may read the counters from user space --- */

#ifndef __powerpc__
/* The simulated PMU's page: whether user RDPMC works on @cpu now. */
static int rdpmc_on(const struct simpmu_user_cpu *page, int cpu)
{
	return __atomic_load_n(&page[cpu].user_read, __ATOMIC_ACQUIRE);
}

/* RDPMC is the owner's while its control has counters, and no longer. */
START_TEST(user_read_follows_the_control)
{
	struct vperfctr *vp = vperfctr_open();
	const struct simpmu_user_cpu *page;
	struct vperfctr_control c;
	int fd = open("/dev/perfctr_simpmu", O_RDONLY);

	ck_assert_int_eq(pin(0), 0);
	ck_assert_ptr_nonnull(vp);
	ck_assert_int_ge(fd, 0);
	page = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(page, MAP_FAILED);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	lib_control(vp, &c);
	ck_assert_int_eq(rdpmc_on(page, 0), 1);
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_int_eq(rdpmc_on(page, 0), 1);	/* stopped, still its own */
	tsc_control(&c);
	lib_control(vp, &c);
	ck_assert_int_eq(rdpmc_on(page, 0), 0);
	model->amode(&c.cpu_control);
	lib_control(vp, &c);
	ck_assert_int_eq(rdpmc_on(page, 0), 1);
	ck_assert_int_eq(vperfctr_unlink(vp), 0);
	ck_assert_int_eq(rdpmc_on(page, 0), 0);
	vperfctr_close(vp);
}
#endif

/* --- F7: user-space reads racing with overflow stops --- */

static int overflows;	/* lock-free atomics: signal-safe */

static void on_overflow(int sig)
{
	(void)sig;
	__atomic_fetch_add(&overflows, 1, __ATOMIC_RELAXED);
}

START_TEST(fast_read_survives_overflow_stops)
{
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c;
	unsigned long long t0 = rdtsc();
	int seen = 0;

	ck_assert_ptr_nonnull(vp);
	signal(SIGUSR1, on_overflow);
	tsc_control(&c);
	/* A few thousand TSC ticks a period: thousands of overflows. */
	model->imode(&c.cpu_control, IRESET_NEAR + IRESET_SPAN - 20000);
	c.si_signo = SIGUSR1;
	lib_control(vp, &c);
	while (seen < 2000 && rdtsc() - t0 < ms_ticks(20000)) {
		int now = __atomic_load_n(&overflows, __ATOMIC_RELAXED);

		ck_assert_int_eq(vperfctr_read_ctrs(vp, &s), 0);
		if (now != seen) {
			seen = now;
			vperfctr_iresume(vp);
		}
	}
	ck_assert_int_ge(seen, 500);
	vperfctr_unlink(vp);
	vperfctr_close(vp);
}

/* --- F17: an HT P4's thread 1 going down and up --- */

static int cpu1_online(const char *val)
{
	int fd = open("/sys/devices/system/cpu/cpu1/online", O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, val, 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

/*
 * Thread 0 (CPU 0, where main() pinned us) counts while thread 1 goes
 * offline and back: the core's shared registers must keep counting.
 */
START_TEST(ht_sibling_hotplug_keeps_counting)
{
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs s0, s1;
	struct vperfctr_control c;
	unsigned long long tsc;

	ck_assert_ptr_nonnull(vp);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	lib_control(vp, &c);
	spin(ms_ticks(20));
	ck_assert_int_eq(vperfctr_read_ctrs(vp, &s0), 0);
	ck_assert_int_eq(cpu1_online("0"), 0);
	spin(ms_ticks(20));
	ck_assert_int_eq(cpu1_online("1"), 0);
	spin(ms_ticks(20));
	ck_assert_int_eq(vperfctr_read_ctrs(vp, &s1), 0);
	/* The simulated counters count TSC ticks: all of them, still. */
	tsc = s1.tsc - s0.tsc;
	ck_assert_msg(within(s1.pmc[0] - s0.pmc[0], tsc, 10),
		      "pmc0 %llu over %llu TSC ticks", s1.pmc[0] - s0.pmc[0], tsc);
	ck_assert_msg(within(s1.pmc[1] - s0.pmc[1], tsc, 10),
		      "pmc1 %llu over %llu TSC ticks", s1.pmc[1] - s0.pmc[1], tsc);
	vperfctr_close(vp);
}

static void online_again(void)
{
	cpu1_online("1");
}

void sec_fastread_tcase(Suite *s)
{
	TCase *tc;

	if (model && cpus_forbidden && ncpus >= 2) {
		tc = add_tcase(s, "hotplug", NULL, online_again);
		tcase_add_test(tc, ht_sibling_hotplug_keeps_counting);
	}

	if (model) {
		tc = add_tcase(s, "fastread", NULL, NULL);
		tcase_set_timeout(tc, 60);
#ifndef __powerpc__
		tcase_add_test(tc, user_read_follows_the_control);
#endif
		tcase_add_test(tc, fast_read_survives_overflow_stops);
	}
}
