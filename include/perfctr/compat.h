/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr: the kernel interfaces that changed between 6.1 and the newest
 * kernel tested (README). One helper per change; where the kernel
 * renamed or replaced a call, the helper has the new name, defined here
 * for the kernels before it, and the rest of the module calls that only.
 */
#ifndef _PERFCTR_COMPAT_H
#define _PERFCTR_COMPAT_H

#include <linux/fs.h>
#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sched/coredump.h>
#include <linux/version.h>
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
#include <linux/sched/exec_state.h>
#endif

/* 6.13 set the callback with the rest; hrtimer_init() went away after. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 13, 0)
static inline void hrtimer_setup(struct hrtimer *timer,
				 enum hrtimer_restart (*function)(struct hrtimer *),
				 clockid_t clock_id, enum hrtimer_mode mode)
{
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
}
#endif

/* A read-only mapping that cannot become writable, nor follow a fork. */
static inline void perfctr_vma_read_only(struct vm_area_struct *vma)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 3, 0)
	vm_flags_mod(vma, VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP,
		     VM_MAYWRITE);
#else
	vma->vm_flags &= ~VM_MAYWRITE;
	vma->vm_flags |= VM_DONTCOPY | VM_DONTEXPAND | VM_DONTDUMP;
#endif
}

static inline void perfctr_inode_init_times(struct inode *inode)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
	simple_inode_init_ts(inode);
#else
	inode->i_atime = current_time(inode);
	inode->i_mtime = inode->i_atime;
	inode->i_ctime = inode->i_atime;
#endif
}

/*
 * 7.2 moved dumpability, and the user namespace exec recorded, from the
 * mm to the task's exec_state (shared by the threads that share an mm),
 * and exports no reader of it. Is @task, whose mm is @mm, its owner's
 * to dump and so to ptrace (SUID_DUMP_USER, now TASK_DUMPABLE_OWNER)?
 * Also in NMI context, for current.
 */
static inline bool perfctr_owner_dumpable(struct task_struct *task,
					  struct mm_struct *mm)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
	bool owner;

	rcu_read_lock();
	owner = READ_ONCE(rcu_dereference(task->exec_state)->dumpable) ==
		TASK_DUMPABLE_OWNER;
	rcu_read_unlock();
	return owner;
#else
	return get_dumpable(mm) == SUID_DUMP_USER;
#endif
}

/*
 * Where CAP_SYS_PTRACE must be held over @task (mm @mm) that is not
 * owner-dumpable. Under task_lock(@task), which keeps both.
 */
static inline struct user_namespace *
perfctr_exec_user_ns(struct task_struct *task, struct mm_struct *mm)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(7, 2, 0)
	return rcu_dereference_protected(task->exec_state,
					 lockdep_is_held(&task->alloc_lock))->user_ns;
#else
	return mm->user_ns;
#endif
}

/*
 * The file system's: macros, not functions, as the fast suite's fake
 * kernel (tests/vp) has no VFS for them to be compiled against.
 *
 * 6.14 passes ->d_revalidate() the directory and the name as well; the
 * parameters of the kernel's form, each of which has dentry and flags.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 14, 0)
#define D_REVALIDATE_PARAMS	struct inode *dir, const struct qstr *name, \
				struct dentry *dentry, unsigned int flags
#else
#define D_REVALIDATE_PARAMS	struct dentry *dentry, unsigned int flags
#endif

/* 6.17: the default dentry operations are set through a call. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 17, 0)
#define set_default_d_op(sb, ops)	((sb)->s_d_op = (ops))
#endif

/* 6.18 renamed generic_delete_inode(). */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 18, 0)
#define inode_just_drop	generic_delete_inode
#endif

#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/msr.h>
#include <asm/tlbflush.h>
#include <asm/topology.h>
/*
 * cpuid() and its kin: in <asm/cpuid/api.h> since 6.16, which the
 * kernel's own headers no longer bring in for us.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 16, 0)
#include <asm/cpuid/api.h>
#endif

/*
 * 7.2's <asm/apicdef.h> no longer names the extended LVT entries'
 * fields (6.12's did). They are the hardware's, as the other LVT
 * entries have them (AMD APM vol. 2, "Extended Interrupts", APIC
 * 500h-530h): message type 100b (bits 10:8) is an NMI, bit 16 masks.
 */
#ifndef APIC_EILVT_MSG_NMI
#define APIC_EILVT_MSG_NMI	0x4
#endif
#ifndef APIC_EILVT_MASKED
#define APIC_EILVT_MASKED	BIT(16)
#endif

/*
 * CR4.PCE lets user space RDPMC. Since 6.19 only KVM may change CR4
 * through the kernel (cr4_update_irqsoff()), and a module that wrote it
 * behind the kernel's shadow copy would have the bit undone by the
 * kernel's next write from the shadow (a global TLB flush toggles PGE
 * so), or left on for the next task. There perfctr offers no user-space
 * RDPMC, as with rdpmc=0, and libperfctr reads the sums file instead.
 */
static inline bool perfctr_may_set_pce(void)
{
	return LINUX_VERSION_CODE < KERNEL_VERSION(6, 19, 0);
}

/* Interrupts off. */
static inline void perfctr_set_pce(bool on)
{
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 19, 0)
	if (on)
		cr4_set_bits_irqsoff(X86_CR4_PCE);
	else
		cr4_clear_bits_irqsoff(X86_CR4_PCE);
#endif
}

/* 6.16 named the 64-bit MSR accessors after their width: q, not l. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
#define rdmsrq(msr, val)	rdmsrl(msr, val)

static inline void wrmsrq(u32 msr, u64 val)
{
	wrmsrl(msr, val);
}

static inline int rdmsrq_safe(u32 msr, u64 *val)
{
	return rdmsrl_safe(msr, val);
}

static inline int wrmsrq_safe(u32 msr, u64 val)
{
	return wrmsrl_safe(msr, val);
}
#endif

/*
 * 6.16 dropped the two-halves rdpmc(counter, low, high) and gave its name
 * to rdpmcl(), as a function returning the 64-bit count.
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 16, 0)
#undef rdpmc
static __always_inline u64 rdpmc(int counter)
{
	u64 val;

	rdpmcl(counter, val);
	return val;
}
#endif

/* Since 6.8 apic_read() and apic_write() are static calls modules cannot make. */
static inline u32 perfctr_apic_read(u32 reg)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	return apic->read(reg);
#else
	return apic_read(reg);
#endif
}

static inline void perfctr_apic_write(u32 reg, u32 val)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 8, 0)
	apic->write(reg, val);
#else
	apic_write(reg, val);
#endif
}

/* x86: hardware threads per core; the topology rework of 6.9 renamed it. */
static inline unsigned int perfctr_threads_per_core(void)
{
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 9, 0)
	return __max_threads_per_core;
#else
	return smp_num_siblings;
#endif
}
#endif

#endif /* _PERFCTR_COMPAT_H */
