// SPDX-License-Identifier: GPL-2.0-only
/* arch/powerpc/perfctr/ppc604.c for the simulated-PMU module. */
#define PERFCTR_SIM 1
#include "../../arch/powerpc/perfctr/ppc604.c"
