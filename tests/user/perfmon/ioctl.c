// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_perfmon: every request, with the cases that must work and those
 * that must be refused, each refusal with its errno and the counter
 * exactly as it was (Documentation/perfctr/perfmon.rst, "Errors").
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfmon.h"

START_TEST(test_device)
{
	struct stat st;

	ck_assert_int_eq(stat(_PATH_PERFMON, &st), 0);
	ck_assert(S_ISCHR(st.st_mode));
	ck_assert_int_eq(st.st_mode & 0777, 0666);
}

/* The TSC: between two reads of ours on the same CPU; the rate: info's. */
START_TEST(test_tstamp)
{
	int fd = pm_open();
	struct pmc_tstamp ts = { 0, 0 };
	unsigned long long t0, t1;

	ck_assert_int_eq(pin(0), 0);
	t0 = rdtsc();
	ck_assert_int_eq(pm_ioctl(fd, PMIOTSTAMP, &ts), 0);
	t1 = rdtsc();
#ifdef __powerpc__
	/* The simulated PMUs' time base has its low 32 bits only. */
	ck_assert_uint_le((unsigned int)(ts.pmct_value - t0),
			  (unsigned int)(t1 - t0));
#else
	ck_assert_uint_ge((unsigned long long)ts.pmct_value, t0);
	ck_assert_uint_le((unsigned long long)ts.pmct_value, t1);
#endif
	ck_assert_int_eq(ts.pmct_rate, (int)(khz / 1000));
	ck_assert_int_gt(ts.pmct_rate, 0);
	close(fd);
}

/* No kernel bytes in the structure's padding (4 bytes on 64-bit). */
START_TEST(test_tstamp_padding)
{
	int fd = pm_open();
	union {
		struct pmc_tstamp ts;
		unsigned char b[sizeof(struct pmc_tstamp)];
	} u;
	size_t i, pad = offsetof(struct pmc_tstamp, pmct_value);

	memset(&u, 0xAA, sizeof(u));
	ck_assert_int_eq(pm_ioctl(fd, PMIOTSTAMP, &u.ts), 0);
	for (i = sizeof(int); i < pad; i++)
		ck_assert_int_eq(u.b[i], 0);
	close(fd);
}

#if defined(PR_SET_TSC) && !defined(__powerpc__)	/* x86 only */
static int notsc_kid(int rd, int wr, void *arg)
{
	struct pmc_tstamp ts;
	int fd = open(_PATH_PERFMON, O_RDWR);

	(void)rd;
	(void)wr;
	(void)arg;
	if (fd < 0)
		return kid_fail(1);
	if (pm_ioctl(fd, PMIOTSTAMP, &ts))
		return kid_fail(2);
	if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV, 0, 0, 0))
		return kid_fail(3);
	return pm_ioctl(fd, PMIOTSTAMP, &ts) == EPERM ? 0 : kid_fail(4);
}

/* A thread that forbade itself RDTSC gets no TSC from the device either. */
START_TEST(test_tstamp_notsc)
{
	kid_run(notsc_kid, NULL);
}
#endif

