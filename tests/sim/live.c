// SPDX-License-Identifier: GPL-2.0-only
/*
 * The arch-neutral frame of the live simulation (live.h): the user page
 * device, the per-CPU PMI timer and kernel_busy=, for both arches.
 */
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/smp.h>
#include <linux/sysfs.h>

#include <perfctr/compat.h>

#include "live.h"
#include "user/simpmu_user.h"
#include "../../drivers/perfctr/internal.h"

/*
 * kernel_busy=1 makes the simulated kernel counter allocator refuse
 * perfctr, as perf_events or the NMI watchdog holding the counters would.
 */
static int kernel_busy_set(const char *val, const struct kernel_param *kp)
{
	unsigned int cpu;
	bool busy;
	int err = kstrtobool(val, &busy);

	if (err)
		return err;
	for_each_possible_cpu(cpu)
		WRITE_ONCE(*sim_live_kernel_busy(cpu), busy);
	return 0;
}

static int kernel_busy_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(*sim_live_kernel_busy(raw_smp_processor_id())));
}

static const struct kernel_param_ops kernel_busy_ops = {
	.set = kernel_busy_set,
	.get = kernel_busy_get,
};

module_param_cb(kernel_busy, &kernel_busy_ops, NULL, 0644);
MODULE_PARM_DESC(kernel_busy, "1: the kernel's counter allocator refuses perfctr");

/*
 * User space reads the simulated counters from a page (simpmu_user.h),
 * as it would read real ones with RDPMC or from UPMCn.
 */
static struct simpmu_user_cpu *simpmu_user;

void sim_live_publish(void)
{
	unsigned int cpu = smp_processor_id();
	struct simpmu_user_cpu *e;

	if (!simpmu_user || cpu >= SIMPMU_USER_CPUS)
		return;
	e = &simpmu_user[cpu];
	WRITE_ONCE(e->seq, e->seq + 1);
	smp_wmb();		/* odd seq before the data */
	sim_live_fill(e);
	smp_wmb();		/* the data before the even seq */
	WRITE_ONCE(e->seq, e->seq + 1);
}

static int simpmu_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_pgoff || vma->vm_end - vma->vm_start > PAGE_SIZE)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	perfctr_vma_read_only(vma);
	return vm_insert_page(vma, vma->vm_start, virt_to_page(simpmu_user));
}

static const struct file_operations simpmu_fops = {
	.owner = THIS_MODULE,
	.mmap = simpmu_mmap,
};

static struct miscdevice simpmu_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "perfctr_simpmu",
	.fops = &simpmu_fops,
	.mode = 0444,
};

/*
 * The model notices an overflow only when the driver touches it, so
 * while PMIs are possible a 1 ms timer touches it and delivers the
 * interrupt, in hard interrupt context with interrupts off, as the
 * kernel would.
 */
static DEFINE_PER_CPU(struct hrtimer, simpmu_pmi_timer);
#define SIMPMU_PMI_PERIOD_NS	(1000 * 1000)

static enum hrtimer_restart simpmu_pmi_tick(struct hrtimer *timer)
{
	if (timer != this_cpu_ptr(&simpmu_pmi_timer) || !sim_live_pmi())
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(SIMPMU_PMI_PERIOD_NS));
	return HRTIMER_RESTART;
}

void sim_live_arm_pmi(void)
{
	struct hrtimer *t = this_cpu_ptr(&simpmu_pmi_timer);

	if (t->function && !hrtimer_active(t))
		hrtimer_start(t, ns_to_ktime(SIMPMU_PMI_PERIOD_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

/*
 * The regs.h seam's pc_hw_setup()/pp_hw_setup(): before the driver looks
 * at the CPU (perfctr_arch_init()).
 */
int perfctr_sim_hw_setup(void)
{
	unsigned int cpu;
	int err;

	sim_live_setup();
	simpmu_user = (void *)get_zeroed_page(GFP_KERNEL);
	if (!simpmu_user)
		return -ENOMEM;
	err = misc_register(&simpmu_dev);
	if (err) {
		free_page((unsigned long)simpmu_user);
		simpmu_user = NULL;
		return err;
	}
	for_each_possible_cpu(cpu) {
		struct hrtimer *t = per_cpu_ptr(&simpmu_pmi_timer, cpu);

		hrtimer_setup(t, simpmu_pmi_tick, CLOCK_MONOTONIC,
			      HRTIMER_MODE_REL_PINNED_HARD);
	}
	return 0;
}

/* After the driver let go of the hardware: no PMI can be armed. */
void perfctr_sim_hw_teardown(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_cancel(per_cpu_ptr(&simpmu_pmi_timer, cpu));
	misc_deregister(&simpmu_dev);
	free_page((unsigned long)simpmu_user);
	simpmu_user = NULL;
}
