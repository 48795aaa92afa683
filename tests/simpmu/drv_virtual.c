// SPDX-License-Identifier: GPL-2.0-only
/* drivers/perfctr/virtual.c for the simulated-PMU module. */
#include "../../drivers/perfctr/virtual.c"
