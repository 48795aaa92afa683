// SPDX-License-Identifier: GPL-2.0-only
/*
 * The real runner, /bin/perfctr-check-hw (tests/hw/run.sh), in the test
 * VM. On perfctr.ko under TCG it must refuse, exit 2 and say why; on a
 * simulated PMU (PERFCTR_SIM_MODEL) it must measure: the simulated
 * counters count TSC ticks, so every count of the loop must be close to
 * the TSC's over the same reads, and the judge must then refuse the
 * simulation.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "suite.h"

#define RUNNER	"/bin/perfctr-check-hw"
/* Short under TCG: the loop's length does not matter to these checks. */
#define LOOPS	"2000000"

static char out[16384];

/* Runs @cmd in sh as user @uid; its output in out, its status. */
static int shell(uid_t uid, const char *cmd)
{
	char buf[512];
	size_t n = 0, room;
	ssize_t r;
	int fd[2], st;
	pid_t pid;

	ck_assert_int_eq(pipe(fd), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (!pid) {
		dup2(fd[1], 1);
		dup2(fd[1], 2);
		close(fd[0]);
		if (uid && (setgid(uid) || setuid(uid)))
			_exit(99);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(98);
	}
	close(fd[1]);
	/* Past the buffer it is read and dropped: the runner must not block. */
	while ((r = read(fd[0], buf, sizeof(buf))) > 0) {
		room = sizeof(out) - 1 - n;
		memcpy(out + n, buf, (size_t)r < room ? (size_t)r : room);
		n += (size_t)r < room ? (size_t)r : room;
	}
	out[n] = '\0';
	close(fd[0]);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The runner with @args, as shell() runs it. */
static int run(uid_t uid, const char *args)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "%s -n %s %s", RUNNER, LOOPS, args);
	return shell(uid, cmd);
}

static void ck_says(const char *text)
{
	ck_assert_msg(strstr(out, text), "no \"%s\" in:\n%s", text, out);
}

/* Header lines that name this machine, as a bug report needs. */
static void ck_header(void)
{
	struct utsname u;
	char want[256];
	char *version = info_field("version");

	ck_assert_ptr_nonnull(version);
	version = strdup(version);	/* info_field()'s buffer is shared */
	ck_assert_int_eq(uname(&u), 0);
	snprintf(want, sizeof(want), "\nkernel:       %s %s (", u.release,
		 u.machine);
	ck_says(want);
	ck_says("\ncpu:          ");
	snprintf(want, sizeof(want), "\nperfctr:      version %s, driver ",
		 version);
	ck_says(want);
	free(version);
	ck_says("\n---- end of verdict ----\n");
}

#define TCG_TODO	"what to do: run make check-hw on bare metal, or in a KVM guest started with -cpu host,pmu=on\n"
#define ROOT_TODO	"REFUSED: not root: check-hw loads a kernel module\n  what to do: run it as root: sudo make check-hw\n"

START_TEST(test_refuses_under_tcg)
{
	char *fb = info_field("fallback");

	/* The premise: the driver's self-test fell back under TCG. */
	ck_assert_ptr_nonnull(fb);
	fb = strdup(fb);		/* info_field()'s buffer is shared */
	ck_assert_str_ne(fb, "none");
	ck_assert_int_eq(run(0, "--use-loaded"), 2);
	ck_says("REFUSED: running under QEMU TCG, an emulator (CPUID hypervisor TCGTCGTCGTCG)");
	ck_says(fb);
	ck_says(TCG_TODO);
	ck_says("\noverall: REFUSED\n");
	ck_header();
	/* Refused: nothing measured, no check line. */
	ck_assert_ptr_null(strstr(out, "\nPASS  "));
	ck_assert_ptr_null(strstr(out, "\nFAIL  "));
	free(fb);
}

START_TEST(test_refuses_non_root)
{
	ck_assert_int_eq(run(NOBODY, "--use-loaded"), 2);
	ck_says(ROOT_TODO);
	ck_says("\nperfctr:      not loaded\n");
	ck_says("\noverall: REFUSED\n");
}

START_TEST(test_refuses_module_not_its_own)
{
	/* perfctr is loaded (by the plan): the runner must leave it so. */
	ck_assert_int_eq(run(0, "--module /lib/modules/perfctr.ko"), 2);
	ck_says("REFUSED: a perfctr module was loaded already, not by check-hw\n");
	ck_assert_int_eq(access("/sys/module/perfctr", F_OK), 0);
	ck_assert_int_eq(access(INFO_PATH, R_OK), 0);
}

/* hwjudge @opt on a file of @facts: its exit status; its output in out. */
static int judge_file(const char *opt, const char *const *facts)
{
	char cmd[128];
	FILE *f = fopen("/tmp/hw-facts.txt", "w");

	ck_assert_ptr_nonnull(f);
	for (; *facts; facts++)
		fprintf(f, "%s\n", *facts);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "/bin/hwjudge %s /tmp/hw-facts.txt", opt);
	return shell(0, cmd);
}

