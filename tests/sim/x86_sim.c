// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr test builds: the simulated x86 register file. The generic
 * model has a TSC and no performance counters: RDPMC and MSR accesses
 * are counted so a test can assert that a driver made none.
 */
#define PERFCTR_SIM 1

#include <linux/string.h>

#include "x86_sim.h"
#include "../../arch/x86/perfctr/regs.h"

struct perfctr_x86_sim perfctr_x86_sim;

void perfctr_x86_sim_reset(void)
{
	memset(&perfctr_x86_sim, 0, sizeof(perfctr_x86_sim));
	perfctr_x86_sim.has_tsc = true;
}

u64 perfctr_sim_rdtsc(void)
{
	u64 now = perfctr_x86_sim.tsc;

	perfctr_x86_sim.tsc += perfctr_x86_sim.tsc_step;
	perfctr_x86_sim.nr_rdtsc++;
	return now;
}

u64 perfctr_sim_rdpmc(u32 index)
{
	perfctr_x86_sim.nr_rdpmc++;
	return 0;
}

u64 perfctr_sim_rdmsr(u32 msr)
{
	perfctr_x86_sim.nr_rdmsr++;
	return 0;
}

void perfctr_sim_wrmsr(u32 msr, u64 val)
{
	perfctr_x86_sim.nr_wrmsr++;
}

bool perfctr_sim_has_tsc(void)
{
	return perfctr_x86_sim.has_tsc;
}
