// SPDX-License-Identifier: GPL-2.0-only
/*
 * busy [-f] [-p] N MS: known work for perfex to count (check_perfex,
 * make run). N workers each use MS milliseconds of their own CPU time,
 * so a command counted whole uses N * MS ms, plus what starting them
 * costs.
 *
 *   busy N MS      N threads
 *   busy -s 1 MS   no thread: the main thread works, for IBS, which
 *                  samples only the thread perfex starts; busy first
 *                  prints where its own code is, "busy: text START END"
 *                  (hex, END excluded)
 *   busy -s -u 1 MS the same, but halfway through busy makes itself
 *                  undumpable (prctl), which withdraws a sample ring it
 *                  handed on (amd.rst)
 *   busy -f N MS   N processes; the first one's work is done by its own
 *                  child, which runs on after that process has exited
 *                  (reparented to busy, a subreaper, which reaps all)
 *   -p             each thread and process, busy's main thread last,
 *                  stops its own (inherited) counters as it ends and
 *                  reports its final sums; busy prints their total,
 *                  "busy: tsc T pmc0 P0 ...", which must be exactly what
 *                  counting the command whole gives
 *
 * CPU time, not wall time: on a shared CPU a worker that spun for MS ms
 * of wall time would have run for less.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "libperfctr.h"

#define MAX_WORKERS	64

static unsigned int work_ms;
static int report;		/* -p */
static int report_fd = -1;	/* -f -p: where processes send their sums */
static pthread_mutex_t tally_lock = PTHREAD_MUTEX_INITIALIZER;
static struct perfctr_sum_ctrs tally;
static int report_failed;

/*
 * Stops the caller's own counters, so that its sums are final, and adds
 * them to @t. A thread without a set gets an empty one here: zeroes.
 */
static int final_sums(struct perfctr_sum_ctrs *t)
{
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs s;
	unsigned int i;

	if (!vp || vperfctr_suspend(vp) || vperfctr_read_sums(vp, &s)) {
		perror("busy: final sums");
		return -1;
	}
	vperfctr_close(vp);
	t->tsc += s.tsc;
	for (i = 0; i < PERFCTR_NR_PMCS; i++)
		t->pmc[i] += s.pmc[i];
	return 0;
}

/* A thread's report: into the tally. */
static void thread_report(void)
{
	struct perfctr_sum_ctrs s = { 0 };
	int err = final_sums(&s);
	unsigned int i;

	pthread_mutex_lock(&tally_lock);
	report_failed |= err;
	tally.tsc += s.tsc;
	for (i = 0; i < PERFCTR_NR_PMCS; i++)
		tally.pmc[i] += s.pmc[i];
	pthread_mutex_unlock(&tally_lock);
}

/* A process's report, to busy over the pipe; then it exits. */
static void process_exit(void)
{
	struct perfctr_sum_ctrs s = { 0 };

	if (report && (final_sums(&s) ||
		       write(report_fd, &s, sizeof(s)) != sizeof(s)))
		_exit(1);
	_exit(0);
}

static double thread_cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/*
 * Uses @ms milliseconds of the calling thread's CPU time, in loops of
 * @spins between clock reads (which run in the kernel and the vDSO).
 */
static void burn_in(unsigned int ms, int spins)
{
	double end = thread_cpu_seconds() + ms / 1e3;
	int i;

	/* The empty asm keeps the loop: a little work between clock reads. */
	while (thread_cpu_seconds() < end)
		for (i = 0; i < spins; i++)
			__asm__ __volatile__("" : : "r" (i));
}

static void burn(unsigned int ms)
{
	burn_in(ms, 1000);
}

static void *worker(void *arg)
{
	(void)arg;
	burn(work_ms);
	if (report)
		thread_report();
	return NULL;
}

static int threads(unsigned int n)
{
	pthread_t t[MAX_WORKERS];
	unsigned int i;

	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, worker, NULL)) {
			fprintf(stderr, "busy: pthread_create failed\n");
			return 1;
		}
	for (i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	return 0;
}

/* The first worker: its child works once it has outlived it. */
static void orphan_worker(void)
{
	pid_t parent = getpid();
	pid_t pid = fork();

	if (pid < 0)
		_exit(1);
	if (!pid) {
		while (getppid() == parent)
			usleep(1000);
		burn(work_ms);
	}
	process_exit();
}

