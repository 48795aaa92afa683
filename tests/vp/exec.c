// SPDX-License-Identifier: GPL-2.0-only
/*
 * An exec deciding a set's fate against a remote unlink (the last close
 * of the owner's /dev/perfmon file), in every order. s1_*: the unlink
 * between vp_exec()'s lookup and its lock (fails on d5ddeaa).
 */
#include "areas.h"
#include "harness.h"

#define TAG	7

struct race {
	struct task_struct *t, *c;
};

static void drop_as_c(void *arg)
{
	struct race *r = arg;

	fk_as(r->c);
	vperfctr_tagged_drop(r->t, TAG);
}

/* T, with a linked tagged set; C, the closer, on the other CPU. */
static void tagged_owner(struct race *r)
{
	struct perfctr_sum_ctrs old;

	r->t = fk_task("T", 0);
	r->c = fk_task("C", 1);
	fk_as(r->t);
	ck_assert_int_eq(vperfctr_tagged_install(r->t, TAG, false,
						 fk_tagged_state(), &old), 0);
	ck_assert_int_eq(fk.registered, 1);
}

/* Detached once, status "none", the set and its module ref gone. */
static void gone_once(struct race *r)
{
	run_works();
	ck_assert_int_eq(fk.unregistered, 1);
	ck_assert_int_eq(fk.warnings, 0);
	fk_as(r->t);
	ck_assert_str_eq(fk_status(r->t), "none\n");
	ck_assert_int_eq(fk.pages, 0);		/* the set's page: freed */
	ck_assert_int_eq(THIS_MODULE->refs, 0);
	ck_assert_ptr_null(fk_hw_holder);
}

static const struct fk_exec nodump = { .nodump = true };

START_TEST(s1_drop_between_lookup_and_lock)
{
	struct race r;

	tagged_owner(&r);
	on_next_lock(vpt_set_lock(r.t), drop_as_c, &r);
	ck_assert_int_eq(fk_exec(r.t, &nodump), 0);
	fk_return_to_user(r.t);
	gone_once(&r);
}

static void stop_and_reap(void *arg)
{
	struct race *r = arg;

	fk_sched_out(r->t);	/* held at PTRACE_EVENT_EXEC */
	run_works();
}

/* The reap and free run before T's own task_work. */
START_TEST(s1_drop_between_lookup_and_lock_reap_first)
{
	struct fk_exec o = { .nodump = true, .at_stop = stop_and_reap };
	struct race r;

	tagged_owner(&r);
	o.arg = &r;
	on_next_lock(vpt_set_lock(r.t), drop_as_c, &r);
	ck_assert_int_eq(fk_exec(r.t, &o), 0);
	fk_return_to_user(r.t);
	gone_once(&r);
}

START_TEST(exec_drop_before_lookup)
{
	struct race r;

	tagged_owner(&r);
	drop_as_c(&r);
	ck_assert_int_eq(fk_exec(r.t, &nodump), 0);
	fk_return_to_user(r.t);
	gone_once(&r);
}

START_TEST(exec_drop_after_decision)
{
	struct race r;

	tagged_owner(&r);
	ck_assert_int_eq(fk_exec(r.t, &nodump), 0);
	ck_assert_int_eq(fk.unregistered, 1);	/* the exec detached it */
	drop_as_c(&r);
	fk_return_to_user(r.t);
	gone_once(&r);
}

/* The set would survive this exec, but its file is closed meanwhile. */
START_TEST(exec_survives_drop_between_lookup_and_lock)
{
	static const struct fk_exec same = {};
	struct race r;

	tagged_owner(&r);
	on_next_lock(vpt_set_lock(r.t), drop_as_c, &r);
	ck_assert_int_eq(fk_exec(r.t, &same), 0);
	fk_return_to_user(r.t);
	gone_once(&r);
}

/* What a set survives: the same program's user, dumpable. */
START_TEST(exec_survival_rules)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct fk_exec o = {};

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_int_eq(fk_exec(t, &o), 0);
	fk_return_to_user(t);
	ck_assert_str_eq(fk_status(t), "running\n");
	o.fail = true;
	ck_assert_int_eq(fk_exec(t, &o), -ENOEXEC);
	ck_assert_str_eq(fk_status(t), "running\n");
	o = (struct fk_exec){ .secure = true };
	ck_assert_int_eq(fk_exec(t, &o), 0);
	fk_return_to_user(t);
	ck_assert_str_eq(fk_status(t), "none\n");
	ck_assert_int_eq(fk.unregistered, 1);
}

void area_exec(Suite *s)
{
	TCase *tc = vp_tcase(s, "exec");

	tcase_add_test(tc, s1_drop_between_lookup_and_lock);
	tcase_add_test(tc, s1_drop_between_lookup_and_lock_reap_first);
	tcase_add_test(tc, exec_drop_before_lookup);
	tcase_add_test(tc, exec_drop_after_decision);
	tcase_add_test(tc, exec_survives_drop_between_lookup_and_lock);
	tcase_add_test(tc, exec_survival_rules);
}
