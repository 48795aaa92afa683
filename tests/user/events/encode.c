// SPDX-License-Identifier: GPL-2.0-only
/*
 * The events suite's "encode" case: events named in perf's syntax become
 * the control words the vendors' manuals give for them (Intel SDM vol.
 * 3B: the P5 CESR, the P6 and architectural PERFEVTSEL and
 * IA32_FIXED_CTR_CTRL, the P4 CCCR and ESCR; AMD's BKDGs: PERF_CTL;
 * the MPC7450 manual: MMCR0), typed here; each encoding rule has an
 * accepting case and a rejecting one, and a refused list leaves the
 * caller's control untouched.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "events.h"

#define BOTH	(PERFCTR_EVENT_USER | PERFCTR_EVENT_KERNEL)

struct ctr {
	__u32 pmc, evntsel, high, escr;
};

#define C(pmc, sel)		{ pmc, sel, 0, 0 }
#define CH(pmc, sel, high)	{ pmc, sel, high, 0 }
#define CP(pmc, sel, escr)	{ pmc, sel, 0, escr }

struct good {
	const char *cpuid, *events;
	unsigned int nr;		/* a-mode counters in the control */
	struct ctr c[4];
	__u32 mmcr0;			/* ppc32 */
};

/*
 * Expected words, from the manuals' bit layouts:
 *   PERFEVTSEL: event 7:0, umask 15:8, USR 16, OS 17, E 18, EN 22,
 *   INV 23, CMASK 31:24; AMD event 11:8 in bits 35:32 (high word 3:0).
 *   P5 CESR half: ES 5:0, CC 8:6 (6: CPL 0-2, 7: CPL 3, 8: clocks).
 *   P4 CCCR: ENABLE 12, ESCR_SELECT 15:13, ACTIVE_THREAD 17:16 (11: any),
 *   COMPARE 18, COMPLEMENT 19, THRESHOLD 23:20, EDGE 24; ESCR: event
 *   30:25, mask 24:9, T0_OS 3, T0_USR 2.
 */
