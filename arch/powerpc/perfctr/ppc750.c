// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: PowerPC 750/740 and its descendants 750CX, 750FX, 750GX.
 *
 * Four counters, MMCR0 and MMCR1, laid out as on the 604e. User mode can
 * read every counter through UPMC1-UPMC4, so the fast read path works.
 */
#include "ppc.h"

const struct perfctr_ppc_family perfctr_ppc750_family = {
	.name = "PowerPC 750",
	.id = PERFCTR_PPC_750,
	.nrctrs = 4,
	.nrmmcrs = 2,
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC |
		    PERFCTR_FEATURE_PCINT,
};
