// SPDX-License-Identifier: GPL-2.0-only
/*
 * An overflow or IBS ring-full signal queued before an exec is the old
 * program's: the new one never gets it. s2_*: fail on d5ddeaa.
 */
#include "areas.h"
#include "harness.h"

#include <perfctr/ibs.h>

/* T counts with an i-mode counter; it overflows early in an execve. */
static struct task_struct *overflowed(void)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(1, 1);

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	fire_overflow(BIT(1));		/* in_execve still 0 */
	ck_assert_int_eq(t->nsigs, 0);
	return t;
}

START_TEST(s2_no_signal_after_exec)
{
	static const struct fk_exec nodump = { .nodump = true };
	struct task_struct *t = overflowed();

	ck_assert_int_eq(fk_exec(t, &nodump), 0);
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 0);
	ck_assert_str_eq(fk_status(t), "none\n");
}

START_TEST(s2_no_signal_after_exec_set_survives)
{
	static const struct fk_exec same = {};
	struct task_struct *t = overflowed();

	ck_assert_int_eq(fk_exec(t, &same), 0);
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 0);
	fk_sched_out(t);
	fk_as(t);			/* nor at the next switch-in */
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 0);
}

START_TEST(signal_after_failed_exec)
{
	static const struct fk_exec fail = { .fail = true };
	struct task_struct *t = overflowed();

	ck_assert_int_eq(fk_exec(t, &fail), -ENOEXEC);
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 1);
	ck_assert_int_eq(t->sigs[0].code, SI_PMC_OVF);
	ck_assert_int_eq(t->sigs[0].word0, BIT(1));
	ck_assert_str_eq(fk_status(t), "stopped: overflow\n");
}

/* An overflow inside execve (in_execve set) waits, then is dropped. */
static void overflow_at_stop(void *arg)
{
	fk_as(arg);
}

START_TEST(overflow_inside_exec_dropped)
{
	struct task_struct *t = fk_task("T", 0);
	struct vperfctr_control c = fk_ctl(0, 1);
	struct fk_exec o = { .at_stop = overflow_at_stop };

	fk_as(t);
	ck_assert_int_eq(fk_control(t, &c), 0);
	o.arg = t;
	t->in_execve = 1;
	fire_overflow(BIT(0));
	t->in_execve = 0;
	ck_assert_int_eq(fk_exec(t, &o), 0);
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 0);
}

START_TEST(signal_not_sent_under_lock)
{
	struct task_struct *t = overflowed();

	/* send_sig_info() fails the test if called atomic: it is not. */
	fk_sched_out(t);
	fk_as(t);
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 1);
}

/* T samples with IBS into a one-page ring, SIGIO when it fills. */
static struct task_struct *ibs_sampling(struct fk_file *f)
{
	struct perfctr_ibs_control c = {
		.flags = PERFCTR_IBS_OP, .si_signo = 29,
		.op_maxcnt = PERFCTR_IBS_MIN_USER, .ring_pages = 1,
	};
	struct task_struct *t = fk_task("T", 0);

	fk_as(t);
	ck_assert_int_eq(fk_open(f, &vperfctr_ibs_fops, t), 0);
	ck_assert_int_eq(fk_write(f, &c, sizeof(c)), sizeof(c));
	return t;
}

/*
 * The ring fills while its owner is in the kernel (a syscall, or an
 * execve before in_execve is set): the NMI's irq_work runs, the owner
 * has not yet returned to user mode.
 */
static void ibs_fill(void)
{
	size_t i;

	for (i = 0; i < PAGE_SIZE / sizeof(struct perfctr_ibs_sample); i++)
		ck_assert(fk_ibs_sample());
	run_works();
}

START_TEST(ibs_fill_signal)
{
	struct fk_file f;
	struct task_struct *t = ibs_sampling(&f);

	ibs_fill();
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 1);
	ck_assert_int_eq(t->sigs[0].signo, 29);
	ck_assert_int_eq(t->sigs[0].code, SI_PMC_IBS_FULL);
	fk_close(&f);
}

START_TEST(s2_ibs_fill_before_exec_dropped)
{
	static const struct fk_exec nodump = { .nodump = true };
	struct fk_file f;
	struct task_struct *t = ibs_sampling(&f);

	ibs_fill();
	ck_assert_int_eq(fk_exec(t, &nodump), 0);
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 0);
	fk_close(&f);
}

/* The setup stays across an exec that keeps the set: still no signal. */
START_TEST(s2_ibs_fill_before_exec_set_survives)
{
	static const struct fk_exec same = {};
	struct fk_file f;
	struct task_struct *t = ibs_sampling(&f);

	ibs_fill();
	ck_assert_int_eq(fk_exec(t, &same), 0);
	fk_return_to_user(t);
	ck_assert_int_eq(t->nsigs, 0);
	fk_close(&f);
}

void area_signal(Suite *s)
{
	TCase *tc = vp_tcase(s, "signal");

	tcase_add_test(tc, s2_no_signal_after_exec);
	tcase_add_test(tc, s2_no_signal_after_exec_set_survives);
	tcase_add_test(tc, signal_after_failed_exec);
	tcase_add_test(tc, overflow_inside_exec_dropped);
	tcase_add_test(tc, signal_not_sent_under_lock);
	tcase_add_test(tc, ibs_fill_signal);
	tcase_add_test(tc, s2_ibs_fill_before_exec_dropped);
	tcase_add_test(tc, s2_ibs_fill_before_exec_set_survives);
}
