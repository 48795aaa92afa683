// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "inherit" case: VPERFCTR_CONTROL_INHERIT. Threads
 * and processes made by a set's owner get sets of their own, and each
 * one's sums reach the root's <tid>/children once, whatever the order
 * of the exits (virtual.rst, "Inheritance").
 *
 * Each member does a known amount of work (it spins until its own TSC sum
 * reaches WORK), then stops its own counters, so that its sums are final,
 * and reports them. The inherited total must be exactly the sum of the
 * reports: every member once, none twice, whatever the host's scheduling
 * did to the times. On a simulated PMU the counters, counting TSC cycles
 * while enabled, must each have counted too.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vperfctr.h"

#define WORK_MS	20

static unsigned long long work(void)
{
	return ms_ticks(WORK_MS);
}

/* The caller's inheriting set: full_control() with INHERIT; counters. */
static unsigned int inherit_open(struct files *f, struct vperfctr_control *c)
{
	unsigned int n = full_control(c);

	c->flags = VPERFCTR_CONTROL_INHERIT;
	c->label = 0x5eed1abeU;		/* every member reads it back */
	files_open(f, gettid());
	set_control(f->ctl, c);
	return n;
}

static int children_of(int fd, struct vperfctr_children *ch)
{
	return pread(fd, ch, sizeof(*ch), 0) == sizeof(*ch) ? 0 : -1;
}

static int open_children(pid_t tid)
{
	int fd = pfs_open(tid, "children", O_RDONLY);

	ck_assert_msg(fd >= 0, "open children: %s", strerror(errno));
	return fd;
}

/*
 * In a member, not asserting: its own set runs the inherited control; it
 * spins until its own TSC sum reaches WORK, stops its counters and puts
 * its final sums in @s. 0, or a step number.
 */
static int member_work(const struct vperfctr_control *want,
		       struct perfctr_sum_ctrs *s)
{
	struct vperfctr_control got;
	struct files f;
	unsigned long long t0 = rdtsc();

	if (files_try(&f, gettid()))
		return 1;
	if (pread(f.ctl, &got, sizeof(got), 0) != sizeof(got) ||
	    memcmp(&got, want, sizeof(got)))
		return 2;
	do {
		if (pread(f.sums, s, sizeof(*s), 0) != sizeof(*s))
			return 3;
		if (rdtsc() - t0 > ms_ticks(20000))
			return 4;
		spin(ms_ticks(1));
	} while (s->tsc < work());
	if (put_command(f.cmd, VPERFCTR_CMD_SUSPEND) != 4 ||
	    pread(f.sums, s, sizeof(*s), 0) != sizeof(*s))
		return 5;
	close(f.ctl);
	close(f.sums);
	close(f.cmd);
	return 0;
}

static void add_sums(struct perfctr_sum_ctrs *to, const struct perfctr_sum_ctrs *s)
{
	unsigned int i;

	to->tsc += s->tsc;
	for (i = 0; i < PERFCTR_NR_PMCS; i++)
		to->pmc[i] += s->pmc[i];
}

/*
 * A join returns before the thread's exit takes its final sums: the
 * total once no member is left.
 */
static void settled(int fd, struct vperfctr_children *ch)
{
	unsigned long long t0 = rdtsc();

	for (;;) {
		ck_assert_int_eq(children_of(fd, ch), 0);
		if (!ch->live)
			return;
		ck_assert_msg(rdtsc() - t0 < ms_ticks(20000), "exited %u live %u",
			      ch->exited, ch->live);
		usleep(1000);
	}
}

/* @n members, each counted once: their reports add up to @want. */
static void assert_total(const struct vperfctr_children *ch, unsigned int n,
			 unsigned int nctrs, const struct perfctr_sum_ctrs *want)
{
	unsigned int i;

	ck_assert_uint_eq(ch->exited, n);
	ck_assert_uint_eq(ch->live, 0);
	ck_assert_uint_eq(ch->lost, 0);
	ck_assert_uint_ge(want->tsc, n * work());
	ck_assert_mem_eq(&ch->sums, want, SUMS_SIZE);
	for (i = 0; i < nctrs; i++)
		ck_assert_uint_gt(ch->sums.pmc[i], 0);
}

/* --- threads --- */

struct member {
	const struct vperfctr_control *c;
	struct perfctr_sum_ctrs s;
	int err;
};

