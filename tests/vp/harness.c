// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fake kernel behind shim/kernel.h, and the harness driving the
 * driver through it. Every check here stands for a rule the real kernel
 * enforces (or would break on): it fails the test at once, with where.
 */
#include <limits.h>
#include <stdarg.h>
#include <check.h>

#include "harness.h"

struct fk_stats fk;
const char *fk_hw_holder;
struct module fk_module;
struct task_struct *current;
int fk_cpu;

#define FK_MAX_TASKS	32
static struct task_struct *tasks[FK_MAX_TASKS];
static int ntasks;
static struct task_struct *rq[FK_NR_CPUS];	/* who runs where */
static struct task_struct *idle[FK_NR_CPUS];
static struct task_struct *kworker;
static int preempt_cnt[FK_NR_CPUS];
static int irqs_off[FK_NR_CPUS];
static int locks_held[FK_NR_CPUS];	/* raw spinlocks */
static int rcu_depth[FK_NR_CPUS];
static bool fault_next;
static int waits;

/* The CPU the fake works run on: no test task lives there. */
#define WORK_CPU	(FK_NR_CPUS - 1)

void fk_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fprintf(stderr, "fake kernel: %s:%d: %s\n", file, line, msg);
	ck_abort_msg("fake kernel: %s:%d: %s", file, line, msg);
}

void fk_warn(const char *file, int line, const char *cond)
{
	fk.warnings++;
	fprintf(stderr, "fake kernel: WARNING at %s:%d: %s\n", file, line,
		cond);
}

int scnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!size)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n < (int)size ? n : (int)size - 1;
}

/* --- context: which task runs the code, on which CPU --- */

struct fk_ctx {
	struct task_struct *cur;
	int cpu;
};

static struct fk_ctx ctx_save(void)
{
	return (struct fk_ctx){ current, fk_cpu };
}

static void ctx_restore(struct fk_ctx c)
{
	current = c.cur;
	fk_cpu = c.cpu;
}

static bool atomic_here(void)
{
	return preempt_cnt[fk_cpu] || irqs_off[fk_cpu] ||
	       locks_held[fk_cpu] || rcu_depth[fk_cpu];
}

bool preempt_count_here(void)
{
	return preempt_cnt[fk_cpu] || irqs_off[fk_cpu];
}

bool irqs_off_here(void)
{
	return irqs_off[fk_cpu];
}

void might_sleep(void)
{
	if (atomic_here())
		FK_FAIL("sleeping while atomic (preempt %d irqs_off %d raw locks %d rcu %d): %s",
			preempt_cnt[fk_cpu], irqs_off[fk_cpu],
			locks_held[fk_cpu], rcu_depth[fk_cpu], current->comm);
}

void preempt_disable(void)
{
	preempt_cnt[fk_cpu]++;
}

void preempt_enable(void)
{
	if (--preempt_cnt[fk_cpu] < 0)
		FK_FAIL("%s() unbalanced", __func__);
}

unsigned long fk_irq_save(void)
{
	return irqs_off[fk_cpu]++;
}

void fk_irq_restore(unsigned long flags)
{
	if (--irqs_off[fk_cpu] != (int)flags)
		FK_FAIL("irqrestore does not match its irqsave");
}

void fk_irq_off(void)
{
	if (irqs_off[fk_cpu]++)
		FK_FAIL("raw_spin_lock_irq() with interrupts off");
}

void fk_irq_on(void)
{
	if (--irqs_off[fk_cpu])
		FK_FAIL("raw_spin_unlock_irq() leaves interrupts off");
}

void rcu_read_lock(void)
{
	rcu_depth[fk_cpu]++;
}

void rcu_read_unlock(void)
{
	if (--rcu_depth[fk_cpu] < 0)
		FK_FAIL("%s() unbalanced", __func__);
}

void synchronize_rcu(void)
{
	might_sleep();
}

void cpu_relax(void)
{
}

bool perfmon_capable(void)
{
	return current->cred.cap_permitted.val != 0;
}

/* Any capability: the fake tasks have all of them or none. */
bool capable(int cap)
{
	return current->cred.cap_permitted.val != 0;
}

bool has_capability_noaudit(struct task_struct *t, int cap)
{
	return t->cred.cap_permitted.val != 0;
}

bool ns_capable_noaudit(struct user_namespace *ns, int cap)
{
	return capable(cap);
}

