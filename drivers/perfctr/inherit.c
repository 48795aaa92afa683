// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: inheritance (Documentation/perfctr/virtual.rst). A set whose
 * control has VPERFCTR_CONTROL_INHERIT keeps a spare set made ahead, as
 * the fork tracepoint may not sleep nor, on PREEMPT_RT, allocate: each
 * fork hands it to the child, and the parent makes the next on its way
 * back to user space, before it can fork again. The child sets it up
 * itself, before its first instruction, as its creator could not.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/hashtable.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/task_work.h>

#include <perfctr/compat.h>
#include <perfctr/cpu.h>
#include <perfctr/ibs.h>
#include "internal.h"
#include "vperfctr.h"

/* The tree @v's children join, or NULL. */
static struct vp_tree *vp_children_tree(const struct vperfctr *v)
{
	lockdep_assert_held(&v->lock);
	if (!(v->uctl.flags & VPERFCTR_CONTROL_INHERIT) || !vp_life_owned(v))
		return NULL;
	return v->tree;
}

/* VPERFCTR_CONTROL_THREADS: @child is a new process, not a member. */
static bool vp_not_member(const struct vperfctr *v,
			  struct task_struct *child)
{
	return (v->uctl.flags & VPERFCTR_CONTROL_THREADS) &&
	       !same_thread_group(current, child);
}

static void vp_member_gone(struct vperfctr *v, bool lost)
{
	struct vp_tree *t = v->tree;
	unsigned long flags;

	raw_spin_lock_irqsave(&t->lock, flags);
	t->ch.live--;
	list_del_init(&v->tree_link.node);
	if (lost)
		t->ch.lost++;
	else
		t->ch.exited++;
	raw_spin_unlock_irqrestore(&t->lock, flags);
}

/* In the member, before user space: count from here on, or fail. */
static int vp_adopt(struct vperfctr *v)
{
	struct vperfctr_control uc = v->uctl;
	struct perfctr_cpu_state *new;
	struct vp_prep prep = {};
	bool uses_hw;
	int err;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	new->control = v->page->cpu.control;
	err = perfctr_cpu_update_control(new, false);
	if (!err)
		err = perfctr_may_count(new);	/* as if it wrote it itself */
	if (!err)
		err = vp_prep_alloc(&prep, &uc, false);
	uses_hw = perfctr_cstatus_nrctrs(new->cstatus) != 0;
	if (!err && uses_hw && cpumask_intersects(current->cpus_ptr,
						  &perfctr_cpus_forbidden_mask))
		err = -EINVAL;
	mutex_lock(&vp_mutex);
	/* Its first task_work, before anyone could give it a set. */
	if (!err && WARN_ON_ONCE(vp_find_any(current)))
		err = -EEXIST;
	if (!err && uses_hw)
		err = vp_hw_get();
	if (!err) {
		struct vp_creds creds;
		unsigned long flags;

		/* Unseen by lookups so far, but not by <tid>/tree's readers. */
		vp_creds_take(&creds, current);
		raw_spin_lock_irqsave(&v->lock, flags);
		v->page->cpu = *new;
		v->creds = creds;
		raw_spin_unlock_irqrestore(&v->lock, flags);
		v->reserved = uses_hw;
		v->spare = prep.spare;
		prep.spare = NULL;
		hash_add_rcu(vp_hash, &v->node, (unsigned long)current);
		vp_link(v);
	}
	mutex_unlock(&vp_mutex);
	vp_prep_free(&prep);
	kfree(new);
	return err;
}

static void vp_adopt_fn(struct callback_head *cb)
{
	struct vperfctr *v = container_of(cb, struct vperfctr, twork);
	int err = -ESRCH;

	/* At exit, before it ran a single instruction: nothing to count. */
	if (!(current->flags & PF_EXITING))
		err = vp_adopt(v);
	if (err) {
		vp_member_gone(v, err != -ESRCH);
		vp_put(v);
	}
}

/* In the parent, after a fork took its spare: the next one. */
static void vp_refill_fn(struct callback_head *cb)
{
	struct vperfctr *v = container_of(cb, struct vperfctr, refill);
	struct vperfctr *s = NULL;
	unsigned long flags;

	if (!(current->flags & PF_EXITING))
		s = vp_alloc();
	raw_spin_lock_irqsave(&v->lock, flags);
	v->refill_queued = false;
	if (s && !v->spare && vp_children_tree(v))
		swap(v->spare, s);
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (s)
		vp_free_spare(s);
	vp_put(v);
}

