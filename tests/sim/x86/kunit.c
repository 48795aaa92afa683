// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated x86 CPU as the KUnit suites drive it: one CPU, the one
 * the test runs on; time passes and overflows interrupt when the test
 * says (perfctr_x86_sim_tick(), pc_nmi_handler()). The live module has
 * live.c in this file's place.
 */
#include <linux/errno.h>
#include <linux/irqflags.h>

#include "model.h"

/* "Every CPU" is this one; counted, as each would interrupt every CPU. */
void perfctr_sim_on_each_cpu(void (*fn)(void *))
{
	unsigned long flags;

	local_irq_save(flags);
	perfctr_x86_sim.nr_broadcasts++;
	fn(NULL);
	local_irq_restore(flags);
}

int perfctr_sim_register_nmi(void)
{
	if (perfctr_x86_sim.nmi_registered)
		return -EBUSY;
	perfctr_x86_sim.nmi_registered = true;
	return 0;
}

void perfctr_sim_unregister_nmi(void)
{
	perfctr_x86_sim.nmi_registered = false;
}

int perfctr_sim_register_ibs_nmi(void)
{
	if (perfctr_x86_sim.ibs_nmi_registered)
		return -EBUSY;
	perfctr_x86_sim.ibs_nmi_registered = true;
	perfctr_x86_sim.nr_ibs_nmi_registers++;
	return 0;
}

void perfctr_sim_unregister_ibs_nmi(void)
{
	perfctr_x86_sim.ibs_nmi_registered = false;
}

bool perfctr_x86_sim_ibs_nmi_registered(void)
{
	return perfctr_x86_sim.ibs_nmi_registered;
}

/* Tests deliver IBS NMIs themselves (perfctr_x86_sim_ibs_nmi()). */
void perfctr_x86_sim_ibs_changed(void)
{
}

/* Tests look at the registers themselves: nobody to tell. */
void perfctr_x86_sim_publish(void)
{
}

void perfctr_x86_sim_lvtpc_changed(void)
{
}

/* Nothing live to bring up: the suites drive the model themselves. */
int perfctr_sim_hw_setup(void)
{
	return 0;
}

void perfctr_sim_hw_teardown(void)
{
}
