// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex -p PID[,PID...] and -t TID[,TID...]: counting threads that
 * already run (perfex.rst, "Attaching"). A counter set is given to a
 * thread by its ptrace tracer while it is stopped (virtual.rst), so
 * perfex stops every thread with PTRACE_SEIZE and PTRACE_INTERRUPT,
 * writes each an inheriting control and lets it go again at once: the
 * threads then run untraced, and the threads they make inherit the set.
 * At the end perfex stops them again, reads every set of its own, removes
 * it (VPERFCTR_CMD_UNLINK) and lets them go: they run on without a set.
 * A thread that has a set already (its own, another tool's) is named and
 * left alone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfex.h"

#define MAX_THREADS	4096
#define POLL_NS		(50 * 1000 * 1000)

struct thread {
	pid_t tid, tgid;
	struct vperfctr *vp;	/* our set's files, NULL: not ours */
	int root;		/* perfex gave it the control (not inherited) */
	int stopped;		/* under our ptrace, stopped */
	int gone;		/* exited, or a zombie */
	int other;		/* there at the start, not a target (-t) */
	int skipped;		/* had a set of its own at the start */
};

struct attach {
	struct thread t[MAX_THREADS];
	unsigned int n;
	pid_t tgids[64];	/* the processes, for their new threads */
	unsigned int ntgids;
};

/* --- the threads --- */

static struct thread *find(struct attach *a, pid_t tid)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		if (a->t[i].tid == tid)
			return &a->t[i];
	return NULL;
}

static struct thread *add(struct attach *a, pid_t tid, pid_t tgid)
{
	struct thread *t = find(a, tid);

	if (t || a->n == MAX_THREADS)
		return t;
	t = &a->t[a->n++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tgid;
	return t;
}

/* The thread group @tid belongs to, from /proc; 0 if it is gone. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], line[128];
	pid_t tgid = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Tgid: %d", &tgid) == 1)
			break;
	fclose(f);
	return tgid;
}

/* The live threads of process @tgid, added; how many are new. */
static int add_threads(struct attach *a, pid_t tgid)
{
	char path[64];
	struct dirent *d;
	unsigned int before = a->n;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)tgid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir)))
		if (d->d_name[0] != '.')
			add(a, atoi(d->d_name), tgid);
	closedir(dir);
	return a->n - before;
}

/* --- ptrace --- */

/*
 * Stops @t under our ptrace: 0, or -1 with errno (ESRCH: it is gone,
 * which the caller takes as an exit).
 */
static int stop(struct thread *t)
{
	int status;

	if (t->stopped)
		return 0;
	if (ptrace(PTRACE_SEIZE, t->tid, NULL, NULL) ||
	    ptrace(PTRACE_INTERRUPT, t->tid, NULL, NULL))
		return -1;
	for (;;) {
		if (waitpid(t->tid, &status, __WALL) < 0)
			return -1;
		if (WIFEXITED(status) || WIFSIGNALED(status)) {
			errno = ESRCH;
			return -1;
		}
		/* A signal stop first: pass it on, and wait for ours. */
		if (WIFSTOPPED(status) && (status >> 16) != PTRACE_EVENT_STOP) {
			ptrace(PTRACE_CONT, t->tid, NULL,
			       (void *)(long)WSTOPSIG(status));
			continue;
		}
		t->stopped = 1;
		return 0;
	}
}

static void let_go(struct thread *t)
{
	if (t->stopped)
		ptrace(PTRACE_DETACH, t->tid, NULL, NULL);
	t->stopped = 0;
}

/* --- the sets --- */

/*
 * A stopped tracee's control is written once it is off its CPU (EBUSY
 * until then, virtual.rst).
 */
static int write_control(struct vperfctr *vp, const struct vperfctr_control *c)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	for (i = 0; i < 1000; i++) {
		if (!vperfctr_control(vp, c))
			return 0;
		if (errno != EBUSY)
			return -1;
		nanosleep(&ms, NULL);
	}
	return -1;
}

static void attach_refused(pid_t tid, int err)
{
	const char *why = perfctr_explain(err);

	if (err == EPERM || err == EACCES)
		fprintf(stderr,
			"perfex: cannot attach to thread %d: %s; attaching needs ptrace's permission over it: the same user where kernel.yama.ptrace_scope is 0, or CAP_SYS_PTRACE\n",
			(int)tid, strerror(err));
	else
		fprintf(stderr, "perfex: cannot count thread %d: %s%s%s\n",
			(int)tid, strerror(err), why ? "; " : "",
			why ? why : "");
}

