// SPDX-License-Identifier: GPL-2.0-only
/* Helpers shared by the Check suites of the virtual counters. */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "test_util.h"
#include "vp_util.h"

const char *model_name;		/* $PERFCTR_SIM_MODEL */
const struct sim_model *model;	/* NULL: the TSC only */
unsigned long long khz;		/* TSC ticks per millisecond */
unsigned int nrctrs;
int cpus_forbidden;		/* some CPU has no counters */
long ncpus;

int vp_util_init(void)
{
	const char *v;

	model_name = getenv("PERFCTR_SIM_MODEL");
	model = sim_model_find(model_name);
	/* TSC (timebase) ticks per ms: the core clock over their ratio. */
	v = info_field("cpu_khz");
	khz = v ? strtoull(v, NULL, 10) : 0;
	v = info_field("tsc_to_cpu_mult");
	if (v && atoi(v) > 1)
		khz /= atoi(v);
	v = info_field("nrctrs");
	nrctrs = v ? atoi(v) : 0;
	v = info_field("cpus_forbidden");
	cpus_forbidden = v && *v;
	ncpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (!khz) {
		fprintf(stderr, "%s: no cpu_khz in %s\n",
			program_invocation_short_name, INFO_PATH);
		return -1;
	}
	return 0;
}

unsigned long long ms_ticks(unsigned int ms)
{
	return khz * ms;
}

/* Busy for @ticks TSC ticks; returns the ticks that really passed. */
unsigned long long spin(unsigned long long ticks)
{
	unsigned long long t0 = rdtsc(), t;

	do
		t = rdtsc();
	while (t - t0 < ticks);
	return t - t0;
}

int within(unsigned long long v, unsigned long long ref, unsigned int pct)
{
	return v >= ref * (100 - pct) / 100 && v <= ref * (100 + pct) / 100;
}

int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

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

/*
 * A sum that (re)started at @t0 can hold no more than the TSC ticks since:
 * the check that it did not keep what it had. The slack covers TSCs a
 * little apart on two CPUs.
 */
int since(unsigned long long sum, unsigned long long t0)
{
	return sum <= rdtsc() - t0 + ms_ticks(1);
}

int is_zero(const void *p, size_t size)
{
	const unsigned char *b = p;

	while (size--)
		if (*b++)
			return 0;
	return 1;
}

size_t page_size(void)
{
	return sysconf(_SC_PAGESIZE);
}

#define PAGE_LOAD(x)	__atomic_load_n(&(x), __ATOMIC_ACQUIRE)

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

/* --- children --- */

/* Non-asserting, for use in children too. The child _exit()s fn's value. */
int kid_spawn(struct kid *k, kid_fn fn, void *arg)
{
	int up[2], down[2];

	if (pipe(up))
		return -1;
	if (pipe(down))
		return -1;
	k->pid = fork();
	if (k->pid < 0)
		return -1;
	if (!k->pid) {
		close(up[0]);
		close(down[1]);
		_exit(fn(down[0], up[1], arg));
	}
	close(up[1]);
	close(down[0]);
	k->rd = up[0];
	k->wr = down[1];
	return 0;
}

/* Releases the child and returns its exit code, or -1. */
int kid_reap(struct kid *k)
{
	int status;

	close(k->wr);
	close(k->rd);
	if (waitpid(k->pid, &status, 0) != k->pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A child's failed step, and why, for the guest log; its exit code. */
int kid_fail(int step)
{
	fprintf(stderr, "%s: child %d, step %d: %s\n",
		program_invocation_short_name, (int)getpid(), step,
		strerror(errno));
	return step;
}

/* What the child sends; if it fails first, says where. */
void kid_read(struct kid *k, void *buf, size_t size)
{
	ssize_t n = read(k->rd, buf, size);

	if (n != (ssize_t)size)
		ck_abort_msg("child sent %zd bytes, exited with %d", n, kid_reap(k));
}

void kid_start(struct kid *k, kid_fn fn, void *arg)
{
	ck_assert_int_eq(kid_spawn(k, fn, arg), 0);
}

void kid_done(struct kid *k)
{
	int code = kid_reap(k);

	ck_assert_msg(code == 0, "child failed at step %d", code);
}

/* Runs @fn in a child to its end; asserts it succeeded. */
void kid_run(kid_fn fn, void *arg)
{
	struct kid k;

	kid_start(&k, fn, arg);
	kid_done(&k);
}

/* Blocks until the parent writes a byte or goes away. */
void kid_wait_go(int rd)
{
	char b;

	while (read(rd, &b, 1) < 0 && errno == EINTR)
		;
}

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

/* --- module parameters --- */

static char param_dir[64];

/* perfctr.ko's or perfctr_simpmu.ko's parameters, whichever is loaded. */
static void find_module(void)
{
	const char *mod = access("/sys/module/perfctr_simpmu", F_OK) ?
			  "perfctr" : "perfctr_simpmu";

	snprintf(param_dir, sizeof(param_dir), "/sys/module/%s/parameters", mod);
}

/* Writes @val to parameter @name; 0 or the errno. */
int param_put(const char *name, const char *val)
{
	char path[128];
	int fd, err = 0;

	if (!param_dir[0])
		find_module();
	snprintf(path, sizeof(path), "%s/%s", param_dir, name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	if (write(fd, val, strlen(val)) < 0)
		err = errno;
	close(fd);
	return err;
}

int param_get(const char *name)
{
	char path[128], buf[16] = "";
	int fd;

	if (!param_dir[0])
		find_module();
	snprintf(path, sizeof(path), "%s/%s", param_dir, name);
	fd = open(path, O_RDONLY);
	ck_assert_msg(fd >= 0, "open %s: %s", path, strerror(errno));
	ck_assert_int_gt(read(fd, buf, sizeof(buf) - 1), 0);
	close(fd);
	/* bool parameters read back as Y or N. */
	return buf[0] == 'Y' ? 1 : buf[0] == 'N' ? 0 : atoi(buf);
}
