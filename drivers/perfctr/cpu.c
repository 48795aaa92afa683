// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: the arch-neutral half of the low-level API (include/perfctr/
 * cpu.h). Every architecture reserves the hardware, follows CPU hotplug
 * and checks the common control rules the same way; that is written once
 * here, and each arch gives the hooks of include/perfctr/cpu_arch.h.
 * Suspend, resume, sample and the user read path stay in arch/: they are
 * where the hardware differs, and they are the hot paths, which call
 * nothing through here. The overflow interrupt comes through here once,
 * on its way up to the high-level driver's handler.
 */
#include <linux/atomic.h>
#include <linux/cpuhotplug.h>
#include <linux/errno.h>
#include <linux/irqflags.h>
#include <linux/jiffies.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/random.h>
#include <linux/siphash.h>
#include <linux/string.h>

#include <perfctr/cpu_arch.h>

/* The reservation: who holds the hardware, and the lock hotplug takes. */
static DEFINE_MUTEX(reserve_lock);
static const char *reserved_by;

/*
 * The kernel's last answer, under reserve_lock: whether it held the
 * counters, and when that was seen (0: never). A refused reservation is
 * an answer too, so info names the kernel to whoever was just refused,
 * even a reader who may not ask.
 */
static bool kernel_held;
static unsigned long kernel_seen;

static void kernel_answered(bool held)
{
	kernel_held = held;
	kernel_seen = jiffies ?: 1;
}

/*
 * The high-level driver's overflow handler. Arch-neutral: the arches'
 * interrupt paths differ only in how they get here.
 */
static perfctr_ihandler_t ihandler;

void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler)
{
	WRITE_ONCE(ihandler, handler);
}

void perfctr_cpu_call_ihandler(unsigned long pc)
{
	perfctr_ihandler_t handler = READ_ONCE(ihandler);

	if (handler)
		handler(pc);
}

/*
 * A control id names a validated control for the per-CPU register caches;
 * 0 means "none". No id may come twice, or a set could run on registers
 * another set loaded (F12 of the security audit). And every state page
 * shows its set's id (S7), so an id must say nothing: a bare counter
 * would tell its reader how many controls all other users validated
 * since the last one. So the id is a 64-bit count, which never wraps,
 * through a keyed permutation of the 64-bit values (id_permute()):
 * distinct counts give distinct ids, and without the key an id says
 * nothing of any other.
 */
static atomic64_t control_count = ATOMIC64_INIT(0);

/* Drawn once per module load: ids under another key could collide. */
static siphash_key_t id_key;
static bool id_key_drawn;

/* Feistel rounds: with siphash as the round function, 4 suffice. */
#define ID_ROUNDS	4

/*
 * A Feistel network over the two halves of @n: each round is invertible
 * whatever the round function gives, so the whole is a bijection.
 */
static u64 id_permute(u64 n)
{
	u32 left = upper_32_bits(n), right = lower_32_bits(n), t;
	unsigned int round;

	for (round = 0; round < ID_ROUNDS; round++) {
		t = left ^ (u32)siphash_2u32(right, round, &id_key);
		left = right;
		right = t;
	}
	return (u64)left << 32 | right;
}

static u64 new_control_id(void)
{
	u64 id;

	/* One count of all 2^64 gives 0: skip it. */
	do
		id = id_permute(atomic64_inc_return(&control_count));
	while (id == 0);
	return id;
}

/* The rules of Documentation/perfctr/low-level-api.rst every arch shares. */
static int check_common(const struct perfctr_cpu_control *c)
{
	unsigned int i, nrctrs;

	if (c->tsc_on > 1)
		return -EINVAL;
	if (c->nractrs > PERFCTR_NR_PMCS || c->nrictrs > PERFCTR_NR_PMCS)
		return -EINVAL;
	nrctrs = c->nractrs + c->nrictrs;
	if (nrctrs > perfctr_info.nrctrs)
		return -EINVAL;
	if (c->nrictrs && !(perfctr_info.features & PERFCTR_FEATURE_PCINT))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(c->_reserved); i++)
		if (c->_reserved[i])
			return -EINVAL;
	/* An i-mode counter must start before its overflow, not past it. */
	for (i = c->nractrs; i < nrctrs; i++)
		if (!perfctr_ireset_wide(c, i) &&
		    perfctr_ictr_overflowed(c->ireset[i]))
			return -EINVAL;
	return 0;
}

