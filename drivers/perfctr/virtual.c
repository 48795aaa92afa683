// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: virtual per-thread counters, /proc/perfctr/<tid>/.
 *
 * A thread may own one counter set (struct vperfctr): a low-level state
 * kept in a page the thread can map read-only, suspended when the thread
 * is scheduled out and resumed when it is scheduled in (preempt
 * notifiers), so counts accrue only while it runs.
 *
 * Who may touch a set:
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
 * the way back to user space or at exit, and is what detaches a set
 * unlinked meanwhile. An exec decides the set's fate in the exec'ing
 * thread, once its new credentials are committed (sched_process_exec).
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/capability.h>
#include <linux/cpuhotplug.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/hashtable.h>
#include <linux/hrtimer.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/pid.h>
#include <linux/preempt.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/seq_file.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/task_work.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>
#include <linux/workqueue.h>

#include <perfctr/compat.h>
#include <perfctr/cpu.h>
#include <perfctr/ibs.h>
#include "internal.h"

/* The mmap'd page: what struct vperfctr_state shows, then kernel data. */
struct vperfctr_page {
	u32 magic;
	u32 seq;
	struct perfctr_cpu_state cpu;
};

static_assert(offsetof(struct vperfctr_page, seq) ==
	      offsetof(struct vperfctr_state, seq));
static_assert(offsetof(struct vperfctr_page, cpu) ==
	      offsetof(struct vperfctr_state, cpu_state));
static_assert(sizeof(struct vperfctr_page) <= PAGE_SIZE);
/* One layout for 32- and 64-bit user space (virtual.rst, "children"). */
static_assert(offsetof(struct vperfctr_children, sums) == 16);
static_assert(sizeof(struct vperfctr_children) ==
	      16 + sizeof(struct perfctr_sum_ctrs));

/* Why a set's counters are stopped. */
#define VP_STOP_CMD	BIT(0)	/* VPERFCTR_CMD_SUSPEND */
#define VP_STOP_OVF	BIT(1)	/* overflowed; waits for IRESUME */
#define VP_STOP_CPU	BIT(2)	/* on a CPU that may not use the counters */
#define VP_STOP_EVICT	BIT(3)	/* the hardware was taken back */
#define VP_STOP_EXEC	BIT(4)	/* exec'ing; sched_process_exec decides */
#define VP_STOP_EXIT	BIT(5)	/* the owner is exiting: the sums are final */

/*
 * An inheritance tree: the total of its members, the sets that threads
 * made by the root's owner (and theirs, on down) got at their birth.
 * Each member adds its sums once, as it exits or leaves the tree.
 * Referenced by the root and by every member.
 */
struct vp_tree {
	raw_spinlock_t lock;
	refcount_t refs;
	struct vperfctr_children ch;
};

struct vperfctr {
	raw_spinlock_t lock;
	refcount_t refs;		/* the owner's, final readers' (vp_watch) */
	struct preempt_notifier pn;
	struct task_struct *owner;	/* referenced */
	struct hlist_node node;		/* vp_hash, keyed by owner */
	struct llist_node reap;
	struct callback_head twork;	/* link or detach in the owner */
	struct vperfctr_page *page;
	struct vperfctr_control uctl;	/* as written; cpu_control unused */
	struct vp_creds creds;		/* a set survives exec only with these */
	u64 exec_id;			/* owner's at the control's write */
	u32 saved_cstatus;		/* cstatus while stopped */
	u32 ovf_mask;			/* for the signal not yet sent */
	unsigned int stopped;		/* VP_STOP_* */
	bool linked;			/* notifier registered */
	bool unlinked;			/* gone for lookups; to be detached */
	bool reaping;
	bool resumed;			/* counting on a CPU now */
	bool sig_due;
	bool sig_queued;		/* sig_twork is queued */
	int sig_signo;			/* for sig_twork: what to send */
	u32 sig_mask;
	struct callback_head sig_twork;	/* the signal, on the way out */
	bool reserved;			/* holds the hardware */
	bool evicted;			/* lost it to vperfctr_reclaim() */
	bool exited;			/* the owner exited: final sums */
	/* Inheritance: the tree this set roots, or is a member of. */
	struct vp_tree *tree;
	bool root;
	bool folded;			/* a member's sums are in its tree */
	bool refill_queued;
	struct vperfctr *spare;		/* the next child's set, made ahead */
	struct callback_head refill;	/* makes the next spare, in the owner */
	/* The /dev/perfmon file whose set it is (perfmon.c), or 0. */
	u64 tag;
	/* IBS (ibs.c): the setup, referenced, and whether it runs here. */
	struct vp_ibs *ibs;
	bool ibs_on;
};

/* PF_USER_WORKER (vhost, 6.4+) threads run no user code of their own. */
#ifdef PF_USER_WORKER
#define VP_PF_USER_WORKER	PF_USER_WORKER
#else
#define VP_PF_USER_WORKER	0
#endif

/* Sets by owner. Changed under vp_mutex; looked up under it or RCU. */
static DEFINE_HASHTABLE(vp_hash, 8);
static DEFINE_MUTEX(vp_mutex);
static unsigned int vp_hw_users;	/* sets with counters, vp_mutex */