/* A buffer that is not there, or runs off the end of the mapping. */
START_TEST(test_bad_buffer)
{
	size_t pg = page_size();
	char *p = mmap(NULL, 2 * pg, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int fd = pm_open();
	int num = 0;

	ck_assert_ptr_ne(p, MAP_FAILED);
	ck_assert_int_eq(munmap(p + pg, pg), 0);
	/* The struct's last bytes lie in the unmapped page. */
	ck_assert_int_eq(pm_ioctl(fd, PMIOTSTAMP, p + pg - 4), EFAULT);
	ck_assert_int_eq(pm_ioctl(fd, PMIOTSTAMP, NULL), EFAULT);
	ck_assert_int_eq(pm_ioctl(fd, PMIOSETUP, p + pg - 4), EFAULT);
	ck_assert_int_eq(pm_ioctl(fd, PMIOGET, NULL), EFAULT);
	/* pmcd_num itself half in the unmapped page. */
	ck_assert_int_eq(pm_ioctl(fd, PMIOREAD, p + pg - 2), EFAULT);
	ck_assert_int_eq(pm_ioctl(fd, PMIOSTART, NULL), EFAULT);
	ck_assert_int_eq(pm_ioctl(fd, PMIOSTOP, p + pg - 2), EFAULT);
	ck_assert_int_eq(pm_ioctl(fd, PMIORESET, NULL), EFAULT);
	if (layout != PM_NONE) {
		/* A setup's refused read-back leaves it as it was. */
		ck_assert_int_eq(pm_setup(fd, 0, pm_word()), 0);
		ck_assert_int_eq(pm_ioctl(fd, PMIOREAD, NULL), EFAULT);
		ck_assert_int_eq(pm_num(fd, PMIOSTART, num), 0);
		/* Counter 0 is read, its value cannot be written back. */
		memcpy(p + pg - 4, &num, sizeof(num));
		ck_assert_int_eq(pm_ioctl(fd, PMIOREAD, p + pg - 4), EFAULT);
		ck_assert_int_eq(pm_num(fd, PMIOSTOP, num), 0);
	}
	munmap(p, pg);
	close(fd);
}

START_TEST(test_unknown_ioctl)
{
	int fd = pm_open();
	int v = 0;

	ck_assert_int_eq(pm_ioctl(fd, _IOW('5', 8, int), &v), ENOTTY);
	ck_assert_int_eq(pm_ioctl(fd, _IOW('5', 0, int), &v), ENOTTY);
	ck_assert_int_eq(pm_ioctl(fd, _IOWR('5', 4, int), &v), ENOTTY);
	ck_assert_int_eq(pm_ioctl(fd, _IOW('6', 1, struct pmc), &v), ENOTTY);
	ck_assert_int_eq(pm_ioctl(fd, 0, &v), ENOTTY);
	close(fd);
}

/* Counter numbers below 0 and from NPMC on: EINVAL for every request. */
START_TEST(test_bad_counter)
{
	static const int bad[] = { -1, NPMC, NPMC + 1, PMC_ALL, 0x7fffffff };
	int fd = pm_open();
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		struct pmc p = { .pmc_num = bad[i] };
		struct pmc_data d = { .pmcd_num = bad[i] };

		p.pmc_val = pm_word();
		ck_assert_int_eq(pm_ioctl(fd, PMIOSETUP, &p), EINVAL);
		ck_assert_int_eq(pm_ioctl(fd, PMIOGET, &p), EINVAL);
		ck_assert_int_eq(pm_ioctl(fd, PMIOREAD, &d), EINVAL);
		ck_assert_int_eq(pm_num(fd, PMIOSTART, bad[i]), EINVAL);
		ck_assert_int_eq(pm_num(fd, PMIOSTOP, bad[i]), EINVAL);
		ck_assert_int_eq(pm_num(fd, PMIORESET, bad[i]), EINVAL);
	}
	close(fd);
}

/* Where neither layout is: PMIOSETUP refused, and nothing set up. */
START_TEST(test_no_layout)
{
	int fd = pm_open();
	struct pmc p = { .pmc_num = 0 };

	if (layout != PM_NONE)
		return;
	p.pmc_val = 0xC0 | PMCF_USR << 16;
	ck_assert_int_eq(pm_ioctl(fd, PMIOSETUP, &p), EOPNOTSUPP);
	ck_assert_int_eq(pm_ioctl(fd, PMIOGET, &p), ENXIO);
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 0), ENXIO);
	close(fd);
}

/* A counter never set up: ENXIO for everything but PMIOSETUP. */
START_TEST(test_not_setup)
{
	int fd = pm_open();
	struct pmc p = { .pmc_num = 1 };
	struct pmc_data d = { .pmcd_num = 1 };

	ck_assert_int_eq(pm_ioctl(fd, PMIOGET, &p), ENXIO);
	ck_assert_int_eq(pm_ioctl(fd, PMIOREAD, &d), ENXIO);
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 1), ENXIO);
	ck_assert_int_eq(pm_num(fd, PMIOSTOP, 1), ENXIO);
	ck_assert_int_eq(pm_num(fd, PMIORESET, 1), ENXIO);
	close(fd);
}

