/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake kernel the fast suite compiles drivers/perfctr/virtual.c
 * against, in user space: every <linux/X.h> and <asm/X.h> the driver
 * includes is a generated one-liner including this file. What the
 * driver calls is declared here and implemented by the harness
 * (harness.c), which fails the test wherever the real kernel would
 * misbehave: locks, notifiers, task_work, refcounts, frees.
 */
#ifndef _VP_SHIM_KERNEL_H
#define _VP_SHIM_KERNEL_H

#include <assert.h>	/* static_assert */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <asm-generic/errno.h>	/* the kernel's numbers; not glibc's errno.h */

/* --- types --- */

#define __bitwise

/* x86-64's sizes; u64 and s64 are longs, as <stdint.h>'s are here. */
typedef unsigned char __u8;
typedef unsigned short __u16;
typedef unsigned int __u32;
typedef int __s32;
typedef unsigned long __u64;
typedef long __s64;
typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s32 s32;
typedef __s64 s64;
typedef __u64 __aligned_u64 __aligned(8);
typedef unsigned int __bitwise gfp_t;
typedef s64 ktime_t;

#define __user
#define __rcu
#define __acquires(x)
#define __releases(x)
#define __must_check
#define __maybe_unused	__attribute_maybe_unused__	/* <sys/cdefs.h> */
#define KBUILD_MODNAME	"perfctr"
#define THIS_MODULE	(&fk_module)

/* --- the usual helpers --- */

#define BIT(n)		(1UL << (n))
#define GENMASK(h, l)	(((~0UL) << (l)) & (~0UL >> (63 - (h))))
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define U32_MAX		((u32)~0U)
#define min_t(type, a, b)	((type)(a) < (type)(b) ? (type)(a) : (type)(b))
#define BITS_PER_LONG	64
#define container_of(p, type, member) \
	((type *)((char *)(p) - offsetof(type, member)))
#define swap(a, b) do {						\
	__typeof__(a) *__pa = &(a);					\
	__typeof__(b) *__pb = &(b);					\
	__typeof__(a) __t = *__pa;					\
									\
	*__pa = *__pb;							\
	*__pb = __t;							\
} while (0)
/* One access each, not torn: relaxed atomics, not volatile. */
#define READ_ONCE(x)		__atomic_load_n(&(x), __ATOMIC_RELAXED)
#define WRITE_ONCE(x, v)	__atomic_store_n(&(x), (v), __ATOMIC_RELAXED)
/* The barriers: C11 fences and acquire/release accesses. */
#define smp_wmb()		__atomic_thread_fence(__ATOMIC_RELEASE)	/* C11 */
#define smp_mb()		__atomic_thread_fence(__ATOMIC_SEQ_CST)	/* C11 */
#define smp_load_acquire(p)	__atomic_load_n(p, __ATOMIC_ACQUIRE)	/* C11 */
#define smp_store_release(p, v)	__atomic_store_n(p, v, __ATOMIC_RELEASE)	/* C11 */
#define likely(x)		__builtin_expect(!!(x), 1)
#define unlikely(x)		__builtin_expect(!!(x), 0)
#define NSEC_PER_MSEC		1000000L
#define PAGE_SIZE		4096UL
#define PAGE_SHIFT		12
#define TASK_SIZE_MAX		BIT(47)

#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	((unsigned long)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long e) { return (void *)e; }
static inline long PTR_ERR(const void *p) { return (long)p; }
static inline bool IS_ERR(const void *p) { return IS_ERR_VALUE(p); }
static inline int PTR_ERR_OR_ZERO(const void *p)
{
	return IS_ERR(p) ? (int)PTR_ERR(p) : 0;
}

/* Fails the test: the harness's one way out (harness.c). */
__printf(3, 4)
void fk_fail(const char *file, int line, const char *fmt, ...);
#define FK_FAIL(...)	fk_fail(__FILE__, __LINE__, __VA_ARGS__)

/* Counted; each test fails if one fired that it did not expect. */
void fk_warn(const char *file, int line, const char *cond);
#define WARN_ON_ONCE(c) ({						\
	bool __c = !!(c);						\
	if (__c)							\
		fk_warn(__FILE__, __LINE__, #c);			\
	__c;								\
})
#define WARN_ON(c)	WARN_ON_ONCE(c)
#define WARN_ONCE(c, ...) ({						\
	bool __c = !!(c);						\
	if (__c)							\
		fk_warn(__FILE__, __LINE__, #c);			\
	__c;								\
})

