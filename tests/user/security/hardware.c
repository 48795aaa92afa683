// SPDX-License-Identifier: GPL-2.0-only
/*
 * The security suite's "hardware" and "kernel" cases: who holds the
 * counters, CAP_PERFMON taking them back and opening global mode, and
 * the status file.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "security.h"

#define RECLAIM_PATH	PERFCTR_ROOT "/reclaim"

/* What libperfctr advises on EBUSY now, its lines joined by spaces. */
static const char *busy_advice(void)
{
	static char flat[1024];
	const char *why = perfctr_explain(EBUSY);
	size_t i;

	ck_assert_ptr_nonnull(why);
	snprintf(flat, sizeof(flat), "%s", why);
	for (i = 0; flat[i]; i++)
		if (flat[i] == '\n')
			flat[i] = ' ';
	return flat;
}

static void has(const char *s, const char *word)
{
	ck_assert_msg(strstr(s, word), "no '%s' in: %s", word, s);
}

static void hasnt(const char *s, const char *word)
{
	ck_assert_msg(!strstr(s, word), "'%s' in: %s", word, s);
}

/* --- who holds the hardware, and taking it back --- */

/* As nobody: counters that run until released; reports its status. */
static int holding_kid(int rd, int wr, void *arg)
{
	struct vperfctr_control c;
	struct vperfctr *vp;
	char status[80] = "";
	int err;

	(void)arg;
	if (become_nobody())
		return kid_fail(60);
	vp = vperfctr_open();
	tsc_control(&c);
	model->amode(&c.cpu_control);
	if (!vp || vperfctr_control(vp, &c))
		return kid_fail(61);
	if (write(wr, "r", 1) != 1)
		return kid_fail(62);
	/* Released once the parent took the counters back. */
	kid_wait_go(rd);
	if (vperfctr_read_status(vp, status, sizeof(status)))
		return kid_fail(63);
	if (strcmp(status, "stopped: evicted"))
		return kid_fail(64);
	if (vperfctr_state(vp)->cpu_state.cstatus)
		return kid_fail(65);
	err = vperfctr_resume(vp) ? errno : 0;
	if (err != EBUSY)
		return kid_fail(66);
	/* A new control takes the hardware again. */
	if (vperfctr_control(vp, &c) ||
	    vperfctr_read_status(vp, status, sizeof(status)) ||
	    strcmp(status, "running"))
		return kid_fail(67);
	return 0;
}

/*
 * info's reserved_by once it says @want: sets of threads that just
 * exited are freed a moment later (an RCU grace period).
 */
static char *holder_settles(const char *want)
{
	char *v = NULL;
	int i;

	for (i = 0; i < 100; i++) {
		v = info_field("reserved_by");
		if (v && !strcmp(v, want))
			break;
		usleep(10000);
	}
	return v;
}

static void take_back(void)
{
	int fd = open(RECLAIM_PATH, O_WRONLY);

	ck_assert_msg(fd >= 0, "open %s: %s", RECLAIM_PATH, strerror(errno));
	ck_assert_int_eq(write(fd, "1\n", 2), 2);
	close(fd);
}

/* Global mode wants counters the sets hold: EBUSY. */
static void global_refused(void)
{
	struct perfctr_cpu_control c;
	int fd = open_global();

	memset(&c, 0, sizeof(c));
	c.tsc_on = 1;
	model->amode(&c);
	ck_assert_int_eq(write(fd, &c, sizeof(c)), -1);
	ck_assert_int_eq(errno, EBUSY);
	close(fd);
}

START_TEST(info_names_holder_and_reclaim_takes_back)
{
	char *v;
	char b;
	struct kid k;

	kid_start(&k, holding_kid, NULL);
	kid_read(&k, &b, 1);
	v = holder_settles("virtual counters (1 set; uid 65534)");
	ck_assert_msg(v && !strcmp(v, "virtual counters (1 set; uid 65534)"),
		      "reserved_by: %s", v);
	global_refused();
	has(busy_advice(), "echo 1 > " RECLAIM_PATH);
	take_back();
	v = info_field("reserved_by");
	ck_assert_msg(v && !strcmp(v, "none"), "after reclaim: %s", v);
	kid_done(&k);
}

