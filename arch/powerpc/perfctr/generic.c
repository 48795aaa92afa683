// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr ppc32: generic driver for any PowerPC with a timebase. It
 * samples the timebase and nothing else, so it is also the fallback where
 * a known family's counters do not count (emulators).
 */
#include "ppc.h"

const struct perfctr_ppc_family perfctr_ppc_generic_family =
	PP_FAMILY("Generic PowerPC with timebase", PERFCTR_PPC_GENERIC, 0, 0,
		  PERFCTR_FEATURE_RDTSC);
