// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: a thread's AMD Instruction-Based Sampling and its sample ring
 * (/proc/perfctr/<tid>/ibs and ibs_ring; Documentation/perfctr/amd.rst).
 *
 * A struct vp_ibs is one setup of a thread's IBS with the ring its
 * samples go to. Its thread's set (set.c) holds one reference, and
 * starts and stops the engines as the thread runs; every open ibs_ring
 * file (ibs_ring.c) holds another, so the last samples stay readable
 * after the set or the thread is gone. The samples are written in NMI context, on the
 * CPU the thread runs on, so there is one writer at a time; readers take
 * the consumer mutex. The ring is vmalloc'ed and mapped read-only: user
 * space moves the tail only through the file.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/capability.h>
#include <linux/errno.h>
#include <linux/irq_work.h>
#include <linux/llist.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/refcount.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>
#include <linux/sched/task.h>
#include <linux/signal.h>
#include <linux/slab.h>
#include <linux/task_work.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>
#include <linux/workqueue.h>

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
	bool mapped;			/* user space has had the ring's pages */
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
	struct irq_work sig_work;	/* from the NMI: queues sig_twork */
	unsigned long sig_pending;	/* bit 0: sig_twork is queued */
	struct callback_head sig_twork;	/* the signal, in the owner */
	struct llist_node free_node;
	struct mutex consume;		/* readers: tail */
};

static DEFINE_MUTEX(ibs_mutex);
static unsigned int ibs_users;		/* setups alive: the reservation */

static void ibs_free_fn(struct work_struct *work);
static LLIST_HEAD(ibs_free_list);
static DECLARE_WORK(ibs_free_work, ibs_free_fn);

/*
 * Rings of gone setups that user space never mapped, kept for the next
 * setup of the same size (S6): vfree() frees lazily, and once enough
 * is freed the kernel flushes every CPU's TLB, so a user's loop of
 * setups would otherwise call every CPU. A mapped ring's pages may be
 * in a process still: it goes back to vmalloc. Few rings, uncharged.
 */
#define IBS_POOL_SIZE	4

static DEFINE_MUTEX(ibs_pool_lock);
static struct perfctr_ibs_ring *ibs_pool[IBS_POOL_SIZE];
static unsigned int ibs_pool_pages[IBS_POOL_SIZE];
static unsigned int ibs_pool_next;	/* the slot a full pool gives up */

static size_t ibs_ring_bytes(unsigned int pages)
{
	return (pages + 1) * PAGE_SIZE;	/* the header page, then the data */
}

/* A zeroed ring of @pages data pages: a kept one, or a new one. */
static struct perfctr_ibs_ring *ibs_ring_get(unsigned int pages)
{
	struct perfctr_ibs_ring *ring = NULL;
	unsigned int i;

	mutex_lock(&ibs_pool_lock);
	for (i = 0; i < IBS_POOL_SIZE && !ring; i++) {
		if (ibs_pool[i] && ibs_pool_pages[i] == pages) {
			ring = ibs_pool[i];
			ibs_pool[i] = NULL;
		}
	}
	mutex_unlock(&ibs_pool_lock);
	if (!ring)
		return vmalloc_user(ibs_ring_bytes(pages));
	memset(ring, 0, ibs_ring_bytes(pages));	/* another's samples */
	return ring;
}

/*
 * A full pool gives up a ring of another size, in turn, so that a loop's
 * size stays kept; full of this size already, the ring itself goes.
 */
static void ibs_ring_put(struct perfctr_ibs_ring *ring, unsigned int pages,
			 bool mapped)
{
	struct perfctr_ibs_ring *out = ring;
	unsigned int i, n;

	if (!mapped) {
		mutex_lock(&ibs_pool_lock);
		for (i = 0; i < IBS_POOL_SIZE && ibs_pool[i]; i++)
			;
		for (n = 0; i == IBS_POOL_SIZE && n < IBS_POOL_SIZE; n++) {
			unsigned int v = ibs_pool_next++ % IBS_POOL_SIZE;

			if (ibs_pool_pages[v] != pages)
				i = v;
		}
		if (i < IBS_POOL_SIZE) {
			out = ibs_pool[i];
			ibs_pool[i] = ring;
			ibs_pool_pages[i] = pages;
		}
		mutex_unlock(&ibs_pool_lock);
	}
	vfree(out);		/* a mapping keeps its pages */
}

static void ibs_pool_drain(void)
{
	unsigned int i;

	for (i = 0; i < IBS_POOL_SIZE; i++) {
		vfree(ibs_pool[i]);
		ibs_pool[i] = NULL;
	}
}

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
 * Privilege: what perfctr_may_count_task() asks of kernel-mode counting,
 * of the caller and of @owner, who reads the samples (a tracer's setup
 * gives its tracee nothing it could not have set up itself); and, since
 * every sample is an NMI, a floor on the rate an unprivileged caller
 * asks for.
 */
