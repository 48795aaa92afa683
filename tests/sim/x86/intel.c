// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr test builds: simulated Intel CPUs of architectural perfmon
 * versions 4 and 5, and a hybrid; the end of model.c (included there).
 *
 * Typed from the Intel SDM, order no. 325462-080US (June 2023):
 * - vol. 2A, CPUID: leaf 01H ECX[15] (PDCM: IA32_PERF_CAPABILITIES
 *   exists); 07H.0 EDX[15] (hybrid); 07H.1 EAX[8] (leaf 23H exists);
 *   0AH (EAX version, counters, width; EDX[4:0] fixed counters, [12:5]
 *   their width, [15] AnyThread deprecated; v5 ECX a bitmap of fixed
 *   counters: counter i exists if ECX[i] or EDX[4:0] > i); 1AH EAX[31:24]
 *   (core type: 20H Atom, 40H Core); 23H (sub-leaf 1: EAX, EBX the
 *   general-purpose and fixed counter bitmaps);
 * - vol. 3B, chapter 20 "Performance Monitoring": 20.2.2 (from v2 a
 *   counter counts only with both its local enable and its
 *   IA32_PERF_GLOBAL_CTRL bit; IA32_PERF_GLOBAL_STATUS 38EH read-only,
 *   cleared through 390H), 20.2.4 (v4: 390H is GLOBAL_STATUS_RESET, 391H
 *   GLOBAL_STATUS_SET, both write 1s), 20.2.5 (v5), 20.2.6 (full-width
 *   writes: with IA32_PERF_CAPABILITIES[13], IA32_A_PMCx at 4C1H take
 *   the whole counter width, IA32_PMCx still sign-extend bit 31; bits
 *   above the width are reserved);
 * - vol. 4, table 2-2: the MSR addresses; IA32_PERF_CAPABILITIES[15]
 *   (PERF_METRICS), whose enable is IA32_PERF_GLOBAL_CTRL bit 48.
 * Counter and fixed-counter numbers per model from chapter 20's sections
 * on the Skylake, Golden Cove and Gracemont microarchitectures; every
 * event counts one per cycle here, TOPDOWN.SLOTS too.
 */

#define SIM_CAP_FW_WRITE	BIT_ULL(13)
#define SIM_CAP_PERF_METRICS	BIT_ULL(15)
#define SIM_GLOBAL_METRICS	BIT_ULL(48)

#define SIM_ARCH_REGS .kind = SIM_ARCH, .sel_msr = 0x186, .ctr_msr = 0xC1, \
	.stride = 1, .width = 48, .sext31 = true

/* Skylake client (06_5EH), Hyper-Threading on: 4 counters a thread. */
const struct perfctr_x86_sim_model sim_skylake =
	SIM_X86("skylake", INTEL, 6, 0x5E, .stepping = 3, .has_mmx = true,
		.cpuid_level = 0x16, .cpuid_a_eax = 0x07300404, .nr_fixed = 3,
		.pmc_mask = 0xF, .perf_caps = SIM_CAP_FW_WRITE, SIM_ARCH_REGS);

/* Sapphire Rapids (06_8FH): Golden Cove, 8 counters, fixed 0-3. */
const struct perfctr_x86_sim_model sim_sapphire_rapids =
	SIM_X86("sapphire-rapids", INTEL, 6, 0x8F, .stepping = 8,
		.has_mmx = true, .cpuid_level = 0x20, .cpuid_a_eax = 0x07300805,
		.nr_fixed = 4, .cpuid_a_ecx = 0xF, .any_deprecated = true,
		.pmc_mask = 0xFF, .perf_caps = SIM_CAP_FW_WRITE | SIM_CAP_PERF_METRICS,
		SIM_ARCH_REGS);

/* Alder Lake (06_97H): Gracemont E-cores, 6 counters, fixed 0-2. */
const struct perfctr_x86_sim_model sim_alder_lake_e =
	SIM_X86("alder-lake-e-core", INTEL, 6, 0x97, .stepping = 2,
		.has_mmx = true, .cpuid_level = 0x20, .cpuid_a_eax = 0x07300605,
		.nr_fixed = 3, .cpuid_a_ecx = 0x7, .any_deprecated = true,
		.pmc_mask = 0x3F, .perf_caps = SIM_CAP_FW_WRITE, .core_type = 0x20,
		SIM_ARCH_REGS);

/* ... and Golden Cove P-cores, as Sapphire Rapids': the even CPUs. */
const struct perfctr_x86_sim_model sim_alder_lake =
	SIM_X86("alder-lake", INTEL, 6, 0x97, .stepping = 2, .has_mmx = true,
		.cpuid_level = 0x20, .cpuid_a_eax = 0x07300805, .nr_fixed = 4,
		.cpuid_a_ecx = 0xF, .any_deprecated = true, .pmc_mask = 0xFF,
		.perf_caps = SIM_CAP_FW_WRITE | SIM_CAP_PERF_METRICS,
		.core_type = 0x40, .e_core = &sim_alder_lake_e, SIM_ARCH_REGS);

