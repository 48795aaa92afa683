// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr test builds: the simulated x86 CPU. Register facts per family
 * (MSR numbers, counter widths, write quirks) follow the vendors'
 * manuals; see Documentation/perfctr/x86.rst.
 */
#define PERFCTR_SIM 1

#include <linux/errno.h>
#include <linux/string.h>
#include <asm/processor.h>

#include "x86_sim.h"
#include "../../arch/x86/perfctr/regs.h"

#define EN	0x00400000ULL
#define INT	0x00100000ULL
#define CPL	0x00030000ULL	/* USR | OS */

struct perfctr_x86_sim perfctr_x86_sim;
#define S perfctr_x86_sim

const struct perfctr_x86_sim_model sim_generic = {
	.name = "generic", .vendor = X86_VENDOR_UNKNOWN, .family = 6,
	.has_tsc = true, .kind = SIM_NONE,
};

const struct perfctr_x86_sim_model sim_no_tsc = {
	.name = "no-tsc", .vendor = X86_VENDOR_UNKNOWN, .family = 4,
	.kind = SIM_NONE,
};

#define P5_REGS .pmc_mask = 0x3, .sel_msr = 0x11, .ctr_msr = 0x12, \
	.stride = 1, .width = 40

const struct perfctr_x86_sim_model sim_p5 = {
	.name = "p5", .vendor = X86_VENDOR_INTEL, .family = 5, .model = 2,
	.has_tsc = true, .kind = SIM_P5, .no_rdpmc = true, P5_REGS,
};

const struct perfctr_x86_sim_model sim_p5mmx = {
	.name = "p5mmx", .vendor = X86_VENDOR_INTEL, .family = 5, .model = 4,
	.has_tsc = true, .has_mmx = true, .kind = SIM_P5, P5_REGS,
};

const struct perfctr_x86_sim_model sim_mii = {
	.name = "mii", .vendor = X86_VENDOR_CYRIX, .family = 6, .model = 0,
	.has_tsc = true, .has_mmx = true, .kind = SIM_P5, P5_REGS,
};

const struct perfctr_x86_sim_model sim_winchip = {
	.name = "winchip", .vendor = X86_VENDOR_CENTAUR, .family = 5,
	.model = 8, .has_tsc = true, .has_mmx = true, .kind = SIM_WINCHIP,
	P5_REGS,
};

#define P6_REGS .sel_msr = 0x186, .ctr_msr = 0xC1, .stride = 1, \
	.width = 40, .sext31 = true

const struct perfctr_x86_sim_model sim_p6 = {
	.name = "p6", .vendor = X86_VENDOR_INTEL, .family = 6, .model = 8,
	.has_tsc = true, .has_mmx = true, .cpuid_level = 3, .kind = SIM_P6,
	.pmc_mask = 0x3, P6_REGS,
};

const struct perfctr_x86_sim_model sim_qemu_p6 = {
	.name = "qemu-pentium3", .vendor = X86_VENDOR_INTEL, .family = 6,
	.model = 7, .has_tsc = true, .has_mmx = true, .cpuid_level = 3,
	.kind = SIM_P6, .pmc_mask = 0x3, .dead = true, P6_REGS,
};

/* Version 1, 2 counters (Core Duo era); version 2, 4 counters 48 bits. */
const struct perfctr_x86_sim_model sim_arch_v1 = {
	.name = "arch-v1", .vendor = X86_VENDOR_INTEL, .family = 6,
	.model = 14, .has_tsc = true, .has_mmx = true, .cpuid_level = 10,
	.cpuid_a_eax = 0x00280201, .kind = SIM_ARCH, .pmc_mask = 0x3,
	.sel_msr = 0x186, .ctr_msr = 0xC1, .stride = 1, .width = 40,
	.sext31 = true,
};

const struct perfctr_x86_sim_model sim_arch_v2 = {
	.name = "arch-v2", .vendor = X86_VENDOR_INTEL, .family = 6,
	.model = 0x3A, .has_tsc = true, .has_mmx = true, .cpuid_level = 13,
	.cpuid_a_eax = 0x07300402, .kind = SIM_ARCH, .pmc_mask = 0xF,
	.sel_msr = 0x186, .ctr_msr = 0xC1, .stride = 1, .width = 48,
	.sext31 = true,
};

/* P4s have no driver yet: detection must fall back to generic. */
const struct perfctr_x86_sim_model sim_intel_p4 = {
	.name = "p4", .vendor = X86_VENDOR_INTEL, .family = 15, .model = 2,
	.has_tsc = true, .has_mmx = true, .cpuid_level = 2, .kind = SIM_NONE,
};

#define K7_REGS .pmc_mask = 0xF, .sel_msr = 0xC0010000, \
	.ctr_msr = 0xC0010004, .stride = 1, .width = 48

const struct perfctr_x86_sim_model sim_k7 = {
	.name = "k7", .vendor = X86_VENDOR_AMD, .family = 6, .model = 2,
	.has_tsc = true, .has_mmx = true, .kind = SIM_K7, K7_REGS,
};

const struct perfctr_x86_sim_model sim_qemu_k7 = {
	.name = "qemu-athlon", .vendor = X86_VENDOR_AMD, .family = 6,
	.model = 2, .has_tsc = true, .has_mmx = true, .kind = SIM_K7,
	.no_msrs = true, K7_REGS,
};

