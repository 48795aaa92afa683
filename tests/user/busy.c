// SPDX-License-Identifier: GPL-2.0-only
/*
 * busy [-f] N MS: known work for perfex to count (check_perfex, make
 * run). N workers each use MS milliseconds of their own CPU time, so a
 * command counted whole uses N * MS ms, plus what starting them costs.
 *
 *   busy N MS      N threads
 *   busy -f N MS   N processes; the first one's work is done by its own
 *                  child, which runs on after that process has exited
 *                  (reparented to busy, a subreaper, which reaps all)
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

#define MAX_WORKERS	64

static unsigned int work_ms;

static double thread_cpu_seconds(void)
{
	struct timespec t;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* Uses @ms milliseconds of the calling thread's CPU time. */
static void burn(unsigned int ms)
{
	double end = thread_cpu_seconds() + ms / 1e3;
	int i;

	/* The empty asm keeps the loop: a little work between clock reads. */
	while (thread_cpu_seconds() < end)
		for (i = 0; i < 1000; i++)
			__asm__ __volatile__("" : : "r" (i));
}

static void *worker(void *arg)
{
	(void)arg;
	burn(work_ms);
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

	switch (fork()) {
	case -1:
		_exit(1);
	case 0:
		while (getppid() == parent)
			usleep(1000);
		burn(work_ms);
		_exit(0);
	default:
		_exit(0);
	}
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
			_exit(0);
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

int main(int argc, char **argv)
{
	int fork_mode = argc > 1 && !strcmp(argv[1], "-f");
	unsigned long n;
	char *end;

	if (argc != 3 + fork_mode)
		goto usage;
	n = strtoul(argv[1 + fork_mode], &end, 10);
	if (*end || !n || n > MAX_WORKERS)
		goto usage;
	work_ms = strtoul(argv[2 + fork_mode], &end, 10);
	if (*end)
		goto usage;
	return fork_mode ? processes(n) : threads(n);
usage:
	fprintf(stderr, "usage: busy [-f] WORKERS(1-%d) MS\n", MAX_WORKERS);
	return 2;
}
