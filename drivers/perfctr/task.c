// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: the task hooks. The sched_process_{exec,fork,exit} tracepoints
 * decide a set's fate at an exec (in the exec'ing thread, once its new
 * credentials are committed), hand spares to children, and finish a set
 * as its owner exits. Without all three no set is made.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/binfmts.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/hashtable.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/spinlock.h>
#include <linux/tracepoint.h>

#include <perfctr/compat.h>
#include <perfctr/cpu.h>
#include <perfctr/ibs.h>
#include "internal.h"
#include "vperfctr.h"

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
	       perfctr_owner_dumpable(current, mm) && !bprm->secureexec &&
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

	vp_watch_exec();
	rcu_read_lock();
	v = vp_find_any(current);
	if (!v)
		goto out;
	raw_spin_lock_irqsave(&v->lock, flags);
	/*
	 * Decided from the life it has now: unlinked since the lookup (a
	 * /dev/perfmon close in another process), the detach that unlink
	 * queued is the only one.
	 */
	if (!vp_life_owned(v)) {
		raw_spin_unlock_irqrestore(&v->lock, flags);
		goto out;
	}
	/*
	 * What counted so far, and an overflow signal due or queued, is the
	 * old program's. A set that stays resumes afresh for the new one,
	 * which rechecks what may have changed, a PR_SET_TSC (S8).
	 */
	vp_suspend(v);
	v->ovf_mask = 0;
	v->sig_mask = 0;
	if (vp_survives_exec(v, bprm)) {
		WRITE_ONCE(v->exec_id, READ_ONCE(current->self_exec_id));
		vp_unstop(v, VP_STOP_EXEC);
		vp_run(v);		/* if linked */
	} else {
		detach = vp_unlink_locked(v) == VP_LINKED;
	}
	raw_spin_unlock_irqrestore(&v->lock, flags);
	if (detach)
		vp_detach(v);
out:
	rcu_read_unlock();
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
	if (v->life != VP_DEAD) {
		vp_leave(v);
		vp_stop(v, VP_STOP_EXIT);
		vp_fold(v);
	}
	current_set = vp_life_owned(v) && vp_life_move(v, VP_EXITED);
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

int vperfctr_init(void)
{
	int ret = vp_watches_init();

	if (ret)
		return ret;
	ret = vp_set_init();
	if (ret) {
		vp_watches_destroy();
		return ret;
	}
	vp_tps_register();
	vp_ibs_init();
	return 0;
}

/* Every set is gone: each held a module reference. */
void vperfctr_exit(void)
{
	vp_ibs_exit();
	if (vp_tps_ok)
		vp_tps_unregister();
	vp_set_exit();
	vp_watches_destroy();
}
