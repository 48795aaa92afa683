// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "errors" case: each error of perfex.rst's list says
 * what to do, one "perfex: ..." line, and its accepting twin counts: an
 * unknown event (the nearest names; nothing run), the module not loaded
 * or the file system not mounted (the commands to run), a CPU that
 * counts only the TSC (the TSC and the time still, and why), the
 * counters held (by whom), the privilege policy (which setting or
 * capability), and counters removed at the exec of a setuid program.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "suite.h"

#define SUID_COPY	"/tmp/px-suid-busy"

/* The messages perfex.rst documents, or their beginnings. */
#define NO_SUCH		"perfex: '" PX_TYPO "': no such event"
#define NOT_MOUNTED	"perfex: the perfctr file system is not mounted: run 'mount -t perfctr none /proc/perfctr'"
#define NOT_LOADED	"perfex: the perfctr module is not loaded: run 'modprobe perfctr' (or insmod perfctr.ko), then 'mount -t perfctr none /proc/perfctr'"
#define HELD_BY		"perfex: the counters are held by global-mode perfctr (uid 0): "
#define NOBODY_3	"perfex: uid 65534 may not have these counters: perfctr.paranoid is 3"
#define NOBODY_2	"perfex: uid 65534 may not have these counters: perfctr.paranoid is 2"
#define DROPPED		"perfex: " SUID_COPY " ran without counters: perfctr removed them at exec"

/* --- unknown events --- */

START_TEST(unknown_event_names_nearest)
{
	static const char *const argv[] = { "-e", PX_TYPO, PX_TOUCH, NULL };
	struct px_result r;

	ck_assert_int_eq(setenv("PERFCTR_CPUID", PX_TABLE_CPUID, 1), 0);
	unlink(MARKER);
	px_run(&r, argv);
	ck_assert_msg(r.status == 2, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, NO_SUCH) &&
		      strstr(r.err, "Did you mean " PX_NEAREST),
		      "%s", r.err);
	ck_assert_int_ne(access(MARKER, F_OK), 0);
}

START_TEST(known_event_runs)
{
	static const char *const argv[] = {
		"-e", "instructions", PX_TOUCH, NULL
	};
	struct px_result r;

	px_plain_cpuid();
	unlink(MARKER);
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_int_eq(access(MARKER, F_OK), 0);
	unlink(MARKER);
}

/* --- the file system --- */

/* In a mount namespace of its own, /proc/perfctr unmounted. */
START_TEST(not_mounted_says_mount)
{
	static const char *const argv[] = { PX_TOUCH, NULL };
	struct px_result r;

	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "mounted: status %d:\n%s", r.status, r.err);
	unlink(MARKER);
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_msg(!umount(PERFCTR_ROOT), "umount: %s", strerror(errno));
	px_run(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, NOT_MOUNTED),
		      "%s", r.err);
	ck_assert_int_ne(access(MARKER, F_OK), 0);
}

/*
 * Without the module there is no /proc/perfctr at all: an empty /proc,
 * in a mount namespace of its own, looks the same to perfex.
 */
START_TEST(not_loaded_says_modprobe)
{
	static const char *const argv[] = { PX_TOUCH, NULL };
	struct px_result r;

	unlink(MARKER);
	ck_assert_int_eq(unshare(CLONE_NEWNS), 0);
	ck_assert_int_eq(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), 0);
	ck_assert_msg(!mount("none", "/proc", "tmpfs", 0, NULL), "mount: %s",
		      strerror(errno));
	px_run(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, NOT_LOADED), "%s", r.err);
	ck_assert_int_ne(access(MARKER, F_OK), 0);
}

/* --- what this CPU counts --- */

/*
 * perfctr.ko under QEMU: the TSC and the time, and a note with info's
 * fallback reason. A simulated PMU: every default event counts.
 */
START_TEST(tsc_only_or_events_count)
{
	static const char *const table[] = { "true", NULL };
	static const char *const csv[] = { "-x", ";", "true", NULL };
	const char *fallback = info_field("fallback");
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;
	char note[256];
	int n, i;

	ck_assert_ptr_nonnull(fallback);
	snprintf(note, sizeof(note),
		 "perfex: note: this CPU counts only the TSC (%s)", fallback);
	px_run(&r, table);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, "      tsc"), "no tsc row in:\n%s", r.err);
	ck_assert_ptr_nonnull(strstr(r.err, " seconds time elapsed"));
	if (!model) {
		ck_assert_msg(strstr(r.err, note), "no '%s' in:\n%s", note, r.err);
		return;
	}
	ck_assert_msg(!strstr(r.err, "counts only the TSC"), "%s", r.err);
	px_run(&r, csv);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	ck_assert_msg(n >= 2, "no events counted:\n%s", r.err);
	for (i = 0; i < n; i++)
		ck_assert_msg(px_is_software(rows[i].name) ||
			      (px_is_uint(rows[i].value) &&
			       strtoull(rows[i].value, NULL, 10) > 0),
			      "%s: '%s'", rows[i].name, rows[i].value);
}

