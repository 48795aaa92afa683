// SPDX-License-Identifier: GPL-2.0-only
/* drivers/perfctr/main.c for the simulated-PMU module. */
#define PERFCTR_SIM 1
#include "../../drivers/perfctr/main.c"