static void *member_thread(void *arg)
{
	struct member *m = arg;

	m->err = member_work(m->c, &m->s);
	return NULL;
}

START_TEST(inherit_threads_counted_once)
{
	struct vperfctr_control c;
	struct vperfctr_children ch;
	struct member m[4];
	struct perfctr_sum_ctrs own0, own1, want = { 0 };
	pthread_t t[4];
	unsigned int i, n;
	struct files f;
	int fd;

	n = inherit_open(&f, &c);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		m[i].c = &c;
		ck_assert_int_eq(pthread_create(&t[i], NULL, member_thread, &m[i]), 0);
	}
	/* The root's commands are its own: its members count on. */
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	get_sums(f.sums, &own0);
	for (i = 0; i < ARRAY_SIZE(t); i++) {
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		ck_assert_int_eq(m[i].err, 0);
		add_sums(&want, &m[i].s);
	}
	fd = open_children(gettid());
	settled(fd, &ch);
	assert_total(&ch, ARRAY_SIZE(t), n, &want);
	/* Nor do their sums reach the root's own. */
	get_sums(f.sums, &own1);
	ck_assert_mem_eq(&own1, &own0, SUMS_SIZE);
}

/* --- VPERFCTR_CONTROL_THREADS: threads are members, processes not --- */

static void *status_thread(void *arg);

