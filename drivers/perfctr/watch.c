// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: final counts. Every open file of a thread's refers to its
 * thread's watch; as the thread exits (vp_exit()), the watch takes a
 * reference to its set, so that the files still read it, final, until
 * the last one is closed.
 *
 * Every exit in the system looks for its watch, with preemption off: the
 * lookup is one RCU walk of a resizable hash, with no global lock, and
 * none at all while no watch exists. A watch pins its thread's
 * task_struct while any file refers to it, so each user may keep only
 * perfctr.files_per_user such files open, each charged to its opener
 * (Documentation/perfctr/virtual.rst, "Final counts").
 *
 * The watch also keeps the thread's mm_struct (not its memory), so that
 * its dumpability at the exit is read from its own: by the exit probe
 * the thread has let go of its mm, and if it was switched out since, its
 * active_mm is another task's.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/rhashtable.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/coredump.h>
#include <linux/sched/mm.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#include "internal.h"
#include "vperfctr.h"

static const struct rhashtable_params vp_watch_params = {
	.key_len = sizeof(struct task_struct *),
	.key_offset = offsetof(struct vp_watch, task),
	.head_offset = offsetof(struct vp_watch, node),
	.automatic_shrinking = true,
};

static struct rhashtable vp_watches;
static atomic_t vp_nr_watches = ATOMIC_INIT(0);

/* Open files per user (real uid), vp_users_lock: an xarray of counts. */
static unsigned int files_per_user = 4096;
module_param(files_per_user, uint, 0644);
MODULE_PARM_DESC(files_per_user,
		 "files of /proc/perfctr/<tid>/ a user may keep open (each keeps its thread)");

static DEFINE_XARRAY(vp_users);
static DEFINE_MUTEX(vp_users_lock);

/* -EMFILE past the limit, unless CAP_SYS_RESOURCE, as with rlimits. */
int vp_files_charge(kuid_t uid)
{
	unsigned long key = __kuid_val(uid);
	unsigned long n;
	int err;

	mutex_lock(&vp_users_lock);
	n = xa_to_value(xa_load(&vp_users, key) ?: xa_mk_value(0));
	if (n >= READ_ONCE(files_per_user) && !capable(CAP_SYS_RESOURCE))
		err = -EMFILE;
	else
		err = xa_err(xa_store(&vp_users, key, xa_mk_value(n + 1),
				      GFP_KERNEL));
	mutex_unlock(&vp_users_lock);
	return err;
}

void vp_files_uncharge(kuid_t uid)
{
	unsigned long key = __kuid_val(uid);
	unsigned long n;

	mutex_lock(&vp_users_lock);
	n = xa_to_value(xa_load(&vp_users, key) ?: xa_mk_value(1));
	if (n <= 1)
		xa_erase(&vp_users, key);
	else
		xa_store(&vp_users, key, xa_mk_value(n - 1), GFP_KERNEL);
	mutex_unlock(&vp_users_lock);
}

static void vp_watch_free(struct vp_watch *w)
{
	if (w->mm)
		mmdrop(w->mm);
	put_task_struct(w->task);
	kfree_rcu(w, rcu);
}

void vp_watch_put(struct vp_watch *w)
{
	bool last;

	raw_spin_lock_irq(&w->lock);
	last = !--w->files;
	w->dead = last;		/* vp_watch_exit() leaves it be */
	raw_spin_unlock_irq(&w->lock);
	if (!last)
		return;
	rhashtable_remove_fast(&vp_watches, &w->node, vp_watch_params);
	atomic_dec(&vp_nr_watches);
	if (w->final)
		vp_put(w->final);
	vp_watch_free(w);
}

/* @task's watch, held; NULL if it has none, -EAGAIN while one goes. */
static struct vp_watch *vp_watch_hold(struct task_struct *task)
{
	struct vp_watch *w;
	bool dead = false;

	rcu_read_lock();
	w = rhashtable_lookup(&vp_watches, &task, vp_watch_params);
	if (w) {
		raw_spin_lock_irq(&w->lock);
		dead = w->dead;
		if (!dead)
			w->files++;
		raw_spin_unlock_irq(&w->lock);
	}
	rcu_read_unlock();
	return dead ? ERR_PTR(-EAGAIN) : w;
}

/* A new watch of @task, or an ERR_PTR. */
static struct vp_watch *vp_watch_new(struct task_struct *task)
{
	struct vp_watch *w = kzalloc(sizeof(*w), GFP_KERNEL_ACCOUNT);

	if (!w)
		return ERR_PTR(-ENOMEM);
	raw_spin_lock_init(&w->lock);
	get_task_struct(task);
	w->task = task;
	w->files = 1;
	return w;
}

