/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The live half of the simulation (perfctr_simpmu.ko): the whole driver
 * on a simulated PMU on every CPU, counting real time, with the counts
 * published to user space on /dev/perfctr_simpmu (user/simpmu_user.h).
 *
 * live.c is the arch-neutral frame: the device and its page, the per-CPU
 * PMI timer, kernel_busy=. Each arch's <arch>/live.c, with the model=
 * parameter and the family names it takes, gives live.c the hooks below
 * and calls the two helpers after them.
 */
#ifndef _PERFCTR_SIM_LIVE_H
#define _PERFCTR_SIM_LIVE_H

#include <linux/types.h>

struct simpmu_user_cpu;

/* Hooks: every CPU simulates the family model= names (unknown: none). */
void sim_live_setup(void);
/* This CPU's counters into @e, while its sequence count is odd. */
void sim_live_fill(struct simpmu_user_cpu *e);
/* Timer tick on this CPU: deliver a pending PMI; false stops the timer. */
bool sim_live_pmi(void);
/* CPU @cpu's flag: its simulated kernel allocator refuses perfctr. */
bool *sim_live_kernel_busy(unsigned int cpu);

/* Helpers: publish this CPU's counters; run its PMI timer if stopped. */
void sim_live_publish(void);
void sim_live_arm_pmi(void);

#endif /* _PERFCTR_SIM_LIVE_H */
