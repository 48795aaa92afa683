// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex: the counting window of -a, -C, -p and -t, where what is
 * counted is not the command's own tree: the count begins, the command
 * runs (or, without one, perfex waits for ^C, SIGTERM or SIGHUP), the count
 * ends. The mode's ops begin, look every 50 ms and end.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfex.h"

#define TICK_NS		(50 * 1000 * 1000)

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}

/* The command, with the dispositions perfex found; never returns. */
static void window_child(char **cmd, const sigset_t *old,
			 const struct sigaction *intr,
			 const struct sigaction *quit)
{
	sigaction(SIGINT, intr, NULL);
	sigaction(SIGQUIT, quit, NULL);
	sigprocmask(SIG_SETMASK, old, NULL);
	execvp(cmd[0], cmd);
	_exit(exec_failed(cmd[0], errno));
}

/*
 * Waits for @pid (or, without one, for ^C, SIGTERM, SIGHUP or the ops'
 * tick saying the targets are gone), calling the tick every 50 ms, or
 * as the ops' nap says (-I's intervals). @set holds SIGCHLD, SIGTERM,
 * SIGHUP, and SIGINT without a command, all blocked: their arrival ends
 * the wait at once. With a command, SIGTERM and SIGHUP go on to it and
 * perfex waits for its end, so that the ops' end always runs: perfex
 * never leaves global mode counting, nor a target with its sets.
 */
static int window_wait(pid_t pid, int *status, const sigset_t *set,
		       const struct window_ops *ops, void *arg)
{
	struct timespec tick = { 0, TICK_NS };
	int sig;
	pid_t w;

	for (;;) {
		if (pid > 0) {
			w = waitpid(pid, status, WNOHANG);
			if (w == pid)
				return 0;
			if (w < 0 && errno != EINTR)
				return -1;
		}
		tick.tv_nsec = ops->nap ? ops->nap(arg) : TICK_NS;
		sig = sigtimedwait(set, NULL, &tick);
		if (sig > 0 && sig != SIGCHLD) {
			if (pid < 0)
				return 0;
			kill(pid, sig);
		}
		if (ops->tick(arg) && pid < 0)
			return 0;
	}
}

/*
 * One window: 0 with the command's @status and the @elapsed seconds, or
 * perfex's exit status. As a shell does, ^C is the command's; without
 * one, ^C ends the window and perfex still prints. SIGTERM and SIGHUP
 * end it too, or go on to the command: window_wait() takes them from
 * the blocked set, so that perfex never dies inside the window.
 */
int count_window(char **cmd, int *status, double *elapsed,
		 const struct window_ops *ops, void *arg)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, oint, oquit;
	sigset_t block, old;
	pid_t pid = -1;
	int ret;
	double t0;

	sigemptyset(&block);
	sigaddset(&block, SIGCHLD);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGHUP);
	if (!cmd)
		sigaddset(&block, SIGINT);
	sigprocmask(SIG_BLOCK, &block, &old);
	sigaction(SIGINT, cmd ? &ign : NULL, &oint);
	sigaction(SIGQUIT, &ign, &oquit);
	ret = ops->begin(arg);
	if (ret)
		goto out;
	t0 = now_s();
	if (cmd) {
		fflush(NULL);
		pid = fork();
		if (!pid)
			window_child(cmd, &old, &oint, &oquit);
	}
	if ((cmd && pid < 0) || window_wait(cmd ? pid : -1, status, &block,
					    ops, arg)) {
		fprintf(stderr, "perfex: cannot run the command: %s\n",
			strerror(errno));
		ret = EX_FAIL;
	}
	ret = ops->end(arg) ?: ret;
	*elapsed = now_s() - t0;
	if (!cmd && !ret)	/* ended by ^C: as perf stat, no error */
		*status = 0;
	/* A stop signal still pending must not kill perfex before it prints. */
	while (sigtimedwait(&block, NULL, &(struct timespec){ 0 }) > 0)
		;
out:
	sigaction(SIGINT, &oint, NULL);
	sigaction(SIGQUIT, &oquit, NULL);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return ret;
}
