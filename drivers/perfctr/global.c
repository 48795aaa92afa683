// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: global-mode counters, /proc/perfctr/global.
 *
 * One control for every CPU, counting whatever runs there. Writing a
 * control (re)starts counting with zeroed sums; writing an all-zero
 * control stops. Reading returns one struct perfctr_sum_ctrs per CPU id,
 * sampled at the time of the read. Open needs CAP_PERFMON (or
 * CAP_SYS_ADMIN), at every perfctr.paranoid level: the file is 0666 and
 * this check is the only one.
 *
 * While running, global mode holds the hardware reservation, so it and
 * per-thread counters exclude each other with a "busy" error.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cred.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>

#include <perfctr/cpu.h>
#include "internal.h"

const char *const perfctr_global_service = "global-mode perfctr";

/*
 * Only 32 bits of a counter are read: sample before any can wrap. 50 ms
 * covers counts of up to 16 events per cycle at 5 GHz.
 */
#define GLOBAL_SAMPLE_NS	(50 * NSEC_PER_MSEC)

struct global_cpu {
	struct perfctr_cpu_state state;
	struct hrtimer timer;
	bool active;		/* only touched on its own CPU, irqs off */
};

static struct global_cpu __percpu *global_cpus;
static DEFINE_MUTEX(global_lock);
/* Written under cpus_read_lock() and global_lock; hotplug reads it. */
static bool global_running;
static kuid_t global_uid;		/* who started it */
static int global_hp_state;

static void copy_sums(struct perfctr_sum_ctrs *sums,
		      const struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	memset(sums, 0, sizeof(*sums));
	sums->tsc = state->tsc_sum;
	for (i = 0; i < nrctrs; i++)
		sums->pmc[i] = state->pmc[i].sum;
}

static enum hrtimer_restart global_tick(struct hrtimer *timer)
{
	struct global_cpu *g = container_of(timer, struct global_cpu, timer);

	if (!g->active)
		return HRTIMER_NORESTART;
	perfctr_cpu_sample(&g->state);
	hrtimer_forward_now(timer, ns_to_ktime(GLOBAL_SAMPLE_NS));
	return HRTIMER_RESTART;
}

/* The per-CPU operations run on their CPU with interrupts off. */
static void global_start_cpu(void *unused)
{
	struct global_cpu *g = this_cpu_ptr(global_cpus);

	/* HT thread 1 shares thread 0's registers; thread 0 counts both. */
	if (cpumask_test_cpu(smp_processor_id(), &perfctr_cpus_forbidden_mask))
		return;
	perfctr_cpu_resume(&g->state);
	g->active = true;
	hrtimer_start(&g->timer, ns_to_ktime(GLOBAL_SAMPLE_NS),
		      PERFCTR_TIMER_MODE);
}

static void global_stop_cpu(void *unused)
{
	struct global_cpu *g = this_cpu_ptr(global_cpus);

	if (!g->active)
		return;
	g->active = false;
	/* The pinned timer cannot be running: it fires only here. */
	hrtimer_try_to_cancel(&g->timer);
	perfctr_cpu_suspend(&g->state);
}

static void global_sample_cpu(void *sums)
{
	struct global_cpu *g = this_cpu_ptr(global_cpus);

	if (g->active)
		perfctr_cpu_sample(&g->state);
	copy_sums(sums, &g->state);
}

static int global_cpu_online(unsigned int cpu)
{
	if (global_running) {
		local_irq_disable();
		global_start_cpu(NULL);
		local_irq_enable();
	}
	return 0;
}

static int global_cpu_offline(unsigned int cpu)
{
	local_irq_disable();
	global_stop_cpu(NULL);
	local_irq_enable();
	return 0;
}

/* Called with cpus_read_lock() and global_lock held. */
static int global_apply(const struct perfctr_cpu_state *tmpl)
{
	const char *holder;
	unsigned int cpu;

	if (tmpl && !global_running) {
		holder = perfctr_cpu_reserve(perfctr_global_service);
		if (holder)
			return -EBUSY;
		global_uid = current_uid();
	}
	if (global_running)
		on_each_cpu(global_stop_cpu, NULL, 1);
	if (!tmpl) {
		if (global_running)
			perfctr_cpu_release(perfctr_global_service);
		global_running = false;
		return 0;
	}
	for_each_possible_cpu(cpu)
		per_cpu_ptr(global_cpus, cpu)->state = *tmpl;
	on_each_cpu(global_start_cpu, NULL, 1);
	global_running = true;
	return 0;
}

static bool control_is_zero(const struct perfctr_cpu_control *control)
{
	return !memchr_inv(control, 0, sizeof(*control));
}

