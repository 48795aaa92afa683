/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The driver sources the fast suite compiles, as one translation unit:
 * the per-thread sets, their files and final counts, and the policy they
 * ask (Kbuild's vp-parts, and policy.c), and a thread's IBS setups
 * (ibs.c), whose hardware half is faked in lowlevel.c.
 */
#include "../../drivers/perfctr/set.c"
#include "../../drivers/perfctr/control.c"
#include "../../drivers/perfctr/inherit.c"
#include "../../drivers/perfctr/task.c"
#include "../../drivers/perfctr/vfiles.c"
#include "../../drivers/perfctr/watch.c"
#include "../../drivers/perfctr/tick.c"
#include "../../drivers/perfctr/policy.c"
#include "../../drivers/perfctr/ibs.c"
