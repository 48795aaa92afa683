// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr test builds: the simulated x86 CPU. Register facts per family
 * (MSR numbers, counter widths, write quirks) follow the vendors'
 * manuals; see Documentation/perfctr/x86.rst.
 */
#include <linux/bits.h>
#include <linux/cpumask.h>
#include <linux/errno.h>
#include <linux/string.h>
#include <asm/apicdef.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor.h>

#include <perfctr/cpu.h>
#include <perfctr/ibs.h>

#include "model.h"

#define EN	0x00400000ULL
#define INT	0x00100000ULL
#define CPL	0x00030000ULL	/* USR | OS */

DEFINE_PER_CPU(struct perfctr_x86_sim_state, perfctr_x86_sim_pcpu);
#define S perfctr_x86_sim

static u64 sim_ctl_of(unsigned int pmc);
static void sim_live_advance(void);

/* Intel arch perfmon v4, v5, hybrids: intel.c, included at the end. */
static bool sim_intel_cpuid(const struct perfctr_x86_sim_model *p, u32 leaf,
			    u32 sub, u32 *a, u32 *b, u32 *c, u32 *d);
static void sim_intel_leaf_a(const struct perfctr_x86_sim_model *p, u32 *a,
			     u32 *c, u32 *d);
static u64 sim_global_valid(void);
static bool sim_intel_msr(u32 msr);
static int sim_intel_rdmsr(u32 msr, u64 *val);
static int sim_intel_wrmsr(u32 msr, u64 val);

/* A model with a TSC: its name, CPUID vendor, family and model, the rest. */
#define SIM_X86(nm, vendor_, fam, mod, ...)				\
	{ .name = nm, .vendor = X86_VENDOR_##vendor_, .family = fam,	\
	  .model = mod, .has_tsc = true, __VA_ARGS__ }

const struct perfctr_x86_sim_model sim_generic =
	SIM_X86("generic", UNKNOWN, 6, 0, .kind = SIM_NONE);

const struct perfctr_x86_sim_model sim_no_tsc = {
	.name = "no-tsc", .vendor = X86_VENDOR_UNKNOWN, .family = 4,
	.kind = SIM_NONE,
};

#define P5_REGS .pmc_mask = 0x3, .sel_msr = 0x11, .ctr_msr = 0x12, \
	.stride = 1, .width = 40

const struct perfctr_x86_sim_model sim_p5 =
	SIM_X86("p5", INTEL, 5, 2, .kind = SIM_P5, .no_rdpmc = true, P5_REGS);

const struct perfctr_x86_sim_model sim_p5mmx =
	SIM_X86("p5mmx", INTEL, 5, 4, .has_mmx = true, .kind = SIM_P5, P5_REGS);

const struct perfctr_x86_sim_model sim_mii =
	SIM_X86("mii", CYRIX, 6, 0, .has_mmx = true, .kind = SIM_P5, P5_REGS);

const struct perfctr_x86_sim_model sim_winchip =
	SIM_X86("winchip", CENTAUR, 5, 8, .has_mmx = true, .kind = SIM_WINCHIP,
		P5_REGS);

#define P6_REGS .sel_msr = 0x186, .ctr_msr = 0xC1, .stride = 1, \
	.width = 40, .sext31 = true

const struct perfctr_x86_sim_model sim_p6 =
	SIM_X86("p6", INTEL, 6, 8, .has_mmx = true, .cpuid_level = 3,
		.kind = SIM_P6, .pmc_mask = 0x3, P6_REGS);

/*
 * A P6 as a hypervisor may present it: CPUID without the TSC flag, or
 * without the APIC flag (no LVTPC, so no overflow interrupt).
 */
const struct perfctr_x86_sim_model sim_p6_no_tsc = {
	.name = "p6-no-tsc", .vendor = X86_VENDOR_INTEL, .family = 6,
	.model = 8, .has_mmx = true, .cpuid_level = 3, .kind = SIM_P6,
	.pmc_mask = 0x3, P6_REGS,
};

const struct perfctr_x86_sim_model sim_p6_no_apic =
	SIM_X86("p6-no-apic", INTEL, 6, 8, .has_mmx = true, .cpuid_level = 3,
		.no_apic = true, .kind = SIM_P6, .pmc_mask = 0x3, P6_REGS);

const struct perfctr_x86_sim_model sim_qemu_p6 =
	SIM_X86("qemu-pentium3", INTEL, 6, 7, .has_mmx = true, .cpuid_level = 3,
		.kind = SIM_P6, .pmc_mask = 0x3, .dead = true, P6_REGS);

/* Version 1, 2 counters (Core Duo era); version 2, 4 counters 48 bits. */
const struct perfctr_x86_sim_model sim_arch_v1 =
	SIM_X86("arch-v1", INTEL, 6, 14, .has_mmx = true, .cpuid_level = 10,
		.cpuid_a_eax = 0x00280201, .kind = SIM_ARCH, .pmc_mask = 0x3,
		P6_REGS);

const struct perfctr_x86_sim_model sim_arch_v2 =
	SIM_X86("arch-v2", INTEL, 6, 0x3A, .stepping = 9, .has_mmx = true,
		.cpuid_level = 13, .cpuid_a_eax = 0x07300402, .nr_fixed = 3,
		.kind = SIM_ARCH, .pmc_mask = 0xF, .sel_msr = 0x186, .ctr_msr = 0xC1, .stride = 1,
		.width = 48, .sext31 = true);

/* QEMU's core2duo under TCG: CPUID leaf 0xA is all zero. */
const struct perfctr_x86_sim_model sim_core2_tcg =
	SIM_X86("qemu-core2duo", INTEL, 6, 15, .has_mmx = true,
		.cpuid_level = 10, .kind = SIM_NONE);

