// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: /proc/perfctr/info (the driver and who holds the hardware)
 * and /proc/perfctr/reclaim (CAP_PERFMON takes it back from the sets).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/module.h>
#include <linux/seq_file.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <perfctr/cpu.h>
#include "internal.h"

static void show_features(struct seq_file *m, unsigned int features)
{
	seq_puts(m, "features:");
	if (features & PERFCTR_FEATURE_RDPMC)
		seq_puts(m, " rdpmc");
	if (features & PERFCTR_FEATURE_RDTSC)
		seq_puts(m, " rdtsc");
	if (features & PERFCTR_FEATURE_PCINT)
		seq_puts(m, " pcint");
	if (features & PERFCTR_FEATURE_WIDE_IRESET)
		seq_puts(m, " wide_ireset");
	seq_putc(m, '\n');
}

/* Who holds the counters: our sets and their users, global mode, the kernel. */
static void show_holder(struct seq_file *m)
{
	const char *holder = perfctr_cpu_reserved_by();

	/* Only CAP_PERFMON readers ask: others see the last answer. */
	if (!holder && perfctr_cpu_kernel_busy(perfmon_capable()))
		holder = perfctr_kernel_holder;
	seq_printf(m, "reserved_by: %s", holder ?: "none");
	if (holder == vperfctr_service)
		vperfctr_show_holders(m);
	else if (holder == perfctr_global_service)
		perfctr_global_show_holder(m);
	seq_putc(m, '\n');
}

static int info_show(struct seq_file *m, void *v)
{
	seq_printf(m, "version: %s\n", PERFCTR_VERSION);
	seq_printf(m, "abi_version: 0x%04x\n", PERFCTR_ABI_VERSION);
	seq_printf(m, "cpu_type: %s\n", perfctr_info.name);
	seq_printf(m, "cpuid: %s\n", perfctr_info.cpuid);
	seq_printf(m, "cpu_family_id: %u\n", perfctr_info.family_id);
	show_features(m, perfctr_cpu_features());
	seq_printf(m, "cpu_khz: %u\n", perfctr_info.cpu_khz);
	seq_printf(m, "tsc_to_cpu_mult: %u\n", perfctr_info.tsc_to_cpu_mult);
	seq_printf(m, "nrctrs: %u\n", perfctr_info.nrctrs);
	/* Hybrid CPUs: each core type, its CPUs and counters (x86.rst). */
	seq_printf(m, "core_types: %s\n", perfctr_info.core_types ?: "one");
	/* CPUID Fn8000_001B EAX (<perfctr/ibs.h>); 0: no IBS. */
	seq_printf(m, "ibs_caps: 0x%x\n", perfctr_cpu_ibs_caps());
	seq_printf(m, "cpus_forbidden: %*pbl\n",
		   cpumask_pr_args(&perfctr_cpus_forbidden_mask));
	seq_printf(m, "fallback: %s\n",
		   perfctr_info.fallback_reason ?: "none");
	seq_printf(m, "paranoid: %d\n", perfctr_paranoid());
	show_holder(m);
	seq_printf(m, "reclaim_hold: %d\n", vperfctr_held());
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

static int reclaim_open(struct inode *inode, struct file *file)
{
	return perfmon_capable() ? 0 : -EACCES;
}

/*
 * A write takes the hardware back from every virtual set that holds it;
 * "hold" also keeps them from taking it again, until "release".
 */
static ssize_t reclaim_write(struct file *file, const char __user *buf,
			     size_t count, loff_t *ppos)
{
	char word[16] = "";
	unsigned int n;

	if (copy_from_user(word, buf, min(count, sizeof(word) - 1)))
		return -EFAULT;
	strim(word);
	if (!strcmp(word, "release")) {
		vperfctr_hold(false);
		return count;
	}
	if (!strcmp(word, "hold"))
		vperfctr_hold(true);
	n = vperfctr_reclaim();
	if (n)
		pr_info("reclaim: counters taken back from %u thread%s\n", n,
			n == 1 ? "" : "s");
	return count;
}

const struct file_operations perfctr_reclaim_fops = {
	.owner = THIS_MODULE,
	.open = reclaim_open,
	.write = reclaim_write,
	.llseek = noop_llseek,
};
