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
 * load_u32(): the kernel's READ_ONCE(), which is a volatile access.
 */
static inline void barrier(void)
{
	__asm__ __volatile__("" : : : "memory");
}

static inline __u32 load_u32(const __u32 *p)
{
	return *(const volatile __u32 *)p;
}

/*
 * The compiler keeps volatile asm in order with barrier(), so these stay
 * between a seq loop's two barrier()s. No fence is needed: the kernel
 * changes the page only on this CPU, between instructions.
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
#define SIMPMU_FIXED_NR_MASK	0x1fU
#define SIMPMU_P4_FAST		0x80000000U

static inline __u64 arch_rdtsc(void)
{
	__u32 lo, hi;

	__asm__ __volatile__("rdtsc" : "=a" (lo), "=d" (hi));
	return (__u64)hi << 32 | lo;
}

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
 * What RDPMC would return for @map on this CPU: a live counter has
 * advanced by one per TSC tick since the entry was written. A map that
 * the CPU has no counter for reads as 0. The caller's state-page seq loop
 * catches a migration between choosing the entry and reading it.
 */
static inline __u32 simpmu_rdpmc_low(const struct simpmu_user_cpu *page,
				     int have_lsl, __u32 map)
{
	const struct simpmu_user_cpu *e;
	unsigned int cpu = simpmu_cpu(have_lsl), n;
	__u64 val;
	__u32 seq, on;

	if (cpu >= SIMPMU_USER_CPUS)
		return 0;
	e = &page[cpu];
	for (;;) {
		seq = load_u32(&e->seq);
		barrier();
		n = map & SIMPMU_FIXED_NR_MASK;
		if (map & PERFCTR_X86_FIXED_PMC) {
			if (n >= SIMPMU_USER_FIXED)
				return 0;
			val = e->fixed[n];
			on = (e->fixed_counting >> n) & 1;
		} else {
			if (!(e->p4_fast && (map & SIMPMU_P4_FAST)))
				n = map;
			if (n >= SIMPMU_USER_CTRS)
				return 0;
			val = e->ctr[n];
			on = (e->counting >> n) & 1;
		}
		if (on)
			val += arch_rdtsc() - e->last_tsc;
		val &= e->width_mask;
		barrier();
		if (!(seq & 1) && seq == load_u32(&e->seq))
			return (__u32)val;
	}
}
#endif /* PERFCTR_SIM */

#endif /* _LIBPERFCTR_ARCH_X86_H */
