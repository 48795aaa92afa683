// SPDX-License-Identifier: GPL-2.0-only
/* perfctr_simpmu.ko: the powerpc drivers on the simulated CPU, live on every CPU. */
#include "../sim/powerpc/drivers.c"
#include "../sim/powerpc/model.c"
#include "../sim/powerpc/live.c"
#include "../sim/live.c"
