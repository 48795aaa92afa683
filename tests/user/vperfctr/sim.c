// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "sim" case, run with PERFCTR_SIM_MODEL set: the
 * simulated model itself.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <sched.h>
#include <unistd.h>

#include "vperfctr.h"

/* --- the simulated model itself --- */

/* An HT P4's thread 1 has no counters: a thread that may run there gets none. */
START_TEST(sim_counters_refused_on_forbidden_cpus)
{
	struct vperfctr_control c, t, got;
	struct files f;
	cpu_set_t all;
	long i;

	files_open(&f, gettid());
	CPU_ZERO(&all);
	for (i = 0; i < ncpus; i++)
		CPU_SET(i, &all);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(all), &all), 0);
	full_control(&c);
	errno = 0;
	ck_assert_int_eq(put_control(f.ctl, &c), -1);
	ck_assert_int_eq(errno, EINVAL);
	get_control(f.ctl, &got);
	ck_assert(is_zero(&got, sizeof(got)));
	/* The TSC alone is fine anywhere. */
	tsc_control(&t);
	set_control(f.ctl, &t);
	/* Kept to CPU 0, the counters are allowed. */
	ck_assert_int_eq(pin(0), 0);
	set_control(f.ctl, &c);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
}

START_TEST(sim_model_known)
{
	ck_assert_msg(model, "unknown PERFCTR_SIM_MODEL %s", model_name);
	ck_assert_uint_ge(nrctrs, 2);
}

void vp_sim_tcase(Suite *s)
{
	TCase *tc;

	if (!model_name)
		return;
	tc = add_tcase(s, "sim", NULL, NULL);
	tcase_add_test(tc, sim_model_known);
	if (model && cpus_forbidden)
		tcase_add_test(tc, sim_counters_refused_on_forbidden_cpus);
}
