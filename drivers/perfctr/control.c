// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: changing a set: a new control (with what inheritance needs made
 * ahead), the commands, an IBS setup, and the /dev/perfmon tag API. Each
 * change locks the set idle (vp_lock_idle()), so that no counter runs
 * while it changes, and either applies whole or not at all.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include <perfctr/compat.h>
#include <perfctr/cpu.h>
#include <perfctr/ibs.h>
#include "internal.h"
#include "vperfctr.h"

/*
 * Lock @v with its counters suspended: the owner suspends them itself;
 * anyone else waits the moment a stopped tracee needs to leave its CPU.
 * Returns locked either way; -EBUSY if they still run.
 */
static int vp_lock_idle(struct vperfctr *v, unsigned long *flags)
	__acquires(&v->lock)
{
	unsigned int tries = 0;

	raw_spin_lock_irqsave(&v->lock, *flags);
	if (v->owner == current) {
		vp_suspend(v);
		vp_ibs_leave(v);
		return 0;
	}
	while ((v->resumed || v->ibs_on) && ++tries < 100000) {
		raw_spin_unlock_irqrestore(&v->lock, *flags);
		cpu_relax();
		raw_spin_lock_irqsave(&v->lock, *flags);
	}
	return v->resumed || v->ibs_on ? -EBUSY : 0;
}

/* Undo vp_lock_idle(): the owner counts again, unless stopped. */
static void vp_unlock_idle(struct vperfctr *v, unsigned long flags)
	__releases(&v->lock)
{
	int signo = 0;
	u32 mask = 0;

	if (v->owner == current) {
		mask = vp_take_signal(v, &signo);
		vp_run(v);
	}
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (mask)
		vp_signal(current, signo, mask);
}

static struct vp_tree *vp_tree_alloc(void)
{
	struct vp_tree *t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);

	if (t) {
		raw_spin_lock_init(&t->lock);
		refcount_set(&t->refs, 1);
		INIT_LIST_HEAD(&t->members);
	}
	return t;
}

void vp_prep_free(struct vp_prep *p)
{
	if (p->spare)
		vp_free_spare(p->spare);
	vp_tree_put(p->tree);
}

int vp_prep_alloc(struct vp_prep *p, const struct vperfctr_control *uc,
		  bool root)
{
	if (!(uc->flags & VPERFCTR_CONTROL_INHERIT))
		return 0;
	p->spare = vp_alloc();
	if (root)
		p->tree = vp_tree_alloc();
	if (!p->spare || (root && !p->tree)) {
		vp_prep_free(p);
		return -ENOMEM;
	}
	return 0;
}

/*
 * Idle: a new control ends the set's part in its tree. A member's
 * sums so far go to the tree, which counts it as gone; a root's members
 * count on, but no longer into this set's total. Returns the tree to put.
 */
static struct vp_tree *vp_leave_tree(struct vperfctr *v)
{
	struct vp_tree *t = v->tree;

	vp_fold(v);		/* asserts v->lock */
	v->tree = NULL;
	v->root = false;
	v->folded = false;
	return t;
}

/* Idle: @p's tree (a new root's) and spare are @v's now. */
static void vp_take_prep(struct vperfctr *v, struct vp_prep *p)
{
	lockdep_assert_held(&v->lock);
	if (p->tree) {
		v->tree = p->tree;
		v->root = true;
		p->tree = NULL;
	}
	swap(v->spare, p->spare);	/* the old spare is @p's to free */
}

/* @old, if not NULL, gets the sums of the control replaced. */
static int vp_install(struct vperfctr *v, struct perfctr_cpu_state *new,
		      const struct vperfctr_control *uc, struct vp_prep *p,
		      struct perfctr_sum_ctrs *old)
{
	struct perfctr_cpu_state *st = &v->page->cpu;
	struct vp_tree *old_tree;
	struct vp_creds creds;
	unsigned long flags;
	unsigned int i;

	vp_creds_take(&creds, v->owner);
	if (vp_lock_idle(v, &flags) || v->life >= VP_EXITED) {
		raw_spin_unlock_irqrestore(&v->lock, flags);
		return v->life >= VP_EXITED ? -ESRCH : -EBUSY;
	}
	if (old)
		vp_fill_sums(v, old);	/* idle: exact */
	old_tree = vp_leave_tree(v);	/* with the sums the old control got */
	if (uc->preserve & VPERFCTR_PRESERVE_TSC)
		new->tsc_sum = st->tsc_sum;
	for (i = 0; i < PERFCTR_NR_PMCS; i++)
		if (uc->preserve & BIT(i))
			new->pmc[i].sum = st->pmc[i].sum;
	vp_begin(v);
	*st = *new;
	vp_end(v);
	v->uctl = *uc;
	v->creds = creds;
	WRITE_ONCE(v->exec_id, READ_ONCE(v->owner->self_exec_id));
	v->stopped = 0;
	v->evicted = false;
	v->saved_cstatus = 0;
	v->ovf_mask = 0;
	vp_take_prep(v, p);
	vp_unlock_idle(v, flags);
	vp_tree_put(old_tree);
	return 0;
}

