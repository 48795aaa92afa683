// SPDX-License-Identifier: GPL-2.0-only
/*
 * The simulated ppc32 CPU as the KUnit suites drive it: one CPU, the one
 * the test runs on, with the model's clocks; time passes and exceptions
 * are taken when the test says (perfctr_ppc_sim_tick(),
 * perfctr_ppc_sim_deliver_pmi()). The live module has live.c in this
 * file's place.
 */
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/rcupdate.h>

#include "model.h"

/* As reserve_pmc_hardware(): one owner, who gets the exceptions. */
int perfctr_ppc_sim_reserve(pp_perf_irq_t handler)
{
	struct perfctr_ppc_sim_state *sim = &perfctr_ppc_sim;

	if (sim->kernel_busy || sim->reserved)
		return -EBUSY;
	sim->reserved = true;
	sim->handler = handler;
	return 0;
}

void perfctr_ppc_sim_release(void)
{
	struct perfctr_ppc_sim_state *sim = &perfctr_ppc_sim;

	if (!sim->reserved)
		sim->nr_bad++;
	sim->reserved = false;
	sim->handler = NULL;
	/* From here an exception no longer reaches the handler. */
	sim->release_gp = get_state_synchronize_rcu();
}

void perfctr_ppc_sim_clocks(struct pp_clocks *clk)
{
	clk->cpu_hz = perfctr_ppc_sim.m->cpu_hz;
	clk->tb_hz = perfctr_ppc_sim.m->tb_hz;
}

/* "Every CPU" is this one. */
void perfctr_ppc_sim_on_each_cpu(void (*fn)(void *))
{
	unsigned long flags;

	local_irq_save(flags);
	fn(NULL);
	local_irq_restore(flags);
}

/* Tests look at the registers themselves: nobody to tell. */
void perfctr_ppc_sim_publish(void)
{
}

void perfctr_ppc_sim_pmxe_changed(void)
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