static const struct good goods[] = {
#ifndef __powerpc__
	/*
	 * P6 (Pentium III): INST_RETIRED C0H; MUL 12H only on counter 1,
	 * whose EN bit is counter 0's: a filler on counter 0 enables it.
	 */
	{ "GenuineIntel-6-7-3", "INST_RETIRED:u", 1, { C(0, 0x004100C0) }, 0 },
	{ "GenuineIntel-6-7-3", "MUL:u", 2,
	  { C(1, 0x00010012), C(0, 0x00400000) }, 0 },
	{ "GenuineIntel-6-7-3", "FLOPS:u,MUL:k", 2,
	  { C(0, 0x004100C1), C(1, 0x00020012) }, 0 },
	{ "GenuineIntel-6-7-3", "MUL:u,FLOPS:u", 2,	/* any order */
	  { C(1, 0x00010012), C(0, 0x004100C1) }, 0 },
	{ "GenuineIntel-6-7-3", "cpu/event=0x79,cmask=2,inv,edge/u", 1,
	  { C(0, 0x02C50079) }, 0 },
	{ "GenuineIntel-6-7-3", "inst_retired:c=1:i:e:k", 1,	/* libpfm's */
	  { C(0, 0x01C600C0) }, 0 },
	{ "GenuineIntel-6-7-3", "r4300c0", 1, { C(0, 0x004300C0) }, 0 },
	{ "GenuineIntel-6-7-3", "instructions,CYCLES", 2,	/* generic */
	  { C(0, 0x004300C0), C(1, 0x00030079) }, 0 },
	{ "GenuineIntel-6-7-3", "cpu/event=0x2e,umask=0x4f/uk", 1,
	  { C(0, 0x00434F2E) }, 0 },
	/* perf's groups: the members, modifiers after '}' given to each. */
	{ "GenuineIntel-6-7-3", "{FLOPS:u,MUL:k}", 2,
	  { C(0, 0x004100C1), C(1, 0x00020012) }, 0 },
	{ "GenuineIntel-6-7-3", "{FLOPS,MUL}:u", 2,
	  { C(0, 0x004100C1), C(1, 0x00010012) }, 0 },
	{ "GenuineIntel-6-7-3", "{cpu/event=0xc1/,MUL}:k", 2,
	  { C(0, 0x004200C1), C(1, 0x00020012) }, 0 },
	{ "GenuineIntel-6-7-3", "{FLOPS}:u,{MUL}", 2,
	  { C(0, 0x004100C1), C(1, 0x00030012) }, 0 },
	{ "GenuineIntel-6-7-3", "cpu/event=0xc0,name=insns/u", 1,
	  { C(0, 0x004100C0) }, 0 },
	/*
	 * Core 2: the fixed counters (RDPMC 0x40000000 | n; field: bit 0
	 * OS, bit 1 USR) go first; C0H on a general counter.
	 */
	{ "GenuineIntel-6-F-B",
	  "INST_RETIRED.ANY:u,CPU_CLK_UNHALTED.CORE:k,INST_RETIRED.ANY_P:u", 3,
	  { C(0x40000000, 0x2), C(0x40000001, 0x1), C(0, 0x004100C0) }, 0 },
	/* K7: four counters, each its own EN. */
	{ "AuthenticAMD-6-2-0", "RETIRED_INSTRUCTIONS:u,CPU_CLK_UNHALTED:k", 2,
	  { C(0, 0x004100C0), C(1, 0x00420076) }, 0 },
	/* Family 10h: event 1C0H's bits 11:8 in the upper word. */
	{ "AuthenticAMD-16-2-3", "RETIRED_X87_FLOATING_POINT_OPERATIONS.ALL:u",
	  1, { CH(0, 0x004107C0, 0x1) }, 0 },
	{ "AuthenticAMD-16-2-3", "r1000107c0:u", 1, { CH(0, 0x004107C0, 0x1) }, 0 },
	/*
	 * AMD per-event features (amd.rst): CntMask 31:24, Inv 23, Edge 18
	 * on every family; GuestOnly (bit 40, high word bit 8) and
	 * HostOnly (41, bit 9) from family 10h on. perf's terms and
	 * modifiers, then libpfm's c=, i, e, g, h.
	 */
	{ "AuthenticAMD-6-2-0", "cpu/event=0x76,cmask=255,inv,edge/k", 1,
	  { C(0, 0xFFC60076) }, 0 },
	{ "AuthenticAMD-6-2-0", "cpu/event=0x76,cmask=1/u", 1, { C(0, 0x01410076) }, 0 },
	{ "AuthenticAMD-15-5-1", "cpu/event=0x76,edge/u", 1, { C(0, 0x00450076) }, 0 },
	{ "AuthenticAMD-15-5-1", "cpu/event=0x76/:c=2:i:u", 1, { C(0, 0x02C10076) }, 0 },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76,cmask=2,inv,edge/u", 1,
	  { C(0, 0x02C50076) }, 0 },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76/G", 1, { CH(0, 0x00430076, 0x100) }, 0 },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76/H", 1, { CH(0, 0x00430076, 0x200) }, 0 },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76/uGH", 1, { CH(0, 0x00410076, 0x300) }, 0 },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x1c0,cmask=3/kH", 1,
	  { CH(0, 0x034200C0, 0x201) }, 0 },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76/:c=3:i=1:e:h", 1,
	  { CH(0, 0x03C70076, 0x200) }, 0 },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76/:g=1:h=0:k", 1,
	  { CH(0, 0x00420076, 0x100) }, 0 },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76,g,h/u", 1,
	  { CH(0, 0x00410076, 0x300) }, 0 },
	{ "AuthenticAMD-16-2-3", "r30000000076:u", 1, { CH(0, 0x00410076, 0x300) }, 0 },
	{ "AuthenticAMD-23-1-0", "cpu/event=0xff,cmask=2/u", 1, { C(0, 0x024100FF) }, 0 },
	{ "AuthenticAMD-23-1-0", "cpu/event=0xff,cmask=1,edge/uH", 1,
	  { CH(0, 0x014500FF, 0x200) }, 0 },
	/*
	 * perf's generic names on Zen (perf's family 17h-on event map):
	 * cache-references is event 60H unit mask FFH, cache-misses 64H
	 * unit mask 09H; with or without perf's tables imported.
	 */
	{ "AuthenticAMD-23-1-0", "cache-references:u,cache-misses:u", 2,
	  { C(0, 0x0041FF60), C(1, 0x00410964) }, 0 },
	{ "AuthenticAMD-25-61-2", "cycles:u,instructions:u,branch-misses:u", 3,
	  { C(0, 0x00410076), C(1, 0x004100C0), C(2, 0x004100C3) }, 0 },
	/*
	 * And on Intel CPUs whose perf table lacks the architectural event
	 * (SDM vol. 3B, "Pre-defined Architectural Performance Events"):
	 * Ice Lake's LLC reference (2EH/4FH), Nehalem's branch misses
	 * retired (C5H/00H). Nehalem's INST_RETIRED.ANY is fixed counter 0
	 * (perf's table, which make check imports, numbers it 1).
	 */
	{ "GenuineIntel-6-7E-5", "cache-references:u", 1, { C(0, 0x00414F2E) }, 0 },
	{ "GenuineIntel-6-1A-5", "branch-misses:u,instructions:u", 2,
	  { C(0, 0x004100C5), C(0x40000000, 0x2) }, 0 },
	/*
	 * Zen's large-increment event 003H (PPR 55901, 2.1.13.3) on an even
	 * counter, Merge (event FFFH: 7:0 FFH, 35:32 FH, with EN) on the odd
	 * one above, placed after the events asked for; family 10h has no
	 * pairs, and counts 003H alone.
	 */
	{ "AuthenticAMD-23-1-0", "cpu/event=0x3,umask=0xff/u", 2,
	  { C(0, 0x0041FF03), CH(1, 0x004000FF, 0xF) }, 0 },
	{ "AuthenticAMD-25-61-2", "cycles:u,cpu/event=0x3/u", 3,
	  { C(0, 0x00410076), C(2, 0x00410003), CH(3, 0x004000FF, 0xF) }, 0 },
	{ "HygonGenuine-24-0-1", "cpu/event=0x3/k", 2,
	  { C(0, 0x00420003), CH(1, 0x004000FF, 0xF) }, 0 },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x3/u", 1, { C(0, 0x00410003) }, 0 },
	/* The catch-all table of family 10h on has their bits too. */
	{ "HygonGenuine-24-0-1", "cpu/event=0x176/uG", 1,
	  { CH(0, 0x00410076, 0x101) }, 0 },
	/*
	 * P4: instr_retired (ESCR event 02H, NBOGUSNTAG bit 0) on
	 * CRU_ESCR0 (select 4), counter 12; global_power_events (13H,
	 * RUNNING bit 0) on FSB_ESCR0 (select 6), counter 0.
	 */
	{ "GenuineIntel-15-2-7", "INSTR_RETIRED.NBOGUSNTAG:u", 1,
	  { CP(0x8000000C, 0x00039000, 0x04000204) }, 0 },
	{ "GenuineIntel-15-2-7", "GLOBAL_POWER_EVENTS.RUNNING:k", 1,
	  { CP(0x80000000, 0x0003D000, 0x26000208) }, 0 },
	/* Two on one ESCR pair: the second takes CRU_ESCR1, counter 14. */
	{ "GenuineIntel-15-2-7", "INSTR_RETIRED.NBOGUSNTAG:u,INSTR_RETIRED.NBOGUSTAG:u", 2,
	  { CP(0x8000000C, 0x00039000, 0x04000204),
	    CP(0x8000000E, 0x00039000, 0x04000404) }, 0 },
	{ "GenuineIntel-15-2-7", "cpu/escr=CRU_ESCR0,event=2,umask=1,cmask=3/u",
	  1, { CP(0x8000000C, 0x00379000, 0x04000204) }, 0 },
	/* P5: event 16H, CPL 3 only; 1AH is a duration (clocks bit). */
	{ "GenuineIntel-5-2-C", "INSTRUCTIONS_EXECUTED:u", 1, { C(0, 0x0096) }, 0 },
	{ "GenuineIntel-5-2-C", "WAITING_FOR_DATA_MEMORY_READ_STALL_DURATION:k",
	  1, { C(0, 0x015A) }, 0 },
	/* Cyrix MII: event 40H: bit 6 of the event at CESR bit 10. */
	{ "CyrixInstead-6-0-2", "L2_TLB_MISSES:u", 1, { C(0, 0x0480) }, 0 },
	/* C3: one counter, PERFCTR1; no mode bits. */
	{ "CentaurHauls-6-9-8", "INSTRUCTIONS_EXECUTED", 1, { C(1, 0xC0) }, 0 },
	{ "CentaurHauls-6-9-8", "cpu/event=0x1c0/", 1, { C(1, 0x1C0) }, 0 },
	/* WinChip: no mode bits; the 8-bit event as it is. */
	{ "CentaurHauls-5-8-1", "cycles", 1, { C(0, 0x3F) }, 0 },