/*
 * In the owner, after a fork took @v's spare: make the next one on the
 * way back to user space. Once: one fork at a time, the refill between.
 */
static void vp_queue_refill(struct vperfctr *v)
{
	unsigned long flags;
	bool queue;

	raw_spin_lock_irqsave(&v->lock, flags);
	queue = !v->refill_queued;
	v->refill_queued = true;
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (!queue)
		return;
	refcount_inc(&v->refs);
	init_task_work(&v->refill, vp_refill_fn);
	if (!task_work_add(current, &v->refill, TWA_RESUME))
		return;
	/* Only at exit, where there will be no more forks. */
	refcount_dec(&v->refs);		/* the owner's is left */
}

/*
 * @s, a spare, becomes @child's set, to be set up by @child: its owner,
 * tree and control are set already, before <tid>/tree could see it.
 */
static void vp_member_start(struct vperfctr *s, struct task_struct *child)
{
	__module_get(THIS_MODULE);	/* the parent's set holds one */
	init_task_work(&s->twork, vp_adopt_fn);
	/* Fails only for a child already past its exit's task_work. */
	if (task_work_add(child, &s->twork, TWA_RESUME)) {
		vp_member_gone(s, true);
		vp_put(s);
	}
}

/* In the parent, @v its set: @child gets the spare, if there is one. */
void vp_fork_member(struct vperfctr *v, struct task_struct *child)
{
	struct vperfctr *s = NULL;
	unsigned long flags;
	struct vp_tree *t;

	raw_spin_lock_irqsave(&v->lock, flags);
	t = vp_children_tree(v);
	if (t && vp_not_member(v, child))
		t = NULL;
	if (t) {
		swap(s, v->spare);
		if (s) {
			refcount_inc(&t->refs);
			s->tree = t;
			s->uctl = v->uctl;
			s->page->cpu.control = v->page->cpu.control;
			get_task_struct(child);
			s->owner = child;
			s->exec_id = READ_ONCE(child->self_exec_id);
		}
		raw_spin_lock(&t->lock);
		if (s) {
			t->ch.live++;
			list_add_tail(&s->tree_link.node, &t->members);
		} else {
			t->ch.lost++;	/* no memory for it at the last refill */
		}
		raw_spin_unlock(&t->lock);
	}
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (t)
		vp_queue_refill(v);
	if (s)
		vp_member_start(s, child);
}

/* How often <tid>/tree starts again before it gives up with -EAGAIN. */
#define VP_TREE_TRIES	8
/* Members referenced a lock hold: the interrupts stay off that long. */
#define VP_TREE_BATCH	128

/* One read of <tid>/tree: the members referenced, where the walk is. */
struct vp_tree_walk {
	struct vp_tree *t;
	struct vperfctr **m;
	unsigned int n, max;
	struct vp_tree_link mark;	/* on t->members, after the last */
	struct vperfctr_children ch;	/* the total, at the walk's end */
	u64 folds;			/* t->folds then */
};

/* Room for more members: the array doubled, outside the lock. */
static int vp_tree_grow(struct vp_tree_walk *w)
{
	unsigned int max = w->max ? 2 * w->max : VP_TREE_BATCH;
	struct vperfctr **m;

	m = kvmalloc_array(max, sizeof(*m), GFP_KERNEL_ACCOUNT);
	if (!m)
		return -ENOMEM;
	if (w->n)
		memcpy(m, w->m, w->n * sizeof(*m));
	kvfree(w->m);
	w->m = m;
	w->max = max;
	return 0;
}

/*
 * Under t->lock: references the members after the walk's mark, a batch
 * at most, and moves the mark past them. At the list's end it takes the
 * total and returns true: every member is then either in the total
 * (folded before) or referenced, or it was made after its place was
 * passed (counted from the next read on).
 */
