// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: PowerPC 604, 604e and 604ev.
 *
 * The 604 has PMC1-PMC2 and MMCR0 only; the 604e and 604ev add PMC3-PMC4
 * and MMCR1. SIA and SDA exist but are not used. There are no user-mode
 * copies of the counters: user space reads them through the kernel.
 */
#include "ppc.h"

const struct perfctr_ppc_family perfctr_ppc604_family =
	PP_FAMILY("PowerPC 604", PERFCTR_PPC_604, 2, 1, PERFCTR_FEATURE_RDTSC);

const struct perfctr_ppc_family perfctr_ppc604e_family =
	PP_FAMILY("PowerPC 604e", PERFCTR_PPC_604, 4, 2, PERFCTR_FEATURE_RDTSC);