int kstrtoint(const char *str, unsigned int base, int *res)
{
	char *end;
	long v = strtol(str, &end, base);

	if (end == str)
		return -EINVAL;
	*res = v;
	return 0;
}

int param_get_int(char *buf, const struct kernel_param *kp)
{
	return -EINVAL;
}

/* --- mm references: an underflow fails; each test ends with none --- */

void mmgrab(struct mm_struct *mm)
{
	mm->count++;
}

void mmdrop(struct mm_struct *mm)
{
	if (--mm->count < 0)
		FK_FAIL("%s() of an mm not grabbed", __func__);
}

/* --- watch.c's tables: leftovers at module exit fail the test --- */

void rhashtable_destroy(struct rhashtable *ht)
{
	if (ht->first)
		FK_FAIL("%s() of %u entries", __func__, ht->nelems);
}

struct fk_xa_item {
	struct fk_xa_item *next;
	unsigned long index;
	void *entry;
};

static struct fk_xa_item **fk_xa_find(struct xarray *xa, unsigned long i)
{
	struct fk_xa_item **pp;

	for (pp = &xa->items; *pp; pp = &(*pp)->next)
		if ((*pp)->index == i)
			break;
	return pp;
}

void *xa_load(struct xarray *xa, unsigned long index)
{
	struct fk_xa_item *it = *fk_xa_find(xa, index);

	return it ? it->entry : NULL;
}

void *xa_store(struct xarray *xa, unsigned long index, void *entry, gfp_t gfp)
{
	struct fk_xa_item **pp = fk_xa_find(xa, index), *it = *pp;
	void *old = it ? it->entry : NULL;

	might_sleep();
	if (!it) {
		it = calloc(1, sizeof(*it));
		it->index = index;
		*pp = it;
	}
	it->entry = entry;
	return old;
}

void *xa_erase(struct xarray *xa, unsigned long index)
{
	struct fk_xa_item **pp = fk_xa_find(xa, index), *it = *pp;
	void *old = it ? it->entry : NULL;

	if (it) {
		*pp = it->next;
		free(it);
	}
	return old;
}

void xa_destroy(struct xarray *xa)
{
	if (xa->items)
		FK_FAIL("%s() with counts left: a watch not uncharged",
			__func__);
	while (xa->items)
		xa_erase(xa, xa->items->index);
}

/* --- interleavings --- */

struct fk_hook {
	void *lock;
	void (*fn)(void *arg);
	void *arg;
};

static struct fk_hook hooks[4];

void on_next_lock(void *lock, void (*fn)(void *arg), void *arg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (!hooks[i].lock) {
			hooks[i] = (struct fk_hook){ lock, fn, arg };
			return;
		}
	}
	FK_FAIL("too many %s() hooks", __func__);
}

/* Another CPU's turn: its own context, the caller's restored after. */
static void run_hook(void *lock)
{
	struct fk_ctx c = ctx_save();
	struct fk_hook h;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(hooks); i++) {
		if (hooks[i].lock != lock)
			continue;
		h = hooks[i];
		hooks[i].lock = NULL;	/* one shot, disarmed first */
		h.fn(h.arg);
		ctx_restore(c);
		return;
	}
}

/* --- locks --- */

void raw_spin_lock(raw_spinlock_t *l)
{
	run_hook(l);
	if (l->holder)
		FK_FAIL("raw spinlock %s taken by %s while %s holds it",
			l->name, current->comm, l->holder->comm);
	l->holder = current;
	locks_held[fk_cpu]++;
	preempt_cnt[fk_cpu]++;
}

void raw_spin_unlock(raw_spinlock_t *l)
{
	if (l->holder != current)
		FK_FAIL("raw spinlock %s released by %s, held by %s", l->name,
			current->comm, l->holder ? l->holder->comm : "nobody");
	l->holder = NULL;
	locks_held[fk_cpu]--;
	preempt_cnt[fk_cpu]--;
}

void mutex_lock(struct mutex *m)
{
	run_hook(m);
	might_sleep();
	if (m->holder)
		FK_FAIL("mutex %s taken by %s while %s holds it", m->name,
			current->comm, m->holder->comm);
	m->holder = current;
}

void mutex_unlock(struct mutex *m)
{
	if (m->holder != current)
		FK_FAIL("mutex %s released by %s, not its holder", m->name,
			current->comm);
	m->holder = NULL;
}

