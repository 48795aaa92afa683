// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex -p PID[,PID...] and -t TID[,TID...]: counting threads that
 * already run (perfex.rst, "Attaching"). A counter set is given to a
 * thread by its ptrace tracer while it is stopped (virtual.rst), so
 * perfex stops every thread with PTRACE_SEIZE and PTRACE_INTERRUPT,
 * writes each a control that its new threads inherit (not the processes
 * it forks: VPERFCTR_CONTROL_THREADS) and lets it go again at once: the
 * threads then run untraced. At the end perfex stops them again, reads
 * every set that carries this run's label, removes it and lets them go.
 * A set without the label (its own, another tool's) is named and left
 * alone.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfex.h"

#define MAX_THREADS	4096
#define STOP_MS		2000	/* a thread not stopped by then is named */
#define FILES_PER_ROOT	2	/* sums and children, for its final counts */

struct thread {
	pid_t tid, tgid;
	unsigned long long start;	/* /proc's starttime: the same thread */
	int sums_fd, ch_fd;	/* a root's, kept for its final counts */
	unsigned char root;	/* perfex wrote its control (not inherited) */
	unsigned char seized;	/* under our ptrace */
	unsigned char stopped;	/* and stopped in a ptrace stop */
	unsigned char gone;	/* exited, or its tid is another's now */
	unsigned char other;	/* there at the start, not a target (-t) */
	unsigned char skipped;	/* had a set of its own at the start */
	unsigned char ours;	/* at the end: carries our label */
	int err;		/* why it could not be stopped at the end */
	char comm[16];		/* its name when perfex first saw it */
	double asked;		/* when PTRACE_INTERRUPT was sent, in ms */
};

struct attach {
	struct thread t[MAX_THREADS];
	unsigned int n;
	pid_t tgids[64];	/* the processes, for their new threads */
	unsigned int ntgids;
	struct vperfctr_control ctl;	/* what perfex writes */
	int threads;			/* -t */
	int full;			/* a thread not added: MAX_THREADS */
};

/* --- /proc --- */

/*
 * @tid of @tgid as /proc has it now: 1 with its starttime, 0 if it is
 * gone, a zombie, or not of @tgid (the path says which process).
 */
static int thread_now(pid_t tgid, pid_t tid, unsigned long long *start)
{
	char path[64], buf[512], *s;
	int fd, i;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)tgid,
		 (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	s = strrchr(buf, ')');	/* the name may hold anything */
	if (!s || !s[1] || s[2] == 'Z' || s[2] == 'X')
		return 0;
	for (i = 0, s += 2; i < 19 && s; i++) {	/* field 3 to field 22 */
		s = strchr(s, ' ');
		s = s ? s + 1 : NULL;
	}
	if (!s)
		return 0;
	*start = strtoull(s, NULL, 10);
	return 1;
}

/* Whether @t is still the thread it was when perfex first saw it. */
static int same_thread(const struct thread *t)
{
	unsigned long long start;

	return thread_now(t->tgid, t->tid, &start) && start == t->start;
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

/* --- the threads --- */

/* --per-thread's label: the name /proc gives the thread, or "?". */
static void thread_comm(struct thread *t)
{
	char path[64];
	ssize_t n = -1;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)t->tgid,
		 (int)t->tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, t->comm, sizeof(t->comm) - 1);
		close(fd);
	}
	t->comm[n > 0 ? n : 0] = '\0';
	t->comm[strcspn(t->comm, "\n")] = '\0';
	if (!t->comm[0])
		snprintf(t->comm, sizeof(t->comm), "?");
}

/* A tid reused after an exit is another thread: the start tells. */
static struct thread *find(struct attach *a, pid_t tid,
			   unsigned long long start)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		if (a->t[i].tid == tid && a->t[i].start == start)
			return &a->t[i];
	return NULL;
}

/* @tid of @tgid, known from now on; NULL if it is gone or too many. */
static struct thread *add(struct attach *a, pid_t tid, pid_t tgid)
{
	unsigned long long start;
	struct thread *t;

