// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: the files of /proc/perfctr/<tid>/: control, sums, state, status,
 * command, children, tree and ibs. Every request checks again that the caller
 * may act on the thread; a file opened while the thread lived reads its
 * final counts after it exits (the thread's watch keeps its set).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/uaccess.h>

#include <perfctr/compat.h>
#include <perfctr/cpu.h>
#include <perfctr/ibs.h>
#include "internal.h"
#include "vperfctr.h"

/*
 * An open file of /proc/perfctr/<tid>/: its thread's watch, and the
 * thread as it was at the open (vp_file_may()).
 */
struct vp_file {
	struct vp_watch *w;
	kuid_t uid;			/* the opener's, charged for it */
	struct vp_creds creds;
	bool dumpable;
	bool own;			/* opened by the thread's own process */
};

/*
 * The thread's credentials and dumpability are taken before the
 * permission check: if they change in between, vp_file_may() refuses.
 */
struct vp_file *vp_file_open(struct task_struct *task)
{
	struct vp_file *f = kzalloc(sizeof(*f), GFP_KERNEL_ACCOUNT);
	int err = 0;

	if (!f)
		return ERR_PTR(-ENOMEM);
	vp_creds_take(&f->creds, task);
	f->dumpable = vp_task_dumpable(task);
	f->own = same_thread_group(task, current);
	if (task != current && !perfctr_may_read_task(task))
		err = -EACCES;
	f->uid = current_uid();
	if (!err)
		err = vp_files_charge(f->uid);
	if (!err) {
		f->w = vp_watch_get(task);
		err = PTR_ERR_OR_ZERO(f->w);
		if (err)
			vp_files_uncharge(f->uid);
	}
	if (!err)
		return f;
	kfree(f);
	return ERR_PTR(err);
}

void vp_file_close(struct vp_file *f)
{
	vp_watch_put(f->w);
	vp_files_uncharge(f->uid);
	kfree(f);
}

/* The thread has the credentials and the dumpability of the open. */
static bool vp_file_same(const struct vp_file *f, const struct vp_creds *c,
			 bool dumpable)
{
	return vp_creds_eq(&f->creds, c) && (!f->dumpable || dumpable);
}

/*
 * A live thread's file that its own process opened may be handed on
 * (perfex's child sends its IBS ring to perfex): its holder may use it
 * while the thread stays as it was at the open. A thread that changed
 * may have become someone the holder could not have asked for.
 */
static bool vp_file_handed(const struct vp_file *f, struct task_struct *task)
{
	struct vp_creds now;

	if (!f->own)
		return false;
	vp_creds_take(&now, task);
	return vp_file_same(f, &now, vp_task_dumpable(task));
}

static int vp_open(struct inode *inode, struct file *file)
{
	struct task_struct *task = get_pid_task(inode->i_private, PIDTYPE_PID);
	struct vp_file *f;

	if (!task)
		return -ESRCH;
	f = vp_file_open(task);
	put_task_struct(task);
	if (IS_ERR(f))
		return PTR_ERR(f);
	file->private_data = f;
	return 0;
}

static int vp_release(struct inode *inode, struct file *file)
{
	vp_file_close(file->private_data);
	return 0;
}

/*
 * The thread a request on @file is for: the one it was opened for, even
 * if its id went to another thread since (an exec from a non-leader
 * thread swaps ids). Permission is checked again on every request, not
 * only at open: the target may have run a setuid program since, or
 * changed its ids. -ESRCH once it is exiting.
 */
static struct task_struct *vp_file_task(struct file *file)
{
	struct vp_file *f = file->private_data;
	struct task_struct *task = f->w->task;

	if (READ_ONCE(task->flags) & PF_EXITING)
		return ERR_PTR(-ESRCH);
	/* Refused as its mm went: its final counts, if they are ours. */
	if (task != current && !perfctr_may_read_task(task))
		return ERR_PTR(READ_ONCE(task->flags) & PF_EXITING ?
			       -ESRCH : -EACCES);
	get_task_struct(task);
	return task;
}

static int vp_check_uctl(const struct vperfctr_control *uc)
{
	unsigned int i;

	if (uc->flags & ~VPERFCTR_CONTROL_FLAGS)
		return -EINVAL;
	/* A restriction of inheritance, meaningless without it. */
	if ((uc->flags & VPERFCTR_CONTROL_THREADS) &&
	    !(uc->flags & VPERFCTR_CONTROL_INHERIT))
		return -EINVAL;
	if (uc->preserve & ~(VPERFCTR_PRESERVE_TSC | GENMASK(PERFCTR_NR_PMCS - 1, 0)))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(uc->_reserved); i++)
		if (uc->_reserved[i])
			return -EINVAL;
	if (uc->si_signo && !valid_signal(uc->si_signo))
		return -EINVAL;
	if (uc->cpu_control.nrictrs && !uc->si_signo)
		return -EINVAL;		/* an overflow nobody hears of */
	/* Each member would get signals its program may not expect. */
	if (uc->cpu_control.nrictrs && (uc->flags & VPERFCTR_CONTROL_INHERIT))
		return -EINVAL;
	return 0;
}

