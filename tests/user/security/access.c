// SPDX-License-Identifier: GPL-2.0-only
/*
 * The security suite's "access" case: who may read another process's
 * counters (perfctr.read_same_uid, a tracer).
 */
#define _GNU_SOURCE
#include <check.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "security.h"

/* --- reading another process's counters --- */

/* As nobody: a child of the same uid, read with or without tracing it. */
static int same_uid_reader(int rd, int wr, void *arg)
{
	int how = *(int *)arg;		/* 0: plain, 1: traced */
	struct report r;
	struct kid t;
	int st, ok, err;

	(void)rd;
	(void)wr;
	if (become_nobody())
		return kid_fail(80);
	err = kid_spawn_report(&t, counting_kid, NULL, &r, sizeof(r));
	if (err)
		return err;
	if (how && (ptrace(PTRACE_ATTACH, t.pid, 0, 0) ||
		    waitpid(t.pid, &st, 0) != t.pid))
		return kid_fail(81);
	if (how || param_get("read_same_uid"))
		ok = reads_report(t.pid, &r);
	else
		ok = read_refused(t.pid);
	if (how)
		ptrace(PTRACE_DETACH, t.pid, 0, 0);
	if (kid_reap(&t))
		return kid_fail(83);
	return ok ? 0 : kid_fail(82);
}

static void run_reader(int how, const char *same_uid)
{
	ck_assert_int_eq(param_put("read_same_uid", same_uid), 0);
	kid_run_int(same_uid_reader, how);
}

START_TEST(read_same_uid_refused_by_default)
{
	run_reader(0, "0");
}

START_TEST(read_same_uid_opted_in)
{
	run_reader(0, "1");
}

START_TEST(read_by_tracer_allowed)
{
	run_reader(1, "0");
}

void sec_access_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "access", NULL, defaults);

	tcase_add_test(tc, read_same_uid_refused_by_default);
	tcase_add_test(tc, read_same_uid_opted_in);
	tcase_add_test(tc, read_by_tracer_allowed);
}