static int processes(unsigned int n)
{
	unsigned int i;
	int status, failed = 0;
	pid_t pid;

	/* The orphan is reparented to us, to be reaped with the rest. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1)) {
		perror("busy: PR_SET_CHILD_SUBREAPER");
		return 1;
	}
	for (i = 0; i < n; i++) {
		pid = fork();
		if (pid < 0) {
			perror("busy: fork");
			return 1;
		}
		if (!pid && !i)
			orphan_worker();
		if (!pid) {
			burn(work_ms);
			process_exit();
		}
	}
	for (;;) {
		pid = wait(&status);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		failed |= !WIFEXITED(status) || WEXITSTATUS(status);
	}
	return failed;
}

/* -f -p: every process's sums, once all have exited. */
static int read_reports(int fd)
{
	struct perfctr_sum_ctrs s;
	unsigned int i;
	ssize_t n;

	while ((n = read(fd, &s, sizeof(s))) == sizeof(s)) {
		tally.tsc += s.tsc;
		for (i = 0; i < PERFCTR_NR_PMCS; i++)
			tally.pmc[i] += s.pmc[i];
	}
	return n ? -1 : 0;
}

/* busy's own final sums last, then the total of all. */
static int print_tally(void)
{
	struct vperfctr_control c;
	struct vperfctr *vp;
	unsigned int i, n;

	if (report_failed || final_sums(&tally))
		return 1;
	vp = vperfctr_open();
	if (!vp || vperfctr_read_control(vp, &c))
		return 1;
	n = c.cpu_control.nractrs + c.cpu_control.nrictrs;
	printf("busy: tsc %llu", (unsigned long long)tally.tsc);
	for (i = 0; i < n; i++)
		printf(" pmc%u %llu", i, (unsigned long long)tally.pmc[i]);
	printf("\n");
	vperfctr_close(vp);
	return 0;
}

/* "busy: text START END": busy's executable mapping, in /proc/self/maps. */
static int print_text(void)
{
	char exe[256], line[512], path[256];
	unsigned long long start, end;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	FILE *f = fopen("/proc/self/maps", "r");
	int found = 0;

	if (n <= 0 || !f)
		return -1;
	exe[n] = '\0';
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "%llx-%llx r-xp %*s %*s %*s %255s", &start,
			       &end, path) == 3 && !strcmp(path, exe);
	fclose(f);
	if (!found)
		return -1;
	printf("busy: text %#llx %#llx\n", start, end);
	return fflush(stdout);
}

/*
 * -s: the main thread works, where IBS samples it, mostly in busy's own
 * code: long loops between the clock reads.
 */
static int alone(int undumpable)
{
	if (print_text()) {
		fprintf(stderr, "busy: cannot find my code in /proc/self/maps\n");
		return 1;
	}
	if (!undumpable) {
		burn_in(work_ms, 200000);
		return 0;
	}
	burn_in(work_ms / 2, 200000);
	if (prctl(PR_SET_DUMPABLE, 0)) {
		perror("busy: PR_SET_DUMPABLE");
		return 1;
	}
	burn_in(work_ms - work_ms / 2, 200000);
	return 0;
}

int main(int argc, char **argv)
{
	int fork_mode = 0, single = 0, undumpable = 0, a = 1, ret;
	int p[2] = { -1, -1 };
	unsigned long n;
	char *end;

	for (; a < argc && argv[a][0] == '-'; a++) {
		if (!strcmp(argv[a], "-f"))
			fork_mode = 1;
		else if (!strcmp(argv[a], "-p"))
			report = 1;
		else if (!strcmp(argv[a], "-s"))
			single = 1;
		else if (!strcmp(argv[a], "-u"))
			undumpable = 1;
		else
			goto usage;
	}
	if (argc != a + 2)
		goto usage;
	n = strtoul(argv[a], &end, 10);
	if (*end || !n || n > MAX_WORKERS)
		goto usage;
	work_ms = strtoul(argv[a + 1], &end, 10);
	if (*end || (single && (n != 1 || fork_mode || report)) ||
	    (undumpable && !single))
		goto usage;
	if (single)
		return alone(undumpable);
	if (!fork_mode) {
		ret = threads(n);
	} else {
		if (report && pipe(p))
			return 1;
		report_fd = p[1];
		ret = processes(n);
		if (report) {
			close(p[1]);
			ret |= read_reports(p[0]);
		}
	}
	if (!ret && report)
		ret = print_tally();
	return ret;
usage:
	fprintf(stderr, "usage: busy [-f] [-p] WORKERS(1-%d) MS | busy -s [-u] 1 MS\n",
		MAX_WORKERS);
	return 2;
}
