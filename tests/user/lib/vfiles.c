// SPDX-License-Identifier: GPL-2.0-only
/*
 * The virtual counters for the Check suites (check_util.h): controls,
 * the raw files of /proc/perfctr/<tid>/, libperfctr's calls asserted,
 * and the children and readers of another thread's counters.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "check_util.h"

/* --- controls --- */

void tsc_control(struct vperfctr_control *c)
{
	memset(c, 0, sizeof(*c));
	c->cpu_control.tsc_on = 1;
}

/* The TSC and, on a simulated PMU, two a-mode counters: their number. */
unsigned int full_control(struct vperfctr_control *c)
{
	tsc_control(c);
	if (!model)
		return 0;
	model->amode(&c->cpu_control);
	return 2;
}

__u32 full_cstatus(void)
{
	return perfctr_mk_cstatus(1, model ? 2 : 0, 0);
}

/* --- the raw files --- */

int pfs_open(pid_t tid, const char *name, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), PERFCTR_ROOT "/%d/%s", (int)tid, name);
	return open(path, flags);
}

/* Without asserting, for threads and children; 0 or -1. */
int files_try(struct files *f, pid_t tid)
{
	f->tid = tid;
	f->ctl = pfs_open(tid, "control", O_RDWR);
	f->sums = pfs_open(tid, "sums", O_RDONLY);
	f->cmd = pfs_open(tid, "command", O_WRONLY);
	return f->ctl >= 0 && f->sums >= 0 && f->cmd >= 0 ? 0 : -1;
}

void files_open(struct files *f, pid_t tid)
{
	ck_assert_msg(files_try(f, tid) == 0, "open %s/%d/*: %s", PERFCTR_ROOT,
		      (int)tid, strerror(errno));
}

ssize_t put_control(int fd, const struct vperfctr_control *c)
{
	return pwrite(fd, c, sizeof(*c), 0);
}

ssize_t put_command(int fd, __u32 cmd)
{
	return pwrite(fd, &cmd, sizeof(cmd), 0);
}

void get_control(int fd, struct vperfctr_control *c)
{
	ck_assert_int_eq(pread(fd, c, sizeof(*c), 0), sizeof(*c));
}

void get_sums(int fd, struct perfctr_sum_ctrs *s)
{
	ck_assert_int_eq(pread(fd, s, sizeof(*s), 0), sizeof(*s));
}

/* The normal paths, asserted with the kernel's reason when they fail. */
void set_control(int fd, const struct vperfctr_control *c)
{
	ck_assert_msg(put_control(fd, c) == CTL_SIZE, "control write: %s", strerror(errno));
}

void do_command(int fd, __u32 cmd)
{
	ck_assert_msg(put_command(fd, cmd) == sizeof(cmd), "command %u: %s", cmd,
		      strerror(errno));
}

void lib_control(struct vperfctr *vp, const struct vperfctr_control *c)
{
	ck_assert_msg(!vperfctr_control(vp, c), "vperfctr_control: %s", strerror(errno));
}

/*
 * The caller's counters, opened through libperfctr and running
 * full_control(@c); the number of counters besides the TSC in *@n.
 */
struct vperfctr *lib_open_full(struct vperfctr_control *c, unsigned int *n)
{
	struct vperfctr *vp = vperfctr_open();

	ck_assert_msg(vp, "vperfctr_open: %s", strerror(errno));
	*n = full_control(c);
	lib_control(vp, c);
	return vp;
}

/* lib_open_full(), and the set's state page (asserted mapped). */
void full_set_open(struct full_set *f)
{
	f->vp = lib_open_full(&f->c, &f->n);
	f->st = state_of(f->vp);
	ck_assert_ptr_nonnull(f->st);
}

/*
 * In a child, non-asserting: the caller's counters through libperfctr,
 * counting the TSC (tsc_control(@c)); NULL if either step fails.
 */
