// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: Intel P6 (Pentium Pro, II, III, M) and every later Intel
 * CPU with architectural performance monitoring (CPUID leaf 0xA).
 *
 * Both have one EVNTSEL MSR per counter. On the P6 only EVNTSEL0 has an
 * enable bit, and it gates both counters; with architectural perfmon each
 * EVNTSEL enables its own counter, and version 2 adds a global control
 * register whose counter bits must be set too.
 */
#include <linux/percpu.h>

#include "x86.h"

/* Bit 19 (pin control) and bit 21 (AnyThread on arch perfmon) are off limits. */
#define P6_RESERVED		0x00280000U

#define P6_CYCLES		0x79U	/* CPU_CLK_UNHALTED */
#define ARCH_CYCLES		0x3CU	/* UnHalted Core Cycles */
#define COUNT_ALL		(EVNTSEL_EN | EVNTSEL_OS | EVNTSEL_USR)

static unsigned int arch_version;
static DEFINE_PER_CPU(u64, saved_global_ctrl);

/* From version 2 on, a counter counts only if its global bit is set too. */
static void arch_reserve_cpu(void)
{
	u64 global;

	if (arch_version < 2)
		return;
	global = pc_rdmsr(MSR_CORE_PERF_GLOBAL_CTRL);
	this_cpu_write(saved_global_ctrl, global);
	pc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, global | pc_family.pmc_mask);
}

static void arch_release_cpu(void)
{
	if (arch_version >= 2)
		pc_wrmsr(MSR_CORE_PERF_GLOBAL_CTRL, this_cpu_read(saved_global_ctrl));
}

/* Returns the number of general-purpose counters, 0 without arch perfmon. */
unsigned int pc_arch_perfmon_probe(const struct pc_cpu_ident *id)
{
	u32 eax, ebx, ecx, edx;
	unsigned int n;

	if (id->cpuid_level < 0xA)
		return 0;
	pc_cpuid(0xA, &eax, &ebx, &ecx, &edx);
	arch_version = eax & 0xFF;
	n = (eax >> 8) & 0xFF;
	if (!arch_version || !n)
		return 0;
	return min_t(unsigned int, n, PERFCTR_NR_PMCS);
}

#define P6_COMMON						\
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC, \
	.kernel_reserve = true,					\
	.pmi = true,						\
	.sel_msr = MSR_P6_EVNTSEL0,				\
	.ctr_msr = MSR_P6_PERFCTR0,				\
	.msr_stride = 1,					\
	.check_control = pc_check_evntsels,			\
	.write_control = pc_write_evntsels,			\
	.stop_counter = pc_stop_evntsel

const struct perfctr_x86_family perfctr_p6_family = {
	.name = "Intel P6",
	.id = PERFCTR_X86_INTEL_P6,
	.nrctrs = 2,
	.pmc_mask = 0x3,
	.selftest_event = COUNT_ALL | P6_CYCLES,
	.rules = {
		.reserved = P6_RESERVED,
		.enable = PC_EN_PMC0,
		.intr = EVNTSEL_INT,
	},
	.clear_counters = pc_clear_evntsels,
	P6_COMMON,
};

/* nrctrs and pmc_mask come from CPUID at detection. */
const struct perfctr_x86_family perfctr_arch_family = {
	.name = "Intel architectural perfmon",
	.id = PERFCTR_X86_INTEL_ARCH,
	.selftest_event = COUNT_ALL | ARCH_CYCLES,
	.rules = {
		.reserved = P6_RESERVED,
		.enable = PC_EN_EACH,
		.intr = EVNTSEL_INT,
	},
	.clear_counters = pc_clear_evntsels,
	.reserve_cpu = arch_reserve_cpu,
	.release_cpu = arch_release_cpu,
	P6_COMMON,
};
