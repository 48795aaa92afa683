// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: a thread's AMD Instruction-Based Sampling and its sample ring
 * (/proc/perfctr/<tid>/ibs and ibs_ring; Documentation/perfctr/amd.rst).
 *
 * A struct vp_ibs is one setup of a thread's IBS with the ring its
 * samples go to. Its thread's set (virtual.c) holds one reference, and
 * starts and stops the engines as the thread runs; every open ibs_ring
 * file holds another, so the last samples stay readable after the set
 * or the thread is gone. The samples are written in NMI context, on the
 * CPU the thread runs on, so there is one writer at a time; readers take
 * the consumer mutex. The ring is vmalloc'ed and mapped read-only: user
 * space moves the tail only through the file.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/fs.h>
#include <linux/irq_work.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pid.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include <perfctr/compat.h>
#include <perfctr/cpu.h>
#include <perfctr/ibs.h>

#include "internal.h"

struct vp_ibs {
	refcount_t refs;
	struct perfctr_ibs_state hw;	/* hw.owner: this */
	struct perfctr_ibs_control uctl;
	struct task_struct *owner;	/* referenced: the signal's target */
	u64 exec_id;			/* the owner's at the setup */
	struct user_struct *user;	/* charged for the ring's pages */
	unsigned int pages;		/* data pages of the ring */
	bool reserved;			/* holds the reservation (the set's ref) */
	struct perfctr_ibs_ring *ring;	/* header page, then the slots */
	void *slots;
	u32 nr_slots;
	/*
	 * The ring's head and tail, in native words so that the NMI and the
	 * readers see them whole on 32-bit kernels too; the header mirrors
	 * them for the mapping.
	 */
	unsigned long head, tail;
	/*
	 * The owner as it was at the setup: it is sampled only while it
	 * stays so (ibs_owner_same()); late_ok is that, as of its last
	 * switch-out, for the sample latched then.
	 */
	struct vp_creds creds;
	bool dumpable;
	bool late_ok;
	bool signalled;			/* since the ring last had room */
	struct irq_work sig_work;
	struct mutex consume;		/* readers: tail */
};

static DEFINE_MUTEX(ibs_mutex);
static unsigned int ibs_users;		/* setups alive: the reservation */

static_assert(sizeof(struct perfctr_ibs_sample) == 128);
static_assert(sizeof(struct perfctr_ibs_ring) == 56);
static_assert(sizeof(struct perfctr_ibs_control) == 32);

static int ibs_hw_get(void)
{
	int err = 0;

	mutex_lock(&ibs_mutex);
	if (!ibs_users)
		err = perfctr_cpu_ibs_reserve();
	if (!err)
		ibs_users++;
	mutex_unlock(&ibs_mutex);
	return err;
}

static void ibs_hw_put(void)
{
	mutex_lock(&ibs_mutex);
	if (!--ibs_users)
		perfctr_cpu_ibs_release();
	mutex_unlock(&ibs_mutex);
}

/*
 * Privilege: what perfctr_may_count() asks of kernel-mode counting; and,
 * since every sample is an NMI, a floor on the unprivileged rate.
 */
static int ibs_may(const struct perfctr_ibs_control *c)
{
	int level = perfctr_paranoid();

	if (level <= 1 || perfmon_capable())
		return 0;
	if (level >= 3)
		return -EACCES;		/* TSC only */
	if ((c->flags & PERFCTR_IBS_FETCH && c->fetch_maxcnt < PERFCTR_IBS_MIN_USER) ||
	    (c->flags & PERFCTR_IBS_OP && c->op_maxcnt < PERFCTR_IBS_MIN_USER))
		return -EACCES;
	return c->flags & (PERFCTR_IBS_KERNEL | PERFCTR_IBS_PHYS) ? -EACCES : 0;
}