/* Gives stopped @t our control, unless it has a set: 0 or -1. */
static int give_set(struct thread *t, const struct plan *p)
{
	char status[64];

	t->vp = vperfctr_open_tid(t->tid);
	if (!t->vp)
		return -1;
	if (vperfctr_read_status(t->vp, status, sizeof(status)))
		goto fail;
	if (strcmp(status, "none")) {
		fprintf(stderr,
			"perfex: note: thread %d has a counter set of its own already (%s): perfex leaves it alone, and does not count that thread\n",
			(int)t->tid, status);
		vperfctr_close(t->vp);
		t->vp = NULL;
		t->skipped = 1;
		return 0;
	}
	if (write_control(t->vp, &p->ctl))
		goto fail;
	t->root = 1;
	return 0;
fail:
	vperfctr_close(t->vp);
	t->vp = NULL;
	return -1;
}

/* Whether @tid is gone or a zombie: no longer a thread to stop. */
static int dead(pid_t tid)
{
	char path[64], buf[256], *s;
	FILE *f;
	int zombie = 1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return 1;
	if (fgets(buf, sizeof(buf), f)) {
		s = strrchr(buf, ')');
		zombie = s && (s[2] == 'Z' || s[2] == 'X');
	}
	fclose(f);
	return zombie;
}

/*
 * Stops every thread of @a, and with @whole every new thread of its
 * processes, until none is new; a thread gone meanwhile is skipped.
 * 0, or -1 having said why a thread could not be stopped.
 */
static int stop_all(struct attach *a, int whole)
{
	unsigned int i, g;
	int more;

	do {
		more = 0;
		for (g = 0; whole && g < a->ntgids; g++)
			more |= add_threads(a, a->tgids[g]) > 0;
		for (i = 0; i < a->n; i++) {
			struct thread *t = &a->t[i];

			if (t->stopped || t->gone || !stop(t))
				continue;
			if (errno == ESRCH || dead(t->tid)) {
				t->gone = 1;
				continue;
			}
			attach_refused(t->tid, errno);
			return -1;
		}
	} while (more);
	return 0;
}

static void let_all_go(struct attach *a)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		let_go(&a->t[i]);
}

/* --- the targets --- */

static int add_tgid(struct attach *a, pid_t tgid)
{
	unsigned int g;

	for (g = 0; g < a->ntgids; g++)
		if (a->tgids[g] == tgid)
			return 0;
	if (a->ntgids == sizeof(a->tgids) / sizeof(*a->tgids))
		return -1;
	a->tgids[a->ntgids++] = tgid;
	return 0;
}

/* -p's or -t's list into @a: 0, or EX_USAGE / EX_FAIL having said why. */
static int targets(struct attach *a, const char *list, int threads)
{
	const char *s = list;
	char *end;
	long id;
	pid_t tgid;

	for (;;) {
		errno = 0;
		id = strtol(s, &end, 10);
		if (end == s || errno || id <= 0 || (*end && *end != ',')) {
			fprintf(stderr,
				"perfex: -%c %s: want %s ids separated by commas, e.g. -%c 1234,1240\n",
				threads ? 't' : 'p', list,
				threads ? "thread" : "process", threads ? 't' : 'p');
			return EX_USAGE;
		}
		tgid = tgid_of(id);
		if (!tgid || (!threads && tgid != id)) {
			fprintf(stderr,
				"perfex: -%c %ld: no such %s (ps -e%s lists them)\n",
				threads ? 't' : 'p', id,
				threads ? "thread" : "process", threads ? "L" : "");
			return EX_FAIL;
		}
		if (add_tgid(a, tgid) || (threads && !add(a, id, tgid)) ||
		    (!threads && !add_threads(a, tgid))) {
			fprintf(stderr, "perfex: too many threads to count\n");
			return EX_FAIL;
		}
		if (!*end)
			return 0;
		s = end + 1;
	}
}

/* --- the window --- */

struct att_run {
	struct attach a;
	const struct opts *o;
	const struct plan *p;
	struct counts c;
};

/* The threads of -t's processes that are not targets, known as such. */
static void mark_others(struct attach *a)
{
	unsigned int n = a->n, g, i;

	for (g = 0; g < a->ntgids; g++)
		add_threads(a, a->tgids[g]);
	for (i = n; i < a->n; i++)
		a->t[i].other = 1;
}

