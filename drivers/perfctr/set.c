// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: one per-thread counter set and its life (vperfctr.h has the
 * states). Who may touch a set:
 *  - its owner's CPU while the owner runs, interrupts off, v->lock held:
 *    the notifiers, the sampling timer, the overflow handler, and the
 *    owner's own requests;
 *  - anyone else, under v->lock, only while the counters run nowhere;
 *  - the notifier list of a task is changed only by the task itself
 *    (directly, or through task_work), as the scheduler walks it unlocked.
 * A set is freed after its owner's last schedule or after an unlink, by
 * a work item that then drops the module reference the set holds.
 *
 * A set a tracer gave its tracee is linked (its notifier registered) by
 * the tracee itself, through task_work, and nothing else resumes,
 * detaches or frees a set before that: the link work always runs, on
 * the way back to user space or at exit, and is what drops a set
 * unlinked or exited meanwhile.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/hashtable.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>
#include <linux/workqueue.h>

#include <perfctr/compat.h>
#include <perfctr/cpu.h>
#include <perfctr/ibs.h>
#include "internal.h"
#include "vperfctr.h"

/* The state page's magic follows the ABI's major version. */
static_assert((VPERFCTR_STATE_MAGIC & 0xFF00) ==
	      (PERFCTR_ABI_VERSION & 0xFF00));

DEFINE_HASHTABLE(vp_hash, 8);
/* Orders the changes of the sets, vp_hash and the hardware's use. */
DEFINE_MUTEX(vp_mutex);
static unsigned int vp_hw_users;	/* sets with counters, vp_mutex */
static bool vp_hw_held;			/* reclaim's latch, vp_mutex */

/*
 * The sched_process_{exec,fork,exit} tracepoints: without all three no
 * set is made (see vp_exec(), vp_fork(), vp_exit()).
 */
bool vp_tps_ok;

const char *const vperfctr_service = "virtual counters";

/* The set whose owner may read the counters here (it turned RDPMC on). */
static DEFINE_PER_CPU(struct vperfctr *, vp_reader);

/* Sets to unhash (owner gone, or detached), and sets to free. */
static LLIST_HEAD(vp_reap_list);
static LLIST_HEAD(vp_free_list);
static void vp_reap_fn(struct work_struct *work);
static DECLARE_WORK(vp_reap_work, vp_reap_fn);

static void vp_reap_kick(struct irq_work *work)
{
	schedule_work(&vp_reap_work);
}

static struct irq_work vp_reap_irq_work = IRQ_WORK_INIT(vp_reap_kick);

/* Where each state may be entered from (the diagram). */
static const u8 vp_life_from[] = {
	[VP_LINKING]	= BIT(VP_SPARE),
	[VP_LINKED]	= BIT(VP_SPARE) | BIT(VP_LINKING),
	[VP_EXITED]	= BIT(VP_LINKING) | BIT(VP_LINKED),
	[VP_UNLINKED]	= BIT(VP_LINKING) | BIT(VP_LINKED),
	/* LINKING: a link work that runs in the owner's exit */
	[VP_DEAD]	= BIT(VP_LINKING) | BIT(VP_EXITED) | BIT(VP_UNLINKED),
};

/*
 * The one place a set's life moves. A move the diagram does not have
 * warns once and changes nothing: the caller then does nothing either.
 */
bool vp_life_move(struct vperfctr *v, enum vp_life to)
{
	lockdep_assert_held(&v->lock);
	if (WARN_ONCE(!(vp_life_from[to] & BIT(v->life)),
		      "perfctr: no set moves from life %d to %d\n", v->life, to))
		return false;
	WRITE_ONCE(v->life, to);
	return true;
}

/* Its owner's, found by lookups, not finished. */
bool vp_life_owned(const struct vperfctr *v)
{
	return v->life == VP_LINKING || v->life == VP_LINKED;
}

/* No counter running: stop for @why, counts kept. */
void vp_stop(struct vperfctr *v, unsigned int why)
{
	struct perfctr_cpu_state *st = &v->page->cpu;

	lockdep_assert_held(&v->lock);
	if (!v->stopped && st->cstatus) {
		v->saved_cstatus = st->cstatus;
		vp_begin(v);
		st->cstatus = 0;
		vp_end(v);
	}
	v->stopped |= why;
}

