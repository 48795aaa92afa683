// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: PowerPC 604, 604e and 604ev.
 *
 * The 604 has PMC1-PMC2 and MMCR0 only; the 604e and 604ev add PMC3-PMC4
 * and MMCR1. SIA and SDA exist but are not used. There are no user-mode
 * copies of the counters: user space reads them through the kernel.
 */
#include "ppc.h"

const struct perfctr_ppc_family perfctr_ppc604_family = {
	.name = "PowerPC 604",
	.id = PERFCTR_PPC_604,
	.nrctrs = 2,
	.nrmmcrs = 1,
	.features = PERFCTR_FEATURE_RDTSC,
};

const struct perfctr_ppc_family perfctr_ppc604e_family = {
	.name = "PowerPC 604e",
	.id = PERFCTR_PPC_604,
	.nrctrs = 4,
	.nrmmcrs = 2,
	.features = PERFCTR_FEATURE_RDTSC,
};
