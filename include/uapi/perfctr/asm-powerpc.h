/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * perfctr: ppc32 control data. Include <perfctr/perfctr.h>, not this
 * file: it picks this one by the compiler's target.
 */
#ifndef _UAPI_PERFCTR_ASM_POWERPC_H
#define _UAPI_PERFCTR_ASM_POWERPC_H

#include <linux/types.h>

/* Room for 8; the 745x has the most, 6 (PMC1-PMC6). */
#define PERFCTR_NR_PMCS		8

/*
 * Counters 0..nractrs-1 are a-mode (accumulating), the next nrictrs are
 * i-mode (interrupt on overflow). pmc_map[] holds a counter number, 0 for
 * PMC1 up to 5 for PMC6, never an SPR number. evntsel[] is the counter's
 * PMCnSEL field, right-aligned. All four _reserved words must be 0.
 */
struct perfctr_cpu_control {
	__u32 tsc_on;		/* sample the timebase */
	__u32 nractrs;
	__u32 nrictrs;
	__u32 pmc_map[PERFCTR_NR_PMCS];
	__u32 evntsel[PERFCTR_NR_PMCS];
	__s32 ireset[PERFCTR_NR_PMCS];	/* [0, 0x7fffffff], i-mode only */
	struct {
		__u32 mmcr0;	/* global bits; PMC1SEL/PMC2SEL must be 0 */
		__u32 mmcr2;	/* THRESHMULT only, 74xx only */
	} ppc;
	__u32 _reserved[4];
};

/*
 * MMCR0 bits of control.ppc.mmcr0 (see ppc32.rst), in the manuals' bit
 * numbering bit 0 is 0x80000000. FC and TBEE are refused: FC is the
 * driver's own, and a timebase event is no counter overflow.
 */
#define PERFCTR_PPC_MMCR0_FC		0x80000000U	/* refused */
#define PERFCTR_PPC_MMCR0_PMXE		0x04000000U	/* exception enable */
#define PERFCTR_PPC_MMCR0_FCECE		0x02000000U	/* freeze on event */
#define PERFCTR_PPC_MMCR0_TBEE		0x00400000U	/* refused */
#define PERFCTR_PPC_MMCR0_PMC1CE	0x00008000U	/* PMC1 overflow on */
#define PERFCTR_PPC_MMCR0_PMCNCE	0x00004000U	/* PMC2-6 overflow on */
#define PERFCTR_PPC_MMCR0_TRIGGER	0x00002000U
#define PERFCTR_PPC_MMCR0_PMCSEL	0x00001FFFU	/* reserved here */
#define PERFCTR_PPC_MMCR2_THRESHMULT	0x80000000U

#endif /* _UAPI_PERFCTR_ASM_POWERPC_H */
