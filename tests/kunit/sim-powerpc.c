// SPDX-License-Identifier: GPL-2.0-only
/* perfctr_test.ko: the powerpc drivers on the simulated CPU, as KUnit drives it. */
#include "../../drivers/perfctr/cpu.c"
#include "../sim/powerpc/drivers.c"
#include "../sim/powerpc/model.c"
#include "../sim/powerpc/kunit.c"
