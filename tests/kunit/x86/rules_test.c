// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: every control rule of every x86 family, each with accepting and
 * rejecting cases (Documentation/perfctr/x86.rst lists them). A rejected
 * control must leave the state exactly as it was.
 */
#include "arch_test.h"

#define EN	0x00400000U
#define INT	0x00100000U
#define CPL	0x00030000U
#define P6OK(ev)	(EN | CPL | (ev))
#define P5OK		0x00D6U

struct rule_case {
	const char *name;
	const struct perfctr_x86_sim_model *model;
	u32 tsc_on, nractrs, nrictrs;
	bool pcint;		/* the family's overflow interrupt is usable */
	bool is_global;
	struct sim_ctr c[6];
	u32 pebs_enable, pebs_matrix_vert;	/* P4 */
	int expect;
};

#define OK 0
#define BAD -EINVAL

static const struct rule_case rule_cases[] = {
	/* Intel P5: CPL bits, reserved 0xFE00, two counters, no i-mode. */
	{ "p5-both-cpl", &sim_p5, 1, 1, 0, .c = { { 0, P5OK } }, .expect = OK },
	{ "p5-cpl0-only", &sim_p5, 0, 1, 0, .c = { { 0, 0x0056 } }, .expect = OK },
	{ "p5-cpl3-only", &sim_p5, 0, 1, 0, .c = { { 1, 0x0096 } }, .expect = OK },
	{ "p5-two", &sim_p5, 1, 2, 0, .c = { { 1, P5OK }, { 0, P5OK } }, .expect = OK },
	{ "p5-no-cpl", &sim_p5, 0, 1, 0, .c = { { 0, 0x0016 } }, .expect = BAD },
	{ "p5-bit9", &sim_p5, 0, 1, 0, .c = { { 0, 0x02D6 } }, .expect = BAD },
	{ "p5-bit10", &sim_p5, 0, 1, 0, .c = { { 0, 0x04D6 } }, .expect = BAD },
	{ "p5-bit15", &sim_p5, 0, 1, 0, .c = { { 0, 0x80D6 } }, .expect = BAD },
	{ "p5-bit16", &sim_p5, 0, 1, 0, .c = { { 0, 0x100D6 } }, .expect = BAD },
	{ "p5-bit31", &sim_p5, 0, 1, 0, .c = { { 1, 0x800000D6 } }, .expect = BAD },
	{ "p5-map2", &sim_p5, 0, 1, 0, .c = { { 2, P5OK } }, .expect = BAD },
	{ "p5-same-map", &sim_p5, 0, 2, 0, .c = { { 0, P5OK }, { 0, P5OK } }, .expect = BAD },
	{ "p5-three", &sim_p5,
	  0, 3, 0,
	  .c = { { 0, P5OK }, { 1, P5OK }, { 2, P5OK } },
	  .expect = BAD },
	{ "p5-imode", &sim_p5, 0, 0, 1, .c = { { 0, P5OK, 0, -1 } }, .expect = BAD },
	{ "p5mmx-both-cpl", &sim_p5mmx, 1, 1, 0, .c = { { 0, P5OK } }, .expect = OK },
	{ "p5mmx-bit9", &sim_p5mmx, 1, 1, 0, .c = { { 0, 0x02D6 } }, .expect = BAD },
	/* Cyrix: bit 10 allowed, 0xFA00 reserved, CPL bits needed. */
	{ "mii-bit10", &sim_mii, 1, 1, 0, .c = { { 0, 0x04D6 } }, .expect = OK },
	{ "mii-bit9", &sim_mii, 1, 1, 0, .c = { { 0, 0x02D6 } }, .expect = BAD },
	{ "mii-bit11", &sim_mii, 1, 1, 0, .c = { { 0, 0x08D6 } }, .expect = BAD },
	{ "mii-bit16", &sim_mii, 1, 1, 0, .c = { { 0, 0x104D6 } }, .expect = BAD },
	{ "mii-no-cpl", &sim_mii, 1, 1, 0, .c = { { 0, 0x0016 } }, .expect = BAD },
	/* WinChip: no CPL bits, 0xFF00 reserved, no TSC. */
	{ "winchip-no-cpl", &sim_winchip, 0, 1, 0, .c = { { 0, 0x0016 } }, .expect = OK },
	{ "winchip-low-byte", &sim_winchip, 0, 1, 0, .c = { { 1, 0x00FF } }, .expect = OK },
	{ "winchip-bit8", &sim_winchip, 0, 1, 0, .c = { { 0, 0x0100 } }, .expect = BAD },
	{ "winchip-bit16", &sim_winchip, 0, 1, 0, .c = { { 1, 0x10016 } }, .expect = BAD },
	{ "winchip-tsc", &sim_winchip, 1, 1, 0, .c = { { 0, 0x0016 } }, .expect = BAD },
	{ "winchip-tsc-only", &sim_winchip, 1, 0, 0, .expect = BAD },
	/* P6: EN in EVNTSEL0 only, bits 21/19 reserved, INT iff i-mode. */
	{ "p6-one", &sim_p6, 1, 1, 0, .c = { { 0, P6OK(0xC0) } }, .expect = OK },
	{ "p6-two", &sim_p6, 1, 2, 0, .c = { { 0, P6OK(0xC0) }, { 1, CPL | 0xC0 } }, .expect = OK },
	{ "p6-two-swapped", &sim_p6,
	  1, 2, 0,
	  .c = { { 1, CPL | 0xC0 }, { 0, P6OK(0xC0) } },
	  .expect = OK },
	{ "p6-no-en0", &sim_p6, 1, 1, 0, .c = { { 0, CPL | 0xC0 } }, .expect = BAD },
	{ "p6-en-in-evntsel1", &sim_p6,
	  1, 2, 0,
	  .c = { { 0, P6OK(0xC0) }, { 1, P6OK(0xC0) } },
	  .expect = BAD },
	{ "p6-counter1-alone", &sim_p6, 1, 1, 0, .c = { { 1, CPL | 0xC0 } }, .expect = BAD },
	{ "p6-bit21", &sim_p6, 1, 1, 0, .c = { { 0, P6OK(0xC0) | 0x200000 } }, .expect = BAD },
	{ "p6-bit19", &sim_p6, 1, 1, 0, .c = { { 0, P6OK(0xC0) | 0x80000 } }, .expect = BAD },
	{ "p6-a-mode-int", &sim_p6, 1, 1, 0, .c = { { 0, P6OK(0xC0) | INT } }, .expect = BAD },
	{ "p6-i-mode", &sim_p6,
	  1, 1, 1, true,
	  .c = { { 0, P6OK(0xC0) }, { 1, CPL | 0xC0 | INT, 0, -1000 } },
	  .expect = OK },
	{ "p6-i-mode-no-int", &sim_p6,
	  1, 1, 1, true,
	  .c = { { 0, P6OK(0xC0) }, { 1, CPL | 0xC0, 0, -1000 } },
	  .expect = BAD },
	{ "p6-i-mode-ireset-0", &sim_p6,
	  1, 1, 1, true,
	  .c = { { 0, P6OK(0xC0) }, { 1, CPL | 0xC0 | INT, 0, 0 } },
	  .expect = BAD },
	{ "p6-i-mode-ireset-positive", &sim_p6,
	  1, 1, 1, true,
	  .c = { { 0, P6OK(0xC0) }, { 1, CPL | 0xC0 | INT, 0, 5 } },
	  .expect = BAD },
	{ "p6-i-mode-no-interrupts", &sim_p6,
	  1, 1, 1, false,
	  .c = { { 0, P6OK(0xC0) }, { 1, CPL | 0xC0 | INT, 0, -1000 } },
	  .expect = BAD },
	{ "p6-high-bits", &sim_p6, 1, 1, 0, .c = { { 0, P6OK(0xC0), 1 } }, .expect = BAD },
	{ "p6-map2", &sim_p6, 1, 1, 0, .c = { { 2, P6OK(0xC0) } }, .expect = BAD },
	{ "p6-three", &sim_p6,
	  1, 3, 0,
	  .c = { { 0, P6OK(0xC0) }, { 1, CPL }, { 1, CPL } },
	  .expect = BAD },
	{ "p6-global", &sim_p6, 1, 1, 0, false, true, .c = { { 0, P6OK(0xC0) } }, .expect = OK },
	/* Architectural perfmon: EN in every evntsel, CPUID's counter count. */
	{ "arch-four", &sim_arch_v2,
	  1, 4, 0,
	  .c = { { 0, P6OK(0x3C) }, { 1, P6OK(0xC0) }, { 2, P6OK(0x2E) }, { 3, P6OK(0x2E) } },
	  .expect = OK },
	{ "arch-counter1-alone", &sim_arch_v2, 1, 1, 0, .c = { { 1, P6OK(0x3C) } }, .expect = OK },
	{ "arch-no-en", &sim_arch_v2, 1, 1, 0, .c = { { 1, CPL | 0x3C } }, .expect = BAD },
	{ "arch-map4", &sim_arch_v2, 1, 1, 0, .c = { { 4, P6OK(0x3C) } }, .expect = BAD },
	{ "arch-anythread", &sim_arch_v2,
	  1, 1, 0,
	  .c = { { 0, P6OK(0x3C) | 0x200000 } },
	  .expect = BAD },
	{ "arch-high-bits", &sim_arch_v2, 1, 1, 0, .c = { { 0, P6OK(0x3C), 1 } }, .expect = BAD },
	{ "arch-i-mode", &sim_arch_v2,
	  1, 0, 1, true,
	  .c = { { 2, P6OK(0x3C) | INT, 0, -1 } },
	  .expect = OK },
	/* Fixed-function counters (version 2): one 4-bit field each. */
#define FX(n)	(PERFCTR_X86_FIXED_PMC | (n))
	{ "arch-fixed-os-usr", &sim_arch_v2, 1, 1, 0, .c = { { FX(0), 0x3 } }, .expect = OK },
	{ "arch-fixed-usr", &sim_arch_v2, 1, 1, 0, .c = { { FX(2), 0x2 } }, .expect = OK },
	{ "arch-fixed-and-gp", &sim_arch_v2, 1, 3, 0,
	  .c = { { 0, P6OK(0x3C) }, { FX(0), 0x3 }, { FX(1), 0x1 } }, .expect = OK },
	{ "arch-fixed-no-cpl", &sim_arch_v2, 1, 1, 0, .c = { { FX(0), 0x0 } }, .expect = BAD },
	{ "arch-fixed-anythread", &sim_arch_v2, 1, 1, 0, .c = { { FX(0), 0x7 } }, .expect = BAD },
	{ "arch-fixed-bit4", &sim_arch_v2, 1, 1, 0, .c = { { FX(0), 0x13 } }, .expect = BAD },
	{ "arch-fixed-3", &sim_arch_v2, 1, 1, 0, .c = { { FX(3), 0x3 } }, .expect = BAD },
	{ "arch-fixed-extra-bits", &sim_arch_v2, 1, 1, 0,
	  .c = { { FX(0) | 0x100, 0x3 } }, .expect = BAD },
	{ "arch-fixed-high", &sim_arch_v2, 1, 1, 0, .c = { { FX(0), 0x3, 1 } }, .expect = BAD },
	{ "arch-fixed-pmi-a-mode", &sim_arch_v2, 1, 1, 0, .c = { { FX(0), 0xB } }, .expect = BAD },
	{ "arch-fixed-i-mode", &sim_arch_v2, 1, 0, 1, true,
	  .c = { { FX(1), 0xB, 0, -1 } }, .expect = OK },
	{ "arch-fixed-i-mode-no-pmi", &sim_arch_v2, 1, 0, 1, true,
	  .c = { { FX(1), 0x3, 0, -1 } }, .expect = BAD },
	{ "arch-fixed-twice", &sim_arch_v2, 1, 2, 0,
	  .c = { { FX(1), 0x3 }, { FX(1), 0x3 } }, .expect = BAD },
	{ "arch-v1-fixed", &sim_arch_v1, 1, 1, 0, .c = { { FX(0), 0x3 } }, .expect = BAD },
	{ "p6-fixed", &sim_p6, 1, 1, 0, .c = { { FX(0), 0x3 } }, .expect = BAD },
	{ "k7-fixed", &sim_k7, 1, 1, 0, .c = { { FX(0), 0x3 } }, .expect = BAD },
	{ "arch-v1-map2", &sim_arch_v1, 1, 1, 0, .c = { { 2, P6OK(0x3C) } }, .expect = BAD },
	/* AMD K7/K8: EN in every evntsel, P6-like otherwise, no high bits. */
	{ "k7-four", &sim_k7,
	  1, 4, 0,
	  .c = { { 0, P6OK(0x76) }, { 1, P6OK(0xC0) }, { 2, P6OK(0xC0) }, { 3, P6OK(0xC0) } },
	  .expect = OK },
	{ "k7-no-en", &sim_k7,
	  1, 3, 0,
	  .c = { { 0, P6OK(0x76) }, { 1, P6OK(0xC0) }, { 2, CPL | 0xC0 } },
	  .expect = BAD },
	{ "k7-bit19", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76) | 0x80000 } }, .expect = BAD },
	{ "k7-bit21", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76) | 0x200000 } }, .expect = BAD },
	{ "k7-cmask-inv-edge", &sim_k7, 1, 1, 0, .c = { { 0, 0xFFC70076 } }, .expect = OK },
	{ "k7-high-bits", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76), 1 } }, .expect = BAD },
	{ "k7-i-mode", &sim_k7,
	  1, 0, 1, true,
	  .c = { { 3, P6OK(0x76) | INT, 0, -50 } },
	  .expect = OK },
	{ "k7-map4", &sim_k7, 1, 1, 0, .c = { { 4, P6OK(0x76) } }, .expect = BAD },
	/* INT (bit 20) set exactly on i-mode counters, as on the P6 (K-3). */
	{ "k7-a-mode-int", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76) | INT } }, .expect = BAD },
	{ "k7-i-mode-no-int", &sim_k7,
	  1, 0, 1, true,
	  .c = { { 3, P6OK(0x76), 0, -50 } },
	  .expect = BAD },
	{ "k7-i-mode-int-on-a-mode", &sim_k7,
	  1, 1, 1, true,
	  .c = { { 0, P6OK(0x76) | INT }, { 3, P6OK(0x76) | INT, 0, -50 } },
	  .expect = BAD },
	{ "k8-i-mode", &sim_k8,
	  1, 1, 1, true,
	  .c = { { 0, P6OK(0x76) }, { 1, P6OK(0x76) | INT, 0, -50 } },
	  .expect = OK },
	{ "k8-a-mode-int", &sim_k8, 1, 1, 0, .c = { { 2, P6OK(0x76) | INT } }, .expect = BAD },
	{ "k8-i-mode-no-int", &sim_k8,
	  1, 1, 1, true,
	  .c = { { 0, P6OK(0x76) }, { 1, P6OK(0x76), 0, -50 } },
	  .expect = BAD },
	/*
	 * Per-event features. K7 and K8 (BKDGs): CntMask 31:24, Inv 23 and
	 * Edge 18 in the low half, nothing above bit 31. Family 10h on
	 * (BKDG 31116, APM vol. 2): also EventSelect[11:8] in 35:32 and
	 * GuestOnly 40, HostOnly 41 (evntsel_high bits 3:0, 8, 9); 39:36
	 * and 63:42 stay reserved.
	 */