#define pr_warn(...)	fprintf(stderr, __VA_ARGS__)
#define pr_info(...)	do { } while (0)

/* --- bits --- */

static inline unsigned long fk_next_bit(const unsigned long *w,
					unsigned long n, unsigned long from)
{
	while (from < n && !(*w & BIT(from)))
		from++;
	return from;
}

#define for_each_set_bit(bit, addr, size)				\
	for ((bit) = fk_next_bit(addr, size, 0); (bit) < (size);	\
	     (bit) = fk_next_bit(addr, size, (bit) + 1))

static inline void *memchr_inv(const void *p, int c, size_t n)
{
	const unsigned char *s = p;

	for (; n; n--, s++)
		if (*s != (unsigned char)c)
			return (void *)s;
	return NULL;
}

__printf(3, 4)
int scnprintf(char *buf, size_t size, const char *fmt, ...);

/* --- CPUs: FK_NR_CPUS of them; per-CPU data is an array --- */

#define FK_NR_CPUS	2
extern int fk_cpu;			/* the CPU current runs on */
#define smp_processor_id()	fk_cpu
#define raw_smp_processor_id()	fk_cpu
#define DEFINE_PER_CPU(type, name)	__typeof__(type) name[FK_NR_CPUS]
#define DECLARE_PER_CPU(type, name)	extern __typeof__(type) name[FK_NR_CPUS]
#define this_cpu_ptr(p)		(&(*(p))[fk_cpu])
#define per_cpu_ptr(p, cpu)	(&(*(p))[cpu])
#define this_cpu_read(x)	((x)[fk_cpu])
#define this_cpu_write(x, v)	((x)[fk_cpu] = (v))
#define for_each_possible_cpu(c)	for ((c) = 0; (c) < FK_NR_CPUS; (c)++)
void cpu_relax(void);
void on_each_cpu(void (*fn)(void *), void *info, int wait);

struct cpumask { unsigned long bits; };
static inline bool cpumask_test_cpu(int cpu, const struct cpumask *m)
{
	return m->bits & BIT(cpu);
}

static inline bool cpumask_intersects(const struct cpumask *a,
				      const struct cpumask *b)
{
	return a->bits & b->bits;
}

/* --- preemption, interrupts, RCU --- */

void preempt_disable(void);
void preempt_enable(void);
unsigned long fk_irq_save(void);
void fk_irq_restore(unsigned long flags);
void might_sleep(void);
void rcu_read_lock(void);
void rcu_read_unlock(void);
void synchronize_rcu(void);
#define rcu_dereference(p)	(p)

/* --- locks: each knows its holder (harness.c checks) --- */

struct task_struct;
typedef struct raw_spinlock {
	struct task_struct *holder;	/* first: lockdep_assert_held() */
	const char *name;
} raw_spinlock_t;

struct mutex {
	struct task_struct *holder;
	const char *name;
};

#define __RAW_SPIN_LOCK_UNLOCKED(n)	{ .name = #n }
#define DEFINE_RAW_SPINLOCK(n)	raw_spinlock_t n = { .name = #n }
#define DEFINE_MUTEX(n)		struct mutex n = { .name = #n }
#define raw_spin_lock_init(l)	(*(l) = (raw_spinlock_t){ .name = #l })
void raw_spin_lock(raw_spinlock_t *l);
void raw_spin_unlock(raw_spinlock_t *l);
#define raw_spin_lock_irqsave(l, f) \
	do { (f) = fk_irq_save(); raw_spin_lock(l); } while (0)
#define raw_spin_unlock_irqrestore(l, f) \
	do { raw_spin_unlock(l); fk_irq_restore(f); } while (0)
/* The _irq forms: interrupts must be on before, and are on after. */
void fk_irq_off(void);
void fk_irq_on(void);
#define raw_spin_lock_irq(l) \
	do { fk_irq_off(); raw_spin_lock(l); } while (0)
#define raw_spin_unlock_irq(l) \
	do { raw_spin_unlock(l); fk_irq_on(); } while (0)
void mutex_lock(struct mutex *m);
void mutex_unlock(struct mutex *m);
#define mutex_init(m)		(*(m) = (struct mutex){ .name = #m })

