// SPDX-License-Identifier: GPL-2.0-only
/*
 * The judge's rules, each with a passing and a failing case: a run on a
 * machine whose counters are right, typed here, then one fact changed.
 * The bounds are worked out by hand from the loop: N = 10^8 iterations,
 * 2 instructions each.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

/*
 * State page: reads around 1 iteration retired 42, so 40 are the reads'
 * and N iterations must retire 2 * 10^8 + 40 = 200000040, within
 * 64 + 2 * 10^8 / 10^5 = 2064. perfex: startup 151234, so 200151234
 * within 20000 + 2 * 10^8 / 10^4 = 40000; perf: 200149876, the same.
 */
static const char *const good[] = {
	"uid=0", "kernel=6.1.0-18-amd64", "machine=x86_64",
	"kernel_build=#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1",
	"nmi_watchdog=0", "loop_n=100000000",
	"cpu_vendor=GenuineIntel", "cpu_family=6", "cpu_model=0x55",
	"cpu_stepping=4", "cpu_name=Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz",
	"hypervisor=none",
	"perfctr_version=0.2.0", "perfctr_cpu_type=Intel arch perfmon v4",
	"perfctr_nrctrs=4", "perfctr_fallback=none",
	"perfctr_reserved_by=none",
	"state_fast=yes", "state_base_inst=42", "state_base_cycles=60",
	"state_inst=200000045", "state_cycles=100000321",
	"perfex_base_inst=151234", "perfex_inst=200151300",
	"perfex_cycles=100412345",
	"perf=ok", "perf_version=perf version 6.1.76",
	"perf_base_inst=149876", "perf_inst=200149990",
	"perf_cycles=100398765",
	NULL
};

static char out[16384];

/* The verdict on the good run with @changes (NULL-ended) over it. */
static enum hw_outcome judge(const char *const *changes)
{
	static struct hw_facts f;
	const char *const *g;
	enum hw_outcome r;
	FILE *m;

	memset(&f, 0, sizeof(f));
	for (g = good; *g; g++)
		ck_assert_int_eq(hw_fact_line(&f, *g), 0);
	for (g = changes; *g; g++)
		ck_assert_int_eq(hw_fact_line(&f, *g), 0);
	m = fmemopen(out, sizeof(out), "w");
	ck_assert_ptr_nonnull(m);
	r = hw_judge(&f, m);
	fclose(m);
	return r;
}

/* The good run with one fact changed (NULL: none). */
static enum hw_outcome judge1(const char *change)
{
	const char *const one[] = { change, NULL };

	return judge(one);
}

/* The result column ("PASS", "FAIL", "SKIP") of check @name, or "". */
static const char *result_of(const char *name)
{
	static char word[5];
	const char *p;

	for (p = out; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (strlen(p) > 6 && !strncmp(p + 6, name, strlen(name)) &&
		    p[6 + strlen(name)] == ' ') {
			memcpy(word, p, 4);
			word[4] = '\0';
			return word;
		}
	}
	return "";
}

static void ck_result(const char *name, const char *want)
{
	ck_assert_msg(!strcmp(result_of(name), want), "%s: want %s in:\n%s",
		      name, want, out);
}

static void ck_says(const char *text)
{
	ck_assert_msg(strstr(out, text), "no \"%s\" in:\n%s", text, out);
}

/* Each of the NULL-ended @texts. */
static void ck_says_all(const char *const *texts)
{
	for (; *texts; texts++)
		ck_says(*texts);
}