	if (!thread_now(tgid, tid, &start))
		return NULL;
	t = find(a, tid, start);
	if (t)
		return t;
	a->full |= a->n == MAX_THREADS;
	if (a->n == MAX_THREADS)
		return NULL;
	t = &a->t[a->n++];
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->tgid = tgid;
	t->start = start;
	t->sums_fd = -1;
	t->ch_fd = -1;
	thread_comm(t);
	return t;
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

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

/*
 * One wait on seized @t, without blocking: 1 once it is in our stop, 0
 * not yet, -1 with ESRCH once it is gone. A signal that stops it first
 * is passed on: ours comes after it (PTRACE_INTERRUPT is kept).
 */
static int stop_poll(struct thread *t)
{
	int status;
	pid_t w = waitpid(t->tid, &status, WNOHANG | __WALL);

	if (w == 0)
		return 0;
	if (w < 0 || WIFEXITED(status) || WIFSIGNALED(status)) {
		t->seized = 0;
		errno = ESRCH;
		return -1;
	}
	if ((status >> 16) != PTRACE_EVENT_STOP) {
		ptrace(PTRACE_CONT, t->tid, NULL,
		       (void *)(long)WSTOPSIG(status));
		return 0;
	}
	t->stopped = 1;
	return 1;
}

/*
 * Seizes @t and waits until @deadline (ms) for it to stop: 0 stopped,
 * 1 seized but not stopped yet (in the kernel, uninterruptible: the
 * caller looks again), or -1 with errno. A refused PTRACE_INTERRUPT
 * lets go of the seize at once.
 */
static int stop(struct thread *t, double deadline)
{
	struct timespec ms = { 0, 1000000 };
	int err, ret;

	if (t->stopped)
		return 0;
	if (!t->seized) {
		if (ptrace(PTRACE_SEIZE, t->tid, NULL, NULL))
			return -1;
		t->seized = 1;
		t->asked = now_ms();
		if (ptrace(PTRACE_INTERRUPT, t->tid, NULL, NULL)) {
			err = errno;
			ptrace(PTRACE_DETACH, t->tid, NULL, NULL);
			t->seized = 0;
			errno = err;
			return -1;
		}
	}
	while (!(ret = stop_poll(t)) && now_ms() < deadline)
		nanosleep(&ms, NULL);
	return ret < 0 ? -1 : !ret;
}

/* Lets @t go: it runs on untraced, as before (a group stop stays). */
static void let_go(struct thread *t)
{
	if (t->stopped)
		ptrace(PTRACE_DETACH, t->tid, NULL, NULL);
	t->stopped = 0;
	t->seized = 0;
}

static void let_all_go(struct attach *a)
{
	unsigned int i;

	for (i = 0; i < a->n; i++)
		let_go(&a->t[i]);
}

/* --- the files of a thread's set (virtual.rst) --- */

static int vfile_open(pid_t tid, const char *name, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), PERFCTR_ROOT "/%d/%s", (int)tid, name);
	return open(path, flags | O_CLOEXEC);
}

/* One whole record at offset 0: 0, or -1 with errno. */
static int vfile_io(pid_t tid, const char *name, void *buf, size_t size,
		    int write)
{
	int fd = vfile_open(tid, name, write ? O_WRONLY : O_RDONLY);
	ssize_t n;
	int err;

	if (fd < 0)
		return -1;
	n = write ? pwrite(fd, buf, size, 0) : pread(fd, buf, size, 0);
	err = errno;
	close(fd);
	errno = n < 0 ? err : EIO;
	return n == (ssize_t)size ? 0 : -1;
}

static int read_record(int fd, void *buf, size_t size)
{
	ssize_t n = pread(fd, buf, size, 0);

	if (n >= 0 && n != (ssize_t)size)
		errno = EIO;
	return n == (ssize_t)size ? 0 : -1;
}

