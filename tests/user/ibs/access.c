// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_ibs: who may read a thread's ring (amd.rst, "The samples"). A
 * ring the thread's own process opened may be handed to anyone, as
 * perfex's child hands its ring to perfex; its holder reads it while the
 * thread keeps the credentials and the dumpability it had at the open.
 * Nobody else gets it without the right to read the thread's counters;
 * and the thread is sampled only while it stays as at the setup.
 *
 * The reader is a child that drops to nobody once it has started the
 * sampled grandchild; the grandchild is nobody too, but keeps root as
 * its saved uid so that it can still change its credentials later.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ibs.h"

#define NOBODY	65534

/* What the reader asks the sampled grandchild to do; it answers 1 byte. */
enum {
	DO_SPIN = 's',		/* sample a while */
	DO_UNDUMPABLE = 'u',
	DO_DUMPABLE = 'd',
	DO_DROP_SUID = 'c',	/* a change of credentials, still dumpable */
};

static int do_request(char what)
{
	switch (what) {
	case DO_SPIN:
		ibs_spin(200);
		return 0;
	case DO_UNDUMPABLE:
		return prctl(PR_SET_DUMPABLE, 0);
	case DO_DUMPABLE:
		return prctl(PR_SET_DUMPABLE, 1);
	case DO_DROP_SUID:
		/* Changing the permitted set resets dumpability: set it again. */
		if (setresuid(-1, -1, NOBODY))
			return -1;
		return prctl(PR_SET_DUMPABLE, 1);
	}
	return -1;
}

/* The sampled grandchild: samples itself, hands its ring on, obeys. */
static int sampled(int rd, int wr, void *arg)
{
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, 0x10000);
	int sock = *(int *)arg;
	char what;
	int fd;

	if (setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, 0) || prctl(PR_SET_DUMPABLE, 1))
		return kid_fail(1);
	if (ibs_put(&c))
		return kid_fail(2);
	fd = ibs_ring_open();
	if (fd < 0 || fds_send(sock, &fd, 1, "r", 1))
		return kid_fail(3);
	close(fd);
	while (read(rd, &what, 1) == 1) {
		if (do_request(what))
			return kid_fail(4);
		if (write(wr, &what, 1) != 1)
			return kid_fail(5);
	}
	return 0;
}

static int ask(struct kid *k, char what)
{
	char got;

	if (write(k->wr, &what, 1) != 1 || read(k->rd, &got, 1) != 1)
		return -1;
	return got == what ? 0 : -1;
}

/* 1: the ring reads (samples or none); 0: refused with EACCES; -1. */
static int ring_reads(int fd)
{
	static struct perfctr_ibs_sample s[64];

	if (read(fd, s, sizeof(s)) >= 0)
		return 1;
	return errno == EACCES ? 0 : -1;
}

/* mmap() and the tail's pwrite() refused with EACCES too. */
static int ring_all_refused(int fd)
{
	unsigned long long tail = 0;
	void *map;

	if (ring_reads(fd))
		return 0;
	map = mmap(NULL, 9 * page_size(), PROT_READ, MAP_SHARED, fd, 0);
	if (map != MAP_FAILED || errno != EACCES)
		return 0;
	return pwrite(fd, &tail, sizeof(tail), 0) < 0 && errno == EACCES;
}

static int handed_ring(struct kid *k, int fd)
{
	static struct perfctr_ibs_sample s[1024];

	if (pfs_open(k->pid, "ibs_ring", O_RDONLY) >= 0 || errno != EACCES)
		return 12;	/* opening it afresh needs the right to */
	if (ask(k, DO_SPIN) || read(fd, s, sizeof(s)) <= 0)
		return 13;	/* the handed ring reads, and has samples */
	if (ask(k, DO_UNDUMPABLE) || !ring_all_refused(fd))
		return 14;
	if (ask(k, DO_DUMPABLE) || ring_reads(fd) != 1)
		return 15;	/* as at the open again */
	if (ask(k, DO_DROP_SUID) || !ring_all_refused(fd))
		return 16;
	return 0;
}

static int reader(int rd, int wr, void *arg)
{
	struct kid k;
	int sv[2], fd, step;
	char x;

	(void)rd;
	(void)wr;
	(void)arg;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) ||
	    kid_spawn(&k, sampled, &sv[1]))
		return kid_fail(10);
	if (setresgid(NOBODY, NOBODY, NOBODY) ||
	    setresuid(NOBODY, NOBODY, NOBODY))
		return kid_fail(11);
	step = fds_recv(sv[0], &fd, 1, &x, 1) ? 17 : handed_ring(&k, fd);
	if (step)
		kid_fail(step);
	if (kid_reap(&k))
		return kid_fail(18);
	return step;
}

/* A ring handed on by its own thread, and what withdraws it. */
START_TEST(test_handed_over)
{
	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	ck_assert_int_eq(param_get("paranoid"), 2);
	kid_run(reader, NULL);
}

static struct perfctr_ibs_sample buf[4096];

/* Samples the thread takes in @ms of spinning, and the filtered count. */
static size_t spin_samples(int fd, const struct perfctr_ibs_ring *r,
			   unsigned int ms, unsigned long long *filtered)
{
	unsigned long long f0 = r->filtered;
	size_t n = 0;
	ssize_t got;

	ibs_spin(ms);
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		n += got / sizeof(buf[0]);
	ck_assert_int_eq(got, 0);
	*filtered = r->filtered - f0;
	return n;
}

/*
 * The owner is sampled only while it is as at the setup: not while it
 * is not dumpable, nor with other ids; again once it is as it was. Its
 * samples meanwhile count as filtered.
 */
START_TEST(test_owner_changes)
{
	struct perfctr_ibs_control c = ibs_ctl(PERFCTR_IBS_OP, 0, 0x10000);
	const struct perfctr_ibs_ring *r;
	unsigned long long filtered;
	size_t size = 9 * page_size();
	void *map;
	int fd;

	if (!(ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return;
	fd = ibs_start(&c);
	map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_ptr_ne(map, MAP_FAILED);
	r = map;
	ck_assert_uint_gt(spin_samples(fd, r, 100, &filtered), 0);

	ck_assert_int_eq(prctl(PR_SET_DUMPABLE, 0), 0);
	spin_samples(fd, r, 0, &filtered);	/* taken before the change */
	ck_assert_uint_eq(spin_samples(fd, r, 200, &filtered), 0);
	ck_assert_uint_gt(filtered, 0);
	ck_assert_int_eq(prctl(PR_SET_DUMPABLE, 1), 0);
	ck_assert_uint_gt(spin_samples(fd, r, 100, &filtered), 0);

	/* Another egid; dumpable again, as a change of ids clears it. */
	ck_assert_int_eq(setegid(NOBODY), 0);
	ck_assert_int_eq(prctl(PR_SET_DUMPABLE, 1), 0);
	spin_samples(fd, r, 0, &filtered);
	ck_assert_uint_eq(spin_samples(fd, r, 200, &filtered), 0);
	ck_assert_uint_gt(filtered, 0);
	ck_assert_int_eq(setegid(0), 0);
	ck_assert_int_eq(prctl(PR_SET_DUMPABLE, 1), 0);
	ck_assert_uint_gt(spin_samples(fd, r, 100, &filtered), 0);

	ck_assert_int_eq(ibs_put(&(struct perfctr_ibs_control){ 0 }), 0);
	munmap(map, size);
	close(fd);
}

void ibs_access_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "access", NULL, NULL);

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_handed_over);
	tcase_add_test(tc, test_owner_changes);
}