void vp_unstop(struct vperfctr *v, unsigned int why)
{
	lockdep_assert_held(&v->lock);
	v->stopped &= ~why;
	if (v->stopped || !v->saved_cstatus)
		return;
	vp_begin(v);
	v->page->cpu.cstatus = v->saved_cstatus;
	vp_end(v);
	v->saved_cstatus = 0;
}

static bool vp_forbidden_cpu(void)
{
	return cpumask_test_cpu(smp_processor_id(), &perfctr_cpus_forbidden_mask);
}

/* The control programs counters (whether or not they run now). */
bool vp_has_ctrs(const struct vperfctr *v)
{
	const struct perfctr_cpu_control *c = &v->page->cpu.control;

	return c->nractrs || c->nrictrs;
}

/*
 * An HT P4's second threads may not touch the counters: on such a CPU a
 * set with counters stands still (the page shows it stopped).
 */
/* Stop @v for @why while @bad holds, and no longer. */
static void vp_stop_while(struct vperfctr *v, unsigned int why, bool bad)
{
	if (bad && !(v->stopped & why))
		vp_stop(v, why);
	else if (!bad && (v->stopped & why))
		vp_unstop(v, why);
}

static void vp_check_cpu(struct vperfctr *v)
{
	vp_stop_while(v, VP_STOP_CPU, vp_has_ctrs(v) && vp_forbidden_cpu());
}

/*
 * PR_SET_TSC after the set took the TSC (S8): the sums would go on
 * timing what the owner forbade itself to time. The set stands still
 * from its next switch-in (an exec's included) until the owner allows
 * RDTSC again or writes a control without the TSC.
 */
static void vp_check_tsc(struct vperfctr *v)
{
	vp_stop_while(v, VP_STOP_NOTSC, v->page->cpu.control.tsc_on &&
		      perfctr_task_notsc(current));
}

/* In the owner, between the exec's new exec id and our decision on it. */
static bool vp_exec_pending(const struct vperfctr *v)
{
	return READ_ONCE(current->self_exec_id) != v->exec_id;
}

/* On the owner's CPU: start counting here. */
static void vp_resume(struct vperfctr *v)
{
	struct perfctr_cpu_state *st = &v->page->cpu;

	lockdep_assert_held(&v->lock);
	/* Only the notifier, once linked, can suspend it again. */
	if (WARN_ON_ONCE(v->life != VP_LINKED) || v->resumed)
		return;
	if (vp_exec_pending(v))
		vp_stop(v, VP_STOP_EXEC);
	if (v->evicted)
		vp_stop(v, VP_STOP_EVICT);
	vp_check_cpu(v);
	vp_check_tsc(v);
	if (!st->cstatus)
		return;
	vp_begin(v);
	perfctr_cpu_resume(st);
	vp_end(v);
	v->resumed = true;
	this_cpu_write(vp_running, v);
	vp_timer_arm();
}

/* On the owner's CPU, interrupts off: @v's owner may no longer read. */
static void vp_user_read_off(struct vperfctr *v)
{
	if (this_cpu_read(vp_reader) != v)
		return;
	perfctr_cpu_user_read(&v->page->cpu, false);
	this_cpu_write(vp_reader, NULL);
}

/*
 * On the owner's CPU, linked: the owner may read its counters
 * from user space (RDPMC) all the time it runs, stopped or not, so that
 * a read racing with a stop never faults. Not where the registers are
 * not its own (an HT P4's second thread, or after the hardware was taken
 * back), nor once its control has no counters. Only the set that turned
 * reading on here turns it off.
 */
static void vp_user_read_on(struct vperfctr *v)
{
	lockdep_assert_held(&v->lock);
	if (!vp_has_ctrs(v) || v->evicted || (v->stopped & VP_STOP_CPU)) {
		vp_user_read_off(v);
		return;
	}
	perfctr_cpu_user_read(&v->page->cpu, true);
	this_cpu_write(vp_reader, v);
}

/*
 * On the owner's CPU: IBS samples while the owner runs, unless
 * the set was suspended by command or its exec is undecided. Perf's IBS
 * on this CPU keeps it off until the next switch-in (counted as busy).
 */