bool fk_held(struct task_struct *const *holder);
void fk_assert_held(struct task_struct *const *holder, const char *what,
		    const char *file, int line);
#define lockdep_is_held(l)	fk_held(&(l)->holder)
#define lockdep_assert_held(l) \
	fk_assert_held(&(l)->holder, #l, __FILE__, __LINE__)
bool irqs_off_here(void);
#define lockdep_assert_irqs_disabled() \
	do { if (!irqs_off_here()) FK_FAIL("interrupts on"); } while (0)

/* --- refcounts: underflow and saturation fail --- */

typedef struct { int refs; } refcount_t;
void refcount_set(refcount_t *r, int n);
void refcount_inc(refcount_t *r);
void refcount_dec(refcount_t *r);
bool refcount_dec_and_test(refcount_t *r);
bool refcount_inc_not_zero(refcount_t *r);
typedef struct { s64 counter; } atomic64_t;

/* --- memory: really freed, so ASan sees a use after free --- */

#define GFP_KERNEL		0x1u
#define GFP_KERNEL_ACCOUNT	0x2u
#define GFP_ATOMIC		0x4u
void *kzalloc(size_t size, gfp_t gfp);
void kfree(const void *p);
unsigned long get_zeroed_page(gfp_t gfp);
void free_page(unsigned long addr);

void *kvmalloc_array(size_t n, size_t size, gfp_t gfp);
void kvfree(const void *p);

/* --- a doubly linked list, as <linux/list.h> --- */

struct list_head { struct list_head *next, *prev; };

static inline void INIT_LIST_HEAD(struct list_head *h)
{
	h->next = h;
	h->prev = h;
}

static inline void fk_list_link(struct list_head *n, struct list_head *prev,
				struct list_head *next)
{
	next->prev = n;
	n->next = next;
	n->prev = prev;
	prev->next = n;
}

static inline void list_add(struct list_head *n, struct list_head *h)
{
	fk_list_link(n, h, h->next);
}

static inline void list_add_tail(struct list_head *n, struct list_head *h)
{
	fk_list_link(n, h->prev, h);
}

static inline void list_del_init(struct list_head *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	INIT_LIST_HEAD(n);
}

static inline void list_move_tail(struct list_head *n, struct list_head *h)
{
	list_del_init(n);
	list_add_tail(n, h);
}

static inline bool list_empty(const struct list_head *h)
{
	return h->next == h;
}

#define list_entry(p, type, member)	container_of(p, type, member)

/* --- a tiny hlist and hash table --- */

struct hlist_node { struct hlist_node *next, **pprev; };
struct hlist_head { struct hlist_node *first; };

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	n->next = h->first;
	if (h->first)
		h->first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}

static inline void hlist_del(struct hlist_node *n)
{
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
	n->next = NULL;
	n->pprev = NULL;
}

#define hlist_entry_safe(p, type, member) ({			\
	__typeof__(p) __p = (p);					\
									\
	__p ? container_of(__p, type, member) : NULL;			\
})
#define hlist_for_each_entry(pos, head, member)				\
	for (pos = hlist_entry_safe((head)->first, __typeof__(*pos), member); \
	     pos; pos = hlist_entry_safe(pos->member.next,		\
					 __typeof__(*pos), member))

#define DEFINE_HASHTABLE(n, bits)	struct hlist_head n[1 << (bits)]
#define fk_hash(tbl, key)	(&(tbl)[(key) % (sizeof(tbl) / sizeof((tbl)[0]))])
#define hash_add(tbl, node, key)	hlist_add_head(node, fk_hash(tbl, key))
#define hash_add_rcu(tbl, node, key)	hash_add(tbl, node, key)
#define hash_del(node)		hlist_del(node)
#define hash_del_rcu(node)	hlist_del(node)
#define hash_for_each_possible(tbl, obj, member, key) \
	hlist_for_each_entry(obj, fk_hash(tbl, key), member)
#define hash_for_each_possible_rcu(tbl, obj, member, key, ...) \
	hash_for_each_possible(tbl, obj, member, key)
#define hash_for_each(tbl, bkt, obj, member)				\
	for ((bkt) = 0; (bkt) < ARRAY_SIZE(tbl); (bkt)++)		\
		hlist_for_each_entry(obj, &(tbl)[bkt], member)

/* --- lock-less lists --- */

