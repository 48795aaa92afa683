// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: overflow interrupts for i-mode counters.
 *
 * A counter whose overflow condition is enabled (PMC1CE, PMCnCE) raises
 * the performance monitor exception while its msb (bit 0 in the manuals'
 * numbering, 0x80000000) is set, if MMCR0[PMXE] is on; the 750 and 74xx
 * then clear PMXE themselves, the 604 leaves that to software. The
 * kernel hands the exception to whoever reserved the PMC hardware, as an
 * ordinary interrupt with interrupts off: here the high-level handler
 * runs directly. PMXE comes back when the state is resumed.
 *
 * The handler shares this CPU's MMCR cache with suspend and resume, which
 * therefore run with interrupts off on ppc32 (ppc32.rst).
 */
#include <linux/percpu.h>
#include <linux/ptrace.h>

#include "ppc.h"

/* The state resumed on each CPU with i-mode counters, or NULL. */
static DEFINE_PER_CPU(struct perfctr_cpu_state *, pp_armed);

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

/*
 * Armed: a state with i-mode counters runs here. Freeze every counter at
 * once (FC on, PMXE off), saving what FCECE or TRIGGER did, as suspend
 * would: the high-level handler suspends the state, and nothing may
 * count or change MMCR0 in between. Not armed: someone else's a-mode
 * counters may be running; leave them running and only make sure PMXE
 * is off, writing MMCR0 only if it is not.
 */
void pp_perf_irq(struct pt_regs *regs)
{
	struct perfctr_cpu_state *state = this_cpu_read(pp_armed);
	struct pp_cache *cache = pp_this_cache();
	u32 mmcr0;

	if (!state) {
		mmcr0 = pp_read_mmcr(0);
		if (mmcr0 & PP_MMCR0_PMXE) {
			mmcr0 &= ~PP_MMCR0_PMXE;
			pp_write_mmcr(0, mmcr0);
			cache->mmcr[0] = mmcr0;
		}
		return;
	}
	pp_save_async(state, cache);
	perfctr_cpu_call_ihandler(instruction_pointer(regs));
}
