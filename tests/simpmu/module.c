// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_simpmu.ko: the whole driver, built against the simulation
 * (its x86.c or powerpc.c), which the arch brings up through regs.h's
 * hardware set-up hook (../sim/live.c: perfctr_sim_hw_setup()).
 */
#define PERFCTR_SIM 1

#include "../../drivers/perfctr/main.c"
#include "../../drivers/perfctr/info.c"
#include "../../drivers/perfctr/global.c"
#include "../../drivers/perfctr/fs.c"
#include "../../drivers/perfctr/set.c"
#include "../../drivers/perfctr/control.c"
#include "../../drivers/perfctr/inherit.c"
#include "../../drivers/perfctr/task.c"
#include "../../drivers/perfctr/vfiles.c"
#include "../../drivers/perfctr/watch.c"
#include "../../drivers/perfctr/tick.c"
#include "../../drivers/perfctr/policy.c"
#include "../../drivers/perfctr/cpu.c"
#include "../../drivers/perfctr/perfmon.c"
#include "../../drivers/perfctr/ibs.c"
#include "../../drivers/perfctr/ibs_ring.c"