struct llist_node { struct llist_node *next; };
struct llist_head { struct llist_node *first; };
#define LLIST_HEAD(n)	struct llist_head n = { NULL }
static inline bool llist_add(struct llist_node *n, struct llist_head *h)
{
	bool was_empty = !h->first;

	n->next = h->first;
	h->first = n;
	return was_empty;
}

static inline struct llist_node *llist_del_all(struct llist_head *h)
{
	struct llist_node *n = h->first;

	h->first = NULL;
	return n;
}

static inline bool llist_empty(const struct llist_head *h)
{
	return !READ_ONCE(h->first);
}

#define llist_entry(p, type, member)	container_of(p, type, member)
#define llist_for_each_entry(pos, node, member)				\
	for (pos = (node) ? llist_entry(node, __typeof__(*pos), member) : NULL; \
	     pos; pos = pos->member.next ?				\
	     llist_entry(pos->member.next, __typeof__(*pos), member) : NULL)
#define llist_for_each_entry_safe(pos, n, node, member)			\
	for (pos = (node) ? llist_entry(node, __typeof__(*pos), member) : NULL; \
	     pos && ((n = pos->member.next ?				\
		      llist_entry(pos->member.next, __typeof__(*pos), member) : \
		      NULL), 1);					\
	     pos = n)

/* --- credentials --- */

typedef struct { __u32 val; } kuid_t;
typedef struct { __u32 val; } kgid_t;
typedef struct { u64 val; } kernel_cap_t;
static inline bool uid_eq(kuid_t a, kuid_t b) { return a.val == b.val; }
static inline bool gid_eq(kgid_t a, kgid_t b) { return a.val == b.val; }
static inline bool cap_issubset(kernel_cap_t a, kernel_cap_t b)
{
	return !(a.val & ~b.val);
}

struct cred {
	kuid_t uid, euid, suid, fsuid;
	kgid_t gid, egid, sgid, fsgid;
	kernel_cap_t cap_permitted;
	struct user_namespace *user_ns;
};

struct user_namespace;
#define __task_cred(t)		((const struct cred *)&(t)->cred)
#define current_cred()		__task_cred(current)
#define current_real_cred()	__task_cred(current)
#define task_uid(t)		(__task_cred(t)->uid)
static inline unsigned int from_kuid_munged(struct user_namespace *ns,
					    kuid_t uid)
{
	return uid.val;
}

bool perfmon_capable(void);

/* --- mm --- */

#define SUID_DUMP_DISABLE	0
#define SUID_DUMP_USER		1
struct mm_struct {
	int dumpable;
	struct user_namespace *user_ns;
	int count;			/* mmgrab()s, checked by the harness */
};

void mmgrab(struct mm_struct *mm);
void mmdrop(struct mm_struct *mm);
#define mmdrop_sched(mm)	mmdrop(mm)
static inline int get_dumpable(struct mm_struct *mm) { return mm->dumpable; }

struct page;
struct vm_area_struct {
	unsigned long vm_start, vm_end, vm_pgoff, vm_flags;
};

#define VM_WRITE	0x2UL
#define VM_MAYWRITE	0x20UL
#define VM_DONTCOPY	0x20000UL
#define VM_DONTEXPAND	0x40000UL
#define VM_DONTDUMP	0x4000000UL
static inline void vm_flags_mod(struct vm_area_struct *vma, unsigned long set,
				unsigned long clear)
{
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
}

#define virt_to_page(p)	((struct page *)(p))
int vm_insert_page(struct vm_area_struct *vma, unsigned long addr,
		   struct page *page);

#define KERNEL_VERSION(a, b, c)	(((a) << 16) + ((b) << 8) + (c))
#define LINUX_VERSION_CODE	KERNEL_VERSION(6, 12, 0)

/* --- tasks --- */

#define PF_EXITING	0x00000004
#define PF_IO_WORKER	0x00000010
#define PF_KTHREAD	0x00200000
#define PF_USER_WORKER	0x00004000
#define TASK_RUNNING	0x0000
#define TASK_TRACED	0x0008
#define TASK_DEAD	0x0080
#define TWA_RESUME	1
#define PIDTYPE_PID	0

struct callback_head {
	struct callback_head *next;
	void (*func)(struct callback_head *head);
};

#define init_task_work(cb, fn)	((cb)->func = (fn))
int task_work_add(struct task_struct *task, struct callback_head *work,
		  int notify);

