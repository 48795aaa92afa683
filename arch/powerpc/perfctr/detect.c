// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: which driver runs this CPU, from the version (high half)
 * of its PVR. Any other 32-bit PowerPC has a timebase and gets the
 * generic driver; the 601 has none (an RTC instead) and gets nothing.
 */
#include "ppc.h"

struct pp_model {
	u16 version;
	const struct perfctr_ppc_family *driver;
};

static const struct pp_model pp_models[] = {
	{ 0x0004, &perfctr_ppc604_family },	/* 604 */
	{ 0x0009, &perfctr_ppc604e_family },	/* 604e */
	{ 0x000A, &perfctr_ppc604e_family },	/* 604ev (Mach 5) */
	{ 0x0008, &perfctr_ppc750_family },	/* 740/750, 750CX/CXe, 745/755 */
	{ 0x7000, &perfctr_ppc750_family },	/* 750FX */
	{ 0x7002, &perfctr_ppc750_family },	/* 750GX */
	{ 0x000C, &perfctr_ppc7400_family },	/* 7400 */
	{ 0x800C, &perfctr_ppc7400_family },	/* 7410 */
	{ 0x8000, &perfctr_ppc7450_family },	/* 7441/7450/7451 */
	{ 0x8001, &perfctr_ppc7450_family },	/* 7445/7455 */
	{ 0x8002, &perfctr_ppc7450_family },	/* 7447/7457 */
	{ 0x8003, &perfctr_ppc7450_family },	/* 7447A */
	{ 0x8004, &perfctr_ppc7450_family },	/* 7448 */
};

#define PVR_VERSION_601	0x0001

const struct perfctr_ppc_family *pp_detect_family(u32 pvr)
{
	u16 version = pvr >> 16;
	unsigned int i;

	if (version == PVR_VERSION_601)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(pp_models); i++)
		if (pp_models[i].version == version)
			return pp_models[i].driver;
	return &perfctr_ppc_generic_family;
}