#else
	/*
	 * MPC7450: processor cycles (1) on PMC1 up; MMCR0 FCS (0x40000000)
	 * freezes in supervisor state for :u, FCP (0x20000000) in problem
	 * state for :k; THRESHOLD is MMCR0 bits 10-15.
	 */
	{ "0x80000201", "PROCESSOR_CYCLES:u,INSTR_COMPLETED:u", 2,
	  { C(0, 1), C(1, 2) }, 0x40000000 },
	{ "0x80000201", "cycles:k", 1, { C(0, 1) }, 0x20000000 },
	{ "0x80000201", "cpu/event=0x2,pmc=3,thresh=5/", 1, { C(2, 2) },
	  0x00050000 },
	{ "0x80000201", "r30a", 1, { C(2, 0xA) }, 0 },
	/* A code too wide for PMC2-6 lands on PMC1 (7-bit select). */
	{ "0x80000201", "cpu/event=0x41/u", 1, { C(0, 0x41) }, 0x40000000 },
	{ "0x00083311", "cycles,instructions", 2, { C(0, 1), C(1, 2) }, 0 },
	/*
	 * MPC7400: codes from Apple's Shark 7400 event list (the manual's
	 * pages for them could not be read): L2 tag lookups PMC1 25, dL1
	 * misses PMC2 17, L2 snoop hits PMC3 27, DST DTLB table successful
	 * searches PMC4 27.
	 */
	{ "0x000c0209",
	  "L2_TAG_LOOKUPS,DCACHE_MISSES,L2_SNOOP_HITS,DST_TABLE_SEARCH_SUCCESSES",
	  4, { C(0, 25), C(1, 17), C(2, 27), C(3, 27) }, 0 },