START_TEST(test_good_run_passes)
{
	static const char *const want1[] = {
		"\ncpu:          GenuineIntel family 6 model 0x55 stepping 4: Intel(R) Xeon(R) Gold 6130 CPU @ 2.10GHz\n",
		"\nperfctr:      version 0.2.0, driver Intel arch perfmon v4, 4 counters, fallback: none, reserved_by: none\n",
		NULL
	};
	static const char *const want2[] = {
		"\nPASS  state instructions:u              200000045  200000040 +-2064           +5\n",
		"\nPASS  perfex instructions:u             200151300  200151234 +-40000          +66\n",
		"\nPASS  perf instructions:u               200149990  200149876 +-40000          +114\n",
		NULL
	};

	ck_assert_int_eq(judge1(NULL), HW_PASS);
	ck_says("---- perfctr check-hw verdict: paste from here into a bug report ----\n");
	ck_says("\nkernel:       6.1.0-18-amd64 x86_64 (#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1)\n");
	ck_says_all(want1);
	ck_says("\nperf:         perf version 6.1.76\n");
	ck_says_all(want2);
	ck_says("\noverall: PASS\n---- end of verdict ----\n");
	ck_assert_ptr_null(strstr(out, "FAIL"));
	ck_assert_ptr_null(strstr(out, "REFUSED"));
}

/* --- refusals: exit 2, why, and what to do --- */

START_TEST(test_refuses_non_root)
{
	ck_assert_int_eq(judge1("uid=1000"), HW_REFUSED);
	ck_says("REFUSED: not root");
	ck_says("what to do: run it as root: sudo make check-hw\n");
	ck_says("\noverall: REFUSED\n");
	/* Nothing measured is judged once refused. */
	ck_assert_str_eq(result_of("state instructions:u"), "");
	ck_assert_int_eq(judge1("uid=0"), HW_PASS);
}

START_TEST(test_refuses_tcg)
{
	static const char *const tcg[] = {
		"hypervisor=TCGTCGTCGTCG", "perfctr_cpu_type=Generic x86 with TSC",
		"perfctr_nrctrs=0",
		"perfctr_fallback=counters do not count (emulator or hypervisor?)",
		NULL
	};
	static const char *const want[] = {
		"what to do: run make check-hw on bare metal, or in a KVM guest started with -cpu host,pmu=on\n",
		NULL
	};

	ck_assert_int_eq(judge(tcg), HW_REFUSED);
	ck_says("REFUSED: running under QEMU TCG, an emulator (CPUID hypervisor TCGTCGTCGTCG)");
	ck_says("perfctr's fallback: counters do not count (emulator or hypervisor?)\n");
	ck_says_all(want);
	/* Even where counters seemed to count, an emulator's are not real. */
	ck_assert_int_eq(judge1("hypervisor=TCGTCGTCGTCG"), HW_REFUSED);
}

START_TEST(test_guest_needs_virtual_pmu)
{
	static const char *const no_pmu[] = {
		"hypervisor=KVMKVMKVM", "perfctr_cpu_type=Generic x86 with TSC",
		"perfctr_nrctrs=0",
		"perfctr_fallback=no architectural perfmon in CPUID leaf 0xA",
		NULL
	};
	static const char *const want[] = {
		"REFUSED: a virtual machine (CPUID hypervisor KVMKVMKVM) without a virtual PMU: perfctr's driver Generic x86 with TSC, 0 counters, fallback: no architectural perfmon in CPUID leaf 0xA\n",
		NULL
	};

	ck_assert_int_eq(judge(no_pmu), HW_REFUSED);
	ck_says_all(want);
	ck_says("what to do: start the guest with -cpu host,pmu=on");
	/* A guest with a virtual PMU is checked as bare metal is. */
	ck_assert_int_eq(judge1("hypervisor=KVMKVMKVM"), HW_PASS);
	ck_says("\nhypervisor:   KVMKVMKVM\n");
}

START_TEST(test_refuses_nmi_watchdog)
{
	static const char *const wd[] = {
		"nmi_watchdog=1",
		"perfctr_reserved_by=perf_events (the NMI watchdog or a perf user)",
		NULL
	};
	static const char *const want[] = {
		"REFUSED: the counters are taken: reserved_by: perf_events (the NMI watchdog or a perf user)\n",
		"what to do: the NMI watchdog is on and keeps a counter: sysctl kernel.nmi_watchdog=0",
		NULL
	};

	ck_assert_int_eq(judge(wd), HW_REFUSED);
	ck_says_all(want);
	ck_says("kernel.nmi_watchdog=0 in /etc/sysctl.d/perfctr.conf");
	/* The watchdog on, but not on the counters (the buddy detector). */
	ck_assert_int_eq(judge1("nmi_watchdog=1"), HW_PASS);
	ck_says("\nnmi_watchdog: 1\n");
}

