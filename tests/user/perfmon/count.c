// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_perfmon: what the counters count. perfmon-example, a FreeBSD
 * program but for its include line, counts a loop; this process counts
 * the same loop through /proc/perfctr/<tid>/ with the same events raw.
 * The simulated counters count TSC ticks while they run, so each count
 * is about the loop's time, and the two agree.
 */
#define _GNU_SOURCE	/* gettid() */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfmon.h"

#define LOOPS	20000000UL
#define RUNS	5

struct counts {
	unsigned long long pmc[NPMC], tsc;
};

static void run_example(struct counts *c)
{
	char cmd[128], key[8];
	unsigned long long v;
	FILE *p;
	int n = 0;

	snprintf(cmd, sizeof(cmd), "/bin/perfmon-example %x %x %lu",
		 pm_word(), pm_word(), LOOPS);
	p = popen(cmd, "r");
	ck_assert_ptr_nonnull(p);
	while (fscanf(p, "%7s %llu", key, &v) == 2) {
		if (!strcmp(key, "pmc0"))
			c->pmc[0] = v;
		else if (!strcmp(key, "pmc1"))
			c->pmc[1] = v;
		else if (!strcmp(key, "tsc"))
			c->tsc = v;
		n++;
	}
	ck_assert_int_eq(pclose(p), 0);
	ck_assert_int_eq(n, 3);
}

/* The same two counters as a /proc control: pmc_map n for counter n. */
static void run_proc(struct counts *c)
{
	struct vperfctr_control ctl;
	struct perfctr_sum_ctrs s;
	struct files f;
	int i;

	files_open(&f, gettid());
	tsc_control(&ctl);
	ctl.cpu_control.nractrs = NPMC;
	for (i = 0; i < NPMC; i++) {
		ctl.cpu_control.pmc_map[i] = i;
		ctl.cpu_control.evntsel[i] = pm_evntsel(i);
	}
	set_control(f.ctl, &ctl);
	pm_work(LOOPS);
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	get_sums(f.sums, &s);
	do_command(f.cmd, VPERFCTR_CMD_UNLINK);
	for (i = 0; i < NPMC; i++)
		c->pmc[i] = s.pmc[i];
	c->tsc = s.tsc;
}

/*
 * Both count the loop: each counter no more than the time the program
 * measured around it, and each the same as the per-thread files' count
 * of the loop within 25%, in one of five runs of the two side by side
 * (the host's load stretches a guest's time, never shortens it, and a
 * run of the two together is stretched alike; make check's second lane
 * keeps the host loaded throughout, so the least of each side's five
 * could still come from differently loaded moments). The simulated
 * counters count kernel time too, and the example makes three more
 * requests than the /proc twin while they run, each slow on the debug
 * kernel under TCG: the loop is long enough to make that small. The
 * exact agreement is test_proc_reads_not_writes' (share.c).
 */
START_TEST(test_example_agrees)
{
	struct counts pm, vp;
	int r, i, agree = 0;

	if (layout == PM_NONE || !model_name)
		return;
	for (r = 0; r < RUNS && !agree; r++) {
		memset(&pm, 0, sizeof(pm));
		memset(&vp, 0, sizeof(vp));
		run_example(&pm);
		for (i = 0; i < NPMC; i++) {
			ck_assert_uint_gt(pm.pmc[i], 0);
			ck_assert_msg(pm.pmc[i] <= pm.tsc,
				      "pmc%d %llu, tsc %llu", i, pm.pmc[i],
				      pm.tsc);
		}
		run_proc(&vp);
		for (i = 0, agree = 1; i < NPMC; i++)
			agree &= within(pm.pmc[i], vp.pmc[i], 25);
	}
	ck_assert_msg(agree,
		      "no run within 25%%; the last: pmc0 perfmon %llu, /proc %llu",
		      pm.pmc[0], vp.pmc[0]);
}

/* perfctr.ko on QEMU: TSC only. The example says so and fails cleanly. */
START_TEST(test_example_refused)
{
	char cmd[128];
	int status;

	if (layout != PM_NONE)
		return;
	snprintf(cmd, sizeof(cmd),
		 "/bin/perfmon-example %x %x 10 2>/dev/null", pm_word(),
		 pm_word());
	status = system(cmd);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 1);
}

void pm_count_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "count", NULL, NULL);

	tcase_add_test(tc, test_example_agrees);
	tcase_add_test(tc, test_example_refused);
}