const struct perfctr_x86_sim_model *
perfctr_x86_sim_part(const struct perfctr_x86_sim_model *m, unsigned int cpu)
{
	return m->e_core && (cpu & 1) ? m->e_core : m;
}

static unsigned int sim_arch_version(const struct perfctr_x86_sim_model *m)
{
	return m->kind == SIM_ARCH ? m->cpuid_a_eax & 0xFF : 0;
}

u32 perfctr_x86_sim_fixed_mask(const struct perfctr_x86_sim_model *m)
{
	u32 mask = m->nr_fixed ? GENMASK(m->nr_fixed - 1, 0) : 0;

	if (sim_arch_version(m) >= 5)
		mask |= m->cpuid_a_ecx | m->leaf23_fixed;
	return mask & GENMASK(7, 0);
}

/* Leaves 01H, 07H, 1AH and 23H of an Intel part; false: not modelled. */
static bool sim_intel_cpuid(const struct perfctr_x86_sim_model *p, u32 leaf,
			    u32 sub, u32 *a, u32 *b, u32 *c, u32 *d)
{
	if (p->vendor != X86_VENDOR_INTEL || leaf > p->cpuid_level)
		return false;
	switch (leaf) {
	case 0x1:
		*c = p->perf_caps ? BIT(15) : 0;
		return true;
	case 0x7:
		if (sub == 0)
			*d = p->core_type ? BIT(15) : 0;
		else if (sub == 1)
			*a = p->leaf23_gp ? BIT(8) : 0;
		return true;
	case 0x1A:
		*a = (u32)p->core_type << 24;
		return true;
	case 0x23:
		if (!p->leaf23_gp)
			return true;
		if (sub == 0)
			*a = BIT(0) | BIT(1);
		if (sub == 1) {
			*a = p->leaf23_gp;
			*b = p->leaf23_fixed;
		}
		return true;
	default:
		return false;
	}
}

/* Leaf 0AH as the part @p answers it. */
static void sim_intel_leaf_a(const struct perfctr_x86_sim_model *p, u32 *a,
			     u32 *c, u32 *d)
{
	if (p->cpuid_level < 0xA)
		return;
	*a = p->cpuid_a_eax;
	*d = p->nr_fixed | (p->nr_fixed ? p->width << 5 : 0);
	if (sim_arch_version(p) >= 5) {
		*c = p->cpuid_a_ecx;
		*d |= p->any_deprecated ? BIT(15) : 0;
		if (!p->nr_fixed && p->cpuid_a_ecx)
			*d |= p->width << 5;
	}
}

/* GLOBAL_CTRL's bits that exist: counters, fixed counters, PERF_METRICS. */
static u64 sim_global_valid(void)
{
	u64 valid = S.m->pmc_mask |
		    (u64)perfctr_x86_sim_fixed_mask(S.m) << 32;

	return valid | (S.m->perf_caps & SIM_CAP_PERF_METRICS ? SIM_GLOBAL_METRICS : 0);
}

/* IA32_A_PMCx of this part: the counter's number, or -1. */
static int sim_fw_counter(u32 msr)
{
	u32 i = msr - 0x4C1;

	if (S.m->kind != SIM_ARCH || !(S.m->perf_caps & SIM_CAP_FW_WRITE) ||
	    msr < 0x4C1 || i >= SIM_MAX_CTRS || !(S.m->pmc_mask & BIT(i)))
		return -1;
	return i;
}

/* The MSRs of this file: 345H, 38EH, 391H, 4C1H on; false if none. */
static bool sim_intel_msr(u32 msr)
{
	unsigned int v = sim_arch_version(S.m);

	return (msr == 0x345 && S.m->perf_caps) || (msr == 0x38E && v >= 2) ||
	       (msr == 0x391 && v >= 4) || sim_fw_counter(msr) >= 0 ||
	       (msr == 0x329 && (S.m->perf_caps & SIM_CAP_PERF_METRICS));
}

static int sim_intel_rdmsr(u32 msr, u64 *val)
{
	int i = sim_fw_counter(msr);

	sim_live_advance();
	S.nr_rdmsr++;
	if (msr == 0x345)
		*val = S.m->perf_caps;
	else if (msr == 0x38E)
		*val = S.global_status;
	else if (msr == 0x391)
		*val = 0;		/* write-only: reads as 0 here */
	else if (msr == 0x329)
		*val = S.perf_metrics;
	else
		*val = S.ctr[i];
	return 0;
}

/* 345H and 38EH are read-only; A_PMCx take the whole width, no more. */
static int sim_intel_wrmsr(u32 msr, u64 val)
{
	int i = sim_fw_counter(msr);

	sim_live_advance();
	S.nr_wrmsr++;
	if (msr == 0x345 || msr == 0x38E)
		return -EIO;
	if (msr == 0x391) {
		S.global_status |= val;
		return 0;
	}
	if (msr == 0x329) {		/* IA32_PERF_METRICS: four fractions */
		S.perf_metrics = val;
		return 0;
	}
	if (val & ~width_mask())
		return -EIO;
	if (val)
		S.sel_at_preset = sim_ctl_of(i);
	S.ctr[i] = val;
	S.nr_fw_writes++;
	perfctr_x86_sim_publish();
	return 0;
}
