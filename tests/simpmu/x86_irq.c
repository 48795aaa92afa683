// SPDX-License-Identifier: GPL-2.0-only
/* arch/x86/perfctr/irq.c for the simulated-PMU module. */
#define PERFCTR_SIM 1
#include "../../arch/x86/perfctr/irq.c"
