// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: overflow interrupts for i-mode counters.
 *
 * The local APIC's LVTPC entry delivers a counter overflow as an NMI.
 * In NMI context we only decide whether the NMI is ours, mask LVTPC (so
 * a still-overflowed counter cannot storm) and queue an irq_work; the
 * high-level driver's handler then runs in ordinary interrupt context,
 * where it may suspend the state and send a signal. LVTPC is unmasked
 * again when i-mode counters resume.
 */
#include <linux/irq_work.h>
#include <linux/percpu.h>
#include <asm/apicdef.h>
#include <asm/nmi.h>

#include "x86.h"

struct pc_irq_cpu {
	/* The state resumed here with i-mode counters, or NULL. */
	struct perfctr_cpu_state *state;
	/* I-mode counters ran here since the last NMI we took. */
	bool armed;
	unsigned long pc;
	u32 saved_lvtpc;
	struct irq_work work;
};

static DEFINE_PER_CPU(struct pc_irq_cpu, pc_irq);

static bool pc_ictrs_overflowed(const struct perfctr_cpu_state *state)
{
	unsigned int i = perfctr_cstatus_nractrs(state->cstatus);
	unsigned int nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	if (pc_family.ictrs_overflowed)
		return pc_family.ictrs_overflowed(state);
	for (; i < nrctrs; i++) {
		u32 pmc = state->pmc[i].map;

		if (state->wide & BIT(i) ?
		    pc_wide_overflowed(pmc, pc_read_counter_wide(pmc)) :
		    perfctr_ictr_overflowed(pc_read_counter(pmc)))
			return true;
	}
	return false;
}

int pc_nmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	struct pc_irq_cpu *p = this_cpu_ptr(&pc_irq);
	const struct perfctr_cpu_state *state = READ_ONCE(p->state);

	if (state ? !pc_ictrs_overflowed(state) : !READ_ONCE(p->armed))
		return NMI_DONE;
	/* Late NMIs (after suspend) are ours too, but only once. */
	if (!state)
		WRITE_ONCE(p->armed, false);
	pc_lvtpc_write(APIC_DM_NMI | APIC_LVT_MASKED);
	p->pc = instruction_pointer(regs);
	irq_work_queue(&p->work);
	return NMI_HANDLED;
}

static void pc_irq_work_fn(struct irq_work *work)
{
	struct pc_irq_cpu *p = container_of(work, struct pc_irq_cpu, work);

	perfctr_cpu_call_ihandler(p->pc);
}

/* Resume: before the counters are enabled, so no overflow is missed. */
void pc_irq_arm(struct perfctr_cpu_state *state)
{
	struct pc_irq_cpu *p = this_cpu_ptr(&pc_irq);

	WRITE_ONCE(p->armed, true);
	WRITE_ONCE(p->state, state);
	pc_lvtpc_write(APIC_DM_NMI);
}

/*
 * Suspend: after the i-mode counters are stopped and read. A PMI can still
 * be in flight only if one of them has wrapped (@overflowed); otherwise no
 * later NMI is ours. An NMI can land between any two of these stores:
 * "armed" is published before "state" goes, so one that finds no state
 * finds the final "armed", and a latched PMI is still claimed.
 */
void pc_irq_disarm(bool overflowed)
{
	struct pc_irq_cpu *p = this_cpu_ptr(&pc_irq);

	WRITE_ONCE(p->armed, overflowed);
	barrier();
	pc_nmi_window();
	WRITE_ONCE(p->state, NULL);
}

/* Per CPU at reserve: LVTPC becomes our masked NMI. */
void pc_irq_setup_cpu(void)
{
	struct pc_irq_cpu *p = this_cpu_ptr(&pc_irq);

	p->state = NULL;
	p->armed = false;
	p->saved_lvtpc = pc_lvtpc_read();
	pc_lvtpc_write(APIC_DM_NMI | APIC_LVT_MASKED);
}

/* Per CPU at release: LVTPC as it was before. */
void pc_irq_restore_cpu(void)
{
	struct pc_irq_cpu *p = this_cpu_ptr(&pc_irq);

	p->state = NULL;
	p->armed = false;
	pc_lvtpc_write(p->saved_lvtpc);
}

int pc_irq_init(void)
{
	unsigned int cpu;

	/* Hard: the handler runs in interrupt context, even on PREEMPT_RT. */
	for_each_possible_cpu(cpu)
		per_cpu_ptr(&pc_irq, cpu)->work = IRQ_WORK_INIT_HARD(pc_irq_work_fn);
	return pc_register_nmi();
}

/* After pc_irq_restore_cpu() on every CPU: nothing new can be queued. */
void pc_irq_exit(void)
{
	unsigned int cpu;

	pc_unregister_nmi();
	for_each_possible_cpu(cpu)
		irq_work_sync(&per_cpu_ptr(&pc_irq, cpu)->work);
}
