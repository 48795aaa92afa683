/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr test builds: a simulated x86 register file behind the accessors
 * of arch/x86/perfctr/regs.h. Tests set it up, run driver code, and look
 * at what the driver read and wrote.
 */
#ifndef _PERFCTR_X86_SIM_H
#define _PERFCTR_X86_SIM_H

#include <linux/types.h>

struct perfctr_x86_sim {
	bool has_tsc;
	u64 tsc;		/* value of the next RDTSC */
	u64 tsc_step;		/* added to tsc after each RDTSC */
	unsigned int nr_rdtsc;
	unsigned int nr_rdpmc;
	unsigned int nr_rdmsr;
	unsigned int nr_wrmsr;
};

extern struct perfctr_x86_sim perfctr_x86_sim;

/* A CPU with a TSC at 0 that does not move, and nothing else. */
void perfctr_x86_sim_reset(void);

#endif /* _PERFCTR_X86_SIM_H */
