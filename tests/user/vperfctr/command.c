// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "command" case: suspend, resume, clear, iresume
 * and unlink, bad commands, and overflow signals on a simulated PMU.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "vperfctr.h"

/* --- commands --- */

struct bad_command {
	const char *name;
	size_t len;
	int off;
	__u32 cmd;
};

static const struct bad_command bad_commands[] = {
	{ "empty", 0, 0, VPERFCTR_CMD_SUSPEND },
	{ "short", 2, 0, VPERFCTR_CMD_SUSPEND },
	{ "long", 8, 0, VPERFCTR_CMD_SUSPEND },
	{ "offset", 4, 4, VPERFCTR_CMD_SUSPEND },
	{ "unknown-0", 4, 0, 0 },
	{ "unknown-6", 4, 0, VPERFCTR_CMD_UNLINK + 1 },
	{ "unknown-max", 4, 0, ~0U },
};

/* Refused while running: still running, same control, sums go on. */
START_TEST(command_bad_write)
{
	const struct bad_command *b = &bad_commands[_i];
	const struct vperfctr_state *st = map_state();
	struct perfctr_sum_ctrs s0, s1;
	struct vperfctr_control c, got;
	__u32 buf[2] = { b->cmd, 0 };
	struct files f;

	files_open(&f, gettid());
	full_control(&c);
	set_control(f.ctl, &c);
	spin(ms_ticks(2));
	get_sums(f.sums, &s0);
	errno = 0;
	ck_assert_int_eq(pwrite(f.cmd, buf, b->len, b->off), -1);
	ck_assert_msg(errno == EINVAL, "%s: errno %d", b->name, errno);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
	spin(ms_ticks(1));
	get_sums(f.sums, &s1);
	ck_assert_uint_gt(s1.tsc, s0.tsc);
	/* One __u32 at offset 0 is a command. */
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	ck_assert_uint_eq(cstatus_of(st), 0);
}

static const __u32 all_commands[] = {
	VPERFCTR_CMD_SUSPEND, VPERFCTR_CMD_RESUME, VPERFCTR_CMD_CLEAR,
	VPERFCTR_CMD_IRESUME, VPERFCTR_CMD_UNLINK,
};

/* No counters (never mapped, never controlled): ENODATA, none created. */
START_TEST(command_without_counters)
{
	__u32 cmd = all_commands[_i];
	struct vperfctr_control c, got;
	struct files f;

	files_open(&f, gettid());
	errno = 0;
	ck_assert_int_eq(put_command(f.cmd, cmd), -1);
	ck_assert_int_eq(errno, ENODATA);
	get_control(f.ctl, &got);
	ck_assert(is_zero(&got, sizeof(got)));
	tsc_control(&c);
	set_control(f.ctl, &c);
	errno = 0;
	if (cmd == VPERFCTR_CMD_IRESUME) {
		/* Reaches the counters now: refused for another reason. */
		ck_assert_int_eq(put_command(f.cmd, cmd), -1);
		ck_assert_int_eq(errno, EINVAL);
	} else {
		do_command(f.cmd, cmd);
	}
}

START_TEST(command_suspend_resume)
{
	struct perfctr_sum_ctrs a, b;
	struct full_set f;
	unsigned int i;

	full_set_open(&f);
	ck_assert_uint_eq(cstatus_of(f.st), full_cstatus());
	spin(ms_ticks(2));
	ck_assert_int_eq(vperfctr_suspend(f.vp), 0);
	ck_assert_uint_eq(cstatus_of(f.st), 0);
	ck_assert_int_eq(vperfctr_read_sums(f.vp, &a), 0);
	spin(ms_ticks(5));
	ck_assert_int_eq(vperfctr_read_sums(f.vp, &b), 0);
	ck_assert_mem_eq(&a, &b, SUMS_SIZE);
	/* Again: nothing more happens. */
	ck_assert_int_eq(vperfctr_suspend(f.vp), 0);
	ck_assert_uint_eq(cstatus_of(f.st), 0);
	ck_assert_int_eq(vperfctr_read_sums(f.vp, &b), 0);
	ck_assert_mem_eq(&a, &b, SUMS_SIZE);
	ck_assert_int_eq(vperfctr_resume(f.vp), 0);
	ck_assert_uint_eq(cstatus_of(f.st), full_cstatus());
	spin(ms_ticks(2));
	ck_assert_int_eq(vperfctr_read_sums(f.vp, &b), 0);
	ck_assert_uint_gt(b.tsc, a.tsc);
	for (i = 0; i < f.n; i++)
		ck_assert_uint_gt(b.pmc[i], a.pmc[i]);
}