#endif
};

START_TEST(encode_as_the_manual)
{
	const struct good *g = &goods[_i];
	const struct perfctr_event_table *t = perfctr_event_table(g->cpuid);
	const struct perfctr_cpu_control *c;
	struct vperfctr_control ctl;
	struct perfctr_event_set set;
	unsigned int i;

	ck_assert_msg(t, "no table for %s", g->cpuid);
	ck_assert_msg(!perfctr_event_encode(t, g->events, BOTH, &ctl, &set),
		      "%s: %s", g->events, set.error);
	c = &ctl.cpu_control;
	ck_assert_uint_eq(c->tsc_on, 1);
	ck_assert_uint_eq(c->nractrs, g->nr);
	ck_assert_uint_eq(c->nrictrs, 0);
	for (i = 0; i < g->nr; i++) {
		ck_assert_uint_eq(c->pmc_map[i], g->c[i].pmc);
		ck_assert_msg(c->evntsel[i] == g->c[i].evntsel,
			      "%s: evntsel[%u] %#x, want %#x", g->events, i,
			      c->evntsel[i], g->c[i].evntsel);
#ifndef __powerpc__
		ck_assert_uint_eq(c->evntsel_high[i], g->c[i].high);
		ck_assert_msg(c->p4.escr[i] == g->c[i].escr,
			      "%s: escr[%u] %#x, want %#x", g->events, i,
			      c->p4.escr[i], g->c[i].escr);
#endif
	}
#ifdef __powerpc__
	ck_assert_uint_eq(c->ppc.mmcr0, g->mmcr0);
#endif
	ck_assert_uint_le(set.nr, g->nr);
	for (i = 0; i < set.nr; i++)
		ck_assert_uint_eq(set.ev[i].counter, i);
}

