// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: who may count what, and who may look at whose counters.
 *
 * Modelled on perf_event_paranoid, which the kernel does not export to
 * modules: perfctr.paranoid has the same levels and the same default, and
 * CAP_PERFMON (or CAP_SYS_ADMIN) bypasses it as it bypasses perf's.
 * See Documentation/perfctr/security.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/cred.h>
#include <linux/errno.h>
#include <linux/moduleparam.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>

#include <perfctr/cpu.h>
#include "internal.h"
#include "vperfctr.h"

/*
 * -1, 0, 1: any control; 2: user mode only; 3: the TSC only, without
 * privilege. perfctr has no unprivileged CPU-wide mode and no
 * tracepoints, so -1, 0 and 1 allow the same.
 */
static int paranoid = 2;

static int paranoid_set(const char *val, const struct kernel_param *kp)
{
	int n, err = kstrtoint(val, 0, &n);

	if (err)
		return err;
	if (n < -1 || n > 3)
		return -EINVAL;
	WRITE_ONCE(paranoid, n);
	return 0;
}

static const struct kernel_param_ops paranoid_ops = {
	.set = paranoid_set,
	.get = param_get_int,
};

module_param_cb(paranoid, &paranoid_ops, &paranoid, 0644);
MODULE_PARM_DESC(paranoid,
		 "as perf_event_paranoid: 2 (default) user mode only, 3 TSC only, <= 1 any, without CAP_PERFMON");

/*
 * Off by default: reading another process's counters needs its tracer or
 * CAP_SYS_PTRACE, as the LSMs cannot be asked from a module.
 */
static bool read_same_uid;
module_param(read_same_uid, bool, 0644);
MODULE_PARM_DESC(read_same_uid,
		 "let a process read the counters of any dumpable process with its uid (bypasses Yama and other LSMs)");

int perfctr_paranoid(void)
{
	return READ_ONCE(paranoid);
}

/*
 * Does @task pass perfctr.paranoid as perfmon_capable() passes the
 * caller: CAP_PERFMON or CAP_SYS_ADMIN in the initial user namespace?
 * Another task's check is not audited: it did not ask.
 */
bool perfctr_task_privileged(struct task_struct *task)
{
	if (task == current)
		return perfmon_capable();
	return has_capability_noaudit(task, CAP_PERFMON) ||
	       has_capability_noaudit(task, CAP_SYS_ADMIN);
}

static int may_count_as(struct task_struct *task,
			const struct perfctr_cpu_state *state, int level)
{
	if (level <= 1 || perfctr_task_privileged(task))
		return 0;
	if (perfctr_cstatus_nrctrs(state->cstatus) && level >= 3)
		return -EACCES;
	if (perfctr_cpu_counts_kernel(state))
		return -EACCES;
	return 0;
}

/* Did @task forbid itself RDTSC (prctl PR_SET_TSC, x86 only)? */
bool perfctr_task_notsc(struct task_struct *task)
{
#ifdef TIF_NOTSC
	return test_tsk_thread_flag(task, TIF_NOTSC);
#else
	return false;
#endif
}

/*
 * May the caller have @state counted in @task, its own thread or its
 * stopped tracee? A tracer's control is judged on the tracee's privilege
 * too, since the tracee reads its own counts: it gets nothing it could
 * not have asked for itself. Nor the TSC if it forbade itself RDTSC.
 */
int perfctr_may_count_task(struct task_struct *task,
			   const struct perfctr_cpu_state *state)
{
	int level = perfctr_paranoid();	/* one level for both */
	int err = may_count_as(current, state, level);

	if (!err && task != current)
		err = may_count_as(task, state, level);
	if (!err && perfctr_cstatus_has_tsc(state->cstatus) &&
	    perfctr_task_notsc(task))
		err = -EPERM;
	return err;
}

/* May the caller have @state counted in its own thread? */
int perfctr_may_count(const struct perfctr_cpu_state *state)
{
	return perfctr_may_count_task(current, state);
}

/*
 * ptrace's credential rule with the caller's real ids: the same real
 * ids as every id of the target, and a dumpable target. Only consulted
 * when read_same_uid is set.
 */
static bool same_uid_may_read(struct task_struct *task)
{
	const struct cred *cred = current_cred(), *tcred;
	bool ok;

	rcu_read_lock();
	tcred = __task_cred(task);
	ok = uid_eq(cred->uid, tcred->euid) && uid_eq(cred->uid, tcred->suid) &&
	     uid_eq(cred->uid, tcred->uid) && gid_eq(cred->gid, tcred->egid) &&
	     gid_eq(cred->gid, tcred->sgid) && gid_eq(cred->gid, tcred->gid);
	rcu_read_unlock();
	if (!ok)
		return false;
	task_lock(task);
	ok = task->mm && perfctr_owner_dumpable(task, task->mm);
	task_unlock(task);
	return ok;
}

/*
 * CAP_SYS_PTRACE over the target, and over its mm if it is not dumpable.
 * Not audited: every refused reader would log a denial, as ptrace's
 * PTRACE_MODE_NOAUDIT reads would not.
 */
static bool ptrace_capable(struct task_struct *task)
{
	struct mm_struct *mm;
	bool ok;

	rcu_read_lock();
	ok = ns_capable_noaudit(__task_cred(task)->user_ns, CAP_SYS_PTRACE);
	rcu_read_unlock();
	if (!ok)
		return false;
	task_lock(task);
	mm = task->mm;
	if (mm && !perfctr_owner_dumpable(task, mm))
		ok = ns_capable_noaudit(perfctr_exec_user_ns(task, mm),
					CAP_SYS_PTRACE);
	task_unlock(task);
	return ok;
}

/*
 * May the caller look at @task's counters? Its own process, yes. From
 * outside: its ptrace tracer, whom the LSMs vetted at attach, or a
 * caller with CAP_SYS_PTRACE over it; or, opted in, the same uid.
 */
bool perfctr_may_read_task(struct task_struct *task)
{
	bool tracer;

	if (same_thread_group(task, current))
		return true;
	rcu_read_lock();
	tracer = ptrace_parent(task) == current;
	rcu_read_unlock();
	if (tracer || ptrace_capable(task))
		return true;
	return READ_ONCE(read_same_uid) && same_uid_may_read(task);
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

bool vp_creds_eq(const struct vp_creds *a, const struct vp_creds *b)
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

/* Changing another thread's counters: it must be stopped, traced by us. */
int vp_may_change(struct task_struct *task)
{
	bool ours;

	if (task == current)
		return 0;
	rcu_read_lock();
	ours = ptrace_parent(task) == current && task_is_traced(task);
	rcu_read_unlock();
	return ours ? 0 : -EPERM;
}

bool vp_task_dumpable(struct task_struct *task)
{
	bool dumpable;

	task_lock(task);
	dumpable = task->mm && perfctr_owner_dumpable(task, task->mm);
	task_unlock(task);
	return dumpable;
}