int perfctr_cpu_update_control(struct perfctr_cpu_state *state, bool is_global)
{
	const struct perfctr_cpu_control *control = &state->control;
	unsigned int i, nrctrs;
	int err;

	err = check_common(control);
	if (!err)
		err = perfctr_arch_check_control(state, is_global);
	if (err)
		return err;

	nrctrs = control->nractrs + control->nrictrs;
	state->cstatus = perfctr_mk_cstatus(control->tsc_on, control->nractrs,
					    control->nrictrs);
	for (i = 0; i < nrctrs; i++) {
		state->pmc[i].map = control->pmc_map[i];
		if (i >= control->nractrs)
			state->pmc[i].start = control->ireset[i];
	}
	perfctr_arch_commit_control(state);
	state->id = new_control_id();
	state->k1.id = 0;
	state->k1.isuspend_cpu = -1;
	return 0;
}

const char *perfctr_cpu_reserve(const char *service)
{
	const char *holder;

	mutex_lock(&reserve_lock);
	holder = reserved_by;
	if (!holder) {
		if (perfctr_arch_reserve())
			holder = perfctr_kernel_holder;
		kernel_answered(!!holder);
	}
	if (!holder)
		reserved_by = service;
	mutex_unlock(&reserve_lock);
	return holder;
}

void perfctr_cpu_release(const char *service)
{
	mutex_lock(&reserve_lock);
	if (reserved_by == service) {
		perfctr_arch_release();
		reserved_by = NULL;
	}
	mutex_unlock(&reserve_lock);
}

const char *perfctr_cpu_reserved_by(void)
{
	return READ_ONCE(reserved_by);
}

bool perfctr_cpu_kernel_busy(bool may_ask)
{
	bool busy = false;

	mutex_lock(&reserve_lock);
	if (!reserved_by) {
		if (may_ask && (!kernel_seen ||
				time_after(jiffies, kernel_seen + HZ)))
			kernel_answered(perfctr_arch_kernel_busy());
		busy = kernel_held;
	}
	mutex_unlock(&reserve_lock);
	return busy;
}

const char *perfctr_cpu_name(void)
{
	return perfctr_info.name;
}

/*
 * CPUs that come online while the hardware is reserved set themselves
 * up as the others were at reserve time; CPUs going down hand back what
 * they had. Registered before any high-level user's hotplug callbacks, so
 * it runs before them on the way up and after them on the way down.
 */
static int cpu_hp_state;

struct cpumask perfctr_cpus_ready;

/*
 * Count @cpu in (@ready) or out, and run @fn on it, interrupts off, if the
 * hardware is reserved: one critical section with the reservation's, so
 * its calls and this one never both set the CPU up.
 */
static void cpu_ready(unsigned int cpu, bool ready,
		      void (*fn)(unsigned int cpu))
{
	mutex_lock(&reserve_lock);
	if (ready)
		cpumask_set_cpu(cpu, &perfctr_cpus_ready);
	if (reserved_by) {
		local_irq_disable();
		fn(cpu);
		local_irq_enable();
	}
	if (!ready)
		cpumask_clear_cpu(cpu, &perfctr_cpus_ready);
	mutex_unlock(&reserve_lock);
}

int perfctr_cpu_online(unsigned int cpu)
{
	int err = perfctr_arch_check_cpu(cpu);

	if (!err)
		cpu_ready(cpu, true, perfctr_arch_cpu_up);
	return err;
}

int perfctr_cpu_offline(unsigned int cpu)
{
	cpu_ready(cpu, false, perfctr_arch_cpu_down);
	return 0;
}

int perfctr_cpu_init(void)
{
	int ret;

	if (!id_key_drawn) {
		get_random_bytes(&id_key, sizeof(id_key));
		id_key_drawn = true;
	}
	memset(&perfctr_info, 0, sizeof(perfctr_info));
	cpumask_clear(&perfctr_cpus_forbidden_mask);
	ret = perfctr_arch_init();
	if (ret || cpu_hp_state)
		return ret;
	cpumask_clear(&perfctr_cpus_ready);
	/* With calls: checks the CPUs that came online since detection. */
	ret = cpuhp_setup_state(CPUHP_AP_ONLINE_DYN, "perfctr/cpu:online",
				perfctr_cpu_online, perfctr_cpu_offline);
	if (ret < 0) {
		perfctr_arch_exit();
		return ret;
	}
	cpu_hp_state = ret;
	return 0;
}

void perfctr_cpu_exit(void)
{
	perfctr_cpu_set_ihandler(NULL);
	if (cpu_hp_state) {
		cpuhp_remove_state_nocalls(cpu_hp_state);
		cpu_hp_state = 0;
	}
	perfctr_arch_exit();
}