#define P4_REGS .kind = SIM_P4, .pmc_mask = 0x3FFFF, .sel_msr = 0x360, \
	.ctr_msr = 0x300, .stride = 1, .width = 40

const struct perfctr_x86_sim_model sim_p4 =
	SIM_X86("p4-model2", INTEL, 15, 2, .has_mmx = true, .cpuid_level = 2,
		P4_REGS);

const struct perfctr_x86_sim_model sim_p4_m1 =
	SIM_X86("p4-model1", INTEL, 15, 1, .has_mmx = true, .cpuid_level = 2,
		P4_REGS);

const struct perfctr_x86_sim_model sim_p4_ht =
	SIM_X86("p4-model3-ht", INTEL, 15, 3, .has_mmx = true, .cpuid_level = 5,
		.siblings = 2, P4_REGS);

/* ESCRs per counter pair and ESCR_SELECT, from the SDM's P4 tables. */
static const u16 sim_p4_escr_map[8][8] = {
	{ 0x3B2, 0x3B4, 0x3AA, 0x3B6, 0x3AC, 0x3C8, 0x3A2, 0x3A0 },
	{ 0x3B3, 0x3B5, 0x3AB, 0x3B7, 0x3AD, 0x3C9, 0x3A3, 0x3A1 },
	{ 0x3C0, 0x3C4, 0x3C2 },
	{ 0x3C1, 0x3C5, 0x3C3 },
	{ 0x3A6, 0x3A4, 0x3AE, 0x3B0, 0, 0x3A8 },
	{ 0x3A7, 0x3A5, 0x3AF, 0x3B1, 0, 0x3A9 },
	{ 0x3BA, 0x3CA, 0x3BC, 0x3BE, 0x3B8, 0x3CC, 0x3E0 },
	{ 0x3BB, 0x3CB, 0x3BD, 0, 0x3B9, 0x3CD, 0x3E1 },
};

static const u8 sim_p4_pair[18] = {
	0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 6, 7
};

static bool sim_p4_escr_exists(u32 msr)
{
	unsigned int i, j;

	if ((msr == 0x3BA || msr == 0x3BB) && S.m->model > 2)
		return false;
	for (i = 0; i < 8; i++)
		for (j = 0; j < 8; j++)
			if (sim_p4_escr_map[i][j] && sim_p4_escr_map[i][j] == msr)
				return true;
	return false;
}

/* The ESCR value counter @pmc's CCCR selects. */
static u64 sim_p4_selected_escr(unsigned int pmc)
{
	u32 msr = sim_p4_escr_map[sim_p4_pair[pmc]][(S.sel[pmc] >> 13) & 7];

	return sim_p4_escr_exists(msr) ? S.escr[msr - SIM_P4_ESCR0] : 0;
}

static u64 *sim_p4_reg(u32 msr, bool *is_ctr, unsigned int *pmc)
{
	if (msr >= 0x300 && msr < 0x312) {
		*is_ctr = true;
		*pmc = msr - 0x300;
		return &S.ctr[msr - 0x300];
	}
	if (msr >= 0x360 && msr < 0x372)
		return &S.sel[msr - 0x360];
	if (msr == 0x3F1)
		return &S.pebs_enable;
	if (msr == 0x3F2)
		return &S.pebs_matrix_vert;
	if (sim_p4_escr_exists(msr))
		return &S.escr[msr - SIM_P4_ESCR0];
	return NULL;
}

#define K7_REGS .pmc_mask = 0xF, .sel_msr = 0xC0010000, \
	.ctr_msr = 0xC0010004, .stride = 1, .width = 48

const struct perfctr_x86_sim_model sim_k7 =
	SIM_X86("k7", AMD, 6, 2, .has_mmx = true, .kind = SIM_K7, K7_REGS);

const struct perfctr_x86_sim_model sim_qemu_k7 =
	SIM_X86("qemu-athlon", AMD, 6, 2, .has_mmx = true, .kind = SIM_K7,
		.no_msrs = true, K7_REGS);

const struct perfctr_x86_sim_model sim_k8 =
	SIM_X86("k8", AMD, 15, 5, .has_mmx = true, .kind = SIM_K7, K7_REGS);

/* IBS: family 10h's first fetch and op sampling; Zen's CPUID Fn8000_001B. */
#define SIM_IBS_FAM10	(PERFCTR_IBS_CAP_AVAIL | PERFCTR_IBS_CAP_FETCHSAM | \
			 PERFCTR_IBS_CAP_OPSAM)
#define SIM_IBS_ZEN	(SIM_IBS_FAM10 | PERFCTR_IBS_CAP_RDWROPCNT | \
			 PERFCTR_IBS_CAP_OPCNT | PERFCTR_IBS_CAP_BRNTRGT | \
			 PERFCTR_IBS_CAP_OPCNTEXT | PERFCTR_IBS_CAP_RIPINVALIDCHK)

const struct perfctr_x86_sim_model sim_fam10 =
	SIM_X86("fam10h", AMD, 16, 2, .has_mmx = true, .kind = SIM_K7, K7_REGS,
		.ibs_caps = SIM_IBS_FAM10);

/* Family 15h on: six core counters (APM vol. 2, 24593 rev. 3.42, 13.2). */
#define F15_REGS .has_mmx = true, .has_perfctr_core = true, .kind = SIM_K7, \
	.pmc_mask = 0x3F, .sel_msr = 0xC0010200, .ctr_msr = 0xC0010201, \
	.stride = 2, .width = 48

const struct perfctr_x86_sim_model sim_fam15 =
	SIM_X86("zen", AMD, 23, 1, F15_REGS, .ibs_caps = SIM_IBS_ZEN,
		.amd_pairs = true);

