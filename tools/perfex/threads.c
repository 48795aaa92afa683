// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex --per-thread of a command (perfex.rst, "Per thread"): a row per
 * thread of the command's tree. The module folds a member's sums into
 * its tree's total as it exits, nameless; so perfex traces the command
 * (PTRACE_SEIZE, following clone(), fork() and vfork()) and, at each
 * thread's exit stop, before the module folds it, reads that thread's
 * own sums, which its tracer may, and which are exact while it is
 * stopped. Nothing else stops: no system call is traced, and signals
 * go on to the thread they were for. Group stops are left to the
 * thread's real parent (PTRACE_LISTEN).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "perfex.h"

/* If perfex dies, the command goes on, untraced: no PTRACE_O_EXITKILL. */
#define TRACE_OPTS	(PTRACE_O_TRACECLONE | PTRACE_O_TRACEFORK | \
			 PTRACE_O_TRACEVFORK | PTRACE_O_TRACEEXIT)

/* Before the command runs: perfex traces it, and what it makes. */
int threads_seize(pid_t pid)
{
	if (!ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)TRACE_OPTS))
		return 0;
	fprintf(stderr,
		"perfex: --per-thread traces the command and cannot (%s): perfex may be traced itself, or ptrace is restricted (kernel.yama.ptrace_scope); count without --per-thread\n",
		strerror(errno));
	return -1;
}

/* A new, zeroed row of @t; NULL without memory, counted as lost. */
struct thread_row *thread_row_new(struct thread_rows *t)
{
	struct thread_row *r;

	if (t->n == t->cap) {
		unsigned int cap = t->cap ? 2 * t->cap : 64;
		struct thread_row *v = realloc(t->v, cap * sizeof(*v));

		if (!v) {
			t->lost++;
			return NULL;
		}
		t->v = v;
		t->cap = cap;
	}
	r = &t->v[t->n++];
	memset(r, 0, sizeof(*r));
	return r;
}

/* A file of /proc/@tid/ into @buf, its newline dropped; "" if none. */
static void proc_text(pid_t tid, const char *name, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)tid, name);
	buf[0] = '\0';
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, size - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/*
 * The exit stop of @tid: its own final sums, as its tracer reads them.
 * Without memory for its row, it goes uncounted (t->lost): a tracee is
 * never left stopped.
 */
static void thread_exiting(pid_t tid, struct thread_rows *t)
{
	struct thread_row *r = thread_row_new(t);
	char path[64];
	ssize_t n = -1;
	int fd;

	if (!r)
		return;
	r->tid = tid;
	proc_text(tid, "comm", r->comm, sizeof(r->comm));
	snprintf(path, sizeof(path), "%s/%d/sums", PERFCTR_ROOT, (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = pread(fd, &r->s, sizeof(r->s), 0);
		close(fd);
	}
	/* No set (removed at exec, or never made): counted nowhere. */
	r->counted = n == (ssize_t)sizeof(r->s) && r->s.tsc;
}

/* A ptrace stop of @tid: what it was, and the thread let go on. */
static void thread_stopped(pid_t tid, int status, struct thread_rows *t)
{
	int sig = WSTOPSIG(status), event = (unsigned int)status >> 16;

	switch (event) {
	case PTRACE_EVENT_EXIT:
		thread_exiting(tid, t);
		sig = 0;
		break;
	case PTRACE_EVENT_STOP:
		/*
		 * A group stop says its stop signal: left stopped, as without
		 * perfex, until a SIGCONT. Any other (SIGTRAP) is a new
		 * tracee's first stop, or the one after a SIGCONT: go on.
		 */
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN ||
		    sig == SIGTTOU) {
			ptrace(PTRACE_LISTEN, tid, NULL, NULL);
			return;
		}
		sig = 0;
		break;
	case 0:
		break;		/* a signal on its way: deliver it */
	default:
		sig = 0;	/* clone, fork, vfork: followed already */
	}
	ptrace(PTRACE_CONT, tid, NULL, (void *)(long)sig);
}

/*
 * Follows the command @pid and everything it makes until the command
 * has exited: its status and rusage (its tree's), each thread's row.
 * What it left running (a daemon) is no longer followed: perfex's exit
 * detaches it, and its counts are the totals' note of those still
 * running.
 */
int threads_follow(pid_t pid, int *status, struct rusage *ru,
		   struct thread_rows *t)
{
	struct rusage r;
	int st;
	pid_t w;

	for (;;) {
		w = wait4(-1, &st, __WALL, &r);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (WIFSTOPPED(st)) {
			thread_stopped(w, st, t);
			continue;
		}
		if (w == pid) {
			*status = st;
			*ru = r;
			return 0;
		}
	}
}
