/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfctr: the x86 instructions of the fast read path.
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

#endif /* _LIBPERFCTR_ARCH_X86_H */
