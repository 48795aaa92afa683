// SPDX-License-Identifier: GPL-2.0-only
/* perfctr_simpmu.ko: the x86 drivers on the simulated CPU, live on every CPU. */
#include "../sim/x86/drivers.c"
#include "../sim/x86/model.c"
#include "../sim/x86/live.c"
#include "../sim/live.c"
