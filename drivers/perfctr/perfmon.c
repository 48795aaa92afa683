// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: /dev/perfmon, FreeBSD's perfmon(4) interface
 * (Documentation/perfctr/perfmon.rst).
 *
 * FreeBSD's device drove the counters of the one CPU of its day. Here an
 * open file's two counters are virtual, like /proc/perfctr/<tid>/'s: they
 * count the thread that opened the file, wherever it runs, and are that
 * thread's set of counters (control.c), marked as the file's. Each start,
 * stop or reset writes the set a new control with the running counters,
 * taking the old control's sums into the file's per-counter bases, so
 * every counter starts, stops and resets on its own.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/compat.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <perfctr/cpu.h>
#include <perfctr/perfmon.h>
#include "internal.h"

struct pmon_ctr {
	u32 word;		/* struct pmc's pmc_val, as set up */
	bool setup;
	bool running;
	u64 base;		/* the count before the set's control */
};

struct pmon_file {
	struct mutex lock;		/* serialises the file's requests */
	struct task_struct *task;	/* the opener, referenced */
	u64 tag;			/* marks its set: unique, never reused */
	bool live;			/* it has a set of ours */
	struct pmon_ctr ctr[NPMC];
	unsigned int slot[NPMC];	/* a running counter's index in the set */
};

static atomic64_t pmon_tags = ATOMIC64_INIT(0);

/*
 * FreeBSD's struct pmc, name for name: the setup word at byte 4 of 8, its
 * bytes in PerfEvtSel order; and so PMIOSETUP's and PMIOGET's numbers.
 */
static_assert(sizeof(struct pmc) == 8);
static_assert(offsetof(struct pmc, pmc_pmcu.pmcu_val) == 4);
static_assert(offsetof(struct pmc, pmc_pmcu.pmcu_s.pmcus_event) == 4);
static_assert(offsetof(struct pmc, pmc_pmcu.pmcu_s.pmcus_mask) == 7);
static_assert(_IOC_SIZE(PMIOSETUP) == 8 && _IOC_NR(PMIOSETUP) == 1 &&
	      _IOC_TYPE(PMIOSETUP) == '5' && _IOC_DIR(PMIOSETUP) == _IOC_WRITE);
static_assert(_IOC_SIZE(PMIOGET) == 8 && _IOC_NR(PMIOGET) == 7 &&
	      _IOC_DIR(PMIOGET) == (_IOC_READ | _IOC_WRITE));

static int pmon_open(struct inode *inode, struct file *file)
{
	struct pmon_file *pm = kzalloc(sizeof(*pm), GFP_KERNEL_ACCOUNT);

	if (!pm)
		return -ENOMEM;
	mutex_init(&pm->lock);
	pm->tag = atomic64_inc_return(&pmon_tags);
	get_task_struct(current);
	pm->task = current;
	file->private_data = pm;
	return 0;
}

static int pmon_release(struct inode *inode, struct file *file)
{
	struct pmon_file *pm = file->private_data;

	/* Even if a reader lost sight of it: an exec may have been deciding. */
	vperfctr_tagged_drop(pm->task, pm->tag);
	put_task_struct(pm->task);
	kfree(pm);
	return 0;
}

static unsigned int pmon_running(const struct pmon_file *pm)
{
	unsigned int i, run = 0;

	for (i = 0; i < NPMC; i++)
		if (pm->ctr[i].running)
			run |= BIT(i);
	return run;
}

/* The set is gone (an exec dropped it): the counts since are lost. */
static void pmon_lost(struct pmon_file *pm)
{
	unsigned int i;

	pm->live = false;
	for (i = 0; i < NPMC; i++)
		pm->ctr[i].running = false;
}

/* Counter @i's count, with @sums the set's. */
static u64 pmon_value(const struct pmon_file *pm, unsigned int i,
		      const struct perfctr_sum_ctrs *sums)
{
	const struct pmon_ctr *c = &pm->ctr[i];

	return c->base + (c->running ? sums->pmc[pm->slot[i]] : 0);
}

