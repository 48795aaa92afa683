// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite run inside the test VM against the real module: module
 * information, global-mode counting with the TSC, reservation, and the
 * errors bad requests get (with the old state left running).
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <perfctr/perfctr.h>

#include "check_util.h"

/* Global mode's control: one per CPU, here the TSC alone. */
static struct perfctr_cpu_control tsc_only(void)
{
	struct perfctr_cpu_control c;

	memset(&c, 0, sizeof(c));
	c.tsc_on = 1;
	return c;
}

static ssize_t write_control(int fd, const struct perfctr_cpu_control *c)
{
	return write(fd, c, sizeof(*c));
}

static void start_tsc(int fd)
{
	struct perfctr_cpu_control c = tsc_only();

	ck_assert_int_eq(write_control(fd, &c), sizeof(c));
}

static void stop(int fd)
{
	struct perfctr_cpu_control c;

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(write_control(fd, &c), sizeof(c));
}

static unsigned long long total_tsc(int fd)
{
	struct perfctr_sum_ctrs sums[MAX_CPUS];
	unsigned long long total = 0;
	int i, n = read_global(fd, sums);

	for (i = 0; i < n; i++)
		total += sums[i].tsc;
	return total;
}

/* Starts counting the TSC; its total over all CPUs @us later. */
static unsigned long long count_for(int fd, useconds_t us)
{
	start_tsc(fd);
	usleep(us);
	return total_tsc(fd);
}

/* --- ABI layout: identical for 32- and 64-bit user space --- */

/*
 * The control's words: tsc_on, nractrs, nrictrs, the per-counter arrays,
 * the arch's own words, _reserved[4]. x86: pmc_map, evntsel,
 * evntsel_high, p4.escr, ireset, and p4's two PEBS words, then ABI 1.1's
 * ireset_high after _reserved; ppc32: pmc_map, evntsel, ireset, and
 * ppc.mmcr0, ppc.mmcr2. CONTROL_WORDS_1_0: ABI 1.0's control, which the
 * kernel still takes (PERFCTR_CPU_CONTROL_SIZE_1_0).
 */
#ifdef __powerpc__
#define NR_PMCS			8
#define CONTROL_WORDS_1_0	(3 + 8 * 3 + 2 + 4)
#define CONTROL_WORDS		CONTROL_WORDS_1_0
#else
#define NR_PMCS			18
#define CONTROL_WORDS_1_0	(3 + 18 * 5 + 2 + 4)
#define CONTROL_WORDS		(CONTROL_WORDS_1_0 + 18)
#endif

START_TEST(abi_layout)
{
	ck_assert_uint_eq(PERFCTR_NR_PMCS, NR_PMCS);
	ck_assert_uint_eq(sizeof(struct perfctr_sum_ctrs), 8 * (1 + NR_PMCS));
	ck_assert_uint_eq(offsetof(struct perfctr_cpu_state_user, tsc_sum), 16);
	ck_assert_uint_eq(offsetof(struct perfctr_cpu_state_user, pmc), 24);
	ck_assert_uint_eq(sizeof(struct perfctr_cpu_state_user), 24 + NR_PMCS * 16);
	ck_assert_uint_eq(sizeof(struct perfctr_cpu_control), 4 * CONTROL_WORDS);
	ck_assert_uint_eq(PERFCTR_CPU_CONTROL_SIZE_1_0, 4 * CONTROL_WORDS_1_0);
	ck_assert_uint_eq(sizeof(struct vperfctr_control),
			  32 + 4 * CONTROL_WORDS);
	ck_assert_uint_eq(VPERFCTR_CONTROL_SIZE_1_0, 32 + 4 * CONTROL_WORDS_1_0);
#ifndef __powerpc__
	/* 1.1 appended ireset_high[]: 1.0's control is a prefix of it. */
	ck_assert_uint_eq(offsetof(struct perfctr_cpu_control, ireset_high),
			  PERFCTR_CPU_CONTROL_SIZE_1_0);
#endif
	/* <tid>/children: 168 bytes on x86, 88 on ppc32 (virtual.rst). */
	ck_assert_uint_eq(offsetof(struct vperfctr_children, sums), 16);
	ck_assert_uint_eq(sizeof(struct vperfctr_children), 16 + 8 * (1 + NR_PMCS));
}

/* --- module information --- */