static void vp_ibs_run(struct vperfctr *v)
{
	lockdep_assert_held(&v->lock);
	if (!v->ibs || v->ibs_on || (v->stopped & VP_STOP_CMD) ||
	    vp_exec_pending(v))
		return;
	v->ibs_on = vp_ibs_start(v->ibs);
}

void vp_ibs_leave(struct vperfctr *v)
{
	if (!v->ibs_on)
		return;
	vp_ibs_stop(v->ibs);
	v->ibs_on = false;
}

/* The owner runs again, or its set changed: count, and let it read. */
void vp_run(struct vperfctr *v)
{
	if (v->life != VP_LINKED)	/* unlinked, or the owner exited */
		return;
	vp_resume(v);
	vp_ibs_run(v);
	vp_user_read_on(v);
}

/* On the owner's CPU: stop counting; catch overflows. */
void vp_suspend(struct vperfctr *v)
{
	u32 mask;

	lockdep_assert_held(&v->lock);
	if (!v->resumed)
		return;
	vp_begin(v);
	mask = perfctr_cpu_suspend(&v->page->cpu);
	vp_end(v);
	v->resumed = false;
	this_cpu_write(vp_running, NULL);
	if (mask) {
		vp_stop(v, VP_STOP_OVF);
		v->ovf_mask |= mask;	/* a signal is due */
	}
}

/* On the owner's CPU, as it leaves it: no more user reads. */
void vp_leave(struct vperfctr *v)
{
	vp_suspend(v);
	vp_ibs_leave(v);
	vp_user_read_off(v);
}

/*
 * In the owner: the overflow signal to send, or 0. None between
 * an exec and its decision: vp_exec() drops it. Before that, it is for
 * the program of the current exec id (vp_queue_signal()).
 */
u32 vp_take_signal(struct vperfctr *v, int *signo)
{
	u32 mask = v->ovf_mask;

	lockdep_assert_held(&v->lock);
	if (!mask || vp_exec_pending(v))
		return 0;
	v->ovf_mask = 0;
	*signo = v->uctl.si_signo;
	return mask;
}

void vp_signal(struct task_struct *task, int signo, u32 mask)
{
	struct kernel_siginfo info;

	clear_siginfo(&info);
	info.si_signo = signo;
	info.si_code = SI_PMC_OVF;
	/* User space reads it as si_pmc_ovf_mask, the first word. */
	info._sifields._kill._pid = mask;
	send_sig_info(signo, &info, task);
}

/*
 * In the owner, on its way to user space: the signal queued for it, but
 * not into a program exec'd since (it may be setuid), nor for a set gone.
 * An execve() may be under way for a while before in_execve says so.
 */
static void vp_signal_fn(struct callback_head *cb)
{
	struct vperfctr *v = container_of(cb, struct vperfctr, sig_twork);
	unsigned long flags;
	int signo;
	u32 mask;

	raw_spin_lock_irqsave(&v->lock, flags);
	mask = v->sig_mask;
	if (v->life >= VP_UNLINKED ||
	    READ_ONCE(current->self_exec_id) != v->sig_exec_id)
		mask = 0;
	signo = v->sig_signo;
	v->sig_mask = 0;
	v->sig_queued = false;
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (mask)
		vp_signal(current, signo, mask);
	vp_put(v);
}

/*
 * In the owner: its due signal, sent on its way back to user
 * space. Not here: the callers run in hard interrupt context (the
 * overflow's irq_work) or with preemption off (sched_in), where the
 * signal's siglock, a sleeping lock on PREEMPT_RT, may not be taken.
 */
static void vp_queue_signal(struct vperfctr *v)
{
	int signo = 0;
	u32 mask = vp_take_signal(v, &signo);

	if (!mask)
		return;
	lockdep_assert_irqs_disabled();
	v->sig_mask |= mask;
	v->sig_signo = signo;
	v->sig_exec_id = READ_ONCE(current->self_exec_id);
	if (v->sig_queued)
		return;
	refcount_inc(&v->refs);
	if (task_work_add(current, &v->sig_twork, TWA_RESUME)) {
		/* Exiting: no signal. The owner still holds a reference. */
		refcount_dec(&v->refs);
		v->sig_mask = 0;
		return;
	}
	v->sig_queued = true;
}

