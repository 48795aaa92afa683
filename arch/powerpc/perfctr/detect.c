// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: which driver runs this CPU, from the version (high half)
 * of its PVR, and whether its overflow interrupt (PCINT) can be used,
 * from the revision (low half). Any other 32-bit PowerPC has a timebase
 * and gets the generic driver; the 601 has none (an RTC instead) and gets
 * nothing.
 *
 * Every one of these CPUs can raise the performance monitor exception,
 * but on some the vendors' errata forbid it while the decrementer runs,
 * and Linux always runs the decrementer: there PCINT is not offered and
 * i-mode counters are refused (Documentation/perfctr/ppc32.rst).
 */
#include "ppc.h"

/* When the overflow interrupt is safe to use. */
enum pp_pcint {
	PP_PCINT_NEVER,		/* an erratum no revision fixes */
	PP_PCINT_ALWAYS,	/* no erratum known */
	PP_PCINT_FROM,		/* from a revision on: rev_mask, rev_from */
};

struct pp_model {
	u16 version;
	u8 pcint;		/* enum pp_pcint */
	u16 rev_mask;		/* PP_PCINT_FROM: revision bits compared */
	u16 rev_from;		/* PP_PCINT_FROM: the first good revision */
	const struct perfctr_ppc_family *driver;
};

static const struct pp_model pp_models[] = {
	/*
	 * 604: no erratum known. Software must clear PMXE (ENINT) after
	 * each exception, which the handler always does (irq.c).
	 */
	{ 0x0004, PP_PCINT_ALWAYS, 0, 0, &perfctr_ppc604_family },
	/* 604e: no erratum known. */
	{ 0x0009, PP_PCINT_ALWAYS, 0, 0, &perfctr_ppc604e_family },
	/* 604ev (Mach 5, "604r"): a 604e core; no erratum known. */
	{ 0x000A, PP_PCINT_ALWAYS, 0, 0, &perfctr_ppc604e_family },
	/*
	 * 740/750, 745/755, 750CX/CXe, 750L: the MPC750 user's manual
	 * (appendix C, MPC755) says no two of the thermal assist unit, the
	 * decrementer and the performance monitor may have exceptions
	 * enabled together; IBM's 750CXe erratum 13: a PMI right after a
	 * delayed decrementer exception can corrupt SRR0 and hang the CPU.
	 */
	{ 0x0008, PP_PCINT_NEVER, 0, 0, &perfctr_ppc750_family },
	/*
	 * 750FX: the 750CXe's DEC/PMI erratum is fixed from DD2.3, PVR low
	 * half 0x0203 (bits 0x00F0 of the revision are not its level).
	 */
	{ 0x7000, PP_PCINT_FROM, 0xFF0F, 0x0203, &perfctr_ppc750_family },
	/* 750GX: built from the fixed 750FX; no erratum known. */
	{ 0x7002, PP_PCINT_ALWAYS, 0, 0, &perfctr_ppc750_family },
	/*
	 * 7400: the 750's TAU/DEC/PMI erratum, which the 7410 (its shrink)
	 * carries up to rev 1.2; no 7400 revision is known to fix it.
	 */
	{ 0x000C, PP_PCINT_NEVER, 0, 0, &perfctr_ppc7400_family },
	/*
	 * 7410: PPC7410 erratum 10 (the 750's TAU/DEC/PMI erratum) affects
	 * rev 1.0-1.2, PVR 0x800C1100-0x800C1102; rev 1.3 (0x1103) is fixed.
	 */
	{ 0x800C, PP_PCINT_FROM, 0xFFFF, 0x1103, &perfctr_ppc7400_family },
	/* 7441/7450/7451: no such erratum. */
	{ 0x8000, PP_PCINT_ALWAYS, 0, 0, &perfctr_ppc7450_family },
	/* 7445/7455: no such erratum. */
	{ 0x8001, PP_PCINT_ALWAYS, 0, 0, &perfctr_ppc7450_family },
	/* 7447/7457: no such erratum. */
	{ 0x8002, PP_PCINT_ALWAYS, 0, 0, &perfctr_ppc7450_family },
	/* 7447A: no such erratum. */
	{ 0x8003, PP_PCINT_ALWAYS, 0, 0, &perfctr_ppc7450_family },
	/* 7448: no such erratum. */
	{ 0x8004, PP_PCINT_ALWAYS, 0, 0, &perfctr_ppc7450_family },
};

#define PVR_VERSION_601	0x0001

static bool pp_model_pcint(const struct pp_model *m, u16 revision)
{
	switch (m->pcint) {
	case PP_PCINT_ALWAYS:
		return true;
	case PP_PCINT_FROM:
		return (revision & m->rev_mask) >= m->rev_from;
	default:
		return false;
	}
}

const struct perfctr_ppc_family *pp_detect_family(u32 pvr, bool *pcint)
{
	u16 version = pvr >> 16;
	unsigned int i;

	*pcint = false;
	if (version == PVR_VERSION_601)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(pp_models); i++) {
		if (pp_models[i].version == version) {
			*pcint = pp_model_pcint(&pp_models[i], pvr & 0xFFFF);
			return pp_models[i].driver;
		}
	}
	return &perfctr_ppc_generic_family;
}
