// SPDX-License-Identifier: GPL-2.0-only
/* The files of /proc/perfctr/<tid>/ across the thread's exit. */
#include "areas.h"
#include "harness.h"

/* Opened before the exit, read after the reap: the final sums. */
START_TEST(final_sums_after_exit)
{
	struct task_struct *t = fk_task("T", 0), *p = fk_task("P", 1);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct perfctr_sum_ctrs s;
	struct fk_file f;

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_int_eq(fk_open(&f, &vperfctr_sums_fops, t), 0);
	fk_advance(40);
	fk_exit(t);
	fk_advance(1000);
	run_works();
	fk_as(p);
	ck_assert_int_eq(fk_read(&f, &s, sizeof(s)), sizeof(s));
	ck_assert_uint_eq(s.tsc, 40);
	ck_assert_uint_eq(s.pmc[0], 40);
	ck_assert_int_gt(fk.pages, 0);		/* the file keeps the set */
	fk_close(&f);
	run_works();
	ck_assert_int_eq(fk.pages, 0);
	ck_assert_int_eq(THIS_MODULE->refs, 0);
}

/*
 * The thread made itself undumpable, then was switched out between
 * exit_mm() and its exit probe: it comes back with another task's
 * active_mm, dumpable. Its own mm says no: the final counts are refused.
 */
START_TEST(final_nodump_switched_out_at_exit)
{
	struct task_struct *t = fk_task("T", 0), *p = fk_task("P", 1);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct perfctr_sum_ctrs s;
	struct fk_file f;

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_int_eq(fk_open(&f, &vperfctr_sums_fops, t), 0);
	t->mm->dumpable = SUID_DUMP_DISABLE;	/* prctl(PR_SET_DUMPABLE, 0) */
	fk_exit_begin(t);
	t->active_mm = p->mm;			/* borrowed at its switch-in */
	fk_exit_probe(t);
	fk_exit_work(t);
	fk_exit_dead(t);
	run_works();
	fk_as(p);
	ck_assert_int_eq(fk_read(&f, &s, sizeof(s)), -ESRCH);
	fk_close(&f);
	run_works();
	ck_assert_int_eq(t->mm_store.count, 0);	/* the watch let it go */
}

/*
 * A sibling opens the thread's file after exit_mm() and before its exit
 * probe: refused (ESRCH), and the earlier file still reads the final sums
 * (the watch keeps the thread's mm, not the NULL it has now).
 */
START_TEST(final_open_racing_exit_keeps_mm)
{
	struct task_struct *t = fk_task("T", 0), *s = fk_thread(t, 1);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct perfctr_sum_ctrs sums;
	struct fk_file f, g;

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_int_eq(fk_open(&f, &vperfctr_sums_fops, t), 0);
	fk_advance(30);
	fk_exit_begin(t);
	fk_as(s);
	ck_assert_int_eq(fk_open(&g, &vperfctr_sums_fops, t), -ESRCH);
	fk_exit_probe(t);
	fk_exit_work(t);
	fk_exit_dead(t);
	run_works();
	fk_as(s);
	ck_assert_int_eq(fk_read(&f, &sums, sizeof(sums)), sizeof(sums));
	ck_assert_uint_eq(sums.pmc[0], 30);
	fk_close(&f);
	fk_exit(s);
	run_works();
}

/*
 * Each open file is charged to its opener: a monitor's file on a thread
 * whose own process also holds one does not stay charged to the monitor
 * after it closes it (the thread's process keeps the watch alive).
 */
START_TEST(files_charged_to_each_opener)
{
	struct task_struct *t = fk_task("T", 0), *m = fk_task("M", 1);
	struct task_struct *u = fk_task("U", 1);
	struct fk_file mine, its, next;

	vpt_files_per_user(1);
	t->cred.uid.val = 2000;		/* another user's thread */
	fk_as(t);
	fk_ptrace_stop(t, m);		/* M may read it: its tracer */
	fk_as(m);
	ck_assert_int_eq(fk_open(&mine, &vperfctr_sums_fops, t), 0);
	ck_assert_int_eq(fk_open(&next, &vperfctr_sums_fops, t), -EMFILE);
	fk_ptrace_cont(t);
	ck_assert_int_eq(fk_open(&its, &vperfctr_status_fops, t), 0);
	fk_as(m);
	fk_close(&mine);
	/* M's one place is free again, though T's watch lives on. */
	fk_as(u);
	fk_ptrace_stop(u, m);
	fk_as(m);
	ck_assert_int_eq(fk_open(&next, &vperfctr_sums_fops, u), 0);
	fk_close(&next);
	fk_ptrace_cont(u);
	fk_close(&its);
	vpt_files_per_user(4096);
}