/*
 * The sched_process_{exec,fork,exit} tracepoints: without all three no
 * set is made (see vp_exec(), vp_fork(), vp_exit()).
 */
static bool vp_tps_ok;

const char *const vperfctr_service = "virtual counters";

/* The set running on each CPU; its sampling timer. */
static DEFINE_PER_CPU(struct vperfctr *, vp_running);
/* The set whose owner may read the counters here (it turned RDPMC on). */
static DEFINE_PER_CPU(struct vperfctr *, vp_reader);

struct vp_cpu {
	struct hrtimer timer;
	bool armed;
};

static DEFINE_PER_CPU(struct vp_cpu, vp_cpus);

/* As global mode: no 32-bit delta wraps at 16 events a cycle at 5 GHz. */
#define VP_SAMPLE_NS	(50 * NSEC_PER_MSEC)

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

/* User-visible state changes inside these two: see struct vperfctr_state. */
static void vp_begin(struct vperfctr *v)
{
	WRITE_ONCE(v->page->seq, v->page->seq + 1);
	/* Readers on other CPUs see the odd seq before any change. */
	smp_wmb();
}

static void vp_end(struct vperfctr *v)
{
	/* ... and every change before the even seq. */
	smp_wmb();
	WRITE_ONCE(v->page->seq, v->page->seq + 1);
}

static void vp_timer_arm(void)
{
	struct vp_cpu *c = this_cpu_ptr(&vp_cpus);

	if (c->armed)
		return;
	c->armed = true;
	hrtimer_start(&c->timer, ns_to_ktime(VP_SAMPLE_NS),
		      PERFCTR_TIMER_MODE);
}

/* Locked, no counter running: stop for @why, counts kept. */
static void vp_stop(struct vperfctr *v, unsigned int why)
{
	struct perfctr_cpu_state *st = &v->page->cpu;

	if (!v->stopped && st->cstatus) {
		v->saved_cstatus = st->cstatus;
		vp_begin(v);
		st->cstatus = 0;
		vp_end(v);
	}
	v->stopped |= why;
}

