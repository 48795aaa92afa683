// SPDX-License-Identifier: GPL-2.0-only
/*
 * The security suite's "hidepid" case: the perfctr file system's
 * hidepid= mount option (security.rst, "Seeing other threads"), as
 * procfs's: off (0, the default), noaccess (1: a thread's files only for
 * those who may read it), invisible (2: its directory neither). Values
 * come from proc(5). The test remounts /proc/perfctr, and puts it back
 * to off afterwards. pid 1, the guest's init, runs as root: nobody may
 * not read it.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "security.h"

#define INIT_DIR	PERFCTR_ROOT "/1"
#define INIT_SUMS	PERFCTR_ROOT "/1/sums"

/* 0 or the errno of remounting /proc/perfctr with @opts. */
static int remount(const char *opts)
{
	return mount(NULL, PERFCTR_ROOT, NULL, MS_REMOUNT, opts) ? errno : 0;
}

static void hidepid_off(void)
{
	remount("hidepid=off");
	defaults();
}

/* The hidepid= that /proc/mounts shows ("off" if none), in @buf. */
static const char *shown(char *buf, size_t size)
{
	FILE *f = fopen("/proc/mounts", "r");
	char line[512], dir[64], type[32], opts[256], *h;

	snprintf(buf, size, "off");
	ck_assert_ptr_nonnull(f);
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*s %63s %31s %255s", dir, type, opts) != 3 ||
		    strcmp(dir, PERFCTR_ROOT) || strcmp(type, "perfctr"))
			continue;
		h = strstr(opts, "hidepid=");
		if (h)
			sscanf(h + 8, "%31[a-z0-9]", buf);
	}
	fclose(f);
	return buf;
}

static const char *const good_values[][2] = {
	{ "0", "off" }, { "1", "noaccess" }, { "2", "invisible" },
	{ "off", "off" }, { "noaccess", "noaccess" },
	{ "invisible", "invisible" },
};

START_TEST(hidepid_value_accepted)
{
	char opts[64], buf[32];

	snprintf(opts, sizeof(opts), "hidepid=%s", good_values[_i][0]);
	ck_assert_int_eq(remount(opts), 0);
	ck_assert_str_eq(shown(buf, sizeof(buf)), good_values[_i][1]);
}

/* procfs's ptraceable (4) needs ptrace_may_access(): not offered. */
static const char *const bad_values[] = {
	"hidepid=3", "hidepid=4", "hidepid=ptraceable", "hidepid=x",
	"hidepid=", "hidepid", "hidepid=00", "hidepid=-1",
};

START_TEST(hidepid_value_refused)
{
	char buf[32];

	ck_assert_int_eq(remount("hidepid=noaccess"), 0);
	ck_assert_int_eq(remount(bad_values[_i]), EINVAL);
	ck_assert_str_eq(shown(buf, sizeof(buf)), "noaccess");
}

/* A remount without the option keeps it. */
START_TEST(hidepid_kept_by_other_remount)
{
	char buf[32];

	ck_assert_int_eq(remount("hidepid=invisible"), 0);
	ck_assert_int_eq(remount(""), 0);
	ck_assert_str_eq(shown(buf, sizeof(buf)), "invisible");
}

/* 0, or the errno of stat()ing @path. */
static int stat_err(const char *path)
{
	struct stat st;

	return stat(path, &st) ? errno : 0;
}

static int open_err(const char *path)
{
	int fd = open(path, O_RDONLY);

	if (fd < 0)
		return errno;
	close(fd);
	return 0;
}

/* A child of nobody's that it traces, stopped: a thread it may read. */
static int stopped_kid(int rd, int wr, void *arg)
{
	(void)wr;
	(void)arg;
	if (ptrace(PTRACE_TRACEME, 0, 0, 0))
		return kid_fail(1);
	raise(SIGSTOP);
	kid_wait_go(rd);
	return 0;
}

struct seen {
	int init_dir;		/* stat /proc/perfctr/1 */
	int init_file;		/* stat /proc/perfctr/1/sums */
	int init_open;		/* open /proc/perfctr/1/sums */
};

/* As nobody: pid 1 as @arg says; its own and its tracee's always seen. */
static int nobody_looks(int rd, int wr, void *arg)
{
	const struct seen *want = arg;
	char path[64];
	struct kid k;
	int st, step = 0;

	(void)rd;
	(void)wr;
	if (become_nobody())
		return kid_fail(30);
	if (stat_err(INIT_DIR) != want->init_dir)
		return kid_fail(31);
	if (stat_err(INIT_SUMS) != want->init_file)
		return kid_fail(32);
	if (open_err(INIT_SUMS) != want->init_open)
		return kid_fail(33);
	snprintf(path, sizeof(path), PERFCTR_ROOT "/%d/sums", (int)getpid());
	if (stat_err(PERFCTR_ROOT "/self/") || stat_err(path))
		return kid_fail(34);
	if (kid_spawn(&k, stopped_kid, NULL) ||
	    waitpid(k.pid, &st, 0) != k.pid || !WIFSTOPPED(st))
		return kid_fail(35);
	snprintf(path, sizeof(path), PERFCTR_ROOT "/%d/control", (int)k.pid);
	if (stat_err(path) || open_err(path))
		step = kid_fail(36);
	kill(k.pid, SIGKILL);
	kid_reap(&k);
	return step;
}

/*
 * Root keeps pid 1's directory open meanwhile, so that nobody's lookups
 * meet a cached dentry too.
 */
static void run_looks(const char *opts, int dir, int file, int opened)
{
	struct seen want = { dir, file, opened };
	int fd;

	ck_assert_int_eq(remount(opts), 0);
	fd = open(INIT_DIR, O_RDONLY | O_DIRECTORY);
	ck_assert_int_ge(fd, 0);
	kid_run(nobody_looks, &want);
	close(fd);
	/* Root may still read pid 1's files: it may read the thread. */
	ck_assert_int_eq(open_err(INIT_SUMS), 0);
}

/* The default: seen, but not readable (the files' own rule). */
START_TEST(hidepid_off_others_seen)
{
	run_looks("hidepid=off", 0, 0, EACCES);
}

START_TEST(hidepid_noaccess_others_files_refused)
{
	run_looks("hidepid=noaccess", 0, EACCES, EACCES);
}

START_TEST(hidepid_invisible_others_hidden)
{
	run_looks("hidepid=invisible", ENOENT, ENOENT, ENOENT);
}

void sec_hidepid_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "hidepid", NULL, hidepid_off);

	tcase_add_loop_test(tc, hidepid_value_accepted, 0,
			    ARRAY_SIZE(good_values));
	tcase_add_loop_test(tc, hidepid_value_refused, 0,
			    ARRAY_SIZE(bad_values));
	tcase_add_test(tc, hidepid_kept_by_other_remount);
	tcase_add_test(tc, hidepid_off_others_seen);
	tcase_add_test(tc, hidepid_noaccess_others_files_refused);
	tcase_add_test(tc, hidepid_invisible_others_hidden);
}