struct preempt_notifier;
struct preempt_ops {
	void (*sched_in)(struct preempt_notifier *pn, int cpu);
	void (*sched_out)(struct preempt_notifier *pn, struct task_struct *next);
};

struct preempt_notifier {
	struct hlist_node link;
	struct preempt_ops *ops;
};

static inline void preempt_notifier_init(struct preempt_notifier *pn,
					 struct preempt_ops *ops)
{
	pn->link.next = NULL;
	pn->link.pprev = NULL;
	pn->ops = ops;
}

void preempt_notifier_register(struct preempt_notifier *pn);
void preempt_notifier_unregister(struct preempt_notifier *pn);
void preempt_notifier_inc(void);
void preempt_notifier_dec(void);

struct pid { int nr; };

/* What a signal the driver sent looked like. */
struct fk_sig {
	int signo;
	int code;
	int word0;		/* si_pmc_ovf_mask */
};

#define FK_MAX_SIGS	8

struct task_struct {
	/* What the driver reads. */
	unsigned int flags;
	unsigned int __state;
	u64 self_exec_id;
	unsigned int in_execve;
	unsigned long thread_flags;	/* TIF_* */
	struct cred cred;
	struct mm_struct *mm, *active_mm;
	const struct cpumask *cpus_ptr;
	struct { u64 nr_migrations; } se;
	/* The harness's. */
	struct pid pid;
	int tgid;
	const char *comm;
	int usage;
	int cpu;			/* where it runs, or last ran */
	bool on_cpu;
	bool kthread;
	struct task_struct *tracer;	/* ptrace parent, or NULL */
	bool reaped;			/* gone for get_pid_task() */
	struct cpumask cpus_mask;
	struct mm_struct mm_store;
	struct callback_head *task_works;
	bool works_exited;		/* exit ran its task_work */
	struct hlist_head notifiers;
	int nsigs;
	struct fk_sig sigs[FK_MAX_SIGS];
};

extern struct task_struct *current;
void get_task_struct(struct task_struct *t);
void put_task_struct(struct task_struct *t);
struct task_struct *get_pid_task(struct pid *pid, int type);
#define task_lock(t)	do { } while (0)
#define task_unlock(t)	do { } while (0)
/* x86's flag for prctl(PR_SET_TSC, PR_TSC_SIGSEGV); its number is ours. */
#define TIF_NOTSC	16

static inline bool test_tsk_thread_flag(struct task_struct *t, int flag)
{
	return t->thread_flags & BIT(flag);
}

static inline bool same_thread_group(struct task_struct *a,
				     struct task_struct *b)
{
	return a->tgid == b->tgid;
}

static inline struct task_struct *ptrace_parent(struct task_struct *t)
{
	return t->tracer;
}

static inline bool task_is_traced(struct task_struct *t)
{
	return t->__state == TASK_TRACED;
}

bool fatal_signal_pending(struct task_struct *t);
long schedule_timeout_killable(long timeout);

/* --- signals --- */

struct kernel_siginfo {
	int si_signo, si_errno, si_code;
	union {
		int _pad[28];
		struct { int _pid; unsigned int _uid; } _kill;
	} _sifields;
};

static inline void clear_siginfo(struct kernel_siginfo *info)
{
	memset(info, 0, sizeof(*info));
}

#define _NSIG		64
static inline bool valid_signal(unsigned long sig) { return sig <= _NSIG; }
int send_sig_info(int sig, struct kernel_siginfo *info, struct task_struct *t);

/* --- exec --- */

struct linux_binprm { unsigned int secureexec:1; };

/* --- files --- */

struct inode { void *i_private; };
struct file { void *private_data; };
struct seq_file { char *buf; size_t size, count; };
struct module { int refs; };
extern struct module fk_module;
void __module_get(struct module *m);
void module_put(struct module *m);

struct file_operations {
	struct module *owner;
	int (*open)(struct inode *inode, struct file *f);
	int (*release)(struct inode *inode, struct file *f);
	ssize_t (*read)(struct file *f, char __user *buf, size_t count,
			loff_t *ppos);
	ssize_t (*write)(struct file *f, const char __user *buf, size_t count,
			 loff_t *ppos);
	int (*mmap)(struct file *f, struct vm_area_struct *vma);
	loff_t (*llseek)(struct file *f, loff_t off, int whence);
};

