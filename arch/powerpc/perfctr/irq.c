// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: overflow interrupts for i-mode counters.
 *
 * A counter whose overflow condition is enabled (PMC1CE, PMCnCE) raises
 * the performance monitor exception when its bit 31 sets, if MMCR0[PMXE]
 * is on; the hardware then clears PMXE, so no second exception follows.
 * The kernel hands the exception to whoever reserved the PMC hardware,
 * as an ordinary interrupt with interrupts off: here the high-level
 * handler runs directly. PMXE comes back when the state is resumed.
 */
#include <linux/percpu.h>
#include <linux/ptrace.h>

#include "ppc.h"

/* The state resumed on each CPU with i-mode counters, or NULL. */
static DEFINE_PER_CPU(struct perfctr_cpu_state *, pp_armed);
static perfctr_ihandler_t pp_ihandler;

void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler)
{
	WRITE_ONCE(pp_ihandler, handler);
}

/* Resume: before MMCR0 turns PMXE on, so no overflow is missed. */
void pp_irq_arm(struct perfctr_cpu_state *state)
{
	this_cpu_write(pp_armed, state);
}

/* Suspend: after PMXE is off; a late exception is then not ours. */
void pp_irq_disarm(void)
{
	this_cpu_write(pp_armed, NULL);
}

void pp_perf_irq(struct pt_regs *regs)
{
	struct pp_cache *cache = pp_this_cache();
	perfctr_ihandler_t handler;

	/* PMXE off for sure, and the cache says so: resume turns it on. */
	cache->mmcr[0] = pp_read_mmcr(0) & ~PP_MMCR0_PMXE;
	pp_write_mmcr(0, cache->mmcr[0]);
	if (!this_cpu_read(pp_armed))
		return;
	handler = READ_ONCE(pp_ihandler);
	if (handler)
		handler(instruction_pointer(regs));
}