/*
 * Zen 3 (family 19h model 21h; PPR 56214, "Performance Monitor
 * Counters"): six core counters as Zen's, the Merge pairs, no PerfMonV2
 * (CPUID Fn8000_0022 EAX[0] clear).
 */
const struct perfctr_x86_sim_model sim_zen3 =
	SIM_X86("zen3", AMD, 0x19, 0x21, F15_REGS, .ibs_caps = SIM_IBS_ZEN,
		.amd_pairs = true);

/*
 * Zen 4 (family 19h model 11h; PPR 55901 rev. 0.25, sections 2.1.13
 * and MSRC000_0300-0302; APM vol. 2, 24593 rev. 3.42, section 13.2):
 * PerfMonV2 with six core counters (CPUID Fn8000_0022 EAX[0], EBX[3:0]).
 * A counter counts only with PERF_CTL.EN and its PerfCntrGlobalCtl bit;
 * its overflow sets its PerfCntrGlobalStatus bit, which only a 1 written
 * to PerfCntrGlobalStatusClr clears.
 */
const struct perfctr_x86_sim_model sim_zen4 =
	SIM_X86("zen4", AMD, 0x19, 0x11, F15_REGS, .ibs_caps = SIM_IBS_ZEN,
		.amd_pairs = true, .amd_v2_ctrs = 6);

/* Hygon Dhyana (family 18h): Zen 1's core, CPUID vendor HygonGenuine. */
const struct perfctr_x86_sim_model sim_hygon =
	SIM_X86("hygon", HYGON, 0x18, 0, F15_REGS, .amd_pairs = true);

const struct perfctr_x86_sim_model sim_c3 =
	SIM_X86("c3", CENTAUR, 6, 7, .has_mmx = true, .kind = SIM_C3,
		.pmc_mask = 0x2, .sel_msr = 0x186, .ctr_msr = 0xC1, .stride = 1,
		.width = 40);

/* The machine simulated: what every CPU is, but where a test says. */
static const struct perfctr_x86_sim_model *sim_machine;

/* CPUID leaf 0xA of one CPU, where a test made it differ (hybrid CPUs). */
struct sim_leaf_a {
	bool set;
	u32 eax, ecx, edx;
};

static DEFINE_PER_CPU(struct sim_leaf_a, sim_leaf_a);

void perfctr_x86_sim_set_leaf_a5(unsigned int cpu, u32 eax, u32 ecx, u32 edx)
{
	struct sim_leaf_a *o = per_cpu_ptr(&sim_leaf_a, cpu);

	o->eax = eax;
	o->ecx = ecx;
	o->edx = edx;
	o->set = true;
}

void perfctr_x86_sim_set_leaf_a(unsigned int cpu, u32 eax, u32 edx)
{
	perfctr_x86_sim_set_leaf_a5(cpu, eax, 0, edx);
}

static void sim_power_on(struct perfctr_x86_sim_state *sim,
			 const struct perfctr_x86_sim_model *m)
{
	unsigned int i;

	memset(sim, 0, sizeof(*sim));
	sim->m = m;
	/* LVT entries come out of reset masked; firmware names IBS's. */
	for (i = 0; i < SIM_IBS_EILVTS; i++)
		sim->ibs.eilvt[i] = APIC_EILVT_MASKED;
	if (m->ibs_caps)
		sim->ibs.ctl = BIT(8) | SIM_IBS_LVT_OFFSET;
	sim->ibs.rand = 0x2545F491;
	/* Architectural perfmon v2 powers up with its counters enabled. */
	if (m->kind == SIM_ARCH)
		sim->global_ctrl = m->pmc_mask |
				   (u64)perfctr_x86_sim_fixed_mask(m) << 32;
}

void perfctr_x86_sim_reset(const struct perfctr_x86_sim_model *m)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		per_cpu_ptr(&sim_leaf_a, cpu)->set = false;
	sim_machine = m;
	sim_power_on(&S, perfctr_x86_sim_part(m, raw_smp_processor_id()));
}

void perfctr_x86_sim_live(const struct perfctr_x86_sim_model *m)
{
	unsigned int cpu;

	sim_machine = m;
	for_each_possible_cpu(cpu) {
		struct perfctr_x86_sim_state *sim = per_cpu_ptr(&perfctr_x86_sim_pcpu, cpu);

		sim_power_on(sim, perfctr_x86_sim_part(m, cpu));
		sim->live = true;
	}
}

static u64 width_mask(void)
{
	return S.m->width >= 64 ? ~0ULL : (1ULL << S.m->width) - 1;
}

static bool arch_version2(void)
{
	return S.m->kind == SIM_ARCH && (S.m->cpuid_a_eax & 0xFF) >= 2;
}

/* AMD PerfMonV2's registers (model.h's sim_zen4 cites the manuals). */
#define SIM_AMD_GLOBAL_STATUS		0xC0000300
#define SIM_AMD_GLOBAL_CTL		0xC0000301
#define SIM_AMD_GLOBAL_STATUS_CLR	0xC0000302

static bool amd_v2(void)
{
	return S.m->kind == SIM_K7 && S.m->amd_v2_ctrs;
}