bool fk_held(struct task_struct *const *holder)
{
	return *holder == current;
}

void fk_assert_held(struct task_struct *const *holder, const char *what,
		    const char *file, int line)
{
	if (*holder != current)
		fk_fail(file, line, "lockdep_assert_held(%s): not held by %s",
			what, current->comm);
}

/* --- refcounts --- */

void refcount_set(refcount_t *r, int n)
{
	r->refs = n;
}

void refcount_inc(refcount_t *r)
{
	if (r->refs <= 0)
		FK_FAIL("refcount_t: increment on %d (use after free)", r->refs);
	if (r->refs >= INT_MAX / 2)
		FK_FAIL("refcount_t: saturated");
	r->refs++;
}

void refcount_dec(refcount_t *r)
{
	if (r->refs <= 1)
		FK_FAIL("refcount_t: decrement hit 0 (leak) or underflow: %d",
			r->refs);
	r->refs--;
}

bool refcount_inc_not_zero(refcount_t *r)
{
	if (!r->refs)
		return false;
	refcount_inc(r);
	return true;
}

bool refcount_dec_and_test(refcount_t *r)
{
	if (r->refs <= 0)
		FK_FAIL("refcount_t: underflow (use after free)");
	return --r->refs == 0;
}

/* --- memory --- */

void *kzalloc(size_t size, gfp_t gfp)
{
	void *p;

	if (gfp != GFP_ATOMIC)
		might_sleep();
	p = calloc(1, size);
	if (p)
		fk.allocs++;
	return p;
}

void kfree(const void *p)
{
	if (!p)
		return;
	fk.allocs--;
	free((void *)p);
}

void *kvmalloc_array(size_t n, size_t size, gfp_t gfp)
{
	if (size && n > SIZE_MAX / size)
		return NULL;
	return kzalloc(n * size, gfp);
}

void kvfree(const void *p)
{
	kfree(p);
}

unsigned long get_zeroed_page(gfp_t gfp)
{
	void *p;

	might_sleep();
	p = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	if (!p)
		return 0;
	memset(p, 0, PAGE_SIZE);
	fk.pages++;
	return (unsigned long)p;
}

void free_page(unsigned long addr)
{
	if (!addr)
		return;
	fk.pages--;
	free((void *)addr);
}

void *vmalloc_user(unsigned long size)
{
	void *p;

	might_sleep();
	p = calloc(1, size);
	if (p)
		fk.vmallocs++;
	return p;
}

void vfree(const void *p)
{
	if (!p)
		return;
	fk.vmallocs--;
	free((void *)p);
}

int remap_vmalloc_range(struct vm_area_struct *vma, void *addr,
			unsigned long pgoff)
{
	return 0;
}

/* Everyone's user_struct: its locked memory, its references. */
static struct user_struct fk_user;

struct user_struct *get_current_user(void)
{
	fk.user_refs++;
	return &fk_user;
}

void free_uid(struct user_struct *u)
{
	if (u != &fk_user || fk.user_refs <= 0)
		FK_FAIL("%s() of %p, %d references", __func__, u, fk.user_refs);
	fk.user_refs--;
}

unsigned long rlimit(unsigned int limit)
{
	return 1UL << 30;
}

int vm_insert_page(struct vm_area_struct *vma, unsigned long addr,
		   struct page *page)
{
	return 0;
}

/* --- tasks --- */

void get_task_struct(struct task_struct *t)
{
	if (t->usage <= 0)
		FK_FAIL("%s() of a freed task", __func__);
	t->usage++;
}

void put_task_struct(struct task_struct *t)
{
	if (--t->usage < 0)
		FK_FAIL("%s(): %s underflows", __func__, t->comm);
	if (!t->usage)
		free(t);
}

struct task_struct *get_pid_task(struct pid *pid, int type)
{
	struct task_struct *t = container_of(pid, struct task_struct, pid);

	if (t->reaped)
		return NULL;
	get_task_struct(t);
	return t;
}

bool fatal_signal_pending(struct task_struct *t)
{
	return false;
}

/* Nobody else runs while a test waits: a wait that lasts is a hang. */
long schedule_timeout_killable(long timeout)
{
	might_sleep();
	if (++waits > 1000)
		FK_FAIL("%s waits for ever", current->comm);
	return 0;
}

