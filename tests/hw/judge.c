// SPDX-License-Identifier: GPL-2.0-only
/*
 * make check-hw's judge: the facts a run measured against what the loop's
 * code says they must be (Documentation/perfctr/testing.rst, "Real
 * counters"). Pure: facts in, verdict text and outcome out.
 */
#include <stdlib.h>
#include <string.h>

#include "judge.h"

/*
 * Tolerances, in instructions. On x86 an interrupt or a page fault can
 * make the instruction it interrupted count twice. The loop retires 10^6
 * instructions or more a millisecond, and a timer tick (HZ 1000 at most)
 * comes once a millisecond: one per 10^5 instructions, plus a few, is
 * ample.
 */
#define STATE_SLACK		64
#define STATE_PER		100000
/* The fast read's own instructions between two reads: tens, not more. */
#define READ_OVERHEAD_MAX	2000
/*
 * A whole process: its startup (the dynamic loader, libc) varies by some
 * thousands of instructions between runs, as the environment and the
 * address-space layout do.
 */
#define PROC_SLACK		20000
#define PROC_PER		10000
/*
 * A small program's startup is some 10^5 instructions: 50 times that is
 * a count of something else (the counting tool, the kernel).
 */
#define STARTUP_MAX		5000000
/* Below this many iterations the startup's spread is not small beside. */
#define LOOP_MIN		10000000
/*
 * An iteration of a dependent dec and a taken jnz takes one or two
 * cycles on the CPUs perfctr drives; a factor of four around that is
 * sanity, not a timing check. Two counts of the same loop from two
 * tools are of the same order within a factor of two.
 */
#define CYCLES_MIN_DIV		4
#define CYCLES_MAX_MUL		16
#define ORDER			2

#define EMULATOR_TCG		"TCGTCGTCGTCG"

struct verdict {
	FILE *out;
	unsigned int failed;
};

int hw_fact_line(struct hw_facts *f, const char *line)
{
	const char *eq = strchr(line, '=');
	size_t klen, vlen;

	if (!eq || eq == line || f->nr == HW_MAX_FACTS)
		return -1;
	klen = eq - line;
	vlen = strcspn(eq + 1, "\n");
	if (klen >= sizeof(f->key[0]))
		return -1;
	/* A tool's error may be long: its start says enough. */
	if (vlen >= sizeof(f->val[0]))
		vlen = sizeof(f->val[0]) - 1;
	memcpy(f->key[f->nr], line, klen);
	f->key[f->nr][klen] = '\0';
	memcpy(f->val[f->nr], eq + 1, vlen);
	f->val[f->nr][vlen] = '\0';
	f->nr++;
	return 0;
}

const char *hw_fact(const struct hw_facts *f, const char *key)
{
	unsigned int i;

	for (i = f->nr; i-- > 0;)
		if (!strcmp(f->key[i], key))
			return f->val[i][0] ? f->val[i] : NULL;
	return NULL;
}

/* A fact as a count; -1 if absent or not a plain decimal number. */
static int fact_u64(const struct hw_facts *f, const char *key, unsigned long long *v)
{
	const char *s = hw_fact(f, key);
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -1;
	*v = strtoull(s, &end, 10);
	return *end ? -1 : 0;
}

static const char *fact_or(const struct hw_facts *f, const char *key,
			   const char *dflt)
{
	const char *s = hw_fact(f, key);

	return s && *s ? s : dflt;
}

static int fact_is(const struct hw_facts *f, const char *key, const char *v)
{
	const char *s = hw_fact(f, key);

	return s && !strcmp(s, v);
}

/* --- refusals: where real counters are not there to check --- */

static int in_emulator(const struct hw_facts *f)
{
	return fact_is(f, "hypervisor", EMULATOR_TCG);
}

static int in_guest(const struct hw_facts *f)
{
	const char *hv = hw_fact(f, "hypervisor");

	return hv && strcmp(hv, "none") && !in_emulator(f);
}

/* perfctr counts with hardware counters, not only the TSC. */
static int has_counters(const struct hw_facts *f)
{
	unsigned long long n;

	return fact_is(f, "perfctr_fallback", "none") &&
	       !fact_u64(f, "perfctr_nrctrs", &n) && n > 0;
}

/* What each refusal tells the user to do. */
enum {
	TODO_ROOT, TODO_PRELOADED, TODO_SIMULATED, TODO_EMULATOR, TODO_GUEST,
	TODO_WATCHDOG, TODO_PERF, TODO_PERFCTR
};

