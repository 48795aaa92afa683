/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr ppc32: what the common ppc32 code needs from each CPU family.
 * One family per file; each fills in one struct perfctr_ppc_family.
 *
 * The 604, 750 and 74xx share one layout: MMCR0 holds the global bits
 * and the event selects of PMC1 and PMC2, MMCR1 those of PMC3 to PMC6,
 * MMCR2 (74xx) the threshold multiplier. They differ in how many
 * counters and control registers they have.
 */
#ifndef _PERFCTR_PPC_H
#define _PERFCTR_PPC_H

#include <linux/atomic.h>
#include <linux/bits.h>

#include <perfctr/cpu_arch.h>

#include "regs.h"

/* Values of perfctr_info.family_id, stable for user space. */
enum perfctr_ppc_family_id {
	PERFCTR_PPC_GENERIC = 0,
	PERFCTR_PPC_604 = 1,
	PERFCTR_PPC_750 = 2,
	PERFCTR_PPC_7400 = 3,
	PERFCTR_PPC_7450 = 4,
};

/* MMCR0, in the manuals' big-endian bit numbering: bit 0 is 0x80000000. */
#define PP_MMCR0_FC	PERFCTR_PPC_MMCR0_FC
#define PP_MMCR0_PMXE	PERFCTR_PPC_MMCR0_PMXE
#define PP_MMCR0_FCECE	PERFCTR_PPC_MMCR0_FCECE
#define PP_MMCR0_PMC1CE	PERFCTR_PPC_MMCR0_PMC1CE
#define PP_MMCR0_PMCNCE	PERFCTR_PPC_MMCR0_PMCNCE
#define PP_MMCR0_TRIGGER	PERFCTR_PPC_MMCR0_TRIGGER
#define PP_MMCR0_TBEE	PERFCTR_PPC_MMCR0_TBEE
#define PP_MMCR0_PMCSEL	PERFCTR_PPC_MMCR0_PMCSEL
#define PP_MMCR2_THRESHMULT	PERFCTR_PPC_MMCR2_THRESHMULT
/* Bit 1: FCS (604: DP), no counting in supervisor state (MSR[PR] = 0). */
#define PP_MMCR0_FCS	0x40000000U

/* Bits with which the hardware itself changes MMCR0 while counting. */
#define PP_MMCR0_ASYNC	(PP_MMCR0_FCECE | PP_MMCR0_TRIGGER)

/* Where counter n's event select lives: MMCR0 for PMC1-2, else MMCR1. */
struct pp_sel_field {
	u8 mmcr;		/* 0 or 1 */
	u8 shift;
	u8 width;
};

extern const struct pp_sel_field pp_sel_fields[PP_MAX_PMCS];

/* Per CPU: what the control registers hold, so unchanged ones are not rewritten. */
struct pp_cache {
	u64 id;				/* control loaded, or 0 if unknown */
	u32 mmcr[3];			/* last value written */
	u32 used;			/* counters the last control read */
};

struct perfctr_ppc_family {
	const char *name;
	enum perfctr_ppc_family_id id;
	unsigned int nrctrs;		/* 2, 4 or 6 */
	unsigned int nrmmcrs;		/* 1, 2 or 3 */
	unsigned int features;		/* PERFCTR_FEATURE_*, but PCINT */
};

/*
 * The families share one register layout and differ only in these
 * numbers, so each is one line: name, id, counters, control registers
 * and features (PCINT depends on model and revision: detect.c).
 */
#define PP_FAMILY(_name, _id, _nrctrs, _nrmmcrs, _features)		\
	{ .name = (_name), .id = (_id), .nrctrs = (_nrctrs),		\
	  .nrmmcrs = (_nrmmcrs), .features = (_features) }

/* Features of every family whose user mode can read the counters. */
#define PP_USER_PMCS	(PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC)

extern const struct perfctr_ppc_family perfctr_ppc_generic_family;
extern const struct perfctr_ppc_family perfctr_ppc604_family;
extern const struct perfctr_ppc_family perfctr_ppc604e_family;
extern const struct perfctr_ppc_family perfctr_ppc750_family;
extern const struct perfctr_ppc_family perfctr_ppc7400_family;
extern const struct perfctr_ppc_family perfctr_ppc7450_family;

/*
 * The 74xx, the families with MMCR2, also have the BAMR breakpoint mask,
 * which reservation clears so no stale breakpoint event fires.
 */
static inline bool pp_has_bamr(const struct perfctr_ppc_family *f)
{
	return f->nrmmcrs == 3;
}

/* The driver in use; read-only after perfctr_cpu_init(). */
extern struct perfctr_ppc_family pp_family;

/*
 * Detection (detect.c): the driver for this PVR: its family's, or the
 * generic one for a CPU without a known performance monitor; NULL only
 * for the 601, which has no timebase. *pcint tells whether the overflow
 * interrupt of this model and revision can be used.
 */
const struct perfctr_ppc_family *pp_detect_family(u32 pvr, bool *pcint);

/* Overflow interrupts (irq.c). */
void pp_irq_arm(struct perfctr_cpu_state *state);
void pp_irq_disarm(void);
void pp_perf_irq(struct pt_regs *regs);

/* The cache of this CPU, which the interrupt handler keeps exact. */
struct pp_cache *pp_this_cache(void);

/*
 * Read MMCR0 and freeze the counters (FC on, PMXE off) at once; keep the
 * FC and TRIGGER the hardware set or cleared in @state (core.c).
 */
void pp_save_async(struct perfctr_cpu_state *state, struct pp_cache *cache);

#endif /* _PERFCTR_PPC_H */
