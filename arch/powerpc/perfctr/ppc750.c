// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: PowerPC 750/740 and its descendants 750CX, 750FX, 750GX.
 *
 * Four counters, MMCR0 and MMCR1, laid out as on the 604e. User mode can
 * read every counter through UPMC1-UPMC4, so the fast read path works.
 * Overflow interrupts only where errata allow them (detect.c): 750FX
 * from DD2.3 and 750GX, not the 740/750, 745/755 or 750CX/CXe.
 */
#include "ppc.h"

const struct perfctr_ppc_family perfctr_ppc750_family =
	PP_FAMILY("PowerPC 750", PERFCTR_PPC_750, 4, 2, PP_USER_PMCS);