/* The register behind @msr, or NULL if this model has none. */
static u64 *sim_reg(u32 msr, bool *is_ctr, unsigned int *pmc)
{
	const struct perfctr_x86_sim_model *m = S.m;
	unsigned int i;

	*is_ctr = false;
	if (m->kind == SIM_NONE || m->no_msrs)
		return NULL;
	if (m->kind == SIM_P4)
		return sim_p4_reg(msr, is_ctr, pmc);
	if ((m->kind == SIM_P5 || m->kind == SIM_WINCHIP) && msr == 0x11)
		return &S.cesr;
	if (arch_version2() && msr == 0x38F)
		return &S.global_ctrl;
	if (arch_version2() && msr == 0x38D)
		return &S.fixed_ctrl;
	if (arch_version2() && msr == 0x390)	/* GLOBAL_OVF_CTRL */
		return &S.global_status;
	if (amd_v2() && (msr == SIM_AMD_GLOBAL_STATUS ||
			 msr == SIM_AMD_GLOBAL_STATUS_CLR))
		return &S.global_status;
	if (amd_v2() && msr == SIM_AMD_GLOBAL_CTL)
		return &S.global_ctrl;
	if (arch_version2() && msr >= 0x309 && msr < 0x311 &&
	    (perfctr_x86_sim_fixed_mask(m) & BIT(msr - 0x309))) {
		*is_ctr = true;
		*pmc = PERFCTR_X86_FIXED_PMC | (msr - 0x309);
		return &S.fixed[msr - 0x309];
	}
	for (i = 0; i < SIM_MAX_CTRS; i++) {
		if (!(m->pmc_mask & (1U << i)))
			continue;
		*pmc = i;
		if (m->kind != SIM_P5 && m->kind != SIM_WINCHIP &&
		    msr == m->sel_msr + i * m->stride)
			return &S.sel[i];
		if (msr == m->ctr_msr + i * m->stride) {
			*is_ctr = true;
			return &S.ctr[i];
		}
	}
	return NULL;
}

/*
 * AMD PERF_CTL's per-event features (SIM_K7; x86.rst and amd.rst give
 * the bits, testing.rst the pattern). Cycle c of a CPU, counted from
 * power-on, has c mod 4 occurrences of SIM_PATTERN_EVENT and one of any
 * other event. CntMask 0 counts every occurrence (INV ignored); N > 0
 * counts the cycles with at least N occurrences, with INV fewer than N;
 * EDGE counts the cycles in which that condition (with CntMask 0: any
 * occurrence) turns true.
 */
#define K7_EDGE		BIT_ULL(18)
#define K7_INV		BIT_ULL(23)
#define K7_GUEST_ONLY	BIT_ULL(40)
#define K7_HOST_ONLY	BIT_ULL(41)

/* SVM is off (EFER.SVME 0): GuestOnly or HostOnly alone counts nothing. */
static bool sim_k7_svm_off_filtered(u64 sel)
{
	return !(sel & K7_GUEST_ONLY) != !(sel & K7_HOST_ONLY);
}

static u32 sim_k7_event(u64 sel)
{
	return (sel & 0xFF) | ((sel >> 32) & 0xF) << 8;
}

static unsigned int sim_k7_occurrences(u64 sel, unsigned int phase)
{
	u32 ev = sim_k7_event(sel);

	if (ev == SIM_WIDE_EVENT && S.m->amd_pairs)
		return SIM_WIDE_PER_CYCLE;
	return ev == SIM_PATTERN_EVENT ? phase & 3 : 1;
}

/* Is even counter @pmc merged with the odd one above it? */
static bool sim_k7_merged(unsigned int pmc)
{
	u64 sel;

	if (!S.m->amd_pairs || (pmc & 1) || pmc + 1 >= SIM_MAX_CTRS)
		return false;
	sel = S.sel[pmc + 1];
	return (sel & EN) && sim_k7_event(sel) == SIM_MERGE_EVENT;
}

static bool sim_k7_condition(u64 sel, unsigned int phase)
{
	unsigned int occ = sim_k7_occurrences(sel, phase);
	unsigned int cmask = (sel >> 24) & 0xFF;

	if (!cmask)
		return occ > 0;
	return (sel & K7_INV) ? occ < cmask : occ >= cmask;
}

/*
 * What a counter controlled by @sel adds in a cycle of phase @phase:
 * at most 15 unless @merged.
 */
static unsigned int sim_k7_weight(u64 sel, unsigned int phase, bool merged)
{
	unsigned int occ;

	if (sel & K7_EDGE)
		return sim_k7_condition(sel, phase) &&
		       !sim_k7_condition(sel, phase + 3);
	if ((sel >> 24) & 0xFF)
		return sim_k7_condition(sel, phase);
	occ = sim_k7_occurrences(sel, phase);
	return merged ? occ : occ & 0xF;
}

/* What counter @pmc adds in @n cycles from this CPU's phase on: exact. */
static u64 sim_k7_events(unsigned int pmc, u64 n)
{
	unsigned int i, period = 0, part = 0;
	bool merged = sim_k7_merged(pmc);
	u64 sel = S.sel[pmc];

	for (i = 0; i < 4; i++) {
		period += sim_k7_weight(sel, i, merged);
		if (i < n % 4)
			part += sim_k7_weight(sel, S.phase + i, merged);
	}
	return n / 4 * period + part;
}

static bool counting(unsigned int pmc)
{
	u64 sel = S.sel[pmc];

	if (S.m->dead)
		return false;
	switch (S.m->kind) {
	case SIM_P5:
		return (S.cesr >> (16 * pmc)) & 0xC0;
	case SIM_WINCHIP:
	case SIM_C3:
		return true;
	case SIM_P6:
		return (S.sel[0] & EN) && (sel & CPL);
	case SIM_ARCH:
		if (arch_version2() && !(S.global_ctrl & (1ULL << pmc)))
			return false;
		return (sel & EN) && (sel & CPL);
	case SIM_K7:
		if (amd_v2() && !(S.global_ctrl & BIT_ULL(pmc)))
			return false;
		return (sel & EN) && (sel & CPL) && !sim_k7_svm_off_filtered(sel);
	case SIM_P4:		/* CCCR enabled, ESCR counts some CPL */
		return (sel & BIT(12)) && (sim_p4_selected_escr(pmc) & 0xF);
	default:
		return false;
	}
}

