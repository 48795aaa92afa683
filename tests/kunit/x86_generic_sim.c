// SPDX-License-Identifier: GPL-2.0-only
/* The generic x86 driver, built against the simulated register file. */
#define PERFCTR_SIM 1
#include "../../arch/x86/perfctr/generic.c"
