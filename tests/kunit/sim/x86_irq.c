// SPDX-License-Identifier: GPL-2.0-only
/* arch/x86/perfctr/irq.c, built against the simulated register file. */
#define PERFCTR_SIM 1
#include "../../../arch/x86/perfctr/irq.c"
