// SPDX-License-Identifier: GPL-2.0-only
/* arch/powerpc/perfctr/generic.c, built against the simulated register file. */
#define PERFCTR_SIM 1
#include "../../../arch/powerpc/perfctr/generic.c"