/* The ring's pages count as the user's locked memory, as perf's do. */
static int ibs_charge(struct vp_ibs *ib)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	unsigned long pages = ib->pages + 1;
	struct user_struct *user = get_current_user();

	if (atomic_long_add_return(pages, &user->locked_vm) > limit &&
	    !capable(CAP_IPC_LOCK)) {
		atomic_long_sub(pages, &user->locked_vm);
		free_uid(user);
		return -ENOMEM;
	}
	ib->user = user;
	return 0;
}

static int ibs_check(const struct perfctr_ibs_control *c)
{
	unsigned int i;

	if (c->flags & ~PERFCTR_IBS_FLAGS)
		return -EINVAL;
	if (!(c->flags & (PERFCTR_IBS_FETCH | PERFCTR_IBS_OP)))
		return -EINVAL;		/* no engine */
	for (i = 0; i < ARRAY_SIZE(c->_reserved); i++)
		if (c->_reserved[i])
			return -EINVAL;
	if (c->si_signo && !valid_signal(c->si_signo))
		return -EINVAL;
	if (c->ring_pages > PERFCTR_IBS_RING_MAX ||
	    (c->ring_pages & (c->ring_pages - 1)))
		return -EINVAL;
	return 0;
}

static void ibs_signal_fn(struct irq_work *work)
{
	struct vp_ibs *ib = container_of(work, struct vp_ibs, sig_work);
	struct kernel_siginfo info;

	/* Never into a program the owner exec'd since, or is exec'ing. */
	if (ib->owner->in_execve ||
	    READ_ONCE(ib->owner->self_exec_id) != ib->exec_id)
		return;
	clear_siginfo(&info);
	info.si_signo = ib->uctl.si_signo;
	info.si_code = SI_PMC_IBS_FULL;
	send_sig_info(info.si_signo, &info, ib->owner);
}

static void ibs_free(struct vp_ibs *ib)
{
	irq_work_sync(&ib->sig_work);
	vfree(ib->ring);		/* a mapping keeps its pages */
	atomic_long_sub(ib->pages + 1, &ib->user->locked_vm);
	free_uid(ib->user);
	put_task_struct(ib->owner);
	kfree(ib);
	module_put(THIS_MODULE);
}

/*
 * The set lets @ib go, its engines stopped: the hardware reservation
 * goes with the set's reference; open rings keep only the memory.
 */
void vp_ibs_retire(struct vp_ibs *ib)
{
	if (!ib)
		return;
	if (ib->reserved) {
		ib->reserved = false;
		ibs_hw_put();
	}
	vp_ibs_put(ib);
}

void vp_ibs_hold(struct vp_ibs *ib)
{
	refcount_inc(&ib->refs);
}

void vp_ibs_put(struct vp_ibs *ib)
{
	if (ib && refcount_dec_and_test(&ib->refs))
		ibs_free(ib);
}

static struct vp_ibs *ibs_alloc(struct task_struct *owner,
				const struct perfctr_ibs_control *c)
{
	unsigned int pages = c->ring_pages ?: PERFCTR_IBS_RING_PAGES;
	struct vp_ibs *ib = kzalloc(sizeof(*ib), GFP_KERNEL_ACCOUNT);

	if (!ib)
		return ERR_PTR(-ENOMEM);
	ib->pages = pages;
	if (ibs_charge(ib)) {
		kfree(ib);
		return ERR_PTR(-ENOMEM);
	}
	ib->ring = vmalloc_user((pages + 1) * PAGE_SIZE);
	if (!ib->ring) {
		atomic_long_sub(pages + 1, &ib->user->locked_vm);
		free_uid(ib->user);
		kfree(ib);
		return ERR_PTR(-ENOMEM);
	}
	ib->slots = (void *)ib->ring + PAGE_SIZE;
	ib->nr_slots = pages * PAGE_SIZE / sizeof(struct perfctr_ibs_sample);
	ib->ring->magic = PERFCTR_IBS_RING_MAGIC;
	ib->ring->sample_size = sizeof(struct perfctr_ibs_sample);
	ib->ring->nr_slots = ib->nr_slots;
	ib->uctl = *c;
	ib->hw.owner = ib;
	refcount_set(&ib->refs, 1);
	mutex_init(&ib->consume);
	init_irq_work(&ib->sig_work, ibs_signal_fn);
	get_task_struct(owner);
	ib->owner = owner;
	ib->exec_id = READ_ONCE(owner->self_exec_id);
	vp_creds_take(&ib->creds, owner);
	ib->dumpable = vp_task_dumpable(owner);
	return ib;
}