/*
 * A validated state for the counters of @run (their words in @words):
 * -EOPNOTSUPP without the P5 or P6 layout, -EINVAL for a setup the
 * driver refuses, and the policy's error for one it forbids.
 */
static struct perfctr_cpu_state *pmon_state(const u32 *words,
					    unsigned int run,
					    unsigned int *slot)
{
	struct perfctr_cpu_state *st = kzalloc(sizeof(*st), GFP_KERNEL);
	int err;

	if (!st)
		return ERR_PTR(-ENOMEM);
	err = perfctr_cpu_perfmon_control(&st->control, words, run, slot);
	/*
	 * Only the opener changes its set: no TSC for one that forbade
	 * itself RDTSC, but its counters still count.
	 */
	if (perfctr_task_notsc(current))
		st->control.tsc_on = 0;
	if (!err)
		err = perfctr_cpu_update_control(st, false);
	if (!err)
		err = perfctr_may_count(st);
	if (err) {
		kfree(st);
		return ERR_PTR(err);
	}
	return st;
}

/*
 * The set counts the counters of @run from now on; those running until
 * now keep their counts in their bases (@zero: but counter @zero's is
 * dropped, a reset). All of it, or nothing on error.
 */
static int pmon_apply(struct pmon_file *pm, unsigned int run, int zero)
{
	struct perfctr_sum_ctrs old;
	struct perfctr_cpu_state *st;
	unsigned int i, slot[NPMC];
	u32 words[NPMC];
	int err;

	for (i = 0; i < NPMC; i++)
		words[i] = pm->ctr[i].word;
	st = pmon_state(words, run, slot);
	if (IS_ERR(st))
		return PTR_ERR(st);
	err = vperfctr_tagged_install(pm->task, pm->tag, pm->live, st, &old);
	kfree(st);
	if (err == -ESRCH && pm->live)
		pmon_lost(pm);
	if (err)
		return err;
	for (i = 0; i < NPMC; i++) {
		pm->ctr[i].base = (int)i == zero ? 0 : pmon_value(pm, i, &old);
		pm->ctr[i].running = run & BIT(i);
	}
	memcpy(pm->slot, slot, sizeof(slot));
	pm->live = true;
	return 0;
}

/* Counter @num of @pm, set up, for a request that needs one. */
static struct pmon_ctr *pmon_ctr(struct pmon_file *pm, int num)
{
	if (num < 0 || num >= NPMC)
		return ERR_PTR(-EINVAL);
	if (!pm->ctr[num].setup)
		return ERR_PTR(-ENXIO);
	return &pm->ctr[num];
}

/*
 * A setup is checked on its own now, so that a bad one fails here;
 * the counter is then stopped, at zero, until PMIOSTART.
 */
static int pmon_setup(struct pmon_file *pm, const struct pmc *arg)
{
	struct perfctr_cpu_state *st;
	unsigned int slot[NPMC];
	u32 words[NPMC] = {};
	int num = arg->pmc_num;

	if (num < 0 || num >= NPMC)
		return -EINVAL;
	if (pm->ctr[num].running)
		return -EBUSY;
	words[num] = arg->pmc_pmcu.pmcu_val;
	st = pmon_state(words, BIT(num), slot);
	if (IS_ERR(st))
		return PTR_ERR(st);
	kfree(st);
	pm->ctr[num].word = arg->pmc_pmcu.pmcu_val;
	pm->ctr[num].setup = true;
	pm->ctr[num].base = 0;
	return 0;
}

static int pmon_get(struct pmon_file *pm, struct pmc *arg)
{
	struct pmon_ctr *c = pmon_ctr(pm, arg->pmc_num);

	if (IS_ERR(c))
		return PTR_ERR(c);
	arg->pmc_pmcu.pmcu_val = c->word;
	return 0;
}