/* --- IBS: the model of model.h, registers from AMD's BKDG and PPRs --- */

#define SIM_IBS_FETCH_EN		BIT_ULL(48)
#define SIM_IBS_FETCH_VAL		BIT_ULL(49)
#define SIM_IBS_FETCH_COMP		BIT_ULL(50)
#define SIM_IBS_FETCH_PHY_VALID	BIT_ULL(52)
#define SIM_IBS_FETCH_RAND_EN	BIT_ULL(57)
#define SIM_IBS_OP_EN		BIT_ULL(17)
#define SIM_IBS_OP_VAL		BIT_ULL(18)
#define SIM_IBS_OP_CNT_CTL		BIT_ULL(19)
#define SIM_IBS_OP_CUR_CNT		GENMASK_ULL(58, 32)

/* The IBS MSR @msr of this model, or NULL. */
static u64 *sim_ibs_reg(u32 msr)
{
	struct perfctr_x86_sim_ibs *ibs = &S.ibs;

	if (!S.m->ibs_caps)
		return NULL;
	switch (msr) {
	case 0xC0011030: return &ibs->fetch_ctl;
	case 0xC0011031: return &ibs->fetch_lin;
	case 0xC0011032: return &ibs->fetch_phys;
	case 0xC0011033: return &ibs->op_ctl;
	case 0xC0011034: return &ibs->op_rip;
	case 0xC0011035: return &ibs->op_data[0];
	case 0xC0011036: return &ibs->op_data[1];
	case 0xC0011037: return &ibs->op_data[2];
	case 0xC0011038: return &ibs->dc_lin;
	case 0xC0011039: return &ibs->dc_phys;
	case 0xC001103A: return &ibs->ctl;
	default: return NULL;
	}
}

static void sim_ibs_ident(struct pc_cpu_ident *id)
{
	u32 a, b, c, d;

	perfctr_sim_cpuid_on(0, 0x80000001, &a, &b, &c, &d);
	id->has_ibs = c & BIT(10);
	perfctr_sim_cpuid_on(0, 0x8000001B, &a, &b, &c, &d);
	id->ibs_caps = id->has_ibs ? a : 0;
}

/* MaxCnt: bits 15:0 hold MaxCnt[19:4]; op's MaxCnt[26:20] with OpCntExt. */
static u64 sim_ibs_fetch_max(void)
{
	return (S.ibs.fetch_ctl & 0xFFFF) << 4;
}

static u64 sim_ibs_op_max(void)
{
	u64 max = (S.ibs.op_ctl & 0xFFFF) << 4;

	if (S.m->ibs_caps & PERFCTR_IBS_CAP_OPCNTEXT)
		max |= S.ibs.op_ctl & GENMASK_ULL(26, 20);
	return max;
}

/* The current counts into their fields: IbsFetchCnt[19:4], IbsOpCurCnt. */
static void sim_ibs_sync(void)
{
	struct perfctr_x86_sim_ibs *ibs = &S.ibs;

	ibs->fetch_ctl = (ibs->fetch_ctl & ~GENMASK_ULL(31, 16)) |
			 (((ibs->fetch_cnt >> 4) & 0xFFFF) << 16);
	ibs->op_ctl = (ibs->op_ctl & ~SIM_IBS_OP_CUR_CNT) |
		      ((ibs->op_cnt << 32) & SIM_IBS_OP_CUR_CNT);
}

/* The NMI goes out if IbsCtl names an LVT entry that is an unmasked NMI. */
static void sim_ibs_raise(void)
{
	struct perfctr_x86_sim_ibs *ibs = &S.ibs;
	u32 e = ibs->eilvt[ibs->ctl & (SIM_IBS_EILVTS - 1)];

	if ((ibs->ctl & BIT(8)) && !(e & APIC_EILVT_MASKED) &&
	    ((e >> 8) & 7) == APIC_EILVT_MSG_NMI)
		ibs->nmi_pending = true;
}

static void sim_ibs_latch_fetch(void)
{
	struct perfctr_x86_sim_ibs *ibs = &S.ibs;

	ibs->fetch_ctl &= ~GENMASK_ULL(47, 32);
	ibs->fetch_ctl |= SIM_IBS_FETCH_VAL | SIM_IBS_FETCH_COMP | SIM_IBS_FETCH_PHY_VALID |
			  SIM_IBS_FETCH_LAT << 32;
	ibs->fetch_lin = ibs->rip;
	ibs->fetch_phys = SIM_IBS_FETCH_PHYS | (ibs->rip & 0xFFF);
	ibs->nr_fetch++;
	sim_ibs_raise();
}

/* Stale values stay where the valid bits say no: the driver must not copy them. */
static void sim_ibs_latch_op(void)
{
	struct perfctr_x86_sim_ibs *ibs = &S.ibs;

	ibs->op_ctl |= SIM_IBS_OP_VAL;
	ibs->op_rip = ibs->rip_invalid ? 0xBADBADBADULL : ibs->rip;
	ibs->op_data[0] = SIM_IBS_OP_DATA1 | (ibs->rip_invalid ? BIT_ULL(38) : 0);
	ibs->op_data[1] = SIM_IBS_OP_DATA2;
	if (ibs->not_load) {
		ibs->op_data[2] = 0;
		ibs->dc_lin = 0xBADBAD0ULL;
		ibs->dc_phys = 0xBADBAD8ULL;
	} else {	/* IbsLdOp, IbsDcLinAddrValid, IbsDcPhyAddrValid */
		ibs->op_data[2] = BIT_ULL(0) | BIT_ULL(17) | BIT_ULL(18);
		ibs->dc_lin = SIM_IBS_DC_LIN;
		ibs->dc_phys = SIM_IBS_DC_PHYS;
	}
	ibs->nr_op++;
	sim_ibs_raise();
}