static void vp_reap_later(struct vperfctr *v)
{
	llist_add(&v->reap, &vp_reap_list);
	irq_work_queue(&vp_reap_irq_work);
}

static void vp_sched_out(struct preempt_notifier *pn, struct task_struct *next)
{
	struct vperfctr *v = container_of(pn, struct vperfctr, pn);
	bool reap = false;

	raw_spin_lock(&v->lock);
	vp_leave(v);
	/*
	 * The owner's last switch: no one will run these notifiers again.
	 * An unlinked set gets here if its detach could not be queued.
	 */
	if (READ_ONCE(current->__state) == TASK_DEAD)
		reap = vp_life_move(v, VP_DEAD);
	raw_spin_unlock(&v->lock);
	if (reap)
		vp_reap_later(v);
}

static void vp_sched_in(struct preempt_notifier *pn, int cpu)
{
	struct vperfctr *v = container_of(pn, struct vperfctr, pn);
	unsigned long flags;

	raw_spin_lock_irqsave(&v->lock, flags);
	vp_queue_signal(v);
	vp_run(v);
	raw_spin_unlock_irqrestore(&v->lock, flags);
}

static struct preempt_ops vp_preempt_ops = {
	.sched_in = vp_sched_in,
	.sched_out = vp_sched_out,
};

/*
 * Counters stopped: a member's sums go to its tree, once, as it exits or
 * leaves the tree.
 */
void vp_fold(struct vperfctr *v)
{
	struct perfctr_cpu_state *st = &v->page->cpu;
	struct vp_tree *t = v->tree;
	unsigned int i;

	lockdep_assert_held(&v->lock);
	if (!t || v->root || v->folded)
		return;
	v->folded = true;
	raw_spin_lock(&t->lock);
	t->ch.sums.tsc += st->tsc_sum;
	for (i = 0; i < PERFCTR_NR_PMCS; i++)
		t->ch.sums.pmc[i] += st->pmc[i].sum;
	t->ch.live--;
	t->ch.exited++;
	list_del_init(&v->tree_link.node);
	v->fold_at = ++t->folds;
	raw_spin_unlock(&t->lock);
}

/* Done counting: a mapping shows the final sums; a member's are folded. */
static void vp_retire(struct vperfctr *v)
{
	vp_leave(v);
	vp_stop(v, VP_STOP_CMD);
	vp_fold(v);
}

/*
 * In the owner, its notifier registered: forget @v, which its owner, an
 * exec or another's unlink moved to VP_UNLINKED; the one detach there is.
 */
void vp_detach(struct vperfctr *v)
{
	unsigned long flags;
	bool reap;

	preempt_disable();
	raw_spin_lock_irqsave(&v->lock, flags);
	reap = vp_life_move(v, VP_DEAD);
	if (reap)
		vp_retire(v);
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (reap)
		preempt_notifier_unregister(&v->pn);
	preempt_enable();
	if (reap)
		vp_reap_later(v);
}

/*
 * In the owner: from now on the scheduler suspends and resumes @v. Not
 * if it was unlinked or its owner exited before it could be linked, nor
 * in the owner's exit: then it goes, and no notifier was registered.
 */
void vp_link(struct vperfctr *v)
{
	unsigned long flags;
	bool reap = false;

	preempt_disable();
	raw_spin_lock_irqsave(&v->lock, flags);
	if ((v->life == VP_SPARE || v->life == VP_LINKING) &&
	    !(current->flags & PF_EXITING)) {
		vp_life_move(v, VP_LINKED);
		preempt_notifier_register(&v->pn);
		vp_run(v);
	} else {
		reap = vp_life_move(v, VP_DEAD);
		if (reap)
			vp_retire(v);
	}
	raw_spin_unlock_irqrestore(&v->lock, flags);
	preempt_enable();
	if (reap)
		vp_reap_later(v);
}

static void vp_link_fn(struct callback_head *cb)
{
	vp_link(container_of(cb, struct vperfctr, twork));
}

