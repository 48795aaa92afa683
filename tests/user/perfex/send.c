// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "send" case: libperfctr's vperfctr_send() and
 * vperfctr_receive() (libperfctr.rst). A handle passed by a child reads
 * the child's final counts after it has exited; every malformed message
 * is refused with the documented errno, and whatever descriptors came
 * with it are closed.
 */
#define _GNU_SOURCE
#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "suite.h"

#define NFILES	6

/* --- a handle passed by a child --- */

struct sender {
	int sock;
	struct vperfctr_control c;
};

/* Counts for a while, sends its handle, waits to be released. */
static int sender_kid(int rd, int wr, void *arg)
{
	struct sender *s = arg;
	struct vperfctr *vp = vperfctr_open();
	struct perfctr_sum_ctrs sums;

	(void)wr;
	if (!vp || vperfctr_control(vp, &s->c))
		return kid_fail(10);
	/* 20 ms of its own run time, however often it is preempted. */
	do
		spin(ms_ticks(1));
	while (!vperfctr_read_sums(vp, &sums) && sums.tsc < ms_ticks(20));
	if (vperfctr_send(vp, s->sock))
		return kid_fail(11);
	kid_wait_go(rd);
	return 0;
}

/* Its status once the set is final (a moment after the exit). */
static void wait_status(struct vperfctr *vp, const char *want)
{
	char st[64] = "";
	int i;

	for (i = 0; i < 100; i++) {
		ck_assert_int_eq(vperfctr_read_status(vp, st, sizeof(st)), 0);
		if (!strcmp(st, want))
			return;
		usleep(10000);
	}
	ck_abort_msg("status '%s', not '%s'", st, want);
}

static const int sock_types[] = { SOCK_SEQPACKET, SOCK_STREAM, SOCK_DGRAM };

START_TEST(send_final_counts_after_exit)
{
	struct vperfctr_control got;
	struct vperfctr_children ch;
	struct perfctr_sum_ctrs sums;
	struct sender s;
	struct vperfctr *vp;
	struct kid k;
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, sock_types[_i], 0, sv), 0);
	tsc_control(&s.c);
	s.sock = sv[1];
	kid_start(&k, sender_kid, &s);
	close(sv[1]);
	vp = vperfctr_receive(sv[0]);
	ck_assert_msg(vp, "receive: %s", strerror(errno));
	ck_assert_int_eq(vperfctr_tid(vp), k.pid);
	ck_assert_ptr_null(vperfctr_state(vp));
	kid_done(&k);
	wait_status(vp, "exited");
	ck_assert_int_eq(vperfctr_read_control(vp, &got), 0);
	ck_assert_mem_eq(&got, &s.c, sizeof(got));
	ck_assert_int_eq(vperfctr_read_sums(vp, &sums), 0);
	ck_assert_uint_ge(sums.tsc, ms_ticks(20));
	/* No inheritance asked: an empty inherited total. */
	ck_assert_int_eq(vperfctr_read_children(vp, &ch), 0);
	ck_assert(is_zero(&ch, sizeof(ch)));
	/* tree came along, and says the same. */
	memset(&ch, 0xFF, sizeof(ch));
	ck_assert_int_eq(vperfctr_read_tree(vp, &ch), 0);
	ck_assert(is_zero(&ch, sizeof(ch)));
	vperfctr_close(vp);
	close(sv[0]);
}

/* --- malformed messages --- */

static int fd_count(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d)))
		n += e->d_name[0] != '.';
	closedir(d);
	return n - 1;	/* the directory's own */
}

/* The caller's own files, as vperfctr_open() opens them, in order. */
static void own_files(int *fds, int control_mode)
{
	static const char *const names[NFILES] = {
		"control", "sums", "command", "status", "children", "tree"
	};
	static const int modes[NFILES] = {
		O_RDWR, O_RDONLY, O_WRONLY, O_RDONLY, O_RDONLY, O_RDONLY
	};
	int i;

	for (i = 0; i < NFILES; i++) {
		fds[i] = pfs_open(gettid(), names[i],
				  (i ? modes[i] : control_mode) | O_CLOEXEC);
		ck_assert_msg(fds[i] >= 0, "%s: %s", names[i], strerror(errno));
	}
}

static void send_raw(int sock, const void *data, size_t len, const int *fds,
		     int n)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(32 * sizeof(int))];
	} u;
	struct iovec iov = { (void *)data, len };
	struct msghdr mh;
	struct cmsghdr *c;

	memset(&u, 0, sizeof(u));
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (n) {
		mh.msg_control = u.buf;
		mh.msg_controllen = CMSG_SPACE(n * sizeof(int));
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(n * sizeof(int));
		memcpy(CMSG_DATA(c), fds, n * sizeof(int));
	}
	ck_assert_int_eq(sendmsg(sock, &mh, 0), (ssize_t)len);
}

enum fds_kind { OWN, OWN_RDONLY_CONTROL, PIPES };

struct bad_msg {
	const char *what;
	enum fds_kind kind;
	int nfds;
	size_t len;	/* 0: what vperfctr_send() sends */
	int err;
};

static const struct bad_msg bad_msgs[] = {
	{ "no descriptors", OWN, 0, 8, EPROTO },
	{ "four", OWN, 4, 8, EPROTO },
	{ "seven", OWN, 7, 8, EPROTO },
	{ "twenty: truncated", OWN, 20, 8, EPROTO },
	{ "pipes", PIPES, NFILES, 8, EBADMSG },
	{ "control read-only", OWN_RDONLY_CONTROL, NFILES, 8, EBADMSG },
	{ "a byte of payload", OWN, NFILES, 1, EBADMSG },
	{ "a payload too long", OWN, NFILES, 64, EBADMSG },
};

