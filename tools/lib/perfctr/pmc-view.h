/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfctr: what the fast read path needs of the machine. The arch
 * header gives the instructions that read the TSC (timebase) and a
 * counter. libperfctr.c reads a counter through the hooks below, a
 * pmc_view: here RDPMC (mfspr), which needs no state; test builds with
 * PERFCTR_SIM get the simulated PMU's view (tests/sim/user/simpmu-view.h)
 * with the same names, as no register backs a simulated counter.
 */
#ifndef _LIBPERFCTR_PMC_VIEW_H
#define _LIBPERFCTR_PMC_VIEW_H

#include <stddef.h>
#include <linux/types.h>
#include <perfctr/perfctr.h>

/*
 * The state page is shared with the kernel. Its fields are read with
 * plain loads between two barrier()s, which make the compiler load them
 * afresh. seq, polled before the first barrier(), and cstatus, which
 * decides what else is read, are loaded exactly once where they stand by
 * load_u32(): a relaxed atomic load, as the kernel's READ_ONCE().
 */
static inline void barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

static inline __u32 load_u32(const __u32 *p)
{
	return __atomic_load_n(p, __ATOMIC_RELAXED);
}

#if defined(__powerpc__)
#include "arch-powerpc.h"
#else
#include "arch-x86.h"
#endif

#ifdef PERFCTR_SIM
/*
 * Test builds read the simulated PMU's page instead: the simulation's
 * own view, on the -I path only the test build passes.
 */
#include "simpmu-view.h"
#else
/* RDPMC needs nothing but the map: no state in the handle, none to open. */
struct pmc_view_src {
};

struct pmc_view {
	int none;
};

/* Whether the counters can be read here: @rdpmc, as info says. */
static inline int pmc_view_open(struct pmc_view_src *src, size_t size,
				int rdpmc)
{
	(void)src;
	(void)size;
	return rdpmc;
}

static inline void pmc_view_close(struct pmc_view_src *src, size_t size)
{
	(void)src;
	(void)size;
}

/* Taken once per pass of a state-page read, before the counters. */
static inline void pmc_view_begin(struct pmc_view *v,
				  const struct pmc_view_src *src)
{
	(void)v;
	(void)src;
}

/* After the pass's last barrier(): must the pass be redone? */
static inline int pmc_view_changed(const struct pmc_view *v)
{
	(void)v;
	return 0;
}

static inline __u32 pmc_low(const struct pmc_view *v, __u32 map)
{
	(void)v;
	return arch_rdpmc_low(map);
}
#endif /* PERFCTR_SIM */

#endif /* _LIBPERFCTR_PMC_VIEW_H */