int vp_may_write(const struct vperfctr *v, const struct vp_writer *w)
{
	if (v && v->tag == w->tag)
		return 0;
	if (w->expect)
		return -ESRCH;
	return v ? -EBUSY : 0;
}

/* May @w give @task (whose set is @v, or NULL) a control now? */
static int vp_may_set(struct task_struct *task, const struct vperfctr *v,
		      const struct vp_writer *w, bool uses_hw)
{
	int err;

	if (READ_ONCE(task->flags) & PF_EXITING)	/* since vp_file_task() */
		return -ESRCH;
	err = vp_may_write(v, w);
	if (err)
		return err;
	/* Counters on an HT P4: only on CPUs allowed to use them. */
	if (uses_hw && cpumask_intersects(task->cpus_ptr,
					  &perfctr_cpus_forbidden_mask))
		return -EINVAL;
	return 0;
}

/* Installed: @v holds the hardware if its control uses it, else not. */
static void vp_hw_settle(struct vperfctr *v, bool uses_hw, bool got_hw)
{
	if (got_hw)
		v->reserved = true;
	if (!uses_hw && v->reserved) {
		v->reserved = false;
		vp_hw_put();
	}
}

/* @new replaces @task's control, or nothing changes. */
int vp_set_control(struct task_struct *task, struct perfctr_cpu_state *new,
		   const struct vperfctr_control *uc, struct vp_prep *p,
		   const struct vp_writer *w)
{
	bool uses_hw = perfctr_cstatus_nrctrs(new->cstatus) != 0;
	struct vperfctr *v = vp_find(task);
	bool got_hw = false;
	int err;

	lockdep_assert_held(&vp_mutex);
	err = vp_may_set(task, v, w, uses_hw);
	if (err)
		return err;
	if (uses_hw && !(v && v->reserved)) {
		err = vp_hw_get();
		if (err)
			return err;
		got_hw = true;
	}
	if (!v) {
		v = vp_create(task);
		if (IS_ERR(v)) {
			err = PTR_ERR(v);
			goto out_hw;
		}
		v->tag = w->tag;
	}
	err = vp_install(v, new, uc, p, w->old);
	if (err)
		goto out_hw;
	vp_hw_settle(v, uses_hw, got_hw);
	return 0;

out_hw:
	if (got_hw)
		vp_hw_put();
	return err;
}

/* The owner's own sums are sampled first: they are exact. */
void vp_fill_sums(struct vperfctr *v, void *rec)
{
	struct perfctr_cpu_state *st = &v->page->cpu;
	struct perfctr_sum_ctrs *sums = rec;
	unsigned int i;

	lockdep_assert_held(&v->lock);
	if (v->owner == current && v->resumed) {
		vp_begin(v);
		perfctr_cpu_sample(st);
		vp_end(v);
	}
	sums->tsc = st->tsc_sum;
	for (i = 0; i < PERFCTR_NR_PMCS; i++)
		sums->pmc[i] = st->pmc[i].sum;
}

/* Idle: one of the commands other than UNLINK. */
static int vp_apply_command(struct vperfctr *v, u32 cmd)
{
	struct perfctr_cpu_state *st = &v->page->cpu;
	unsigned int i;

	lockdep_assert_held(&v->lock);
	switch (cmd) {
	case VPERFCTR_CMD_SUSPEND:
		vp_stop(v, VP_STOP_CMD);
		return 0;
	case VPERFCTR_CMD_RESUME:
		/* The counters are gone: only a new control brings them back. */
		if (v->evicted)
			return -EBUSY;
		vp_unstop(v, VP_STOP_CMD);
		return 0;
	case VPERFCTR_CMD_CLEAR:
		vp_begin(v);
		st->tsc_sum = 0;
		for (i = 0; i < PERFCTR_NR_PMCS; i++)
			st->pmc[i].sum = 0;
		vp_end(v);
		return 0;
	case VPERFCTR_CMD_IRESUME:
		if (v->evicted)
			return -EBUSY;
		if (!(v->stopped & VP_STOP_OVF))
			return -EINVAL;
		/* The suspend that caught it reloaded the start values. */
		perfctr_cpu_ireload(st);
		vp_unstop(v, VP_STOP_OVF);
		return 0;
	}
	return -EINVAL;
}

