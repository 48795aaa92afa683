/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fast suite's harness: fake tasks on FK_NR_CPUS fake CPUs, the
 * scheduler's notifier calls, task_work, exec/fork/exit with the
 * driver's tracepoint probes, deferred works, a low-level counter model,
 * and interleaving injection (on_next_lock()). Tests act as a task with
 * fk_as(); everything the fake kernel sees wrong fails the test.
 */
#ifndef _VP_HARNESS_H
#define _VP_HARNESS_H

#include <kernel.h>
#include <perfctr/cpu.h>
#include "internal.h"

/* What the fake kernel counted since the test began. */
struct fk_stats {
	int registered, unregistered;	/* preempt notifiers */
	int sched_in, sched_out;
	int resumes, suspends;
	int pages, allocs;		/* live driver pages and objects */
	int vmallocs;			/* live IBS rings, kept ones too */
	int user_refs;			/* on the one user_struct */
	int warnings, expected_warnings;
	int reserves;			/* perfctr_cpu_reserve() granted */
	int ireloads;
};

extern struct fk_stats fk;
extern const char *fk_hw_holder;	/* who holds the counters, or NULL */

/* --- tasks and the scheduler --- */

/* A user thread on @cpu, leading its own process, uid 1000, dumpable. */
struct task_struct *fk_task(const char *comm, int cpu);
/* A thread of @leader's process (same creds), on @cpu. */
struct task_struct *fk_thread(struct task_struct *leader, int cpu);
/* Act as @t from now on: it runs on its CPU (switched in if need be). */
void fk_as(struct task_struct *t);
/* @t leaves its CPU (the scheduler's sched_out notifiers). */
void fk_sched_out(struct task_struct *t);
/* @t stops for its tracer @tracer (ptrace), off its CPU. */
void fk_ptrace_stop(struct task_struct *t, struct task_struct *tracer);
/* The stopped tracee @t resumes: runs on its CPU again. */
void fk_ptrace_cont(struct task_struct *t);
/* @t goes back to user mode: runs its queued task_work, LIFO. */
void fk_return_to_user(struct task_struct *t);

/* --- exec, fork, exit --- */

struct fk_exec {
	bool fail;		/* fails before the point of no return */
	bool nodump;		/* the new program is not dumpable */
	bool secure;		/* AT_SECURE (setuid, file caps) */
	unsigned int new_euid;	/* != 0: the new program's euid */
	struct mm_struct *mm;	/* != NULL: exec_mmap() installs it */
	/* At the ptrace exec stop (in_execve still set), if not NULL. */
	void (*at_stop)(void *arg);
	void *arg;
};

/* @t execs; its return to user mode is left to the test. */
int fk_exec(struct task_struct *t, const struct fk_exec *o);
/* @parent (current from now on) forks @child: the fork probe. */
void fk_fork(struct task_struct *parent, struct task_struct *child);
/* The steps of @t's exit, in the kernel's order, or all of them. */
void fk_exit_begin(struct task_struct *t);	/* PF_EXITING, mm gone */
void fk_exit_probe(struct task_struct *t);	/* sched_process_exit */
void fk_exit_work(struct task_struct *t);	/* exit_task_work() */
void fk_exit_dead(struct task_struct *t);	/* last switch, TASK_DEAD */
void fk_exit(struct task_struct *t);
/* Its parent waited for it: its pid is gone. */
void fk_reap(struct task_struct *t);

/* --- deferred work, interleavings --- */

/* Runs the queued irq_works and works (the reap), as a kworker. */
void run_works(void);
/*
 * The next time anyone takes @lock (a raw spinlock or a mutex), @fn(@arg)
 * runs first, once, as if another CPU got there just before: it may act
 * as another task with fk_as(); the context is restored after.
 */
void on_next_lock(void *lock, void (*fn)(void *arg), void *arg);
/*
 * The next task_work_add() that succeeds runs @fn(@arg) right after,
 * once: the task the work is for may run it at once (its exit).
 */
void on_next_task_work(void (*fn)(void *arg), void *arg);

/* The lock of @task's set (driver.c), or NULL: for on_next_lock(). */
raw_spinlock_t *vpt_set_lock(struct task_struct *task);

/*
 * A spare set in life @from asked to move to @to (driver.c): 1 if it
 * moved, 0 if not; *@after is its life then.
 */
int vpt_life_try(int from, int to, int *after);
void vpt_files_per_user(unsigned int n);

/* --- the counter model --- */

/* Is preemption (or are interrupts) off on current's CPU? */
bool preempt_count_here(void);
bool irqs_off_here(void);

/* One IBS sample for the state resumed on current's CPU: false if none. */
bool fk_ibs_sample(void);

/* Every running counter (and the TSC) advances by @n. */
void fk_advance(unsigned int n);
/* Counters @mask of the state running on current's CPU overflow now. */
void fire_overflow(u32 mask);
/* The next copy from or to user space faults. */
void fk_fault_next(void);

/* --- the driver's files --- */

struct fk_file {
	struct inode inode;
	struct file file;
	const struct file_operations *fops;
};

/* Opens @fops's file of @task as current: 0 or the open's error. */
int fk_open(struct fk_file *f, const struct file_operations *fops,
	    struct task_struct *task);
ssize_t fk_read(struct fk_file *f, void *buf, size_t n);
ssize_t fk_write(struct fk_file *f, const void *buf, size_t n);
void fk_close(struct fk_file *f);

/* As current, one write of @task's control, command; 0 or -errno. */
int fk_control(struct task_struct *task, const struct vperfctr_control *c);
int fk_command(struct task_struct *task, u32 cmd);
/* As current: @task's status line, or "error N". */
const char *fk_status(struct task_struct *task);
/* As current: @task's sums / children; 0 or -errno. */
int fk_sums(struct task_struct *task, struct perfctr_sum_ctrs *s);
int fk_children(struct task_struct *task, struct vperfctr_children *ch);

/* A control counting the TSC and @nra a-mode, @nri i-mode counters. */
struct vperfctr_control fk_ctl(unsigned int nra, unsigned int nri);
/* A low-level state for vperfctr_tagged_install(): TSC, one counter. */
struct perfctr_cpu_state *fk_tagged_state(void);

/* --- the fixture --- */

void fk_setup(void);		/* a fresh fake kernel, driver loaded */
/*
 * Exits every task still alive, runs the works, and checks that nothing
 * leaked: module references, sets, task references, locks, warnings.
 */
void fk_teardown(void);

#endif /* _VP_HARNESS_H */