#define K7_CMASK	0xFF000000U
#define K7_INV		0x00800000U
#define K7_EDGE		0x00040000U
	{ "k7-cmask", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76) | K7_CMASK } }, .expect = OK },
	{ "k7-cmask1", &sim_k7, 1, 1, 0, .c = { { 1, P6OK(0x76) | 0x01000000 } }, .expect = OK },
	{ "k7-inv", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76) | K7_INV } }, .expect = OK },
	{ "k7-edge", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76) | K7_EDGE } }, .expect = OK },
	{ "k7-event-high", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x1 } }, .expect = BAD },
	{ "k7-event-high-bit35", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x8 } }, .expect = BAD },
	{ "k7-guest-only", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x100 } }, .expect = BAD },
	{ "k7-host-only", &sim_k7, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x200 } }, .expect = BAD },
	{ "k8-one", &sim_k8, 1, 1, 0, .c = { { 2, P6OK(0x76) } }, .expect = OK },
	{ "k8-cmask-inv-edge", &sim_k8, 1, 1, 0, .c = { { 3, 0xFFC70076 } }, .expect = OK },
	{ "k8-cmask", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76) | K7_CMASK } }, .expect = OK },
	{ "k8-inv", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76) | K7_INV } }, .expect = OK },
	{ "k8-edge", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76) | K7_EDGE } }, .expect = OK },
	{ "k8-bit19", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76) | 0x80000 } }, .expect = BAD },
	{ "k8-bit21", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76) | 0x200000 } }, .expect = BAD },
	{ "k8-high-bits", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x300 } }, .expect = BAD },
	{ "k8-event-high", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76), 0xF } }, .expect = BAD },
	{ "k8-event-high-bit32", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x1 } }, .expect = BAD },
	{ "k8-guest-only", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x100 } }, .expect = BAD },
	{ "k8-host-only", &sim_k8, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x200 } }, .expect = BAD },
	/* Family 10h+: EventSelect[11:8] and guest/host in the high half. */
	{ "fam10-event-high", &sim_fam10, 1, 1, 0, .c = { { 0, P6OK(0x76), 0xF } }, .expect = OK },
	{ "fam10-guest-host", &sim_fam10,
	  1, 1, 0,
	  .c = { { 0, P6OK(0x76), 0x300 } },
	  .expect = OK },
	{ "fam10-cmask-inv-edge", &sim_fam10, 1, 1, 0, .c = { { 1, 0xFFC70076 } }, .expect = OK },
	{ "fam10-high-bit36", &sim_fam10,
	  1, 1, 0,
	  .c = { { 0, P6OK(0x76), 0x10 } },
	  .expect = BAD },
	{ "fam10-high-bit42", &sim_fam10,
	  1, 1, 0,
	  .c = { { 0, P6OK(0x76), 0x400 } },
	  .expect = BAD },
	{ "fam10-no-en", &sim_fam10, 1, 1, 0, .c = { { 0, CPL | 0x76 } }, .expect = BAD },
	{ "fam10-cmask", &sim_fam10, 1, 1, 0, .c = { { 0, P6OK(0x76) | K7_CMASK } }, .expect = OK },
	{ "fam10-inv", &sim_fam10, 1, 1, 0, .c = { { 0, P6OK(0x76) | K7_INV } }, .expect = OK },
	{ "fam10-edge", &sim_fam10, 1, 1, 0, .c = { { 0, P6OK(0x76) | K7_EDGE } }, .expect = OK },
	{ "fam10-bit19", &sim_fam10, 1, 1, 0, .c = { { 0, P6OK(0x76) | 0x80000 } }, .expect = BAD },
	{ "fam10-bit21", &sim_fam10, 1, 1, 0,
	  .c = { { 0, P6OK(0x76) | 0x200000 } }, .expect = BAD },
	{ "fam10-event-bit32", &sim_fam10, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x1 } }, .expect = OK },
	{ "fam10-event-bit33", &sim_fam10, 1, 1, 0, .c = { { 1, P6OK(0x76), 0x2 } }, .expect = OK },
	{ "fam10-event-bit34", &sim_fam10, 1, 1, 0, .c = { { 2, P6OK(0x76), 0x4 } }, .expect = OK },
	{ "fam10-event-bit35", &sim_fam10, 1, 1, 0, .c = { { 3, P6OK(0x76), 0x8 } }, .expect = OK },
	{ "fam10-guest-only", &sim_fam10, 1, 1, 0,
	  .c = { { 0, P6OK(0x76), 0x100 } }, .expect = OK },
	{ "fam10-host-only", &sim_fam10, 1, 1, 0, .c = { { 0, P6OK(0x76), 0x200 } }, .expect = OK },
	{ "fam10-all-high", &sim_fam10, 1, 1, 0,
	  .c = { { 0, 0xFFC70076 | EN, 0x30F } }, .expect = OK },
	{ "fam10-high-bit39", &sim_fam10, 1, 1, 0,
	  .c = { { 0, P6OK(0x76), 0x80 } }, .expect = BAD },
	{ "fam10-high-bit63", &sim_fam10,
	  1, 1, 0,
	  .c = { { 0, P6OK(0x76), 0x80000000 } },
	  .expect = BAD },
	/* The core extension's PERF_CTL: the same bits as family 10h. */
	{ "fam15-cmask-inv-edge", &sim_fam15, 1, 1, 0, .c = { { 4, 0xFFC70076 } }, .expect = OK },
	{ "fam15-cmask", &sim_fam15, 1, 1, 0, .c = { { 5, P6OK(0x76) | K7_CMASK } }, .expect = OK },
	{ "fam15-inv", &sim_fam15, 1, 1, 0, .c = { { 5, P6OK(0x76) | K7_INV } }, .expect = OK },
	{ "fam15-edge", &sim_fam15, 1, 1, 0, .c = { { 5, P6OK(0x76) | K7_EDGE } }, .expect = OK },
	{ "fam15-event-high", &sim_fam15, 1, 1, 0, .c = { { 4, P6OK(0x76), 0xF } }, .expect = OK },
	{ "fam15-guest-only", &sim_fam15, 1, 1, 0,
	  .c = { { 5, P6OK(0x76), 0x100 } }, .expect = OK },
	{ "fam15-host-only", &sim_fam15, 1, 1, 0, .c = { { 5, P6OK(0x76), 0x200 } }, .expect = OK },
	{ "fam15-guest-host", &sim_fam15, 1, 1, 0,
	  .c = { { 5, P6OK(0x76), 0x300 } }, .expect = OK },
	{ "fam15-bit19", &sim_fam15, 1, 1, 0, .c = { { 5, P6OK(0x76) | 0x80000 } }, .expect = BAD },
	{ "fam15-bit21", &sim_fam15, 1, 1, 0,
	  .c = { { 5, P6OK(0x76) | 0x200000 } }, .expect = BAD },
	{ "fam15-high-bit36", &sim_fam15, 1, 1, 0,
	  .c = { { 5, P6OK(0x76), 0x10 } }, .expect = BAD },
	{ "fam15-high-bit39", &sim_fam15, 1, 1, 0,
	  .c = { { 5, P6OK(0x76), 0x80 } }, .expect = BAD },
	{ "fam15-high-bit42", &sim_fam15, 1, 1, 0,
	  .c = { { 5, P6OK(0x76), 0x400 } }, .expect = BAD },
	{ "fam15-no-en", &sim_fam15, 1, 1, 0, .c = { { 5, CPL | 0x76 } }, .expect = BAD },
	{ "fam15-six", &sim_fam15,
	  1, 6, 0,
	  .c = {
		{ 0, P6OK(0x76) },
		{ 1, P6OK(0x76) },
		{ 2, P6OK(0x76) },
		{ 3, P6OK(0x76) },
		{ 4, P6OK(0x76) },
		{ 5, P6OK(0x76) },
	  },
	  .expect = OK },
	{ "fam15-map5", &sim_fam15, 1, 1, 0, .c = { { 5, P6OK(0x76), 0x1 } }, .expect = OK },
	{ "fam15-map6", &sim_fam15, 1, 1, 0, .c = { { 6, P6OK(0x76) } }, .expect = BAD },
	/*
	 * Family 17h on (zen, zen3, zen4, hygon): the large-increment event
	 * 003h only on an even counter whose odd neighbour, a-mode, holds
	 * the Merge event FFFh with EN (PPR 55901, 2.1.13.3), both a-mode;
	 * 10h has no such rule.
	 */