/* A process forked now starts without a set. */
static void fork_has_no_set(void)
{
	char buf[32];
	int status;
	pid_t pid;

	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		status_thread(buf);
		_exit(strcmp(buf, "none\n") ? 1 : 0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_int_eq(status, 0);
}

START_TEST(inherit_threads_flag_leaves_processes_out)
{
	struct vperfctr_control c;
	struct vperfctr_children ch;
	struct perfctr_sum_ctrs want = { 0 };
	struct member m = { .c = &c };
	struct files f;
	unsigned int n;
	pthread_t t;
	int fd;

	n = inherit_open(&f, &c);
	c.flags |= VPERFCTR_CONTROL_THREADS;
	set_control(f.ctl, &c);
	/* A new thread gets the control, label included. */
	ck_assert_int_eq(pthread_create(&t, NULL, member_thread, &m), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(m.err, 0);
	add_sums(&want, &m.s);
	/* A new process does not, nor does it count as lost. */
	fork_has_no_set();
	fd = open_children(gettid());
	settled(fd, &ch);
	assert_total(&ch, 1, n, &want);
}

/* --- <tid>/tree: the total with the live members in it --- */

static int tree_of(pid_t tid, struct vperfctr_children *ch)
{
	int fd = pfs_open(tid, "tree", O_RDONLY);
	int err;

	ck_assert_msg(fd >= 0, "open tree: %s", strerror(errno));
	err = pread(fd, ch, sizeof(*ch), 0) == sizeof(*ch) ? 0 : -errno;
	close(fd);
	return err;
}

/* Between the test and its runner: read and written with __atomic. */
#define GET(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)
#define PUT(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELEASE)
enum { RUN_ON, RUN_STOP, RUN_EXIT };

/*
 * tree read after children: the same record, but for the migrations,
 * which count the root's own too, up to each read.
 */
static void same_but_migrations(const struct vperfctr_children *tr,
				const struct vperfctr_children *ch)
{
	ck_assert_uint_eq(tr->live, ch->live);
	ck_assert_uint_eq(tr->exited, ch->exited);
	ck_assert_uint_eq(tr->lost, ch->lost);
	ck_assert_uint_ge(tr->migrations, ch->migrations);
	ck_assert_mem_eq(&tr->sums, &ch->sums, SUMS_SIZE);
}

struct runner {
	const struct vperfctr_control *c;
	int stop;			/* the test's word: RUN_* */
	int done;			/* counters suspended, s final */
	struct perfctr_sum_ctrs s;
	int err;
};

/* A member that keeps running until told, then stops its counters. */
static void *runner_thread(void *arg)
{
	struct runner *r = arg;
	struct vperfctr_control got;
	struct files f;

	if (files_try(&f, gettid())) {
		r->err = 1;
		return NULL;
	}
	if (pread(f.ctl, &got, sizeof(got), 0) != sizeof(got) ||
	    memcmp(&got, r->c, sizeof(got)))
		r->err = 2;
	while (GET(r->stop) == RUN_ON)
		spin(ms_ticks(1));
	if (put_command(f.cmd, VPERFCTR_CMD_SUSPEND) != 4 ||
	    pread(f.sums, &r->s, sizeof(r->s), 0) != sizeof(r->s))
		r->err = 3;
	close(f.ctl);
	close(f.sums);
	close(f.cmd);
	PUT(r->done, 1);
	while (GET(r->stop) != RUN_EXIT)	/* live, stopped: until seen */
		usleep(1000);
	return NULL;
}

/* Waits for @cond, at most 20 s. */
#define WAIT_FOR(cond) do {						\
		unsigned long long t0_ = rdtsc();			\
		while (!(cond)) {					\
			ck_assert(rdtsc() - t0_ < ms_ticks(20000));	\
			usleep(1000);					\
		}							\
	} while (0)

START_TEST(inherit_tree_reads_live_members)
{
	struct vperfctr_children ch, tr, tr2;
	struct perfctr_sum_ctrs own0, own1;
	struct vperfctr_control c;
	struct runner r = { .c = &c };
	struct files f;
	unsigned int i, n;
	pthread_t t;
	int fd;

	n = inherit_open(&f, &c);
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);	/* the root's own stay */
	get_sums(f.sums, &own0);
	fd = open_children(gettid());
	ck_assert_int_eq(pthread_create(&t, NULL, runner_thread, &r), 0);
	/* Running: in tree, as of its last sample; not yet in children. */
	WAIT_FOR(tree_of(gettid(), &tr) == 0 && tr.sums.tsc > 0);
	ck_assert_uint_eq(tr.live, 1);
	ck_assert_uint_eq(tr.exited, 0);
	ck_assert_int_eq(children_of(fd, &ch), 0);
	ck_assert_uint_eq(ch.sums.tsc, 0);
	/* The 50 ms sampling moves it on while it runs. */
	WAIT_FOR(tree_of(gettid(), &tr2) == 0 && tr2.sums.tsc > tr.sums.tsc);
	/* Stopped but live: tree has its final sums exactly. */
	PUT(r.stop, RUN_STOP);
	WAIT_FOR(GET(r.done));
	ck_assert_int_eq(r.err, 0);
	ck_assert_int_eq(tree_of(gettid(), &tr), 0);
	ck_assert_uint_eq(tr.live, 1);
	ck_assert_mem_eq(&tr.sums, &r.s, SUMS_SIZE);
	for (i = 0; i < n; i++)
		ck_assert_uint_gt(tr.sums.pmc[i], 0);
	/* Gone: children and tree agree, the member counted once. */
	PUT(r.stop, RUN_EXIT);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	settled(fd, &ch);
	ck_assert_int_eq(tree_of(gettid(), &tr), 0);
	same_but_migrations(&tr, &ch);
	ck_assert_mem_eq(&ch.sums, &r.s, SUMS_SIZE);
	get_sums(f.sums, &own1);
	ck_assert_mem_eq(&own1, &own0, SUMS_SIZE);
}

/*
 * A member whose process made itself undumpable is not shown live (its
 * counts could be read in no other way): tree shows it only once it is
 * gone, by its final sums, as children does.
 */
START_TEST(inherit_tree_hides_undumpable)
{
	struct vperfctr_children ch, tr;
	struct vperfctr_control c;
	struct runner r = { .c = &c };
	struct files f;
	pthread_t t;
	int fd;

	inherit_open(&f, &c);
	fd = open_children(gettid());
	ck_assert_int_eq(pthread_create(&t, NULL, runner_thread, &r), 0);
	WAIT_FOR(tree_of(gettid(), &tr) == 0 && tr.sums.tsc > 0);
	ck_assert_int_eq(prctl(PR_SET_DUMPABLE, 0), 0);
	ck_assert_int_eq(tree_of(gettid(), &tr), 0);
	ck_assert_uint_eq(tr.live, 1);
	ck_assert_uint_eq(tr.sums.tsc, 0);
	PUT(r.stop, RUN_STOP);
	WAIT_FOR(GET(r.done));
	ck_assert_int_eq(tree_of(gettid(), &tr), 0);
	ck_assert_uint_eq(tr.sums.tsc, 0);
	PUT(r.stop, RUN_EXIT);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(r.err, 0);
	settled(fd, &ch);
	ck_assert_int_eq(tree_of(gettid(), &tr), 0);
	same_but_migrations(&tr, &ch);
	ck_assert_mem_eq(&ch.sums, &r.s, SUMS_SIZE);
	ck_assert_int_eq(prctl(PR_SET_DUMPABLE, 1), 0);
}