struct bad {
	const char *cpuid, *events;
	int err;
	const char *says;	/* in the message */
};

static const struct bad bads[] = {
#ifndef __powerpc__
	/* Syntax and fields */
	{ "GenuineIntel-6-7-3", "INST_RETIRED:x", EINVAL, "unknown term" },
	{ "GenuineIntel-6-7-3", "INST_RETIRED,", EINVAL, "empty event" },
	{ "GenuineIntel-6-7-3", "cpu/event=0x100/", EINVAL, "narrower" },
	{ "GenuineIntel-6-7-3", "cpu/event=0xc0,umask=0x100/", EINVAL, "narrower" },
	{ "GenuineIntel-6-7-3", "cpu/event=0xc0,cmask=256/", EINVAL, "narrower" },
	{ "GenuineIntel-6-7-3", "cpu/event=0xc0,inv=2/", EINVAL, "0 or 1" },
	{ "GenuineIntel-6-7-3", "cpu/event=zz/", EINVAL, "not a number" },
	{ "GenuineIntel-6-7-3", "msr/event=0xc0/", EINVAL, "'cpu'" },
	{ "GenuineIntel-6-7-3", "r1004300c0", EINVAL, "raw" },	/* >32 bits */
	{ "GenuineIntel-6-7-3", "r1004300c0x", EINVAL, "raw" },
	{ "GenuineIntel-6-7-3", "r5300c0", EINVAL, "raw" },	/* INT bit */
	{ "AuthenticAMD-6-2-0", "cpu/event=0x1c0/", EINVAL, "narrower" },
	{ "AuthenticAMD-6-2-0", "r1000000c0", EINVAL, "raw" },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x1000/", EINVAL, "narrower" },
	{ "AuthenticAMD-16-2-3", "r10000000c0", EINVAL, "raw" },
	/* AMD per-event features: K7 and K8 have no bits above 31. */
	{ "AuthenticAMD-6-2-0", "cpu/event=0x76/G", EOPNOTSUPP, "drop :G" },
	{ "AuthenticAMD-6-2-0", "cpu/event=0x76/uH", EOPNOTSUPP, "drop :G, :H" },
	{ "AuthenticAMD-15-5-1", "cpu/event=0x76/:g", EOPNOTSUPP, "family 10h" },
	{ "AuthenticAMD-15-5-1", "cpu/event=0x76/:h=1", EOPNOTSUPP, "family 10h" },
	{ "AuthenticAMD-15-5-1", "cpu/event=0x176/", EINVAL, "narrower" },
	{ "AuthenticAMD-6-2-0", "r10000000076", EINVAL, "raw" },	/* bit 40 */
	{ "AuthenticAMD-15-5-1", "r20000000076", EINVAL, "raw" },	/* bit 41 */
	{ "AuthenticAMD-6-2-0", "cpu/event=0x76,cmask=256/", EINVAL, "narrower" },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76,cmask=256/", EINVAL, "narrower" },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76/:c=300", EINVAL, "narrower" },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76/:g=2", EINVAL, "0 or 1" },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76/:h=2", EINVAL, "0 or 1" },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76,edge=2/", EINVAL, "0 or 1" },
	{ "AuthenticAMD-16-2-3", "cpu/event=0x76/:x", EINVAL, ":G, :H" },
	{ "AuthenticAMD-16-2-3", "r40000000076", EINVAL, "raw" },	/* bit 42 */
	{ "AuthenticAMD-16-2-3", "r1000000076", EINVAL, "raw" },	/* bit 36 */
	{ "AuthenticAMD-16-2-3", "r80076", EINVAL, "raw" },	/* bit 19 */
	{ "GenuineIntel-6-7-3", "INST_RETIRED:G", EOPNOTSUPP, "drop :G" },
	{ "GenuineIntel-5-2-C", "INSTRUCTIONS_EXECUTED:e", EINVAL, "has no" },
	{ "GenuineIntel-5-2-C", "r200", EINVAL, "raw" },	/* PC bit */
	{ "GenuineIntel-5-2-C", "cpu/event=0x40/", EINVAL, "narrower" },
	{ "GenuineIntel-5-2-C", "INSTRUCTIONS_EXECUTED:inv", EINVAL, "has no" },
	{ "CentaurHauls-6-9-8", "cpu/event=0xc0,edge/", EINVAL, "has no" },
	{ "GenuineIntel-15-2-7", "cpu/event=2,umask=1/", EINVAL, "escr=" },
	{ "GenuineIntel-15-2-7", "cpu/escr=CRU_ESCR9,event=2/", EINVAL, "ESCR" },
	/* perf's groups and modifiers that counting has no use for */
	{ "GenuineIntel-6-7-3", "{INST_RETIRED,{MUL}}", EINVAL, "do not nest" },
	{ "GenuineIntel-6-7-3", "INST_RETIRED{MUL}", EINVAL, "do not nest" },
	{ "GenuineIntel-6-7-3", "{INST_RETIRED,MUL", EINVAL, "without its '}'" },
	{ "GenuineIntel-6-7-3", "INST_RETIRED,MUL}", EINVAL, "without its '{'" },
	{ "GenuineIntel-6-7-3", "{}", EINVAL, "empty event" },
	{ "GenuineIntel-6-7-3", "{INST_RETIRED}u", EINVAL, "':modifiers'" },
	{ "GenuineIntel-6-7-3", "{INST_RETIRED}:", EINVAL, "':modifiers'" },
	{ "GenuineIntel-6-7-3", "{INST_RETIRED}:x", EINVAL, "unknown term" },
	{ "GenuineIntel-6-7-3", "INST_RETIRED:p", EOPNOTSUPP, "drop :p" },
	{ "GenuineIntel-6-7-3", "cpu/event=0xc0/upp", EOPNOTSUPP, "precise" },
	{ "GenuineIntel-6-7-3", "{INST_RETIRED}:P", EOPNOTSUPP, "precise" },
	{ "GenuineIntel-6-7-3", "cpu/event=0xc0,name=/", EINVAL, "name=" },
	{ "GenuineIntel-6-7-3", "cpu/event=0xc0,name=a\tb/", EINVAL, "blanks" },
	/* A '/' in a name ends cpu/.../ early: refused, never misread. */
	{ "GenuineIntel-6-7-3", "cpu/event=0xc0/:name=a/b", EINVAL, "not a number" },
	{ "GenuineIntel-6-7-3",
	  "cpu/event=0xc0,name=a123456789012345678901234567890123456789012345678901234567890123/",
	  EINVAL, "1 to 63" },
	/* Names */
	{ "GenuineIntel-6-7-3", "INST_RETIRD", ENOENT, "INST_RETIRED" },
	{ "GenuineIntel-6-7-3", "INSTRUCTION_RETIRED", ENOENT, "perfex -l" },
	/* Modes: WinChip and C3 counters count every mode. */
	{ "CentaurHauls-5-8-1", "cycles:u", EOPNOTSUPP, "drop :u" },
	{ "CentaurHauls-6-9-8", "INSTRUCTIONS_EXECUTED:k", EOPNOTSUPP, "drop" },
	/* Counters: exact matching or nothing. */
	{ "GenuineIntel-6-7-3", "FLOPS,CYCLES_DIV_BUSY", ENOSPC, "counter 0" },
	{ "GenuineIntel-6-7-3", "MUL,DIV", ENOSPC, "counter 1" },
	{ "GenuineIntel-6-7-3", "INST_RETIRED,INST_RETIRED,INST_RETIRED", ENOSPC,
	  "counters 0,1" },
	{ "AuthenticAMD-6-2-0", "cycles,cycles,cycles,cycles,cycles", ENOSPC,
	  "0,1,2,3" },
	{ "CentaurHauls-6-9-8", "cycles,instructions", ENOSPC, "counter 1" },
	/* Zen: Merge is placed, not asked for; a pair needs two counters. */
	{ "AuthenticAMD-23-1-0", "cpu/event=0xfff/u", EINVAL, "Merge" },
	{ "AuthenticAMD-23-1-0", "cycles,cycles,cycles,cycles,cycles,cpu/event=0x3/",
	  ENOSPC, "the next for its Merge" },
	{ "GenuineIntel-6-F-B", "cpu/INST_RETIRED.ANY,cmask=1/", ENOSPC,
	  "fixed 0" },	/* a fixed counter has no counter mask */
	{ "GenuineIntel-15-2-7",
	  "cpu/escr=CRU_ESCR0,event=2,umask=1/,cpu/escr=CRU_ESCR0,event=2,umask=2/",
	  ENOSPC, "12,13,16" },
