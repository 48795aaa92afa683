/* SPDX-License-Identifier: GPL-2.0-only */
/* perfctr: shared between the parts of the high-level module. */
#ifndef _PERFCTR_DRIVER_H
#define _PERFCTR_DRIVER_H

#include <linux/capability.h>
#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/uidgid.h>
#include <perfctr/compat.h>

/* PERFCTR_VERSION comes from the top-level VERSION file, through Kbuild. */

/*
 * The per-CPU sampling timers of global mode and of the sets: pinned to
 * their CPU, and hard, so that on PREEMPT_RT too they run in hard
 * interrupt context, where the counters' raw spinlocks belong.
 */
#define PERFCTR_TIMER_MODE	HRTIMER_MODE_REL_PINNED_HARD

static inline void perfctr_timer_init(struct hrtimer *t,
				      enum hrtimer_restart (*fn)(struct hrtimer *))
{
	hrtimer_setup(t, fn, CLOCK_MONOTONIC, PERFCTR_TIMER_MODE);
}

struct seq_file;
struct task_struct;
struct perfctr_cpu_state;

/* The root's files (main.c, global.c). */
extern const struct file_operations perfctr_info_fops;
extern const struct file_operations perfctr_global_fops;
extern const struct file_operations perfctr_reclaim_fops;

int perfctr_global_init(void);
void perfctr_global_exit(void);
/* The service name global mode reserves the hardware under. */
extern const char *const perfctr_global_service;
void perfctr_global_show_holder(struct seq_file *m);

/* Privilege policy (policy.c); see Documentation/perfctr/security.rst. */
int perfctr_paranoid(void);
bool perfctr_task_privileged(struct task_struct *task);
bool perfctr_task_notsc(struct task_struct *task);
int perfctr_may_count(const struct perfctr_cpu_state *state);
int perfctr_may_count_task(struct task_struct *task,
			   const struct perfctr_cpu_state *state);
bool perfctr_may_read_task(struct task_struct *task);

/* The file system on /proc/perfctr (fs.c). */
int perfctr_fs_init(void);
void perfctr_fs_exit(void);

/*
 * Virtual per-thread counters (set.c). The files of /proc/perfctr/<tid>/
 * find their thread through the struct pid in the inode's i_private.
 */
extern const struct file_operations vperfctr_control_fops;
extern const struct file_operations vperfctr_sums_fops;
extern const struct file_operations vperfctr_state_fops;
extern const struct file_operations vperfctr_command_fops;
extern const struct file_operations vperfctr_status_fops;
extern const struct file_operations vperfctr_children_fops;
extern const struct file_operations vperfctr_tree_fops;

/*
 * The owner's credentials when a set's control was written, or when a
 * file or an IBS setup was made (set.c): the ids and the permitted
 * capabilities, compared by value.
 */
struct vp_creds {
	kuid_t uid, euid, suid, fsuid;
	kgid_t gid, egid, sgid, fsgid;
	kernel_cap_t permitted;
};

void vp_creds_take(struct vp_creds *c, struct task_struct *task);
bool vp_creds_same(const struct vp_creds *c, const struct cred *cred);
/* Its mm is dumpable (SUID_DUMP_USER); not once it has none. */
bool vp_task_dumpable(struct task_struct *task);

/*
 * An open file's hold on its thread, for the files of other parts
 * (ibs_ring): vp_file_open() checks that the caller may open it (ERR_PTR
 * -EACCES, or -ESRCH once the thread exits), vp_file_may() that it may
 * use it now (vfiles.c says when).
 */
struct vp_file;
struct vp_file *vp_file_open(struct task_struct *task);
void vp_file_close(struct vp_file *f);
int vp_file_may(struct vp_file *f, bool wait);

int vperfctr_init(void);
void vperfctr_settle(void);
void vperfctr_exit(void);
/* The service name the sets reserve the hardware under. */
extern const char *const vperfctr_service;
unsigned int vperfctr_reclaim(void);
/* While held (reclaim's "hold"), no set may take the hardware: EBUSY. */
void vperfctr_hold(bool hold);
bool vperfctr_held(void);
void vperfctr_show_holders(struct seq_file *m);

/*
 * /dev/perfmon (perfmon.c) drives its opener's set through these, with a
 * tag unique to the open file (never 0, never reused): the /proc files
 * may read that set but not change it, and the device may not change a
 * set of theirs (vfiles.c says more).
 */
struct perfctr_sum_ctrs;
int vperfctr_tagged_install(struct task_struct *task, u64 tag,
			    bool expect, struct perfctr_cpu_state *new,
			    struct perfctr_sum_ctrs *old);
int vperfctr_tagged_read(struct task_struct *task, u64 tag,
			 struct perfctr_sum_ctrs *sums);
void vperfctr_tagged_drop(struct task_struct *task, u64 tag);

/*
 * A thread's IBS setup and its sample ring (ibs.c); its set (set.c)
 * holds one reference and starts and stops it as the thread runs.
 */
struct vp_ibs;
struct vm_area_struct;
struct perfctr_ibs_control;
extern const struct file_operations vperfctr_ibs_fops;
extern const struct file_operations vperfctr_ibs_ring_fops;
struct vp_ibs *vp_ibs_new(struct task_struct *owner,
			  const struct perfctr_ibs_control *c);
void vp_ibs_hold(struct vp_ibs *ib);
void vp_ibs_put(struct vp_ibs *ib);
void vp_ibs_retire(struct vp_ibs *ib);
void vp_ibs_control(const struct vp_ibs *ib, struct perfctr_ibs_control *c);
bool vp_ibs_start(struct vp_ibs *ib);
void vp_ibs_stop(struct vp_ibs *ib);
void vp_ibs_init(void);
void vp_ibs_exit(void);
/* The ring's data side, for its file (ibs_ring.c). */
ssize_t vp_ibs_ring_read(struct vp_ibs *ib, char __user *buf, size_t count);
int vp_ibs_ring_set_tail(struct vp_ibs *ib, u64 tail);
unsigned long vp_ibs_ring_size(const struct vp_ibs *ib);
int vp_ibs_ring_map(struct vp_ibs *ib, struct vm_area_struct *vma);
/* @task's set's IBS, referenced; ERR_PTR(-ENODATA) if it has none. */
struct vp_ibs *vperfctr_ibs_get(struct task_struct *task);

/* FreeBSD's perfmon(4) device, /dev/perfmon (perfmon.c). */
int perfctr_perfmon_init(void);
void perfctr_perfmon_exit(void);

#endif /* _PERFCTR_DRIVER_H */
