// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "exit" case: perfex exits with the command's own
 * status, as a shell reports it (128+N for a signal, 127 for a command
 * not found, 126 for one that cannot be executed), and with 2 for its
 * own usage errors (perfex.rst, "Exit status").
 */
#define _GNU_SOURCE
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite.h"

#define SCRIPT	"/tmp/px-script"

START_TEST(exit_true_is_0)
{
	static const char *const argv[] = { "true", NULL };
	struct px_result r;

	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "seconds time elapsed"));
}

START_TEST(exit_status_passed_on)
{
	static const char *const argv[] = { "sh", "-c", "exit 3", NULL };
	struct px_result r;

	px_run(&r, argv);
	ck_assert_msg(r.status == 3, "status %d:\n%s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.err, "seconds time elapsed"));
}

/* Killed by signal N: 128 + N, and the counts are still printed. */
static const char *const signals[] = { "9", "15" };

START_TEST(exit_killed_is_128_plus_signal)
{
	const char *argv[6] = { "-x", ";" };
	struct px_result r;

	argv[2] = px_self();
	argv[3] = RAISE_ARG;
	argv[4] = signals[_i];

	px_run(&r, argv);
	ck_assert_msg(r.status == 128 + atoi(signals[_i]), "status %d:\n%s",
		      r.status, r.err);
	px_tsc(&r);
}

START_TEST(exit_not_found_is_127)
{
	static const char *const argv[] = { "px-no-such-command", NULL };
	struct px_result r;

	px_run(&r, argv);
	ck_assert_msg(r.status == 127, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "perfex: px-no-such-command: command not found"),
		      "%s", r.err);
	/* Nothing ran, so nothing was counted. */
	ck_assert_ptr_null(strstr(r.err, "time elapsed"));
}

static void write_script(mode_t mode)
{
	int fd = open(SCRIPT, O_WRONLY | O_CREAT | O_TRUNC, 0600);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, "#!/bin/sh\nexit 0\n", 17), 17);
	ck_assert_int_eq(fchmod(fd, mode), 0);
	close(fd);
}

/* Not executable: 126; the same file made executable runs. */
START_TEST(exit_not_executable_is_126)
{
	static const char *const argv[] = { SCRIPT, NULL };
	struct px_result r;

	write_script(0644);
	px_run(&r, argv);
	ck_assert_msg(r.status == 126, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "perfex: " SCRIPT ": permission denied"),
		      "%s", r.err);
	write_script(0755);
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	unlink(SCRIPT);
}

/* perfex's own usage errors: 2, and the command is not run. */
static const char *const bad_usage[][6] = {
	{ "-q", "true" },			/* no such option */
	{ "-r", "0", "true" },			/* no runs */
	{ "-r", "x", "true" },			/* not a number */
	{ "-r", "-1", "true" },			/* negative */
	{ "-x", ";", "-j", "true" },		/* two formats */
	{ "-x", "", "true" },			/* no separator */
	{ "-e" },				/* no events */
	{ "-x", ";" },				/* no command */
	{ "-l", "-o", "/tmp/px-o", "x" },	/* -o is for counting */
};

START_TEST(exit_usage_error_is_2)
{
	struct px_result r;

	px_run(&r, bad_usage[_i]);
	ck_assert_msg(r.status == 2, "case %d: status %d:\n%s", _i, r.status,
		      r.err);
	ck_assert_msg(strstr(r.err, "usage: perfex"), "case %d:\n%s", _i, r.err);
	ck_assert_ptr_null(strstr(r.err, "time elapsed"));
}

/* The accepting twins of the usage errors. */
static const char *const good_usage[][6] = {
	{ "-r", "1", "true" },
	{ "-r", "2", "-x", ";", "true" },
	{ "-j", "true" },
	{ "-x", ",", "--", "true" },
};

START_TEST(exit_good_usage_is_0)
{
	struct px_result r;

	px_run(&r, good_usage[_i]);
	ck_assert_msg(r.status == 0, "case %d: status %d:\n%s", _i, r.status,
		      r.err);
}

void px_exit_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "perfex-exit", NULL, NULL);

	tcase_add_test(tc, exit_true_is_0);
	tcase_add_test(tc, exit_status_passed_on);
	tcase_add_loop_test(tc, exit_killed_is_128_plus_signal, 0,
			    ARRAY_SIZE(signals));
	tcase_add_test(tc, exit_not_found_is_127);
	tcase_add_test(tc, exit_not_executable_is_126);
	tcase_add_loop_test(tc, exit_usage_error_is_2, 0, ARRAY_SIZE(bad_usage));
	tcase_add_loop_test(tc, exit_good_usage_is_0, 0, ARRAY_SIZE(good_usage));
}