#else
	{ "0x80000201", "cycles:u,instructions:k", EINVAL, "MMCR0" },
	{ "0x80000201", "cpu/event=1,thresh=64/", EINVAL, "threshold" },
	{ "0x80000201", "cpu/event=1,pmc=7/", EINVAL, "no such PMC" },
	{ "0x00040103", "cpu/event=1,pmc=3/", EINVAL, "no such PMC" },
	{ "0x80000201", "cpu/event=0x80/", EINVAL, "narrower" },
	{ "0x80000201", "r701", EINVAL, "raw" },
	{ "0x80000201", "cycles:e", EINVAL, "has no" },
	{ "0x80000201", "PROCESSR_CYCLES", ENOENT, "PROCESSOR_CYCLES" },
	/* 41H fits PMC1's 7-bit select only. */
	{ "0x80000201", "cpu/event=0x41/,cpu/event=0x41/", ENOSPC, "PMC1" },
	{ "0x00040103", "cycles,cycles,cycles", ENOSPC, "PMC1,PMC2" },
#endif
};

START_TEST(encode_refuses)
{
	const struct bad *b = &bads[_i];
	const struct perfctr_event_table *t = perfctr_event_table(b->cpuid);
	struct vperfctr_control ctl, before;
	struct perfctr_event_set set;

	ck_assert_msg(t, "no table for %s", b->cpuid);
	memset(&ctl, 0x5a, sizeof(ctl));
	before = ctl;
	errno = 0;
	ck_assert_msg(perfctr_event_encode(t, b->events, BOTH, &ctl, &set) == -1,
		      "%s accepted", b->events);
	ck_assert_msg(errno == b->err, "%s: errno %d, want %d (%s)", b->events,
		      errno, b->err, set.error);
	ck_assert_msg(strstr(set.error, b->says), "%s: '%s' lacks '%s'",
		      b->events, set.error, b->says);
	ck_assert_mem_eq(&ctl, &before, sizeof(ctl));
}

