// SPDX-License-Identifier: GPL-2.0-only
/* drivers/perfctr/fs.c for the simulated-PMU module. */
#include "../../drivers/perfctr/fs.c"