START_TEST(test_setup_get)
{
	int fd = pm_open();
	struct pmc p = { .pmc_num = 1 };

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	ck_assert_int_eq(pm_setup(fd, 1, pm_word()), 0);
	ck_assert_int_eq(pm_ioctl(fd, PMIOGET, &p), 0);
	ck_assert_int_eq(p.pmc_num, 1);
	ck_assert_uint_eq(p.pmc_val, pm_word());
	ck_assert_int_eq(p.pmc_event, pm_word() & 0xff);
	ck_assert_int_eq(p.pmc_flags, (pm_word() >> 16) & 0xff);
	ck_assert_int_eq(pm_read(fd, 1), 0);
	close(fd);
}

/* Refused setups: EINVAL, and the counter keeps the setup it had. */
START_TEST(test_setup_refused)
{
	unsigned int good = pm_word(), ev = good & 0xff;
	unsigned int bad[] = {
		good | PMCF_INT << 16,
		good | PMCF_EN << 16,
		good | PMCF_PC << 16,
		good | 0x20 << 16,		/* AnyThread on arch perfmon */
		/* P5: no unit mask, counter mask, invert; 6-bit events */
		layout == PM_CESR ? good | 1 << 8 : good | 0x20 << 16,
		layout == PM_CESR ? good | 1u << 24 : good | 0x20 << 16,
		layout == PM_CESR ? good | PMCF_INV << 16 : good | 0x20 << 16,
		layout == PM_CESR ? (good & ~0xffu) | 0x80 : good | 0x20 << 16,
		/* P5: counting at no privilege level counts nothing */
		layout == PM_CESR ? (good & ~(PMCF_USR << 16)) : good | 0x20 << 16,
	};
	int fd = pm_open();
	struct pmc p = { .pmc_num = 0 };
	unsigned int i;

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	ck_assert_int_eq(pm_setup(fd, 0, good), 0);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ck_assert_msg(pm_setup(fd, 0, bad[i]) == EINVAL, "%#x", bad[i]);
		ck_assert_int_eq(pm_ioctl(fd, PMIOGET, &p), 0);
		ck_assert_uint_eq(p.pmc_val, good);
	}
	/* What the layout takes beyond the basics. */
	if (layout == PM_EVNTSEL) {
		ck_assert_int_eq(pm_setup(fd, 0, ev | 0x0f00 | 2u << 24 |
				 (PMCF_USR | PMCF_E | PMCF_INV) << 16), 0);
		ck_assert_int_eq(pm_setup(fd, 0, ev | (PMCF_USR | PMCF_OS) << 16 |
				 0xffu << 24), 0);
	} else {
		ck_assert_int_eq(pm_setup(fd, 0, 0x3f | PMCF_USR << 16), 0);
	}
	close(fd);
}

static int nobody_kernel(int rd, int wr, void *arg)
{
	int fd, err;

	(void)rd;
	(void)wr;
	(void)arg;
	if (setgid(NOBODY) || setuid(NOBODY) || prctl(PR_SET_DUMPABLE, 1))
		return kid_fail(1);
	fd = open(_PATH_PERFMON, O_RDWR);
	if (fd < 0)
		return kid_fail(2);
	/* Any user: user mode. */
	if (pm_setup(fd, 0, pm_word()))
		return kid_fail(3);
	/* Kernel mode needs privilege at paranoid 2 (security.rst). */
	err = pm_setup(fd, 1, pm_word() | PMCF_OS << 16);
	if (err != EACCES)
		return kid_fail(4);
	return pm_ioctl(fd, PMIOGET, &(struct pmc){ .pmc_num = 1 }) == ENXIO ?
	       0 : kid_fail(5);
}

START_TEST(test_privilege)
{
	int fd = pm_open();

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	ck_assert_int_eq(param_get("paranoid"), 2);
	ck_assert_int_eq(pm_setup(fd, 1, pm_word() | PMCF_OS << 16), 0);
	kid_run(nobody_kernel, NULL);
	close(fd);
}