static void reclaim_word(const char *word)
{
	int fd = open(RECLAIM_PATH, O_WRONLY);

	ck_assert_msg(fd >= 0, "open %s: %s", RECLAIM_PATH, strerror(errno));
	ck_assert_int_eq(write(fd, word, strlen(word)), (ssize_t)strlen(word));
	close(fd);
}

/* As nobody: counters are refused (EBUSY) while held, TSC-only is not. */
static int held_kid(int rd, int wr, void *arg)
{
	int held = *(int *)arg;
	struct vperfctr_control c;
	struct vperfctr *vp;
	int err;

	(void)rd;
	(void)wr;
	if (become_nobody())
		return kid_fail(80);
	vp = vperfctr_open();
	tsc_control(&c);
	if (!vp || vperfctr_control(vp, &c))
		return kid_fail(81);
	model->amode(&c.cpu_control);
	err = vperfctr_control(vp, &c) ? errno : 0;
	if (err != (held ? EBUSY : 0))
		return kid_fail(82);
	return 0;
}

/* "hold" takes the counters back and keeps every set off; "release" ends it. */
START_TEST(reclaim_hold_keeps_sets_off)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;
	char *v;

	ck_assert_ptr_nonnull(vp);
	reclaim_word("hold\n");
	v = info_field("reclaim_hold");
	ck_assert_msg(v && !strcmp(v, "1"), "reclaim_hold: %s", v);
	kid_run_int(held_kid, 1);
	/* Root too: the administrator wants the PMU for something else. */
	tsc_control(&c);
	model->amode(&c.cpu_control);
	ck_assert_int_eq(vperfctr_control(vp, &c), -1);
	ck_assert_int_eq(errno, EBUSY);
	has(busy_advice(), "write release to " RECLAIM_PATH);
	hasnt(busy_advice(), "echo 1 >");
	reclaim_word("release\n");
	v = info_field("reclaim_hold");
	ck_assert_msg(v && !strcmp(v, "0"), "reclaim_hold: %s", v);
	kid_run_int(held_kid, 0);
	ck_assert_int_eq(vperfctr_control(vp, &c), 0);
	vperfctr_unlink(vp);
	vperfctr_close(vp);
}

/* Whatever a test did, the sets may take the hardware again. */
static void reclaim_release(void)
{
	int fd = open(RECLAIM_PATH, O_WRONLY);

	if (fd >= 0) {
		if (write(fd, "release", 7) != 7)
			perror("reclaim release");
		close(fd);
	}
}

static int reclaim_kid(int rd, int wr, void *arg)
{
	int fd;

	(void)rd;
	(void)wr;
	(void)arg;
	if (become_nobody())
		return kid_fail(70);
	fd = open(RECLAIM_PATH, O_WRONLY);
	return fd < 0 && errno == EACCES ? 0 : kid_fail(71);
}

START_TEST(reclaim_needs_perfmon)
{
	kid_run(reclaim_kid, NULL);
}

#ifdef __powerpc__
#define KERNEL_HOLDER	"perf_events"
#else
#define KERNEL_HOLDER	"perf_events (the NMI watchdog or a perf user)"
#endif

/* The simulated PMU's kernel allocator says no, as perf_events would. */
START_TEST(info_names_kernel_holder)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;
	char *v;

	ck_assert_ptr_nonnull(vp);
	ck_assert_int_eq(param_put("kernel_busy", "1"), 0);
	usleep(1100000);	/* info asks the kernel once a second */
	v = info_field("reserved_by");
	ck_assert_msg(v && !strcmp(v, KERNEL_HOLDER), "reserved_by: %s", v);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	ck_assert_int_eq(vperfctr_control(vp, &c), -1);
	ck_assert_int_eq(errno, EBUSY);
	ck_assert_int_eq(param_put("kernel_busy", "0"), 0);
	usleep(1100000);
	v = info_field("reserved_by");
	ck_assert_msg(v && !strcmp(v, "none"), "reserved_by: %s", v);
	vperfctr_close(vp);
}