static struct task_struct *new_task(const char *comm, int cpu, bool kthread)
{
	struct task_struct *t = calloc(1, sizeof(*t));

	if (!t || ntasks == FK_MAX_TASKS)
		FK_FAIL("no room for task %s", comm);
	t->comm = comm;
	t->cpu = cpu;
	t->usage = 1;			/* the harness's: its pid's */
	t->pid.nr = 100 + ntasks;
	t->tgid = t->pid.nr;
	t->kthread = kthread;
	t->flags = kthread ? PF_KTHREAD : 0;
	t->cpus_mask.bits = BIT(cpu);
	t->cpus_ptr = &t->cpus_mask;
	if (!kthread) {
		t->mm_store.dumpable = SUID_DUMP_USER;
		t->mm = &t->mm_store;
		t->active_mm = t->mm;
	}
	tasks[ntasks++] = t;
	return t;
}

static void set_uid(struct task_struct *t, unsigned int uid)
{
	t->cred.uid.val = uid;
	t->cred.euid.val = uid;
	t->cred.suid.val = uid;
	t->cred.fsuid.val = uid;
	t->cred.gid.val = uid;
	t->cred.egid.val = uid;
	t->cred.sgid.val = uid;
	t->cred.fsgid.val = uid;
}

struct task_struct *fk_task(const char *comm, int cpu)
{
	struct task_struct *t = new_task(comm, cpu, false);

	set_uid(t, 1000);
	return t;
}

struct task_struct *fk_thread(struct task_struct *leader, int cpu)
{
	struct task_struct *t = new_task(leader->comm, cpu, false);

	t->cred = leader->cred;
	t->tgid = leader->tgid;
	return t;
}

/* --- preempt notifiers: per task, changed only by the task itself --- */

static bool on_list(struct hlist_head *h, struct preempt_notifier *pn)
{
	struct preempt_notifier *p;

	hlist_for_each_entry(p, h, link)
		if (p == pn)
			return true;
	return false;
}

void preempt_notifier_register(struct preempt_notifier *pn)
{
	int i;

	if (current->kthread)
		FK_FAIL("preempt notifier registered by a kernel thread (%s)",
			current->comm);
	for (i = 0; i < ntasks; i++)
		if (tasks[i]->usage && on_list(&tasks[i]->notifiers, pn))
			FK_FAIL("preempt notifier registered twice (on %s)",
				tasks[i]->comm);
	hlist_add_head(&pn->link, &current->notifiers);
	fk.registered++;
}

void preempt_notifier_unregister(struct preempt_notifier *pn)
{
	if (!on_list(&current->notifiers, pn))
		FK_FAIL("preempt notifier unregistered by %s, not registered there",
			current->comm);
	hlist_del(&pn->link);
	fk.unregistered++;
}

void preempt_notifier_inc(void)
{
}

void preempt_notifier_dec(void)
{
}

/* --- the scheduler --- */

static void switch_out(struct task_struct *t)
{
	struct preempt_notifier *pn;
	unsigned long flags;

	current = t;
	fk_cpu = t->cpu;
	if (atomic_here())
		FK_FAIL("%s scheduled out while atomic", t->comm);
	flags = fk_irq_save();		/* the runqueue lock */
	preempt_disable();
	hlist_for_each_entry(pn, &t->notifiers, link) {
		fk.sched_out++;
		pn->ops->sched_out(pn, idle[t->cpu]);
	}
	preempt_enable();
	fk_irq_restore(flags);
	t->on_cpu = false;
	rq[t->cpu] = NULL;
	current = idle[t->cpu];
}

static void switch_in(struct task_struct *t)
{
	struct preempt_notifier *pn;

	if (rq[t->cpu])
		switch_out(rq[t->cpu]);
	current = t;
	fk_cpu = t->cpu;
	rq[t->cpu] = t;
	t->on_cpu = true;
	preempt_disable();		/* finish_task_switch() */
	hlist_for_each_entry(pn, &t->notifiers, link) {
		fk.sched_in++;
		pn->ops->sched_in(pn, t->cpu);
	}
	preempt_enable();
}

