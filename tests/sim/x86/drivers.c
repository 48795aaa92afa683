// SPDX-License-Identifier: GPL-2.0-only
/*
 * Every x86 driver source, built against the simulated registers:
 * arch/x86/perfctr/regs.h's accessors lead to model.c here. Keep in step
 * with x86-drivers in Kbuild: a new family costs one line in each.
 */
#define PERFCTR_SIM 1

#include "../../../arch/x86/perfctr/core.c"
#include "../../../arch/x86/perfctr/detect.c"
#include "../../../arch/x86/perfctr/evntsel.c"
#include "../../../arch/x86/perfctr/irq.c"
#include "../../../arch/x86/perfctr/generic.c"
#include "../../../arch/x86/perfctr/p5.c"
#include "../../../arch/x86/perfctr/p6.c"
#include "../../../arch/x86/perfctr/k7.c"
#include "../../../arch/x86/perfctr/c3.c"
#include "../../../arch/x86/perfctr/p4.c"
#include "../../../arch/x86/perfctr/perfmon.c"
#include "../../../arch/x86/perfctr/ibs.c"
#include "../../../arch/x86/perfctr/arch.c"