struct vperfctr *lib_open_tsc(struct vperfctr_control *c)
{
	struct vperfctr *vp = vperfctr_open();

	tsc_control(c);
	if (vp && vperfctr_control(vp, c)) {
		vperfctr_close(vp);
		return NULL;
	}
	return vp;
}

/*
 * Runs until the TSC sum (of @vp, else of the sums file @fd) reaches
 * @ticks: a known amount counted, however the thread was scheduled.
 */
void count_at_least(struct vperfctr *vp, int fd, unsigned long long ticks)
{
	unsigned long long t0 = rdtsc();
	struct perfctr_sum_ctrs s;

	for (;;) {
		if (vp)
			ck_assert_int_eq(vperfctr_read_sums(vp, &s), 0);
		else
			get_sums(fd, &s);
		if (s.tsc >= ticks)
			return;
		ck_assert_msg(rdtsc() - t0 < ms_ticks(10000), "tsc sum stuck at %llu", s.tsc);
		spin(ms_ticks(1));
	}
}

/* --- the state page --- */

__u32 cstatus_of(const struct vperfctr_state *st)
{
	return PAGE_LOAD(st->cpu_state.cstatus);
}

/* libperfctr's view of the page, read through PAGE_LOAD() here too. */
const struct vperfctr_state *state_of(const struct vperfctr *vp)
{
	return (const void *)vperfctr_state(vp);
}

/* The caller's state page, mapped as libperfctr maps it. */
const struct vperfctr_state *map_state(void)
{
	int fd = pfs_open(gettid(), "state", O_RDONLY);
	void *p;

	ck_assert_msg(fd >= 0, "open state: %s", strerror(errno));
	p = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	ck_assert_msg(p != MAP_FAILED, "mmap state: %s", strerror(errno));
	close(fd);
	return p;
}

/* --- another thread's counters --- */

/*
 * Counts for a while, suspends (so the sums are final), reports, waits.
 * With *arg set it makes itself non-dumpable first.
 */
int counting_kid(int rd, int wr, void *arg)
{
	int nodump = arg && *(int *)arg;
	struct vperfctr *vp = vperfctr_open();
	struct report r;

	if (!vp)
		return kid_fail(20);
	memset(&r, 0, sizeof(r));
	full_control(&r.ctl);
	r.ctl.si_signo = SIGUSR2;
	if (vperfctr_control(vp, &r.ctl))
		return kid_fail(21);
	spin(ms_ticks(5));
	if (vperfctr_suspend(vp))
		return kid_fail(22);
	if (vperfctr_read_sums(vp, &r.sums) || !r.sums.tsc)
		return kid_fail(23);
	if (nodump && prctl(PR_SET_DUMPABLE, 0, 0, 0, 0))
		return kid_fail(24);
	if (write(wr, &r, sizeof(r)) != sizeof(r))
		return kid_fail(25);
	kid_wait_go(rd);
	return 0;
}

/* Whether @tid's counters are refused (EACCES) by libperfctr and the file. */
int read_refused(pid_t tid)
{
	struct vperfctr *vp;
	int fd;

	errno = 0;
	vp = vperfctr_open_tid(tid);
	if (vp) {
		vperfctr_close(vp);
		return 0;
	}
	if (errno != EACCES)
		return 0;
	fd = pfs_open(tid, "sums", O_RDONLY);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	return errno == EACCES;
}

/* Whether @tid's counters read back as a counting_kid() reported them. */
int reads_report(pid_t tid, const struct report *r)
{
	struct vperfctr *vp = vperfctr_open_tid(tid);
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c;
	int ok;

	if (!vp)
		return 0;
	ok = !vperfctr_read_sums(vp, &s) && !memcmp(&s, &r->sums, sizeof(s)) &&
	     !vperfctr_read_control(vp, &c) && !memcmp(&c, &r->ctl, sizeof(c));
	vperfctr_close(vp);
	return ok;
}