/*
 * An engine counts while enabled and no sample is latched. Live, a
 * count that reached MaxCnt waits at it for the next timer tick, whose
 * RIP the sample takes.
 */
static void sim_ibs_tick(u64 n)
{
	struct perfctr_x86_sim_ibs *ibs = &S.ibs;
	bool latch = !S.live || ibs->live_latch;

	if (!S.m->ibs_caps)
		return;
	if ((ibs->fetch_ctl & SIM_IBS_FETCH_EN) && !(ibs->fetch_ctl & SIM_IBS_FETCH_VAL)) {
		ibs->fetch_cnt = min(ibs->fetch_cnt + n, sim_ibs_fetch_max());
		if (latch && ibs->fetch_cnt >= sim_ibs_fetch_max())
			sim_ibs_latch_fetch();
	}
	if ((ibs->op_ctl & SIM_IBS_OP_EN) && !(ibs->op_ctl & SIM_IBS_OP_VAL) &&
	    !ibs->foreign) {
		u64 k = n;

		if (ibs->op_ctl & SIM_IBS_OP_CNT_CTL) {	/* dispatched ops */
			ibs->op_cycles += n;
			k = ibs->op_cycles / SIM_IBS_CYCLES_PER_OP;
			ibs->op_cycles %= SIM_IBS_CYCLES_PER_OP;
		}
		ibs->op_cnt = min(ibs->op_cnt + k, sim_ibs_op_max());
		if (latch && ibs->op_cnt >= sim_ibs_op_max())
			sim_ibs_latch_op();
	}
	sim_ibs_sync();
}

static u32 sim_ibs_random(void)
{
	u32 x = S.ibs.rand;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	S.ibs.rand = x;
	return x;
}

static int sim_ibs_rdmsr(u32 msr, u64 *val)
{
	sim_live_advance();
	S.nr_rdmsr++;
	*val = *sim_ibs_reg(msr);
	return 0;
}

/*
 * A control write sets the count from its count field: the start value
 * (count 0) starts over; RandEn randomises the fetch count's low 4 bits.
 */
static int sim_ibs_wrmsr(u32 msr, u64 val)
{
	struct perfctr_x86_sim_ibs *ibs = &S.ibs;

	sim_live_advance();
	S.nr_wrmsr++;
	if (msr == 0xC001103A)
		return 0;		/* IbsCtl: firmware's, read-only here */
	*sim_ibs_reg(msr) = val;
	if (msr == 0xC0011030) {
		ibs->fetch_cnt = ((val >> 16) & 0xFFFF) << 4;
		if ((val & SIM_IBS_FETCH_EN) && (val & SIM_IBS_FETCH_RAND_EN))
			ibs->fetch_cnt |= sim_ibs_random() & 0xF;
	} else if (msr == 0xC0011033) {
		ibs->op_cnt = (val & SIM_IBS_OP_CUR_CNT) >> 32;
		ibs->op_cycles = 0;
	}
	sim_ibs_sync();
	if ((ibs->fetch_ctl & SIM_IBS_FETCH_EN) || (ibs->op_ctl & SIM_IBS_OP_EN))
		perfctr_x86_sim_ibs_changed();
	return 0;
}

int perfctr_x86_sim_ibs_nmi(struct pt_regs *regs)
{
	struct pt_regs none = {};
	int ret;

	if (!S.ibs.nmi_pending || S.ibs.in_nmi)
		return -1;
	S.ibs.nmi_pending = false;
	if (!perfctr_x86_sim_ibs_nmi_registered())
		return -1;
	S.ibs.in_nmi = true;
	S.ibs.nr_nmi++;
	ret = pc_ibs_nmi_handler(NMI_LOCAL, regs ? regs : &none);
	S.ibs.in_nmi = false;
	return ret;
}

void perfctr_x86_sim_ibs_perf(unsigned int cpu, bool on)
{
	struct perfctr_x86_sim_ibs *ibs = &per_cpu_ptr(&perfctr_x86_sim_pcpu, cpu)->ibs;

	WRITE_ONCE(ibs->foreign, on);
	WRITE_ONCE(ibs->op_ctl, on ? SIM_IBS_PERF_OP_CTL : 0);
	WRITE_ONCE(ibs->op_cnt, 0);
}

u32 perfctr_sim_eilvt_read(unsigned int offset)
{
	return offset < SIM_IBS_EILVTS ? S.ibs.eilvt[offset] : 0;
}

/*
 * As the kernel's setup_APIC_eilvt(): an entry that is unmasked may
 * only be set up again the same way, or masked.
 */
int perfctr_sim_eilvt_setup(unsigned int offset, u8 vector, u8 msg_type,
			    u8 mask)
{
	u32 new = ((u32)mask << 16) | ((u32)msg_type << 8) | vector, old;

	if (offset >= SIM_IBS_EILVTS)
		return -EINVAL;
	old = S.ibs.eilvt[offset];
	if (!(old & APIC_EILVT_MASKED) && new != APIC_EILVT_MASKED &&
	    (new & ~APIC_EILVT_MASKED) != old)
		return -EBUSY;
	S.ibs.eilvt[offset] = new;
	return 0;
}

