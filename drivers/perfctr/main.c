// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: module entry points.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/module.h>

#include <perfctr/cpu.h>
#include "internal.h"

static int __init perfctr_init(void)
{
	int err;

	err = perfctr_cpu_init();
	if (err) {
		pr_err("no supported CPU found (%d)\n", err);
		return err;
	}
	err = perfctr_global_init();
	if (err)
		goto out_cpu;
	err = vperfctr_init();
	if (err)
		goto out_global;
	/* Last: no request can arrive before everything is ready. */
	err = perfctr_fs_init();
	if (err)
		goto out_virtual;
	err = perfctr_perfmon_init();
	if (err)
		goto out_fs;

	pr_info("%s, %u counters%s%s\n", perfctr_info.name, perfctr_info.nrctrs,
		perfctr_info.fallback_reason ? "; TSC only: " : "",
		perfctr_info.fallback_reason ?: "");
	return 0;

out_fs:
	perfctr_fs_exit();
out_virtual:
	vperfctr_exit();
out_global:
	perfctr_global_exit();
out_cpu:
	perfctr_cpu_exit();
	return err;
}

static void __exit perfctr_exit(void)
{
	/* Files first: no request may arrive while the rest is torn down. */
	perfctr_perfmon_exit();
	perfctr_fs_exit();
	vperfctr_exit();
	perfctr_global_exit();
	perfctr_cpu_exit();
}

module_init(perfctr_init);
module_exit(perfctr_exit);

MODULE_DESCRIPTION("Per-thread and global hardware performance counters");
MODULE_LICENSE("GPL");
MODULE_VERSION(PERFCTR_VERSION);