/* PMIOSTART, PMIOSTOP and PMIORESET. */
static int pmon_change(struct pmon_file *pm, unsigned int cmd, int num)
{
	struct pmon_ctr *c = pmon_ctr(pm, num);
	unsigned int run = pmon_running(pm);

	if (IS_ERR(c))
		return PTR_ERR(c);
	switch (cmd) {
	case PMIOSTART:
		if (c->running)
			return -EBUSY;
		return pmon_apply(pm, run | BIT(num), -1);
	case PMIOSTOP:
		if (!c->running)
			return -EBUSY;
		return pmon_apply(pm, run & ~BIT(num), -1);
	default:		/* PMIORESET: a stopped counter needs no set */
		if (!c->running) {
			c->base = 0;
			return 0;
		}
		return pmon_apply(pm, run, num);
	}
}

static int pmon_read(struct pmon_file *pm, int num, s64 *value)
{
	struct pmon_ctr *c = pmon_ctr(pm, num);
	struct perfctr_sum_ctrs sums;
	int err;

	if (IS_ERR(c))
		return PTR_ERR(c);
	if (!c->running) {
		*value = c->base;
		return 0;
	}
	err = vperfctr_tagged_read(pm->task, pm->tag, &sums);
	if (err) {
		pmon_lost(pm);
		return err;
	}
	*value = pmon_value(pm, num, &sums);
	return 0;
}

/*
 * The TSC, and its rate in MHz: a hint, as FreeBSD's was. Not for a
 * thread that forbade itself RDTSC (prctl PR_SET_TSC): EPERM; nor on a
 * CPU without a TSC: EOPNOTSUPP.
 */
static int pmon_tstamp(struct pmc_tstamp *ts)
{
	unsigned int mult = perfctr_info.tsc_to_cpu_mult ?: 1;
	u64 tsc;
	int err;

	if (perfctr_task_notsc(current))
		return -EPERM;
	err = perfctr_cpu_read_tsc(&tsc);
	if (err)
		return err;
	memset(ts, 0, sizeof(*ts));	/* the padding, on 64-bit */
	ts->pmct_rate = perfctr_info.cpu_khz / mult / 1000;
	ts->pmct_value = tsc;
	return 0;
}

/*
 * Who may do what: the opener anything; another thread (of its process,
 * or one the file was passed to) may only read, as it may read the
 * opener's /proc/perfctr/<tid>/ files.
 */
static int pmon_may(struct pmon_file *pm, unsigned int cmd)
{
	struct task_struct *task = pm->task;

	if (READ_ONCE(task->flags) & PF_EXITING)
		return -ESRCH;
	if (task == current)
		return 0;
	if (cmd != PMIOREAD && cmd != PMIOGET)
		return -EPERM;
	return perfctr_may_read_task(task) ? 0 : -EACCES;
}

static long pmon_locked(struct pmon_file *pm, unsigned int cmd,
			void __user *uarg)
{
	struct pmc pmc;
	int num, err;

	switch (cmd) {
	case PMIOSETUP:
		if (copy_from_user(&pmc, uarg, sizeof(pmc)))
			return -EFAULT;
		return pmon_setup(pm, &pmc);
	case PMIOGET:
		if (copy_from_user(&pmc, uarg, sizeof(pmc)))
			return -EFAULT;
		err = pmon_get(pm, &pmc);
		if (!err && copy_to_user(uarg, &pmc, sizeof(pmc)))
			err = -EFAULT;
		return err;
	case PMIOSTART:
	case PMIOSTOP:
	case PMIORESET:
		if (get_user(num, (int __user *)uarg))
			return -EFAULT;
		return pmon_change(pm, cmd, num);
	}
	return -ENOTTY;
}