/*
 * A new setup @c for @owner, checked and with the hardware reserved, or
 * an ERR_PTR: -EINVAL, -EOPNOTSUPP, -EACCES, -EBUSY (perf's IBS was seen
 * running, or its interrupt is someone else's), -ENOMEM.
 */
struct vp_ibs *vp_ibs_new(struct task_struct *owner,
			  const struct perfctr_ibs_control *c)
{
	struct perfctr_ibs_state hw = {};
	struct vp_ibs *ib;
	int err;

	err = ibs_check(c);
	if (!err)
		err = perfctr_cpu_ibs_setup(&hw, c);
	if (!err)
		err = ibs_may(c);
	if (!err)
		err = ibs_hw_get();
	if (err)
		return ERR_PTR(err);
	/*
	 * The answer the reservation's calls found, or one at most a second
	 * old: any user may write setups in a loop, and a scan calls every
	 * CPU.
	 */
	if (perfctr_cpu_ibs_busy()) {
		ibs_hw_put();
		return ERR_PTR(-EBUSY);
	}
	ib = ibs_alloc(owner, c);
	if (IS_ERR(ib)) {
		ibs_hw_put();
		return ib;
	}
	ib->reserved = true;
	ib->hw.fetch_ctl = hw.fetch_ctl;
	ib->hw.op_ctl = hw.op_ctl;
	__module_get(THIS_MODULE);
	return ib;
}

void vp_ibs_control(const struct vp_ibs *ib, struct perfctr_ibs_control *c)
{
	*c = ib->uctl;
}

/* Preemption and interrupts off, on the owner's CPU. */
bool vp_ibs_start(struct vp_ibs *ib)
{
	if (!perfctr_cpu_ibs_resume(&ib->hw))
		return true;
	WRITE_ONCE(ib->ring->busy, ib->ring->busy + 1);
	return false;
}

/*
 * The owner, current here, has the ids and capabilities and (if it had
 * it) the dumpability of the setup: a thread that changed them, by
 * setuid() or prctl(PR_SET_DUMPABLE, 0), may have become someone whom
 * the ring's readers could not have asked to sample (amd.rst). The
 * objective credentials: an override (access(2)) is not a change. Also
 * in NMI context: the owner's own creds and mm stay while it runs.
 */
static bool ibs_owner_same(const struct vp_ibs *ib)
{
	struct mm_struct *mm = current->mm;

	if (!vp_creds_same(&ib->creds, current_real_cred()))
		return false;
	return !ib->dumpable || (mm && get_dumpable(mm) == SUID_DUMP_USER);
}

/* On the owner's CPU, as it leaves it or stops sampling. */
void vp_ibs_stop(struct vp_ibs *ib)
{
	WRITE_ONCE(ib->late_ok, current == ib->owner && ibs_owner_same(ib));
	perfctr_cpu_ibs_suspend(&ib->hw);
}

static bool ibs_kernel_addr(u64 addr)
{
	return addr >= TASK_SIZE_MAX;
}

