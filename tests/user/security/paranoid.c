// SPDX-License-Identifier: GPL-2.0-only
/*
 * The security suite's "paranoid" case: what perfctr.paranoid lets an
 * unprivileged thread count, and a tracer's control judged on the
 * tracer's privilege and the tracee's.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "security.h"

void set_paranoid(int level)
{
	char buf[8];

	snprintf(buf, sizeof(buf), "%d", level);
	ck_assert_int_eq(param_put("paranoid", buf), 0);
}

/* Every test leaves the defaults behind, whatever it changed. */
void defaults(void)
{
	param_put("paranoid", "2");
	param_put("read_same_uid", "0");
}

/* --- unprivileged children --- */

int become_nobody(void)
{
	if (setgid(NOBODY) || setuid(NOBODY))
		return -1;
	/* setuid() made us non-dumpable; a plain user process is not. */
	return prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
}

/* What a child tries: a control; with @kernel, counting kernel mode too. */
struct try {
	int counters;	/* 0: TSC only */
	int kernel;
	int want;	/* 0, or the errno */
};

static void try_control(const struct try *t, struct vperfctr_control *c)
{
	tsc_control(c);
	if (t->counters)
		model->amode(&c->cpu_control);
	if (t->kernel)
		model->kernel(&c->cpu_control);
}

/*
 * As nobody: first a TSC-only control, then the one to try; a refusal
 * must leave the first in place, counting.
 */
static int try_kid(int rd, int wr, void *arg)
{
	const struct try *t = arg;
	struct vperfctr_control c, got;
	struct perfctr_sum_ctrs s0, s1;
	struct vperfctr *vp;
	int err;

	(void)rd;
	(void)wr;
	if (become_nobody())
		return kid_fail(10);
	vp = lib_open_tsc(&c);
	if (!vp)
		return kid_fail(11);
	try_control(t, &c);
	err = vperfctr_control(vp, &c) ? errno : 0;
	if (err != t->want)
		return kid_fail(13);
	if (vperfctr_read_control(vp, &got))
		return kid_fail(14);
	if (!err)
		return memcmp(&got, &c, sizeof(c)) ? kid_fail(15) : 0;
	/* Refused: the old control, still counting. */
	tsc_control(&c);
	if (memcmp(&got, &c, sizeof(c)) || vperfctr_read_sums(vp, &s0))
		return kid_fail(16);
	spin(ms_ticks(2));
	if (vperfctr_read_sums(vp, &s1) || s1.tsc <= s0.tsc)
		return kid_fail(17);
	return 0;
}

static void run_try(int level, int counters, int kernel, int want)
{
	struct try t = { counters, kernel, want };

	set_paranoid(level);
	kid_run(try_kid, &t);
}

/* --- paranoid --- */

static const char *const bad_levels[] = { "-2", "4", "1000", "x", "2x" };

START_TEST(paranoid_out_of_range_refused)
{
	set_paranoid(1);
	ck_assert_int_eq(param_put("paranoid", bad_levels[_i]), EINVAL);
	ck_assert_int_eq(param_get("paranoid"), 1);
}

START_TEST(paranoid_every_level_accepted)
{
	int level;

	for (level = -1; level <= 3; level++) {
		char want[8];
		const char *v;

		set_paranoid(level);
		ck_assert_int_eq(param_get("paranoid"), level);
		v = info_field("paranoid");
		snprintf(want, sizeof(want), "%d", level);
		ck_assert_msg(v && !strcmp(v, want), "info says paranoid %s", v);
	}
}

START_TEST(paranoid_default_is_2)
{
	ck_assert_int_eq(param_get("paranoid"), 2);
}

/* At 3 the TSC stays open to everyone. */
START_TEST(paranoid3_tsc_allowed)
{
	run_try(3, 0, 0, 0);
}

START_TEST(paranoid3_counters_refused)
{
	run_try(3, 1, 0, EACCES);
}

START_TEST(paranoid2_user_mode_allowed)
{
	run_try(2, 1, 0, 0);
}

START_TEST(paranoid2_kernel_mode_refused)
{
	run_try(2, 1, 1, EACCES);
}

START_TEST(paranoid1_kernel_mode_allowed)
{
	run_try(1, 1, 1, 0);
}

/* CAP_PERFMON (root here) bypasses every level. */
START_TEST(privileged_bypasses_paranoid)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;

	ck_assert_ptr_nonnull(vp);
	set_paranoid(3);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	model->kernel(&c.cpu_control);
	lib_control(vp, &c);
	vperfctr_unlink(vp);
	vperfctr_close(vp);
}