/* An imported event perfctr cannot program is listed and refused. */
START_TEST(encode_refuses_unsupported)
{
#ifndef __powerpc__
	const struct perfctr_event_table *t =
		perfctr_event_table("GenuineIntel-15-2-7");
	struct vperfctr_control ctl;
	struct perfctr_event_set set;

	ck_assert_ptr_nonnull(t);
	errno = 0;
	ck_assert_int_eq(perfctr_event_encode(t, "TAGGED_MISPRED_BRANCH", BOTH,
					      &ctl, &set), -1);
	ck_assert_int_eq(errno, EOPNOTSUPP);
	if (!ev_have_perf_tables())
		return;
	t = perfctr_event_table("GenuineIntel-6-3A-9");
	errno = 0;
	ck_assert_int_eq(perfctr_event_encode(t, "OFFCORE_RESPONSE.ALL_RFO.ANY_RESPONSE",
					      BOTH, &ctl, &set), -1);
	ck_assert_int_eq(errno, EOPNOTSUPP);
	ck_assert_ptr_nonnull(strstr(set.error, "MSR"));
#endif
}

/* A row is named as given, group modifiers and all, or by name=. */
START_TEST(encode_row_names)
{
#ifndef __powerpc__
	const struct perfctr_event_table *t = perfctr_event_table("GenuineIntel-6-7-3");
	struct vperfctr_control ctl;
	struct perfctr_event_set set;

	ck_assert_int_eq(perfctr_event_encode(t, "{FLOPS,cpu/event=0x12,name=mul/}:u",
					      BOTH, &ctl, &set), 0);
	ck_assert_uint_eq(set.nr, 2);
	ck_assert_str_eq(set.ev[0].text, "FLOPS:u");
	ck_assert_str_eq(set.ev[1].text, "mul");
	ck_assert_int_eq(perfctr_event_encode(t, "cpu/event=0xc0/:name=insns.u",
					      BOTH, &ctl, &set), 0);
	ck_assert_str_eq(set.ev[0].text, "insns.u");
#endif
}

