/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check_ibs: a thread's IBS (/proc/perfctr/<tid>/ibs and ibs_ring) in the
 * test VM, on perfctr.ko (QEMU's CPU has no IBS) and on the simulated
 * AMD models with IBS (PERFCTR_SIM_MODEL=zen or fam10h). Its files:
 * main.c (what the CPU has, the helpers), setup.c (every rule of the
 * setup, accepted and refused; privilege), ring.c (the samples),
 * access.c (who may read a ring), calls.c (what setups cost the other
 * CPUs).
 */
#ifndef _PERFCTR_CHECK_IBS_H
#define _PERFCTR_CHECK_IBS_H

#include <check.h>
#include <perfctr/ibs.h>

#include "check_util.h"

/* info's ibs_caps: CPUID Fn8000_001B EAX, 0 without IBS. */
extern unsigned int ibs_caps;

/* The control with only @flags and the MaxCnts set. */
struct perfctr_ibs_control ibs_ctl(unsigned int flags, unsigned int fetch,
				   unsigned int op);
/* Writes @c to this thread's ibs file: 0 or errno. */
int ibs_put(const struct perfctr_ibs_control *c);
/* This thread's setup, as the ibs file reads back. */
struct perfctr_ibs_control ibs_get(void);
/* Opens this thread's ibs_ring: the descriptor, or -errno. */
int ibs_ring_open(void);
/* On CPU 0, sets @c up on this thread and opens its ring: the fd. */
int ibs_start(const struct perfctr_ibs_control *c);
/* Spins in this program's own code for about @ms milliseconds. */
void ibs_spin(unsigned int ms);
/* The start and end of this program's code (its r-xp mapping). */
void ibs_text(unsigned long *lo, unsigned long *hi);

void ibs_setup_tcase(Suite *s);
void ibs_ring_tcase(Suite *s);
void ibs_access_tcase(Suite *s);
void ibs_calls_tcase(Suite *s);

#endif /* _PERFCTR_CHECK_IBS_H */
