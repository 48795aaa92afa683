// SPDX-License-Identifier: GPL-2.0-only
/* drivers/perfctr/cpu.c, the arch-neutral half the drivers sit on. */
#define PERFCTR_SIM 1
#include "../../../drivers/perfctr/cpu.c"

int perfctr_sim_hw_setup(void);
void perfctr_sim_hw_teardown(void);

/* KUnit has no live simulation to bring up: the suites drive the model. */
int perfctr_sim_hw_setup(void)
{
	return 0;
}

void perfctr_sim_hw_teardown(void)
{
}