START_TEST(info_readable)
{
	char *v;

	v = info_field("version");
	ck_assert_ptr_nonnull(v);
	v = info_field("cpu_type");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_gt(strlen(v), 0);
	v = info_field("features");
	ck_assert_ptr_nonnull(v);
	ck_assert_ptr_nonnull(strstr(v, "rdtsc"));
	v = info_field("cpu_khz");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_gt(atoi(v), 0);
	v = info_field("nrctrs");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_ge(atoi(v), 0);
	ck_assert_ptr_nonnull(info_field("tsc_to_cpu_mult"));
	ck_assert_ptr_nonnull(info_field("cpus_forbidden"));
	/* CPUID Fn8000_001B EAX in hex, 0x0 without IBS. */
	v = info_field("ibs_caps");
	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(strncmp(v, "0x", 2), 0);
	ck_assert_ptr_null(info_field("no_such_key"));
}

/*
 * The CPU id as perf's pmu-events mapfiles match it: on x86 the vendor,
 * the family in decimal, model and stepping in upper-case hex; on ppc32
 * the PVR as 0x and eight hex digits.
 */
START_TEST(info_cpuid_as_perf)
{
	char *v = info_field("cpuid");
#ifndef __powerpc__
	char vendor[16], rest[32];
	unsigned int family;
	int n;
#endif

	ck_assert_ptr_nonnull(v);
#ifdef __powerpc__
	ck_assert_int_eq(strlen(v), 10);
	ck_assert_int_eq(strspn(v + 2, "0123456789abcdef"), 8);
	ck_assert_int_eq(strncmp(v, "0x", 2), 0);
#else
	n = sscanf(v, "%15[A-Za-z]-%u-%31s", vendor, &family, rest);
	ck_assert_int_eq(n, 3);
	ck_assert_int_eq(strlen(vendor), 12);
	ck_assert_int_gt(family, 3);
	/* model-stepping: upper-case hex, one dash between */
	ck_assert_int_eq(strspn(rest, "0123456789ABCDEF-"), strlen(rest));
	ck_assert_ptr_nonnull(strchr(rest, '-'));
	ck_assert_ptr_null(strchr(strchr(rest, '-') + 1, '-'));
#endif
}

START_TEST(info_abi_version)
{
	char *v = info_field("abi_version");

	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(strtol(v, NULL, 16), PERFCTR_ABI_VERSION);
}

START_TEST(info_not_writable)
{
	int fd = open(INFO_PATH, O_WRONLY);

	/* Mode 0444: only DAC-overriding root may open it, and gets EIO. */
	if (fd >= 0) {
		ck_assert_int_eq(write(fd, "x", 1), -1);
		close(fd);
	}
}

/* --- global mode with the TSC --- */

START_TEST(global_tsc_counts)
{
	int fd = open_global();
	unsigned long long a, b;

	a = count_for(fd, 50000);
	usleep(50000);
	b = total_tsc(fd);
	ck_assert_uint_gt(a, 0);
	ck_assert_uint_gt(b, a);
	stop(fd);
	close(fd);
}

START_TEST(global_stop_freezes)
{
	int fd = open_global();
	unsigned long long a, b;

	start_tsc(fd);
	usleep(20000);
	stop(fd);
	a = total_tsc(fd);
	usleep(20000);
	b = total_tsc(fd);
	ck_assert_uint_gt(a, 0);
	ck_assert_uint_eq(a, b);
	close(fd);
}

START_TEST(global_restart_zeroes)
{
	int fd = open_global();
	unsigned long long a, b;

	a = count_for(fd, 100000);
	start_tsc(fd);
	b = total_tsc(fd);
	ck_assert_uint_lt(b, a);
	stop(fd);
	close(fd);
}

/* A small read buffer still gets whole, consistent records. */
START_TEST(global_read_in_pieces)
{
	struct perfctr_sum_ctrs whole[MAX_CPUS], pieces[MAX_CPUS];
	int fd = open_global();
	char *p = (char *)pieces;
	ssize_t n, total = 0;
	int ncpus;

	start_tsc(fd);
	stop(fd);
	ncpus = read_global(fd, whole);
	ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
	while ((n = read(fd, p + total, 7)) > 0)
		total += n;
	ck_assert_int_eq(n, 0);
	ck_assert_int_eq(total, ncpus * sizeof(whole[0]));
	ck_assert_mem_eq(whole, pieces, total);
	close(fd);
}

START_TEST(global_reservation_shown)
{
	int fd = open_global();

	start_tsc(fd);
	ck_assert_str_eq(info_field("reserved_by"), "global-mode perfctr (uid 0)");
	stop(fd);
	ck_assert_str_eq(info_field("reserved_by"), "none");
	close(fd);
}

/* --- bad requests: clear errno, running state untouched --- */