/* Queued by another's unlink, which holds a reference for it. */
static void vp_detach_fn(struct callback_head *cb)
{
	struct vperfctr *v = container_of(cb, struct vperfctr, twork);

	vp_detach(v);
	vp_put(v);
}

/* Overflow interrupt, on the CPU that counted, interrupts off. */
static void vp_ihandler(unsigned long pc)
{
	struct vperfctr *v = this_cpu_read(vp_running);

	if (!v || v->owner != current)
		return;
	raw_spin_lock(&v->lock);
	vp_suspend(v);
	vp_queue_signal(v);
	/* Nothing overflowed after all; unless unlinked since it resumed. */
	if (!v->stopped && v->life == VP_LINKED)
		vp_resume(v);
	raw_spin_unlock(&v->lock);
}

/*
 * Gone for lookups from now on, if its owner has it. Returns the life it
 * had: from VP_LINKED, the caller must see it detached, once; from
 * VP_LINKING, its pending link work does; otherwise someone else did
 * (another unlink, an exec), or the owner exited.
 */
enum vp_life vp_unlink_locked(struct vperfctr *v)
{
	enum vp_life was = v->life;

	if (vp_life_owned(v))
		vp_life_move(v, VP_UNLINKED);
	return was;
}

static enum vp_life vp_mark_unlinked(struct vperfctr *v)
{
	unsigned long flags;
	enum vp_life was;

	raw_spin_lock_irqsave(&v->lock, flags);
	was = vp_unlink_locked(v);
	raw_spin_unlock_irqrestore(&v->lock, flags);
	return was;
}

/*
 * Under RCU or vp_mutex: @task's set, even between exec and decision.
 * One that moves on since may be used until the reap, which unhashes it
 * under vp_mutex and waits for RCU readers before it drops it.
 */
struct vperfctr *vp_find_any(struct task_struct *task)
{
	struct vperfctr *v;

	hash_for_each_possible_rcu(vp_hash, v, node, (unsigned long)task,
				   lockdep_is_held(&vp_mutex))
		if (v->owner == task && READ_ONCE(v->life) < VP_UNLINKED)
			return v;
	return NULL;
}

/*
 * Under RCU or vp_mutex. Between an exec and its decision on the set
 * (sched_process_exec), the set is nobody's.
 */
struct vperfctr *vp_find(struct task_struct *task)
{
	struct vperfctr *v = vp_find_any(task);

	if (v && READ_ONCE(task->self_exec_id) != READ_ONCE(v->exec_id))
		return NULL;
	return v;
}

void vp_tree_put(struct vp_tree *t)
{
	if (t && refcount_dec_and_test(&t->refs))
		kfree(t);
}

/* A set never given to a thread (vp_alloc()). */
void vp_free_spare(struct vperfctr *v)
{
	free_page((unsigned long)v->page);
	kfree(v);
}

/* From the reap work only: see vp_put(). */
static void vp_free(struct vperfctr *v)
{
	vp_ibs_retire(v->ibs);	/* stopped: the owner left its CPU */
	WARN_ON_ONCE(!list_empty(&v->tree_link.node));	/* folded or gone */
	if (v->spare)
		vp_free_spare(v->spare);
	vp_tree_put(v->tree);
	put_task_struct(v->owner);
	free_page((unsigned long)v->page);	/* a mapping keeps its own ref */
	kfree(v);
	module_put(THIS_MODULE);
}

/*
 * The last reference frees the set from the reap work, never here: some
 * callers are task_work callbacks and tracepoint probes, where the module
 * must not lose its last reference, nor (PREEMPT_RT) memory be freed.
 */
void vp_put(struct vperfctr *v)
{
	if (refcount_dec_and_test(&v->refs)) {
		llist_add(&v->reap, &vp_free_list);
		irq_work_queue(&vp_reap_irq_work);
	}
}

void vp_hw_put(void)
{
	lockdep_assert_held(&vp_mutex);
	if (!--vp_hw_users)
		perfctr_cpu_release(vperfctr_service);
}

int vp_hw_get(void)
{
	lockdep_assert_held(&vp_mutex);
	if (vp_hw_held)
		return -EBUSY;
	if (!vp_hw_users && perfctr_cpu_reserve(vperfctr_service))
		return -EBUSY;
	vp_hw_users++;
	return 0;
}

