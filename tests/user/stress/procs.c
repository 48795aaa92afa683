// SPDX-License-Identifier: GPL-2.0-only
/*
 * Processes: an inheriting set's members made by fork(), some of which
 * exec (the set must survive, or go with CLOEXEC) and all of which exit;
 * and a tracer reading and changing a stopped tracee's set at its
 * syscall stops while moving it between CPUs (security-audit.md F1).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "set.h"

/* Exit statuses of a member that exec'd. */
#define EXEC_OK		0
#define EXEC_BAD	1
#define EXEC_ERR	2
#define EXEC_DONE	3	/* exec'd, and its set was right */

/*
 * After the exec: the set's sums are those it had before and more, or,
 * with CLOEXEC, there is no set.
 */
int exec_child(int argc, char **argv)
{
	unsigned long long before;
	struct perfctr_sum_ctrs s;
	int fd, cloexec;

	if (argc != 4)
		return EXEC_ERR;
	before = strtoull(argv[2], NULL, 0);
	cloexec = atoi(argv[3]);
	fd = pfs_open(gettid(), "sums", O_RDONLY);
	if (fd < 0 || pread(fd, &s, sizeof(s), 0) != sizeof(s))
		return EXEC_ERR;
	if (cloexec)
		return is_zero(&s, sizeof(s)) ? EXEC_DONE : EXEC_BAD;
	return s.tsc >= before ? EXEC_DONE : EXEC_BAD;
}

/* A member: counts from its start, checks its set, execs or exits. */
static void member(unsigned long long t_fork, __u32 flags)
{
	char tsc[32], cloexec[4];
	struct vset v;

	if (vset_open(&v))
		_exit(EXEC_ERR);
	/* Its set may be missing: "lost" while global mode holds counters. */
	v.have = 1;
	v.t0 = t_fork;
	spin(rnd(&v.seed, ms_ticks(2)));
	vset_check(&v, "member");
	if (rnd(&v.seed, 3))
		_exit(EXEC_OK);
	snprintf(tsc, sizeof(tsc), "%llu", v.last.tsc);
	snprintf(cloexec, sizeof(cloexec), "%d",
		 !!(flags & VPERFCTR_CONTROL_CLOEXEC));
	execl(self_exe, self_exe, "--exec-child", tsc, cloexec, (char *)NULL);
	_exit(EXEC_ERR);
}

static void reap(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid) {
		unexpected("waitpid");
		return;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) > EXEC_DONE)
		bad("member ended with status 0x%x\n", st);
	else if (WEXITSTATUS(st) == EXEC_DONE)
		count(OP_EXEC);
	else if (WEXITSTATUS(st) == EXEC_BAD)
		bad("a member's set after exec is wrong\n");
	else if (WEXITSTATUS(st) == EXEC_ERR)
		unexpected("member");
}

static int read_children(int fd, struct vperfctr_children *ch)
{
	if (pread(fd, ch, sizeof(*ch), 0) == sizeof(*ch))
		return 0;
	unexpected("children read");
	return -1;
}

/* The root's total only grows, by the members that exit. */
static void check_tree(int fd, struct vperfctr_children *last)
{
	struct vperfctr_children ch;

	if (read_children(fd, &ch))
		return;
	if (ch.exited < last->exited || ch.sums.tsc < last->sums.tsc)
		bad("children went back: %u members %llu ticks < %u %llu\n",
		    ch.exited, ch.sums.tsc, last->exited, last->sums.tsc);
	*last = ch;
}

