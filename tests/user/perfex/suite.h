/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The perfex suite (check_perfex): the real perfex binary run on real
 * commands against the module, its output parsed as perfex.rst documents
 * it, and libperfctr's passing of a handle over a socket. One file per
 * area; harness.c runs perfex and splits what it printed.
 */
#ifndef _PERFCTR_PERFEX_SUITE_H
#define _PERFCTR_PERFEX_SUITE_H

#include <check.h>
#include <sys/types.h>

#include "check_util.h"

void px_exit_tcase(struct Suite *s);
void px_format_tcase(struct Suite *s);
void px_errors_tcase(struct Suite *s);
void px_inherit_tcase(struct Suite *s);
void px_send_tcase(struct Suite *s);
void px_ibs_tcase(struct Suite *s);
void px_compat26_tcase(struct Suite *s);
void px_software_tcase(struct Suite *s);
void px_system_tcase(struct Suite *s);
void px_metrics_tcase(struct Suite *s);
void px_attach_tcase(struct Suite *s);
void px_interval_tcase(struct Suite *s);
void px_per_thread_tcase(struct Suite *s);

/*
 * perfex's own logic, the same on every PMU: its cases run on the plain
 * module and on one simulated model (k7, 7450 on ppc32), not on each.
 */
int px_once_per_arch(void);

#define OUT_MAX		16384

/*
 * What one perfex run left: its exit status as a shell gives it, the
 * command's standard output, and the standard error both share: perfex's
 * counts and messages, and the command's.
 */
struct px_result {
	int status;
	char out[OUT_MAX];
	char err[OUT_MAX];
};

/* Runs perfex with @argv (NULL-terminated, without "perfex"). */
void px_run(struct px_result *r, const char *const *argv);
/* The same as user nobody. */
void px_run_nobody(struct px_result *r, const char *const *argv);
/*
 * The same with getrandom() as a machine may have it: PX_FRESH_BOOT
 * kills perfex if it ever waits for entropy (as it could just after
 * boot); PX_NO_INSECURE refuses GRND_INSECURE (EINVAL), as a kernel
 * before 5.6 does; PX_GETRANDOM_REFUSED refuses every call.
 */
enum px_random { PX_FRESH_BOOT = 1, PX_NO_INSECURE, PX_GETRANDOM_REFUSED };
void px_run_random(struct px_result *r, const char *const *argv,
		   enum px_random how);
/*
 * Whether px_run_random() can: the test kernel is built without seccomp,
 * Debian's kernels (the stock part) have it.
 */
int px_have_seccomp(void);
/* The same, sending perfex @sig after @after_ms ms. */
void px_run_signalled(struct px_result *r, const char *const *argv, int sig,
		      int after_ms);

/* The programs the tests run: perfex, busy. */
const char *px_perfex(void);
const char *px_busy(void);
/* A copy of busy at @path, with @mode (04755: setuid root). */
void px_copy_busy(const char *path, mode_t mode);

/*
 * On perfctr.ko only the TSC counts, and the event table of the CPU's id
 * may not exist: an id whose table surely does, for -e's names, and a
 * typo of one of its events with the name nearest to it (events.rst).
 */
#ifdef __powerpc__
#define PX_TABLE_CPUID	"0x80000201"		/* a 7450 */
#define PX_TYPO		"BRANCHES_COMPLETD"
#define PX_NEAREST	"BRANCHES_COMPLETED"
#else
#define PX_TABLE_CPUID	"AuthenticAMD-6-2-0"	/* a K7 */
#define PX_TYPO		"RETIRED_INSTRUCTONS"
#define PX_NEAREST	"RETIRED_INSTRUCTIONS"
#endif
void px_plain_cpuid(void);

/* A command that creates MARKER (busybox may have no touch). */
#define MARKER		"/tmp/px-ran"
#define PX_TOUCH	"sh", "-c", ": >" MARKER

/* check_perfex itself, which kills itself with signal N: RAISE_ARG N. */
#define RAISE_ARG	"--raise"
#define HOP_ARG		"--hop"
/*
 * check_perfex as a command that sends itself SIGCONT; that stops until
 * its child's SIGCONT; that leaves a child running 30 s (perthread.c).
 */
#define CONT_ARG	"--cont"
#define STOP_CONT_ARG	"--stop-cont"
#define DAEMON_ARG	"--daemon"
int px_own_business(const char *what);
unsigned long long px_busy_tsc(const struct px_result *r);
/* check_perfex as the attach case's target, and as perfex's command. */
#define TARGET_ARG	"--target"
#define KICK_ARG	"--kick"
/* With @answered, it answers an order given before its exec first. */
int px_target_main(int answered);
int px_kick_main(const char *order);
const char *px_self(void);

/* Events every simulated model's table names, and the K7 table does. */
#define PX_EVENTS	"instructions,cycles"

/* --- the layouts --- */

#define PX_MAX_ROWS	20

struct px_row {
	char name[128];
	char value[64];		/* as printed */
	int nfields;
	char fields[12][128];	/* -x: every field */
};

/* Splits -x SEP lines (those not perfex's "perfex:" notes) into rows. */
int px_csv(const char *text, const char *sep, struct px_row *rows, int max);
/* Parses -j lines, each a flat JSON object, into rows; -1 if one is not. */
int px_json(const char *text, struct px_row *rows, int max, int variance);
/* One member of a flat JSON object, as the strict reader took it. */
struct px_json_member {
	char key[64];
	char val[128];
	int is_string;
};

/*
 * One line holding one flat object of string and number members, read
 * strictly (no key twice, nothing after it): how many members, or -1.
 */
int px_json_line(const char *line, struct px_json_member *m, int max);
/* The row named @name, or NULL. */
const struct px_row *px_find(const struct px_row *rows, int n,
			     const char *name);
/* Whether @s is a non-negative decimal integer. */
int px_is_uint(const char *s);
/* Whether a row is one of perf's software events (perfex.rst). */
int px_is_software(const char *name);
/* The TSC row's value from a -x ';' run. */
unsigned long long px_tsc(const struct px_result *r);

#endif /* _PERFCTR_PERFEX_SUITE_H */