START_TEST(test_refuses_perf_holder)
{
	static const char *const want[] = {
		"what to do: stop the program that counts with perfctr, or as root: echo 1 > /proc/perfctr/reclaim\n",
		NULL
	};

	ck_assert_int_eq(judge1("perfctr_reserved_by=perf_events or the NMI watchdog"),
			 HW_REFUSED);
	ck_says("what to do: a perf_events user holds them");
	ck_assert_ptr_null(strstr(out, "nmi_watchdog=0"));
	ck_assert_int_eq(judge1("perfctr_reserved_by=virtual counters (uid 1000)"),
			 HW_REFUSED);
	ck_says_all(want);
}

START_TEST(test_refuses_preloaded_and_simulated)
{
	static const char *const want[] = {
		"REFUSED: a perfctr module was loaded already, not by check-hw\n  what to do: umount /proc/perfctr; rmmod perfctr;",
		NULL
	};

	ck_assert_int_eq(judge1("perfctr_preloaded=yes"), HW_REFUSED);
	ck_says_all(want);
	ck_assert_int_eq(judge1("simulated=yes"), HW_REFUSED);
	ck_says("REFUSED: the simulated PMU (perfctr_simpmu, a test build) is loaded");
	ck_assert_int_eq(judge1("simulated=no"), HW_PASS);
}

/* --- measured facts --- */

START_TEST(test_bare_metal_fallback_fails)
{
	static const char *const fb[] = {
		"perfctr_cpu_type=Generic x86 with TSC", "perfctr_nrctrs=0",
		"perfctr_fallback=counters do not count (emulator or hypervisor?)",
		NULL
	};

	/* No hypervisor: not an environment to refuse, but perfctr's bug. */
	ck_assert_int_eq(judge(fb), HW_FAIL);
	ck_result("hardware counters", "FAIL");
	ck_says("report this verdict");
	ck_assert_int_eq(judge1(NULL), HW_PASS);
	ck_result("hardware counters", "PASS");
}

START_TEST(test_state_instructions)
{
	static const char *const want[] = {
		"\nFAIL  state instructions:u              200002105  200000040 +-2064           +2065\n",
		NULL
	};

	ck_assert_int_eq(judge1("state_inst=200002104"), HW_PASS);
	ck_assert_int_eq(judge1("state_inst=199997976"), HW_PASS);
	ck_assert_int_eq(judge1("state_inst=200002105"), HW_FAIL);
	ck_result("state instructions:u", "FAIL");
	ck_says_all(want);
	ck_says("\noverall: FAIL\n");
	ck_assert_int_eq(judge1("state_inst=199997975"), HW_FAIL);
	ck_result("state instructions:u", "FAIL");
}

START_TEST(test_state_read_overhead)
{
	/*
	 * 2000 instructions of reads at most (40 in the good run); with 2000
	 * the loop's 200000045 is 1955 below 200002000: within 2064.
	 */
	ck_assert_int_eq(judge1("state_base_inst=2002"), HW_PASS);
	ck_result("state read overhead", "PASS");
	ck_assert_int_eq(judge1("state_base_inst=2003"), HW_FAIL);
	ck_result("state read overhead", "FAIL");
	ck_assert_int_eq(judge1("state_base_inst=1"), HW_FAIL);
	ck_result("state reads around 1 iteration", "FAIL");
}

START_TEST(test_state_fast_read)
{
	ck_assert_int_eq(judge1("state_fast=no"), HW_FAIL);
	ck_result("state page fast read", "FAIL");
	ck_says("RDPMC is off");
	ck_assert_int_eq(judge1("state_fast=yes"), HW_PASS);
}

