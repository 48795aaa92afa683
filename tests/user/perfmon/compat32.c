// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfmon-compat32: /dev/perfmon from a 32-bit program on the x86_64
 * test kernel, through compat_ioctl. Its pmc_data and pmc_tstamp are 12
 * bytes, so PMIOREAD and PMIOTSTAMP have other numbers than a 64-bit
 * program's. Prints "RESULT PASS|FAIL name" lines, as the VM plans do;
 * exits 1 if any failed.
 *
 * Freestanding (raw int $0x80 system calls, no libc): Debian will not
 * install a 32-bit libc beside the ppc32 cross compiler.
 */
#include <asm/unistd.h>
#include <perfctr/perfmon.h>

#define O_RDONLY	0
#define O_RDWR		2
#define EFAULT		14
#define EINVAL		22
#define ENOTTY		25
#define ENXIO		6
#define EOPNOTSUPP	95

static long sys3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile ("int $0x80" : "=a" (ret)
		      : "a" (nr), "b" (a), "c" (b), "d" (c) : "memory");
	return ret;
}

static int failures;

static void put(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	sys3(__NR_write, 1, (long)s, n);
}

static void result(int ok, const char *name)
{
	put(ok ? "RESULT PASS compat32-" : "RESULT FAIL compat32-");
	put(name);
	put("\n");
	failures += !ok;
}

static long pm(int fd, unsigned long req, void *arg)
{
	return sys3(__NR_ioctl, fd, (long)req, (long)arg);
}

/* info's cpu_family_id: which layout the driver gives FreeBSD's setups. */
static unsigned int setup_word(void)
{
	static char buf[1024];
	const char *key = "cpu_family_id: ";
	long fd = sys3(__NR_open, (long)"/proc/perfctr/info", O_RDONLY, 0);
	long n, i, k;

	if (fd < 0)
		return 0;
	n = sys3(__NR_read, fd, (long)buf, sizeof(buf) - 1);
	sys3(__NR_close, fd, 0, 0);
	for (i = 0; i < n; i++) {
		for (k = 0; key[k] && i + k < n && buf[i + k] == key[k]; k++)
			;
		if (key[k])
			continue;
		switch (buf[i + k]) {
		case '1': case '2': case '9':	/* P5s: events at CPL 3 */
			return 0x16 | (PMCF_USR | PMCF_E) << 16;
		case '3': case '4': case '6': case '7': case '8':
			return 0xC0 | PMCF_USR << 16;
		}
		return 0;
	}
	return 0;
}

static void work(void)
{
	unsigned long i, x = 0;

	for (i = 0; i < 1000000; i++) {
		x += i;
		asm volatile("" : "+r" (x));	/* each step done */
	}
}

static void counters(int fd, unsigned int word)
{
	struct pmc p = { .pmc_num = 0 };
	struct pmc_data d = { .pmcd_num = 0 };
	long long a;
	int num = 0;

	p.pmc_val = word;
	result(pm(fd, PMIOSETUP, &p) == 0, "setup");
	p.pmc_val = 0;
	result(pm(fd, PMIOGET, &p) == 0 && p.pmc_val == word, "get");
	result(pm(fd, PMIOSTART, &num) == 0, "start");
	work();
	result(pm(fd, PMIOREAD, &d) == 0 && d.pmcd_value > 0, "read-counting");
	result(pm(fd, PMIOSTOP, &num) == 0, "stop");
	result(pm(fd, PMIOREAD, &d) == 0, "read-stopped");
	a = d.pmcd_value;
	work();
	result(pm(fd, PMIOREAD, &d) == 0 && d.pmcd_value == a, "read-stays");
	result(pm(fd, PMIOREAD, (void *)16) == -EFAULT, "read-efault");
}

static void run(void)
{
	struct pmc_tstamp t1 = { 0, 0 }, t2 = { 0, 0 };
	struct pmc_data d = { .pmcd_num = NPMC };
	struct pmc p = { .pmc_num = 0 };
	unsigned int word = setup_word();
	long fd = sys3(__NR_open, (long)_PATH_PERFMON, O_RDWR, 0);

	/* FreeBSD/i386's layout: 64-bit members 4-byte aligned. */
	result(sizeof(struct pmc_data) == 12 && sizeof(struct pmc_tstamp) == 12,
	       "i386-layout");
	result(fd >= 0, "open");
	if (fd < 0)
		return;
	result(pm(fd, PMIOTSTAMP, &t1) == 0 && t1.pmct_rate > 0 &&
	       t1.pmct_value > 0, "tstamp");
	result(pm(fd, PMIOTSTAMP, &t2) == 0 && t2.pmct_value >= t1.pmct_value,
	       "tstamp-monotonic");
	/* A 64-bit program's numbers (16-byte structs) are not a 32-bit one's. */
	result(pm(fd, _IOR('5', 6, long long[2]), &t1) == -ENOTTY,
	       "tstamp64-enotty");
	result(pm(fd, _IOWR('5', 4, long long[2]), &d) == -ENOTTY,
	       "read64-enotty");
	result(pm(fd, PMIOREAD, &d) == -EINVAL, "read-bad-counter");
	d.pmcd_num = 1;
	result(pm(fd, PMIOREAD, &d) == -ENXIO, "read-not-setup");
	result(pm(fd, PMIOTSTAMP, (void *)16) == -EFAULT, "tstamp-efault");
	if (word) {
		counters(fd, word);
	} else {
		p.pmc_val = 0xC0 | PMCF_USR << 16;
		result(pm(fd, PMIOSETUP, &p) == -EOPNOTSUPP, "setup-tsc-only");
	}
	sys3(__NR_close, fd, 0, 0);
}

void _start(void)
{
	run();
	sys3(__NR_exit, failures ? 1 : 0, 0, 0);
	for (;;)
		;
}
