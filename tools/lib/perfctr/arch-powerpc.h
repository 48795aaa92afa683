/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfctr: the ppc32 instructions of the fast read path.
 *
 * The timebase's low word (TBL) stands in for the TSC. The 750 and 74xx
 * let user mode read every counter through its user copy, UPMCn: pmc_map
 * holds the counter number, 0 for PMC1.
 */
#ifndef _LIBPERFCTR_ARCH_POWERPC_H
#define _LIBPERFCTR_ARCH_POWERPC_H

#include <linux/types.h>

/* The compiler keeps volatile asm in order with barrier(). */
static inline __u32 arch_rdtsc_low(void)
{
	__u32 tbl;

	__asm__ __volatile__("mftb %0" : "=r" (tbl));
	return tbl;
}

#define ARCH_UPMC(spr) ({						\
	__u32 val;							\
	__asm__ __volatile__("mfspr %0, " #spr : "=r" (val));		\
	val; })

/* UPMC1-4 are SPRs 937, 938, 941, 942; UPMC5-6 (745x) 929, 930. */
static inline __u32 arch_rdpmc_low(__u32 map)
{
	switch (map) {
	case 0:
		return ARCH_UPMC(937);
	case 1:
		return ARCH_UPMC(938);
	case 2:
		return ARCH_UPMC(941);
	case 3:
		return ARCH_UPMC(942);
	case 4:
		return ARCH_UPMC(929);
	default:
		return ARCH_UPMC(930);
	}
}

#endif /* _LIBPERFCTR_ARCH_POWERPC_H */