static int ibs_may(struct task_struct *owner,
		   const struct perfctr_ibs_control *c)
{
	int level = perfctr_paranoid();
	bool caller = perfmon_capable();

	if (level <= 1 ||
	    (caller && (owner == current || perfctr_task_privileged(owner))))
		return 0;
	if (level >= 3)
		return -EACCES;		/* TSC only */
	if (!caller &&
	    ((c->flags & PERFCTR_IBS_FETCH && c->fetch_maxcnt < PERFCTR_IBS_MIN_USER) ||
	     (c->flags & PERFCTR_IBS_OP && c->op_maxcnt < PERFCTR_IBS_MIN_USER)))
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

/*
 * In the owner, on its way to user space: the ring is full. Never into a
 * program exec'd since the setup (it may be setuid): an execve() may be
 * under way for a while before in_execve says so, and a signal sent then
 * would stay pending into the new program.
 */
static void ibs_signal_twork(struct callback_head *cb)
{
	struct vp_ibs *ib = container_of(cb, struct vp_ibs, sig_twork);
	struct kernel_siginfo info;

	clear_bit(0, &ib->sig_pending);
	if (READ_ONCE(current->self_exec_id) == ib->exec_id) {
		clear_siginfo(&info);
		info.si_signo = ib->uctl.si_signo;
		info.si_code = SI_PMC_IBS_FULL;
		send_sig_info(info.si_signo, &info, current);
	}
	vp_ibs_put(ib);
}

/* After the NMI: the signal goes with task_work, which holds @ib. */
static void ibs_signal_fn(struct irq_work *work)
{
	struct vp_ibs *ib = container_of(work, struct vp_ibs, sig_work);

	if (test_and_set_bit(0, &ib->sig_pending))
		return;			/* one is on its way */
	if (!refcount_inc_not_zero(&ib->refs)) {
		clear_bit(0, &ib->sig_pending);	/* being freed */
		return;
	}
	if (task_work_add(ib->owner, &ib->sig_twork, TWA_RESUME)) {
		clear_bit(0, &ib->sig_pending);	/* exited */
		vp_ibs_put(ib);
	}
}

static void ibs_free(struct vp_ibs *ib)
{
	irq_work_sync(&ib->sig_work);
	ibs_ring_put(ib->ring, ib->pages, READ_ONCE(ib->mapped));
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

/*
 * The last reference frees @ib from a work item, never here: it may be
 * the signal's task_work or irq_work, where the module must not lose its
 * last reference, nor the irq_work wait for itself.
 */
void vp_ibs_put(struct vp_ibs *ib)
{
	if (ib && refcount_dec_and_test(&ib->refs)) {
		llist_add(&ib->free_node, &ibs_free_list);
		schedule_work(&ibs_free_work);
	}
}

static void ibs_free_fn(struct work_struct *work)
{
	struct llist_node *list = llist_del_all(&ibs_free_list);
	struct vp_ibs *ib, *n;

	llist_for_each_entry_safe(ib, n, list, free_node)
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
	ib->ring = ibs_ring_get(pages);
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
	init_task_work(&ib->sig_twork, ibs_signal_twork);
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
		err = ibs_may(owner, c);
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
	return !ib->dumpable || (mm && perfctr_owner_dumpable(current, mm));
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

/* A read of the ring file: whole samples from the tail, which moves. */
ssize_t vp_ibs_ring_read(struct vp_ibs *ib, char __user *buf, size_t count)
{
	struct perfctr_ibs_sample s;
	unsigned long head, tail;
	size_t done = 0;
	int err = 0;

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

/* The reader is done with the samples below @tail. */
int vp_ibs_ring_set_tail(struct vp_ibs *ib, u64 tail)
{
	int err;

	mutex_lock(&ib->consume);
	err = ibs_set_tail(ib, tail);
	mutex_unlock(&ib->consume);
	return err;
}

/* The header page and every data page. */
unsigned long vp_ibs_ring_size(const struct vp_ibs *ib)
{
	return ibs_ring_bytes(ib->pages);
}

int vp_ibs_ring_map(struct vp_ibs *ib, struct vm_area_struct *vma)
{
	/* Before the pages are in: never back to the pool, whatever comes. */
	WRITE_ONCE(ib->mapped, true);
	return remap_vmalloc_range(vma, ib->ring, 0);
}

void vp_ibs_init(void)
{
	perfctr_cpu_set_ibs_handler(ibs_sample);
}

/* Every setup is gone (each held a module reference) or in the work. */
void vp_ibs_exit(void)
{
	perfctr_cpu_set_ibs_handler(NULL);
	flush_work(&ibs_free_work);
	ibs_pool_drain();
}