static void vp_reap_fn(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&vp_reap_list);
	struct vperfctr *v, *n;

	if (list) {
		mutex_lock(&vp_mutex);
		llist_for_each_entry(v, list, reap) {
			hash_del_rcu(&v->node);
			if (v->reserved) {
				v->reserved = false;
				vp_hw_put();
			}
		}
		mutex_unlock(&vp_mutex);
		synchronize_rcu();	/* sums readers look sets up under RCU */
		llist_for_each_entry_safe(v, n, list, reap)
			vp_put(v);
	}
	list = llist_del_all(&vp_free_list);
	llist_for_each_entry_safe(v, n, list, reap)
		vp_free(v);
}

/* Charged to the caller's memory cgroup: every user can make sets. */
struct vperfctr *vp_alloc(void)
{
	struct vperfctr *v = kzalloc(sizeof(*v), GFP_KERNEL_ACCOUNT);

	if (!v)
		return NULL;
	v->page = (void *)get_zeroed_page(GFP_KERNEL_ACCOUNT);
	if (!v->page) {
		kfree(v);
		return NULL;
	}
	v->page->magic = VPERFCTR_STATE_MAGIC;
	raw_spin_lock_init(&v->lock);
	refcount_set(&v->refs, 1);
	INIT_LIST_HEAD(&v->tree_link.node);
	preempt_notifier_init(&v->pn, &vp_preempt_ops);
	init_task_work(&v->sig_twork, vp_signal_fn);
	return v;
}

/* A new, empty set for @task, linked in its context. */
struct vperfctr *vp_create(struct task_struct *task)
{
	struct vperfctr *v;

	lockdep_assert_held(&vp_mutex);
	if (!vp_tps_ok)
		return ERR_PTR(-EOPNOTSUPP);
	v = vp_alloc();
	if (!v)
		return ERR_PTR(-ENOMEM);
	get_task_struct(task);
	v->owner = task;
	v->exec_id = READ_ONCE(task->self_exec_id);
	vp_creds_take(&v->creds, task);
	__module_get(THIS_MODULE);	/* our file is open: we are live */
	if (task != current) {
		/*
		 * LINKING before the link work is queued: it may run at once,
		 * in the task's exit, and drop the set (vp_link()). Its reap
		 * then waits for vp_mutex, and the control finds it dead.
		 */
		raw_spin_lock_irq(&v->lock);
		vp_life_move(v, VP_LINKING);
		raw_spin_unlock_irq(&v->lock);
		init_task_work(&v->twork, vp_link_fn);
		if (task_work_add(task, &v->twork, TWA_RESUME)) {
			vp_free(v);	/* never seen: no one else has it */
			return ERR_PTR(-ESRCH);	/* it is exiting */
		}
	}
	hash_add_rcu(vp_hash, &v->node, (unsigned long)task);
	if (task == current)
		vp_link(v);
	return v;
}

void vp_unlink(struct vperfctr *v)
{
	lockdep_assert_held(&vp_mutex);
	if (v->owner == current) {
		/* Not linked yet: the pending link work detaches it. */
		if (vp_mark_unlinked(v) == VP_LINKED)
			vp_detach(v);
		/* Let go of the hardware now, not when the set is freed. */
		if (v->reserved) {
			v->reserved = false;
			vp_hw_put();
		}
		return;
	}
	/*
	 * Since vp_find() the owner may have unlinked it itself (an exec)
	 * or exited, or its link work may still be pending and will detach
	 * it: twork must not be queued twice.
	 */
	if (vp_mark_unlinked(v) != VP_LINKED)
		return;
	init_task_work(&v->twork, vp_detach_fn);
	refcount_inc(&v->refs);		/* the work's; the owner's stays */
	/* Fails only if it is exiting: then its last switch reaps the set. */
	if (task_work_add(v->owner, &v->twork, TWA_RESUME))
		refcount_dec(&v->refs);
}

/*
 * On every CPU, as the hardware is taken back: stop the set counting
 * here, and user reads of the counters, which will not be its own.
 */
