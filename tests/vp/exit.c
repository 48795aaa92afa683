// SPDX-License-Identifier: GPL-2.0-only
/*
 * An exit against a remote unlink (a tracer's, or a perfmon drop), in
 * each order: before the exit, after PF_EXITING, after the exit probe.
 */
#include "areas.h"
#include "harness.h"

#define TAG	9

static struct task_struct *tagged(struct task_struct **c)
{
	struct task_struct *t = fk_task("T", 0);
	struct perfctr_sum_ctrs old;

	*c = fk_task("C", 1);
	fk_as(t);
	ck_assert_int_eq(vperfctr_tagged_install(t, TAG, false,
						 fk_tagged_state(), &old), 0);
	return t;
}

/* Freed once, module and hardware let go, nothing left registered. */
static void all_gone(void)
{
	run_works();
	ck_assert_int_eq(fk.warnings, 0);
	ck_assert_int_eq(fk.pages, 0);
	ck_assert_int_eq(THIS_MODULE->refs, 0);
	ck_assert_ptr_null(fk_hw_holder);
}

START_TEST(drop_then_exit)
{
	struct task_struct *c, *t = tagged(&c);

	fk_as(c);
	vperfctr_tagged_drop(t, TAG);
	fk_exit(t);			/* its exit runs the detach */
	ck_assert_int_eq(fk.unregistered, 1);
	all_gone();
}

START_TEST(exiting_then_drop)
{
	struct task_struct *c, *t = tagged(&c);
	struct perfctr_sum_ctrs s;

	fk_exit_begin(t);
	fk_as(c);
	vperfctr_tagged_drop(t, TAG);	/* refused: the exit reaps it */
	ck_assert_int_eq(vperfctr_tagged_read(t, TAG, &s), 0);
	fk_exit(t);
	ck_assert_int_eq(fk.unregistered, 0);
	all_gone();
}

START_TEST(exit_probe_then_drop)
{
	struct task_struct *c, *t = tagged(&c);
	struct perfctr_sum_ctrs s;

	fk_exit_begin(t);
	fk_exit_probe(t);
	fk_as(c);
	vperfctr_tagged_drop(t, TAG);
	ck_assert_int_eq(vperfctr_tagged_read(t, TAG, &s), -ESRCH);
	fk_exit(t);
	all_gone();
}

START_TEST(exit_then_drop)
{
	struct task_struct *c, *t = tagged(&c);

	fk_exit(t);
	fk_as(c);
	vperfctr_tagged_drop(t, TAG);
	all_gone();
	fk_as(c);
	vperfctr_tagged_drop(t, TAG);	/* the file's close, after the reap */
	all_gone();
}

static void drop_as(void *arg)
{
	struct task_struct **tc = arg;

	fk_as(tc[1]);
	vperfctr_tagged_drop(tc[0], TAG);
}

/* The drop lands as the exit probe takes the set's lock. */
START_TEST(drop_inside_exit_probe)
{
	struct task_struct *tc[2];

	tc[0] = tagged(&tc[1]);
	fk_exit_begin(tc[0]);
	on_next_lock(vpt_set_lock(tc[0]), drop_as, tc);
	fk_exit(tc[0]);
	all_gone();
}

START_TEST(tracer_unlink_then_exit)
{
	struct task_struct *t = fk_task("T", 0), *p = fk_task("P", 1);
	struct vperfctr_control c = fk_ctl(1, 0);

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	fk_ptrace_stop(t, p);
	fk_as(p);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), 0);
	fk_ptrace_cont(t);		/* killed: straight to exit */
	fk_exit(t);
	ck_assert_int_eq(fk.unregistered, 1);
	all_gone();
}

START_TEST(exiting_then_tracer_unlink)
{
	struct task_struct *t = fk_task("T", 0), *p = fk_task("P", 1);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct fk_file f;
	u32 cmd = VPERFCTR_CMD_UNLINK;

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	fk_ptrace_stop(t, p);
	fk_as(p);
	ck_assert_int_eq(fk_open(&f, &vperfctr_command_fops, t), 0);
	fk_ptrace_cont(t);
	fk_exit_begin(t);
	fk_as(p);
	ck_assert_int_eq(fk_write(&f, &cmd, sizeof(cmd)), -ESRCH);
	fk_close(&f);
	fk_exit(t);
	all_gone();
}

void area_exit(Suite *s)
{
	TCase *tc = vp_tcase(s, "exit");

	tcase_add_test(tc, drop_then_exit);
	tcase_add_test(tc, exiting_then_drop);
	tcase_add_test(tc, exit_probe_then_drop);
	tcase_add_test(tc, exit_then_drop);
	tcase_add_test(tc, drop_inside_exit_probe);
	tcase_add_test(tc, tracer_unlink_then_exit);
	tcase_add_test(tc, exiting_then_tracer_unlink);
}