const struct perfctr_x86_sim_model sim_k8 = {
	.name = "k8", .vendor = X86_VENDOR_AMD, .family = 15, .model = 5,
	.has_tsc = true, .has_mmx = true, .kind = SIM_K7, K7_REGS,
};

const struct perfctr_x86_sim_model sim_fam10 = {
	.name = "fam10h", .vendor = X86_VENDOR_AMD, .family = 16, .model = 2,
	.has_tsc = true, .has_mmx = true, .kind = SIM_K7, K7_REGS,
};

const struct perfctr_x86_sim_model sim_fam15 = {
	.name = "zen", .vendor = X86_VENDOR_AMD, .family = 23, .model = 1,
	.has_tsc = true, .has_mmx = true, .has_perfctr_core = true,
	.kind = SIM_K7, .pmc_mask = 0x3F, .sel_msr = 0xC0010200,
	.ctr_msr = 0xC0010201, .stride = 2, .width = 48,
};

const struct perfctr_x86_sim_model sim_c3 = {
	.name = "c3", .vendor = X86_VENDOR_CENTAUR, .family = 6, .model = 7,
	.has_tsc = true, .has_mmx = true, .kind = SIM_C3, .pmc_mask = 0x2,
	.sel_msr = 0x186, .ctr_msr = 0xC1, .stride = 1, .width = 40,
};

void perfctr_x86_sim_reset(const struct perfctr_x86_sim_model *m)
{
	memset(&S, 0, sizeof(S));
	S.m = m;
	/* Architectural perfmon v2 powers up with its counters enabled. */
	if (m->kind == SIM_ARCH)
		S.global_ctrl = m->pmc_mask;
}

static u64 width_mask(void)
{
	return S.m->width >= 64 ? ~0ULL : (1ULL << S.m->width) - 1;
}

static bool arch_version2(void)
{
	return S.m->kind == SIM_ARCH && (S.m->cpuid_a_eax & 0xFF) >= 2;
}

/* The register behind @msr, or NULL if this model has none. */
static u64 *sim_reg(u32 msr, bool *is_ctr, unsigned int *pmc)
{
	const struct perfctr_x86_sim_model *m = S.m;
	unsigned int i;

	*is_ctr = false;
	if (m->kind == SIM_NONE || m->no_msrs)
		return NULL;
	if ((m->kind == SIM_P5 || m->kind == SIM_WINCHIP) && msr == 0x11)
		return &S.cesr;
	if (arch_version2() && msr == 0x38F)
		return &S.global_ctrl;
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
		return (sel & EN) && (sel & CPL);
	default:
		return false;
	}
}

void perfctr_x86_sim_tick(u64 n)
{
	unsigned int pmc;

	for (pmc = 0; pmc < SIM_MAX_CTRS; pmc++) {
		u64 old = S.ctr[pmc], new;

		if (!(S.m->pmc_mask & (1U << pmc)) || !counting(pmc))
			continue;
		new = (old + n) & width_mask();
		/* Wrapping past the top is the overflow that interrupts. */
		if (new < old && (S.sel[pmc] & INT))
			S.ovf_pending |= 1U << pmc;
		S.ctr[pmc] = new;
	}
}

u64 perfctr_x86_sim_counter(unsigned int pmc)
{
	return S.ctr[pmc];
}

u64 perfctr_sim_rdtsc(void)
{
	u64 now = S.tsc;

	S.tsc += S.tsc_step;
	S.nr_rdtsc++;
	return now;
}

static void bad_access(u32 what)
{
	S.nr_bad++;
	S.last_bad = what;
}

u64 perfctr_sim_rdpmc(u32 index)
{
	S.nr_rdpmc++;
	if (S.m->no_rdpmc || index >= SIM_MAX_CTRS ||
	    !(S.m->pmc_mask & (1U << index))) {
		bad_access(index);
		return 0;
	}
	return S.ctr[index];
}

int perfctr_sim_rdmsr_safe(u32 msr, u64 *val)
{
	unsigned int pmc;
	bool is_ctr;
	u64 *reg = sim_reg(msr, &is_ctr, &pmc);

	S.nr_rdmsr++;
	if (!reg)
		return -EIO;
	if (S.autotick)
		perfctr_x86_sim_tick(S.autotick);
	*val = *reg;
	return 0;
}

int perfctr_sim_wrmsr_safe(u32 msr, u64 val)
{
	unsigned int pmc;
	bool is_ctr;
	u64 *reg = sim_reg(msr, &is_ctr, &pmc);

	S.nr_wrmsr++;
	if (!reg)
		return -EIO;
	if (is_ctr && S.m->sext31)
		val = (u64)(s64)(s32)(u32)val;
	*reg = is_ctr ? val & width_mask() : val;
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

void perfctr_sim_cpuid(u32 leaf, u32 *a, u32 *b, u32 *c, u32 *d)
{
	*a = *b = *c = *d = 0;
	if (leaf == 0xA && S.m->cpuid_level >= 0xA)
		*a = S.m->cpuid_a_eax;
}

void perfctr_sim_cpu_ident(struct pc_cpu_ident *id)
{
	const struct perfctr_x86_sim_model *m = S.m;

	memset(id, 0, sizeof(*id));
	id->vendor = m->vendor;
	id->family = m->family;
	id->model = m->model;
	id->has_tsc = m->has_tsc;
	id->has_mmx = m->has_mmx;
	id->has_apic = true;
	id->has_perfctr_core = m->has_perfctr_core;
	id->cpuid_level = m->cpuid_level;
	id->siblings = 1;
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