void fk_as(struct task_struct *t)
{
	if (t->__state == TASK_DEAD)
		FK_FAIL("acting as %s, which is dead", t->comm);
	if (t->__state == TASK_TRACED)
		FK_FAIL("acting as %s, stopped by its tracer", t->comm);
	if (!t->on_cpu) {
		fk_cpu = t->cpu;
		if (atomic_here())
			FK_FAIL("switching to %s on an atomic CPU", t->comm);
		switch_in(t);
	}
	current = t;
	fk_cpu = t->cpu;
}

void fk_sched_out(struct task_struct *t)
{
	if (t->on_cpu)
		switch_out(t);
}

void fk_ptrace_stop(struct task_struct *t, struct task_struct *tracer)
{
	t->tracer = tracer;
	fk_sched_out(t);
	t->__state = TASK_TRACED;
}

void fk_ptrace_cont(struct task_struct *t)
{
	t->__state = TASK_RUNNING;
	fk_as(t);
}

/* --- task_work: LIFO, as task_work_add() pushes and the run pops --- */

static void (*twork_hook)(void *arg);
static void *twork_hook_arg;

void on_next_task_work(void (*fn)(void *arg), void *arg)
{
	twork_hook = fn;
	twork_hook_arg = arg;
}

int task_work_add(struct task_struct *task, struct callback_head *work,
		  int notify)
{
	struct task_struct *caller = current;
	void (*fn)(void *arg) = twork_hook;
	struct callback_head *w;

	if (task->works_exited)
		return -ESRCH;
	for (w = task->task_works; w; w = w->next)
		if (w == work)
			FK_FAIL("task_work queued twice on %s", task->comm);
	work->next = task->task_works;
	task->task_works = work;
	if (fn) {			/* another CPU, then back to the caller */
		twork_hook = NULL;
		fn(twork_hook_arg);
		fk_as(caller);
	}
	return 0;
}

static void run_task_work(struct task_struct *t)
{
	struct callback_head *w, *next;

	for (;;) {
		w = t->task_works;
		t->task_works = NULL;
		if (!w) {
			if (t->flags & PF_EXITING)
				t->works_exited = true;
			return;
		}
		for (; w; w = next) {
			next = w->next;
			w->func(w);
			fk_as(t);	/* a callback may not switch away */
			if (atomic_here())
				FK_FAIL("task_work callback left %s atomic",
					t->comm);
		}
	}
}

void fk_return_to_user(struct task_struct *t)
{
	fk_as(t);
	if (atomic_here())
		FK_FAIL("%s returns to user mode atomic", t->comm);
	run_task_work(t);
}

/* --- tracepoints --- */

static struct tracepoint tp_exec = { .name = "sched_process_exec" };
static struct tracepoint tp_fork = { .name = "sched_process_fork" };
static struct tracepoint tp_exit = { .name = "sched_process_exit" };
static struct tracepoint tp_other = { .name = "sched_switch" };

void fk_each_tracepoint(void (*fn)(struct tracepoint *tp, void *priv),
			void *priv)
{
	fn(&tp_other, priv);
	fn(&tp_exec, priv);
	fn(&tp_fork, priv);
	fn(&tp_exit, priv);
}

int tracepoint_probe_register(struct tracepoint *tp, void *probe, void *data)
{
	if (tp->probe)
		FK_FAIL("second probe on %s", tp->name);
	tp->probe = probe;
	tp->data = data;
	return 0;
}

int tracepoint_probe_unregister(struct tracepoint *tp, void *probe, void *data)
{
	if (tp->probe != probe)
		FK_FAIL("unregistering a probe %s does not have", tp->name);
	tp->probe = NULL;
	return 0;
}

void tracepoint_synchronize_unregister(void)
{
	might_sleep();
}

/* Probes run with preemption off, as tracepoints call them. */
#define CALL_PROBE(tp, type, ...) do {					\
	struct tracepoint *__tp = &(tp);				\
									\
	if (__tp->probe) {						\
		preempt_disable();					\
		((type)__tp->probe)(__tp->data, __VA_ARGS__);		\
		preempt_enable();					\
	}								\
} while (0)

typedef void (*exec_probe_t)(void *, struct task_struct *, pid_t,
			     struct linux_binprm *);
typedef void (*fork_probe_t)(void *, struct task_struct *,
			     struct task_struct *);
typedef void (*exit_probe_t)(void *, struct task_struct *);

/* --- exec, fork, exit --- */

