/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libperfctr: the x86 instructions of the fast read path, and (test builds
 * with PERFCTR_SIM only) the simulated PMU's stand-in for RDPMC.
 *
 * Only the low 32 bits of the TSC and of a counter are ever needed: the
 * kernel ends a counting period before 2^32 events, and the state page
 * holds the low 32 bits of each value at the period's start.
 */
#ifndef _LIBPERFCTR_ARCH_X86_H
#define _LIBPERFCTR_ARCH_X86_H

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

/*
 * The compiler keeps volatile asm in order with barrier(), so these stay
 * between a seq loop's two barrier()s. No fence is needed: the counters
 * and the TSC change in the page only on this CPU, between instructions.
 */
static inline __u32 arch_rdtsc_low(void)
{
	__u32 lo;

	__asm__ __volatile__("rdtsc" : "=a" (lo) : : "edx");
	return lo;
}

static inline __u32 arch_rdpmc_low(__u32 map)
{
	__u32 lo;

	__asm__ __volatile__("rdpmc" : "=a" (lo) : "c" (map) : "edx");
	return lo;
}

#ifdef PERFCTR_SIM
#include <sched.h>

#include "simpmu_user.h"

#define SIMPMU_DEV		"/dev/perfctr_simpmu"

/*
 * x86_64 kernels put "node << 12 | cpu" in the limit of GDT entry 15 for
 * the vDSO's getcpu; 32-bit programs under them can read it too. On i386
 * kernels 0x7b is the 4 GiB user data segment, which tells them apart.
 */
#define SIMPMU_CPU_SEG		0x7bU
#define SIMPMU_CPU_MASK		0xfffU
#define SIMPMU_NR_MASK		0x1fU
#define SIMPMU_P4_FAST		0x80000000U

/* Whether LSL on SIMPMU_CPU_SEG gives this CPU's number. */
static inline int simpmu_have_lsl(void)
{
	__u32 limit = ~0U;
	int ok;

	__asm__ __volatile__("lsl %2, %0"
			     : "+r" (limit), "=@ccz" (ok)
			     : "r" (SIMPMU_CPU_SEG));
	return ok && limit <= 0xfffffU;
}

static inline unsigned int simpmu_cpu(int have_lsl)
{
	__u32 limit;

	if (!have_lsl)
		return sched_getcpu();	/* -1 is out of range below */
	__asm__ __volatile__("lsl %1, %0" : "=r" (limit)
			     : "r" (SIMPMU_CPU_SEG));
	return limit & SIMPMU_CPU_MASK;
}

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
};

/* CPUs past the page have no counters: RDPMC would read 0. */
static const struct simpmu_user_cpu simpmu_none;

static inline void simpmu_view_begin(struct pmc_view *v,
				     const struct simpmu_user_cpu *page,
				     int have_lsl)
{
	unsigned int cpu = simpmu_cpu(have_lsl);
	const struct simpmu_user_cpu *e;

	e = cpu < SIMPMU_USER_CPUS ? &page[cpu] : &simpmu_none;
	v->e = e;
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

	if (map & PERFCTR_X86_FIXED_PMC)
		return n < SIMPMU_USER_FIXED ?
			simpmu_value(v, e->fixed[n], e->fixed_counting, n) : 0;
	if ((map & ~v->not_fast) && n < SIMPMU_USER_CTRS)
		return simpmu_value(v, e->ctr[n], e->counting, n);
	return 0;
}

/* What RDPMC would read for @map on this CPU, low 32 bits. */
static inline __u32 pmc_low(const struct pmc_view *v, __u32 map)
{
	unsigned int n = map & v->not_fast;

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

#endif /* _LIBPERFCTR_ARCH_X86_H */