static ssize_t vp_control_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	struct perfctr_cpu_state *new;
	struct vperfctr_control uc;
	struct vp_writer proc = {};
	struct vp_prep prep = {};
	struct task_struct *task;
	int err;

	/* ABI 1.0's shorter control: what 1.1 added is 0. */
	if (*ppos != 0 ||
	    (count != sizeof(uc) && count != VPERFCTR_CONTROL_SIZE_1_0))
		return -EINVAL;
	memset(&uc, 0, sizeof(uc));
	if (copy_from_user(&uc, buf, count))
		return -EFAULT;
	err = vp_check_uctl(&uc);
	if (err)
		return err;
	task = vp_file_task(file);
	if (IS_ERR(task))
		return PTR_ERR(task);
	err = vp_may_change(task);
	if (err)
		goto out_task;
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new) {
		err = -ENOMEM;
		goto out_task;
	}
	new->control = uc.cpu_control;
	err = perfctr_cpu_update_control(new, false);
	if (!err)
		err = perfctr_may_count_task(task, new);
	if (!err)
		err = vp_prep_alloc(&prep, &uc, true);
	if (!err) {
		mutex_lock(&vp_mutex);
		err = vp_set_control(task, new, &uc, &prep, &proc);
		mutex_unlock(&vp_mutex);
		vp_prep_free(&prep);
	}
	kfree(new);
out_task:
	put_task_struct(task);
	return err ?: count;
}

/* Under v->lock: one record of @v for a read() of its file. */
typedef void (*vp_fill_t)(struct vperfctr *v, void *rec);

static void vp_fill_control(struct vperfctr *v, void *rec)
{
	struct vperfctr_control *uc = rec;

	*uc = v->uctl;
	uc->cpu_control = v->page->cpu.control;
}

/* The thread of @w is exiting: its exit probe is a moment away. */
static int vp_wait_exit(struct vp_watch *w)
{
	/* done, then final and exit_creds: vp_watch_exit() */
	while (!smp_load_acquire(&w->done)) {
		if (fatal_signal_pending(current))
			return -EINTR;
		schedule_timeout_killable(1);
	}
	return 0;
}

/*
 * May the caller use @f now? While the thread lives: it is the caller,
 * or the caller may read it (perfctr_may_read_task()), or it handed @f
 * on (vp_file_handed()). Once it exits: it exited as it was at the open.
 * 0 or -EACCES; until the exit is recorded, -EINTR if a fatal signal
 * ends the wait, or -EAGAIN without @wait (under mmap_lock, which the
 * exiting thread may need: a thread sharing the caller's mm).
 */
int vp_file_may(struct vp_file *f, bool wait)
{
	struct task_struct *task = f->w->task;
	struct vp_watch *w = f->w;
	int err;

	if (!(READ_ONCE(task->flags) & PF_EXITING)) {
		if (task == current || perfctr_may_read_task(task) ||
		    vp_file_handed(f, task))
			return 0;
		/* Its mm may have gone just now: judge it as it exits. */
		if (!(READ_ONCE(task->flags) & PF_EXITING))
			return -EACCES;
	}
	if (!vp_tps_ok)
		return -EACCES;
	/* done, then exit_creds: vp_watch_exit() */
	if (!wait && !smp_load_acquire(&w->done))
		return -EAGAIN;
	err = vp_wait_exit(w);
	if (err)
		return err;
	return vp_file_same(f, &w->exit_creds, w->exit_dumpable) ? 0 : -EACCES;
}

