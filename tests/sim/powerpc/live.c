// SPDX-License-Identifier: GPL-2.0-only
/*
 * The powerpc half of the live simulation (../live.h): model=, the
 * counters on the user page, and the performance monitor exception
 * through the kernel's own reservation. It is built in one unit after
 * model.c (tests/simpmu/powerpc.c) and reads the model's state with
 * model.c's own helpers.
 */
#include <linux/module.h>
#include <linux/smp.h>
#include <asm/irq_regs.h>
#include <asm/pmc.h>

#include "../live.h"
#include "../user/simpmu_user.h"

static char *model = "7450";
module_param(model, charp, 0444);
MODULE_PARM_DESC(model,
		 "simulated CPU: 604 604e 750 (a 750GX) 7400 (no PCINT) 7410 7450");

/*
 * The family names the Check suites use. "750" is a 750GX, a 750 whose
 * overflow interrupt works (a plain 750 has none: detect.c).
 */
static const struct {
	const char *name;
	const struct perfctr_ppc_sim_model *m;
} live_models[] = {
	{ "604", &sim_ppc_604 }, { "604e", &sim_ppc_604e },
	{ "750", &sim_ppc_750gx }, { "7400", &sim_ppc_7400 },
	{ "7410", &sim_ppc_7410 }, { "7450", &sim_ppc_7450 },
};

void sim_live_setup(void)
{
	/* An unknown model is a 601: the driver refuses to load. */
	const struct perfctr_ppc_sim_model *m = &sim_ppc_601;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(live_models); i++)
		if (!strcmp(live_models[i].name, model))
			m = live_models[i].m;
	perfctr_ppc_sim_live(m);
}

bool *sim_live_kernel_busy(unsigned int cpu)
{
	return &per_cpu_ptr(&perfctr_ppc_sim_pcpu, cpu)->kernel_busy;
}

void perfctr_ppc_sim_on_each_cpu(void (*fn)(void *))
{
	on_each_cpu(fn, NULL, 1);
}

/*
 * The counters count the real timebase: the clocks are the machine's
 * own, from Open Firmware, or user space would misjudge the TSC's rate.
 */
void perfctr_ppc_sim_clocks(struct pp_clocks *clk)
{
	pp_of_clocks(clk);
}

/* PMI delivery goes through the one handler the reservation installed. */
static pp_perf_irq_t live_handler;

int perfctr_ppc_sim_reserve(pp_perf_irq_t handler)
{
	int err;

	if (READ_ONCE(S.kernel_busy))
		return -EBUSY;
	err = reserve_pmc_hardware(handler);
	if (!err)
		WRITE_ONCE(live_handler, handler);
	return err;
}

void perfctr_ppc_sim_release(void)
{
	WRITE_ONCE(live_handler, NULL);
	release_pmc_hardware();
}

void perfctr_ppc_sim_publish(void)
{
	sim_live_publish();
}

void sim_live_fill(struct simpmu_user_cpu *e)
{
	bool frozen;
	unsigned int i;

	if (!S.m)
		return;
	frozen = S.m->dead || (S.mmcr[0] & FC);
	e->last_tsc = S.last_tb;
	e->width_mask = U32_MAX;
	e->counting = 0;
	for (i = 0; i < S.m->nrctrs; i++) {
		e->ctr[i] = S.pmc[i];
		if (!frozen && perfctr_ppc_sim_sel(i) &&
		    !(i && (S.mmcr[0] & TRIGGER)))
			e->counting |= BIT(i);
	}
	/* UPMCn: user space can always read them, where they exist. */
	e->user_read = 1;
}

/* While PMXE is on, or an exception it raised waits, the timer runs. */
bool sim_live_pmi(void)
{
	pp_perf_irq_t handler = READ_ONCE(live_handler);

	if (!S.m)
		return false;
	sim_live_advance();
	if (S.pmi_pending && handler) {
		S.pmi_pending = false;
		handler(get_irq_regs());
	}
	return (S.mmcr[0] & PMXE) || S.pmi_pending;
}

void perfctr_ppc_sim_pmxe_changed(void)
{
	if ((S.mmcr[0] & PMXE) || S.pmi_pending)
		sim_live_arm_pmi();
}
