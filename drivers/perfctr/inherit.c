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
	list_del_init(&v->tree_node);
	t->nmembers--;
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
		/* Unseen so far: no locking, no seq. */
		v->page->cpu = *new;
		vp_creds_take(&v->creds, current);
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

/* @s, a spare, becomes @child's set, to be set up by @child. */
static void vp_member_start(struct vperfctr *s, struct task_struct *child)
{
	get_task_struct(child);
	s->owner = child;
	s->exec_id = READ_ONCE(child->self_exec_id);
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
		raw_spin_lock(&t->lock);
		if (s) {
			t->ch.live++;
			list_add_tail(&s->tree_node, &t->members);
			t->nmembers++;
		} else {
			t->ch.lost++;	/* no memory for it at the last refill */
		}
		raw_spin_unlock(&t->lock);
	}
	if (s) {
		refcount_inc(&t->refs);
		s->tree = t;
		s->uctl = v->uctl;
		s->page->cpu.control = v->page->cpu.control;
	}
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (t)
		vp_queue_refill(v);
	if (s)
		vp_member_start(s, child);
}

/* How often <tid>/tree starts again before it gives up with -EAGAIN. */
#define VP_TREE_TRIES	8

/* Under t->lock: up to @max members referenced in @m; how many, or -1. */
static int vp_tree_grab(struct vp_tree *t, struct vperfctr **m,
			unsigned int max, struct vperfctr_children *ch)
{
	struct vperfctr *v;
	int n = 0;

	lockdep_assert_held(&t->lock);
	if (t->nmembers > max)
		return -1;
	*ch = t->ch;
	list_for_each_entry(v, &t->members, tree_node) {
		/* On the list, not folded: its owner's reference holds. */
		refcount_inc(&v->refs);
		m[n++] = v;
	}
	return n;
}

/*
 * Adds the sums of the members grabbed to @ch and drops them: false if
 * one left the tree since, whose sums went to a total read before.
 * A member that exited since has its final sums in its page, not in
 * @ch: each is counted once either way.
 */
static bool vp_tree_add(struct vp_tree *t, struct vperfctr **m, int n,
			struct vperfctr_children *ch)
{
	struct perfctr_sum_ctrs s;
	unsigned long flags;
	bool same = true;
	unsigned int j;
	int i;

	for (i = 0; i < n; i++) {
		raw_spin_lock_irqsave(&m[i]->lock, flags);
		same = same && m[i]->tree == t;
		if (same)
			vp_fill_sums(m[i], &s);
		raw_spin_unlock_irqrestore(&m[i]->lock, flags);
		if (same) {
			ch->sums.tsc += s.tsc;
			for (j = 0; j < PERFCTR_NR_PMCS; j++)
				ch->sums.pmc[j] += s.pmc[j];
		}
		vp_put(m[i]);
	}
	return same;
}

/*
 * <tid>/tree: the tree's total with its live members' sums added, each
 * as of its last sample. Costs its reader only: the members are
 * referenced under the tree's lock, then read one by one under their
 * own, the lock order of vp_fold().
 */
int vp_tree_total(struct vp_tree *t, struct vperfctr_children *ch)
{
	struct vperfctr **m;
	unsigned long flags;
	unsigned int max;
	int tries, n;

	for (tries = 0; tries < VP_TREE_TRIES; tries++) {
		max = READ_ONCE(t->nmembers) + 16;
		m = kvmalloc_array(max, sizeof(*m), GFP_KERNEL_ACCOUNT);
		if (!m)
			return -ENOMEM;
		raw_spin_lock_irqsave(&t->lock, flags);
		n = vp_tree_grab(t, m, max, ch);
		raw_spin_unlock_irqrestore(&t->lock, flags);
		if (n >= 0 && vp_tree_add(t, m, n, ch)) {
			kvfree(m);
			return 0;
		}
		kvfree(m);
		cond_resched();
	}
	return -EAGAIN;		/* its members keep coming and leaving */
}