int vp_command(struct vperfctr *v, u32 cmd)
{
	unsigned long flags;
	int err;

	if (READ_ONCE(v->life) >= VP_EXITED)	/* since the caller's lookup */
		return -ESRCH;
	if (cmd == VPERFCTR_CMD_UNLINK) {
		vp_unlink(v);
		return 0;
	}
	if (vp_lock_idle(v, &flags) || v->life >= VP_EXITED) {
		raw_spin_unlock_irqrestore(&v->lock, flags);
		return v->life >= VP_EXITED ? -ESRCH : -EBUSY;
	}
	err = vp_apply_command(v, cmd);
	vp_unlock_idle(v, flags);
	return err;
}

/*
 * @ib (NULL: none) becomes @task's IBS setup, in a set made for it if
 * need be; *@old gets the one replaced, to put.
 */
int vp_set_ibs(struct task_struct *task, struct vp_ibs *ib,
	       struct vp_ibs **old)
{
	struct vperfctr *v = vp_find(task);
	struct vp_writer proc = {};
	unsigned long flags;
	int err;

	lockdep_assert_held(&vp_mutex);
	if (READ_ONCE(task->flags) & PF_EXITING)	/* since vp_file_task() */
		return -ESRCH;
	err = vp_may_write(v, &proc);
	if (err)
		return err;
	if (!v && !ib)
		return 0;
	if (!v) {
		v = vp_create(task);
		if (IS_ERR(v))
			return PTR_ERR(v);
	}
	if (vp_lock_idle(v, &flags) || v->life >= VP_EXITED) {
		raw_spin_unlock_irqrestore(&v->lock, flags);
		return v->life >= VP_EXITED ? -ESRCH : -EBUSY;
	}
	*old = v->ibs;
	v->ibs = ib;
	vp_unlock_idle(v, flags);
	/* A set made for IBS alone goes with it, as if never made. */
	if (!ib && !v->page->cpu.control.tsc_on && !vp_has_ctrs(v) &&
	    !v->tree && !v->spare)
		vp_unlink(v);
	return 0;
}

struct vp_ibs *vperfctr_ibs_get(struct task_struct *task)
{
	struct vp_ibs *ib = NULL;
	struct vperfctr *v;

	mutex_lock(&vp_mutex);
	v = vp_find(task);
	if (v && v->ibs) {
		ib = v->ibs;
		vp_ibs_hold(ib);
	}
	mutex_unlock(&vp_mutex);
	return ib ?: ERR_PTR(-ENODATA);
}

/*
 * /dev/perfmon (perfmon.c): the set of @task that the file @tag made.
 * The caller checked that it may act on @task, and validated @new.
 * @expect: the file made a set that should still be there; -ESRCH if it
 * is gone (an exec dropped it). -EBUSY if @task has a set of another's.
 * @old gets the replaced control's sums, exact.
 */
int vperfctr_tagged_install(struct task_struct *task, u64 tag,
			    bool expect, struct perfctr_cpu_state *new,
			    struct perfctr_sum_ctrs *old)
{
	struct vp_writer w = { .tag = tag, .expect = expect, .old = old };
	struct vperfctr_control uc = {};
	struct vp_prep prep = {};
	int err = vp_may_change(task);

	if (err)
		return err;
	memset(old, 0, sizeof(*old));
	mutex_lock(&vp_mutex);
	err = vp_set_control(task, new, &uc, &prep, &w);
	mutex_unlock(&vp_mutex);
	return err;
}

/*
 * The sums of @task's set that @tag made; -ESRCH if it has none. Between
 * an exec and its decision on the set, the set is still there to read.
 */
int vperfctr_tagged_read(struct task_struct *task, u64 tag,
			 struct perfctr_sum_ctrs *sums)
{
	struct vperfctr *v;
	unsigned long flags;
	int err = -ESRCH;

	rcu_read_lock();
	v = vp_find_any(task);
	if (v && v->tag == tag && READ_ONCE(v->life) < VP_EXITED) {
		raw_spin_lock_irqsave(&v->lock, flags);
		vp_fill_sums(v, sums);
		raw_spin_unlock_irqrestore(&v->lock, flags);
		err = 0;
	}
	rcu_read_unlock();
	return err;
}

/*
 * The file @tag is closed: its set goes, as at an unlink; also between
 * an exec and its decision (the close may come from another process).
 */
void vperfctr_tagged_drop(struct task_struct *task, u64 tag)
{
	struct vperfctr *v;

	mutex_lock(&vp_mutex);
	v = vp_find_any(task);
	if (v && v->tag == tag && READ_ONCE(v->life) < VP_EXITED &&
	    !(READ_ONCE(task->flags) & PF_EXITING))
		vp_unlink(v);
	mutex_unlock(&vp_mutex);
}