/* Fixed counter @i counts if its field has a CPL bit and it is enabled. */
static void sim_tick_fixed(u64 n)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(S.fixed); i++) {
		u32 field = (S.fixed_ctrl >> (4 * i)) & 0xF;
		u64 old = S.fixed[i];

		if (S.m->dead || !(field & 3) || !(S.global_ctrl & BIT_ULL(32 + i)) ||
		    !(perfctr_x86_sim_fixed_mask(S.m) & BIT(i)))
			continue;
		S.fixed[i] = (old + n) & width_mask();
		if (S.fixed[i] < old)
			S.global_status |= BIT_ULL(32 + i);
		if (S.fixed[i] < old && (field & 8))
			S.ovf_pending |= BIT(24 + i);
	}
}

void perfctr_x86_sim_tick(u64 n)
{
	unsigned int pmc;

	sim_ibs_tick(n);
	sim_tick_fixed(n);

	for (pmc = 0; pmc < SIM_MAX_CTRS; pmc++) {
		u64 old = S.ctr[pmc], new;

		if (!(S.m->pmc_mask & (1U << pmc)) || !counting(pmc))
			continue;
		if (S.m->kind == SIM_K7)
			new = (old + sim_k7_events(pmc, n)) & width_mask();
		else
			new = (old + n) & width_mask();
		S.ctr[pmc] = new;
		if (new >= old)
			continue;
		/* Wrapping past the top is the overflow that interrupts. */
		if (S.m->kind == SIM_P4) {
			S.sel[pmc] |= BIT(31);			/* sticky OVF */
			if (S.sel[pmc] & BIT(26))		/* OVF_PMI_T0 */
				S.ovf_pending |= 1U << pmc;
		} else if (S.sel[pmc] & INT) {
			S.ovf_pending |= 1U << pmc;
		}
		if (arch_version2() || amd_v2())
			S.global_status |= BIT_ULL(pmc);
	}
	S.phase = (S.phase + n % 4) & 3;
}

/* The control that enables counter @pmc (for P6, counter 0's gates all). */
static u64 sim_ctl_of(unsigned int pmc)
{
	if (pmc & PERFCTR_X86_FIXED_PMC)
		return (S.fixed_ctrl >> (4 * (pmc & 0x1F))) & 0xF;
	if (S.m->kind == SIM_P5 || S.m->kind == SIM_WINCHIP)
		return (S.cesr >> (16 * pmc)) & 0xFFFF;
	return S.sel[pmc];
}

u64 perfctr_x86_sim_counter(unsigned int pmc)
{
	if (pmc & PERFCTR_X86_FIXED_PMC)
		return S.fixed[pmc & 0x1F];
	return S.ctr[pmc];
}

/* Live mode: enabled counters count the real cycles since the last access. */
static void sim_live_advance(void)
{
	u64 now;

	if (!S.live)
		return;
	now = rdtsc();
	if (S.last_tsc)
		perfctr_x86_sim_tick(now - S.last_tsc);
	S.last_tsc = now;
	perfctr_x86_sim_publish();
}

static void bad_access(u32 what)
{
	S.nr_bad++;
	S.last_bad = what;
}

/* RDTSC's #UD on a CPU without a TSC, as a read of its MSR (0x10). */
#define SIM_BAD_RDTSC	0x10

u64 perfctr_sim_rdtsc(void)
{
	u64 now = S.tsc;

	if (!S.m->has_tsc)
		bad_access(SIM_BAD_RDTSC);
	if (S.live) {
		sim_live_advance();
		S.nr_rdtsc++;
		return S.last_tsc;
	}

	S.tsc += S.tsc_step;
	S.nr_rdtsc++;
	return now;
}

u64 perfctr_sim_rdpmc(u32 index)
{
	/* P4: bit 31 asks for a fast read of the low 32 bits. */
	bool fast = S.m->kind == SIM_P4 && (index & BIT(31));
	u32 i = fast ? index & 0x1F : index;

	S.nr_rdpmc++;
	sim_live_advance();
	if (S.m->kind == SIM_ARCH && (index & PERFCTR_X86_FIXED_PMC)) {
		i = index & ~PERFCTR_X86_FIXED_PMC;
		if (arch_version2() && i < 32 &&
		    (perfctr_x86_sim_fixed_mask(S.m) & BIT(i)))
			return S.fixed[i];
		bad_access(index);
		return 0;
	}
	if (S.m->no_rdpmc || i >= SIM_MAX_CTRS || !(S.m->pmc_mask & BIT(i))) {
		bad_access(index);
		return 0;
	}
	return fast ? (u32)S.ctr[i] : S.ctr[i];
}

int perfctr_sim_rdmsr_safe(u32 msr, u64 *val)
{
	unsigned int pmc = 0;
	bool is_ctr;
	u64 *reg = sim_reg(msr, &is_ctr, &pmc);

	if (sim_ibs_reg(msr))
		return sim_ibs_rdmsr(msr, val);
	if (sim_intel_msr(msr))
		return sim_intel_rdmsr(msr, val);
	S.nr_rdmsr++;
	if (!reg)
		return -EIO;
	sim_live_advance();
	if (S.autotick)
		perfctr_x86_sim_tick(S.autotick);
	*val = *reg;
	return 0;
}