int fk_exec(struct task_struct *t, const struct fk_exec *o)
{
	struct linux_binprm bprm = { .secureexec = o->secure };

	fk_as(t);
	t->in_execve = 1;
	if (o->fail) {
		t->in_execve = 0;
		return -ENOEXEC;
	}
	/* begin_new_exec(): the new mm, the new exec id, the new creds. */
	if (o->mm) {
		t->mm = o->mm;
		t->active_mm = o->mm;
	} else {
		t->mm_store.dumpable = o->nodump ? SUID_DUMP_DISABLE :
						   SUID_DUMP_USER;
	}
	WRITE_ONCE(t->self_exec_id, t->self_exec_id + 1);
	if (o->new_euid)
		t->cred.euid.val = o->new_euid;
	CALL_PROBE(tp_exec, exec_probe_t, t, t->pid.nr, &bprm);
	if (o->at_stop) {		/* PTRACE_EVENT_EXEC */
		o->at_stop(o->arg);
		fk_as(t);
	}
	t->in_execve = 0;
	return 0;
}

void fk_fork(struct task_struct *parent, struct task_struct *child)
{
	fk_as(parent);
	CALL_PROBE(tp_fork, fork_probe_t, parent, child);
}

void fk_exit_begin(struct task_struct *t)
{
	fk_as(t);
	t->flags |= PF_EXITING;		/* exit_signals() */
	t->mm = NULL;			/* exit_mm(); active_mm stays */
}

void fk_exit_probe(struct task_struct *t)
{
	fk_as(t);
	CALL_PROBE(tp_exit, exit_probe_t, t);
}

void fk_exit_work(struct task_struct *t)
{
	fk_as(t);
	run_task_work(t);
	if (!t->works_exited)
		FK_FAIL("%s's exit task_work did not finish", t->comm);
}

void fk_exit_dead(struct task_struct *t)
{
	fk_as(t);
	t->__state = TASK_DEAD;
	switch_out(t);
}

void fk_exit(struct task_struct *t)
{
	if (!(t->flags & PF_EXITING))
		fk_exit_begin(t);
	fk_exit_probe(t);
	fk_exit_work(t);
	fk_exit_dead(t);
}

void fk_reap(struct task_struct *t)
{
	t->reaped = true;
}

/* --- deferred work --- */

static struct work_struct *works;
static struct irq_work *irq_works;

bool schedule_work(struct work_struct *w)
{
	if (w->pending)
		return false;
	w->pending = true;
	w->next = works;
	works = w;
	return true;
}

bool irq_work_queue(struct irq_work *w)
{
	if (w->pending)
		return false;
	w->pending = true;
	w->next = irq_works;
	irq_works = w;
	return true;
}

static bool run_one_irq_work(void)
{
	struct irq_work *w = irq_works;
	unsigned long flags;

	if (!w)
		return false;
	irq_works = w->next;
	w->pending = false;
	flags = fk_irq_save();
	w->func(w);
	fk_irq_restore(flags);
	return true;
}

static bool run_one_work(void)
{
	struct work_struct *w = works;

	if (!w)
		return false;
	works = w->next;
	w->pending = false;
	w->func(w);
	if (atomic_here())
		FK_FAIL("a work left its kworker atomic");
	return true;
}

/* As a kworker on the CPU no test task uses. */
void run_works(void)
{
	struct fk_ctx c = ctx_save();

	current = kworker;
	fk_cpu = WORK_CPU;
	while (run_one_irq_work() || run_one_work())
		;
	ctx_restore(c);
}

void irq_work_sync(struct irq_work *w)
{
	might_sleep();
	if (w->pending)
		run_works();
}

bool flush_work(struct work_struct *w)
{
	might_sleep();
	if (!w->pending)
		return false;
	run_works();
	return true;
}

void on_each_cpu(void (*fn)(void *), void *info, int wait)
{
	struct fk_ctx c = ctx_save();
	unsigned long flags;
	int cpu;

	for (cpu = 0; cpu < FK_NR_CPUS; cpu++) {
		fk_cpu = cpu;
		current = rq[cpu] ? rq[cpu] : idle[cpu];
		flags = fk_irq_save();
		fn(info);
		fk_irq_restore(flags);
	}
	ctx_restore(c);
}

/* --- timers, hotplug: enough for init and exit --- */

void hrtimer_init(struct hrtimer *t, clockid_t clock, enum hrtimer_mode mode)
{
	t->active = false;
}