/*
 * @file's thread is exiting: its final set, if it had one, as for a live
 * one. Not if its credentials changed since the open (a setuid program,
 * setuid()), nor if it made itself not dumpable: the open's permission
 * check no longer says anything.
 */
static int vp_fill_final(struct file *file, vp_fill_t fill, void *rec)
{
	struct vp_file *f = file->private_data;
	struct vp_watch *w = f->w;
	unsigned long flags;
	int err;

	if (!vp_tps_ok)			/* no exit probe to wait for */
		return -ESRCH;
	err = vp_wait_exit(w);
	if (err)
		return err;
	if (!vp_file_same(f, &w->exit_creds, w->exit_dumpable))
		return -ESRCH;
	if (!w->final)
		return 0;
	raw_spin_lock_irqsave(&w->final->lock, flags);
	fill(w->final, rec);
	raw_spin_unlock_irqrestore(&w->final->lock, flags);
	return 1;
}

/*
 * Calls @fill on the set of @file's thread, under its lock, if it has
 * one: 1 if it did, 0 if not, or an error. Never waits for a live
 * thread: another thread's sums are as of its last sample. After the
 * thread's exit, its final set (vp_fill_final()).
 */
static int vp_fill_from(struct file *file, vp_fill_t fill, void *rec)
{
	struct task_struct *task;
	struct vperfctr *v;
	unsigned long flags;

	task = vp_file_task(file);
	if (task == ERR_PTR(-ESRCH))
		return vp_fill_final(file, fill, rec);
	if (IS_ERR(task))
		return PTR_ERR(task);
	rcu_read_lock();
	v = vp_find(task);
	if (v) {
		raw_spin_lock_irqsave(&v->lock, flags);
		fill(v, rec);
		raw_spin_unlock_irqrestore(&v->lock, flags);
	}
	rcu_read_unlock();
	put_task_struct(task);
	return !!v;
}

/*
 * Reads return one whole record at offset 0, then end of file; zeroes
 * for a thread without counters.
 */
static ssize_t vp_read_record(struct file *file, char __user *buf,
			      size_t count, loff_t *ppos, size_t size,
			      vp_fill_t fill)
{
	union {
		struct vperfctr_control uc;
		struct perfctr_sum_ctrs sums;
		struct vperfctr_children ch;
		struct perfctr_ibs_control ibs;
	} rec = {};
	int err;

	if (*ppos >= size)
		return 0;
	if (*ppos != 0 || count < size)
		return -EINVAL;
	err = vp_fill_from(file, fill, &rec);
	if (err < 0)
		return err;
	/* ABI 1.0's size, of a control with 1.1's wide presets: no fit. */
	if (memchr_inv((char *)&rec + size, 0, sizeof(rec) - size))
		return -EOVERFLOW;
	if (copy_to_user(buf, &rec, size))
		return -EFAULT;
	*ppos += size;
	return size;
}

/* A buffer of ABI 1.0's size gets 1.0's part of the control. */
static ssize_t vp_control_read(struct file *file, char __user *buf,
			       size_t count, loff_t *ppos)
{
	size_t size = sizeof(struct vperfctr_control);

	if (count >= VPERFCTR_CONTROL_SIZE_1_0 && count < size)
		size = VPERFCTR_CONTROL_SIZE_1_0;
	return vp_read_record(file, buf, count, ppos, size, vp_fill_control);
}

static ssize_t vp_sums_read(struct file *file, char __user *buf, size_t count,
			    loff_t *ppos)
{
	return vp_read_record(file, buf, count, ppos,
			      sizeof(struct perfctr_sum_ctrs), vp_fill_sums);
}

/* A root's inherited total; zeroes for other sets. */
static void vp_fill_children(struct vperfctr *v, void *rec)
{
	struct vperfctr_children *ch = rec;

	if (!v->root)
		return;
	raw_spin_lock(&v->tree->lock);
	*ch = v->tree->ch;
	raw_spin_unlock(&v->tree->lock);
}

