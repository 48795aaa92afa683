// SPDX-License-Identifier: GPL-2.0-only
/*
 * Unlinks: the owner's own, a tracer's of its stopped tracee, and a
 * tracer's control write whose link work is still pending, in each order.
 */
#include "areas.h"
#include "harness.h"

/* T counts; P, on the other CPU, may trace it. */
static void owner_and_tracer(struct task_struct **t, struct task_struct **p)
{
	struct vperfctr_control c = fk_ctl(1, 0);

	*t = fk_task("T", 0);
	*p = fk_task("P", 1);
	fk_as(*t);
	ck_assert_int_eq(fk_control(*t, &c), 0);
}

START_TEST(owner_unlink_then_tracer_unlink)
{
	struct task_struct *t, *p;

	owner_and_tracer(&t, &p);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), 0);
	ck_assert_int_eq(fk.unregistered, 1);
	fk_ptrace_stop(t, p);
	fk_as(p);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), -ENODATA);
	fk_ptrace_cont(t);
	fk_return_to_user(t);
	run_works();
	ck_assert_int_eq(fk.unregistered, 1);
	ck_assert_str_eq(fk_status(t), "none\n");
	ck_assert_int_eq(fk.pages, 0);
	ck_assert_int_eq(THIS_MODULE->refs, 0);
}

START_TEST(tracer_unlink_then_owner_unlink)
{
	struct task_struct *t, *p;

	owner_and_tracer(&t, &p);
	fk_ptrace_stop(t, p);
	fk_as(p);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), 0);
	ck_assert_str_eq(fk_status(t), "none\n");
	fk_ptrace_cont(t);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), -ENODATA);
	fk_return_to_user(t);		/* the detach the tracer queued */
	run_works();
	ck_assert_int_eq(fk.unregistered, 1);
	ck_assert_int_eq(fk.pages, 0);
	ck_assert_int_eq(THIS_MODULE->refs, 0);
}

/*
 * Another's command: refused to a stranger (EACCES, policy.c), and to a
 * tracer whose tracee runs (EPERM); the set runs on.
 */
START_TEST(unlink_needs_a_stopped_tracee)
{
	struct task_struct *t, *p;

	owner_and_tracer(&t, &p);
	fk_as(p);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), -EACCES);
	fk_as(t);
	fk_ptrace_stop(t, p);
	fk_ptrace_cont(t);		/* traced, running */
	fk_as(p);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), -EPERM);
	fk_as(t);
	ck_assert_str_eq(fk_status(t), "running\n");
	ck_assert_int_eq(fk.unregistered, 0);
}

/* P gives its stopped tracee T a set: linked by T itself, later. */
static void tracer_gives(struct task_struct **t, struct task_struct **p)
{
	struct vperfctr_control c = fk_ctl(1, 0);

	*t = fk_task("T", 0);
	*p = fk_task("P", 1);
	fk_as(*t);
	fk_ptrace_stop(*t, *p);
	fk_as(*p);
	ck_assert_int_eq(fk_control(*t, &c), 0);
	ck_assert_int_eq(fk.registered, 0);	/* the link work waits */
}

START_TEST(tracer_control_then_unlink_then_run)
{
	struct task_struct *t, *p;

	tracer_gives(&t, &p);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), 0);
	fk_ptrace_cont(t);
	fk_return_to_user(t);
	run_works();
	/* The link work drops a set unlinked before it: never registered. */
	ck_assert_int_eq(fk.registered, 0);
	ck_assert_int_eq(fk.unregistered, 0);
	ck_assert_str_eq(fk_status(t), "none\n");
	ck_assert_int_eq(fk.pages, 0);
}

START_TEST(tracer_control_then_unlink_then_exit)
{
	struct task_struct *t, *p;

	tracer_gives(&t, &p);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), 0);
	fk_ptrace_cont(t);
	fk_exit(t);
	run_works();
	ck_assert_int_eq(fk.registered, fk.unregistered);
	ck_assert_int_eq(fk.pages, 0);
	ck_assert_int_eq(THIS_MODULE->refs, 0);
}

START_TEST(tracer_control_then_exit)
{
	struct task_struct *t, *p;
	struct fk_file f;
	char line[80] = "";

	tracer_gives(&t, &p);
	ck_assert_int_eq(fk_open(&f, &vperfctr_status_fops, t), 0);
	fk_ptrace_cont(t);
	fk_exit(t);
	run_works();
	fk_as(p);
	ck_assert_int_eq(fk_read(&f, line, sizeof(line) - 1), 7);
	ck_assert_str_eq(line, "exited\n");
	fk_close(&f);
	run_works();
	ck_assert_int_eq(fk.pages, 0);
	ck_assert_int_eq(THIS_MODULE->refs, 0);
}

START_TEST(tracer_control_then_run)
{
	struct task_struct *t, *p;

	tracer_gives(&t, &p);
	ck_assert_str_eq(fk_status(t), "running\n");
	fk_ptrace_cont(t);
	fk_return_to_user(t);
	ck_assert_int_eq(fk.registered, 1);
	ck_assert_int_eq(fk.resumes, 1);
}

static void killed_now(void *arg)
{
	fk_ptrace_cont(arg);		/* SIGKILL wakes it from the stop */
	fk_exit(arg);			/* and its exit runs the link */
}

/*
 * The tracee is killed as the tracer's control queues its link: the link
 * runs in its exit at once, before the control is done. The control
 * finds the set dropped (ESRCH); nothing warns, nothing stays.
 */
START_TEST(tracer_control_races_tracee_kill)
{
	struct task_struct *t = fk_task("T", 0), *p = fk_task("P", 1);
	struct vperfctr_control c = fk_ctl(1, 0);

	fk_as(t);
	fk_ptrace_stop(t, p);
	fk_as(p);
	on_next_task_work(killed_now, t);
	ck_assert_int_eq(fk_control(t, &c), -ESRCH);
	run_works();
	ck_assert_int_eq(fk.registered, 0);
	ck_assert_int_eq(fk.pages, 0);
	ck_assert_int_eq(THIS_MODULE->refs, 0);
	ck_assert_ptr_null(fk_hw_holder);
}

void area_unlink(Suite *s)
{
	TCase *tc = vp_tcase(s, "unlink");

	tcase_add_test(tc, owner_unlink_then_tracer_unlink);
	tcase_add_test(tc, tracer_unlink_then_owner_unlink);
	tcase_add_test(tc, unlink_needs_a_stopped_tracee);
	tcase_add_test(tc, tracer_control_then_unlink_then_run);
	tcase_add_test(tc, tracer_control_then_unlink_then_exit);
	tcase_add_test(tc, tracer_control_then_exit);
	tcase_add_test(tc, tracer_control_then_run);
	tcase_add_test(tc, tracer_control_races_tracee_kill);
}
