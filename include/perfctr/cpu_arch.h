/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr: what each architecture gives the arch-neutral half of the
 * low-level API (drivers/perfctr/cpu.c). That half owns the reservation,
 * CPU-hotplug registration, the rules every control obeys and the cstatus
 * bookkeeping; these hooks do the rest. They are bound at link time: one
 * definition per arch, no table of pointers.
 * Documentation/perfctr/low-level-api.rst says who calls what, and when.
 */
#ifndef _PERFCTR_CPU_ARCH_H
#define _PERFCTR_CPU_ARCH_H

#include <perfctr/cpu.h>

/*
 * Detect the CPU and fill in perfctr_info (zeroed before the call) and
 * perfctr_cpus_forbidden_mask (cleared). 0, or -ENODEV with nothing to
 * offer. perfctr_arch_exit() undoes it; the interrupt handler is
 * already gone then.
 */
int perfctr_arch_init(void);
void perfctr_arch_exit(void);

/*
 * Under the reservation lock. Take the hardware from the kernel and set
 * every CPU up for us: 0, or -EBUSY when the kernel holds it (nothing
 * changed then). Release gives it all back. kernel_busy: unreserved,
 * would reserve say -EBUSY now? It must leave nothing taken.
 */
int perfctr_arch_reserve(void);
void perfctr_arch_release(void);
bool perfctr_arch_kernel_busy(void);

/*
 * CPU hotplug, on @cpu. check_cpu runs at every online, reserved or
 * not: non-zero keeps the CPU out (it lacks what we offer). cpu_up and
 * cpu_down run only while the hardware is reserved, with interrupts off
 * and the reservation lock held.
 */
int perfctr_arch_check_cpu(unsigned int cpu);
void perfctr_arch_cpu_up(unsigned int cpu);
void perfctr_arch_cpu_down(unsigned int cpu);

/*
 * The arch's and the family's rules for @state->control, after the
 * common ones passed: 0 or -EINVAL, with @state untouched. commit
 * derives the arch's fields once cstatus and the maps are set.
 */
int perfctr_arch_check_control(const struct perfctr_cpu_state *state,
			       bool is_global);
void perfctr_arch_commit_control(struct perfctr_cpu_state *state);

/*
 * From the arch's overflow interrupt, in interrupt context: the high-level
 * driver's handler (perfctr_cpu_set_ihandler()), if one is set, with the
 * interrupted @pc.
 */
void perfctr_cpu_call_ihandler(unsigned long pc);

/*
 * The hotplug callbacks (cpu.c), run on @cpu. Exported to the arch's
 * tests, which take CPUs down and up by calling them.
 */
int perfctr_cpu_online(unsigned int cpu);
int perfctr_cpu_offline(unsigned int cpu);

#endif /* _PERFCTR_CPU_ARCH_H */