/* Kernel code, or an address only privilege may see: @s is changed. */
static bool ibs_filter(const struct vp_ibs *ib, struct perfctr_ibs_sample *s)
{
	/* The program being exec'd is not the setup's (it may be setuid). */
	if (current->in_execve)
		return true;
	/* Latched as the owner left the CPU: as it was then. */
	if (current == ib->owner ? !ibs_owner_same(ib) : !READ_ONCE(ib->late_ok))
		return true;
	if (!(ib->uctl.flags & PERFCTR_IBS_KERNEL)) {
		if (s->kind == PERFCTR_IBS_SAMPLE_FETCH &&
		    ibs_kernel_addr(s->fetch_lin))
			return true;
		if (s->kind == PERFCTR_IBS_SAMPLE_OP &&
		    (!(s->valid & PERFCTR_IBS_VALID_OP_RIP) ||
		     ibs_kernel_addr(s->op_rip)))
			return true;
		if (ibs_kernel_addr(s->dc_lin)) {
			s->dc_lin = 0;
			s->dc_phys = 0;
			s->valid &= ~(PERFCTR_IBS_VALID_DC_LIN |
				      PERFCTR_IBS_VALID_DC_PHYS);
		}
	}
	if (!(ib->uctl.flags & PERFCTR_IBS_PHYS)) {
		s->fetch_phys = 0;
		s->dc_phys = 0;
		s->valid &= ~(PERFCTR_IBS_VALID_FETCH_PHYS |
			      PERFCTR_IBS_VALID_DC_PHYS);
	}
	return false;
}

static void ibs_full(struct vp_ibs *ib)
{
	if (ib->uctl.si_signo && !ib->signalled) {
		ib->signalled = true;
		irq_work_queue(&ib->sig_work);
	}
}

/* NMI context, on the owner's CPU: the one writer of the ring. */
static void ibs_sample(struct perfctr_ibs_state *st,
		       struct perfctr_ibs_sample *s)
{
	struct vp_ibs *ib = st->owner;
	struct perfctr_ibs_ring *r = ib->ring;
	unsigned long head = ib->head;

	if (ibs_filter(ib, s)) {
		WRITE_ONCE(r->filtered, r->filtered + 1);
		return;
	}
	/* Pairs with ibs_set_tail(): the reader is done with the slot. */
	if (head - smp_load_acquire(&ib->tail) >= ib->nr_slots) {
		WRITE_ONCE(r->lost, r->lost + 1);
		ibs_full(ib);
		return;
	}
	s->seq = head;
	memcpy(ib->slots + (head % ib->nr_slots) * sizeof(*s), s, sizeof(*s));
	/* The slot is written before the head says so (readers acquire). */
	smp_store_release(&ib->head, head + 1);
	WRITE_ONCE(r->head, head + 1);
	if (head + 1 - READ_ONCE(ib->tail) >= ib->nr_slots)
		ibs_full(ib);
}

/* Consumer mutex held. A new tail, from tail up to head. */
static int ibs_set_tail(struct vp_ibs *ib, u64 tail)
{
	/* Pairs with ibs_sample()'s release: the slots below are written. */
	unsigned long head = smp_load_acquire(&ib->head);

	if (tail < ib->tail || tail > head)
		return -EINVAL;
	/* The slots are read before the writer may reuse them. */
	smp_store_release(&ib->tail, (unsigned long)tail);
	WRITE_ONCE(ib->ring->tail, tail);
	WRITE_ONCE(ib->signalled, false);
	return 0;
}

/* An open ibs_ring: the ring, and the file's hold on its thread. */
struct ibs_ring_file {
	struct vp_ibs *ib;
	struct vp_file *f;
};

/*
 * ibs_ring: whoever may read the thread's counters may open it; every
 * request asks again (vp_file_may()): so a ring the thread's own process
 * opened may be handed on while the thread stays as it was.
 */
static int ibs_ring_may(struct file *file, bool wait)
{
	struct ibs_ring_file *rf = file->private_data;

	return vp_file_may(rf->f, wait);
}