static ssize_t global_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	struct perfctr_cpu_state *tmpl;
	bool stop;
	int err;

	/* ABI 1.0's shorter control: what 1.1 added is 0. */
	if (count != sizeof(struct perfctr_cpu_control) &&
	    count != PERFCTR_CPU_CONTROL_SIZE_1_0)
		return -EINVAL;
	tmpl = kzalloc(sizeof(*tmpl), GFP_KERNEL);
	if (!tmpl)
		return -ENOMEM;
	err = -EFAULT;
	if (copy_from_user(&tmpl->control, buf, count))
		goto out;

	stop = control_is_zero(&tmpl->control);
	err = -EINVAL;	/* no overflow interrupts without a thread to signal */
	if (!stop && tmpl->control.nrictrs)
		goto out;
	/* Only the all-zero control stops: one that counts nothing is junk. */
	if (!stop && !tmpl->control.tsc_on && !tmpl->control.nractrs)
		goto out;
	if (!stop) {
		err = perfctr_cpu_update_control(tmpl, true);
		if (err)
			goto out;
	}

	/* Threads that just exited must not hold the hardware still. */
	if (!stop)
		vperfctr_settle();
	cpus_read_lock();
	mutex_lock(&global_lock);
	err = global_apply(stop ? NULL : tmpl);
	mutex_unlock(&global_lock);
	cpus_read_unlock();
out:
	kfree(tmpl);
	return err ? err : count;
}

static size_t snapshot_size(void)
{
	return nr_cpu_ids * sizeof(struct perfctr_sum_ctrs);
}

/* Called with cpus_read_lock() and global_lock held. */
static void global_snapshot(struct perfctr_sum_ctrs *snap)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		if (cpu_online(cpu))
			smp_call_function_single(cpu, global_sample_cpu,
						 &snap[cpu], 1);
		else
			copy_sums(&snap[cpu],
				  &per_cpu_ptr(global_cpus, cpu)->state);
	}
}

/* An open file's snapshot; reads of it, pread() too, take turns. */
struct global_file {
	struct mutex lock;		/* one reader of snap at a time */
	struct perfctr_sum_ctrs snap[];
};

/*
 * A read at offset 0 takes a new snapshot of every CPU; reads further on
 * continue the same snapshot, so a record never tears across reads. The
 * copy to user space, which may fault and sleep, holds none of the
 * driver's locks.
 */
static ssize_t global_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	struct global_file *gf = file->private_data;
	ssize_t ret;

	mutex_lock(&gf->lock);
	if (*ppos == 0) {
		cpus_read_lock();
		mutex_lock(&global_lock);
		global_snapshot(gf->snap);
		mutex_unlock(&global_lock);
		cpus_read_unlock();
	}
	ret = simple_read_from_buffer(buf, count, ppos, gf->snap,
				      snapshot_size());
	mutex_unlock(&gf->lock);
	return ret;
}

static int global_open(struct inode *inode, struct file *file)
{
	struct global_file *gf;

	if (!perfmon_capable())
		return -EACCES;
	gf = kvzalloc(sizeof(*gf) + snapshot_size(), GFP_KERNEL_ACCOUNT);
	if (!gf)
		return -ENOMEM;
	mutex_init(&gf->lock);
	file->private_data = gf;
	return 0;
}

static int global_release(struct inode *inode, struct file *file)
{
	struct global_file *gf = file->private_data;

	mutex_destroy(&gf->lock);
	kvfree(gf);
	return 0;
}

/* For /proc/perfctr/info, to CAP_PERFMON: " (uid N)". */
void perfctr_global_show_holder(struct seq_file *m)
{
	if (perfmon_capable())
		seq_printf(m, " (uid %u)",
			   from_kuid_munged(seq_user_ns(m), READ_ONCE(global_uid)));
}

const struct file_operations perfctr_global_fops = {
	.owner = THIS_MODULE,
	.open = global_open,
	.read = global_read,
	.write = global_write,
	.release = global_release,
	.llseek = default_llseek,
};

int perfctr_global_init(void)
{
	unsigned int cpu;
	int ret;

	global_cpus = alloc_percpu(struct global_cpu);
	if (!global_cpus)
		return -ENOMEM;
	for_each_possible_cpu(cpu)
		perfctr_timer_init(&per_cpu_ptr(global_cpus, cpu)->timer,
				   global_tick);
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "perfctr/global:online",
					global_cpu_online, global_cpu_offline);
	if (ret < 0)
		goto out_free;
	global_hp_state = ret;
	return 0;

out_free:
	free_percpu(global_cpus);
	return ret;
}

/* PRE: the file system is gone, so no writer can restart us. */
void perfctr_global_exit(void)
{
	unsigned int cpu;

	cpus_read_lock();
	mutex_lock(&global_lock);
	global_apply(NULL);
	mutex_unlock(&global_lock);
	cpus_read_unlock();
	cpuhp_remove_state_nocalls(global_hp_state);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(global_cpus, cpu)->timer);
	free_percpu(global_cpus);
}
