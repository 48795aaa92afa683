// SPDX-License-Identifier: GPL-2.0-only
/* drivers/perfctr/global.c for the simulated-PMU module. */
#include "../../drivers/perfctr/global.c"
