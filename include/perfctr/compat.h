/* SPDX-License-Identifier: GPL-2.0-only */
/* perfctr: the few kernel interfaces that changed between 6.1 and 6.12. */
#ifndef _PERFCTR_COMPAT_H
#define _PERFCTR_COMPAT_H

#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/version.h>

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

#ifdef CONFIG_X86
#include <asm/apic.h>
#include <asm/topology.h>

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
