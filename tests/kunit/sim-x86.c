// SPDX-License-Identifier: GPL-2.0-only
/* perfctr_test.ko: the x86 drivers on the simulated CPU, as KUnit drives it. */
#include "../../drivers/perfctr/cpu.c"
#include "../sim/x86/drivers.c"
#include "../sim/x86/model.c"
#include "../sim/x86/kunit.c"