loff_t default_llseek(struct file *f, loff_t off, int whence);
ssize_t simple_read_from_buffer(void __user *to, size_t count, loff_t *ppos,
				const void *from, size_t available);
static inline struct user_namespace *seq_user_ns(struct seq_file *m)
{
	return NULL;
}

__printf(2, 3)
void seq_printf(struct seq_file *m, const char *fmt, ...);
void seq_puts(struct seq_file *m, const char *s);
void simple_inode_init_ts(struct inode *inode);

/* User copies: memcpy, or -EFAULT when the harness injects a fault. */
unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n);
unsigned long copy_to_user(void __user *to, const void *from,
			   unsigned long n);
#define get_user(x, p)	(copy_from_user(&(x), p, sizeof(x)) ? -EFAULT : 0)

/* --- deferred work: run when the test says (run_works()) --- */

struct work_struct {
	void (*func)(struct work_struct *w);
	bool pending;
	struct work_struct *next;
};

#define DECLARE_WORK(n, f)	struct work_struct n = { .func = (f) }
bool schedule_work(struct work_struct *w);
bool flush_work(struct work_struct *w);

struct irq_work {
	void (*func)(struct irq_work *w);
	bool pending;
	struct irq_work *next;
};

#define IRQ_WORK_INIT(f)	{ .func = (f) }
#define init_irq_work(w, f)	(*(w) = (struct irq_work)IRQ_WORK_INIT(f))
bool irq_work_queue(struct irq_work *w);
void irq_work_sync(struct irq_work *w);

/* --- ibs.c: its ring, its user's locked memory, its bits --- */

void *vmalloc_user(unsigned long size);
void vfree(const void *p);
struct vm_area_struct;
int remap_vmalloc_range(struct vm_area_struct *vma, void *addr,
			unsigned long pgoff);
typedef struct { long counter; } atomic_long_t;
#define atomic_long_add_return(n, a) \
	__atomic_add_fetch(&(a)->counter, n, __ATOMIC_SEQ_CST)
#define atomic_long_sub(n, a) \
	__atomic_sub_fetch(&(a)->counter, n, __ATOMIC_SEQ_CST)
struct user_struct { atomic_long_t locked_vm; int refs; };
struct user_struct *get_current_user(void);
void free_uid(struct user_struct *u);
#define RLIMIT_MEMLOCK		8
unsigned long rlimit(unsigned int limit);
#define CAP_IPC_LOCK		14
static inline void clear_bit(int nr, unsigned long *a)
{
	__atomic_and_fetch(a, ~BIT(nr), __ATOMIC_SEQ_CST);
}

static inline bool test_and_set_bit(int nr, unsigned long *a)
{
	return __atomic_fetch_or(a, BIT(nr), __ATOMIC_SEQ_CST) & BIT(nr);
}

/* --- timers --- */

enum hrtimer_restart { HRTIMER_NORESTART, HRTIMER_RESTART };
enum hrtimer_mode { HRTIMER_MODE_REL_PINNED_HARD };
typedef int clockid_t;
#define CLOCK_MONOTONIC			1
struct hrtimer {
	enum hrtimer_restart (*function)(struct hrtimer *t);
	bool active;
};

static inline ktime_t ns_to_ktime(u64 ns) { return ns; }
void hrtimer_init(struct hrtimer *t, clockid_t clock, enum hrtimer_mode mode);
void hrtimer_start(struct hrtimer *t, ktime_t after, int mode);
u64 hrtimer_forward_now(struct hrtimer *t, ktime_t interval);
int hrtimer_cancel(struct hrtimer *t);

/* --- CPU hotplug, tracepoints --- */

#define CPUHP_AP_ONLINE_DYN	1
int cpuhp_setup_state_nocalls(int state, const char *name,
			      int (*up)(unsigned int cpu),
			      int (*down)(unsigned int cpu));
void cpuhp_remove_state_nocalls(int state);

struct tracepoint {
	const char *name;
	void *probe;
	void *data;
};

/* The harness's; by macro, as checkpatch takes for_each_*() for a loop. */
void fk_each_tracepoint(void (*fn)(struct tracepoint *tp, void *priv),
			void *priv);
#define for_each_kernel_tracepoint(fn, priv)	fk_each_tracepoint(fn, priv)
int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data);
int tracepoint_probe_unregister(struct tracepoint *tp, void *probe,
				void *data);
void tracepoint_synchronize_unregister(void);

