/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr: the per-thread sets, shared by set.c (a set and its life),
 * control.c (changing one), inherit.c, task.c (the task hooks) and
 * vfiles.c (the /proc/perfctr/<tid>/ files).
 */
#ifndef _PERFCTR_VPERFCTR_H
#define _PERFCTR_VPERFCTR_H

#include <linux/llist.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/refcount.h>
#include <linux/rhashtable-types.h>
#include <linux/spinlock.h>
#include <linux/task_work.h>
#include <linux/types.h>

#include <perfctr/cpu.h>
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
/* ABI 1.0's control is a prefix of 1.1's: x86 appended ireset_high[]. */
static_assert(offsetof(struct vperfctr_control, cpu_control) == 32);
#ifdef PERFCTR_X86_FIXED_PMC	/* x86's uapi (the fast suite's too) */
static_assert(offsetof(struct perfctr_cpu_control, ireset_high) ==
	      PERFCTR_CPU_CONTROL_SIZE_1_0);
#else
static_assert(sizeof(struct perfctr_cpu_control) ==
	      PERFCTR_CPU_CONTROL_SIZE_1_0);
#endif

/* Why a set's counters are stopped. */
#define VP_STOP_CMD	BIT(0)	/* VPERFCTR_CMD_SUSPEND */
#define VP_STOP_OVF	BIT(1)	/* overflowed; waits for IRESUME */
#define VP_STOP_CPU	BIT(2)	/* on a CPU that may not use the counters */
#define VP_STOP_EVICT	BIT(3)	/* the hardware was taken back */
#define VP_STOP_EXEC	BIT(4)	/* exec'ing; sched_process_exec decides */
#define VP_STOP_EXIT	BIT(5)	/* the owner is exiting: the sums are final */
#define VP_STOP_NOTSC	BIT(6)	/* TSC counted, the owner's RDTSC forbidden */

/*
 * A set's life (Documentation/perfctr/virtual.rst has the diagram). It
 * only moves forward, under v->lock, in vp_life_move(); lookups see the
 * sets below VP_UNLINKED, and VP_EXITED and above are finished.
 *
 *  SPARE    made, nobody's yet: a fork's spare, or one being set up
 *  LINKING  its owner's, and found; the link work is queued in the owner
 *  LINKED   the owner's notifier suspends and resumes it
 *  EXITED   the owner exited: its sums are final, its files read them
 *  UNLINKED gone for lookups; exactly one detach is queued or running:
 *           the link work (from LINKING), the owner itself or the detach
 *           work another's unlink queued (from LINKED)
 *  DEAD     the owner is done with it: the reap unhashes it and drops
 *           the owner's reference
 */
enum vp_life {
	VP_SPARE,
	VP_LINKING,
	VP_LINKED,
	VP_EXITED,
	VP_UNLINKED,
	VP_DEAD,
};

/*
 * An inheritance tree: the total of its members, the sets that threads
 * made by the root's owner (and theirs, on down) got at their birth.
 * Each member adds its sums once, as it exits or leaves the tree.
 * Referenced by the root and by every member. The members not yet in
 * ch.sums are on members, with the marks of <tid>/tree's readers, for
 * those readers only: no context switch looks at it.
 */
struct vp_tree {
	raw_spinlock_t lock;
	refcount_t refs;
	struct vperfctr_children ch;
	struct list_head members;	/* vp_tree_link.node, under lock */
	u64 folds;			/* members folded into ch, ever */
};