#define WIDE		P6OK(0x03)
#define MERGE_SEL	(EN | 0xFF)
	{ "zen-pair", &sim_fam15, 1, 2, 0,
	  .c = { { 0, WIDE }, { 1, MERGE_SEL, 0xF } }, .expect = OK },
	{ "zen-pair-reversed", &sim_fam15, 1, 2, 0,
	  .c = { { 5, MERGE_SEL, 0xF }, { 4, WIDE } }, .expect = OK },
	/* The pair is one 64-bit counter: its even half cannot be i-mode. */
	{ "zen-pair-wide-imode", &sim_fam15, 1, 1, 1, true,
	  .c = { { 3, MERGE_SEL, 0xF }, { 2, WIDE | INT, 0, -5 } }, .expect = BAD },
	{ "zen-merge-other-imode", &sim_fam15, 1, 1, 1, true,
	  .c = { { 1, MERGE_SEL, 0xF }, { 0, P6OK(0x76) | INT, 0, -5 } },
	  .expect = BAD },
	{ "zen-wide-alone", &sim_fam15, 1, 1, 0, .c = { { 0, WIDE } }, .expect = BAD },
	{ "zen-wide-umask-alone", &sim_fam15, 1, 1, 0,
	  .c = { { 0, WIDE | 0x0F00 } }, .expect = BAD },
	{ "zen-wide-odd", &sim_fam15, 1, 2, 0,
	  .c = { { 1, WIDE }, { 2, MERGE_SEL, 0xF } }, .expect = BAD },
	{ "zen-wide-odd-merge-even", &sim_fam15, 1, 2, 0,
	  .c = { { 1, WIDE }, { 0, MERGE_SEL, 0xF } }, .expect = BAD },
	{ "zen-wide-other-neighbour", &sim_fam15, 1, 2, 0,
	  .c = { { 0, WIDE }, { 1, P6OK(0x76) } }, .expect = BAD },
	{ "zen-wide-merge-not-next", &sim_fam15, 1, 2, 0,
	  .c = { { 0, WIDE }, { 3, MERGE_SEL, 0xF } }, .expect = BAD },
	{ "zen-merge-alone", &sim_fam15, 1, 1, 0, .c = { { 1, MERGE_SEL, 0xF } }, .expect = BAD },
	{ "zen-merge-merge", &sim_fam15, 1, 2, 0,
	  .c = { { 0, MERGE_SEL, 0xF }, { 1, MERGE_SEL, 0xF } }, .expect = BAD },
	{ "zen-merge-imode", &sim_fam15, 1, 1, 1, true,
	  .c = { { 0, WIDE }, { 1, EN | INT | 0xFF, 0xF, -5 } }, .expect = BAD },
	{ "zen-merge-no-en", &sim_fam15, 1, 2, 0,
	  .c = { { 0, WIDE }, { 1, 0xFF, 0xF } }, .expect = BAD },
	{ "zen-merge-other-event", &sim_fam15, 1, 2, 0,
	  .c = { { 0, P6OK(0x76) }, { 1, MERGE_SEL, 0xF } }, .expect = OK },
	{ "zen-event-103", &sim_fam15, 1, 1, 0, .c = { { 0, WIDE, 0x1 } }, .expect = OK },
	{ "zen3-pair", &sim_zen3, 1, 2, 0,
	  .c = { { 2, WIDE }, { 3, MERGE_SEL, 0xF } }, .expect = OK },
	{ "zen3-wide-alone", &sim_zen3, 1, 1, 0, .c = { { 2, WIDE } }, .expect = BAD },
	{ "zen4-pair", &sim_zen4, 1, 2, 0,
	  .c = { { 4, WIDE }, { 5, MERGE_SEL, 0xF } }, .expect = OK },
	{ "zen4-wide-alone", &sim_zen4, 1, 1, 0, .c = { { 4, WIDE } }, .expect = BAD },
	{ "zen4-map6", &sim_zen4, 1, 1, 0, .c = { { 6, P6OK(0x76) } }, .expect = BAD },
	{ "zen4-bit21", &sim_zen4, 1, 1, 0,
	  .c = { { 5, P6OK(0x76) | 0x200000 } }, .expect = BAD },
	{ "zen4-no-en", &sim_zen4, 1, 1, 0, .c = { { 5, CPL | 0x76 } }, .expect = BAD },
	{ "zen4-guest-host", &sim_zen4, 1, 1, 0,
	  .c = { { 5, P6OK(0x76), 0x30F } }, .expect = OK },
	{ "hygon-pair", &sim_hygon, 1, 2, 0,
	  .c = { { 0, WIDE }, { 1, MERGE_SEL, 0xF } }, .expect = OK },
	{ "hygon-wide-alone", &sim_hygon, 1, 1, 0, .c = { { 0, WIDE } }, .expect = BAD },
	{ "fam10-wide-alone", &sim_fam10, 1, 1, 0, .c = { { 0, WIDE } }, .expect = OK },
