// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every powerpc driver source, built against the simulated registers:
 * arch/powerpc/perfctr/regs.h's accessors lead to model.c here. Keep in step
 * with ppc-drivers in Kbuild: a new family costs one line in each.
 */
#define PERFCTR_SIM 1

#include "../../../arch/powerpc/perfctr/core.c"
#include "../../../arch/powerpc/perfctr/detect.c"
#include "../../../arch/powerpc/perfctr/irq.c"
#include "../../../arch/powerpc/perfctr/generic.c"
#include "../../../arch/powerpc/perfctr/ppc604.c"
#include "../../../arch/powerpc/perfctr/ppc750.c"
#include "../../../arch/powerpc/perfctr/ppc74xx.c"