static bool vp_tree_batch(struct vp_tree_walk *w)
{
	struct list_head *pos = w->mark.node.next, *end = &w->t->members;
	struct vp_tree_link *l;
	struct vperfctr *v;
	unsigned int k = 0;

	lockdep_assert_held(&w->t->lock);
	/* Other readers' marks count too: the lock hold stays bounded. */
	for (; pos != end && k < VP_TREE_BATCH && w->n < w->max;
	     pos = pos->next, k++) {
		l = list_entry(pos, struct vp_tree_link, node);
		if (l->mark)
			continue;
		v = container_of(l, struct vperfctr, tree_link);
		/* On the list, not folded: its owner's reference holds. */
		refcount_inc(&v->refs);
		w->m[w->n++] = v;
	}
	list_move_tail(&w->mark.node, pos);
	if (pos != end)
		return false;
	list_del_init(&w->mark.node);
	w->ch = w->t->ch;
	w->folds = w->t->folds;
	return true;
}

/* References every member, a batch a lock hold; 0 or -ENOMEM. */
static int vp_tree_refs(struct vp_tree_walk *w)
{
	struct vp_tree *t = w->t;
	unsigned long flags;
	bool done = false;
	int err = 0;

	raw_spin_lock_irqsave(&t->lock, flags);
	list_add(&w->mark.node, &t->members);
	raw_spin_unlock_irqrestore(&t->lock, flags);
	while (!done) {
		if (w->n == w->max)
			err = vp_tree_grow(w);
		raw_spin_lock_irqsave(&t->lock, flags);
		if (err)
			list_del_init(&w->mark.node);
		else
			done = vp_tree_batch(w);
		raw_spin_unlock_irqrestore(&t->lock, flags);
		if (err)
			return err;
		cond_resched();
	}
	return 0;
}

/*
 * Whether @v's owner still is as its set was made: the same ids, and
 * dumpable. A member that made itself undumpable (or an exiting one)
 * is not shown live: its final sums reach the total as it exits, as
 * they reach children.
 */
static bool vp_member_visible(struct vperfctr *v, struct vp_creds *now)
{
	vp_creds_take(now, v->owner);
	return vp_task_dumpable(v->owner);
}

/*
 * Adds the walked members' sums to the total: a live one's as of its
 * last sample, one folded since the total was taken by its final sums.
 * False if one left the tree since, by a new control: its sums went to
 * a total not read.
 */
static bool vp_tree_add(struct vp_tree_walk *w)
{
	struct perfctr_sum_ctrs s;
	struct vp_creds now;
	unsigned long flags;
	bool same = true, show, add;
	struct vperfctr *v;
	unsigned int i, j;

	for (i = 0; i < w->n; i++) {
		v = w->m[i];
		show = same && vp_member_visible(v, &now);
		raw_spin_lock_irqsave(&v->lock, flags);
		if (v->tree != w->t && v->fold_at > w->folds)
			same = false;
		add = same && show && v->tree == w->t &&
		      (!v->folded || v->fold_at > w->folds) &&
		      vp_creds_eq(&now, &v->creds);
		if (add)
			vp_fill_sums(v, &s);
		raw_spin_unlock_irqrestore(&v->lock, flags);
		if (add) {
			w->ch.sums.tsc += s.tsc;
			for (j = 0; j < PERFCTR_NR_PMCS; j++)
				w->ch.sums.pmc[j] += s.pmc[j];
		}
		vp_put(v);
	}
	w->n = 0;
	return same;
}

/*
 * <tid>/tree: the tree's total with its live members' sums added. Costs
 * its reader only: the members are referenced under the tree's lock, a
 * batch at a time, then read one by one under their own.
 */
int vp_tree_total(struct vp_tree *t, struct vperfctr_children *ch)
{
	struct vp_tree_walk w = { .t = t, .mark.mark = true };
	int tries, err = -EAGAIN;	/* its members keep leaving */

	INIT_LIST_HEAD(&w.mark.node);
	for (tries = 0; tries < VP_TREE_TRIES; tries++) {
		err = vp_tree_refs(&w);
		if (err) {
			vp_tree_add(&w);	/* drops the references */
			break;
		}
		if (vp_tree_add(&w)) {
			*ch = w.ch;
			err = 0;
			break;
		}
		err = -EAGAIN;
	}
	kvfree(w.m);
	return err;
}
