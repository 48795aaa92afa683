// SPDX-License-Identifier: GPL-2.0-only
/* drivers/perfctr/cpu.c for the simulated-PMU module. */
#define PERFCTR_SIM 1
#include "../../drivers/perfctr/cpu.c"

int perfctr_simpmu_init(void);
void perfctr_simpmu_exit(void);
int perfctr_sim_hw_setup(void);
void perfctr_sim_hw_teardown(void);

/* The live simulation: its device, timers and model= (tests/sim/). */
int perfctr_sim_hw_setup(void)
{
	return perfctr_simpmu_init();
}

void perfctr_sim_hw_teardown(void)
{
	perfctr_simpmu_exit();
}