/* The caller's default modes apply only where :u/:k are absent. */
START_TEST(encode_default_modes)
{
#ifndef __powerpc__
	const struct perfctr_event_table *t = perfctr_event_table("GenuineIntel-6-7-3");
	const __u32 usr = 0x00410000, os = 0x00420000;
#else
	const struct perfctr_event_table *t = perfctr_event_table("0x80000201");
#endif
	struct vperfctr_control ctl;
	struct perfctr_event_set set;

	ck_assert_int_eq(perfctr_event_encode(t, "cycles", PERFCTR_EVENT_USER,
					      &ctl, &set), 0);
#ifndef __powerpc__
	ck_assert_uint_eq(ctl.cpu_control.evntsel[0] & 0x00430000, usr);
	ck_assert_int_eq(perfctr_event_encode(t, "cycles:k", PERFCTR_EVENT_USER,
					      &ctl, &set), 0);
	ck_assert_uint_eq(ctl.cpu_control.evntsel[0] & 0x00430000, os);
#else
	ck_assert_uint_eq(ctl.cpu_control.ppc.mmcr0, 0x40000000);
#endif
	errno = 0;
	ck_assert_int_eq(perfctr_event_encode(t, "cycles", 0, &ctl, &set), -1);
	ck_assert_int_eq(errno, EINVAL);
}

void ev_encode_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "encode", NULL, NULL);

	tcase_add_loop_test(tc, encode_as_the_manual, 0, ARRAY_SIZE(goods));
	tcase_add_loop_test(tc, encode_refuses, 0, ARRAY_SIZE(bads));
	tcase_add_test(tc, encode_refuses_unsupported);
	tcase_add_test(tc, encode_default_modes);
	tcase_add_test(tc, encode_row_names);
}