/*
 * A control a tracer writes is judged on the tracer's privilege and on
 * the tracee's, which reads its own counts (security.rst): each of them
 * is root or nobody. The tracee has a TSC-only control of its own first,
 * which a refusal must leave in place.
 */
struct traced {
	int tracer_nobody;
	int tracee_nobody;
	int kernel;		/* the control counts kernel mode too */
	int want;		/* 0, or the errno */
};

static int traced_kid(int rd, int wr, void *arg)
{
	const struct traced *t = arg;
	struct vperfctr_control c;

	(void)wr;
	if (t->tracee_nobody && become_nobody())
		return kid_fail(40);
	if (!lib_open_tsc(&c))
		return kid_fail(41);
	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		return kid_fail(42);
	raise(SIGSTOP);
	kid_wait_go(rd);
	return 0;
}

/* The tracer: 0 if the write gave what @t wants, or the failed step. */
static int tracer_writes(const struct traced *t)
{
	struct vperfctr_control c, got, old;
	int st, fd, step = 0;
	ssize_t n;
	struct kid k;

	if (kid_spawn(&k, traced_kid, (void *)t))
		return kid_fail(50);
	if (waitpid(k.pid, &st, 0) != k.pid || !WIFSTOPPED(st))
		return kid_fail(51);
	fd = pfs_open(k.pid, "control", O_RDWR);
	if (fd < 0)
		return kid_fail(52);
	if (t->tracer_nobody && (setresgid(NOBODY, NOBODY, NOBODY) ||
				 setresuid(NOBODY, NOBODY, NOBODY)))
		return kid_fail(53);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	if (t->kernel)
		model->kernel(&c.cpu_control);
	n = put_control(fd, &c);
	if (t->want ? n >= 0 || errno != t->want : n != CTL_SIZE)
		step = kid_fail(54);
	tsc_control(&old);
	if (!step && pread(fd, &got, sizeof(got), 0) != CTL_SIZE)
		step = kid_fail(55);
	if (!step && memcmp(&got, t->want ? &old : &c, sizeof(got)))
		step = kid_fail(56);
	close(fd);
	kill(k.pid, SIGKILL);
	kid_reap(&k);
	return step;
}

static int tracer_kid(int rd, int wr, void *arg)
{
	(void)rd;
	(void)wr;
	return tracer_writes(arg);
}

static void run_traced(int tracer_nobody, int tracee_nobody, int kernel,
		       int want)
{
	struct traced t = { tracer_nobody, tracee_nobody, kernel, want };

	set_paranoid(2);
	kid_run(tracer_kid, &t);
}

/* Root gives root kernel-mode counts. */
START_TEST(tracer_root_tracee_root_kernel_accepted)
{
	run_traced(0, 0, 1, 0);
}

/* Nobody gives nobody user-mode counts. */
START_TEST(tracer_nobody_tracee_nobody_user_accepted)
{
	run_traced(1, 1, 0, 0);
}

/* Root gives nobody user-mode counts. */
START_TEST(tracer_root_tracee_nobody_user_accepted)
{
	run_traced(0, 1, 0, 0);
}

/* Nobody may not ask for kernel mode, in anyone. */
START_TEST(tracer_nobody_tracee_nobody_kernel_refused)
{
	run_traced(1, 1, 1, EACCES);
}

/* Root may not give nobody what nobody could not have asked for. */
START_TEST(tracer_root_tracee_nobody_kernel_refused)
{
	run_traced(0, 1, 1, EACCES);
}

void sec_paranoid_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "paranoid", NULL, defaults);

	tcase_add_test(tc, paranoid_default_is_2);
	tcase_add_loop_test(tc, paranoid_out_of_range_refused, 0,
			    ARRAY_SIZE(bad_levels));
	tcase_add_test(tc, paranoid_every_level_accepted);
	tcase_add_test(tc, paranoid3_tsc_allowed);
	if (model) {
		tcase_add_test(tc, paranoid3_counters_refused);
		tcase_add_test(tc, paranoid2_user_mode_allowed);
		tcase_add_test(tc, paranoid2_kernel_mode_refused);
		tcase_add_test(tc, paranoid1_kernel_mode_allowed);
		tcase_add_test(tc, privileged_bypasses_paranoid);
		tcase_add_test(tc, tracer_root_tracee_root_kernel_accepted);
		tcase_add_test(tc, tracer_nobody_tracee_nobody_user_accepted);
		tcase_add_test(tc, tracer_root_tracee_nobody_user_accepted);
		tcase_add_test(tc, tracer_nobody_tracee_nobody_kernel_refused);
		tcase_add_test(tc, tracer_root_tracee_nobody_kernel_refused);
	}
}