/*
 * As nobody, who may not ask the kernel: info names the kernel only once
 * a refusal has said it holds the counters.
 */
static int refused_kid(int rd, int wr, void *arg)
{
	struct vperfctr_control c;
	struct vperfctr *vp;
	char *v;

	(void)rd;
	(void)wr;
	(void)arg;
	if (become_nobody())
		return kid_fail(90);
	vp = vperfctr_open();
	tsc_control(&c);
	model->amode(&c.cpu_control);
	v = info_field("reserved_by");
	if (!vp || !v || strcmp(v, "none"))
		return kid_fail(91);
	if (vperfctr_control(vp, &c) != -1 || errno != EBUSY)
		return kid_fail(92);
	v = info_field("reserved_by");
	if (!v || strcmp(v, KERNEL_HOLDER))
		return kid_fail(93);
#ifndef __powerpc__
	if (!strstr(busy_advice(), "sysctl kernel.nmi_watchdog=0"))
		return kid_fail(94);
#endif
	return 0;
}

START_TEST(kernel_refusal_named_to_all)
{
	char *v;

	usleep(1100000);	/* root's read below asks the kernel */
	v = info_field("reserved_by");
	ck_assert_msg(v && !strcmp(v, "none"), "reserved_by: %s", v);
	ck_assert_int_eq(param_put("kernel_busy", "1"), 0);
	fake_nmi_watchdog("1\n", 0644);
	kid_run(refused_kid, NULL);
}

/* The kernel refuses a control; the sysctl reads @nmi (NULL: absent). */
static const char *kernel_refusal(const char *nmi)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;

	ck_assert_ptr_nonnull(vp);
	ck_assert_int_eq(param_put("kernel_busy", "1"), 0);
	fake_nmi_watchdog(nmi, 0644);
	tsc_control(&c);
	model->amode(&c.cpu_control);
	ck_assert_int_eq(vperfctr_control(vp, &c), -1);
	ck_assert_int_eq(errno, EBUSY);
	ck_assert_int_eq(param_put("kernel_busy", "0"), 0);
	vperfctr_close(vp);
	return busy_advice();
}

#ifndef __powerpc__	/* the sysctl's advice: x86's watchdog */
/* The watchdog on: it is named, with the remedy now and at every boot. */
START_TEST(kernel_advice_watchdog_on)
{
	const char *why = kernel_refusal("1\n");

	has(why, "kernel.nmi_watchdog is 1");
	has(why, "NMI watchdog");
	has(why, "'sysctl kernel.nmi_watchdog=0'");
	has(why, "'kernel.nmi_watchdog = 0' in a file in /etc/sysctl.d/");
	has(why, "boot with nmi_watchdog=0");
	has(why, "perf stat");
	hasnt(why, "reclaim");
}
#endif

/* Off, or no watchdog in this kernel: a perf user, and no sysctl to turn. */
START_TEST(kernel_advice_watchdog_off)
{
	const char *why = kernel_refusal("0\n");

	has(why, "perf_events holds the counters for a perf user");
	has(why, "not the NMI watchdog");
	has(why, "perf stat");
	hasnt(why, "sysctl");
	hasnt(why, "reclaim");
}

START_TEST(kernel_advice_no_watchdog)
{
	const char *why = kernel_refusal(NULL);

	has(why, "not the NMI watchdog");
	hasnt(why, "sysctl");
	hasnt(why, "reclaim");
}

