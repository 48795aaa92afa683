// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_ibs: every rule of a setup, accepted and refused, each refusal
 * with its errno and the setup as it was (Documentation/perfctr/amd.rst,
 * "Errors"); what the policy lets each user have.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ibs.h"

#define NOBODY	65534

/* A setup this CPU takes: op sampling if it has it, else fetch. */
static struct perfctr_ibs_control good(void)
{
	if (ibs_caps & PERFCTR_IBS_CAP_OPSAM)
		return ibs_ctl(PERFCTR_IBS_OP, 0, 0x10000);
	return ibs_ctl(PERFCTR_IBS_FETCH, 0x10000, 0);
}

/* Refused with @err, and the setup read back is still @before. */
static void refused(const struct perfctr_ibs_control *c, int err,
		    const struct perfctr_ibs_control *before)
{
	struct perfctr_ibs_control now;

	ck_assert_int_eq(ibs_put(c), err);
	now = ibs_get();
	ck_assert_msg(!memcmp(&now, before, sizeof(now)),
		      "the thread's setup changed after a refusal");
}

/* Without IBS every setup is EOPNOTSUPP and the thread gets nothing. */
START_TEST(test_no_ibs)
{
	struct perfctr_ibs_control off = ibs_ctl(0, 0, 0);

	if (ibs_caps)
		return;
	refused(&(struct perfctr_ibs_control){ .flags = PERFCTR_IBS_OP,
		.op_maxcnt = 0x10000 }, EOPNOTSUPP, &off);
	refused(&(struct perfctr_ibs_control){ .flags = PERFCTR_IBS_FETCH,
		.fetch_maxcnt = 0x10000 }, EOPNOTSUPP, &off);
	ck_assert_int_eq(ibs_ring_open(), -ENODATA);
	ck_assert_int_eq(ibs_put(&off), 0);	/* stopping nothing is fine */
}

/* The caps of the simulated models (testing.rst), 0 on QEMU's CPUs. */
START_TEST(test_caps)
{
	unsigned int base = PERFCTR_IBS_CAP_AVAIL | PERFCTR_IBS_CAP_FETCHSAM |
			    PERFCTR_IBS_CAP_OPSAM;

	if (model_name && (!strcmp(model_name, "zen") ||
			   !strcmp(model_name, "zen4") ||
			   !strcmp(model_name, "fam10h")))
		ck_assert_uint_eq(ibs_caps & base, base);
	else
		ck_assert_uint_eq(ibs_caps, 0);
}

struct rule {
	const char *what;
	struct perfctr_ibs_control c;
	int err;
};

#define OPC(flags_, op_)	{ .flags = PERFCTR_IBS_OP | (flags_), .op_maxcnt = (op_) }
#define FEC(flags_, f_)		{ .flags = PERFCTR_IBS_FETCH | (flags_), .fetch_maxcnt = (f_) }

/* Each rule of amd.rst's table; the op ones need op sampling. */
static const struct rule op_rules[] = {
	{ "op 0x10", OPC(0, 0x10), 0 },
	{ "op 0xFFFF0", OPC(0, 0xFFFF0), 0 },
	{ "op 0", OPC(0, 0), EINVAL },
	{ "op 0x8", OPC(0, 0x8), EINVAL },
	{ "op 0x11", OPC(0, 0x11), EINVAL },
	{ "op 0x1000F", OPC(0, 0x1000F), EINVAL },
	{ "op beyond 27 bits", OPC(0, 0x8000000), EINVAL },
	{ "op with a fetch maxcnt", { .flags = PERFCTR_IBS_OP,
	  .op_maxcnt = 0x100, .fetch_maxcnt = 0x100 }, EINVAL },
	{ "rand without fetch", OPC(PERFCTR_IBS_FETCH_RAND, 0x100), EINVAL },
	{ "unknown flag", OPC(0x40, 0x100), EINVAL },
	{ "unknown flag 31", OPC(0x80000000, 0x100), EINVAL },
	{ "reserved word", { .flags = PERFCTR_IBS_OP, .op_maxcnt = 0x100,
	  ._reserved = { 0, 0, 1 } }, EINVAL },
	{ "bad signal", { .flags = PERFCTR_IBS_OP, .op_maxcnt = 0x100,
	  .si_signo = 4096 }, EINVAL },
	{ "signal SIGUSR1", { .flags = PERFCTR_IBS_OP, .op_maxcnt = 0x100,
	  .si_signo = 10 }, 0 },
	{ "ring 1 page", { .flags = PERFCTR_IBS_OP, .op_maxcnt = 0x100,
	  .ring_pages = 1 }, 0 },
	{ "ring 256 pages", { .flags = PERFCTR_IBS_OP, .op_maxcnt = 0x100,
	  .ring_pages = 256 }, 0 },
	{ "ring 3 pages", { .flags = PERFCTR_IBS_OP, .op_maxcnt = 0x100,
	  .ring_pages = 3 }, EINVAL },
	{ "ring 512 pages", { .flags = PERFCTR_IBS_OP, .op_maxcnt = 0x100,
	  .ring_pages = 512 }, EINVAL },
	{ "off with a field", { .op_maxcnt = 0x100 }, EINVAL },
};