START_TEST(test_state_cycles)
{
	/* 10^8 / 4 to 16 * 10^8 cycles for 10^8 iterations. */
	judge1("state_cycles=25000000");
	ck_result("state cycles:u", "PASS");
	judge1("state_cycles=24999999");
	ck_result("state cycles:u", "FAIL");
	judge1("state_cycles=1600000000");
	ck_result("state cycles:u", "PASS");
	judge1("state_cycles=1600000001");
	ck_result("state cycles:u", "FAIL");
}

START_TEST(test_state_error)
{
	ck_assert_int_eq(judge1("state_error=control: Device or resource busy"),
			 HW_FAIL);
	ck_says("\nFAIL  state page                     control: Device or resource busy\n");
}

START_TEST(test_perfex_instructions)
{
	judge1("perfex_inst=200191234");
	ck_result("perfex instructions:u", "PASS");
	judge1("perfex_inst=200111234");
	ck_result("perfex instructions:u", "PASS");
	ck_assert_int_eq(judge1("perfex_inst=200191235"), HW_FAIL);
	ck_result("perfex instructions:u", "FAIL");
	ck_assert_int_eq(judge1("perfex_inst=200111233"), HW_FAIL);
	ck_result("perfex instructions:u", "FAIL");
}

START_TEST(test_perfex_startup)
{
	/* At most 5 * 10^6, and never nothing. */
	judge1("perfex_base_inst=5000000");
	ck_result("perfex startup instructions", "PASS");
	judge1("perfex_base_inst=5000001");
	ck_result("perfex startup instructions", "FAIL");
	ck_assert_int_eq(judge1("perfex_base_inst=0"), HW_FAIL);
	ck_result("perfex startup instructions", "FAIL");
}

START_TEST(test_perfex_error)
{
	static const char *const want[] = {
		"\nFAIL  perfex                         perfex failed: perfex: control: Device or resource busy\n",
		NULL
	};

	static const char busy[] =
		"perfex_error=perfex failed: perfex: control: Device or resource busy";

	ck_assert_int_eq(judge1(busy), HW_FAIL);
	ck_says_all(want);
}

START_TEST(test_perfex_cycles)
{
	/* Half to twice the state page's 100000321. */
	judge1("perfex_cycles=200000642");
	ck_result("perfex cycles:u vs state", "PASS");
	judge1("perfex_cycles=200000643");
	ck_result("perfex cycles:u vs state", "FAIL");
	judge1("perfex_cycles=50000160");
	ck_result("perfex cycles:u vs state", "PASS");
	judge1("perfex_cycles=50000159");
	ck_result("perfex cycles:u vs state", "FAIL");
	ck_assert_int_eq(judge1("perfex_cycles=0"), HW_FAIL);
	ck_says("a cycle count is 0");
}

START_TEST(test_perf_agrees)
{
	/* Each 39000 off its own, the other way: 78000 apart. */
	static const char *const apart[] = {
		"perfex_inst=200190234", "perf_inst=200110876", NULL
	};

	/* perf's own count 40001 off. */
	ck_assert_int_eq(judge1("perf_inst=200189877"), HW_FAIL);
	ck_result("perf instructions:u", "FAIL");
	ck_assert_int_eq(judge(apart), HW_FAIL);
	ck_result("perfex instructions:u", "PASS");
	ck_result("perf instructions:u", "PASS");
	ck_result("perfex vs perf, net of startup", "FAIL");
	/* Cycles: half to twice perf's 100398765. */
	ck_assert_int_eq(judge1("perf_cycles=50206173"), HW_PASS);
	ck_assert_int_eq(judge1("perf_cycles=50206172"), HW_FAIL);
	ck_result("perfex cycles:u vs perf", "FAIL");
}

START_TEST(test_perf_absent_skips)
{
	static const char *const absent[] = {
		"perf=absent", "perf_version=",
		"perf_reason=perf is not installed: apt install linux-perf (Debian)",
		NULL
	};
	static const char *const want[] = {
		"\nSKIP  perf stat comparison           perf is not installed: apt install linux-perf (Debian)\n",
		NULL
	};

	ck_assert_int_eq(judge(absent), HW_PASS);
	ck_says_all(want);
	ck_says("\nperf:         perf is not installed");
	ck_assert_str_eq(result_of("perf instructions:u"), "");
}