void role_inherit(void)
{
	struct vperfctr_children last;
	unsigned long long t;
	struct vset v;
	__u32 flags = 0;
	int fd, n = 0;
	pid_t pid;

	if (vset_open(&v))
		return;
	fd = pfs_open(gettid(), "children", O_RDONLY);
	if (fd < 0) {
		unexpected("open children");
		return;
	}
	while (running()) {
		if (!(n++ % 16)) {
			/* A new control ends the tree: the total starts at 0. */
			flags = VPERFCTR_CONTROL_INHERIT;
			if (rnd(&v.seed, 2))
				flags |= VPERFCTR_CONTROL_CLOEXEC;
			vset_control(&v, flags, 0);
			memset(&last, 0, sizeof(last));
		}
		/* As any new control at the root, it ends the tree. */
		if (vset_follow_phase(&v, flags))
			memset(&last, 0, sizeof(last));
		t = rdtsc();
		pid = fork();
		if (pid < 0) {
			unexpected("fork");
			continue;
		}
		if (!pid)
			member(t, flags);
		count(OP_FORK);
		reap(pid);
		count(OP_EXIT);
		vset_check(&v, "inheriting root");
		check_tree(fd, &last);
	}
	close(fd);
	vset_close(&v);
}

/* --- a tracer and its tracee --- */

#define TRACEE_MS	1500	/* each tracee's life */

/* Bumped around the tracee's unlinks: odd while its sums may drop. */
static unsigned int *unlink_gen;

static void tracee_run(void)
{
	unsigned long long t_die = rdtsc() + ms_ticks(TRACEE_MS);
	unsigned int seed = getpid();
	struct vset v;

	if (ptrace(PTRACE_TRACEME, 0, 0, 0) || raise(SIGSTOP))
		_exit(EXEC_ERR);
	if (vset_open(&v))
		_exit(EXEC_ERR);
	/* Preserving: the tracer may have given it a set already. */
	v.have = 1;
	vset_control(&v, 0, 1);
	while (running() && rdtsc() < t_die) {
		vset_follow_phase(&v, 0);
		spin(rnd(&seed, ms_ticks(1)));
		switch (rnd(&seed, 5)) {
		case 0:
			if (!(tracee_ops & 1))
				break;
			__atomic_fetch_add(unlink_gen, 1, __ATOMIC_SEQ_CST);
			if (put_command(v.cmd, VPERFCTR_CMD_UNLINK) != 4 &&
			    errno != ENODATA)
				unexpected("tracee unlink");
			__atomic_fetch_add(unlink_gen, 1, __ATOMIC_SEQ_CST);
			break;
		case 1:
			if (!(tracee_ops & 2))
				break;
			if (put_command(v.cmd, VPERFCTR_CMD_SUSPEND) != 4 &&
			    errno != ENODATA)
				unexpected("tracee suspend");
			break;
		case 2:
			if (!(tracee_ops & 2))
				break;
			if (put_command(v.cmd, VPERFCTR_CMD_RESUME) != 4 &&
			    errno != ENODATA)
				unexpected("tracee resume");
			break;
		default:
			/* Preserving, after the tracer's changes too. */
			if (!(tracee_ops & 4)) {
				getppid();
				break;
			}
			v.have = 1;
			vset_control(&v, 0, 1);
			break;
		}
	}
	_exit(EXEC_OK);
}

struct traced {
	pid_t pid;
	struct files f;
	struct perfctr_sum_ctrs last;
	unsigned int gen;
	unsigned long long t0;
	unsigned int seed;
};

/* The tracee's CPU time so far, in TSC ticks. */
static unsigned long long tracee_cpu(struct traced *t)
{
	struct timespec ts;
	clockid_t clk;

	if (clock_getcpuclockid(t->pid, &clk) || clock_gettime(clk, &ts)) {
		unexpected("tracee CPU clock");
		return ~0ULL / 4;
	}
	return (ts.tv_sec * 1000000000ULL + ts.tv_nsec) * khz / 1000000;
}

