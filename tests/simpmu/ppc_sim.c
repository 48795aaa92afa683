// SPDX-License-Identifier: GPL-2.0-only
/* The simulated ppc32 CPU, live on every CPU, chosen by module parameter. */
#define PERFCTR_SIMPMU 1
#include "../sim/ppc_sim.c"