START_TEST(test_hwjudge_exit_status)
{
	/* Only what the header and the checks need; N = 10^7. */
	static const char *const pass[] = {
		"uid=0", "hypervisor=none", "loop_n=10000000",
		"perfctr_version=0.2.0", "perfctr_nrctrs=2",
		"perfctr_fallback=none", "perfctr_reserved_by=none",
		"state_fast=yes", "state_base_inst=30", "state_inst=20000028",
		"state_cycles=10000000", "perfex_base_inst=100000",
		"perfex_inst=20100000", "perfex_cycles=10100000", "perf=absent",
		NULL
	};
	static const char *const fail[] = {
		"uid=0", "hypervisor=none", "loop_n=10000000",
		"perfctr_version=0.2.0", "perfctr_nrctrs=2",
		"perfctr_fallback=none", "perfctr_reserved_by=none",
		"state_error=control: Invalid argument", NULL
	};
	static const char *const refused[] = { "uid=1000", NULL };

	ck_assert_int_eq(judge_file("", pass), 0);
	ck_says("\noverall: PASS\n");
	ck_assert_int_eq(judge_file("", fail), 1);
	ck_says("\noverall: FAIL\n");
	ck_assert_int_eq(judge_file("", refused), 2);
	ck_says("\noverall: REFUSED\n");
	/* --refused: the decision alone, silent. */
	ck_assert_int_eq(judge_file("--refused", refused), 2);
	ck_assert_str_eq(out, "");
	ck_assert_int_eq(judge_file("--refused", pass), 0);
	ck_assert_str_eq(out, "");
}

/* The facts --measure-only printed. */
static void read_facts(struct hw_facts *f)
{
	char *line, *save = NULL;

	memset(f, 0, sizeof(*f));
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		ck_assert_msg(!hw_fact_line(f, line), "not a fact: %s", line);
}

static unsigned long long count(const struct hw_facts *f, const char *key)
{
	const char *v = hw_fact(f, key);

	ck_assert_msg(v, "no %s", key);
	return strtoull(v, NULL, 10);
}

START_TEST(test_measures_on_sim)
{
	static struct hw_facts f;
	unsigned long long tsc;
	char *copy;
	FILE *m;

	ck_assert_int_eq(run(0, "--use-loaded --measure-only"), 0);
	copy = strdup(out);
	read_facts(&f);
	ck_assert_ptr_null(hw_fact(&f, "state_error"));
	ck_assert_ptr_null(hw_fact(&f, "perfex_error"));
	ck_assert_str_eq(hw_fact(&f, "simulated"), "yes");
	ck_assert_str_eq(hw_fact(&f, "perfctr_fallback"), "none");
	ck_assert_str_eq(hw_fact(&f, "loop_n"), LOOPS);
	ck_assert_str_eq(hw_fact(&f, "state_fast"), "yes");
	/* One a TSC tick, the kernel's time too: the same reads' TSC. */
	tsc = count(&f, "state_tsc");
	ck_assert_uint_gt(tsc, 0);
	ck_assert_msg(within(count(&f, "state_inst"), tsc, 10) &&
		      within(count(&f, "state_cycles"), tsc, 10),
		      "state page counts far from the TSC:\n%s", copy);
	ck_assert_uint_gt(count(&f, "state_base_inst"), 0);
	/*
	 * perfex: the whole process, each event at the TSC's rate. Under TCG
	 * its startup takes far longer than the loop, and varies: the loop
	 * of N need not count more than the loop of 0.
	 */
	ck_assert_uint_gt(count(&f, "perfex_base_inst"), 0);
	tsc = count(&f, "perfex_tsc");
	ck_assert_msg(within(count(&f, "perfex_inst"), tsc, 10) &&
		      within(count(&f, "perfex_cycles"), tsc, 10),
		      "perfex's counts far from its TSC:\n%s", copy);
	ck_assert_str_eq(hw_fact(&f, "perf"), "skipped");
	/* The judge then refuses the simulation, with its remedy. */
	m = fmemopen(out, sizeof(out), "w");
	ck_assert_int_eq(hw_judge(&f, m), HW_REFUSED);
	fclose(m);
	ck_says("REFUSED: the simulated PMU (perfctr_simpmu, a test build) is loaded");
	ck_says("what to do: umount /proc/perfctr; rmmod perfctr_simpmu; then run again\n");
	free(copy);
}

void hw_runner_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "runner", NULL, NULL);

	tcase_set_timeout(tc, 120);
	/* perfctr.ko refuses under TCG; a simulated PMU measures. */
	if (model_name) {
		tcase_add_test(tc, test_measures_on_sim);
		return;
	}
	tcase_add_test(tc, test_refuses_under_tcg);
	tcase_add_test(tc, test_refuses_non_root);
	tcase_add_test(tc, test_refuses_module_not_its_own);
	tcase_add_test(tc, test_hwjudge_exit_status);
}