/* Whether @tid's set carries @label: 1, 0, or -1 where it cannot tell. */
static int has_label(pid_t tid, __u32 label)
{
	struct vperfctr_control c;

	memset(&c, 0, sizeof(c));
	if (vfile_io(tid, "control", &c, sizeof(c), 0))
		return -1;
	return c.label == label;
}

static int unlink_set(pid_t tid)
{
	__u32 cmd = VPERFCTR_CMD_UNLINK;

	return vfile_io(tid, "command", &cmd, sizeof(cmd), 1);
}

static void close_files(struct thread *t)
{
	if (t->sums_fd >= 0)
		close(t->sums_fd);
	if (t->ch_fd >= 0)
		close(t->ch_fd);
	t->sums_fd = -1;
	t->ch_fd = -1;
}

static void files_refused(const struct thread *t, int err)
{
	if (err == EMFILE || err == ENFILE)
		fprintf(stderr,
			"perfex: cannot open thread %d's counter files: %s; perfex keeps %d open per thread it counts: raise RLIMIT_NOFILE (ulimit -n), or perfctr.files_per_user, or count fewer threads\n",
			(int)t->tid, strerror(err), FILES_PER_ROOT);
	else
		fprintf(stderr,
			"perfex: cannot open thread %d's counter files: %s; try again, or leave that thread out\n",
			(int)t->tid, strerror(err));
}

/*
 * The files that read a root's final counts once it has exited: opened
 * while perfex traces it, since after it lets go only CAP_SYS_PTRACE
 * may open them (virtual.rst, "Opening a thread's file").
 */
static int open_files(struct thread *t)
{
	t->sums_fd = vfile_open(t->tid, "sums", O_RDONLY);
	if (t->sums_fd >= 0)
		t->ch_fd = vfile_open(t->tid, "children", O_RDONLY);
	if (t->ch_fd >= 0)
		return 0;
	files_refused(t, errno);
	close_files(t);
	return -1;
}

/* Room for the files of @n roots: raised as far as the hard limit. */
static int files_room(unsigned int n)
{
	rlim_t need = (rlim_t)n * FILES_PER_ROOT + 64;
	struct rlimit r;

	if (getrlimit(RLIMIT_NOFILE, &r) || r.rlim_cur >= need)
		return 0;
	if (r.rlim_max != RLIM_INFINITY && r.rlim_max < need) {
		fprintf(stderr,
			"perfex: %u threads need %llu open files, above RLIMIT_NOFILE's hard limit %llu: raise it (ulimit -Hn, as root), or count fewer threads\n",
			n, (unsigned long long)need,
			(unsigned long long)r.rlim_max);
		return -1;
	}
	r.rlim_cur = need;
	return setrlimit(RLIMIT_NOFILE, &r) ? -1 : 0;
}

/*
 * A stopped tracee's control is written once it is off its CPU (EBUSY
 * until then, virtual.rst).
 */
static int write_control(pid_t tid, const struct vperfctr_control *c)
{
	struct timespec ms = { 0, 1000000 };
	struct vperfctr_control w = *c;
	int i;

	for (i = 0; i < 1000; i++) {
		if (!vfile_io(tid, "control", &w, sizeof(w), 1))
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
			"perfex: cannot attach to thread %d: %s; attaching needs ptrace's permission over it (the same user where kernel.yama.ptrace_scope is 0, or CAP_SYS_PTRACE), and perfctr.paranoid's over what is counted (security.rst)\n",
			(int)tid, strerror(err));
	else
		fprintf(stderr, "perfex: cannot count thread %d: %s%s%s\n",
			(int)tid, strerror(err), why ? "; " : "",
			why ? why : "");
}