static int ibs_ring_open(struct inode *inode, struct file *file)
{
	struct task_struct *task = get_pid_task(inode->i_private, PIDTYPE_PID);
	struct ibs_ring_file *rf;
	int err = -ENOMEM;

	if (!task)
		return -ESRCH;
	rf = kzalloc(sizeof(*rf), GFP_KERNEL_ACCOUNT);
	if (!rf)
		goto out;
	rf->f = vp_file_open(task);
	err = PTR_ERR_OR_ZERO(rf->f);
	if (err)
		goto free;
	rf->ib = vperfctr_ibs_get(task);
	err = PTR_ERR_OR_ZERO(rf->ib);
	if (!err) {
		file->private_data = rf;
		goto out;
	}
	vp_file_close(rf->f);
free:
	kfree(rf);
out:
	put_task_struct(task);
	return err;
}

static int ibs_ring_release(struct inode *inode, struct file *file)
{
	struct ibs_ring_file *rf = file->private_data;

	vp_ibs_put(rf->ib);
	vp_file_close(rf->f);
	kfree(rf);
	return 0;
}

static ssize_t ibs_ring_read(struct file *file, char __user *buf,
			     size_t count, loff_t *ppos)
{
	struct ibs_ring_file *rf = file->private_data;
	struct vp_ibs *ib = rf->ib;
	struct perfctr_ibs_sample s;
	unsigned long head, tail;
	size_t done = 0;
	int err = 0;

	if (count < sizeof(s))
		return -EINVAL;
	err = ibs_ring_may(file, true);
	if (err)
		return err;
	mutex_lock(&ib->consume);
	/* Pairs with ibs_sample()'s release: the slots below are written. */
	head = smp_load_acquire(&ib->head);
	tail = ib->tail;
	while (tail < head && count - done >= sizeof(s)) {
		memcpy(&s, ib->slots + (tail % ib->nr_slots) * sizeof(s),
		       sizeof(s));
		if (copy_to_user(buf + done, &s, sizeof(s))) {
			err = -EFAULT;
			break;
		}
		done += sizeof(s);
		tail++;
	}
	ibs_set_tail(ib, tail);
	mutex_unlock(&ib->consume);
	return done ?: err;
}

static ssize_t ibs_ring_write(struct file *file, const char __user *buf,
			      size_t count, loff_t *ppos)
{
	struct ibs_ring_file *rf = file->private_data;
	struct vp_ibs *ib = rf->ib;
	u64 tail;
	int err;

	if (*ppos != 0 || count != sizeof(tail))
		return -EINVAL;
	if (copy_from_user(&tail, buf, sizeof(tail)))
		return -EFAULT;
	err = ibs_ring_may(file, true);
	if (err)
		return err;
	mutex_lock(&ib->consume);
	err = ibs_set_tail(ib, tail);
	mutex_unlock(&ib->consume);
	return err ?: count;
}

/* The header page and every data page, read-only, from offset 0. */
static int ibs_ring_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct ibs_ring_file *rf = file->private_data;
	struct vp_ibs *ib = rf->ib;
	unsigned long size = (ib->pages + 1) * PAGE_SIZE;
	int err;

	if (vma->vm_pgoff || vma->vm_end - vma->vm_start != size)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	err = ibs_ring_may(file, false);
	if (err)
		return err;
	perfctr_vma_read_only(vma);
	return remap_vmalloc_range(vma, ib->ring, 0);
}

const struct file_operations vperfctr_ibs_ring_fops = {
	.owner = THIS_MODULE,
	.open = ibs_ring_open,
	.release = ibs_ring_release,
	.read = ibs_ring_read,
	.write = ibs_ring_write,
	.mmap = ibs_ring_mmap,
	.llseek = noop_llseek,
};

void vp_ibs_init(void)
{
	perfctr_cpu_set_ibs_handler(ibs_sample);
}

void vp_ibs_exit(void)
{
	perfctr_cpu_set_ibs_handler(NULL);
}