static const char *const todo[] = {
	[TODO_ROOT] =
		"run it as root: sudo make check-hw",
	[TODO_PRELOADED] =
		"umount /proc/perfctr; rmmod perfctr; then run again, so that the module built from this tree is the one checked",
	[TODO_SIMULATED] =
		"umount /proc/perfctr; rmmod perfctr_simpmu; then run again",
	[TODO_EMULATOR] =
		"run make check-hw on bare metal, or in a KVM guest started with -cpu host,pmu=on",
	[TODO_GUEST] =
		"start the guest with -cpu host,pmu=on (libvirt: <cpu mode='host-passthrough'/> and <pmu state='on'/>), or run on bare metal",
	[TODO_WATCHDOG] =
		"the NMI watchdog is on and keeps a counter: sysctl kernel.nmi_watchdog=0, run again, then sysctl kernel.nmi_watchdog=1 (to keep it off: kernel.nmi_watchdog=0 in /etc/sysctl.d/perfctr.conf, or nmi_watchdog=0 on the kernel command line)",
	[TODO_PERF] =
		"a perf_events user holds them (perf stat/record/top, a profiler, a monitoring agent): stop it, then run again",
	[TODO_PERFCTR] =
		"stop the program that counts with perfctr, or as root: echo 1 > /proc/perfctr/reclaim",
};

static void refuse(FILE *out, const char *why, const char *what)
{
	fprintf(out, "REFUSED: %s\n  what to do: %s\n", why, what);
}

static void refuse_holder(const struct hw_facts *f, FILE *out)
{
	const char *holder = hw_fact(f, "perfctr_reserved_by");
	char why[320];

	snprintf(why, sizeof(why), "the counters are taken: reserved_by: %s",
		 holder);
	/* The kernel's holder is named perf_events, the watchdog's too. */
	if (strncmp(holder, "perf_events", 11))
		refuse(out, why, todo[TODO_PERFCTR]);
	else if (fact_is(f, "nmi_watchdog", "1"))
		refuse(out, why, todo[TODO_WATCHDOG]);
	else
		refuse(out, why, todo[TODO_PERF]);
}

static int refuse_environment(const struct hw_facts *f, FILE *out)
{
	const char *fb = fact_or(f, "perfctr_fallback", "unknown");
	const char *hv = fact_or(f, "hypervisor", "unknown");
	char why[512];

	if (in_emulator(f)) {
		snprintf(why, sizeof(why),
			 "running under QEMU TCG, an emulator (CPUID hypervisor %s): it has no performance counters; perfctr's fallback: %s",
			 hv, fb);
		refuse(out, why, todo[TODO_EMULATOR]);
		return 1;
	}
	/* Without perfctr's info (not root, no module) nothing is known. */
	if (in_guest(f) && hw_fact(f, "perfctr_fallback") && !has_counters(f)) {
		snprintf(why, sizeof(why),
			 "a virtual machine (CPUID hypervisor %s) without a virtual PMU: perfctr's driver %s, %s counters, fallback: %s",
			 hv, fact_or(f, "perfctr_cpu_type", "unknown"),
			 fact_or(f, "perfctr_nrctrs", "?"), fb);
		refuse(out, why, todo[TODO_GUEST]);
		return 1;
	}
	return 0;
}

enum hw_outcome hw_refusals(const struct hw_facts *f, FILE *out)
{
	const char *holder = hw_fact(f, "perfctr_reserved_by");
	int n = 0;

	if (!fact_is(f, "uid", "0")) {
		refuse(out, "not root: check-hw loads a kernel module",
		       todo[TODO_ROOT]);
		n++;
	}
	if (fact_is(f, "perfctr_preloaded", "yes")) {
		refuse(out, "a perfctr module was loaded already, not by check-hw",
		       todo[TODO_PRELOADED]);
		n++;
	}
	if (fact_is(f, "simulated", "yes")) {
		refuse(out,
		       "the simulated PMU (perfctr_simpmu, a test build) is loaded: its counters count TSC ticks, not events",
		       todo[TODO_SIMULATED]);
		n++;
	}
	n += refuse_environment(f, out);
	if (holder && strcmp(holder, "none")) {
		refuse_holder(f, out);
		n++;
	}
	return n ? HW_REFUSED : HW_PASS;
}

/* --- the checks --- */

/* A count against an expected value, within a tolerance either way. */
static void line(struct verdict *v, int pass, const char *name,
		 unsigned long long got, unsigned long long want, unsigned long long tol)
{
	char exp[48];

	snprintf(exp, sizeof(exp), "%llu +-%llu", want, tol);
	fprintf(v->out, "%-4s  %-30s %12llu  %-26s %+lld\n",
		pass ? "PASS" : "FAIL", name, got, exp, (long long)(got - want));
	v->failed += !pass;
}