/* PMIOREAD's two layouts: native, and a 32-bit program's on x86_64. */
static long pmon_do_read(struct pmon_file *pm, int __user *unum,
			 s64 __user *uvalue)
{
	s64 value;
	int num, err;

	if (get_user(num, unum))
		return -EFAULT;
	mutex_lock(&pm->lock);
	err = pmon_read(pm, num, &value);
	mutex_unlock(&pm->lock);
	if (!err && put_user(value, uvalue))
		err = -EFAULT;
	return err;
}

static long pmon_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct pmon_file *pm = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct pmc_data __user *ud = uarg;
	struct pmc_tstamp ts;
	long err;

	switch (cmd) {
	case PMIOTSTAMP:
		err = pmon_tstamp(&ts);
		if (!err && copy_to_user(uarg, &ts, sizeof(ts)))
			err = -EFAULT;
		return err;
	case PMIOREAD:
		err = pmon_may(pm, cmd);
		return err ?: pmon_do_read(pm, &ud->pmcd_num, &ud->pmcd_value);
	case PMIOSETUP:
	case PMIOGET:
	case PMIOSTART:
	case PMIOSTOP:
	case PMIORESET:
		break;
	default:
		return -ENOTTY;
	}
	err = pmon_may(pm, cmd);
	if (err)
		return err;
	mutex_lock(&pm->lock);
	err = pmon_locked(pm, cmd, uarg);
	mutex_unlock(&pm->lock);
	return err;
}

#ifdef CONFIG_COMPAT
/*
 * A 32-bit x86 program's pmc_data and pmc_tstamp are 12 bytes (its
 * 64-bit members 4-byte aligned), so their ioctl numbers differ from a
 * 64-bit program's; struct pmc and int are the same for both.
 */
struct pmc_data32 {
	s32 pmcd_num;
	compat_s64 pmcd_value;
};

struct pmc_tstamp32 {
	s32 pmct_rate;
	compat_s64 pmct_value;
};

#define PMIOREAD32	_IOWR('5', 4, struct pmc_data32)
#define PMIOTSTAMP32	_IOR('5', 6, struct pmc_tstamp32)

static long pmon_compat_ioctl(struct file *file, unsigned int cmd,
			      unsigned long arg)
{
	struct pmon_file *pm = file->private_data;
	void __user *uarg = compat_ptr(arg);
	struct pmc_data32 __user *ud = uarg;
	struct pmc_tstamp32 ts32;
	struct pmc_tstamp ts;
	long err;

	switch (cmd) {
	case PMIOTSTAMP32:
		err = pmon_tstamp(&ts);
		if (err)
			return err;
		ts32.pmct_rate = ts.pmct_rate;
		ts32.pmct_value = ts.pmct_value;
		return copy_to_user(uarg, &ts32, sizeof(ts32)) ? -EFAULT : 0;
	case PMIOREAD32:
		err = pmon_may(pm, PMIOREAD);
		return err ?: pmon_do_read(pm, &ud->pmcd_num, &ud->pmcd_value);
	case PMIOREAD:		/* the 64-bit layout: x32's, not i386's */
	case PMIOTSTAMP:
		if (!in_x32_syscall())
			return -ENOTTY;
		break;
	}
	return pmon_ioctl(file, cmd, (unsigned long)uarg);
}
#endif

static const struct file_operations pmon_fops = {
	.owner = THIS_MODULE,
	.open = pmon_open,
	.release = pmon_release,
	.unlocked_ioctl = pmon_ioctl,
#ifdef CONFIG_COMPAT
	.compat_ioctl = pmon_compat_ioctl,
#endif
	.llseek = noop_llseek,
};

/* Everyone may open it: the privilege policy judges each setup. */
static struct miscdevice pmon_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "perfmon",
	.fops = &pmon_fops,
	.mode = 0666,
};

int perfctr_perfmon_init(void)
{
	return misc_register(&pmon_dev);
}

void perfctr_perfmon_exit(void)
{
	misc_deregister(&pmon_dev);
}