/* --- the counters held --- */

static void write_global(int fd, int counters)
{
	struct perfctr_cpu_control c;

	memset(&c, 0, sizeof(c));
	if (counters >= 0) {
		c.tsc_on = 1;
		if (counters)
			model->amode(&c);
	}
	ck_assert_int_eq(write(fd, &c, sizeof(c)), sizeof(c));
}

/*
 * Global mode holds the hardware: perfex names the holder. A TSC-only
 * count needs no hardware, so on perfctr.ko it still runs.
 */
START_TEST(held_counters_name_holder)
{
	static const char *const argv[] = {
		"-e", PX_EVENTS, "-x", ";", "true", NULL
	};
	struct px_result held, freed;
	int fd = open_global();

	px_plain_cpuid();
	write_global(fd, model ? 1 : 0);
	px_run(&held, argv);
	/* Released before any assertion can end the test. */
	write_global(fd, -1);
	close(fd);
	px_run(&freed, argv);
	if (model) {
		ck_assert_msg(held.status == 1, "status %d:\n%s", held.status,
			      held.err);
		ck_assert_msg(strstr(held.err, HELD_BY), "%s", held.err);
		/* reclaim takes back per-thread counters only */
		ck_assert_msg(strstr(held.err, "close /proc/perfctr/global") &&
			      !strstr(held.err, "reclaim"), "%s", held.err);
	} else {
		ck_assert_msg(held.status == 0, "status %d:\n%s", held.status,
			      held.err);
	}
	ck_assert_msg(freed.status == 0, "released: status %d:\n%s",
		      freed.status, freed.err);
}

/* --- the kernel holds the counters --- */

#ifdef __powerpc__
#define KERNEL_HELD	"perfex: the counters are held by perf_events: "
#else
#define KERNEL_HELD	"perfex: the counters are held by perf_events (the NMI watchdog or a perf user): "
#endif

/* perfex's standard error has @text. */
static void px_has(const struct px_result *r, const char *text)
{
	ck_assert_msg(strstr(r->err, text), "no '%s' in:\n%s", text, r->err);
}

/* perfex's refusal while the kernel holds them, the sysctl reading @nmi. */
static void kernel_held(struct px_result *r, const char *nmi)
{
	static const char *const argv[] = { "-e", PX_EVENTS, "true", NULL };

	px_plain_cpuid();
	ck_assert_int_eq(param_put("kernel_busy", "1"), 0);
	fake_nmi_watchdog(nmi, 0644);
	px_run(r, argv);
	ck_assert_int_eq(param_put("kernel_busy", "0"), 0);
	ck_assert_msg(r->status == 1, "status %d:\n%s", r->status, r->err);
	ck_assert_msg(strstr(r->err, KERNEL_HELD), "%s", r->err);
	ck_assert_msg(!strstr(r->err, "reclaim"), "%s", r->err);
}

#ifndef __powerpc__
/* The watchdog on: named, with the remedy now and after a reboot. */
START_TEST(kernel_held_names_watchdog)
{
	struct px_result r;

	if (!model)
		return;		/* perfctr.ko counts the TSC only here */
	kernel_held(&r, "1\n");
	px_has(&r, KERNEL_HELD "kernel.nmi_watchdog is 1: ");
	px_has(&r, "most likely the NMI watchdog holds the counters");
	px_has(&r, "run 'sysctl kernel.nmi_watchdog=0'");
	px_has(&r, "'kernel.nmi_watchdog = 0' in a file in /etc/sysctl.d/");
	px_has(&r, "boot with nmi_watchdog=0");
}
#endif

/* The watchdog off: a perf user, and nothing to turn off. */
START_TEST(kernel_held_names_perf_user)
{
	struct px_result r;

	if (!model)
		return;
	kernel_held(&r, "0\n");
	px_has(&r, "a perf user, not the NMI watchdog");
	px_has(&r, "Wait for it to end");
	ck_assert_msg(!strstr(r.err, "sysctl"), "%s", r.err);
}

/* perfex -i shows the watchdog's state beside reserved_by. */
#define NMI_ON \
	"\nnmi_watchdog\t1 (on; if reserved_by is perf_events: sysctl kernel.nmi_watchdog=0)\n"
#define NMI_NONE	"\nnmi_watchdog\tnone (this kernel has no NMI watchdog)\n"

