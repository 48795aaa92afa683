// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_simpmu.ko: the whole driver, built against the simulation
 * (its x86.c or powerpc.c), which main.c starts with perfctr_simpmu_init().
 */
#define PERFCTR_SIM 1

#include "../../drivers/perfctr/main.c"
#include "../../drivers/perfctr/global.c"
#include "../../drivers/perfctr/fs.c"
#include "../../drivers/perfctr/virtual.c"
#include "../../drivers/perfctr/policy.c"
