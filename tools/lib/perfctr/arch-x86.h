/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * libperfctr: the x86 instructions of the fast read path, and (test builds
 * with PERFCTR_SIM only) how the simulated PMU finds this CPU.
 *
 * Only the low 32 bits of the TSC and of a counter are ever needed: the
 * kernel ends a counting period before 2^32 events, and the state page
 * holds the low 32 bits of each value at the period's start.
 */
#ifndef _LIBPERFCTR_ARCH_X86_H
#define _LIBPERFCTR_ARCH_X86_H

#include <linux/types.h>

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

/*
 * x86_64 kernels put "node << 12 | cpu" in the limit of GDT entry 15 for
 * the vDSO's getcpu; 32-bit programs under them can read it too. On i386
 * kernels 0x7b is the 4 GiB user data segment, which tells them apart.
 */
#define SIMPMU_CPU_SEG		0x7bU
#define SIMPMU_CPU_MASK		0xfffU

/* Whether LSL on SIMPMU_CPU_SEG gives this CPU's number. */
static inline int simpmu_fast_cpu(void)
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

#endif /* PERFCTR_SIM */

#endif /* _LIBPERFCTR_ARCH_X86_H */