/* Gives stopped @t our control, unless it has a set: 0 or -1. */
static int give_set(struct attach *a, struct thread *t)
{
	char status[64];
	ssize_t n;
	int fd;

	fd = vfile_open(t->tid, "status", O_RDONLY);
	n = fd < 0 ? -1 : pread(fd, status, sizeof(status) - 1, 0);
	if (fd >= 0)
		close(fd);
	if (n < 0) {
		attach_refused(t->tid, errno);
		return -1;
	}
	status[n] = 0;
	status[strcspn(status, "\n")] = 0;
	if (strcmp(status, "none")) {
		fprintf(stderr,
			"perfex: note: thread %d has a counter set of its own already (%s): perfex leaves it alone, and does not count that thread\n",
			(int)t->tid, status);
		t->skipped = 1;
		return 0;
	}
	if (open_files(t))
		return -1;
	if (write_control(t->tid, &a->ctl)) {
		attach_refused(t->tid, errno);
		close_files(t);
		return -1;
	}
	t->root = 1;
	return 0;
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

static void no_such(int threads, long id)
{
	fprintf(stderr, "perfex: -%c %ld: no such %s (ps -e%s lists them)\n",
		threads ? 't' : 'p', id, threads ? "thread" : "process",
		threads ? "L" : "");
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
		if (end == s || errno || id <= 0 || id > 0x7fffffff ||
		    (*end && *end != ',')) {
			fprintf(stderr,
				"perfex: -%c %s: want %s ids separated by commas, e.g. -%c 1234,1240\n",
				threads ? 't' : 'p', list,
				threads ? "thread" : "process", threads ? 't' : 'p');
			return EX_USAGE;
		}
		tgid = tgid_of(id);
		if (!tgid || (!threads && tgid != id)) {
			no_such(threads, id);
			return EX_FAIL;
		}
		if (add_tgid(a, tgid) || (threads && !add(a, id, tgid)) ||
		    (!threads && !add_threads(a, tgid))) {
			if (a->n < MAX_THREADS && a->ntgids < 64) {
				no_such(threads, id);	/* gone meanwhile */
				return EX_FAIL;
			}
			fprintf(stderr,
				"perfex: more than %d threads or 64 processes to count: give fewer\n",
				MAX_THREADS);
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
	unsigned int unclean;	/* threads left with our set, or unread */
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

static void slow_to_stop(const struct thread *t, const char *then)
{
	fprintf(stderr,
		"perfex: note: thread %d did not stop within %d ms (it waits in the kernel, uninterruptibly): %s\n",
		(int)t->tid, STOP_MS, then);
}

/*
 * Stops every thread of @a, and with -p every new thread of its
 * processes, until none is new, so that all are stopped at once and
 * none can make a thread unseen. A thread gone meanwhile is skipped,
 * one slow to stop is left seized (att_tick() finishes it). 0, or -1
 * having said why a thread could not be stopped.
 */
static int stop_all(struct attach *a)
{
	unsigned int i, g;
	int more, ret;

	do {
		more = 0;
		for (g = 0; !a->threads && g < a->ntgids; g++)
			more |= add_threads(a, a->tgids[g]) > 0;
		for (i = 0; i < a->n; i++) {
			struct thread *t = &a->t[i];

			if (t->seized || t->gone || t->other)
				continue;
			ret = stop(t, now_ms() + STOP_MS);
			if (ret > 0)
				slow_to_stop(t, "perfex counts it from when it does");
			if (ret >= 0)
				continue;
			if (errno == ESRCH || !same_thread(t)) {
				t->gone = 1;
				continue;
			}
			attach_refused(t->tid, errno);
			return -1;
		}
	} while (more);
	return 0;
}

/* Begin failed: no set of ours stays, no thread stays stopped. */
static void undo_begin(struct attach *a)
{
	unsigned int i;

	for (i = 0; i < a->n; i++) {
		struct thread *t = &a->t[i];

		if (t->root && t->stopped)
			unlink_set(t->tid);
		close_files(t);
		t->root = 0;
	}
	let_all_go(a);
}

static unsigned int count_stopped(const struct attach *a)
{
	unsigned int i, n = 0;

	for (i = 0; i < a->n; i++)
		n += a->t[i].stopped;
	return n;
}

static int att_begin(void *arg)
{
	struct att_run *r = arg;
	struct attach *a = &r->a;
	unsigned int i, roots = 0;

	if (a->threads)
		mark_others(a);
	if (stop_all(a) || files_room(count_stopped(a)))
		goto fail;
	for (i = 0; i < a->n; i++) {
		if (!a->t[i].stopped)
			continue;
		if (give_set(a, &a->t[i]))
			goto fail;
		roots += a->t[i].root;
	}
	for (i = 0; i < a->n; i++) {
		if (a->t[i].stopped)
			let_go(&a->t[i]);
		roots += a->t[i].seized;	/* slow to stop: to come */
	}
	if (roots)
		return 0;
	fprintf(stderr,
		"perfex: no thread left to count: give threads without a counter set of their own\n");
fail:
	undo_begin(a);
	return EX_FAIL;
}

/* A root counts no more: it is gone, or its set is gone or not ours. */
static int ended(const struct attach *a, const struct thread *t)
{
	if (!same_thread(t))
		return 1;
	/* Unreadable without CAP_SYS_PTRACE: then only its exit tells. */
	return has_label(t->tid, a->ctl.label) == 0;
}

/* A thread slow to stop at the start: counted from when it stops. */
static void late_stop(struct att_run *r, struct thread *t)
{
	int ret = stop(t, 0);

	if (ret < 0)
		t->gone = 1;
	if (ret)
		return;
	give_set(&r->a, t);	/* a refusal says why; the others count on */
	let_go(t);
}

/* The window ends by itself once every thread counted has ended. */
static int att_tick(void *arg)
{
	struct att_run *r = arg;
	struct attach *a = &r->a;
	unsigned int i;
	int live = 0;

	for (i = 0; i < a->n; i++) {
		struct thread *t = &a->t[i];

		if (t->seized && !t->stopped && !t->root)
			late_stop(r, t);
		if (t->seized || (t->root && !ended(a, t)))
			live = 1;
	}
	return !live;
}

/* --- the end --- */

/*
 * --per-thread: @t's row, its own sums and, for a root, those of the
 * threads it made that exited meanwhile (@ch), as perf folds a thread's
 * children into its row. Without memory, the row is left out (lost).
 */
static void add_row(struct att_run *r, const struct thread *t,
		    const struct perfctr_sum_ctrs *s,
		    const struct perfctr_sum_ctrs *ch)
{
	struct thread_row *row;
	unsigned int i;

	if (!r->p->threads)
		return;
	row = thread_row_new(r->p->threads);
	if (!row)
		return;
	row->tid = t->tid;
	memcpy(row->comm, t->comm, sizeof(row->comm));
	row->s = *s;
	for (i = 0; ch && i < PERFCTR_NR_PMCS; i++)
		row->s.pmc[i] += ch->pmc[i];
	if (ch)
		row->s.tsc += ch->tsc;
	row->counted = 1;
}

static void add_sums(struct att_run *r, const struct perfctr_sum_ctrs *s)
{
	unsigned int i, k;

	r->c.tsc += s->tsc;
	for (i = 0; i < r->p->set.nr && r->p->counted; i++) {
		k = r->p->set.ev[i].counter;
		r->c.ev[i] += s->pmc[k];
	}
}

static void unclean(struct att_run *r, const struct thread *t,
		    const char *why, int err)
{
	fprintf(stderr,
		"perfex: thread %d (process %d) may keep perfex's counter set (label %#x): %s%s%s; the set stays until the thread exits, costing it a little at each context switch: if that matters, restart its program once whatever holds it (strace, gdb) has let go\n",
		(int)t->tid, (int)t->tgid, r->a.ctl.label, why,
		err ? ": " : "", err ? strerror(err) : "");
	r->unclean++;
}

/* One look at @t for end_stop(): 1 while it is still to stop. */
static int end_stop_one(struct thread *t)
{
	int ret;

	if (t->other || t->skipped || t->gone || (t->seized && t->stopped))
		return 0;
	if (!t->seized && !same_thread(t)) {
		t->gone = 1;
		return 0;
	}
	ret = stop(t, 0);
	if (ret < 0) {
		t->err = errno;
		t->gone = errno == ESRCH || !same_thread(t);
		return 0;
	}
	if (ret == 0 && !same_thread(t)) {	/* the tid is another's now */
		let_go(t);
		t->gone = 1;
	}
	return ret;
}

/*
 * Stops, at the end, every thread that may have our set: the roots that
 * still live and every thread made since. One that cannot be stopped is
 * named later (end_sort()), and the others go on. A stopped thread whose
 * id is now another's (reused after an exit) is let go at once.
 */
static void end_stop(struct att_run *r)
{
	struct timespec ms = { 0, 1000000 };
	struct attach *a = &r->a;
	unsigned int i, g;
	int waiting, more;

	do {	/* until no thread is new: none made one unseen */
		more = 0;
		for (g = 0; g < a->ntgids; g++)
			more |= add_threads(a, a->tgids[g]) > 0;
		do {	/* all interrupted first, then waited for together */
			waiting = 0;
			for (i = 0; i < a->n; i++)
				waiting |= end_stop_one(&a->t[i]) > 0 &&
					   now_ms() < a->t[i].asked + STOP_MS;
		} while (waiting && !nanosleep(&ms, NULL));
	} while (more);
}

/*
 * Which stopped threads carry our label; the others that were not
 * stopped are named. A set without it is another's: named and left.
 */
static void end_sort(struct att_run *r)
{
	struct attach *a = &r->a;
	__u32 label = a->ctl.label;
	unsigned int i;
	char why[96];
	int has;

	for (i = 0; i < a->n; i++) {
		struct thread *t = &a->t[i];

		if (t->gone || t->other || t->skipped)
			continue;
		if (!t->stopped) {
			snprintf(why, sizeof(why), "%s",
				 t->seized ? "it did not stop in time" :
				 "perfex could not stop it");
			unclean(r, t, why, t->seized ? 0 : t->err);
			continue;
		}
		has = has_label(t->tid, label);
		t->ours = has == 1;
		if (has < 0)
			unclean(r, t, "its control cannot be read", errno);
	}
}

/* A set that is not perfex's, in a thread made while it counted. */
static void name_foreign(const struct attach *a, const struct thread *t)
{
	struct vperfctr_control c;

	memset(&c, 0, sizeof(c));
	if (t->ours || !t->stopped ||
	    vfile_io(t->tid, "control", &c, sizeof(c), 0) ||
	    !memcmp(&c, &(struct vperfctr_control){ 0 }, sizeof(c)))
		return;
	fprintf(stderr,
		"perfex: note: thread %d has a counter set that is not this perfex's (label %#x, not %#x): left alone, and not counted\n",
		(int)t->tid, c.label, a->ctl.label);
}

/* A root's own counts and its exited members': before any unlink. */
static int read_root(struct att_run *r, struct thread *t)
{
	struct vperfctr_children ch;
	struct perfctr_sum_ctrs s;

	if (read_record(t->sums_fd, &s, sizeof(s)) ||
	    read_record(t->ch_fd, &ch, sizeof(ch))) {
		fprintf(stderr,
			"perfex: cannot read thread %d's counts: %s; the total leaves them out\n",
			(int)t->tid, strerror(errno));
		return -1;
	}
	add_sums(r, &s);
	add_sums(r, &ch.sums);
	add_row(r, t, &s, &ch.sums);
	return 0;
}

/*
 * The counts of every set of ours: the roots' (final where they exited)
 * with their exited members', then the live members' own, all stopped.
 */
static int end_read(struct att_run *r)
{
	struct attach *a = &r->a;
	struct perfctr_sum_ctrs s;
	unsigned int i;
	int ret = 0;

	for (i = 0; i < a->n; i++) {
		struct thread *t = &a->t[i];

		/* One that could not be stopped: as of its last sample. */
		if (t->root && !t->stopped && !t->gone)
			t->ours = has_label(t->tid, r->a.ctl.label) == 1;
		if (t->root && (t->gone || t->ours) && read_root(r, t))
			ret = -1;
	}
	for (i = 0; i < a->n; i++) {
		struct thread *t = &a->t[i];

		if (t->root || !t->ours)
			continue;
		if (vfile_io(t->tid, "sums", &s, sizeof(s), 0)) {
			fprintf(stderr,
				"perfex: cannot read thread %d's counts: %s; the total leaves them out\n",
				(int)t->tid, strerror(errno));
			ret = -1;
			continue;
		}
		add_sums(r, &s);
		add_row(r, t, &s, NULL);
	}
	return ret;
}

/*
 * Stops every live thread, reads every set of ours (the roots' final
 * counts where they exited), then removes those and lets all go. It goes
 * on past a thread it cannot stop or clean, and names each.
 */
static int att_end(void *arg)
{
	struct att_run *r = arg;
	struct attach *a = &r->a;
	unsigned int i;

	end_stop(r);
	end_sort(r);
	r->unclean += end_read(r) < 0;	/* printed, but not a clean run */
	for (i = 0; i < a->n; i++) {
		struct thread *t = &a->t[i];

		name_foreign(a, t);
		if (t->ours && t->stopped && unlink_set(t->tid))
			unclean(r, t, "its set could not be removed", errno);
		let_go(t);
		close_files(t);
	}
	if (a->full)
		fprintf(stderr,
			"perfex: more than %d threads: those perfex did not see may keep its counter set (label %#x) until they exit; count fewer threads\n",
			MAX_THREADS, a->ctl.label);
	r->unclean += a->full;
	return 0;
}

static const struct window_ops att_ops = {
	.begin = att_begin, .tick = att_tick, .end = att_end,
};

/* ABI 1.2 has VPERFCTR_CONTROL_THREADS and the label: 0, or EX_FAIL. */
static int abi_ok(void)
{
	struct perfctr_info info;

	if (perfctr_info(&info))
		return 0;	/* perfex said why already, or will */
	if ((info.abi_version >> 8) == 1 && (info.abi_version & 0xff) >= 2)
		return 0;
	fprintf(stderr,
		"perfex: -p and -t need perfctr's ABI 1.2 (inheriting to new threads only, and labels), and this module has %u.%u: load a newer perfctr module\n",
		info.abi_version >> 8, info.abi_version & 0xff);
	return EX_FAIL;
}

#ifndef GRND_INSECURE
#define GRND_INSECURE	0x0004	/* Linux 5.6 */
#endif

/*
 * A nonzero label for this run's sets. It only tells perfex runs apart,
 * so it never waits for the kernel's entropy: just after boot a blocking
 * getrandom() can outlast the very program to be counted. Before 5.6
 * the kernel refuses GRND_INSECURE: GRND_NONBLOCK, then (the pool not
 * ready, or no getrandom() at all) the pid and the clock.
 */
static __u32 run_label(void)
{
	struct timespec t;
	__u32 label = 0;

	if (getrandom(&label, sizeof(label), GRND_INSECURE) != sizeof(label) &&
	    getrandom(&label, sizeof(label), GRND_NONBLOCK) != sizeof(label)) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		label = (__u32)getpid() * 2654435761u ^ (__u32)t.tv_nsec ^
			(__u32)t.tv_sec;
	}
	return label ?: 1;
}

/* This run's control: its new threads inherit it; labelled as ours. */
static void make_control(struct attach *a, const struct plan *p)
{
	a->ctl = p->ctl;
	a->ctl.flags |= VPERFCTR_CONTROL_INHERIT | VPERFCTR_CONTROL_THREADS;
	a->ctl.label = run_label();
}

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
	r->a.threads = threads;
	make_control(&r->a, p);
	ret = abi_ok() ?:
	      targets(&r->a, threads ? o->thread_list : o->pid_list, threads);
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
		if (p->threads)
			print_stats_threads(out, o, p, p->threads, &s);
		else
			print_stats(out, o, p, &s);
	}
	/* Counts printed, but a thread left with our set fails the run. */
	if (!ret && r->unclean)
		ret = EX_FAIL;
	free(r);
	if (ret)
		return ret;
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