START_TEST(test_loop_too_short)
{
	/* 10^7 iterations at least: the bounds hold only for long loops. */
	static const char *const short_loop[] = {
		"loop_n=9999999", NULL
	};

	ck_assert_int_eq(judge(short_loop), HW_FAIL);
	ck_result("loop", "FAIL");
	ck_says("PERFCTR_HW_LOOPS");
	judge1("loop_n=10000000");
	ck_result("loop", "");
	ck_result("state instructions:u", "FAIL");
}

START_TEST(test_module_error_fails)
{
	static const char *const not_loaded[] = {
		"perfctr_version=",
		"module_error=insmod perfctr.ko: Invalid module format", NULL
	};

	ck_assert_int_eq(judge(not_loaded), HW_FAIL);
	ck_result("module", "FAIL");
	ck_says("\nperfctr:      not loaded\n");
	ck_assert_str_eq(result_of("state instructions:u"), "");
	/* A module that would not unload: the counts are judged still. */
	ck_assert_int_eq(judge1("module_error=rmmod perfctr failed"), HW_FAIL);
	ck_result("module", "FAIL");
	ck_result("state instructions:u", "PASS");
}

START_TEST(test_facts_parse)
{
	static struct hw_facts f;
	char line[700];

	memset(&f, 0, sizeof(f));
	ck_assert_int_eq(hw_fact_line(&f, "a=1\n"), 0);
	ck_assert_int_eq(hw_fact_line(&f, "a=2"), 0);
	ck_assert_str_eq(hw_fact(&f, "a"), "2");
	ck_assert_int_eq(hw_fact_line(&f, "b="), 0);
	ck_assert_ptr_null(hw_fact(&f, "b"));
	ck_assert_int_eq(hw_fact_line(&f, "no equals sign"), -1);
	ck_assert_int_eq(hw_fact_line(&f, "=value"), -1);
	/* A value too long for the 511 characters kept is cut there. */
	memset(line, 'x', sizeof(line) - 1);
	line[sizeof(line) - 1] = '\0';
	memcpy(line, "long=", 5);
	ck_assert_int_eq(hw_fact_line(&f, line), 0);
	ck_assert_uint_eq(strlen(hw_fact(&f, "long")), 511);
	ck_assert_ptr_null(hw_fact(&f, "c"));
	/* A count that is not a plain number is no count. */
	ck_assert_int_eq(judge1("state_inst=-5"), HW_FAIL);
	ck_says("hwloop state did not run");
}

void hw_rules_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "rules", NULL, NULL);

	tcase_add_test(tc, test_good_run_passes);
	tcase_add_test(tc, test_refuses_non_root);
	tcase_add_test(tc, test_refuses_tcg);
	tcase_add_test(tc, test_guest_needs_virtual_pmu);
	tcase_add_test(tc, test_refuses_nmi_watchdog);
	tcase_add_test(tc, test_refuses_perf_holder);
	tcase_add_test(tc, test_refuses_preloaded_and_simulated);
	tcase_add_test(tc, test_bare_metal_fallback_fails);
	tcase_add_test(tc, test_state_instructions);
	tcase_add_test(tc, test_state_read_overhead);
	tcase_add_test(tc, test_state_fast_read);
	tcase_add_test(tc, test_state_cycles);
	tcase_add_test(tc, test_state_error);
	tcase_add_test(tc, test_perfex_instructions);
	tcase_add_test(tc, test_perfex_startup);
	tcase_add_test(tc, test_perfex_error);
	tcase_add_test(tc, test_perfex_cycles);
	tcase_add_test(tc, test_perf_agrees);
	tcase_add_test(tc, test_perf_absent_skips);
	tcase_add_test(tc, test_loop_too_short);
	tcase_add_test(tc, test_module_error_fails);
	tcase_add_test(tc, test_facts_parse);
}