int perfctr_sim_wrmsr_safe(u32 msr, u64 val)
{
	unsigned int pmc = 0;
	bool is_ctr;
	u64 *reg = sim_reg(msr, &is_ctr, &pmc);

	if (sim_ibs_reg(msr))
		return sim_ibs_wrmsr(msr, val);
	if (sim_intel_msr(msr))
		return sim_intel_wrmsr(msr, val);
	S.nr_wrmsr++;
	if (!reg)
		return -EIO;
	sim_live_advance();
	if (msr == 0x38F && (val & ~sim_global_valid()))
		return -EIO;		/* reserved GLOBAL_CTRL bits: #GP */
	if (msr == 0x390 || (amd_v2() && msr == SIM_AMD_GLOBAL_STATUS_CLR)) {
		S.global_status &= ~val;	/* write 1 to clear */
		return 0;
	}
	if (amd_v2() && msr == SIM_AMD_GLOBAL_STATUS)
		return -EIO;			/* read-only: #GP */
	/* Zeroing a live counter is harmless; presetting one is not. */
	if (is_ctr && val)
		S.sel_at_preset = sim_ctl_of(pmc);
	if (is_ctr && S.m->sext31 && !(pmc & PERFCTR_X86_FIXED_PMC)) {
		/* Legacy P6-style write: low 32 bits, sign-extended. */
		val = (u64)(s64)(s32)(u32)val;
	} else if (is_ctr && (val & ~width_mask())) {
		return -EIO;		/* reserved bits above the width: #GP */
	}
	*reg = is_ctr ? val & width_mask() : val;
	perfctr_x86_sim_publish();
	return 0;
}

u64 perfctr_sim_rdmsr(u32 msr)
{
	u64 val = 0;

	if (perfctr_sim_rdmsr_safe(msr, &val))
		bad_access(msr);
	return val;
}

void perfctr_sim_wrmsr(u32 msr, u64 val)
{
	if (perfctr_sim_wrmsr_safe(msr, val))
		bad_access(msr);
}

/* Any CPU, online or not, from any CPU: the machine's answer or the test's. */
void perfctr_sim_cpuid_count_on(unsigned int cpu, u32 leaf, u32 sub, u32 *a,
				u32 *b, u32 *c, u32 *d)
{
	const struct sim_leaf_a *o = per_cpu_ptr(&sim_leaf_a, cpu);
	const struct perfctr_x86_sim_model *m = sim_machine;

	*a = *b = *c = *d = 0;
	if (sim_intel_cpuid(perfctr_x86_sim_part(m, cpu), leaf, sub, a, b, c, d))
		return;
	if (leaf == 0x80000000 && m->ibs_caps)
		*a = 0x8000001B;
	if (leaf == 0x80000000 && m->amd_v2_ctrs)
		*a = 0x80000022;
	if (leaf == 0x80000022 && m->amd_v2_ctrs) {
		*a = BIT(0);			/* PerfMonV2 */
		*b = m->amd_v2_ctrs;		/* NumPerfCtrCore */
	}
	if (leaf == 0x80000001 && m->ibs_caps)
		*c = BIT(10);			/* IBS */
	if (leaf == 0x8000001B)
		*a = m->ibs_caps;
	if (leaf != 0xA)
		return;
	if (o->set) {
		*a = o->eax;
		*c = o->ecx;
		*d = o->edx;
	} else {
		sim_intel_leaf_a(perfctr_x86_sim_part(m, cpu), a, c, d);
	}
}

void perfctr_sim_cpuid_on(unsigned int cpu, u32 leaf, u32 *a, u32 *b, u32 *c,
			  u32 *d)
{
	perfctr_sim_cpuid_count_on(cpu, leaf, 0, a, b, c, d);
}

/* CPUID leaf 0's vendor string of each vendor the models have. */
static const char *sim_vendor_id(u8 vendor)
{
	switch (vendor) {
	case X86_VENDOR_INTEL:
		return "GenuineIntel";
	case X86_VENDOR_AMD:
		return "AuthenticAMD";
	case X86_VENDOR_HYGON:
		return "HygonGenuine";
	case X86_VENDOR_CYRIX:
		return "CyrixInstead";
	case X86_VENDOR_CENTAUR:
		return "CentaurHauls";
	default:
		return "Unknown";
	}
}

void perfctr_sim_cpu_ident(struct pc_cpu_ident *id)
{
	const struct perfctr_x86_sim_model *m = S.m;

	memset(id, 0, sizeof(*id));
	id->vendor = m->vendor;
	id->family = m->family;
	id->model = m->model;
	id->stepping = m->stepping;
	strscpy(id->vendor_id, sim_vendor_id(m->vendor), sizeof(id->vendor_id));
	id->has_tsc = m->has_tsc;
	id->has_mmx = m->has_mmx;
	id->has_apic = !m->no_apic;
	id->has_perfctr_core = m->has_perfctr_core;
	id->cpuid_level = m->cpuid_level;
	id->siblings = m->siblings ? m->siblings : 1;
	sim_ibs_ident(id);
}

/* A simulated HT CPU pairs CPU 2k with 2k+1; thread 1s are the odd ones. */
void perfctr_sim_thread1_cpus(struct cpumask *mask)
{
	unsigned int cpu;

	cpumask_clear(mask);
	if (S.m->siblings < 2)
		return;
	for_each_possible_cpu(cpu)
		if (cpu & 1)
			cpumask_set_cpu(cpu, mask);
}

bool perfctr_sim_reserve_kernel(u32 msr)
{
	if (S.kernel_busy)
		return false;
	S.kernel_reserved++;
	return true;
}

void perfctr_sim_release_kernel(u32 msr)
{
	S.kernel_reserved--;
}

u32 perfctr_sim_lvtpc_read(void)
{
	return S.lvtpc;
}

void perfctr_sim_lvtpc_write(u32 val)
{
	S.lvtpc = val;
	perfctr_x86_sim_lvtpc_changed();
}

void perfctr_sim_user_rdpmc(bool on)
{
	S.user_rdpmc = on;
	perfctr_x86_sim_publish();
}

void perfctr_sim_nmi_window(void)
{
	if (S.nmi_window)
		S.nmi_window();
}

#include "intel.c"