struct bad_write {
	const char *name;
	size_t len;
	void (*mutate)(struct perfctr_cpu_control *c);
	int err;
};

static void m_actr(struct perfctr_cpu_control *c)
{
	c->nractrs = 1;
}

static void m_ictr(struct perfctr_cpu_control *c)
{
	c->nrictrs = 1;
	c->ireset[0] = -1;
}

static void m_tsc2(struct perfctr_cpu_control *c)
{
	c->tsc_on = 2;
}

static void m_resv(struct perfctr_cpu_control *c)
{
	c->_reserved[2] = 1;
}

/* Not all-zero, so not "stop", but counts nothing: rejected. */
static void m_notsc(struct perfctr_cpu_control *c)
{
	c->tsc_on--;
	c->evntsel[0] = 1;
}

static const struct bad_write bad_writes[] = {
	{ "short", sizeof(struct perfctr_cpu_control) - 1, NULL, EINVAL },
	{ "oversized", sizeof(struct perfctr_cpu_control) + 1, NULL, EINVAL },
	{ "empty", 0, NULL, EINVAL },
	{ "a-mode-counter", sizeof(struct perfctr_cpu_control), m_actr, EINVAL },
	{ "i-mode-counter", sizeof(struct perfctr_cpu_control), m_ictr, EINVAL },
	{ "tsc_on-2", sizeof(struct perfctr_cpu_control), m_tsc2, EINVAL },
	{ "reserved", sizeof(struct perfctr_cpu_control), m_resv, EINVAL },
	{ "no-tsc-junk", sizeof(struct perfctr_cpu_control), m_notsc, EINVAL },
};

START_TEST(global_bad_write)
{
	const struct bad_write *b = &bad_writes[_i];
	struct {
		struct perfctr_cpu_control c;
		char extra[8];
	} buf;
	unsigned long long a, after;
	int fd = open_global();

	a = count_for(fd, 20000);
	memset(&buf, 0, sizeof(buf));
	buf.c = tsc_only();
	if (b->mutate)
		b->mutate(&buf.c);
	errno = 0;
	ck_assert_int_eq(write(fd, &buf, b->len), -1);
	ck_assert_msg(errno == b->err, "%s: errno %d", b->name, errno);
	/* Still running, sums not reset, still reserved. */
	usleep(20000);
	after = total_tsc(fd);
	ck_assert_uint_gt(after, a);
	ck_assert_str_eq(info_field("reserved_by"), "global-mode perfctr (uid 0)");
	stop(fd);
	close(fd);
}

START_TEST(global_bad_buffer)
{
	int fd = open_global();
	void *bad = mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	ck_assert_ptr_ne(bad, MAP_FAILED);
	errno = 0;
	ck_assert_int_eq(write(fd, bad, sizeof(struct perfctr_cpu_control)), -1);
	ck_assert_int_eq(errno, EFAULT);
	ck_assert_str_eq(info_field("reserved_by"), "none");
	munmap(bad, 4096);
	close(fd);
}

START_TEST(global_needs_perfmon)
{
	pid_t pid = fork();
	int status;

	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		int fd;

		if (setuid(65534))
			_exit(10);
		/* Unprivileged: the info is public, global mode is not. */
		if (!info_field("cpu_type"))
			_exit(11);
		fd = open(GLOBAL_PATH, O_RDONLY);
		_exit(fd < 0 && (errno == EPERM || errno == EACCES) ? 0 : 12);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert(WIFEXITED(status));
	ck_assert_int_eq(WEXITSTATUS(status), 0);
}

static Suite *perfctr_suite(void)
{
	Suite *s = suite_create("perfctr");
	TCase *tc;

	tc = tcase_create("abi");
	tcase_add_test(tc, abi_layout);
	suite_add_tcase(s, tc);

	tc = tcase_create("info");
	tcase_add_test(tc, info_readable);
	tcase_add_test(tc, info_cpuid_as_perf);
	tcase_add_test(tc, info_abi_version);
	tcase_add_test(tc, info_not_writable);
	suite_add_tcase(s, tc);

	tc = tcase_create("global");
	tcase_add_test(tc, global_tsc_counts);
	tcase_add_test(tc, global_stop_freezes);
	tcase_add_test(tc, global_restart_zeroes);
	tcase_add_test(tc, global_read_in_pieces);
	tcase_add_test(tc, global_reservation_shown);
	tcase_add_loop_test(tc, global_bad_write, 0, ARRAY_SIZE(bad_writes));
	tcase_add_test(tc, global_bad_buffer);
	tcase_add_test(tc, global_needs_perfmon);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	return check_run(perfctr_suite());
}
