// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: PowerPC 7400, 7410 and the 745x (7441/7451, 7445/7455,
 * 7447/7457, 7447A, 7448).
 *
 * MMCR2 adds THRESHMULT; the BAMR breakpoint mask is cleared at
 * reservation so no stale breakpoint event fires. The 7400 and 7410 have
 * four counters, the 745x six. FCECE and TRIGGER in MMCR0 make the
 * hardware rewrite MMCR0 by itself, which suspend picks up (core.c).
 */
#include "ppc.h"

const struct perfctr_ppc_family perfctr_ppc7400_family =
	PP_FAMILY("PowerPC 7400", PERFCTR_PPC_7400, 4, 3, PP_USER_PMCS);

const struct perfctr_ppc_family perfctr_ppc7450_family =
	PP_FAMILY("PowerPC 7450", PERFCTR_PPC_7450, 6, 3, PP_USER_PMCS);