/* A count against a range. */
static void range(struct verdict *v, const char *name, unsigned long long got,
		  unsigned long long lo, unsigned long long hi)
{
	char exp[48];
	int pass = got >= lo && got <= hi;

	snprintf(exp, sizeof(exp), "%llu..%llu", lo, hi);
	fprintf(v->out, "%-4s  %-30s %12llu  %s\n",
		pass ? "PASS" : "FAIL", name, got, exp);
	v->failed += !pass;
}

static void note(struct verdict *v, const char *result, const char *name,
		 const char *what)
{
	fprintf(v->out, "%-4s  %-30s %s\n", result, name, what);
	v->failed += !strcmp(result, "FAIL");
}

static int within(unsigned long long got, unsigned long long want, unsigned long long tol)
{
	return got >= want ? got - want <= tol : want - got <= tol;
}

static const char bare_metal_fallback[] =
	"      perfctr uses only the TSC where CPUID shows no hypervisor: report this verdict\n";

static void check_hardware(const struct hw_facts *f, struct verdict *v)
{
	char what[384];

	snprintf(what, sizeof(what), "driver %s, %s counters, fallback: %s",
		 fact_or(f, "perfctr_cpu_type", "unknown"),
		 fact_or(f, "perfctr_nrctrs", "?"),
		 fact_or(f, "perfctr_fallback", "unknown"));
	if (has_counters(f)) {
		note(v, "PASS", "hardware counters", what);
		return;
	}
	note(v, "FAIL", "hardware counters", what);
	fputs(bare_metal_fallback, v->out);
}

static void check_state(const struct hw_facts *f, unsigned long long n, struct verdict *v)
{
	unsigned long long base, inst, cycles, tol = STATE_SLACK + 2 * n / STATE_PER;

	if (hw_fact(f, "state_error")) {
		note(v, "FAIL", "state page", hw_fact(f, "state_error"));
		return;
	}
	if (fact_u64(f, "state_base_inst", &base) ||
	    fact_u64(f, "state_inst", &inst) ||
	    fact_u64(f, "state_cycles", &cycles)) {
		note(v, "FAIL", "state page", "no counts: hwloop state did not run");
		return;
	}
	if (fact_is(f, "state_fast", "yes"))
		note(v, "PASS", "state page fast read", "mapped, RDPMC allowed");
	else
		note(v, "FAIL", "state page fast read",
		     "not used: the page is not mapped, or RDPMC is off (perfctr.rdpmc=0)");
	/* One iteration retires 2 instructions; the rest is the reads'. */
	if (base < 2) {
		range(v, "state reads around 1 iteration", base, 2,
		      2 + READ_OVERHEAD_MAX);
		return;
	}
	range(v, "state read overhead", base - 2, 0, READ_OVERHEAD_MAX);
	line(v, within(inst, 2 * n - 2 + base, tol), "state instructions:u",
	     inst, 2 * n - 2 + base, tol);
	range(v, "state cycles:u", cycles, n / CYCLES_MIN_DIV,
	      n * CYCLES_MAX_MUL);
}

/*
 * A whole process counted by @tool (perfex, perf): the loop of n plus the
 * startup that the same command with a loop of 0 retired.
 */
static int check_process(const struct hw_facts *f, const char *tool,
			 unsigned long long n, struct verdict *v, unsigned long long *net)
{
	unsigned long long base, inst, tol = PROC_SLACK + 2 * n / PROC_PER;
	char key[3][40], name[64];

	snprintf(key[0], sizeof(key[0]), "%s_base_inst", tool);
	snprintf(key[1], sizeof(key[1]), "%s_inst", tool);
	snprintf(key[2], sizeof(key[2]), "%s_error", tool);
	snprintf(name, sizeof(name), "%s startup instructions", tool);
	if (hw_fact(f, key[2]) || fact_u64(f, key[0], &base) ||
	    fact_u64(f, key[1], &inst)) {
		note(v, "FAIL", tool, fact_or(f, key[2], "no counts"));
		return -1;
	}
	range(v, name, base, 1, STARTUP_MAX);
	snprintf(name, sizeof(name), "%s instructions:u", tool);
	line(v, within(inst, 2 * n + base, tol), name, inst, 2 * n + base, tol);
	*net = inst - base;
	return 0;
}

