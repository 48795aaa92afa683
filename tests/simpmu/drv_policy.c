// SPDX-License-Identifier: GPL-2.0-only
/* drivers/perfctr/policy.c for the simulated-PMU module. */
#include "../../drivers/perfctr/policy.c"
