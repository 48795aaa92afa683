// SPDX-License-Identifier: GPL-2.0-only
/* A set's ordinary life: control, commands, overflow, exit, children. */
#include "areas.h"
#include "harness.h"

START_TEST(control_then_running)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct perfctr_sum_ctrs s;

	fk_as(t);
	ck_assert_str_eq(fk_status(t), "none\n");
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_str_eq(fk_status(t), "running\n");
	ck_assert_int_eq(fk.registered, 1);
	fk_advance(100);
	ck_assert_int_eq(fk_sums(t, &s), 0);
	ck_assert_uint_eq(s.tsc, 100);
	ck_assert_uint_eq(s.pmc[0], 100);
	/* Off its CPU it counts nothing. */
	fk_sched_out(t);
	fk_advance(1000);
	fk_as(t);
	fk_advance(5);
	ck_assert_int_eq(fk_sums(t, &s), 0);
	ck_assert_uint_eq(s.pmc[0], 105);
}

START_TEST(suspend_resume)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct perfctr_sum_ctrs s;

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	fk_advance(10);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_SUSPEND), 0);
	ck_assert_str_eq(fk_status(t), "stopped: suspended\n");
	fk_advance(1000);
	ck_assert_int_eq(fk_sums(t, &s), 0);
	ck_assert_uint_eq(s.pmc[0], 10);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_RESUME), 0);
	ck_assert_str_eq(fk_status(t), "running\n");
	fk_advance(7);
	ck_assert_int_eq(fk_sums(t, &s), 0);
	ck_assert_uint_eq(s.pmc[0], 17);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_CLEAR), 0);
	ck_assert_int_eq(fk_sums(t, &s), 0);
	ck_assert_uint_eq(s.pmc[0], 0);
}

START_TEST(overflow_signal_iresume)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 1);

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	fk_advance(10);
	fire_overflow(BIT(1));
	ck_assert_str_eq(fk_status(t), "stopped: overflow\n");
	ck_assert_int_eq(t->nsigs, 0);		/* on the way out only */
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 1);
	ck_assert_int_eq(t->sigs[0].signo, 29);
	ck_assert_int_eq(t->sigs[0].code, SI_PMC_OVF);
	ck_assert_int_eq(t->sigs[0].word0, BIT(1));
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_IRESUME), 0);
	ck_assert_int_eq(fk.ireloads, 1);
	ck_assert_str_eq(fk_status(t), "running\n");
	/* No overflow: IRESUME is refused. */
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_IRESUME), -EINVAL);
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 1);
}

START_TEST(exit_then_exited)
{
	struct task_struct *t = fk_task("T", 0);
	struct task_struct *p = fk_task("P", 1);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct fk_file f;
	char line[80] = "";

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_int_eq(fk_open(&f, &vperfctr_status_fops, t), 0);
	fk_exit(t);
	fk_as(p);
	ck_assert_int_eq(fk_read(&f, line, sizeof(line) - 1), 7);
	ck_assert_str_eq(line, "exited\n");
	/* Too late to open: its mm is gone, and with it the permission. */
	ck_assert_str_eq(fk_status(t), "error -13");
	fk_close(&f);
	/* An exit never unregisters: the last switch reaps the set. */
	ck_assert_int_eq(fk.unregistered, 0);
}

START_TEST(children_totals)
{
	struct task_struct *t = fk_task("T", 0);
	struct task_struct *c1 = fk_task("C1", 1);
	struct task_struct *c2 = fk_task("C2", 0);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct vperfctr_children ch;

	c.flags = VPERFCTR_CONTROL_INHERIT;
	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	fk_fork(t, c1);
	fk_return_to_user(t);			/* the refill */
	ck_assert_int_eq(fk_children(t, &ch), 0);
	ck_assert_uint_eq(ch.live, 1);
	fk_return_to_user(c1);			/* the adopt */
	ck_assert_str_eq(fk_status(c1), "running\n");
	fk_fork(t, c2);
	fk_return_to_user(t);
	fk_exit(c2);				/* before its adopt ran */
	fk_advance(50);
	fk_exit(c1);
	fk_as(t);
	ck_assert_int_eq(fk_children(t, &ch), 0);
	ck_assert_uint_eq(ch.live, 0);
	ck_assert_uint_eq(ch.exited, 2);
	ck_assert_uint_eq(ch.lost, 0);
	ck_assert_uint_eq(ch.sums.pmc[0], 50);
}

