// SPDX-License-Identifier: GPL-2.0-only
/*
 * Child processes for the Check suites (check_util.h): a child runs a
 * kid_fn and _exit()s its value, 0 or the number of the step that
 * failed; it reports on one pipe and waits on the other.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_util.h"

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

/* kid_run() for a child whose one parameter is a number (a flag, a uid). */
void kid_run_int(kid_fn fn, int val)
{
	kid_run(fn, &val);
}

/* Blocks until the parent writes a byte or goes away. */
void kid_wait_go(int rd)
{
	char b;

	while (read(rd, &b, 1) < 0 && errno == EINTR)
		;
}

/*
 * In a child, non-asserting: starts a child of its own and reads its
 * first @size bytes. 0; else the exit code for the failed step: 100 plus
 * the grandchild's own step if it sent less, 99 if it did not start.
 */
int kid_spawn_report(struct kid *k, kid_fn fn, void *arg, void *buf,
		     size_t size)
{
	if (kid_spawn(k, fn, arg))
		return kid_fail(99);
	if (read(k->rd, buf, size) != (ssize_t)size)
		return 100 + kid_reap(k);
	return 0;
}

/* Non-asserting: @n (up to FDS_MAX) descriptors and @len bytes of @data. */
int fds_send(int sock, const int *fd, unsigned int n, const void *data,
	     size_t len)
{
	char cbuf[CMSG_SPACE(FDS_MAX * sizeof(int))] = { 0 };
	struct iovec iov = { .iov_base = (void *)data, .iov_len = len };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = CMSG_SPACE(n * sizeof(int)),
	};
	struct cmsghdr *cm = CMSG_FIRSTHDR(&mh);

	if (n > FDS_MAX)
		return -1;
	cm->cmsg_level = SOL_SOCKET;
	cm->cmsg_type = SCM_RIGHTS;
	cm->cmsg_len = CMSG_LEN(n * sizeof(int));
	memcpy(CMSG_DATA(cm), fd, n * sizeof(int));
	return sendmsg(sock, &mh, 0) == (ssize_t)len ? 0 : -1;
}

/* Non-asserting: exactly what fds_send() sent with the same @n and @len. */
int fds_recv(int sock, int *fd, unsigned int n, void *data, size_t len)
{
	char cbuf[CMSG_SPACE(FDS_MAX * sizeof(int))];
	struct iovec iov = { .iov_base = data, .iov_len = len };
	struct msghdr mh = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = cbuf, .msg_controllen = sizeof(cbuf),
	};
	struct cmsghdr *cm;

	if (n > FDS_MAX || recvmsg(sock, &mh, 0) != (ssize_t)len)
		return -1;
	cm = CMSG_FIRSTHDR(&mh);
	if (!cm || cm->cmsg_level != SOL_SOCKET ||
	    cm->cmsg_type != SCM_RIGHTS ||
	    cm->cmsg_len != CMSG_LEN(n * sizeof(int)))
		return -1;
	memcpy(fd, CMSG_DATA(cm), n * sizeof(int));
	return 0;
}
