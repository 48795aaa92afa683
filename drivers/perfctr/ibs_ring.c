// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: /proc/perfctr/<tid>/ibs_ring, the file of a thread's IBS sample
 * ring (Documentation/perfctr/amd.rst). An open file holds the ring (ibs.c
 * keeps its samples) and its thread (vfiles.c says who may use it), so
 * the last samples stay readable after the setup or the thread is gone.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <perfctr/compat.h>
#include <perfctr/ibs.h>

#include "internal.h"

/* An open ibs_ring: the ring, and the file's hold on its thread. */
struct ibs_ring_file {
	struct vp_ibs *ib;
	struct vp_file *f;
};

/*
 * ibs_ring: whoever may read the thread's counters may open it; every
 * request asks again (vp_file_may()): so a ring the thread's own process
 * opened may be handed on while the thread stays as it was.
 */
static int ibs_ring_may(struct file *file, bool wait)
{
	struct ibs_ring_file *rf = file->private_data;

	return vp_file_may(rf->f, wait);
}

static int ibs_ring_open(struct inode *inode, struct file *file)
{
	struct task_struct *task = get_pid_task(inode->i_private, PIDTYPE_PID);
	struct ibs_ring_file *rf;
	int err = -ENOMEM;

	if (!task)
		return -ESRCH;
	rf = kzalloc(sizeof(*rf), GFP_KERNEL_ACCOUNT);
	if (!rf)
		goto out;
	rf->f = vp_file_open(task);
	err = PTR_ERR_OR_ZERO(rf->f);
	if (err)
		goto free;
	rf->ib = vperfctr_ibs_get(task);
	err = PTR_ERR_OR_ZERO(rf->ib);
	if (!err) {
		file->private_data = rf;
		goto out;
	}
	vp_file_close(rf->f);
free:
	kfree(rf);
out:
	put_task_struct(task);
	return err;
}

static int ibs_ring_release(struct inode *inode, struct file *file)
{
	struct ibs_ring_file *rf = file->private_data;

	vp_ibs_put(rf->ib);
	vp_file_close(rf->f);
	kfree(rf);
	return 0;
}

static ssize_t ibs_ring_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct ibs_ring_file *rf = file->private_data;
	int err;

	if (count < sizeof(struct perfctr_ibs_sample))
		return -EINVAL;
	err = ibs_ring_may(file, true);
	if (err)
		return err;
	return vp_ibs_ring_read(rf->ib, buf, count);
}

static ssize_t ibs_ring_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct ibs_ring_file *rf = file->private_data;
	u64 tail;
	int err;

	if (*ppos != 0 || count != sizeof(tail))
		return -EINVAL;
	if (copy_from_user(&tail, buf, sizeof(tail)))
		return -EFAULT;
	err = ibs_ring_may(file, true);
	if (err)
		return err;
	err = vp_ibs_ring_set_tail(rf->ib, tail);
	return err ?: count;
}

/* The header page and every data page, read-only, from offset 0. */
static int ibs_ring_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct ibs_ring_file *rf = file->private_data;
	unsigned long size = vp_ibs_ring_size(rf->ib);
	int err;

	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != size)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	err = ibs_ring_may(file, false);
	if (err)
		return err;
	perfctr_vma_read_only(vma);
	return vp_ibs_ring_map(rf->ib, vma);
}

const struct file_operations vperfctr_ibs_ring_fops = {
	.owner = THIS_MODULE,
	.open = ibs_ring_open,
	.release = ibs_ring_release,
	.read = ibs_ring_read,
	.write = ibs_ring_write,
	.mmap = ibs_ring_mmap,
	.llseek = noop_llseek,
};