static void check_cycles(const struct hw_facts *f, const char *what,
			 const char *a, const char *b, struct verdict *v)
{
	unsigned long long x, y;

	if (fact_u64(f, a, &x) || fact_u64(f, b, &y)) {
		note(v, "FAIL", what, "no cycle counts");
		return;
	}
	if (!x || !y) {
		note(v, "FAIL", what, "a cycle count is 0: the counter did not count");
		return;
	}
	range(v, what, x, y / ORDER, y * ORDER);
}

static void check_perf(const struct hw_facts *f, unsigned long long n,
		       unsigned long long perfex_net, int have_perfex, struct verdict *v)
{
	unsigned long long net, tol = PROC_SLACK + 2 * n / PROC_PER;

	if (!fact_is(f, "perf", "ok")) {
		note(v, "SKIP", "perf stat comparison",
		     fact_or(f, "perf_reason", "perf was not run"));
		return;
	}
	if (check_process(f, "perf", n, v, &net))
		return;
	if (have_perfex)
		line(v, within(perfex_net, net, tol),
		     "perfex vs perf, net of startup", perfex_net, net, tol);
	check_cycles(f, "perfex cycles:u vs perf", "perfex_cycles",
		     "perf_cycles", v);
}

static void header_perfctr(const struct hw_facts *f, FILE *out)
{
	if (!hw_fact(f, "perfctr_version")) {
		fprintf(out, "perfctr:      not loaded\n");
		return;
	}
	fprintf(out,
		"perfctr:      version %s, driver %s, %s counters, fallback: %s, reserved_by: %s\n",
		fact_or(f, "perfctr_version", "?"),
		fact_or(f, "perfctr_cpu_type", "?"),
		fact_or(f, "perfctr_nrctrs", "?"),
		fact_or(f, "perfctr_fallback", "?"),
		fact_or(f, "perfctr_reserved_by", "?"));
}

static void header(const struct hw_facts *f, FILE *out)
{
	fprintf(out, "---- perfctr check-hw verdict: paste from here into a bug report ----\n");
	fprintf(out, "kernel:       %s %s (%s)\n", fact_or(f, "kernel", "?"),
		fact_or(f, "machine", "?"), fact_or(f, "kernel_build", "?"));
	fprintf(out, "cpu:          %s family %s model %s stepping %s: %s\n",
		fact_or(f, "cpu_vendor", "?"), fact_or(f, "cpu_family", "?"),
		fact_or(f, "cpu_model", "?"), fact_or(f, "cpu_stepping", "?"),
		fact_or(f, "cpu_name", "?"));
	fprintf(out, "hypervisor:   %s\n", fact_or(f, "hypervisor", "?"));
	fprintf(out, "nmi_watchdog: %s\n", fact_or(f, "nmi_watchdog", "?"));
	header_perfctr(f, out);
	fprintf(out, "perf:         %s\n",
		fact_or(f, "perf_version", fact_or(f, "perf_reason", "not run")));
}

static enum hw_outcome measured(const struct hw_facts *f, FILE *out)
{
	struct verdict v = { .out = out };
	unsigned long long n, net = 0;
	int have_perfex;

	if (hw_fact(f, "module_error")) {
		note(&v, "FAIL", "module", hw_fact(f, "module_error"));
		/* Not loaded: nothing was counted. Not unloaded: judge on. */
		if (!hw_fact(f, "perfctr_version"))
			return HW_FAIL;
	}
	if (fact_u64(f, "loop_n", &n) || n < LOOP_MIN) {
		note(&v, "FAIL", "loop",
		     "fewer than 10^7 iterations (PERFCTR_HW_LOOPS): give more");
		return HW_FAIL;
	}
	fprintf(out, "loop:         %llu iterations of dec/jnz: %llu instructions, user mode\n",
		n, 2 * n);
	fprintf(out, "%-4s  %-30s %12s  %-26s %s\n", "", "check", "measured",
		"expected", "deviation");
	check_hardware(f, &v);
	check_state(f, n, &v);
	have_perfex = !check_process(f, "perfex", n, &v, &net);
	check_cycles(f, "perfex cycles:u vs state", "perfex_cycles",
		     "state_cycles", &v);
	check_perf(f, n, net, have_perfex, &v);
	return v.failed ? HW_FAIL : HW_PASS;
}

enum hw_outcome hw_judge(const struct hw_facts *f, FILE *out)
{
	static const char *const word[] = { "PASS", "FAIL", "REFUSED" };
	enum hw_outcome r;

	header(f, out);
	r = hw_refusals(f, out);
	if (r == HW_PASS)
		r = measured(f, out);
	fprintf(out, "overall: %s\n", word[r]);
	fprintf(out, "---- end of verdict ----\n");
	return r;
}
