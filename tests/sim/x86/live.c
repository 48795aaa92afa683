// SPDX-License-Identifier: GPL-2.0-only
/*
 * The x86 half of the live simulation (../live.h): model=, the counters
 * on the user page, and the overflow NMI through the LVTPC. It is built
 * in one unit after model.c (tests/simpmu/x86.c) and reads the model's
 * state with model.c's own helpers.
 */
#include <linux/module.h>
#include <linux/smp.h>
#include <asm/apicdef.h>
#include <asm/irq_regs.h>

#include "../live.h"
#include "../user/simpmu_user.h"

static char *model = "k7";
module_param(model, charp, 0444);
MODULE_PARM_DESC(model, "simulated CPU: p5mmx p6 arch-v2 k7 fam10h zen c3 p4-model2 p4-model3-ht zen3 zen4 hygon skylake sapphire-rapids alder-lake");

static const struct perfctr_x86_sim_model *const live_models[] = {
	&sim_p5mmx, &sim_p6, &sim_arch_v2, &sim_k7, &sim_fam10, &sim_fam15,
	&sim_c3, &sim_p4, &sim_p4_ht,
	&sim_zen3, &sim_zen4, &sim_hygon,
	&sim_skylake, &sim_sapphire_rapids, &sim_alder_lake,
};

static bool ibs_busy;

/*
 * ibs_busy=1 plays perf's IBS PMU holding every CPU's op engine (IbsOpEn
 * with perf's MaxCnt), as "kernel_busy" plays it holding the counters.
 */
static void sim_live_ibs_perf(bool on)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		perfctr_x86_sim_ibs_perf(cpu, on);
}

static int ibs_busy_set(const char *val, const struct kernel_param *kp)
{
	int err = param_set_bool(val, kp);

	if (!err && sim_machine && sim_machine->ibs_caps)
		sim_live_ibs_perf(ibs_busy);
	return err;
}

static const struct kernel_param_ops ibs_busy_ops = {
	.set = ibs_busy_set,
	.get = param_get_bool,
};

module_param_cb(ibs_busy, &ibs_busy_ops, &ibs_busy, 0644);
MODULE_PARM_DESC(ibs_busy, "1: perf's IBS holds every CPU's op engine (IBS models)");

void sim_live_setup(void)
{
	/* An unknown model has no TSC: the driver refuses to load. */
	const struct perfctr_x86_sim_model *m = &sim_no_tsc;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(live_models); i++)
		if (!strcmp(live_models[i]->name, model))
			m = live_models[i];
	perfctr_x86_sim_live(m);
	if (ibs_busy && m->ibs_caps)
		sim_live_ibs_perf(true);
}

bool *sim_live_kernel_busy(unsigned int cpu)
{
	return &per_cpu_ptr(&perfctr_x86_sim_pcpu, cpu)->kernel_busy;
}

/* The driver's calls to every CPU, for check_ibs (amd.rst, S6). */
static unsigned int cpu_calls;
module_param(cpu_calls, uint, 0444);

void perfctr_sim_on_each_cpu(void (*fn)(void *))
{
	WRITE_ONCE(cpu_calls, cpu_calls + 1);
	on_each_cpu(fn, NULL, 1);
}

/* The driver registers its NMI handler once, for every CPU. */
static bool live_nmi_registered;

int perfctr_sim_register_nmi(void)
{
	if (READ_ONCE(live_nmi_registered))
		return -EBUSY;
	WRITE_ONCE(live_nmi_registered, true);
	return 0;
}

void perfctr_sim_unregister_nmi(void)
{
	WRITE_ONCE(live_nmi_registered, false);
}

static bool live_ibs_nmi_registered;

int perfctr_sim_register_ibs_nmi(void)
{
	if (READ_ONCE(live_ibs_nmi_registered))
		return -EBUSY;
	WRITE_ONCE(live_ibs_nmi_registered, true);
	return 0;
}

void perfctr_sim_unregister_ibs_nmi(void)
{
	WRITE_ONCE(live_ibs_nmi_registered, false);
}

bool perfctr_x86_sim_ibs_nmi_registered(void)
{
	return READ_ONCE(live_ibs_nmi_registered);
}

void perfctr_x86_sim_publish(void)
{
	sim_live_publish();
}

/* Whether counter @pmc gains one a cycle, as the user page can show. */
static bool sim_one_per_cycle(unsigned int pmc)
{
	unsigned int i;

	for (i = 0; S.m->kind == SIM_K7 && i < 4; i++)
		if (sim_k7_weight(S.sel[pmc], i, sim_k7_merged(pmc)) != 1)
			return false;
	return true;
}

void sim_live_fill(struct simpmu_user_cpu *e)
{
	unsigned int i;

	if (!S.m)
		return;
	e->last_tsc = S.last_tsc;
	e->width_mask = width_mask();
	e->counting = 0;
	for (i = 0; i < SIMPMU_USER_CTRS; i++) {
		e->ctr[i] = S.ctr[i];
		/*
		 * The page can only say "one a cycle": a counter that counts
		 * otherwise (an AMD counter mask, inv or edge) stays still
		 * there between the kernel's looks at it.
		 */
		if ((S.m->pmc_mask & BIT(i)) && counting(i) && sim_one_per_cycle(i))
			e->counting |= BIT(i);
	}
	e->fixed_counting = 0;
	for (i = 0; i < SIMPMU_USER_FIXED; i++) {
		if (!(perfctr_x86_sim_fixed_mask(S.m) & BIT(i)))
			continue;
		e->fixed[i] = S.fixed[i];
		if (((S.fixed_ctrl >> (4 * i)) & 3) &&
		    (S.global_ctrl & BIT_ULL(32 + i)))
			e->fixed_counting |= BIT(i);
	}
	e->p4_fast = S.m->kind == SIM_P4;
	e->user_read = S.user_rdpmc;
}

static bool sim_live_ibs_on(void)
{
	return (S.ibs.fetch_ctl & BIT_ULL(48)) || (S.ibs.op_ctl & BIT_ULL(17));
}

/*
 * An IBS engine at MaxCnt latches its sample here, at the tick, with the
 * RIP the tick interrupted: at most one sample per engine per tick.
 */
static void sim_live_ibs(struct pt_regs *regs)
{
	S.ibs.rip = regs ? instruction_pointer(regs) : 0;
	S.ibs.live_latch = true;
	sim_live_advance();
	S.ibs.live_latch = false;
	perfctr_x86_sim_ibs_nmi(regs);
}

/*
 * A wrapped counter with its interrupt enabled raises the PMI: an NMI;
 * so does an IBS sample. The timer runs while either can happen.
 */
bool sim_live_pmi(void)
{
	bool pmi = S.m && !(S.lvtpc & APIC_LVT_MASKED);
	bool ibs = S.m && S.m->ibs_caps && sim_live_ibs_on();

	if (!pmi && !ibs)
		return false;
	sim_live_advance();
	if (pmi && S.ovf_pending && READ_ONCE(live_nmi_registered)) {
		S.ovf_pending = 0;
		pc_nmi_handler(0, get_irq_regs());
	}
	if (ibs)
		sim_live_ibs(get_irq_regs());
	return true;
}

void perfctr_x86_sim_ibs_changed(void)
{
	sim_live_arm_pmi();
}

void perfctr_x86_sim_lvtpc_changed(void)
{
	if (!(S.lvtpc & APIC_LVT_MASKED))
		sim_live_arm_pmi();
}