/* --- migrations (ABI 1.2) --- */

#define HOPS	6

static void *hop_thread(void *arg)
{
	*(int *)arg = hop_cpus(2 * HOPS);
	return NULL;
}

/*
 * children and tree count the tree's CPU migrations: a member's as it
 * goes, live ones' in tree, the root's own in both.
 */
START_TEST(inherit_counts_migrations)
{
	struct vperfctr_children ch, tr;
	struct vperfctr_control c;
	struct files f;
	pthread_t t;
	int fd, err = -1;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return;		/* ppc32's one CPU: nowhere to go */
	inherit_open(&f, &c);
	fd = open_children(gettid());
	ck_assert_int_eq(children_of(fd, &ch), 0);
	ck_assert_uint_eq(ch.migrations, 0);
	ck_assert_int_eq(pthread_create(&t, NULL, hop_thread, &err), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(err, 0);
	settled(fd, &ch);
	/* Its first hop may find it on that CPU already. */
	ck_assert_uint_ge(ch.migrations, 2 * HOPS - 1);
	ck_assert_int_eq(hop_cpus(2 * HOPS), 0);
	ck_assert_int_eq(children_of(fd, &tr), 0);
	ck_assert_uint_ge(tr.migrations, ch.migrations + 2 * HOPS - 1);
	ck_assert_int_eq(tree_of(gettid(), &tr), 0);
	ck_assert_uint_ge(tr.migrations, ch.migrations + 2 * HOPS - 1);
	/* A new control starts the count again. */
	set_control(f.ctl, &c);
	ck_assert_int_eq(children_of(fd, &ch), 0);
	ck_assert_uint_lt(ch.migrations, 2);
}

/* A set that is no root, or no set: zeroes. A bad read: EINVAL. */
START_TEST(inherit_tree_zero_and_refused)
{
	struct vperfctr_children tr;
	struct vperfctr_control c;
	struct files f;
	char small[8];
	int fd;

	ck_assert_int_eq(tree_of(gettid(), &tr), 0);
	ck_assert(is_zero(&tr, sizeof(tr)));
	full_control(&c);
	files_open(&f, gettid());
	set_control(f.ctl, &c);
	memset(&tr, 0xFF, sizeof(tr));
	ck_assert_int_eq(tree_of(gettid(), &tr), 0);
	ck_assert(is_zero(&tr, sizeof(tr)));
	fd = pfs_open(gettid(), "tree", O_RDONLY);
	ck_assert_int_ge(fd, 0);
	errno = 0;
	ck_assert_int_eq(pread(fd, small, sizeof(small), 0), -1);
	ck_assert_int_eq(errno, EINVAL);
	errno = 0;
	ck_assert_int_eq(pread(fd, &tr, sizeof(tr), 1), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(pread(fd, &tr, sizeof(tr), sizeof(tr)), 0);
	close(fd);
}

/* --- processes: children and grandchildren --- */

/* Works, and writes its final sums to @wr (one record, atomic). */
static int member_report(const struct vperfctr_control *c, int wr)
{
	struct perfctr_sum_ctrs s;
	int err = member_work(c, &s);

	if (err)
		return err;
	return write(wr, &s, sizeof(s)) == sizeof(s) ? 0 : 11;
}

/* A child that works, with a grandchild that works and outlives it. */
static int fork_member(const struct vperfctr_control *c, int wr)
{
	pid_t pid = fork();

	if (pid < 0)
		return 10;
	if (pid == 0) {
		usleep(50000);		/* its parent is gone by then */
		_exit(member_report(c, wr));
	}
	return member_report(c, wr);
}

/* Every process's status; 0 if all exited 0. */
static int wait_all(unsigned int n)
{
	int status, bad = 0;

	while (n--) {
		if (wait(&status) < 0)
			return -1;
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			bad = status;
	}
	return bad;
}

/* @kids children and as many grandchildren; their reports on *@rd. */
static void fork_tree(const struct vperfctr_control *c, unsigned int kids,
		      int *rd)
{
	unsigned int i;
	int p[2];

	ck_assert_int_eq(pipe(p), 0);
	for (i = 0; i < kids; i++) {
		pid_t pid = fork();

		ck_assert_int_ge(pid, 0);
		if (pid == 0)
			_exit(fork_member(c, p[1]));
	}
	close(p[1]);
	*rd = p[0];
}

/* The sum of the @n reports on @rd. */
static void reports(int rd, unsigned int n, struct perfctr_sum_ctrs *want)
{
	struct perfctr_sum_ctrs s;

	memset(want, 0, sizeof(*want));
	while (n--) {
		ck_assert_int_eq(read(rd, &s, sizeof(s)), sizeof(s));
		add_sums(want, &s);
	}
}

/*
 * The grandchildren are reparented to us as a subreaper (_i 0), and we
 * wait for all four; or to init (_i 1), and their sums reach the total
 * as they exit, after their parents were waited for.
 */
START_TEST(inherit_fork_tree)
{
	int subreaper = _i == 0;
	struct vperfctr_control c;
	struct vperfctr_children ch;
	struct perfctr_sum_ctrs want;
	struct files f;
	unsigned int n;
	int fd, rd;

	if (subreaper)
		ck_assert_int_eq(prctl(PR_SET_CHILD_SUBREAPER, 1), 0);
	n = inherit_open(&f, &c);
	fd = open_children(gettid());
	fork_tree(&c, 2, &rd);
	ck_assert_int_eq(wait_all(subreaper ? 4 : 2), 0);
	reports(rd, 4, &want);
	settled(fd, &ch);
	assert_total(&ch, 4, n, &want);
}

/* --- what is, and is not, inherited --- */

static void *status_thread(void *arg)
{
	char *buf = arg;
	int fd = pfs_open(gettid(), "status", O_RDONLY);
	ssize_t len = fd < 0 ? -1 : read(fd, buf, 31);

	buf[len > 0 ? len : 0] = 0;
	if (fd >= 0)
		close(fd);
	return NULL;
}

static void thread_status(char buf[32])
{
	pthread_t t;

	ck_assert_int_eq(pthread_create(&t, NULL, status_thread, buf), 0);
	ck_assert_int_eq(pthread_join(t, NULL), 0);
}

START_TEST(inherit_off_nothing_inherited)
{
	struct vperfctr_control c;
	struct vperfctr_children ch;
	struct files f;
	char buf[32];
	int fd;

	full_control(&c);
	files_open(&f, gettid());
	set_control(f.ctl, &c);
	thread_status(buf);
	ck_assert_str_eq(buf, "none\n");
	fork_has_no_set();
	fd = open_children(gettid());
	ck_assert_int_eq(children_of(fd, &ch), 0);
	ck_assert(is_zero(&ch, sizeof(ch)));
	/* With the flag, the same thread has a set that runs. */
	c.flags = VPERFCTR_CONTROL_INHERIT;
	set_control(f.ctl, &c);
	thread_status(buf);
	ck_assert_str_eq(buf, "running\n");
}

/* An inherited overflow signal would reach programs that never asked. */
START_TEST(inherit_refused_with_imode)
{
	struct vperfctr_control c, got, before;
	struct files f;

	files_open(&f, gettid());
	full_control(&before);
	set_control(f.ctl, &before);
	full_control(&c);
	model->imode(&c.cpu_control, IRESET_FAR);
	c.si_signo = SIGUSR1;
	c.flags = VPERFCTR_CONTROL_INHERIT;
	errno = 0;
	ck_assert_int_eq(put_control(f.ctl, &c), -1);
	ck_assert_int_eq(errno, EINVAL);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &before, CTL_SIZE);
	/* The same without the flag is fine. */
	c.flags = 0;
	set_control(f.ctl, &c);
}

struct blocked {
	const struct vperfctr_control *c;
	int go[2];		/* main -> thread */
	int back[2];		/* thread -> main */
	int status;		/* the thread's status, opened by itself */
	struct perfctr_sum_ctrs s;	/* its sums, final */
	int err;
};

/*
 * After the join: a read of the thread's status waits for its exit to
 * take its final sums (final.c), and so for what the exit adds to a tree.
 */
static void joined(struct blocked *b, pthread_t t)
{
	char buf[32];

	ck_assert_int_eq(pthread_join(t, NULL), 0);
	ck_assert_int_eq(b->err, 0);
	ck_assert_int_gt(pread(b->status, buf, sizeof(buf), 0), 0);
}

static void blocked_pipes(struct blocked *b, const struct vperfctr_control *c)
{
	b->c = c;
	b->err = 0;
	ck_assert_int_eq(pipe(b->go), 0);
	ck_assert_int_eq(pipe(b->back), 0);
}

static void *blocked_thread(void *arg)
{
	struct blocked *b = arg;
	char x;

	b->status = pfs_open(gettid(), "status", O_RDONLY);
	if (write(b->back[1], "s", 1) != 1 || read(b->go[0], &x, 1) != 1)
		b->err = 20;
	else
		b->err = member_work(b->c, &b->s);
	return NULL;
}

/* A new control at the root starts a new total: old members count apart. */
START_TEST(inherit_root_rewrite_starts_new_total)
{
	struct vperfctr_control c;
	struct vperfctr_children ch;
	struct blocked b;
	struct files f;
	pthread_t t;
	char x;
	int fd;

	inherit_open(&f, &c);
	blocked_pipes(&b, &c);
	ck_assert_int_eq(pthread_create(&t, NULL, blocked_thread, &b), 0);
	ck_assert_int_eq(read(b.back[0], &x, 1), 1);
	set_control(f.ctl, &c);
	ck_assert_int_eq(write(b.go[1], "x", 1), 1);
	joined(&b, t);
	fd = open_children(gettid());
	ck_assert_int_eq(children_of(fd, &ch), 0);
	/* The root's own migrations since the new control may be a few. */
	ck_assert_uint_lt(ch.migrations, 100);
	ch.migrations = 0;
	ck_assert(is_zero(&ch, sizeof(ch)));
}

static void *leaving_thread(void *arg)
{
	struct blocked *b = arg;
	struct vperfctr_control c;
	char x;
	int fd;

	b->status = pfs_open(gettid(), "status", O_RDONLY);
	b->err = member_work(b->c, &b->s);
	if (b->err)
		return NULL;
	fd = pfs_open(gettid(), "control", O_WRONLY);
	tsc_control(&c);
	if (fd < 0 || put_control(fd, &c) != CTL_SIZE)
		b->err = 30;
	spin(work());	/* counted by its own new control only */
	if (write(b->back[1], "x", 1) != 1 || read(b->go[0], &x, 1) != 1)
		b->err = 31;
	return NULL;
}

/* A member given a new control leaves the tree with its sums so far. */
START_TEST(inherit_member_leaves_on_new_control)
{
	struct vperfctr_control c;
	struct vperfctr_children ch, later;
	struct blocked b;
	struct files f;
	unsigned int n;
	pthread_t t;
	char x;
	int fd;

	n = inherit_open(&f, &c);
	blocked_pipes(&b, &c);
	ck_assert_int_eq(pthread_create(&t, NULL, leaving_thread, &b), 0);
	ck_assert_int_eq(read(b.back[0], &x, 1), 1);
	fd = open_children(gettid());
	ck_assert_int_eq(children_of(fd, &ch), 0);
	ck_assert_int_eq(b.err, 0);
	assert_total(&ch, 1, n, &b.s);		/* left, still alive */
	ck_assert_int_eq(write(b.go[1], "x", 1), 1);
	joined(&b, t);
	ck_assert_int_eq(children_of(fd, &later), 0);
	/* The root's own migrations are live: the scheduler may move it. */
	ck_assert_uint_ge(later.migrations, ch.migrations);
	later.migrations = ch.migrations;
	ck_assert_mem_eq(&later, &ch, sizeof(ch));	/* its exit adds nothing */
}

/* --- a thousand short-lived children: none lost, nothing leaks --- */

#define MANY	1000

START_TEST(inherit_many_short_children)
{
	struct vperfctr_control c;
	struct vperfctr_children ch;
	unsigned long long t0;
	struct files f;
	unsigned int i;
	int fd, status;
	pid_t pid;

	inherit_open(&f, &c);
	fd = open_children(gettid());
	t0 = rdtsc();
	for (i = 0; i < MANY; i++) {
		pid = fork();
		ck_assert_int_ge(pid, 0);
		if (pid == 0)
			_exit(0);
		ck_assert_int_eq(waitpid(pid, &status, 0), pid);
		ck_assert_int_eq(status, 0);
	}
	fprintf(stderr, "%u inheriting forks in %llu ms\n", MANY,
		(rdtsc() - t0) / ms_ticks(1));
	ck_assert_int_eq(children_of(fd, &ch), 0);
	ck_assert_uint_eq(ch.exited, MANY);
	ck_assert_uint_eq(ch.live, 0);
	ck_assert_uint_eq(ch.lost, 0);
	ck_assert_uint_gt(ch.sums.tsc, 0);
}

/* --- the privilege policy, judged for each member as it is made --- */

/* Forks a child that exits at once; its tree's count afterwards. */
static int fork_one(int fd, struct vperfctr_children *ch)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -1;
	if (pid == 0)
		_exit(0);
	if (waitpid(pid, &status, 0) != pid || status)
		return -1;
	return children_of(fd, ch);
}