static void vp_evict_cpu(void *unused)
{
	struct vperfctr *v = this_cpu_read(vp_running);

	if (v) {
		raw_spin_lock(&v->lock);
		if (v->evicted) {
			vp_suspend(v);
			vp_stop(v, VP_STOP_EVICT);
		}
		raw_spin_unlock(&v->lock);
	}
	v = this_cpu_read(vp_reader);
	if (v && READ_ONCE(v->evicted))
		vp_user_read_off(v);
}

/*
 * CAP_PERFMON takes the hardware back from every set that holds it: they
 * stop, their page shows cstatus 0, status says "evicted", and only a new
 * control gives them counters again. Returns the number of sets.
 */
unsigned int vperfctr_reclaim(void)
{
	unsigned int bkt, n = 0;
	struct vperfctr *v;
	unsigned long flags;

	vperfctr_settle();
	mutex_lock(&vp_mutex);
	hash_for_each(vp_hash, bkt, v, node) {
		if (!v->reserved)
			continue;
		raw_spin_lock_irqsave(&v->lock, flags);
		v->evicted = true;	/* vp_resume() sees it from now on */
		if (!v->resumed)
			vp_stop(v, VP_STOP_EVICT);
		raw_spin_unlock_irqrestore(&v->lock, flags);
		v->reserved = false;
		n++;
	}
	/* Those counting right now: on their CPU. */
	if (n)
		on_each_cpu(vp_evict_cpu, NULL, 1);
	if (vp_hw_users) {
		vp_hw_users = 0;
		perfctr_cpu_release(vperfctr_service);
	}
	mutex_unlock(&vp_mutex);
	return n;
}

/* An administrator keeps the hardware from the sets, or lets it go. */
void vperfctr_hold(bool hold)
{
	mutex_lock(&vp_mutex);
	vp_hw_held = hold;
	mutex_unlock(&vp_mutex);
}

bool vperfctr_held(void)
{
	return READ_ONCE(vp_hw_held);
}

/*
 * For /proc/perfctr/info: " (N sets; uids U...)" of the sets holding the
 * hardware; the uids only to CAP_PERFMON, as they say who runs what.
 */
void vperfctr_show_holders(struct seq_file *m)
{
	unsigned int bkt, n = 0, nuids = 0, i;
	bool show = perfmon_capable();
	uid_t uids[8];
	struct vperfctr *v;

	mutex_lock(&vp_mutex);
	hash_for_each(vp_hash, bkt, v, node) {
		uid_t uid;

		if (!v->reserved)
			continue;
		n++;
		uid = from_kuid_munged(seq_user_ns(m), task_uid(v->owner));
		for (i = 0; i < nuids && uids[i] != uid; i++)
			;
		if (i == nuids && nuids < ARRAY_SIZE(uids))
			uids[nuids++] = uid;
	}
	mutex_unlock(&vp_mutex);
	seq_printf(m, " (%u set%s", n, n == 1 ? "" : "s");
	if (show) {
		seq_printf(m, "; uid%s", nuids == 1 ? "" : "s");
		for (i = 0; i < nuids; i++)
			seq_printf(m, " %u", uids[i]);
	}
	seq_puts(m, ")");
}

/*
 * Sets already gone let go of the hardware before this returns. The work
 * may queue itself again (a reap's last reference), hence the loop.
 */
void vperfctr_settle(void)
{
	do {
		irq_work_sync(&vp_reap_irq_work);
		flush_work(&vp_reap_work);
	} while (!llist_empty(&vp_reap_list) || !llist_empty(&vp_free_list));
}

/* The sampling timers, the notifiers and the overflow handler. */
int vp_set_init(void)
{
	int ret = vp_tick_init();

	if (ret)
		return ret;
	/* Once for the module's life: enabling it per set would sleep. */
	preempt_notifier_inc();
	perfctr_cpu_set_ihandler(vp_ihandler);
	return 0;
}

/* After the probes are gone: no set can be made any more. */
void vp_set_exit(void)
{
	perfctr_cpu_set_ihandler(NULL);
	vperfctr_settle();	/* the last vp_free() may still return */
	vp_tick_exit();
	preempt_notifier_dec();
}
