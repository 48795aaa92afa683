/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libperfctr: what the fast read path needs of the machine. The arch
 * header gives the instructions that read the TSC (timebase) and a
 * counter; test builds with PERFCTR_SIM read the simulated PMU's page
 * (simpmu_user.h) instead of the counters, which nothing backs.
 */
#ifndef _LIBPERFCTR_PMC_VIEW_H
#define _LIBPERFCTR_PMC_VIEW_H

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
#include "arch-ppc.h"
#else
#include "arch-x86.h"
#endif

#ifdef PERFCTR_SIM
#include <signal.h>
#include "simpmu_user.h"

#define SIMPMU_DEV		"/dev/perfctr_simpmu"
#define SIMPMU_NR_MASK		0x1fU
#define SIMPMU_P4_FAST		0x80000000U

/*
 * A look at this CPU's entry, taken once per pass of a state-page read:
 * the counters are read from it as RDPMC would read them, and the pass is
 * repeated if the entry changed meanwhile (a migration changes the state
 * page's seq). Only the low 32 bits of a value are needed, so 32-bit
 * arithmetic does.
 */
struct pmc_view {
	const struct simpmu_user_cpu *e;
	__u32 seq;
	__u32 delta;		/* TSC ticks since the entry was exact */
	__u32 not_fast;		/* clears a P4 fast read's bit 31 */
	__u32 width;		/* low half of the width mask */
	unsigned int cpu;	/* the CPU whose entry e is */
	int fast_cpu;
};

/* CPUs past the page have no counters: RDPMC would read 0. */
static const struct simpmu_user_cpu simpmu_none = { .user_read = 1 };

static inline void simpmu_view_begin(struct pmc_view *v,
				     const struct simpmu_user_cpu *page,
				     int fast_cpu)
{
	unsigned int cpu = simpmu_cpu(fast_cpu);
	const struct simpmu_user_cpu *e;

	e = cpu < SIMPMU_USER_CPUS ? &page[cpu] : &simpmu_none;
	v->e = e;
	v->cpu = cpu;
	v->fast_cpu = fast_cpu;
	v->seq = load_u32(&e->seq);
	barrier();
	v->delta = arch_rdtsc_low() - (__u32)e->last_tsc;
	v->not_fast = e->p4_fast ? ~SIMPMU_P4_FAST : ~0U;
	v->width = (__u32)e->width_mask;
}

/* After the pass's last barrier(): did the entry change under it? */
static inline int pmc_view_changed(const struct pmc_view *v)
{
	return (v->seq & 1) || load_u32(&v->e->seq) != v->seq;
}

static inline __u32 simpmu_value(const struct pmc_view *v, __u64 ctr,
				 __u32 counting, unsigned int n)
{
	__u32 on = (counting >> n) & 1;

	return ((__u32)ctr + (-on & v->delta)) & v->width;
}

/* Fixed counters, and maps no counter answers (RDPMC would fault). */
static inline __u32 simpmu_other(const struct pmc_view *v, __u32 map)
{
	const struct simpmu_user_cpu *e = v->e;
	unsigned int n = map & SIMPMU_NR_MASK;

#ifdef PERFCTR_X86_FIXED_PMC
	if (map & PERFCTR_X86_FIXED_PMC)
		return n < SIMPMU_USER_FIXED ?
			simpmu_value(v, e->fixed[n], e->fixed_counting, n) : 0;
#endif
	if ((map & ~v->not_fast) && n < SIMPMU_USER_CTRS)
		return simpmu_value(v, e->ctr[n], e->counting, n);
	return 0;
}

/*
 * RDPMC faults while the CPU does not let user space read the counters
 * (CR4.PCE clear), and so does this; but not if the thread left the CPU
 * or the entry changed since the view was taken: the flag it read may be
 * another moment's, and the pass is redone anyway.
 */
static inline __u32 simpmu_denied(const struct pmc_view *v)
{
	if (!(v->seq & 1) && simpmu_cpu(v->fast_cpu) == v->cpu &&
	    load_u32(&v->e->seq) == v->seq)
		raise(SIGSEGV);
	return 0;
}

/* What RDPMC would read for @map on this CPU, low 32 bits. */
static inline __u32 pmc_low(const struct pmc_view *v, __u32 map)
{
	unsigned int n = map & v->not_fast;

	if (__builtin_expect(!v->e->user_read, 0))
		return simpmu_denied(v);
	if (__builtin_expect(n >= SIMPMU_USER_CTRS, 0))
		return simpmu_other(v, map);
	return simpmu_value(v, v->e->ctr[n], v->e->counting, n);
}
#else
/* RDPMC needs nothing but the map. */
struct pmc_view {
	int none;
};

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