#undef WIDE
#undef MERGE_SEL
	/* VIA C3: counter 1 only, 9-bit event field, nothing else. */
	{ "c3-map1", &sim_c3, 1, 1, 0, .c = { { 1, 0x1FF } }, .expect = OK },
	{ "c3-map0", &sim_c3, 1, 1, 0, .c = { { 0, 0xC0 } }, .expect = BAD },
	{ "c3-bit9", &sim_c3, 1, 1, 0, .c = { { 1, 0x2C0 } }, .expect = BAD },
	{ "c3-en-bit", &sim_c3, 1, 1, 0, .c = { { 1, EN | 0xC0 } }, .expect = BAD },
	{ "c3-two", &sim_c3, 1, 2, 0, .c = { { 1, 0xC0 }, { 0, 0xC0 } }, .expect = BAD },
	{ "c3-i-mode", &sim_c3, 1, 0, 1, .c = { { 1, 0xC0, 0, -1 } }, .expect = BAD },
	{ "c3-tsc-only", &sim_c3, 1, 0, 0, .expect = OK },
	/*
	 * P4: evntsel is the CCCR, p4.escr the ESCR its select picks.
	 * CCCR_OK counts through FSB_ESCR0 (select 6) on counters 0-3.
	 */
#define CCCR_OK		(BIT(12) | (6U << 13) | (3U << 16))
#define ESCR_OK		((0x13U << 25) | BIT(9) | 0xC)
#define CCCR_SEL(s)	(BIT(12) | ((s) << 13) | (3U << 16))
#define PMI		BIT(26)
	{ "p4-one", &sim_p4, 1, 1, 0, .c = { { 0, CCCR_OK, 0, 0, ESCR_OK } }, .expect = OK },
	{ "p4-fast-rdpmc", &sim_p4, 1, 1, 0,
	  .c = { { BIT(31) | 2, CCCR_OK, 0, 0, ESCR_OK } }, .expect = OK },
	{ "p4-map18", &sim_p4, 1, 1, 0, .c = { { 18, CCCR_OK, 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-map-bit30", &sim_p4, 1, 1, 0,
	  .c = { { BIT(30), CCCR_OK, 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-same-counter", &sim_p4, 1, 2, 0,
	  .c = { { 0, CCCR_OK, 0, 0, ESCR_OK }, { BIT(31), CCCR_OK, 0, 0, ESCR_OK } },
	  .expect = BAD },
	{ "p4-cccr-bit0", &sim_p4, 1, 1, 0,
	  .c = { { 0, CCCR_OK | 1, 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-cccr-ovf", &sim_p4, 1, 1, 0,
	  .c = { { 0, CCCR_OK | BIT(31), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-cccr-ovf-pmi-t1", &sim_p4, 1, 1, 0,
	  .c = { { 0, CCCR_OK | BIT(27), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-cccr-bit28", &sim_p4, 1, 1, 0,
	  .c = { { 0, CCCR_OK | BIT(28), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-ext-cascade-12", &sim_p4, 1, 1, 0,
	  .c = { { 12, BIT(11) | (4U << 13) | (3U << 16), 0, 0, ESCR_OK } }, .expect = OK },
	{ "p4-ext-cascade-17", &sim_p4, 1, 1, 0,
	  .c = { { 17, BIT(11) | (4U << 13) | (3U << 16), 0, 0, ESCR_OK } }, .expect = OK },
	{ "p4-ext-cascade-13", &sim_p4, 1, 1, 0,
	  .c = { { 13, BIT(11) | (4U << 13) | (3U << 16), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-ext-cascade-model1", &sim_p4_m1, 1, 1, 0,
	  .c = { { 12, BIT(11) | (4U << 13) | (3U << 16), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-cascade-only", &sim_p4, 1, 1, 0,
	  .c = { { 0, BIT(30) | (6U << 13) | (3U << 16), 0, 0, ESCR_OK } }, .expect = OK },
	{ "p4-not-enabled", &sim_p4, 1, 1, 0,
	  .c = { { 0, (6U << 13) | (3U << 16), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-one-active-thread-bit", &sim_p4, 1, 1, 0,
	  .c = { { 0, BIT(12) | (6U << 13) | BIT(16), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-ht-one-active-thread-bit", &sim_p4_ht, 1, 1, 0,
	  .c = { { 0, BIT(12) | (6U << 13) | BIT(16), 0, 0, ESCR_OK } }, .expect = OK },
	{ "p4-a-mode-pmi", &sim_p4, 1, 1, 0,
	  .c = { { 0, CCCR_OK | PMI, 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-i-mode-pmi", &sim_p4, 1, 0, 1, true,
	  .c = { { 0, CCCR_OK | PMI, 0, -5, ESCR_OK } }, .expect = OK },
	{ "p4-i-mode-no-pmi", &sim_p4, 1, 0, 1, true,
	  .c = { { 0, CCCR_OK, 0, -5, ESCR_OK } }, .expect = BAD },
	{ "p4-force-ovf-ireset-m1", &sim_p4, 1, 0, 1, true,
	  .c = { { 0, CCCR_OK | PMI | BIT(25), 0, -1, ESCR_OK } }, .expect = OK },
	{ "p4-force-ovf-ireset-m2", &sim_p4, 1, 0, 1, true,
	  .c = { { 0, CCCR_OK | PMI | BIT(25), 0, -2, ESCR_OK } }, .expect = BAD },
	{ "p4-escr-bit31", &sim_p4, 1, 1, 0,
	  .c = { { 0, CCCR_OK, 0, 0, ESCR_OK | BIT(31) } }, .expect = BAD },
	{ "p4-escr-t1", &sim_p4, 1, 1, 0,
	  .c = { { 0, CCCR_OK, 0, 0, ESCR_OK | 1 } }, .expect = BAD },
	{ "p4-escr-t1-global-no-ht", &sim_p4, 1, 1, 0, false, true,
	  .c = { { 0, CCCR_OK, 0, 0, ESCR_OK | 2 } }, .expect = BAD },
	{ "p4-ht-escr-t1-per-thread", &sim_p4_ht, 1, 1, 0,
	  .c = { { 0, CCCR_OK, 0, 0, ESCR_OK | 2 } }, .expect = BAD },
	{ "p4-ht-escr-t1-global", &sim_p4_ht, 1, 1, 0, false, true,
	  .c = { { 0, CCCR_OK, 0, 0, ESCR_OK | 3 } }, .expect = OK },
	{ "p4-iq-escr-model2", &sim_p4, 1, 1, 0,
	  .c = { { 12, CCCR_SEL(0), 0, 0, ESCR_OK } }, .expect = OK },
	{ "p4-iq-escr-model3", &sim_p4_ht, 1, 1, 0,
	  .c = { { 12, CCCR_SEL(0), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-ms-select3", &sim_p4, 1, 1, 0,
	  .c = { { 4, CCCR_SEL(3), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-iq-select3-ssu-escr1", &sim_p4, 1, 1, 0,
	  .c = { { 14, CCCR_SEL(3), 0, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-iq-select3-ssu-escr0", &sim_p4, 1, 1, 0,
	  .c = { { 16, CCCR_SEL(3), 0, 0, ESCR_OK } }, .expect = OK },
	{ "p4-escr-conflict", &sim_p4, 1, 2, 0,
	  .c = { { 0, CCCR_OK, 0, 0, ESCR_OK }, { 1, CCCR_OK, 0, 0, ESCR_OK | BIT(10) } },
	  .expect = BAD },
	{ "p4-escr-shared-same-value", &sim_p4, 1, 2, 0,
	  .c = { { 0, CCCR_OK, 0, 0, ESCR_OK }, { 1, CCCR_OK, 0, 0, ESCR_OK } },
	  .expect = OK },
	{ "p4-high-bits", &sim_p4, 1, 1, 0, .c = { { 0, CCCR_OK, 1, 0, ESCR_OK } }, .expect = BAD },
	{ "p4-pebs-replay", &sim_p4, 1, 1, 0, .c = { { 0, CCCR_OK, 0, 0, ESCR_OK } },
	  .pebs_enable = BIT(24) | BIT(0), .pebs_matrix_vert = 1, .expect = OK },
	{ "p4-pebs-no-uop-tag", &sim_p4, 1, 1, 0, .c = { { 0, CCCR_OK, 0, 0, ESCR_OK } },
	  .pebs_enable = BIT(0), .pebs_matrix_vert = 1, .expect = BAD },
	{ "p4-pebs-uop-tag-only", &sim_p4, 1, 1, 0, .c = { { 0, CCCR_OK, 0, 0, ESCR_OK } },
	  .pebs_enable = BIT(24), .pebs_matrix_vert = 1, .expect = BAD },
	{ "p4-pebs-my-thr", &sim_p4, 1, 1, 0, .c = { { 0, CCCR_OK, 0, 0, ESCR_OK } },
	  .pebs_enable = BIT(25) | BIT(24) | BIT(0), .pebs_matrix_vert = 1, .expect = BAD },
	{ "p4-pebs-vert-zero", &sim_p4, 1, 1, 0, .c = { { 0, CCCR_OK, 0, 0, ESCR_OK } },
	  .pebs_enable = BIT(24) | BIT(10), .expect = BAD },
	{ "p4-pebs-vert-bit2", &sim_p4, 1, 1, 0, .c = { { 0, CCCR_OK, 0, 0, ESCR_OK } },
	  .pebs_enable = BIT(24) | BIT(9), .pebs_matrix_vert = 5, .expect = BAD },
	{ "p4-vert-without-pebs", &sim_p4, 1, 1, 0, .c = { { 0, CCCR_OK, 0, 0, ESCR_OK } },
	  .pebs_matrix_vert = 1, .expect = BAD },
	/*
	 * Rules common to every x86 family. tsc_on is 0 or 1, stricter than
	 * the seed's "non-zero" (low-level-api.rst says why).
	 */
	{ "any-tsc_on-2", &sim_k7, 2, 0, 0, .expect = BAD },
	{ "any-tsc_on-high-bit", &sim_k7, 0x80000000, 0, 0, .expect = BAD },
	/* No TSC in CPUID (a hypervisor may hide it): tsc_on is refused (A1). */
	{ "p6-no-tsc-tsc_on", &sim_p6_no_tsc, 1, 1, 0, .c = { { 0, P6OK(0xC0) } }, .expect = BAD },
	{ "p6-no-tsc-tsc-only", &sim_p6_no_tsc, 1, 0, 0, .expect = BAD },
	{ "p6-no-tsc-counters", &sim_p6_no_tsc, 0, 1, 0, .c = { { 0, P6OK(0xC0) } }, .expect = OK },
	{ "p6-tsc-only", &sim_p6, 1, 0, 0, .expect = OK },
	{ "any-empty", &sim_k7, 0, 0, 0, .expect = OK },
	{ "any-huge-count", &sim_k7, 1, 0x40000000, 0x40000000, .expect = BAD },
};

SIM_CASE_DESC(rule_case)
KUNIT_ARRAY_PARAM(rule, rule_cases, rule_case_desc);

static void x86_rule(struct kunit *test)
{
	const struct rule_case *c = test->param_value;
	struct perfctr_cpu_state *state = sim_case_state(test, c);
	unsigned int writes, features;

	features = sim_force_pcint(c->pcint);
	state->control.p4.pebs_enable = c->pebs_enable;
	state->control.p4.pebs_matrix_vert = c->pebs_matrix_vert;
	writes = perfctr_x86_sim.nr_wrmsr;
	sim_expect_update(test, state, c->is_global, c->expect);
	/* Validation is pure: no register is touched. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, writes);
	perfctr_info.features = features;
}

static struct kunit_case rules_test_cases[] = {
	KUNIT_CASE_PARAM(x86_rule, rule_gen_params),
	{}
};

SUITEOF(rules_test_cases,
	.name = "perfctr_x86_rules", .exit = sim_stop);