/* On a tree's members: a member's, or a reader's mark (inherit.c). */
struct vp_tree_link {
	struct list_head node;
	bool mark;
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
	u32 ovf_mask;			/* for the signal not yet taken */
	unsigned int stopped;		/* VP_STOP_* */
	enum vp_life life;		/* v->lock; lookups READ_ONCE() it */
	bool resumed;			/* counting on a CPU now */
	bool sig_queued;		/* sig_twork is queued */
	int sig_signo;			/* for sig_twork: what to send */
	u32 sig_mask;
	u64 sig_exec_id;		/* the program sig_mask is for */
	struct callback_head sig_twork;	/* the signal, on the way out */
	bool reserved;			/* holds the hardware */
	bool evicted;			/* lost it to vperfctr_reclaim() */
	/* Inheritance: the tree this set roots, or is a member of. */
	struct vp_tree *tree;
	struct vp_tree_link tree_link;	/* on tree->members until folded */
	u64 fold_at;			/* tree->folds as it folded */
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

/*
 * What a control with VPERFCTR_CONTROL_INHERIT needs, made before
 * anything changes: a tree, for a root, and the first child's set.
 */
struct vp_prep {
	struct vp_tree *tree;
	struct vperfctr *spare;
};

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

/* User-visible state changes inside these two: see struct vperfctr_state. */
static inline void vp_begin(struct vperfctr *v)
{
	WRITE_ONCE(v->page->seq, v->page->seq + 1);
	/* Readers on other CPUs see the odd seq before any change. */
	smp_wmb();
}

static inline void vp_end(struct vperfctr *v)
{
	/* ... and every change before the even seq. */
	smp_wmb();
	WRITE_ONCE(v->page->seq, v->page->seq + 1);
}

/*
 * A thread's files' hold on its final counts (watch.c): made at the first
 * open, gone at the last close; done once the thread exited, with the
 * set it had then (referenced) and the credentials it exited with.
 */
struct vp_watch {
	struct rhash_head node;		/* keyed by task */
	struct task_struct *task;	/* referenced */
	raw_spinlock_t lock;		/* files, dead; done's writer */
	unsigned int files;		/* open files referring to it */
	bool dead;			/* the last file closed */
	bool done;			/* vp_exit() ran: final, exit_creds */
	struct vperfctr *final;
	struct vp_creds exit_creds;
	bool exit_dumpable;
	struct mm_struct *mm;		/* the thread's, mmgrab()bed */
	struct rcu_head rcu;
};

/* Sets by owner. Changed under vp_mutex; looked up under it or RCU. */
extern struct hlist_head vp_hash[1 << 8];
extern struct mutex vp_mutex;
/* The three tracepoints are ours: sets can be made (task.c). */
extern bool vp_tps_ok;

/* set.c */
int vp_set_init(void);
void vp_set_exit(void);
bool vp_life_move(struct vperfctr *v, enum vp_life to);
bool vp_life_owned(const struct vperfctr *v);
void vp_stop(struct vperfctr *v, unsigned int why);
void vp_unstop(struct vperfctr *v, unsigned int why);
bool vp_has_ctrs(const struct vperfctr *v);
void vp_ibs_leave(struct vperfctr *v);
void vp_run(struct vperfctr *v);
void vp_suspend(struct vperfctr *v);
void vp_leave(struct vperfctr *v);
u32 vp_take_signal(struct vperfctr *v, int *signo);
void vp_signal(struct task_struct *task, int signo, u32 mask);
void vp_fold(struct vperfctr *v);
void vp_detach(struct vperfctr *v);
void vp_link(struct vperfctr *v);
enum vp_life vp_unlink_locked(struct vperfctr *v);
struct vperfctr *vp_find_any(struct task_struct *task);
struct vperfctr *vp_find(struct task_struct *task);
void vp_tree_put(struct vp_tree *t);
void vp_free_spare(struct vperfctr *v);
void vp_put(struct vperfctr *v);
void vp_hw_put(void);
int vp_hw_get(void);
struct vperfctr *vp_alloc(void);
struct vperfctr *vp_create(struct task_struct *task);
void vp_unlink(struct vperfctr *v);

/* control.c */
void vp_prep_free(struct vp_prep *p);
int vp_prep_alloc(struct vp_prep *p, const struct vperfctr_control *uc,
		  bool root);
int vp_may_write(const struct vperfctr *v, const struct vp_writer *w);
int vp_set_control(struct task_struct *task, struct perfctr_cpu_state *new,
		   const struct vperfctr_control *uc, struct vp_prep *p,
		   const struct vp_writer *w);
void vp_fill_sums(struct vperfctr *v, void *rec);
int vp_command(struct vperfctr *v, u32 cmd);
int vp_set_ibs(struct task_struct *task, struct vp_ibs *ib,
	       struct vp_ibs **old);

/* inherit.c */
void vp_fork_member(struct vperfctr *v, struct task_struct *child);
int vp_tree_total(struct vp_tree *t, struct vperfctr_children *ch);

/* tick.c */
DECLARE_PER_CPU(struct vperfctr *, vp_running);
void vp_timer_arm(void);
int vp_tick_init(void);
void vp_tick_exit(void);

/* watch.c */
struct vp_watch *vp_watch_get(struct task_struct *task);
void vp_watch_put(struct vp_watch *w);
void vp_watch_exit(struct vperfctr *v);
void vp_watch_exec(void);
int vp_files_charge(kuid_t uid);
void vp_files_uncharge(kuid_t uid);
int vp_watches_init(void);
void vp_watches_destroy(void);

/* policy.c */
bool vp_creds_eq(const struct vp_creds *a, const struct vp_creds *b);
int vp_may_change(struct task_struct *task);

#endif /* _PERFCTR_VPERFCTR_H */