START_TEST(info_shows_nmi_watchdog)
{
	static const char *const argv[] = { "-i", NULL };
	struct px_result r;

	fake_nmi_watchdog("1\n", 0644);
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.out, NMI_ON), "%s", r.out);
	ck_assert_int_eq(umount("/proc/sys"), 0);
	fake_nmi_watchdog(NULL, 0);
	px_run(&r, argv);
	ck_assert_msg(strstr(r.out, NMI_NONE), "%s", r.out);
}

/* --- the privilege policy --- */

static void paranoid(const char *level)
{
	ck_assert_int_eq(param_put("paranoid", level), 0);
}

/*
 * Before and after each test: the default policy, and global mode
 * stopped (it outlives the descriptor that started it). A test that
 * fails ends without its teardown; the tests put both back themselves
 * before they assert.
 */
static void errors_defaults(void)
{
	struct perfctr_cpu_control c;
	int fd = open(GLOBAL_PATH, O_WRONLY);

	param_put("paranoid", "2");
	memset(&c, 0, sizeof(c));
	if (fd >= 0 && write(fd, &c, sizeof(c)) != sizeof(c))
		fprintf(stderr, "check_perfex: global mode not stopped\n");
	if (fd >= 0)
		close(fd);
}

/* Level 3: nothing but the TSC without CAP_PERFMON. */
START_TEST(paranoid_3_names_setting)
{
	static const char *const argv[] = { "-e", PX_EVENTS, "true", NULL };
	struct px_result r3, r2;

	px_plain_cpuid();
	paranoid("3");
	px_run_nobody(&r3, argv);
	paranoid("2");
	px_run_nobody(&r2, argv);
	ck_assert_msg(r2.status == 0, "level 2: status %d:\n%s", r2.status,
		      r2.err);
	if (!model) {		/* the TSC alone: allowed */
		ck_assert_msg(r3.status == 0, "status %d:\n%s", r3.status,
			      r3.err);
		return;
	}
	ck_assert_msg(r3.status == 1, "status %d:\n%s", r3.status, r3.err);
	ck_assert_msg(strstr(r3.err, NOBODY_3) &&
		      strstr(r3.err, "CAP_PERFMON") &&
		      strstr(r3.err, "/sys/module/perfctr/parameters/paranoid"),
		      "%s", r3.err);
}

/* Level 2: user mode only; perfex picks it, :k is refused. */
START_TEST(paranoid_2_refuses_kernel_mode)
{
	static const char *const kernel[] = { "-e", "instructions:k", "true", NULL };
	static const char *const user[] = { "-e", "instructions:u", "true", NULL };
	struct px_result r;

	if (!model)
		return;		/* no counters to refuse */
	paranoid("2");
	px_run_nobody(&r, kernel);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, NOBODY_2) &&
		      strstr(r.err, "drop :k") && strstr(r.err, "CAP_PERFMON"),
		      "%s", r.err);
	px_run_nobody(&r, user);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
}

/* --- exec of a setuid program --- */

/* As nobody, a setuid-root program loses its counters at exec. */
START_TEST(setuid_drops_counters)
{
	static const char *const argv[] = {
		"-x", ";", SUID_COPY, "1", "10", NULL
	};
	struct px_row rows[PX_MAX_ROWS];
	const struct px_row *tsc;
	struct px_result r;
	int n;

	px_copy_busy(SUID_COPY, 04755);
	px_run_nobody(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_msg(strstr(r.err, DROPPED), "%s", r.err);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	tsc = px_find(rows, n, "tsc");
	ck_assert_ptr_nonnull(tsc);
	ck_assert_str_eq(tsc->value, "<not counted>");
	/* The same program without the bit is counted. */
	px_copy_busy(SUID_COPY, 0755);
	px_run_nobody(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_ptr_null(strstr(r.err, "without counters"));
	ck_assert_uint_gt(px_tsc(&r), 0);
	unlink(SUID_COPY);
}

void px_errors_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "perfex-errors", errors_defaults,
				     errors_defaults);

	tcase_add_test(tc, unknown_event_names_nearest);
	tcase_add_test(tc, known_event_runs);
	tcase_add_test(tc, not_mounted_says_mount);
	tcase_add_test(tc, not_loaded_says_modprobe);
	tcase_add_test(tc, tsc_only_or_events_count);
	tcase_add_test(tc, held_counters_name_holder);
#ifndef __powerpc__
	tcase_add_test(tc, kernel_held_names_watchdog);
#endif
	tcase_add_test(tc, kernel_held_names_perf_user);
	tcase_add_test(tc, info_shows_nmi_watchdog);
	tcase_add_test(tc, paranoid_3_names_setting);
	tcase_add_test(tc, paranoid_2_refuses_kernel_mode);
	tcase_add_test(tc, setuid_drops_counters);
}
