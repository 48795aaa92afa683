// SPDX-License-Identifier: GPL-2.0-only
/* The simulated x86 CPU, live on every CPU, chosen by module parameter. */
#define PERFCTR_SIMPMU 1
#include "../sim/x86_sim.c"