/* At a stop: the tracee's sums, read and checked by its tracer. */
static void tracer_read(struct traced *t)
{
	unsigned int gen = __atomic_load_n(unlink_gen, __ATOMIC_SEQ_CST);
	struct perfctr_sum_ctrs s;
	unsigned long long cpu;
	unsigned int i;

	if (pread(t->f.sums, &s, sizeof(s), 0) != sizeof(s)) {
		unexpected("tracer sums read");
		return;
	}
	count(OP_TRACE_READ);
	if (s.tsc > rdtsc() - t->t0)
		bad("tracee: tsc sum %llu beyond its life\n", s.tsc);
	cpu = tracee_cpu(t);
	if (s.tsc > cpu)
		note_excess(s.tsc - cpu);
	if (s.tsc > cpu + cpu / 2 + ms_ticks(CPU_SLACK_MS))
		bad("tracee: tsc %llu > its CPU time %llu\n", s.tsc, cpu);
	for (i = 0; i < 2; i++)
		if (s.pmc[i] > cpu + cpu / 2 + ms_ticks(CPU_SLACK_MS))
			bad("tracee: pmc[%u] %llu > its CPU time %llu\n", i,
			    s.pmc[i], cpu);
	if (gen == t->gen && !(gen & 1) &&
	    (s.tsc < t->last.tsc || s.pmc[0] < t->last.pmc[0] ||
	     s.pmc[1] < t->last.pmc[1]))
		bad("tracee: sums went back (tsc %llu < %llu)\n", s.tsc,
		    t->last.tsc);
	t->gen = gen;
	t->last = s;
}

/* At a stop: a preserving control for the tracee, which may have none. */
static void tracer_control(struct traced *t)
{
	struct vperfctr_control c;

	tsc_control(&c);
	c.preserve = VPERFCTR_PRESERVE_TSC | 3;
	if (model && phase_for_counters())
		model->amode(&c.cpu_control);
	if (put_control(t->f.ctl, &c) == CTL_SIZE)
		count(OP_TRACE_CTL);
	else if (errno == EBUSY)
		count(OP_TRACE_BUSY);	/* not yet switched out; global */
	else
		unexpected("tracer control");
}

static void tracer_move(struct traced *t)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(rnd(&t->seed, ncpus > 1 ? 2 : 1), &set);
	if (sched_setaffinity(t->pid, sizeof(set), &set) && errno != EINVAL)
		unexpected("move tracee");
	else
		count(OP_AFFINITY);
}

/* The stops until the tracee exits. */
static void trace_loop(struct traced *t)
{
	int st, sig;

	for (;;) {
		if (waitpid(t->pid, &st, 0) != t->pid) {
			unexpected("waitpid tracee");
			return;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st))
			break;
		count(OP_TRACE_STOP);
		tracer_read(t);
		if (tracer_controls && !rnd(&t->seed, 3))
			tracer_control(t);
		if (!rnd(&t->seed, 2))
			tracer_move(t);
		sig = WSTOPSIG(st);
		if (sig == (SIGTRAP | 0x80) || sig == SIGSTOP)
			sig = 0;
		ptrace(PTRACE_SYSCALL, t->pid, 0, sig);
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != EXEC_OK)
		bad("tracee ended with status 0x%x\n", st);
	count(OP_EXIT);
}

static int trace_start(struct traced *t)
{
	int st;

	if (waitpid(t->pid, &st, 0) != t->pid || !WIFSTOPPED(st) ||
	    ptrace(PTRACE_SETOPTIONS, t->pid, 0, PTRACE_O_TRACESYSGOOD |
		   PTRACE_O_EXITKILL)) {
		unexpected("ptrace start");
		return -1;
	}
	if (files_try(&t->f, t->pid)) {
		unexpected("tracer open");
		return -1;
	}
	return ptrace(PTRACE_SYSCALL, t->pid, 0, 0);
}

void role_tracer(void)
{
	struct traced t;

	unlink_gen = mmap(NULL, page_size(), PROT_READ | PROT_WRITE,
			  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (unlink_gen == MAP_FAILED) {
		unexpected("mmap");
		return;
	}
	while (running()) {
		memset(&t, 0, sizeof(t));
		t.seed = getpid();
		t.t0 = rdtsc();
		t.pid = fork();
		if (!t.pid)
			tracee_run();
		if (t.pid < 0 || trace_start(&t)) {
			unexpected("tracee");
			return;
		}
		trace_loop(&t);
		close(t.f.ctl);
		close(t.f.sums);
		close(t.f.cmd);
	}
}