static ssize_t vp_children_read(struct file *file, char __user *buf,
				size_t count, loff_t *ppos)
{
	return vp_read_record(file, buf, count, ppos,
			      sizeof(struct vperfctr_children), vp_fill_children);
}

/* A root's tree, referenced; NULL for other sets. */
static void vp_fill_tree(struct vperfctr *v, void *rec)
{
	struct vp_tree **t = rec;

	if (!v->root)
		return;
	refcount_inc(&v->tree->refs);
	*t = v->tree;
}

/* children's record with the live members' sums added: vp_tree_total(). */
static ssize_t vp_tree_read(struct file *file, char __user *buf,
			    size_t count, loff_t *ppos)
{
	size_t size = sizeof(struct vperfctr_children);
	struct vperfctr_children ch = {};
	struct vp_tree *t = NULL;
	int err;

	if (*ppos >= size)
		return 0;
	if (*ppos != 0 || count < size)
		return -EINVAL;
	err = vp_fill_from(file, vp_fill_tree, &t);
	if (err < 0)
		return err;
	if (t) {
		err = vp_tree_total(t, &ch);
		vp_tree_put(t);
		if (err)
			return err;
	}
	if (copy_to_user(buf, &ch, size))
		return -EFAULT;
	*ppos += size;
	return size;
}

/* Why a set stands still, as <tid>/status shows it: bit n of stopped. */
static const char *const vp_stop_names[] = {
	"suspended", "overflow", "forbidden-cpu", "evicted", "exec", "exited",
	"notsc",
};

struct vp_status {
	char line[80];
	int len;
};

/* Under v->lock: the line <tid>/status shows. */
static void vp_describe(struct vperfctr *v, void *rec)
{
	struct vp_status *st = rec;
	unsigned long stopped = v->stopped;
	size_t size = sizeof(st->line);
	const char *sep = ": ";
	unsigned int bit;
	int len;

	lockdep_assert_held(&v->lock);
	if (v->life >= VP_EXITED) {	/* a final set: exited */
		st->len = scnprintf(st->line, size, "exited\n");
		return;
	}
	if (!stopped) {
		st->len = scnprintf(st->line, size, "%s\n",
				    v->page->cpu.cstatus ? "running" : "idle");
		return;
	}
	len = scnprintf(st->line, size, "stopped");
	for_each_set_bit(bit, &stopped, ARRAY_SIZE(vp_stop_names)) {
		len += scnprintf(st->line + len, size - len, "%s%s", sep,
				 vp_stop_names[bit]);
		sep = ",";
	}
	st->len = len + scnprintf(st->line + len, size - len, "\n");
}

/* "none", "idle", "running", "stopped: <why>[,<why>...]" or "exited". */
static ssize_t vp_status_read(struct file *file, char __user *ubuf,
			      size_t count, loff_t *ppos)
{
	struct vp_status st;
	int err = vp_fill_from(file, vp_describe, &st);

	if (err < 0)
		return err;
	if (!err)
		st.len = scnprintf(st.line, sizeof(st.line), "none\n");
	return simple_read_from_buffer(ubuf, count, ppos, st.line, st.len);
}

static bool vp_known_command(u32 cmd)
{
	return cmd >= VPERFCTR_CMD_SUSPEND && cmd <= VPERFCTR_CMD_UNLINK;
}

static ssize_t vp_command_write(struct file *file, const char __user *buf,
				size_t count, loff_t *ppos)
{
	struct task_struct *task;
	struct vperfctr *v;
	u32 cmd;
	int err;

	if (*ppos != 0 || count != sizeof(cmd))
		return -EINVAL;
	if (get_user(cmd, (const u32 __user *)buf))
		return -EFAULT;
	if (!vp_known_command(cmd))
		return -EINVAL;
	task = vp_file_task(file);
	if (IS_ERR(task))
		return PTR_ERR(task);
	err = vp_may_change(task);
	if (!err) {
		mutex_lock(&vp_mutex);
		v = vp_find(task);
		if (!v)
			err = -ENODATA;
		else
			err = v->tag ? -EBUSY : vp_command(v, cmd);
		mutex_unlock(&vp_mutex);
	}
	put_task_struct(task);
	return err ?: count;
}