/* @n descriptors of @kind, the five first, then copies of the first. */
static void make_fds(enum fds_kind kind, int *fds, int n)
{
	int p[2], i;

	if (kind == PIPES) {
		for (i = 0; i < NFILES; i += 2) {
			ck_assert_int_eq(pipe2(p, O_CLOEXEC), 0);
			fds[i] = p[0];
			if (i + 1 < NFILES)
				fds[i + 1] = p[1];
			else
				close(p[1]);
		}
	} else {
		own_files(fds, kind == OWN ? O_RDWR : O_RDONLY);
	}
	for (i = NFILES; i < n; i++)
		fds[i] = fds[0];
}

START_TEST(receive_refuses_and_closes)
{
	const struct bad_msg *b = &bad_msgs[_i];
	char payload[64] = "";
	int sv[2], fds[32], before, i;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	make_fds(b->kind, fds, b->nfds > NFILES ? b->nfds : NFILES);
	before = fd_count();
	send_raw(sv[1], payload, b->len, fds, b->nfds);
	errno = 0;
	ck_assert_ptr_null(vperfctr_receive(sv[0]));
	ck_assert_msg(errno == b->err, "%s: errno %d, not %d", b->what, errno,
		      b->err);
	ck_assert_msg(fd_count() == before, "%s: %d descriptors kept", b->what,
		      fd_count() - before);
	for (i = 0; i < NFILES; i++)
		close(fds[i]);
	close(sv[0]);
	close(sv[1]);
}

/*
 * The payload's magic says how many descriptors come (libperfctr.rst):
 * 0x76706d31 five, without tree (an older library), 0x76706d32 six.
 */
static const struct {
	__u32 magic;
	int nfds;
	int err;	/* 0: taken */
} magics[] = {
	{ 0x76706d31, NFILES - 1, 0 },
	{ 0x76706d32, NFILES, 0 },
	{ 0x76706d32, NFILES - 1, EBADMSG },
	{ 0x76706d31, NFILES, EBADMSG },
};

START_TEST(receive_magic_and_count)
{
	struct { __u32 magic; __s32 tid; } m = { magics[_i].magic, gettid() };
	struct vperfctr_children ch;
	int sv[2], fds[NFILES], i, before;
	struct vperfctr *vp;

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	own_files(fds, O_RDWR);
	before = fd_count();
	send_raw(sv[1], &m, sizeof(m), fds, magics[_i].nfds);
	errno = 0;
	vp = vperfctr_receive(sv[0]);
	if (magics[_i].err) {
		ck_assert_ptr_null(vp);
		ck_assert_int_eq(errno, magics[_i].err);
		ck_assert_int_eq(fd_count(), before);
	} else {
		ck_assert_msg(vp, "receive: %s", strerror(errno));
		ck_assert_int_eq(fd_count(), before + magics[_i].nfds);
		/* Five: the handle has no tree to read. */
		errno = 0;
		ck_assert_int_eq(vperfctr_read_tree(vp, &ch),
				 magics[_i].nfds == NFILES ? 0 : -1);
		if (magics[_i].nfds < NFILES)
			ck_assert_int_eq(errno, EOPNOTSUPP);
		vperfctr_close(vp);
	}
	for (i = 0; i < NFILES; i++)
		close(fds[i]);
	close(sv[0]);
	close(sv[1]);
}

/* The peer closed without a message. */
START_TEST(receive_eof_is_enomsg)
{
	int sv[2];

	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	close(sv[1]);
	errno = 0;
	ck_assert_ptr_null(vperfctr_receive(sv[0]));
	ck_assert_int_eq(errno, ENOMSG);
	close(sv[0]);
}

/* Whether fd @fd is open. */
static int is_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* The accepting twin: what vperfctr_send() sends, on the same socket. */
START_TEST(receive_takes_send)
{
	struct vperfctr *vp = vperfctr_open(), *got;
	int sv[2], before, fd, open_before[256], n = 0;

	ck_assert_ptr_nonnull(vp);
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv), 0);
	before = fd_count();
	for (fd = 0; fd < 256; fd++)
		open_before[fd] = is_open(fd);
	ck_assert_int_eq(vperfctr_send(vp, sv[1]), 0);
	got = vperfctr_receive(sv[0]);
	ck_assert_msg(got, "receive: %s", strerror(errno));
	ck_assert_int_eq(fd_count(), before + NFILES);
	ck_assert_int_eq(vperfctr_tid(got), vperfctr_tid(vp));
	/* The new descriptors are close-on-exec, as the library's own. */
	for (fd = 0; fd < 256; fd++) {
		if (open_before[fd] || !is_open(fd))
			continue;
		ck_assert_int_ne(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0);
		n++;
	}
	ck_assert_int_eq(n, NFILES);
	vperfctr_close(got);
	ck_assert_int_eq(fd_count(), before);
	vperfctr_close(vp);
}

void px_send_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "perfex-send", NULL, NULL);

	tcase_add_loop_test(tc, send_final_counts_after_exit, 0,
			    ARRAY_SIZE(sock_types));
	tcase_add_loop_test(tc, receive_refuses_and_closes, 0,
			    ARRAY_SIZE(bad_msgs));
	tcase_add_loop_test(tc, receive_magic_and_count, 0, ARRAY_SIZE(magics));
	tcase_add_test(tc, receive_eof_is_enomsg);
	tcase_add_test(tc, receive_takes_send);
}
