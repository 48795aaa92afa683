// SPDX-License-Identifier: GPL-2.0-only
/*
 * Inheritance: a fork hands the child the spare (adopted by the child's
 * task_work), the parent refills; against the child's early exit and
 * the parent's exit, in each order.
 */
#include "areas.h"
#include "harness.h"

static struct task_struct *inheriting(void)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 0);

	c.flags = VPERFCTR_CONTROL_INHERIT;
	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	return t;
}

static void all_gone(void)
{
	run_works();
	ck_assert_int_eq(fk.warnings, 0);
	ck_assert_int_eq(THIS_MODULE->refs, 0);
}

START_TEST(child_exits_before_adopt)
{
	struct task_struct *t = inheriting(), *k = fk_task("K", 1);
	struct vperfctr_children ch;

	fk_fork(t, k);
	fk_exit(k);
	fk_return_to_user(t);
	ck_assert_int_eq(fk_children(t, &ch), 0);
	ck_assert_uint_eq(ch.live, 0);
	ck_assert_uint_eq(ch.exited + ch.lost, 1);
	ck_assert_int_eq(fk.registered, 1);	/* the child never linked */
	fk_exit(t);
	all_gone();
}

/* The parent exits first; its children file still counts the child. */
START_TEST(parent_exits_before_adopt)
{
	struct task_struct *t = inheriting(), *k = fk_task("K", 1);
	struct task_struct *p = fk_task("P", 1);
	struct vperfctr_children ch;
	struct fk_file f;

	ck_assert_int_eq(fk_open(&f, &vperfctr_children_fops, t), 0);
	fk_fork(t, k);
	fk_exit(t);			/* its refill runs at exit */
	run_works();
	fk_return_to_user(k);		/* the adopt */
	ck_assert_str_eq(fk_status(k), "running\n");
	fk_advance(30);
	fk_exit(k);
	run_works();
	fk_as(p);
	ck_assert_int_eq(fk_read(&f, &ch, sizeof(ch)), sizeof(ch));
	ck_assert_uint_eq(ch.live, 0);
	ck_assert_uint_eq(ch.exited, 1);
	ck_assert_uint_eq(ch.sums.pmc[0], 30);
	fk_close(&f);
	all_gone();
}

START_TEST(parent_exits_child_exits_before_adopt)
{
	struct task_struct *t = inheriting(), *k = fk_task("K", 1);

	fk_fork(t, k);
	fk_exit(t);
	fk_exit(k);
	all_gone();
}

/* Two forks before the refill: the second child goes uncounted. */
START_TEST(fork_twice_before_refill)
{
	struct task_struct *t = inheriting();
	struct task_struct *k1 = fk_task("K1", 1), *k2 = fk_task("K2", 1);
	struct vperfctr_children ch;

	fk_fork(t, k1);
	fk_fork(t, k2);
	fk_return_to_user(t);
	ck_assert_int_eq(fk_children(t, &ch), 0);
	ck_assert_uint_eq(ch.live, 1);
	ck_assert_uint_eq(ch.lost, 1);
	fk_return_to_user(k1);
	fk_return_to_user(k2);
	/* Each reads its own: another process's needs its tracer. */
	ck_assert_str_eq(fk_status(k2), "none\n");
	fk_as(k1);
	ck_assert_str_eq(fk_status(k1), "running\n");
	fk_exit(k1);
	fk_exit(k2);
	fk_exit(t);
	all_gone();
}

START_TEST(child_unlinks_after_adopt)
{
	struct task_struct *t = inheriting(), *k = fk_task("K", 1);
	struct vperfctr_children ch;

	fk_fork(t, k);
	fk_return_to_user(k);
	fk_advance(11);
	ck_assert_int_eq(fk_command(k, VPERFCTR_CMD_UNLINK), 0);
	fk_as(t);
	ck_assert_int_eq(fk_children(t, &ch), 0);
	ck_assert_uint_eq(ch.live, 0);
	ck_assert_uint_eq(ch.exited, 1);
	ck_assert_uint_eq(ch.sums.pmc[0], 11);
	fk_exit(k);
	fk_exit(t);
	all_gone();
}

void area_inherit(Suite *s)
{
	TCase *tc = vp_tcase(s, "inherit");

	tcase_add_test(tc, child_exits_before_adopt);
	tcase_add_test(tc, parent_exits_before_adopt);
	tcase_add_test(tc, parent_exits_child_exits_before_adopt);
	tcase_add_test(tc, fork_twice_before_refill);
	tcase_add_test(tc, child_unlinks_after_adopt);
}