void hrtimer_start(struct hrtimer *t, ktime_t after, int mode)
{
	t->active = true;
}

u64 hrtimer_forward_now(struct hrtimer *t, ktime_t interval)
{
	return 1;
}

int hrtimer_cancel(struct hrtimer *t)
{
	bool was = t->active;

	t->active = false;
	return was;
}

int cpuhp_setup_state_nocalls(int state, const char *name,
			      int (*up)(unsigned int),
			      int (*down)(unsigned int))
{
	return 42;
}

void cpuhp_remove_state_nocalls(int state)
{
}

/* --- modules, signals, files --- */

void __module_get(struct module *m)
{
	m->refs++;
}

void module_put(struct module *m)
{
	if (--m->refs < 0)
		FK_FAIL("%s() below zero", __func__);
}

/* The siglock sleeps on PREEMPT_RT: never under a raw lock or irqs off. */
int send_sig_info(int sig, struct kernel_siginfo *info, struct task_struct *t)
{
	struct fk_sig *s;

	if (locks_held[fk_cpu] || irqs_off[fk_cpu])
		FK_FAIL("%s() under a raw spinlock or irqs off", __func__);
	if (t->nsigs == FK_MAX_SIGS)
		FK_FAIL("too many signals to %s", t->comm);
	s = &t->sigs[t->nsigs++];
	s->signo = sig;
	s->code = info->si_code;
	s->word0 = info->_sifields._pad[0];
	return 0;
}

loff_t default_llseek(struct file *f, loff_t off, int whence)
{
	return off;
}

ssize_t simple_read_from_buffer(void __user *to, size_t count, loff_t *ppos,
				const void *from, size_t available)
{
	size_t n;

	if (*ppos < 0)
		return -EINVAL;
	if ((size_t)*ppos >= available || !count)
		return 0;
	n = available - *ppos;
	if (n > count)
		n = count;
	if (copy_to_user(to, (const char *)from + *ppos, n))
		return -EFAULT;
	*ppos += n;
	return n;
}

void seq_printf(struct seq_file *m, const char *fmt, ...)
{
}

void seq_puts(struct seq_file *m, const char *s)
{
}

void simple_inode_init_ts(struct inode *inode)
{
}

void fk_fault_next(void)
{
	fault_next = true;
}

static unsigned long user_copy(void *to, const void *from, unsigned long n)
{
	might_sleep();			/* a fault may sleep */
	if (fault_next) {
		fault_next = false;
		return n;
	}
	memcpy(to, from, n);
	return 0;
}

unsigned long copy_from_user(void *to, const void __user *from,
			     unsigned long n)
{
	return user_copy(to, from, n);
}

unsigned long copy_to_user(void __user *to, const void *from, unsigned long n)
{
	return user_copy(to, from, n);
}

int fk_open(struct fk_file *f, const struct file_operations *fops,
	    struct task_struct *task)
{
	memset(f, 0, sizeof(*f));
	f->fops = fops;
	f->inode.i_private = &task->pid;
	return fops->open(&f->inode, &f->file);
}

ssize_t fk_read(struct fk_file *f, void *buf, size_t n)
{
	loff_t pos = 0;

	return f->fops->read(&f->file, buf, n, &pos);
}

ssize_t fk_write(struct fk_file *f, const void *buf, size_t n)
{
	loff_t pos = 0;

	return f->fops->write(&f->file, buf, n, &pos);
}

void fk_close(struct fk_file *f)
{
	f->fops->release(&f->inode, &f->file);
}

static int write_once(const struct file_operations *fops,
		      struct task_struct *task, const void *buf, size_t n)
{
	struct fk_file f;
	ssize_t r;
	int err = fk_open(&f, fops, task);

	if (err)
		return err;
	r = fk_write(&f, buf, n);
	fk_close(&f);
	return r < 0 ? (int)r : 0;
}

static int read_once(const struct file_operations *fops,
		     struct task_struct *task, void *buf, size_t n)
{
	struct fk_file f;
	ssize_t r;
	int err = fk_open(&f, fops, task);

	if (err)
		return err;
	r = fk_read(&f, buf, n);
	fk_close(&f);
	return r < 0 ? (int)r : (int)r;
}

int fk_control(struct task_struct *task, const struct vperfctr_control *c)
{
	return write_once(&vperfctr_control_fops, task, c, sizeof(*c));
}

