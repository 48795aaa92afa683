// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: FreeBSD perfmon(4) counter setups (drivers/perfctr/
 * perfmon.c) in this CPU's registers. A setup word is the low half of a
 * Pentium Pro PerfEvtSel: event, unit mask, flags (bits 16-23), counter
 * mask. The families with that layout take it almost as it is; the P5s
 * take the event and the flags in their half of the CESR. Every other
 * family has neither layout, and the device offers only its TSC there.
 */
#include <linux/errno.h>
#include <perfctr/perfmon.h>

#include "x86.h"

/* The flags a setup may have: the driver sets EN, and INT is i-mode's. */
#define PMON_FLAGS		(PMCF_USR | PMCF_OS | PMCF_E | PMCF_INV)

#define PMON_EVENT(word)	((word) & 0xFFU)
#define PMON_FLAGS_OF(word)	(((word) >> 16) & 0xFFU)
#define PMON_UNIT_MASK_CMASK	0xFF00FF00U

/* P5 CESR half: CC bits 6 (CPL 0-2), 7 (CPL 3), 8 (clocks, not events). */
#define P5_CC_OS		0x0040U
#define P5_CC_USR		0x0080U
#define P5_CC_CLOCKS		0x0100U
#define MII_EVENT_BIT6		0x0400U	/* the Cyrix extension, CESR bit 10 */

enum pmon_layout { PMON_NONE, PMON_CESR, PMON_EVNTSEL };

static enum pmon_layout pmon_layout(void)
{
	switch (pc_family.id) {
	case PERFCTR_X86_INTEL_P5:
	case PERFCTR_X86_INTEL_P5MMX:
	case PERFCTR_X86_CYRIX_MII:
		return PMON_CESR;
	case PERFCTR_X86_INTEL_P6:
	case PERFCTR_X86_INTEL_ARCH:
	case PERFCTR_X86_AMD_K7:
	case PERFCTR_X86_AMD_K8:
	case PERFCTR_X86_AMD_FAM10:
		return PMON_EVNTSEL;
	default:
		return PMON_NONE;
	}
}

/*
 * No unit mask, counter mask nor invert on the P5; 6-bit events, 7 on
 * the Cyrix MII. Without PMCF_E a P5 counter counts clocks (duration).
 */
static int pmon_cesr(u32 word, u32 *evntsel)
{
	u32 event = PMON_EVENT(word), flags = PMON_FLAGS_OF(word);
	u32 max = pc_family.id == PERFCTR_X86_CYRIX_MII ? 0x7F : 0x3F;

	if ((word & PMON_UNIT_MASK_CMASK) || (flags & ~PMON_FLAGS) ||
	    (flags & PMCF_INV) || event > max)
		return -EINVAL;
	*evntsel = (event & 0x3F) | ((event & 0x40) ? MII_EVENT_BIT6 : 0) |
		   (flags & PMCF_OS ? P5_CC_OS : 0) |
		   (flags & PMCF_USR ? P5_CC_USR : 0) |
		   (flags & PMCF_E ? 0 : P5_CC_CLOCKS);
	return 0;
}

/* The word is the PerfEvtSel; EN goes where the family wants it. */
static int pmon_evntsel(u32 word, unsigned int pmc, u32 *evntsel)
{
	if (PMON_FLAGS_OF(word) & ~PMON_FLAGS)
		return -EINVAL;
	*evntsel = word;
	if (pc_family.rules.enable == PC_EN_EACH || pmc == 0)
		*evntsel |= EVNTSEL_EN;
	return 0;
}

static int pmon_encode(enum pmon_layout layout, u32 word, unsigned int pmc,
		       u32 *evntsel)
{
	return layout == PMON_CESR ? pmon_cesr(word, evntsel)
				   : pmon_evntsel(word, pmc, evntsel);
}

int perfctr_cpu_perfmon_control(struct perfctr_cpu_control *control,
				const u32 *words, unsigned int run,
				unsigned int *slot)
{
	enum pmon_layout layout = pmon_layout();
	unsigned int pmc, n = 0;
	int err;

	if (layout == PMON_NONE)
		return -EOPNOTSUPP;
	memset(control, 0, sizeof(*control));
	control->tsc_on = !!(perfctr_info.features & PERFCTR_FEATURE_RDTSC);
	for (pmc = 0; pmc < NPMC; pmc++) {
		if (!(run & BIT(pmc)))
			continue;
		err = pmon_encode(layout, words[pmc], pmc, &control->evntsel[n]);
		if (err)
			return err;
		control->pmc_map[n] = pmc;
		slot[pmc] = n++;
	}
	/* Counter 1 alone on a P6: counter 0's EN runs it, counting nothing. */
	if (pc_family.rules.enable == PC_EN_PMC0 && run == BIT(1)) {
		control->pmc_map[n] = 0;
		control->evntsel[n++] = EVNTSEL_EN;
	}
	control->nractrs = n;
	return 0;
}
