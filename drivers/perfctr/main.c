// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: module entry points and /proc/perfctr/info.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/fs.h>
#include <linux/module.h>
#include <linux/seq_file.h>

#include <perfctr/cpu.h>
#include "perfctr.h"

static void show_features(struct seq_file *m, unsigned int features)
{
	seq_puts(m, "features:");
	if (features & PERFCTR_FEATURE_RDPMC)
		seq_puts(m, " rdpmc");
	if (features & PERFCTR_FEATURE_RDTSC)
		seq_puts(m, " rdtsc");
	if (features & PERFCTR_FEATURE_PCINT)
		seq_puts(m, " pcint");
	seq_putc(m, '\n');
}

static int info_show(struct seq_file *m, void *v)
{
	const char *holder = perfctr_cpu_reserved_by();

	seq_printf(m, "version: %s\n", PERFCTR_VERSION);
	seq_printf(m, "abi_version: 0x%04x\n", PERFCTR_ABI_VERSION);
	seq_printf(m, "cpu_type: %s\n", perfctr_info.name);
	seq_printf(m, "cpu_family_id: %u\n", perfctr_info.family_id);
	show_features(m, perfctr_cpu_features());
	seq_printf(m, "cpu_khz: %u\n", perfctr_info.cpu_khz);
	seq_printf(m, "tsc_to_cpu_mult: %u\n", perfctr_info.tsc_to_cpu_mult);
	seq_printf(m, "nrctrs: %u\n", perfctr_info.nrctrs);
	seq_printf(m, "cpus_forbidden: %*pbl\n",
		   cpumask_pr_args(&perfctr_cpus_forbidden_mask));
	seq_printf(m, "fallback: %s\n",
		   perfctr_info.fallback_reason ?: "none");
	seq_printf(m, "reserved_by: %s\n", holder ?: "none");
	return 0;
}

static int info_open(struct inode *inode, struct file *file)
{
	return single_open(file, info_show, NULL);
}

const struct file_operations perfctr_info_fops = {
	.owner = THIS_MODULE,
	.open = info_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
};

static int __init perfctr_init(void)
{
	int err;

	err = perfctr_simpmu_init();
	if (err)
		return err;
	err = perfctr_cpu_init();
	if (err) {
		pr_err("no supported CPU found (%d)\n", err);
		goto out_sim;
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

	pr_info("%s, %u counters%s%s\n", perfctr_info.name, perfctr_info.nrctrs,
		perfctr_info.fallback_reason ? "; TSC only: " : "",
		perfctr_info.fallback_reason ?: "");
	return 0;

out_virtual:
	vperfctr_exit();
out_global:
	perfctr_global_exit();
out_cpu:
	perfctr_cpu_exit();
out_sim:
	perfctr_simpmu_exit();
	return err;
}

static void __exit perfctr_exit(void)
{
	/* Files first: no request may arrive while the rest is torn down. */
	perfctr_fs_exit();
	vperfctr_exit();
	perfctr_global_exit();
	perfctr_cpu_exit();
	perfctr_simpmu_exit();
}

module_init(perfctr_init);
module_exit(perfctr_exit);

MODULE_DESCRIPTION("Per-thread and global hardware performance counters");
MODULE_LICENSE("GPL");
MODULE_VERSION(PERFCTR_VERSION);