/*
 * As nobody, an inheriting set with counters; one child under
 * paranoid 2, which allows it, and one under 3, which does not.
 */
static int policy_kid(int rd, int wr, void *arg)
{
	struct vperfctr_children a, b;
	struct vperfctr_control c;
	struct files f;

	(void)arg;
	if (setgid(NOBODY) || setuid(NOBODY))
		return kid_fail(50);
	full_control(&c);
	c.flags = VPERFCTR_CONTROL_INHERIT;
	if (files_try(&f, gettid()) || put_control(f.ctl, &c) != CTL_SIZE)
		return kid_fail(51);
	f.sums = open_children(gettid());
	if (fork_one(f.sums, &a))
		return kid_fail(52);
	if (write(wr, "r", 1) != 1)
		return kid_fail(53);
	kid_wait_go(rd);			/* paranoid is 3 now */
	if (fork_one(f.sums, &b))
		return kid_fail(54);
	if (write(wr, &a, sizeof(a)) != sizeof(a) ||
	    write(wr, &b, sizeof(b)) != sizeof(b))
		return kid_fail(55);
	return 0;
}

START_TEST(inherit_member_judged_by_policy)
{
	struct vperfctr_children a, b;
	struct kid k;
	char x;

	kid_start(&k, policy_kid, NULL);
	kid_read(&k, &x, 1);
	ck_assert_int_eq(param_put("paranoid", "3"), 0);
	ck_assert_int_eq(write(k.wr, "g", 1), 1);
	kid_read(&k, &a, sizeof(a));
	kid_read(&k, &b, sizeof(b));
	param_put("paranoid", "2");
	kid_done(&k);
	ck_assert_uint_eq(a.exited, 1);
	ck_assert_uint_eq(a.lost, 0);
	ck_assert_uint_eq(b.exited, 1);		/* still the first one only */
	ck_assert_uint_eq(b.lost, 1);
	ck_assert_uint_eq(b.live, 0);
}