/* --- watch.c: atomics, an RCU hash, an xarray of counts --- */

typedef struct { int counter; } atomic_t;
#define ATOMIC_INIT(n)		{ (n) }
#define atomic_read(a)		__atomic_load_n(&(a)->counter, __ATOMIC_SEQ_CST)
#define atomic_inc(a)		__atomic_add_fetch(&(a)->counter, 1, __ATOMIC_SEQ_CST)
#define atomic_dec(a)		__atomic_sub_fetch(&(a)->counter, 1, __ATOMIC_SEQ_CST)

struct rcu_head { void *next; };
#define kfree_rcu(p, field)	kfree(p)
#define cond_resched()		might_sleep()

/* A list under the kernel's names: lookups walk it, keys compared. */
struct rhash_head { struct rhash_head *next; };
struct rhashtable { struct rhash_head *first; unsigned int nelems; };
struct rhashtable_params {
	unsigned int key_len, key_offset, head_offset;
	bool automatic_shrinking;
};

static inline void *fk_rht_obj(struct rhash_head *h,
			       const struct rhashtable_params p)
{
	return (char *)h - p.head_offset;
}

static inline int rhashtable_init(struct rhashtable *ht,
				  const struct rhashtable_params *p)
{
	ht->first = NULL;
	ht->nelems = 0;
	return 0;
}

void rhashtable_destroy(struct rhashtable *ht);

static inline void *rhashtable_lookup(struct rhashtable *ht, const void *key,
				      const struct rhashtable_params p)
{
	struct rhash_head *h;

	for (h = ht->first; h; h = h->next)
		if (!memcmp((char *)fk_rht_obj(h, p) + p.key_offset, key,
			    p.key_len))
			return fk_rht_obj(h, p);
	return NULL;
}

static inline void *
rhashtable_lookup_get_insert_fast(struct rhashtable *ht, struct rhash_head *n,
				  const struct rhashtable_params p)
{
	void *old = rhashtable_lookup(ht, (char *)fk_rht_obj(n, p) +
				      p.key_offset, p);

	if (old)
		return old;
	n->next = ht->first;
	ht->first = n;
	ht->nelems++;
	return NULL;
}

static inline int rhashtable_remove_fast(struct rhashtable *ht,
					 struct rhash_head *n,
					 const struct rhashtable_params p)
{
	struct rhash_head **pp;

	for (pp = &ht->first; *pp; pp = &(*pp)->next)
		if (*pp == n) {
			*pp = n->next;
			ht->nelems--;
			return 0;
		}
	return -ENOENT;
}

/* An xarray of small values: a list of (index, entry) pairs. */
struct fk_xa_item;
struct xarray { struct fk_xa_item *items; };
#define DEFINE_XARRAY(name)	struct xarray name = { NULL }
#define xa_mk_value(v)		((void *)(((unsigned long)(v) << 1) | 1))
#define xa_to_value(e)		((unsigned long)(e) >> 1)
#define xa_err(e)		((void)(e), 0)
void *xa_load(struct xarray *xa, unsigned long index);
void *xa_store(struct xarray *xa, unsigned long index, void *entry,
	       gfp_t gfp);
void *xa_erase(struct xarray *xa, unsigned long index);
void xa_destroy(struct xarray *xa);

/* --- policy.c: parameters, capabilities, namespaces --- */

struct kernel_param;
struct kernel_param_ops {
	int (*set)(const char *val, const struct kernel_param *kp);
	int (*get)(char *buf, const struct kernel_param *kp);
};

int param_get_int(char *buf, const struct kernel_param *kp);
#define module_param_cb(name, ops, arg, perm) \
	static const void *fk_param_##name __maybe_unused = (ops)
#define module_param(name, type, perm) \
	static const void *fk_param_##name __maybe_unused = &(name)
#define MODULE_PARM_DESC(name, text)
int kstrtoint(const char *s, unsigned int base, int *res);

#define CAP_SYS_PTRACE		19
#define CAP_SYS_ADMIN		21
#define CAP_SYS_RESOURCE	24
#define CAP_PERFMON		38
bool capable(int cap);
bool has_capability_noaudit(struct task_struct *t, int cap);
bool ns_capable_noaudit(struct user_namespace *ns, int cap);
#define current_uid()		(current_cred()->uid)
#define __kuid_val(u)		((u).val)

#endif /* _VP_SHIM_KERNEL_H */