int fk_command(struct task_struct *task, u32 cmd)
{
	return write_once(&vperfctr_command_fops, task, &cmd, sizeof(cmd));
}

const char *fk_status(struct task_struct *task)
{
	static char line[80];
	int n = read_once(&vperfctr_status_fops, task, line, sizeof(line) - 1);

	if (n < 0)
		snprintf(line, sizeof(line), "error %d", n);
	else
		line[n] = 0;
	return line;
}

int fk_sums(struct task_struct *task, struct perfctr_sum_ctrs *s)
{
	int n = read_once(&vperfctr_sums_fops, task, s, sizeof(*s));

	return n < 0 ? n : 0;
}

int fk_children(struct task_struct *task, struct vperfctr_children *ch)
{
	int n = read_once(&vperfctr_children_fops, task, ch, sizeof(*ch));

	return n < 0 ? n : 0;
}

struct vperfctr_control fk_ctl(unsigned int nra, unsigned int nri)
{
	struct vperfctr_control c = {};
	unsigned int i;

	c.cpu_control.tsc_on = 1;
	c.cpu_control.nractrs = nra;
	c.cpu_control.nrictrs = nri;
	for (i = 0; i < nra + nri; i++) {
		c.cpu_control.pmc_map[i] = i;
		c.cpu_control.evntsel[i] = 0x4300c0;
	}
	for (i = nra; i < nra + nri; i++)
		c.cpu_control.ireset[i] = -1000000;
	if (nri)
		c.si_signo = 29;	/* SIGIO */
	return c;
}

/* Static: the driver copies it; tests keep none of it. */
struct perfctr_cpu_state *fk_tagged_state(void)
{
	static struct perfctr_cpu_state st;

	memset(&st, 0, sizeof(st));
	st.control.tsc_on = 1;
	st.control.nractrs = 1;
	st.control.pmc_map[0] = 0;
	if (perfctr_cpu_update_control(&st, false))
		FK_FAIL("the tagged state is invalid");
	return &st;
}

/* --- the fixture --- */

void fk_setup(void)
{
	int cpu;

	for (cpu = 0; cpu < FK_NR_CPUS; cpu++)
		idle[cpu] = new_task("idle", cpu, true);
	kworker = new_task("kworker", WORK_CPU, true);
	current = idle[0];
	fk_cpu = 0;
	if (vperfctr_init())
		FK_FAIL("vperfctr_init() failed");
}

static void exit_all(void)
{
	int i;

	for (i = 0; i < ntasks; i++) {
		struct task_struct *t = tasks[i];

		if (t->kthread || t->__state == TASK_DEAD)
			continue;
		if (t->__state == TASK_TRACED)
			fk_ptrace_cont(t);
		fk_exit(t);
	}
	for (i = 0; i < ntasks; i++)
		fk_reap(tasks[i]);
}

void fk_teardown(void)
{
	int i;

	exit_all();
	run_works();
	current = idle[0];
	fk_cpu = 0;
	ck_assert_int_eq(fk.warnings, fk.expected_warnings);
	ck_assert_msg(fk_module.refs == 0, "module refs %d", fk_module.refs);
	ck_assert_msg(fk.allocs == 0 && fk.pages == 0,
		      "leaked %d objects, %d pages", fk.allocs, fk.pages);
	ck_assert_msg(!fk_hw_holder, "the counters are still held");
	for (i = 0; i < ntasks; i++)
		ck_assert_msg(tasks[i]->usage == 1 &&
			      !tasks[i]->mm_store.count,
			      "%s has %d references, its mm %d",
			      tasks[i]->comm, tasks[i]->usage,
			      tasks[i]->mm_store.count);
	for (i = 0; i < FK_NR_CPUS; i++)
		ck_assert_msg(!preempt_cnt[i] && !irqs_off[i] &&
			      !locks_held[i] && !rcu_depth[i],
			      "CPU %d left atomic", i);
	vperfctr_exit();
	ck_assert_int_eq(fk.warnings, fk.expected_warnings);
	ck_assert_msg(!fk.vmallocs && !fk.user_refs && !fk_user.locked_vm.counter,
		      "IBS: %d rings, %d user references, %ld pages locked",
		      fk.vmallocs, fk.user_refs, fk_user.locked_vm.counter);
}