static void vp_unstop(struct vperfctr *v, unsigned int why)
{
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
static bool vp_has_ctrs(const struct vperfctr *v)
{
	const struct perfctr_cpu_control *c = &v->page->cpu.control;

	return c->nractrs || c->nrictrs;
}

/*
 * An HT P4's second threads may not touch the counters: on such a CPU a
 * set with counters stands still (the page shows it stopped).
 */
static void vp_check_cpu(struct vperfctr *v)
{
	bool bad = vp_has_ctrs(v) && vp_forbidden_cpu();

	if (bad && !(v->stopped & VP_STOP_CPU))
		vp_stop(v, VP_STOP_CPU);
	else if (!bad && (v->stopped & VP_STOP_CPU))
		vp_unstop(v, VP_STOP_CPU);
}

/* In the owner, between the exec's new exec id and our decision on it. */
static bool vp_exec_pending(const struct vperfctr *v)
{
	return READ_ONCE(current->self_exec_id) != v->exec_id;
}

/* Locked, on the owner's CPU: start counting here. */
static void vp_resume(struct vperfctr *v)
{
	struct perfctr_cpu_state *st = &v->page->cpu;

	/* Only the notifier, once linked, can suspend it again. */
	if (WARN_ON_ONCE(!v->linked) || v->resumed)
		return;
	if (vp_exec_pending(v))
		vp_stop(v, VP_STOP_EXEC);
	if (v->evicted)
		vp_stop(v, VP_STOP_EVICT);
	vp_check_cpu(v);
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
 * Locked, on the owner's CPU, linked: the owner may read its counters
 * from user space (RDPMC) all the time it runs, stopped or not, so that
 * a read racing with a stop never faults. Not where the registers are
 * not its own (an HT P4's second thread, or after the hardware was taken
 * back), nor once its control has no counters. Only the set that turned
 * reading on here turns it off.
 */
static void vp_user_read_on(struct vperfctr *v)
{
	if (!vp_has_ctrs(v) || v->evicted || (v->stopped & VP_STOP_CPU)) {
		vp_user_read_off(v);
		return;
	}
	perfctr_cpu_user_read(&v->page->cpu, true);
	this_cpu_write(vp_reader, v);
}

/*
 * Locked, on the owner's CPU: IBS samples while the owner runs, unless
 * the set was suspended by command or its exec is undecided. Perf's IBS
 * on this CPU keeps it off until the next switch-in (counted as busy).
 */
static void vp_ibs_run(struct vperfctr *v)
{
	if (!v->ibs || v->ibs_on || (v->stopped & VP_STOP_CMD) ||
	    vp_exec_pending(v))
		return;
	v->ibs_on = vp_ibs_start(v->ibs);
}

static void vp_ibs_leave(struct vperfctr *v)
{
	if (!v->ibs_on)
		return;
	vp_ibs_stop(v->ibs);
	v->ibs_on = false;
}

/* The owner runs again, or its set changed: count, and let it read. */
static void vp_run(struct vperfctr *v)
{
	if (v->exited)
		return;
	vp_resume(v);
	vp_ibs_run(v);
	vp_user_read_on(v);
}

/* Locked, on the owner's CPU: stop counting; catch overflows. */
static void vp_suspend(struct vperfctr *v)
{
	u32 mask;

	if (!v->resumed)
		return;
	vp_begin(v);
	mask = perfctr_cpu_suspend(&v->page->cpu);
	vp_end(v);
	v->resumed = false;
	this_cpu_write(vp_running, NULL);
	if (mask) {
		vp_stop(v, VP_STOP_OVF);
		v->ovf_mask |= mask;
		v->sig_due = true;
	}
}

/* Locked, on the owner's CPU, as it leaves it: no more user reads. */
static void vp_leave(struct vperfctr *v)
{
	vp_suspend(v);
	vp_ibs_leave(v);
	vp_user_read_off(v);
}

/*
 * Locked, in the owner: the overflow signal to send once unlocked, or 0.
 * None while the owner is inside execve(): a signal sent then stays
 * pending through the exec and would reach the new program, which may
 * be setuid. It waits; vp_exec() drops it, or a failed exec sends it
 * at the next switch-in.
 */
static u32 vp_take_signal(struct vperfctr *v, int *signo)
{
	u32 mask = v->ovf_mask;

	if (!v->sig_due || current->in_execve || vp_exec_pending(v))
		return 0;
	v->sig_due = false;
	v->ovf_mask = 0;
	*signo = v->uctl.si_signo;
	return mask;
}

static void vp_signal(struct task_struct *task, int signo, u32 mask)
{
	struct kernel_siginfo info;

	clear_siginfo(&info);
	info.si_signo = signo;
	info.si_code = SI_PMC_OVF;
	/* User space reads it as si_pmc_ovf_mask, the first word. */
	info._sifields._kill._pid = mask;
	send_sig_info(signo, &info, task);
}

static void vp_put(struct vperfctr *v);

/* In the owner, on its way to user space: the signal queued for it. */
static void vp_signal_fn(struct callback_head *cb)
{
	struct vperfctr *v = container_of(cb, struct vperfctr, sig_twork);
	unsigned long flags;
	int signo;
	u32 mask;

	raw_spin_lock_irqsave(&v->lock, flags);
	mask = v->sig_mask;
	signo = v->sig_signo;
	v->sig_mask = 0;
	v->sig_queued = false;
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (mask)
		vp_signal(current, signo, mask);
	vp_put(v);
}

/*
 * Locked, in the owner: its due signal, sent on its way back to user
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
	v->sig_mask |= mask;
	v->sig_signo = signo;
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

/* Locked: true the first time only. */
static bool vp_claim_reap(struct vperfctr *v)
{
	bool first = !v->reaping;

	v->reaping = true;
	return first;
}

static void vp_sched_out(struct preempt_notifier *pn, struct task_struct *next)
{
	struct vperfctr *v = container_of(pn, struct vperfctr, pn);
	bool reap = false;

	raw_spin_lock(&v->lock);
	vp_leave(v);
	/* The owner's last switch: no one will run these notifiers again. */
	if (READ_ONCE(current->__state) == TASK_DEAD)
		reap = vp_claim_reap(v);
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
	if (!v->unlinked)
		vp_run(v);	/* not after the owner's exit (vp_run()) */
	raw_spin_unlock_irqrestore(&v->lock, flags);
}

static struct preempt_ops vp_preempt_ops = {
	.sched_in = vp_sched_in,
	.sched_out = vp_sched_out,
};

/*
 * Locked, counters stopped: a member's sums go to its tree, once, as it
 * exits or leaves the tree.
 */
static void vp_fold(struct vperfctr *v)
{
	struct perfctr_cpu_state *st = &v->page->cpu;
	struct vp_tree *t = v->tree;
	unsigned int i;

	if (!t || v->root || v->folded)
		return;
	v->folded = true;
	raw_spin_lock(&t->lock);
	t->ch.sums.tsc += st->tsc_sum;
	for (i = 0; i < PERFCTR_NR_PMCS; i++)
		t->ch.sums.pmc[i] += st->pmc[i].sum;
	t->ch.live--;
	t->ch.exited++;
	raw_spin_unlock(&t->lock);
}

/* In the owner, linked: forget @v (it is unlinked). */
static void vp_detach(struct vperfctr *v)
{
	unsigned long flags;
	bool reap;

	preempt_disable();
	raw_spin_lock_irqsave(&v->lock, flags);
	vp_leave(v);
	vp_stop(v, VP_STOP_CMD);	/* a mapping shows final sums */
	vp_fold(v);
	reap = vp_claim_reap(v);
	raw_spin_unlock_irqrestore(&v->lock, flags);
	preempt_notifier_unregister(&v->pn);
	preempt_enable();
	if (reap)
		vp_reap_later(v);
}

/*
 * In the owner: from now on the scheduler suspends and resumes @v; unless
 * it was unlinked before it could be linked.
 */
static void vp_link(struct vperfctr *v)
{
	unsigned long flags;
	bool gone;

	preempt_disable();
	preempt_notifier_register(&v->pn);
	raw_spin_lock_irqsave(&v->lock, flags);
	v->linked = true;
	gone = v->unlinked;
	if (!gone)
		vp_run(v);
	raw_spin_unlock_irqrestore(&v->lock, flags);
	preempt_enable();
	if (gone)
		vp_detach(v);
}

static void vp_link_fn(struct callback_head *cb)
{
	vp_link(container_of(cb, struct vperfctr, twork));
}

static void vp_detach_fn(struct callback_head *cb)
{
	vp_detach(container_of(cb, struct vperfctr, twork));
}

/* The timer of each CPU folds the running set's counts into its sums. */
static enum hrtimer_restart vp_tick(struct hrtimer *timer)
{
	struct vp_cpu *c = container_of(timer, struct vp_cpu, timer);
	struct vperfctr *v = this_cpu_read(vp_running);

	if (c != this_cpu_ptr(&vp_cpus) || !v) {
		WRITE_ONCE(c->armed, false);	/* the next resume restarts it */
		return HRTIMER_NORESTART;
	}
	raw_spin_lock(&v->lock);
	if (v->resumed) {
		vp_begin(v);
		perfctr_cpu_sample(&v->page->cpu);
		vp_end(v);
	}
	raw_spin_unlock(&v->lock);
	hrtimer_forward_now(timer, ns_to_ktime(VP_SAMPLE_NS));
	return HRTIMER_RESTART;
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
	if (!v->stopped)
		vp_resume(v);		/* nothing overflowed after all */
	raw_spin_unlock(&v->lock);
}

/*
 * Gone for lookups from now on. True if it is linked and no one has
 * queued its detach yet (an unlink, an exec seen at switch-in), nor will
 * its pending link work: the caller must see it detached, once.
 */
static bool vp_mark_unlinked(struct vperfctr *v)
{
	unsigned long flags;
	bool first;

	raw_spin_lock_irqsave(&v->lock, flags);
	first = v->linked && !v->unlinked;
	WRITE_ONCE(v->unlinked, true);
	raw_spin_unlock_irqrestore(&v->lock, flags);
	return first;
}

/* Under RCU or vp_mutex: @task's set, even between exec and decision. */
static struct vperfctr *vp_find_any(struct task_struct *task)
{
	struct vperfctr *v;

	hash_for_each_possible_rcu(vp_hash, v, node, (unsigned long)task,
				   lockdep_is_held(&vp_mutex))
		if (v->owner == task && !READ_ONCE(v->unlinked))
			return v;
	return NULL;
}

/*
 * Under RCU or vp_mutex. Between an exec and its decision on the set
 * (sched_process_exec), the set is nobody's.
 */
static struct vperfctr *vp_find(struct task_struct *task)
{
	struct vperfctr *v = vp_find_any(task);

	if (v && READ_ONCE(task->self_exec_id) != READ_ONCE(v->exec_id))
		return NULL;
	return v;
}

static void vp_tree_put(struct vp_tree *t)
{
	if (t && refcount_dec_and_test(&t->refs))
		kfree(t);
}

/* A set never given to a thread (vp_alloc()). */
static void vp_free_spare(struct vperfctr *v)
{
	free_page((unsigned long)v->page);
	kfree(v);
}

/* From the reap work only: see vp_put(). */
static void vp_free(struct vperfctr *v)
{
	vp_ibs_retire(v->ibs);	/* stopped: the owner left its CPU */
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
static void vp_put(struct vperfctr *v)
{
	if (refcount_dec_and_test(&v->refs)) {
		llist_add(&v->reap, &vp_free_list);
		irq_work_queue(&vp_reap_irq_work);
	}
}

static void vp_hw_put(void)
{
	if (!--vp_hw_users)
		perfctr_cpu_release(vperfctr_service);
}

static int vp_hw_get(void)
{
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

static void vp_creds_from(struct vp_creds *c, const struct cred *cred)
{
	c->uid = cred->uid;
	c->euid = cred->euid;
	c->suid = cred->suid;
	c->fsuid = cred->fsuid;
	c->gid = cred->gid;
	c->egid = cred->egid;
	c->sgid = cred->sgid;
	c->fsgid = cred->fsgid;
	c->permitted = cred->cap_permitted;
}

void vp_creds_take(struct vp_creds *c, struct task_struct *task)
{
	rcu_read_lock();
	vp_creds_from(c, __task_cred(task));
	rcu_read_unlock();
}

static bool vp_creds_eq(const struct vp_creds *a, const struct vp_creds *b)
{
	return uid_eq(a->uid, b->uid) && uid_eq(a->euid, b->euid) &&
	       uid_eq(a->suid, b->suid) && uid_eq(a->fsuid, b->fsuid) &&
	       gid_eq(a->gid, b->gid) && gid_eq(a->egid, b->egid) &&
	       gid_eq(a->sgid, b->sgid) && gid_eq(a->fsgid, b->fsgid) &&
	       cap_issubset(a->permitted, b->permitted) &&
	       cap_issubset(b->permitted, a->permitted);
}

bool vp_creds_same(const struct vp_creds *c, const struct cred *cred)
{
	struct vp_creds now;

	vp_creds_from(&now, cred);
	return vp_creds_eq(c, &now);
}

/* Charged to the caller's memory cgroup: every user can make sets. */
static struct vperfctr *vp_alloc(void)
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
	preempt_notifier_init(&v->pn, &vp_preempt_ops);
	init_task_work(&v->sig_twork, vp_signal_fn);
	return v;
}

/* vp_mutex held. A new, empty set for @task, linked in its context. */
static struct vperfctr *vp_create(struct task_struct *task)
{
	struct vperfctr *v;

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

/* Changing another thread's counters: it must be stopped, traced by us. */
static int vp_may_change(struct task_struct *task)
{
	bool ours;

	if (task == current)
		return 0;
	rcu_read_lock();
	ours = ptrace_parent(task) == current && task_is_traced(task);
	rcu_read_unlock();
	return ours ? 0 : -EPERM;
}

/*
 * Final counts. Every open file of a thread's refers to its thread's
 * watch; as the thread exits (vp_exit()), the watch takes a reference to
 * its set, so that the files still read it, final, until the last one
 * is closed. Watches are made and found under vp_watch_lock.
 */
struct vp_watch {
	struct hlist_node node;		/* vp_watches, keyed by task */
	struct task_struct *task;	/* referenced */
	unsigned int files;		/* open files referring to it */
	bool done;			/* vp_exit() ran: final, exit_creds */
	struct vperfctr *final;		/* referenced; NULL: no set at exit */
	struct vp_creds exit_creds;
	bool exit_dumpable;
};

/*
 * An open file of /proc/perfctr/<tid>/: its thread's watch, and the
 * thread as it was at the open (vp_file_may()).
 */
struct vp_file {
	struct vp_watch *w;
	struct vp_creds creds;
	bool dumpable;
	bool own;			/* opened by the thread's own process */
};

static DEFINE_HASHTABLE(vp_watches, 6);
static DEFINE_RAW_SPINLOCK(vp_watch_lock);
static unsigned int vp_nr_watches;

static struct vp_watch *vp_watch_find(struct task_struct *task)
{
	struct vp_watch *w;

	hash_for_each_possible(vp_watches, w, node, (unsigned long)task)
		if (w->task == task)
			return w;
	return NULL;
}

static void vp_watch_put(struct vp_watch *w)
{
	bool last;

	raw_spin_lock(&vp_watch_lock);
	last = !--w->files;
	if (last) {
		hash_del(&w->node);
		WRITE_ONCE(vp_nr_watches, vp_nr_watches - 1);
	}
	raw_spin_unlock(&vp_watch_lock);
	if (!last)
		return;
	if (w->final)
		vp_put(w->final);
	put_task_struct(w->task);
	kfree(w);
}

/* @task's watch, made if need be; -ESRCH once it is exiting. */
static struct vp_watch *vp_watch_get(struct task_struct *task)
{
	struct vp_watch *w, *new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);

	if (!new)
		return ERR_PTR(-ENOMEM);
	raw_spin_lock(&vp_watch_lock);
	w = vp_watch_find(task);
	if (!w) {
		w = new;
		new = NULL;
		get_task_struct(task);
		w->task = task;
		hash_add(vp_watches, &w->node, (unsigned long)task);
		WRITE_ONCE(vp_nr_watches, vp_nr_watches + 1);
	}
	w->files++;
	raw_spin_unlock(&vp_watch_lock);
	kfree(new);
	/* Pairs with vp_watch_exit(): either it finds w, or we see the exit. */
	smp_mb();
	if (READ_ONCE(task->flags) & PF_EXITING) {
		vp_watch_put(w);
		return ERR_PTR(-ESRCH);
	}
	return w;
}

/*
 * In the exiting thread, its set (or NULL) final: its watch, if any,
 * keeps it for the files, with the credentials it exits with.
 */
static void vp_watch_exit(struct vperfctr *v)
{
	struct vp_watch *w;

	/* Pairs with vp_watch_get(); PF_EXITING is set. */
	smp_mb();
	if (!READ_ONCE(vp_nr_watches))
		return;
	raw_spin_lock(&vp_watch_lock);
	w = vp_watch_find(current);
	if (w && !w->done) {
		if (v) {
			refcount_inc(&v->refs);
			w->final = v;
		}
		vp_creds_take(&w->exit_creds, current);
		/* exit_mm() is done, but the mm stays our active_mm. */
		w->exit_dumpable = current->active_mm &&
			get_dumpable(current->active_mm) == SUID_DUMP_USER;
		/* final and exit_creds before done: vp_wait_exit() */
		smp_store_release(&w->done, true);
	}
	raw_spin_unlock(&vp_watch_lock);
}

bool vp_task_dumpable(struct task_struct *task)
{
	bool dumpable;

	task_lock(task);
	dumpable = task->mm && get_dumpable(task->mm) == SUID_DUMP_USER;
	task_unlock(task);
	return dumpable;
}

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
	if (!err) {
		f->w = vp_watch_get(task);
		err = PTR_ERR_OR_ZERO(f->w);
	}
	if (!err)
		return f;
	kfree(f);
	return ERR_PTR(err);
}

void vp_file_close(struct vp_file *f)
{
	vp_watch_put(f->w);
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

	if (v->owner == current && v->linked) {
		mask = vp_take_signal(v, &signo);
		vp_run(v);
	}
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (mask)
		vp_signal(current, signo, mask);
}

/*
 * What a control with VPERFCTR_CONTROL_INHERIT needs, made before
 * anything changes: a tree, for a root, and the first child's set.
 */
struct vp_prep {
	struct vp_tree *tree;
	struct vperfctr *spare;
};

static struct vp_tree *vp_tree_alloc(void)
{
	struct vp_tree *t = kzalloc(sizeof(*t), GFP_KERNEL_ACCOUNT);

	if (t) {
		raw_spin_lock_init(&t->lock);
		refcount_set(&t->refs, 1);
	}
	return t;
}

static void vp_prep_free(struct vp_prep *p)
{
	if (p->spare)
		vp_free_spare(p->spare);
	vp_tree_put(p->tree);
}

static int vp_prep_alloc(struct vp_prep *p, const struct vperfctr_control *uc,
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
 * Locked, idle: a new control ends the set's part in its tree. A member's
 * sums so far go to the tree, which counts it as gone; a root's members
 * count on, but no longer into this set's total. Returns the tree to put.
 */
static struct vp_tree *vp_leave_tree(struct vperfctr *v)
{
	struct vp_tree *t = v->tree;

	vp_fold(v);
	v->tree = NULL;
	v->root = false;
	v->folded = false;
	return t;
}

/* Locked, idle: @p's tree (a new root's) and spare are @v's now. */
static void vp_take_prep(struct vperfctr *v, struct vp_prep *p)
{
	if (p->tree) {
		v->tree = p->tree;
		v->root = true;
		p->tree = NULL;
	}
	swap(v->spare, p->spare);	/* the old spare is @p's to free */
}

static void vp_fill_sums(struct vperfctr *v, void *rec);

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
	if (vp_lock_idle(v, &flags) || v->exited) {
		raw_spin_unlock_irqrestore(&v->lock, flags);
		return v->exited ? -ESRCH : -EBUSY;
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
	v->sig_due = false;
	vp_take_prep(v, p);
	vp_unlock_idle(v, flags);
	vp_tree_put(old_tree);
	return 0;
}

static int vp_check_uctl(const struct vperfctr_control *uc)
{
	unsigned int i;

	if (uc->flags & ~VPERFCTR_CONTROL_FLAGS)
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

/*
 * Who writes a control: the /proc files (tag 0), or a /dev/perfmon
 * file, which may change only the set it made and must find it there
 * while it has one (expect). Neither may change the other's set.
 */
struct vp_writer {
	u64 tag;
	bool expect;
	struct perfctr_sum_ctrs *old;	/* the replaced control's sums */
};

static int vp_may_write(const struct vperfctr *v, const struct vp_writer *w)
{
	if (v && v->tag == w->tag)
		return 0;
	if (w->expect)
		return -ESRCH;
	return v ? -EBUSY : 0;
}

/* vp_mutex held: @new replaces @task's control, or nothing changes. */
static int vp_set_control(struct task_struct *task,
			  struct perfctr_cpu_state *new,
			  const struct vperfctr_control *uc, struct vp_prep *p,
			  const struct vp_writer *w)
{
	bool uses_hw = perfctr_cstatus_nrctrs(new->cstatus) != 0;
	struct vperfctr *v = vp_find(task);
	bool got_hw = false;
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
	if (got_hw)
		v->reserved = true;
	if (!uses_hw && v->reserved) {
		v->reserved = false;
		vp_hw_put();
	}
	return 0;

out_hw:
	if (got_hw)
		vp_hw_put();
	return err;
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

	if (*ppos != 0 || count != sizeof(uc))
		return -EINVAL;
	if (copy_from_user(&uc, buf, sizeof(uc)))
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
		err = perfctr_may_count(new);
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

/* Locked: one record of @v for a read() of its file. */
typedef void (*vp_fill_t)(struct vperfctr *v, void *rec);

static void vp_fill_control(struct vperfctr *v, void *rec)
{
	struct vperfctr_control *uc = rec;

	*uc = v->uctl;
	uc->cpu_control = v->page->cpu.control;
}

/* The owner's own sums are sampled first: they are exact. */
static void vp_fill_sums(struct vperfctr *v, void *rec)
{
	struct perfctr_cpu_state *st = &v->page->cpu;
	struct perfctr_sum_ctrs *sums = rec;
	unsigned int i;

	if (v->owner == current && v->resumed) {
		vp_begin(v);
		perfctr_cpu_sample(st);
		vp_end(v);
	}
	sums->tsc = st->tsc_sum;
	for (i = 0; i < PERFCTR_NR_PMCS; i++)
		sums->pmc[i] = st->pmc[i].sum;
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
	if (copy_to_user(buf, &rec, size))
		return -EFAULT;
	*ppos += size;
	return size;
}

static ssize_t vp_control_read(struct file *file, char __user *buf,
			       size_t count, loff_t *ppos)
{
	return vp_read_record(file, buf, count, ppos,
			      sizeof(struct vperfctr_control), vp_fill_control);
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

/* Why a set stands still, as <tid>/status shows it: bit n of stopped. */
static const char *const vp_stop_names[] = {
	"suspended", "overflow", "forbidden-cpu", "evicted", "exec", "exited",
};

struct vp_status {
	char line[80];
	int len;
};

/* Locked: the line <tid>/status shows. */
static void vp_describe(struct vperfctr *v, void *rec)
{
	struct vp_status *st = rec;
	unsigned long stopped = v->stopped;
	size_t size = sizeof(st->line);
	const char *sep = ": ";
	unsigned int bit;
	int len;

	if (v->exited) {
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

/* vp_mutex held. */
static void vp_unlink(struct vperfctr *v)
{
	if (v->owner == current) {
		/* Not linked yet: the pending link work detaches it. */
		if (vp_mark_unlinked(v))
			vp_detach(v);
		/* Let go of the hardware now, not when the set is freed. */
		if (v->reserved) {
			v->reserved = false;
			vp_hw_put();
		}
		return;
	}
	/*
	 * Since vp_find() the owner may have unlinked it itself (an exec),
	 * or its link work may still be pending and will detach it: twork
	 * must not be queued twice.
	 */
	if (!vp_mark_unlinked(v))
		return;
	init_task_work(&v->twork, vp_detach_fn);
	/* Fails only if it is exiting: then its last switch reaps the set. */
	task_work_add(v->owner, &v->twork, TWA_RESUME);
}

/* Locked, idle: one of the commands other than UNLINK. */
static int vp_apply_command(struct vperfctr *v, u32 cmd)
{
	struct perfctr_cpu_state *st = &v->page->cpu;
	unsigned int i;

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
		/* identify_overflow() reloaded the start values. */
		perfctr_cpu_ireload(st);
		vp_unstop(v, VP_STOP_OVF);
		return 0;
	}
	return -EINVAL;
}

static int vp_command(struct vperfctr *v, u32 cmd)
{
	unsigned long flags;
	int err;

	if (READ_ONCE(v->exited))	/* since the caller's check */
		return -ESRCH;
	if (cmd == VPERFCTR_CMD_UNLINK) {
		vp_unlink(v);
		return 0;
	}
	if (vp_lock_idle(v, &flags) || v->exited) {
		raw_spin_unlock_irqrestore(&v->lock, flags);
		return v->exited ? -ESRCH : -EBUSY;
	}
	err = vp_apply_command(v, cmd);
	vp_unlock_idle(v, flags);
	return err;
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

/*
 * vp_mutex held: @ib (NULL: none) becomes @task's IBS setup, in a set
 * made for it if need be; *@old gets the one replaced, to put.
 */
static int vp_set_ibs(struct task_struct *task, struct vp_ibs *ib,
		      struct vp_ibs **old)
{
	struct vperfctr *v = vp_find(task);
	struct vp_writer proc = {};
	unsigned long flags;
	int err;

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
	if (vp_lock_idle(v, &flags) || v->exited) {
		raw_spin_unlock_irqrestore(&v->lock, flags);
		return v->exited ? -ESRCH : -EBUSY;
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
	if (v && v->tag == tag && !READ_ONCE(v->exited)) {
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
	if (v && v->tag == tag && !READ_ONCE(v->exited) &&
	    !(READ_ONCE(task->flags) & PF_EXITING))
		vp_unlink(v);
	mutex_unlock(&vp_mutex);
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
const struct file_operations vperfctr_ibs_fops =
	VP_FOPS(.read = vp_ibs_read, .write = vp_ibs_write);

/*
 * A set survives exec only into a program that anyone with the owner's
 * ids could trace anyway: no CLOEXEC, a dumpable program that is no
 * secure exec (setuid, file capabilities, or an LSM's domain change that
 * asks for AT_SECURE), and the same ids and permitted capabilities as
 * when its control was written.
 */
static bool vp_survives_exec(const struct vperfctr *v,
			     const struct linux_binprm *bprm)
{
	struct mm_struct *mm = current->mm;

	return !(v->uctl.flags & VPERFCTR_CONTROL_CLOEXEC) && mm &&
	       get_dumpable(mm) == SUID_DUMP_USER && !bprm->secureexec &&
	       vp_creds_same(&v->creds, current_cred());
}

/*
 * sched_process_exec: in the exec'ing thread, its new credentials
 * committed, before the new program's first instruction. Preemption is
 * off. A set that goes is detached here (or by its pending link work);
 * one that stays counts on, and may be read again (the new mm's switch
 * took RDPMC away).
 */
static void vp_exec(void *data, struct task_struct *task, pid_t old_pid,
		    struct linux_binprm *bprm)
{
	struct vperfctr *v;
	unsigned long flags;
	bool detach = false;

	rcu_read_lock();
	v = vp_find_any(current);
	if (!v)
		goto out;
	raw_spin_lock_irqsave(&v->lock, flags);
	/* An overflow signal due at the exec is the old program's. */
	v->sig_due = false;
	v->ovf_mask = 0;
	if (vp_survives_exec(v, bprm)) {
		WRITE_ONCE(v->exec_id, READ_ONCE(current->self_exec_id));
		vp_unstop(v, VP_STOP_EXEC);
		if (v->linked)
			vp_run(v);
	} else {
		WRITE_ONCE(v->unlinked, true);
		detach = v->linked;
	}
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (detach)
		vp_detach(v);
out:
	rcu_read_unlock();
}

/*
 * Inheritance (Documentation/perfctr/virtual.rst). A set whose control
 * has VPERFCTR_CONTROL_INHERIT keeps a spare set made ahead, as the fork
 * tracepoint may not sleep nor, on PREEMPT_RT, allocate: each fork hands
 * it to the child, and the parent makes the next on its way back to user
 * space, before it can fork again. The child sets it up itself, before
 * its first instruction, as its creator could not.
 */

/* Locked: the tree @v's children join, or NULL. */
static struct vp_tree *vp_children_tree(const struct vperfctr *v)
{
	if (!(v->uctl.flags & VPERFCTR_CONTROL_INHERIT) || v->exited ||
	    v->unlinked)
		return NULL;
	return v->tree;
}

static void vp_member_gone(struct vperfctr *v, bool lost)
{
	struct vp_tree *t = v->tree;
	unsigned long flags;

	raw_spin_lock_irqsave(&t->lock, flags);
	t->ch.live--;
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
static void vp_fork_member(struct vperfctr *v, struct task_struct *child)
{
	struct vperfctr *s = NULL;
	unsigned long flags;
	struct vp_tree *t;

	raw_spin_lock_irqsave(&v->lock, flags);
	t = vp_children_tree(v);
	if (t) {
		swap(s, v->spare);
		raw_spin_lock(&t->lock);
		if (s)
			t->ch.live++;
		else
			t->ch.lost++;	/* no memory for it at the last refill */
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

/* sched_process_fork: in the parent, @child not yet woken. */
static void vp_fork(void *data, struct task_struct *parent,
		    struct task_struct *child)
{
	struct vperfctr *v;

	if (child->flags & (PF_KTHREAD | PF_IO_WORKER | VP_PF_USER_WORKER))
		return;
	rcu_read_lock();
	v = vp_find(current);
	if (v)
		vp_fork_member(v, child);
	rcu_read_unlock();
}

/*
 * sched_process_exit: in the exiting thread, before its parent can know
 * it exited (as perf does with its own counters). The set stops for good,
 * a member's sums go to its tree, and the thread's files keep the set.
 */
static bool vp_exit_set(struct vperfctr *v)
{
	unsigned long flags;
	bool current_set;

	raw_spin_lock_irqsave(&v->lock, flags);
	vp_leave(v);
	vp_stop(v, VP_STOP_EXIT);
	v->exited = true;
	vp_fold(v);
	current_set = !v->unlinked;
	raw_spin_unlock_irqrestore(&v->lock, flags);
	return current_set;
}

/*
 * Every set of the thread: its own, and one unlinked whose detach will
 * not run now (a tracer's unlink racing with the exit), which stops and
 * leaves its tree here all the same.
 */
static void vp_exit(void *data, struct task_struct *task)
{
	struct vperfctr *v, *final = NULL;

	rcu_read_lock();
	hash_for_each_possible_rcu(vp_hash, v, node, (unsigned long)current)
		if (v->owner == current && vp_exit_set(v))
			final = v;
	vp_watch_exit(final);
	rcu_read_unlock();
}

static struct {
	const char *name;
	void *probe;
	struct tracepoint *tp;
} vp_tps[] = {
	{ "sched_process_exec", vp_exec },
	{ "sched_process_fork", vp_fork },
	{ "sched_process_exit", vp_exit },
};

static void vp_tp_find(struct tracepoint *tp, void *priv)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vp_tps); i++)
		if (!strcmp(tp->name, vp_tps[i].name))
			vp_tps[i].tp = tp;
}

static void vp_tps_unregister(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(vp_tps); i++)
		if (vp_tps[i].tp)
			tracepoint_probe_unregister(vp_tps[i].tp,
						    vp_tps[i].probe, NULL);
	tracepoint_synchronize_unregister();
}

/* All three, or none: vp_tps_ok says which. */
static void vp_tps_register(void)
{
	unsigned int i;

	for_each_kernel_tracepoint(vp_tp_find, NULL);
	for (i = 0; i < ARRAY_SIZE(vp_tps); i++) {
		if (!vp_tps[i].tp ||
		    tracepoint_probe_register(vp_tps[i].tp, vp_tps[i].probe,
					      NULL)) {
			vp_tps[i].tp = NULL;
			vp_tps_unregister();
			return;
		}
	}
	vp_tps_ok = true;
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

/*
 * A CPU going down: its sets have left it, and its timer would migrate
 * still marked armed, so that the CPU, back up, would never start it.
 */
static int vp_cpu_down(unsigned int cpu)
{
	struct vp_cpu *c = per_cpu_ptr(&vp_cpus, cpu);

	hrtimer_cancel(&c->timer);
	WRITE_ONCE(c->armed, false);
	return 0;
}

static int vp_hp_state;

int vperfctr_init(void)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu)
		perfctr_timer_init(&per_cpu_ptr(&vp_cpus, cpu)->timer, vp_tick);
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN, "perfctr/virtual:online",
					NULL, vp_cpu_down);
	if (ret < 0)
		return ret;
	vp_hp_state = ret;
	vp_tps_register();
	/* Once for the module's life: enabling it per set would sleep. */
	preempt_notifier_inc();
	perfctr_cpu_set_ihandler(vp_ihandler);
	vp_ibs_init();
	return 0;
}

/* Every set is gone: each held a module reference. */
void vperfctr_exit(void)
{
	unsigned int cpu;

	perfctr_cpu_set_ihandler(NULL);
	vp_ibs_exit();
	if (vp_tps_ok)
		vp_tps_unregister();
	vperfctr_settle();	/* the last vp_free() may still return */
	cpuhp_remove_state_nocalls(vp_hp_state);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&vp_cpus, cpu)->timer);
	preempt_notifier_dec();
}
