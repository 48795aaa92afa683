/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr x86: every hardware access the drivers make goes through the
 * accessors here. Production builds inline the real instructions; test
 * builds (PERFCTR_SIM, never in perfctr.ko) route them to the simulated
 * register file in tests/sim/, so KUnit can check driver logic on CPUs
 * nobody here has.
 */
#ifndef _PERFCTR_X86_REGS_H
#define _PERFCTR_X86_REGS_H

#include <linux/types.h>

#ifdef PERFCTR_SIM

u64 perfctr_sim_rdtsc(void);
u64 perfctr_sim_rdpmc(u32 index);
u64 perfctr_sim_rdmsr(u32 msr);
void perfctr_sim_wrmsr(u32 msr, u64 val);
bool perfctr_sim_has_tsc(void);

static inline u32 pc_rdtsc_low(void)
{
	return (u32)perfctr_sim_rdtsc();
}

static inline u32 pc_rdpmc_low(u32 index)
{
	return (u32)perfctr_sim_rdpmc(index);
}

static inline u64 pc_rdmsr(u32 msr)
{
	return perfctr_sim_rdmsr(msr);
}

static inline void pc_wrmsr(u32 msr, u64 val)
{
	perfctr_sim_wrmsr(msr, val);
}

static inline bool pc_cpu_has_tsc(void)
{
	return perfctr_sim_has_tsc();
}

#else /* !PERFCTR_SIM */

#include <asm/cpufeature.h>
#include <asm/msr.h>

/* Only the low 32 bits are ever used: cheaper, and dodges width errata. */
static inline u32 pc_rdtsc_low(void)
{
	return (u32)rdtsc();
}

static inline u32 pc_rdpmc_low(u32 index)
{
	u64 val;

	rdpmcl(index, val);
	return (u32)val;
}

static inline u64 pc_rdmsr(u32 msr)
{
	u64 val;

	rdmsrl(msr, val);
	return val;
}

static inline void pc_wrmsr(u32 msr, u64 val)
{
	wrmsrl(msr, val);
}

static inline bool pc_cpu_has_tsc(void)
{
	return boot_cpu_has(X86_FEATURE_TSC);
}

#endif /* PERFCTR_SIM */

#endif /* _PERFCTR_X86_REGS_H */