/* @task's watch, held, made if need be. */
static struct vp_watch *vp_watch_find_or_make(struct task_struct *task)
{
	struct vp_watch *w, *old;

	for (;;) {
		w = vp_watch_hold(task);
		if (w == ERR_PTR(-EAGAIN)) {	/* its last file is closing */
			if (fatal_signal_pending(current))
				return ERR_PTR(-EINTR);
			schedule_timeout_killable(1);
			continue;
		}
		if (w)
			return w;
		w = vp_watch_new(task);
		if (IS_ERR(w))
			return w;
		old = rhashtable_lookup_get_insert_fast(&vp_watches, &w->node,
							vp_watch_params);
		if (!old) {
			atomic_inc(&vp_nr_watches);
			return w;
		}
		vp_watch_free(w);	/* never seen: another open made one */
		if (IS_ERR(old))
			return old;
	}
}

/*
 * @w keeps @task's mm as of now. An exec swaps it too (vp_watch_exec());
 * whichever comes last sees the other's, as both read the mm that
 * exec_mmap() sets under task_lock().
 */
static void vp_watch_take_mm(struct vp_watch *w, struct task_struct *task)
{
	struct mm_struct *mm, *old;

	task_lock(task);
	mm = task->mm;
	raw_spin_lock_irq(&w->lock);
	old = w->mm;
	/* Not NULL after exit_mm(): the exit probe needs the thread's own. */
	if (mm && mm != old) {
		mmgrab(mm);
		w->mm = mm;
	} else {
		old = NULL;
	}
	raw_spin_unlock_irq(&w->lock);
	task_unlock(task);
	if (old)
		mmdrop(old);
}

/* @task's watch, made if need be; -ESRCH once it is exiting. */
struct vp_watch *vp_watch_get(struct task_struct *task)
{
	struct vp_watch *w = vp_watch_find_or_make(task);

	if (IS_ERR(w))
		return w;
	vp_watch_take_mm(w, task);
	/* Pairs with vp_watch_exit(): either it finds w, or we see the exit. */
	smp_mb();
	if (READ_ONCE(task->flags) & PF_EXITING) {
		vp_watch_put(w);
		return ERR_PTR(-ESRCH);
	}
	return w;
}

/* In the thread: @fn on its watch, locked, if it has one. */
static void vp_watch_mine(void (*fn)(struct vp_watch *w, void *arg), void *arg)
{
	struct task_struct *task = current;
	struct vp_watch *w;
	unsigned long flags;

	if (!atomic_read(&vp_nr_watches))
		return;
	rcu_read_lock();
	w = rhashtable_lookup(&vp_watches, &task, vp_watch_params);
	if (w) {
		raw_spin_lock_irqsave(&w->lock, flags);
		if (!w->dead)
			fn(w, arg);
		raw_spin_unlock_irqrestore(&w->lock, flags);
	}
	rcu_read_unlock();
}

static void vp_watch_final(struct vp_watch *w, void *arg)
{
	struct vperfctr *v = arg;

	if (w->done)
		return;
	if (v) {
		refcount_inc(&v->refs);
		w->final = v;
	}
	vp_creds_take(&w->exit_creds, current);
	/* Its own mm: exit_mm() is done (vp_watch_take_mm()). */
	w->exit_dumpable = w->mm && perfctr_owner_dumpable(current, w->mm);
	/* final and exit_creds before done: vp_wait_exit() */
	smp_store_release(&w->done, true);
}

/*
 * In the exiting thread, its set (or NULL) final: its watch, if any,
 * keeps it for the files, with the credentials it exits with.
 */
void vp_watch_exit(struct vperfctr *v)
{
	/* Pairs with vp_watch_get(); PF_EXITING is set. */
	smp_mb();
	vp_watch_mine(vp_watch_final, v);
}

static void vp_watch_new_mm(struct vp_watch *w, void *arg)
{
	struct mm_struct **old = arg;

	if (w->mm == current->mm)
		return;
	*old = w->mm;
	mmgrab(current->mm);
	w->mm = current->mm;
}

/*
 * sched_process_exec, in the thread: its watch keeps the new mm, whose
 * dumpability counts from now on. The old one may be dropped here, with
 * preemption off: mmdrop_sched() defers the freeing where that sleeps.
 */
void vp_watch_exec(void)
{
	struct mm_struct *old = NULL;

	vp_watch_mine(vp_watch_new_mm, &old);
	if (old)
		mmdrop_sched(old);
}

int vp_watches_init(void)
{
	return rhashtable_init(&vp_watches, &vp_watch_params);
}

/* Every file is closed: each held the module. */
void vp_watches_destroy(void)
{
	rhashtable_destroy(&vp_watches);
	xa_destroy(&vp_users);
}
