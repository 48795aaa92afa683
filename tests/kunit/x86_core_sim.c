// SPDX-License-Identifier: GPL-2.0-only
/* The common x86 code, built against the simulated register file. */
#define PERFCTR_SIM 1
#include "../../arch/x86/perfctr/core.c"