/* Start, stop, reset: each on its own counter, each with its refusals. */
START_TEST(test_start_stop)
{
	int fd = pm_open();
	long long a, b;

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	ck_assert_int_eq(pm_setup(fd, 0, pm_word()), 0);
	ck_assert_int_eq(pm_num(fd, PMIOSTOP, 0), EBUSY);	/* not running */
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 0), 0);
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 0), EBUSY);	/* running */
	ck_assert_int_eq(pm_setup(fd, 0, pm_word()), EBUSY);
	pm_work(100000);
	a = pm_read(fd, 0);
	ck_assert_int_gt(a, 0);
	ck_assert_int_eq(pm_num(fd, PMIOSTOP, 0), 0);
	a = pm_read(fd, 0);
	pm_work(100000);
	ck_assert_int_eq(pm_read(fd, 0), a);			/* stopped */
	ck_assert_int_eq(pm_num(fd, PMIORESET, 0), 0);
	ck_assert_int_eq(pm_read(fd, 0), 0);
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 0), 0);
	/*
	 * Long enough that the two requests below count far less: the
	 * simulated PMU counts the kernel's time too, and the debug kernel
	 * is slow under TCG.
	 */
	pm_work(5000000);
	b = pm_read(fd, 0);
	ck_assert_int_gt(b, 0);
	/* A running counter's reset: it counts on, from zero. */
	ck_assert_int_eq(pm_num(fd, PMIORESET, 0), 0);
	ck_assert_int_lt(pm_read(fd, 0), b);
	ck_assert_int_eq(pm_num(fd, PMIOSTOP, 0), 0);
	/* PMIOSETUP resets. */
	ck_assert_int_eq(pm_setup(fd, 0, pm_word()), 0);
	ck_assert_int_eq(pm_read(fd, 0), 0);
	close(fd);
}

/*
 * Counter 1 without counter 0, and either stopped while the other runs:
 * the stopped one stands still, the running one goes on.
 */
START_TEST(test_independent)
{
	int fd = pm_open();
	long long c0, c1;

	if (layout == PM_NONE)		/* test_no_layout's case */
		return;
	ck_assert_int_eq(pm_setup(fd, 0, pm_word()), 0);
	ck_assert_int_eq(pm_setup(fd, 1, pm_word()), 0);
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 1), 0);
	pm_work(100000);
	ck_assert_int_gt(pm_read(fd, 1), 0);
	ck_assert_int_eq(pm_read(fd, 0), 0);
	ck_assert_int_eq(pm_num(fd, PMIOSTART, 0), 0);
	pm_work(100000);
	ck_assert_int_eq(pm_num(fd, PMIOSTOP, 0), 0);
	c0 = pm_read(fd, 0);
	c1 = pm_read(fd, 1);
	ck_assert_int_gt(c0, 0);
	ck_assert_int_gt(c1, c0);
	pm_work(100000);
	ck_assert_int_eq(pm_read(fd, 0), c0);
	ck_assert_int_gt(pm_read(fd, 1), c1);
	ck_assert_int_eq(pm_num(fd, PMIOSTOP, 1), 0);
	close(fd);
}

void pm_ioctl_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "ioctl", NULL, NULL);

	tcase_add_test(tc, test_device);
	tcase_add_test(tc, test_tstamp);
	tcase_add_test(tc, test_tstamp_padding);
#if defined(PR_SET_TSC) && !defined(__powerpc__)	/* x86 only */
	tcase_add_test(tc, test_tstamp_notsc);
#endif
	tcase_add_test(tc, test_bad_buffer);
	tcase_add_test(tc, test_unknown_ioctl);
	tcase_add_test(tc, test_bad_counter);
	tcase_add_test(tc, test_no_layout);
	tcase_add_test(tc, test_not_setup);
	tcase_add_test(tc, test_setup_get);
	tcase_add_test(tc, test_setup_refused);
	tcase_add_test(tc, test_privilege);
	tcase_add_test(tc, test_start_stop);
	tcase_add_test(tc, test_independent);
}
