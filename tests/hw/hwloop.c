// SPDX-License-Identifier: GPL-2.0-only
/*
 * hwloop: the measuring side of make check-hw (Documentation/perfctr/
 * testing.rst, "Real counters").
 *
 *   hwloop cpu        this CPU and hypervisor, as key=value facts
 *   hwloop loop N     N iterations of the loop, nothing else (N may be 0):
 *                     the command perfex and perf stat count
 *   hwloop state N    the loop counted in-process through the state page
 *                     (libperfctr's fast read), as key=value facts
 *
 * The loop retires exactly 2 user-mode instructions an iteration (dec,
 * jnz), so its count is known from its code.
 */
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libperfctr.h"

#define EVENTS		"instructions:u,cycles:u"
#define BASE_RUNS	5	/* the reads around one iteration */
#define LOOP_RUNS	3	/* the reads around N iterations */
/* User space has no noinline: the attribute, as tests/user/bench.c spells it. */
#define opaque		__attribute__((noipa))

/*
 * Out of line (noipa) and in asm so that the compiler can neither unroll nor drop
 * it: n iterations of 2 instructions; n must not be 0 (dec would wrap).
 */
static opaque void hw_loop(unsigned long n)
{
	asm volatile("1:\n\tdec %0\n\tjnz 1b" : "+r"(n) : : "cc");
}

static int parse_n(const char *s, unsigned long *n)
{
	char *end;

	errno = 0;
	*n = strtoul(s, &end, 10);
	return errno || end == s || *end || s[0] == '-' ? -1 : 0;
}

/* --- hwloop cpu --- */

/* The hypervisor's CPUID vendor, printable characters only, or "none". */
static void print_hypervisor(void)
{
	unsigned int a, b, c, d, i, r[3];
	char name[13];

	__cpuid(1, a, b, c, d);
	if (!(c & (1U << 31))) {
		printf("hypervisor=none\n");
		return;
	}
	__cpuid(0x40000000, a, r[0], r[1], r[2]);
	memcpy(name, r, 12);
	name[12] = '\0';
	for (i = 0; i < 12 && name[i]; i++)
		if (name[i] < 0x21 || name[i] > 0x7e)
			name[i] = '_';
	printf("hypervisor=%s\n", name[0] ? name : "unnamed");
}

static void print_brand(void)
{
	unsigned int a, b, c, d, leaf, r[12];
	char *s;

	__cpuid(0x80000000, a, b, c, d);
	if (a < 0x80000004) {
		printf("cpu_name=unknown\n");
		return;
	}
	for (leaf = 0; leaf < 3; leaf++)
		__cpuid(0x80000002 + leaf, r[4 * leaf], r[4 * leaf + 1],
			r[4 * leaf + 2], r[4 * leaf + 3]);
	s = (char *)r;
	s[47] = '\0';
	while (*s == ' ')
		s++;
	printf("cpu_name=%s\n", s);
}

static int cmd_cpu(void)
{
	unsigned int a, b, c, d, family, model, r[3];
	char vendor[13];

	__cpuid(0, a, r[0], r[2], r[1]);	/* EBX, EDX, ECX spell it */
	memcpy(vendor, r, 12);
	vendor[12] = '\0';
	__cpuid(1, a, b, c, d);
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	/* The extended fields count only where the base ones are full. */
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family == 6 || family >= 0xf)
		model |= ((a >> 16) & 0xf) << 4;
	printf("cpu_vendor=%s\ncpu_family=%u\ncpu_model=0x%x\ncpu_stepping=%u\n",
	       vendor, family, model, a & 0xf);
	print_brand();
	print_hypervisor();
	return 0;
}

/* --- hwloop state N --- */

struct sample {
	unsigned long long inst, cycles, tsc;
};

static int state_open(struct vperfctr **vp, struct perfctr_event_set *set)
{
	const struct perfctr_event_table *t;
	struct vperfctr_control ctl;
	char id[64];

	t = perfctr_cpuid(id, sizeof(id)) ? NULL : perfctr_event_table(id);
	if (!t) {
		printf("state_error=no event table for CPU id %s: report it with this verdict\n",
		       id);
		return -1;
	}
	if (perfctr_event_encode(t, EVENTS, PERFCTR_EVENT_USER, &ctl, set)) {
		printf("state_error=%s: %s\n", EVENTS, set->error);
		return -1;
	}
	*vp = vperfctr_open();
	if (!*vp) {
		printf("state_error=%s/self: %s: is perfctr loaded and mounted?\n",
		       PERFCTR_ROOT, strerror(errno));
		return -1;
	}
	if (vperfctr_control(*vp, &ctl)) {
		const char *why = perfctr_explain(errno);

		printf("state_error=control: %s%s", strerror(errno),
		       why ? ": " : "");
		/* A fact is one line: the advice's lines joined. */
		for (; why && *why; why++)
			putchar(*why == '\n' ? ' ' : *why);
		putchar('\n');
		return -1;
	}
	return 0;
}

/* The fewest of @runs counts: interrupts can only add to a count. */
static int state_measure(struct vperfctr *vp, const struct perfctr_event_set *set,
			 unsigned long n, unsigned int runs, struct sample *best)
{
	unsigned int ci = set->ev[0].counter, cc = set->ev[1].counter, i;
	struct perfctr_sum_ctrs a, b;

	best->inst = ~0ULL;
	for (i = 0; i < runs; i++) {
		if (vperfctr_read_ctrs(vp, &a))
			return -1;
		hw_loop(n);
		if (vperfctr_read_ctrs(vp, &b))
			return -1;
		if (b.pmc[ci] - a.pmc[ci] < best->inst) {
			best->inst = b.pmc[ci] - a.pmc[ci];
			best->cycles = b.pmc[cc] - a.pmc[cc];
			best->tsc = b.tsc - a.tsc;
		}
	}
	return 0;
}

static int cmd_state(unsigned long n)
{
	struct perfctr_event_set set;
	struct perfctr_info info;
	struct sample base, loop;
	struct vperfctr *vp = NULL;
	int fast;

	if (state_open(&vp, &set))
		goto fail;
	/* The fast read needs the mapped page and user-mode RDPMC. */
	fast = vperfctr_state(vp) && !perfctr_info(&info) &&
	       (info.features & PERFCTR_FEATURE_RDPMC);
	if (state_measure(vp, &set, 1, BASE_RUNS, &base) ||
	    state_measure(vp, &set, n, LOOP_RUNS, &loop)) {
		printf("state_error=read: %s\n", strerror(errno));
		goto fail;
	}
	printf("state_fast=%s\n", fast ? "yes" : "no");
	printf("state_base_inst=%llu\nstate_base_cycles=%llu\n",
	       base.inst, base.cycles);
	printf("state_inst=%llu\nstate_cycles=%llu\nstate_tsc=%llu\n",
	       loop.inst, loop.cycles, loop.tsc);
	vperfctr_unlink(vp);
	vperfctr_close(vp);
	return 0;
fail:
	if (vp)
		vperfctr_close(vp);
	return 1;
}

int main(int argc, char **argv)
{
	unsigned long n = 0;

	if (argc == 2 && !strcmp(argv[1], "cpu"))
		return cmd_cpu();
	if (argc == 3 && !parse_n(argv[2], &n)) {
		if (!strcmp(argv[1], "loop")) {
			if (n)
				hw_loop(n);
			return 0;
		}
		if (!strcmp(argv[1], "state") && n)
			return cmd_state(n);
	}
	fprintf(stderr, "usage: hwloop cpu | hwloop loop N | hwloop state N (N > 0)\n");
	return 2;
}
