// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: perfctr_cpu_counts_kernel() on every x86 family. Each case is a
 * control the family accepts; the predicate must say whether any of its
 * counters can count at CPL 0. Expected values follow the manuals:
 *  - P5 CESR CC field, bits 6-8 of each half: bit 6 is CPL 0-2, bit 7
 *    CPL 3, bit 8 clocks (Intel SDM vol. 3B, "Pentium Processor
 *    Performance Monitoring"); Cyrix 6x86MX/MII: the same field;
 *  - P6, arch perfmon, AMD: PerfEvtSel OS, bit 17 (Intel SDM vol. 3B;
 *    AMD64 APM vol. 2, where HostOnly/GuestOnly, bits 41:40, select host
 *    or guest, not the privilege level); fixed counters: bit 0 (OS) of
 *    each IA32_FIXED_CTR_CTRL field;
 *  - P4 ESCR: T0_OS bit 3, T1_OS bit 1 (Intel SDM vol. 3B);
 *  - WinChip and VIA C3: no privilege bits, so every counter counts the
 *    kernel;
 *  - a control with no counters (TSC only) counts nothing.
 */
#include "arch_test.h"

#define EN	0x00400000U
#define INT	0x00100000U
#define OS	0x00020000U
#define USR	0x00010000U
#define FX(n)	(PERFCTR_X86_FIXED_PMC | (n))

/* Fixed counter fields: bit 0 CPL 0, bit 1 CPL > 0, bit 3 interrupt. */
#define FX_OS	0x1U
#define FX_USR	0x2U
#define FX_PMI	0x8U

/* P4: counter 0 counting through FSB_ESCR0 (ESCR select 6). */
#define CCCR	(BIT(12) | (6U << 13) | (3U << 16))
#define PMI	BIT(26)
#define ESCR	((0x13U << 25) | BIT(9))
#define T0_USR	BIT(2)
#define T0_OS	BIT(3)
#define T1_USR	BIT(0)
#define T1_OS	BIT(1)

struct priv_case {
	const char *name;
	const struct perfctr_x86_sim_model *model;
	u32 tsc_on, nractrs, nrictrs;
	bool is_global;
	struct sim_ctr c[3];
	bool kernel;		/* expected perfctr_cpu_counts_kernel() */
};

static const struct priv_case priv_cases[] = {
	/* Generic: only the TSC, which is no event count. */
	{ "generic-tsc-only", &sim_generic, 1, 0, 0, .kernel = false },
	/* Intel P5, CC codes 010, 110 (CPL 3); 001, 011, 101, 111 (CPL 0-2). */
	{ "p5-cc010-cpl3", &sim_p5, 1, 1, 0, .c = { { 0, 0x0096 } }, .kernel = false },
	{ "p5-cc110-clocks-cpl3", &sim_p5, 1, 1, 0, .c = { { 1, 0x0196 } }, .kernel = false },
	{ "p5-two-cpl3", &sim_p5, 1, 2, 0,
	  .c = { { 0, 0x0096 }, { 1, 0x0196 } }, .kernel = false },
	{ "p5-cc001-cpl0-2", &sim_p5, 1, 1, 0, .c = { { 0, 0x0056 } }, .kernel = true },
	{ "p5-cc011-any", &sim_p5, 1, 1, 0, .c = { { 0, 0x00D6 } }, .kernel = true },
	{ "p5-cc101-clocks-cpl0-2", &sim_p5, 1, 1, 0, .c = { { 1, 0x0156 } }, .kernel = true },
	{ "p5-cc111-clocks-any", &sim_p5, 1, 1, 0, .c = { { 1, 0x01D6 } }, .kernel = true },
	{ "p5-second-counts-kernel", &sim_p5, 1, 2, 0,
	  .c = { { 0, 0x0096 }, { 1, 0x0056 } }, .kernel = true },
	{ "p5-tsc-only", &sim_p5, 1, 0, 0, .kernel = false },
	{ "p5mmx-cpl3", &sim_p5mmx, 1, 1, 0, .c = { { 0, 0x0096 } }, .kernel = false },
	{ "p5mmx-cpl0-2", &sim_p5mmx, 1, 1, 0, .c = { { 0, 0x0056 } }, .kernel = true },
	/* Cyrix: bit 10 extends the event, the CC field is the P5's. */
	{ "mii-cpl3", &sim_mii, 1, 1, 0, .c = { { 0, 0x0496 } }, .kernel = false },
	{ "mii-cpl0-2", &sim_mii, 1, 1, 0, .c = { { 1, 0x0456 } }, .kernel = true },
	/* WinChip: no CPL bits; its TSC is off limits. */
	{ "winchip-no-counters", &sim_winchip, 0, 0, 0, .kernel = false },
	{ "winchip-counter", &sim_winchip, 0, 1, 0, .c = { { 0, 0x0016 } }, .kernel = true },
	/* P6: OS in either evntsel, a-mode or i-mode. */
	{ "p6-usr", &sim_p6, 1, 1, 0, .c = { { 0, EN | USR | 0xC0 } }, .kernel = false },
	{ "p6-os", &sim_p6, 1, 1, 0, .c = { { 0, EN | OS | 0xC0 } }, .kernel = true },
	{ "p6-usr-i-mode-usr", &sim_p6, 1, 1, 1,
	  .c = { { 0, EN | USR | 0xC0 }, { 1, USR | INT | 0xC0, 0, -1000 } },
	  .kernel = false },
	{ "p6-usr-i-mode-os", &sim_p6, 1, 1, 1,
	  .c = { { 0, EN | USR | 0xC0 }, { 1, OS | INT | 0xC0, 0, -1000 } },
	  .kernel = true },
	{ "p6-counter1-os", &sim_p6, 1, 2, 0,
	  .c = { { 0, EN | USR | 0xC0 }, { 1, OS | 0xC0 } }, .kernel = true },
	/* Architectural perfmon: general-purpose and fixed counters. */
	{ "arch-v1-usr", &sim_arch_v1, 1, 1, 0, .c = { { 1, EN | USR | 0x3C } }, .kernel = false },
	{ "arch-v1-os", &sim_arch_v1, 1, 1, 0, .c = { { 1, EN | OS | 0x3C } }, .kernel = true },
	{ "arch-usr", &sim_arch_v2, 1, 1, 0, .c = { { 3, EN | USR | 0x3C } }, .kernel = false },
	{ "arch-os", &sim_arch_v2, 1, 1, 0, .c = { { 3, EN | OS | 0x3C } }, .kernel = true },
	{ "arch-fixed-usr", &sim_arch_v2, 1, 1, 0, .c = { { FX(0), FX_USR } }, .kernel = false },
	{ "arch-fixed-os", &sim_arch_v2, 1, 1, 0, .c = { { FX(1), FX_OS } }, .kernel = true },
	{ "arch-fixed-both", &sim_arch_v2, 1, 1, 0,
	  .c = { { FX(2), FX_OS | FX_USR } }, .kernel = true },
	{ "arch-fixed-i-mode-usr", &sim_arch_v2, 1, 0, 1,
	  .c = { { FX(1), FX_USR | FX_PMI, 0, -1 } }, .kernel = false },
	{ "arch-fixed-i-mode-os", &sim_arch_v2, 1, 0, 1,
	  .c = { { FX(1), FX_OS | FX_PMI, 0, -1 } }, .kernel = true },
	{ "arch-usr-and-fixed-usr", &sim_arch_v2, 1, 3, 0,
	  .c = { { 0, EN | USR | 0x3C }, { FX(0), FX_USR }, { FX(2), FX_USR } },
	  .kernel = false },
	{ "arch-usr-and-fixed-os", &sim_arch_v2, 1, 3, 0,
	  .c = { { 0, EN | USR | 0x3C }, { FX(0), FX_USR }, { FX(2), FX_OS } },
	  .kernel = true },
	/* AMD: OS; counter mask, invert and edge do not matter. */
	{ "k7-usr", &sim_k7, 1, 1, 0, .c = { { 2, EN | USR | 0x76 } }, .kernel = false },
	{ "k7-usr-cmask-inv-edge", &sim_k7, 1, 1, 0, .c = { { 0, 0xFFC50076 } }, .kernel = false },
	{ "k7-os", &sim_k7, 1, 1, 0, .c = { { 3, EN | OS | 0x76 } }, .kernel = true },
	{ "k7-i-mode-os", &sim_k7, 1, 1, 1,
	  .c = { { 0, EN | USR | 0x76 }, { 1, EN | OS | INT | 0x76, 0, -50 } },
	  .kernel = true },
	{ "k8-usr", &sim_k8, 1, 1, 0, .c = { { 1, EN | USR | 0x76 } }, .kernel = false },
	{ "k8-os", &sim_k8, 1, 1, 0, .c = { { 1, EN | OS | 0x76 } }, .kernel = true },
	{ "fam10-usr-host-guest", &sim_fam10, 1, 1, 0,
	  .c = { { 0, EN | USR | 0x76, 0x300 } }, .kernel = false },
	{ "fam10-usr-event-high", &sim_fam10, 1, 1, 0,
	  .c = { { 0, EN | USR | 0x76, 0xF } }, .kernel = false },
	{ "fam10-os-host-only", &sim_fam10, 1, 1, 0,
	  .c = { { 0, EN | OS | 0x76, 0x200 } }, .kernel = true },
	{ "fam10-os-guest-only", &sim_fam10, 1, 1, 0,
	  .c = { { 0, EN | OS | 0x76, 0x100 } }, .kernel = true },
	{ "fam15-usr", &sim_fam15, 1, 1, 0, .c = { { 5, EN | USR | 0x76 } }, .kernel = false },
	{ "fam15-os", &sim_fam15, 1, 1, 0, .c = { { 5, EN | OS | 0x76 } }, .kernel = true },
	/* VIA C3: no mode bits at all. */
	{ "c3-tsc-only", &sim_c3, 1, 0, 0, .kernel = false },
	{ "c3-counter", &sim_c3, 1, 1, 0, .c = { { 1, 0xC0 } }, .kernel = true },
	/* P4: the ESCR's OS bits, for thread 0 and (global, HT) thread 1. */
	{ "p4-t0-usr", &sim_p4, 1, 1, 0,
	  .c = { { 0, CCCR, 0, 0, ESCR | T0_USR } }, .kernel = false },
	{ "p4-t0-os", &sim_p4, 1, 1, 0,
	  .c = { { 0, CCCR, 0, 0, ESCR | T0_OS } }, .kernel = true },
	{ "p4-i-mode-t0-os", &sim_p4, 1, 1, 1,
	  .c = { { 0, CCCR, 0, 0, ESCR | T0_USR },
		 { 2, CCCR | PMI, 0, -5, ESCR | T0_OS } },
	  .kernel = true },
	{ "p4-ht-global-usr", &sim_p4_ht, 1, 1, 0, true,
	  .c = { { 0, CCCR, 0, 0, ESCR | T0_USR | T1_USR } }, .kernel = false },
	{ "p4-ht-global-t1-os", &sim_p4_ht, 1, 1, 0, true,
	  .c = { { 0, CCCR, 0, 0, ESCR | T0_USR | T1_OS } }, .kernel = true },
};

SIM_CASE_DESC(priv_case)
KUNIT_ARRAY_PARAM(priv, priv_cases, priv_case_desc);

static void x86_counts_kernel(struct kunit *test)
{
	const struct priv_case *c = test->param_value;
	struct perfctr_cpu_state *state = sim_case_state(test, c);
	unsigned int features, reads, writes;

	/* i-mode cases need the overflow interrupt, whatever the model says. */
	features = sim_force_pcint(true);
	KUNIT_ASSERT_EQ(test, perfctr_cpu_update_control(state, c->is_global), 0);
	reads = perfctr_x86_sim.nr_rdmsr;
	writes = perfctr_x86_sim.nr_wrmsr;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_counts_kernel(state), c->kernel);
	/* A question about the control, not the hardware. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_rdmsr, reads);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, writes);
	perfctr_info.features = features;
}

static struct kunit_case privilege_test_cases[] = {
	KUNIT_CASE_PARAM(x86_counts_kernel, priv_gen_params),
	{}
};

SUITEOF(privilege_test_cases,
	.name = "perfctr_x86_privilege", .exit = sim_stop);