static const struct rule fetch_rules[] = {
	{ "fetch 0x10", FEC(0, 0x10), 0 },
	{ "fetch 0xFFFF0 random", FEC(PERFCTR_IBS_FETCH_RAND, 0xFFFF0), 0 },
	{ "fetch 0", FEC(0, 0), EINVAL },
	{ "fetch 0x18", FEC(0, 0x18), EINVAL },
	{ "fetch 0x100000", FEC(0, 0x100000), EINVAL },
	{ "fetch ext size", FEC(0, 0x7FFFFF0), EINVAL },
	{ "ops count without op", FEC(PERFCTR_IBS_OP_CNT_OPS, 0x100), EINVAL },
};

static void check_rules(const struct rule *r, size_t n)
{
	struct perfctr_ibs_control before = good();
	size_t i;

	ck_assert_int_eq(ibs_put(&before), 0);
	for (i = 0; i < n; i++) {
		int got = ibs_put(&r[i].c);

		ck_assert_msg(got == r[i].err, "%s: errno %d, expected %d",
			      r[i].what, got, r[i].err);
		if (!r[i].err) {
			struct perfctr_ibs_control now = ibs_get();

			ck_assert_uint_eq(now.flags, r[i].c.flags);
			ck_assert_uint_eq(now.op_maxcnt, r[i].c.op_maxcnt);
			ck_assert_uint_eq(now.fetch_maxcnt, r[i].c.fetch_maxcnt);
			ck_assert_int_eq(ibs_put(&before), 0);
		} else {
			refused(&r[i].c, r[i].err, &before);
		}
	}
	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
}

START_TEST(test_op_rules)
{
	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	check_rules(op_rules, ARRAY_SIZE(op_rules));
}

START_TEST(test_fetch_rules)
{
	if (!(ibs_caps & PERFCTR_IBS_CAP_FETCHSAM))
		return;
	check_rules(fetch_rules, ARRAY_SIZE(fetch_rules));
}

/* The extended MaxCnt and op counting only where CPUID says so. */
START_TEST(test_feature_rules)
{
	struct perfctr_ibs_control ext = ibs_ctl(PERFCTR_IBS_OP, 0, 0x7FFFFF0);
	struct perfctr_ibs_control ops = ibs_ctl(PERFCTR_IBS_OP |
						 PERFCTR_IBS_OP_CNT_OPS, 0, 0x100);
	struct perfctr_ibs_control off = ibs_ctl(0, 0, 0);

	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	ck_assert_int_eq(ibs_put(&ext),
			 ibs_caps & PERFCTR_IBS_CAP_OPCNTEXT ? 0 : EINVAL);
	ck_assert_int_eq(ibs_put(&off), 0);
	ck_assert_int_eq(ibs_put(&ops),
			 ibs_caps & PERFCTR_IBS_CAP_OPCNT ? 0 : EOPNOTSUPP);
	ck_assert_int_eq(ibs_put(&off), 0);
}

/* flags 0 stops sampling: the ring goes, an open one still reads. */
START_TEST(test_off)
{
	struct perfctr_ibs_control c = good(), off = ibs_ctl(0, 0, 0), now;
	int fd;

	if (!ibs_caps)
		return;
	ck_assert_int_eq(ibs_put(&c), 0);
	fd = ibs_ring_open();
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ibs_put(&off), 0);
	now = ibs_get();
	ck_assert(is_zero(&now, sizeof(now)));
	ck_assert_int_eq(ibs_ring_open(), -ENODATA);
	ck_assert_int_ge(read(fd, &(struct perfctr_ibs_sample){ 0 },
			      sizeof(struct perfctr_ibs_sample)), 0);
	close(fd);
}

/* The child becomes nobody, still dumpable: 0, or -1. */
static int become_nobody(void)
{
	return setgid(NOBODY) || setuid(NOBODY) ||
	       prctl(PR_SET_DUMPABLE, 1) ? -1 : 0;
}

static int nobody_ibs(int rd, int wr, void *arg)
{
	struct perfctr_ibs_control c = good();

	(void)rd;
	(void)wr;
	(void)arg;
	if (become_nobody())
		return kid_fail(1);
	if (ibs_put(&c))
		return kid_fail(2);	/* any user: user-mode samples */
	c.op_maxcnt = 0;
	c.fetch_maxcnt = 0;
	if (c.flags & PERFCTR_IBS_OP)	/* the floor on the NMI rate */
		c.op_maxcnt = PERFCTR_IBS_MIN_USER - 0x10;
	else
		c.fetch_maxcnt = PERFCTR_IBS_MIN_USER - 0x10;
	if (ibs_put(&c) != EACCES)
		return kid_fail(6);
	c = good();
	c.flags |= PERFCTR_IBS_KERNEL;
	if (ibs_put(&c) != EACCES)
		return kid_fail(3);
	c.flags ^= PERFCTR_IBS_KERNEL | PERFCTR_IBS_PHYS;
	if (ibs_put(&c) != EACCES)
		return kid_fail(4);
	c = ibs_get();
	return c.flags & (PERFCTR_IBS_KERNEL | PERFCTR_IBS_PHYS) ? kid_fail(5) : 0;
}