/* prctl(PR_SET_TSC, PR_TSC_SIGSEGV) in @t, as x86 records it (S8). */
static void set_notsc(struct task_struct *t, bool on)
{
	if (on)
		t->thread_flags |= BIT(TIF_NOTSC);
	else
		t->thread_flags &= ~BIT(TIF_NOTSC);
}

/* The prctl, then a switch out and back in. */
static void notsc_and_switch(struct task_struct *t, bool on)
{
	set_notsc(t, on);
	fk_sched_out(t);
	fk_as(t);
}

/* T counting with @c, its TSC on or not. */
static struct task_struct *counting(struct vperfctr_control *c, bool tsc)
{
	struct task_struct *t = fk_task("T", 0);

	*c = fk_ctl(1, 0);
	c->cpu_control.tsc_on = tsc;
	fk_as(t);
	ck_assert_int_eq(fk_control(t, c), 0);
	return t;
}

/* @t's sums after its counters could advance by @n. */
static struct perfctr_sum_ctrs sums_after(struct task_struct *t,
					  unsigned int n)
{
	struct perfctr_sum_ctrs s;

	fk_advance(n);
	ck_assert_int_eq(fk_sums(t, &s), 0);
	return s;
}

/* A control asking for the TSC while RDTSC is forbidden: EPERM, no set. */
START_TEST(tsc_refused_after_prctl)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 0);

	fk_as(t);
	set_notsc(t, true);
	ck_assert_int_eq(fk_control(t, &c), -EPERM);
	ck_assert_str_eq(fk_status(t), "none\n");
	c.cpu_control.tsc_on = 0;		/* counters alone: fine */
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_str_eq(fk_status(t), "running\n");
}

/*
 * The TSC was on before the prctl: from the owner's next switch-in the
 * set stands still ("stopped: notsc"), its sums frozen, until RDTSC is
 * allowed again.
 */
START_TEST(tsc_stops_after_late_prctl)
{
	struct vperfctr_control c;
	struct task_struct *t = counting(&c, true);

	fk_advance(10);
	notsc_and_switch(t, true);
	ck_assert_str_eq(fk_status(t), "stopped: notsc\n");
	ck_assert_uint_eq(sums_after(t, 1000).tsc, 10);
	ck_assert_uint_eq(sums_after(t, 0).pmc[0], 10);
	notsc_and_switch(t, false);
	ck_assert_str_eq(fk_status(t), "running\n");
	ck_assert_uint_eq(sums_after(t, 5).tsc, 15);
}

/* A set without the TSC is no business of PR_SET_TSC's. */
START_TEST(tsc_off_counts_on_after_prctl)
{
	struct vperfctr_control c;
	struct task_struct *t = counting(&c, false);

	notsc_and_switch(t, true);
	ck_assert_str_eq(fk_status(t), "running\n");
	ck_assert_uint_eq(sums_after(t, 7).pmc[0], 7);
}

/* Rewriting the control without the TSC makes the set count again. */
START_TEST(tsc_dropped_counts_again)
{
	struct vperfctr_control c;
	struct task_struct *t = counting(&c, true);

	notsc_and_switch(t, true);
	ck_assert_str_eq(fk_status(t), "stopped: notsc\n");
	c.cpu_control.tsc_on = 0;
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_str_eq(fk_status(t), "running\n");
	ck_assert_uint_eq(sums_after(t, 3).pmc[0], 3);
}

/* TIF_NOTSC outlives an exec; so does the set, standing still. */
START_TEST(tsc_stopped_across_exec)
{
	const struct fk_exec plain = {};
	struct vperfctr_control c;
	struct task_struct *t = counting(&c, true);

	fk_advance(4);
	set_notsc(t, true);
	ck_assert_int_eq(fk_exec(t, &plain), 0);
	fk_return_to_user(t);
	ck_assert_str_eq(fk_status(t), "stopped: notsc\n");
	ck_assert_uint_eq(sums_after(t, 100).tsc, 4);
}

void area_basic(Suite *s)
{
	TCase *tc = vp_tcase(s, "basic");

	tcase_add_test(tc, control_then_running);
	tcase_add_test(tc, suspend_resume);
	tcase_add_test(tc, overflow_signal_iresume);
	tcase_add_test(tc, exit_then_exited);
	tcase_add_test(tc, children_totals);
	tcase_add_test(tc, tsc_refused_after_prctl);
	tcase_add_test(tc, tsc_stops_after_late_prctl);
	tcase_add_test(tc, tsc_off_counts_on_after_prctl);
	tcase_add_test(tc, tsc_dropped_counts_again);
	tcase_add_test(tc, tsc_stopped_across_exec);
}