#ifndef __powerpc__	/* the sysctl's advice: x86's watchdog */
/* Unreadable as a 0 or 1: both holders, each with its remedy. */
START_TEST(kernel_advice_watchdog_unknown)
{
	const char *why = kernel_refusal("");

	has(why, "cannot be read");
	has(why, "'sysctl kernel.nmi_watchdog=0'");
	has(why, "/etc/sysctl.d/");
	has(why, "perf user");
	hasnt(why, "reclaim");
}
#endif

static void kernel_free(void)
{
	param_put("kernel_busy", "0");
}

START_TEST(reserved_by_none_when_free)
{
	char *v = holder_settles("none");

	ck_assert_msg(v && !strcmp(v, "none"), "reserved_by: %s", v);
}

/* --- global mode: CAP_PERFMON, whatever the file's owner --- */

#define CAP_PERFMON_BIT	38	/* linux/capability.h */

/* Keeps CAP_PERFMON alone (or nothing) across setuid(nobody). */
static int nobody_with_perfmon(int keep)
{
	struct { __u32 version; int pid; } hdr = { 0x20080522, 0 };
	struct { __u32 eff, perm, inh; } data[2] = { { 0 } };

	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) || become_nobody())
		return -1;
	if (keep) {
		data[1].eff = 1U << (CAP_PERFMON_BIT - 32);
		data[1].perm = data[1].eff;
	}
	return syscall(SYS_capset, &hdr, data);
}

static int global_open_kid(int rd, int wr, void *arg)
{
	int keep = *(int *)arg;
	int fd;

	(void)rd;
	(void)wr;
	if (nobody_with_perfmon(keep))
		return kid_fail(120);
	fd = open(PERFCTR_ROOT "/global", O_RDWR);
	if (keep)
		return fd >= 0 ? 0 : kid_fail(121);
	return fd < 0 && errno == EACCES ? 0 : kid_fail(122);
}

START_TEST(global_open_with_perfmon_only)
{
	kid_run_int(global_open_kid, 1);
}

START_TEST(global_open_without_perfmon_refused)
{
	kid_run_int(global_open_kid, 0);
}

/* --- status --- */

START_TEST(status_follows_the_set)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_control c;
	char s[80];

	ck_assert_ptr_nonnull(vp);
	vperfctr_unlink(vp);
	ck_assert_int_eq(vperfctr_read_status(vp, s, sizeof(s)), 0);
	ck_assert_str_eq(s, "none");
	tsc_control(&c);
	lib_control(vp, &c);
	ck_assert_int_eq(vperfctr_read_status(vp, s, sizeof(s)), 0);
	ck_assert_str_eq(s, "running");
	ck_assert_int_eq(vperfctr_suspend(vp), 0);
	ck_assert_int_eq(vperfctr_read_status(vp, s, sizeof(s)), 0);
	ck_assert_str_eq(s, "stopped: suspended");
	vperfctr_close(vp);
}

void sec_hardware_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "hardware", NULL, NULL);

	tcase_add_test(tc, reserved_by_none_when_free);
	tcase_add_test(tc, reclaim_needs_perfmon);
	tcase_add_test(tc, status_follows_the_set);
	tcase_add_test(tc, global_open_with_perfmon_only);
	tcase_add_test(tc, global_open_without_perfmon_refused);
	if (model && !cpus_forbidden)
		tcase_add_test(tc, info_names_holder_and_reclaim_takes_back);

	if (model && !cpus_forbidden) {
		tc = add_tcase(s, "reclaim-hold", NULL, reclaim_release);
		tcase_add_test(tc, reclaim_hold_keeps_sets_off);
	}
	if (model) {
		tc = add_tcase(s, "kernel", NULL, kernel_free);
		tcase_add_test(tc, info_names_kernel_holder);
		tcase_add_test(tc, kernel_refusal_named_to_all);
#ifndef __powerpc__
		tcase_add_test(tc, kernel_advice_watchdog_on);
		tcase_add_test(tc, kernel_advice_watchdog_unknown);
#endif
		tcase_add_test(tc, kernel_advice_watchdog_off);
		tcase_add_test(tc, kernel_advice_no_watchdog);
	}
}