/* flags 0 stops sampling: then every other field must be 0 too. */
static bool vp_ibs_off(const struct perfctr_ibs_control *c)
{
	return !memchr_inv(c, 0, sizeof(*c));
}

static ssize_t vp_ibs_write(struct file *file, const char __user *buf,
			    size_t count, loff_t *ppos)
{
	struct vp_ibs *ib = NULL, *old = NULL;
	struct perfctr_ibs_control c;
	struct task_struct *task;
	int err;

	if (*ppos != 0 || count != sizeof(c))
		return -EINVAL;
	if (copy_from_user(&c, buf, sizeof(c)))
		return -EFAULT;
	if (!c.flags && !vp_ibs_off(&c))
		return -EINVAL;
	task = vp_file_task(file);
	if (IS_ERR(task))
		return PTR_ERR(task);
	err = vp_may_change(task);
	if (!err) {		/* before anything is reserved: checked again */
		mutex_lock(&vp_mutex);
		err = vp_may_write(vp_find(task), &(struct vp_writer){});
		mutex_unlock(&vp_mutex);
	}
	if (!err && c.flags) {
		ib = vp_ibs_new(task, &c);
		err = PTR_ERR_OR_ZERO(ib);
	}
	if (!err) {
		mutex_lock(&vp_mutex);
		err = vp_set_ibs(task, ib, &old);
		mutex_unlock(&vp_mutex);
		if (err)
			vp_ibs_retire(ib);
	}
	vp_ibs_retire(old);
	put_task_struct(task);
	return err ?: count;
}

static void vp_fill_ibs(struct vperfctr *v, void *rec)
{
	if (v->ibs)
		vp_ibs_control(v->ibs, rec);
}

static ssize_t vp_ibs_read(struct file *file, char __user *buf, size_t count,
			   loff_t *ppos)
{
	return vp_read_record(file, buf, count, ppos,
			      sizeof(struct perfctr_ibs_control), vp_fill_ibs);
}

/* The owner maps its state page: read-only, page 0 only, not inherited. */
static int vp_state_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct task_struct *task;
	struct vperfctr *v;
	bool created;
	int err;

	if (vma->vm_pgoff || vma->vm_end - vma->vm_start > PAGE_SIZE)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	task = vp_file_task(file);
	if (IS_ERR(task))
		return PTR_ERR(task);
	err = task == current ? 0 : -EPERM;
	put_task_struct(task);
	if (err)
		return err;
	mutex_lock(&vp_mutex);
	v = vp_find(current);
	created = !v;
	if (created)
		v = vp_create(current);
	if (IS_ERR(v)) {
		err = PTR_ERR(v);
		goto out;
	}
	perfctr_vma_read_only(vma);
	err = vm_insert_page(vma, vma->vm_start, virt_to_page(v->page));
	if (err && created)
		vp_unlink(v);		/* as if never asked */
out:
	mutex_unlock(&vp_mutex);
	return err;
}

/* The files of /proc/perfctr/<tid>/: each opened by vp_open(). */
#define VP_FOPS(...)							\
	{ .owner = THIS_MODULE, .open = vp_open, .release = vp_release,	\
	  .llseek = default_llseek, __VA_ARGS__ }

const struct file_operations vperfctr_control_fops =
	VP_FOPS(.read = vp_control_read, .write = vp_control_write);
const struct file_operations vperfctr_sums_fops = VP_FOPS(.read = vp_sums_read);
const struct file_operations vperfctr_state_fops = VP_FOPS(.mmap = vp_state_mmap);
const struct file_operations vperfctr_status_fops =
	VP_FOPS(.read = vp_status_read);
const struct file_operations vperfctr_command_fops =
	VP_FOPS(.write = vp_command_write);
const struct file_operations vperfctr_children_fops =
	VP_FOPS(.read = vp_children_read);
const struct file_operations vperfctr_tree_fops =
	VP_FOPS(.read = vp_tree_read);
const struct file_operations vperfctr_ibs_fops =
	VP_FOPS(.read = vp_ibs_read, .write = vp_ibs_write);
