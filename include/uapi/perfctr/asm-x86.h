/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * perfctr: x86 control data. Include <perfctr/perfctr.h>, not this file:
 * it picks this one by the compiler's target.
 */
#ifndef _UAPI_PERFCTR_ASM_X86_H
#define _UAPI_PERFCTR_ASM_X86_H

#include <linux/types.h>

/* The P4 has 18 counters; every other x86 has fewer. */
#define PERFCTR_NR_PMCS		18

/*
 * pmc_map[] of Intel's fixed-function counter n (architectural perfmon
 * version 2 and later): PERFCTR_X86_FIXED_PMC | n, as RDPMC takes it. Its
 * evntsel[] is the counter's 4-bit field of IA32_FIXED_CTR_CTRL: bit 0
 * counts at CPL 0, bit 1 above CPL 0, bit 3 interrupts on overflow.
 */
#define PERFCTR_X86_FIXED_PMC	0x40000000U

/*
 * Counters 0..nractrs-1 are a-mode (accumulating), the next nrictrs are
 * i-mode (interrupt on overflow). pmc_map[] holds the RDPMC index of
 * each counter, never an MSR number. All four _reserved words must be 0.
 */
struct perfctr_cpu_control {
	__u32 tsc_on;
	__u32 nractrs;
	__u32 nrictrs;
	__u32 pmc_map[PERFCTR_NR_PMCS];
	__u32 evntsel[PERFCTR_NR_PMCS];		/* low 32 bits, even on P5 */
	__u32 evntsel_high[PERFCTR_NR_PMCS];	/* bits 63:32 (AMD fam 10h+) */
	struct {
		__u32 escr[PERFCTR_NR_PMCS];
		__u32 pebs_enable;		/* replay tagging only */
		__u32 pebs_matrix_vert;		/* replay tagging only */
	} p4;
	__s32 ireset[PERFCTR_NR_PMCS];		/* < 0, i-mode only */
	__u32 _reserved[4];
};

#endif /* _UAPI_PERFCTR_ASM_X86_H */