/* An exec swaps the mm the watch keeps: the new program's counts. */
START_TEST(final_after_exec_reads_new_mm)
{
	struct task_struct *t = fk_task("T", 0), *p = fk_task("P", 1);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct perfctr_sum_ctrs s;
	struct mm_struct newmm = { .dumpable = SUID_DUMP_USER };
	struct fk_exec nodump = { .mm = &newmm };
	struct fk_file f;

	fk_as(t);
	ck_assert_int_eq(fk_open(&f, &vperfctr_sums_fops, t), 0);
	ck_assert_int_eq(t->mm_store.count, 1);
	fk_exec(t, &nodump);
	ck_assert_int_eq(t->mm_store.count, 0);
	ck_assert_int_eq(newmm.count, 1);
	ck_assert_int_eq(fk_control(t, &c), 0);
	newmm.dumpable = SUID_DUMP_DISABLE;
	fk_exit(t);
	run_works();
	fk_as(p);
	ck_assert_int_eq(fk_read(&f, &s, sizeof(s)), -ESRCH);
	fk_close(&f);
	run_works();
	ck_assert_int_eq(newmm.count, 0);
}

START_TEST(final_unlinked_reads_none)
{
	struct task_struct *t = fk_task("T", 0), *p = fk_task("P", 1);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct fk_file f;
	char line[80] = "";

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_int_eq(fk_open(&f, &vperfctr_status_fops, t), 0);
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_UNLINK), 0);
	fk_exit(t);
	fk_as(p);
	ck_assert_int_eq(fk_read(&f, line, sizeof(line) - 1), 5);
	ck_assert_str_eq(line, "none\n");
	fk_close(&f);
}

START_TEST(changes_after_exit_refused)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct fk_file f;

	fk_as(t);
	ck_assert_int_eq(fk_open(&f, &vperfctr_control_fops, t), 0);
	ck_assert_int_eq(fk_write(&f, &c, sizeof(c)), sizeof(c));
	fk_exit_begin(t);
	ck_assert_int_eq(fk_write(&f, &c, sizeof(c)), -ESRCH);
	fk_exit(t);
	fk_close(&f);
}

START_TEST(user_copy_faults)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 0);
	struct perfctr_sum_ctrs s;

	fk_as(t);
	fk_fault_next();
	ck_assert_int_eq(fk_control(t, &c), -EFAULT);
	ck_assert_str_eq(fk_status(t), "none\n");
	ck_assert_int_eq(fk_control(t, &c), 0);
	fk_fault_next();
	ck_assert_int_eq(fk_sums(t, &s), -EFAULT);
}

/* Not the owner's user: no open; the tracer: yes. */
START_TEST(open_permission)
{
	struct task_struct *t = fk_task("T", 0), *o = fk_task("O", 1);
	struct fk_file f;

	o->cred.uid.val = 2000;
	o->cred.euid.val = 2000;
	fk_as(o);
	ck_assert_int_eq(fk_open(&f, &vperfctr_status_fops, t), -EACCES);
	fk_ptrace_stop(t, o);
	fk_as(o);
	ck_assert_int_eq(fk_open(&f, &vperfctr_status_fops, t), 0);
	fk_close(&f);
}

/* The owner's set goes with the hardware: reclaim evicts it. */
START_TEST(reclaim_evicts)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 0);

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	ck_assert_str_eq(fk_hw_holder, vperfctr_service);
	fk_sched_out(t);
	ck_assert_uint_eq(vperfctr_reclaim(), 1);
	ck_assert_ptr_null(fk_hw_holder);
	fk_as(t);
	ck_assert_str_eq(fk_status(t), "stopped: evicted\n");
	ck_assert_int_eq(fk_command(t, VPERFCTR_CMD_RESUME), -EBUSY);
}

void area_files(Suite *s)
{
	TCase *tc = vp_tcase(s, "files");

	tcase_add_test(tc, final_sums_after_exit);
	tcase_add_test(tc, final_unlinked_reads_none);
	tcase_add_test(tc, final_nodump_switched_out_at_exit);
	tcase_add_test(tc, final_after_exec_reads_new_mm);
	tcase_add_test(tc, final_open_racing_exit_keeps_mm);
	tcase_add_test(tc, files_charged_to_each_opener);
	tcase_add_test(tc, changes_after_exit_refused);
	tcase_add_test(tc, user_copy_faults);
	tcase_add_test(tc, open_permission);
	tcase_add_test(tc, reclaim_evicts);
}
