// SPDX-License-Identifier: GPL-2.0-only
/*
 * Parameters of the simulated-PMU module common to both arches' models:
 * kernel_busy=1 makes the simulated kernel counter allocator refuse
 * perfctr, as perf_events or the NMI watchdog holding the counters would.
 */
#include <linux/kernel.h>
#include <linux/moduleparam.h>
#include <linux/sysfs.h>

#include "../sim/simpmu_param.h"

static int kernel_busy_set(const char *val, const struct kernel_param *kp)
{
	bool busy;
	int err = kstrtobool(val, &busy);

	if (!err)
		simpmu_set_kernel_busy(busy);
	return err;
}

static int kernel_busy_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", simpmu_kernel_busy());
}

static const struct kernel_param_ops kernel_busy_ops = {
	.set = kernel_busy_set,
	.get = kernel_busy_get,
};

module_param_cb(kernel_busy, &kernel_busy_ops, NULL, 0644);
MODULE_PARM_DESC(kernel_busy, "1: the kernel's counter allocator refuses perfctr");