static void policy_defaults(void)
{
	param_put("paranoid", "2");
}

void vp_inherit_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "inherit", NULL, NULL);

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, inherit_threads_counted_once);
	tcase_add_loop_test(tc, inherit_fork_tree, 0, 2);
	tcase_add_test(tc, inherit_off_nothing_inherited);
	tcase_add_test(tc, inherit_root_rewrite_starts_new_total);
	tcase_add_test(tc, inherit_member_leaves_on_new_control);
	tcase_add_test(tc, inherit_threads_flag_leaves_processes_out);
	tcase_add_test(tc, inherit_tree_reads_live_members);
	tcase_add_test(tc, inherit_tree_zero_and_refused);
	tcase_add_test(tc, inherit_tree_hides_undumpable);
	tcase_add_test(tc, inherit_counts_migrations);
	if (model)
		tcase_add_test(tc, inherit_refused_with_imode);
	/* Once, on the plain module: the same code runs on every model. */
	if (!model) {
		tc = add_tcase(s, "inherit-many", NULL, NULL);
		tcase_set_timeout(tc, 600);
		tcase_add_test(tc, inherit_many_short_children);
	}
	/* Counters, which paranoid 3 refuses to nobody. */
	if (model) {
		tc = add_tcase(s, "inherit-policy", NULL, policy_defaults);
		tcase_add_test(tc, inherit_member_judged_by_policy);
	}
}