START_TEST(command_clear)
{
	struct vperfctr_control c, got;
	struct perfctr_sum_ctrs s;
	unsigned long long t0;
	struct vperfctr *vp;
	unsigned int n;

	vp = lib_open_full(&c, &n);
	count_at_least(vp, -1, ms_ticks(50));
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_int_eq(vperfctr_clear(vp), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
	ck_assert(is_zero(&s, sizeof(s)));
	ck_assert_int_eq(vperfctr_read_control(vp, &got), 0);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
	/* Resumed, it counts from zero. */
	t0 = rdtsc();
	ck_assert_int_eq(vperfctr_resume(vp), 0);
	spin(ms_ticks(1));
	ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
	ck_assert_uint_gt(s.tsc, 0);
	ck_assert(since(s.tsc, t0));
	/* Cleared while running, it goes on from zero. */
	count_at_least(vp, -1, ms_ticks(50));
	t0 = rdtsc();
	ck_assert_int_eq(vperfctr_clear(vp), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
	ck_assert_msg(since(s.tsc, t0), "tsc %llu after clear", s.tsc);
	ck_assert_uint_eq(cstatus_of(state_of(vp)), full_cstatus());
}

/* Without an overflow, running or suspended: EINVAL, nothing changed. */
START_TEST(command_iresume_needs_overflow)
{
	const struct vperfctr_state *st = map_state();
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c, got;
	struct files f;

	files_open(&f, gettid());
	full_control(&c);
	set_control(f.ctl, &c);
	errno = 0;
	ck_assert_int_eq(put_command(f.cmd, VPERFCTR_CMD_IRESUME), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);

	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	get_sums(f.sums, &a);
	errno = 0;
	ck_assert_int_eq(put_command(f.cmd, VPERFCTR_CMD_IRESUME), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(cstatus_of(st), 0);
	get_sums(f.sums, &b);
	ck_assert_mem_eq(&a, &b, SUMS_SIZE);
}

START_TEST(command_unlink)
{
	struct perfctr_sum_ctrs s;
	unsigned long long t0;
	struct vperfctr_control c, got;
	struct files f;

	files_open(&f, gettid());
	full_control(&c);
	c.si_signo = SIGUSR2;
	set_control(f.ctl, &c);
	count_at_least(NULL, f.sums, ms_ticks(50));
	do_command(f.cmd, VPERFCTR_CMD_UNLINK);
	get_control(f.ctl, &got);
	ck_assert(is_zero(&got, sizeof(got)));
	get_sums(f.sums, &s);
	ck_assert(is_zero(&s, sizeof(s)));
	errno = 0;
	ck_assert_int_eq(put_command(f.cmd, VPERFCTR_CMD_SUSPEND), -1);
	ck_assert_int_eq(errno, ENODATA);
	/* New counters, from zero. */
	t0 = rdtsc();
	set_control(f.ctl, &c);
	get_sums(f.sums, &s);
	ck_assert_msg(since(s.tsc, t0), "tsc %llu after unlink", s.tsc);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
}

/* --- overflow interrupts (simulated PMU) --- */

/* What the overflow handler saw; written there, read with __atomic. */
static struct {
	int count, signo, code;
	unsigned int mask, cstatus;
} ovf;
static const struct vperfctr_state *ovf_state;

#define OVF(field)	__atomic_load_n(&ovf.field, __ATOMIC_ACQUIRE)

static void ovf_handler(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	__atomic_store_n(&ovf.signo, sig, __ATOMIC_RELAXED);
	__atomic_store_n(&ovf.code, si->si_code, __ATOMIC_RELAXED);
	__atomic_store_n(&ovf.mask, si->si_pmc_ovf_mask, __ATOMIC_RELAXED);
	__atomic_store_n(&ovf.cstatus, cstatus_of(ovf_state), __ATOMIC_RELAXED);
	__atomic_fetch_add(&ovf.count, 1, __ATOMIC_RELEASE);
}

/* Runs (so the counters count) until @n signals came or 2 s passed. */
static void wait_signals(int n)
{
	unsigned long long t0 = rdtsc();

	while (OVF(count) < n && rdtsc() - t0 < ms_ticks(2000))
		;
}

START_TEST(sim_overflow_signal_and_iresume)
{
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c;
	struct sigaction sa;
	__u32 cstatus;

	ck_assert_ptr_nonnull(vp);
	ovf_state = state_of(vp);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = ovf_handler;
	sa.sa_flags = SA_SIGINFO;
	ck_assert_int_eq(sigaction(SIGUSR1, &sa, NULL), 0);
	tsc_control(&c);
	model->imode(&c.cpu_control, IRESET_NEAR);
	c.si_signo = SIGUSR1;
	lib_control(vp, &c);

	wait_signals(1);
	ck_assert_int_eq(OVF(count), 1);
	ck_assert_int_eq(OVF(signo), SIGUSR1);
	ck_assert_int_eq(OVF(code), SI_PMC_OVF);
	ck_assert_uint_eq(OVF(mask), 1U << 1);	/* counter 1, the i-mode one */
	ck_assert_uint_eq(OVF(cstatus), 0);
	/* Stopped until IRESUME: every sum frozen, no further signal. */
	ck_assert_uint_eq(cstatus_of(ovf_state), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &a), 0);
	spin(ms_ticks(20));
	ck_assert_int_eq(vperfctr_read_sums(vp, &b), 0);
	ck_assert_mem_eq(&a, &b, SUMS_SIZE);
	ck_assert_int_eq(OVF(count), 1);
	ck_assert_uint_ge(a.pmc[1], IRESET_SPAN);

	ck_assert_int_eq(vperfctr_iresume(vp), 0);
	/* Counting again, unless a stall let it overflow again already. */
	cstatus = cstatus_of(ovf_state);
	ck_assert_msg(cstatus == perfctr_mk_cstatus(1, 1, 1) || OVF(count) == 2,
		      "cstatus %#x after iresume", cstatus);
	wait_signals(2);
	ck_assert_int_eq(OVF(count), 2);
	ck_assert_int_eq(OVF(code), SI_PMC_OVF);
	ck_assert_uint_eq(OVF(mask), 1U << 1);
	ck_assert_uint_eq(cstatus_of(ovf_state), 0);
	ck_assert_int_eq(vperfctr_read_sums(vp, &b), 0);
	ck_assert_uint_gt(b.tsc, a.tsc);
	ck_assert_uint_ge(b.pmc[1], 2ULL * IRESET_SPAN);
}

/* An i-mode control that has not overflowed cannot be iresumed. */
START_TEST(sim_iresume_before_overflow_refused)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;

	ck_assert_ptr_nonnull(vp);
	signal(SIGUSR1, SIG_IGN);
	tsc_control(&c);
	model->imode(&c.cpu_control, IRESET_FAR);
	c.si_signo = SIGUSR1;
	lib_control(vp, &c);
	errno = 0;
	ck_assert_int_eq(vperfctr_iresume(vp), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_uint_eq(cstatus_of(state_of(vp)), perfctr_mk_cstatus(1, 1, 1));
}

void vp_command_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "command", NULL, NULL);

	tcase_add_loop_test(tc, command_bad_write, 0, ARRAY_SIZE(bad_commands));
	tcase_add_loop_test(tc, command_without_counters, 0, ARRAY_SIZE(all_commands));
	tcase_add_test(tc, command_suspend_resume);
	tcase_add_test(tc, command_clear);
	tcase_add_test(tc, command_iresume_needs_overflow);
	tcase_add_test(tc, command_unlink);
	if (model) {
		tcase_add_test(tc, sim_overflow_signal_and_iresume);
		tcase_add_test(tc, sim_iresume_before_overflow_refused);
	}
}