static int att_begin(void *arg)
{
	struct att_run *r = arg;
	struct attach *a = &r->a;
	unsigned int i, roots = 0;

	if (r->o->thread_list)
		mark_others(a);
	if (stop_all(a, !r->o->thread_list))
		goto fail;
	for (i = 0; i < a->n; i++) {
		if (!a->t[i].stopped || a->t[i].other)
			continue;
		if (give_set(&a->t[i], r->p)) {
			attach_refused(a->t[i].tid, errno);
			goto fail;
		}
		roots += a->t[i].root;
	}
	let_all_go(a);
	if (roots)
		return 0;
	fprintf(stderr, "perfex: no thread left to count\n");
	return EX_FAIL;
fail:
	for (i = 0; i < a->n; i++)
		if (a->t[i].root && !a->t[i].gone)
			vperfctr_unlink(a->t[i].vp);
	let_all_go(a);
	return EX_FAIL;
}

/* The window ends by itself once every thread counted has exited. */
static int att_tick(void *arg)
{
	struct att_run *r = arg;
	char status[64];
	unsigned int i;

	for (i = 0; i < r->a.n; i++)
		if (r->a.t[i].root &&
		    (vperfctr_read_status(r->a.t[i].vp, status, sizeof(status)) ||
		     strcmp(status, "exited")))
			return 0;
	return 1;
}

/* Whether stopped @t, made during the window, has our control. */
static int is_member(struct thread *t, const struct plan *p)
{
	struct vperfctr_control ctl;

	if (t->root || t->other || t->skipped || !t->stopped)
		return 0;
	t->vp = vperfctr_open_tid(t->tid);
	if (t->vp && !vperfctr_read_control(t->vp, &ctl) &&
	    !memcmp(&ctl.cpu_control, &p->ctl.cpu_control, sizeof(ctl.cpu_control)))
		return 1;
	vperfctr_close(t->vp);
	t->vp = NULL;
	return 0;
}

/* @t's counts into the total: a root's tree's exited members too. */
static int add_counts(struct att_run *r, struct thread *t)
{
	struct vperfctr_children ch;
	struct perfctr_sum_ctrs s;
	unsigned int i, k;

	memset(&ch, 0, sizeof(ch));
	if (vperfctr_read_sums(t->vp, &s) ||
	    (t->root && vperfctr_read_children(t->vp, &ch)))
		return -1;
	r->c.tsc += s.tsc + ch.sums.tsc;
	for (i = 0; i < r->p->set.nr && r->p->counted; i++) {
		k = r->p->set.ev[i].counter;
		r->c.ev[i] += s.pmc[k] + ch.sums.pmc[k];
	}
	return 0;
}

/*
 * Stops every live thread, reads every set of ours (the roots' final
 * counts where they exited), then removes the live ones and lets all go.
 */
static int att_end(void *arg)
{
	struct att_run *r = arg;
	struct attach *a = &r->a;
	unsigned int i;
	int ret = 0;

	if (stop_all(a, 1))
		ret = EX_FAIL;
	for (i = 0; i < a->n; i++) {
		struct thread *t = &a->t[i];

		if ((t->root || is_member(t, r->p)) && add_counts(r, t)) {
			fprintf(stderr, "perfex: cannot read thread %d's counts: %s\n",
				(int)t->tid, strerror(errno));
			ret = EX_FAIL;
		}
	}
	for (i = 0; i < a->n; i++) {
		if (a->t[i].vp && a->t[i].stopped)
			vperfctr_unlink(a->t[i].vp);
		vperfctr_close(a->t[i].vp);
		a->t[i].vp = NULL;
	}
	let_all_go(a);
	return ret;
}

static const struct window_ops att_ops = {
	.begin = att_begin, .tick = att_tick, .end = att_end,
};

/* Counting -p's or -t's threads: 0 or perfex's exit status, else the command's. */
int attach_count(const struct opts *o, struct plan *p, FILE *out)
{
	struct stats s = { 0 };
	struct att_run *r = calloc(1, sizeof(*r));
	int ret, status = 0, threads = !!o->thread_list;
	unsigned int k;

	if (!r) {
		fprintf(stderr, "perfex: out of memory\n");
		return EX_FAIL;
	}
	r->o = o;
	r->p = p;
	ret = targets(&r->a, threads ? o->thread_list : o->pid_list, threads);
	if (!ret) {
		snprintf(p->title, sizeof(p->title), "%s id '%s'",
			 threads ? "thread" : "process",
			 threads ? o->thread_list : o->pid_list);
		ret = count_window(o->cmd, &status, &r->c.elapsed, &att_ops, r);
	}
	if (!ret) {
		for (k = 0; k < SW_NR; k++)	/* no software rows */
			r->c.sw[k] = NAN;
		stats_add(&s, p, &r->c);
		print_stats(out, o, p, &s);
	}
	free(r);
	if (ret)
		return ret;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