static int nobody_paranoid3(int rd, int wr, void *arg)
{
	struct perfctr_ibs_control c = good();

	(void)rd;
	(void)wr;
	(void)arg;
	if (become_nobody())
		return kid_fail(1);
	return ibs_put(&c) == EACCES ? 0 : kid_fail(2);
}

/* Kernel samples and physical addresses need privilege at paranoid 2. */
START_TEST(test_privilege)
{
	struct perfctr_ibs_control c = good();

	if (!ibs_caps)
		return;
	ck_assert_int_eq(param_get("paranoid"), 2);
	c.flags |= PERFCTR_IBS_KERNEL | PERFCTR_IBS_PHYS;
	ck_assert_int_eq(ibs_put(&c), 0);	/* root */
	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
	kid_run(nobody_ibs, NULL);
	ck_assert_int_eq(param_put("paranoid", "3"), 0);
	kid_run(nobody_paranoid3, NULL);
	ck_assert_int_eq(param_put("paranoid", "2"), 0);
}

/*
 * A tracer's setup is judged on the tracee's privilege too, which reads
 * the samples (security.rst): each of them root or nobody. The tracee
 * has a user-mode setup of its own first, which a refusal must leave.
 */
struct traced {
	int tracer_nobody;
	int tracee_nobody;
	int kernel;		/* PERFCTR_IBS_KERNEL | PERFCTR_IBS_PHYS */
	int want;		/* 0, or the errno */
};

static int traced_kid(int rd, int wr, void *arg)
{
	const struct traced *t = arg;
	struct perfctr_ibs_control c = good();

	(void)wr;
	if (t->tracee_nobody && become_nobody())
		return kid_fail(40);
	if (ibs_put(&c) || ptrace(PTRACE_TRACEME, 0, 0, 0))
		return kid_fail(41);
	raise(SIGSTOP);
	kid_wait_go(rd);
	return 0;
}

static int tracer_kid(int rd, int wr, void *arg)
{
	const struct traced *t = arg;
	struct perfctr_ibs_control c = good(), old = good(), got;
	int st, fd, step = 0;
	ssize_t n;
	struct kid k;

	(void)rd;
	(void)wr;
	if (kid_spawn(&k, traced_kid, arg))
		return kid_fail(50);
	if (waitpid(k.pid, &st, 0) != k.pid || !WIFSTOPPED(st))
		return kid_fail(51);
	fd = pfs_open(k.pid, "ibs", O_RDWR);
	if (fd < 0)
		return kid_fail(52);
	if (t->tracer_nobody && (setresgid(NOBODY, NOBODY, NOBODY) ||
				 setresuid(NOBODY, NOBODY, NOBODY)))
		return kid_fail(53);
	if (t->kernel)
		c.flags |= PERFCTR_IBS_KERNEL | PERFCTR_IBS_PHYS;
	n = pwrite(fd, &c, sizeof(c), 0);
	if (t->want ? n >= 0 || errno != t->want : n != (ssize_t)sizeof(c))
		step = kid_fail(54);
	if (!step && pread(fd, &got, sizeof(got), 0) != (ssize_t)sizeof(got))
		step = kid_fail(55);
	if (!step && memcmp(&got, t->want ? &old : &c, sizeof(got)))
		step = kid_fail(56);
	close(fd);
	kill(k.pid, SIGKILL);
	kid_reap(&k);
	return step;
}

static void run_traced(int tracer_nobody, int tracee_nobody, int kernel,
		       int want)
{
	struct traced t = { tracer_nobody, tracee_nobody, kernel, want };

	if (!ibs_caps)
		return;
	ck_assert_int_eq(param_get("paranoid"), 2);
	kid_run(tracer_kid, &t);
}

START_TEST(test_tracer_root_tracee_root_kernel)
{
	run_traced(0, 0, 1, 0);
}

START_TEST(test_tracer_nobody_tracee_nobody_user)
{
	run_traced(1, 1, 0, 0);
}

START_TEST(test_tracer_root_tracee_nobody_kernel)
{
	run_traced(0, 1, 1, EACCES);
}

void ibs_setup_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "setup", NULL, NULL);

	tcase_add_test(tc, test_caps);
	tcase_add_test(tc, test_no_ibs);
	tcase_add_test(tc, test_op_rules);
	tcase_add_test(tc, test_fetch_rules);
	tcase_add_test(tc, test_feature_rules);
	tcase_add_test(tc, test_off);
	tcase_add_test(tc, test_privilege);
	tcase_add_test(tc, test_tracer_root_tracee_root_kernel);
	tcase_add_test(tc, test_tracer_nobody_tracee_nobody_user);
	tcase_add_test(tc, test_tracer_root_tracee_nobody_kernel);
}
