// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr: the sampling timer of each CPU. While a set counts on a CPU
 * (vp_running), the timer folds its counters into its sums often enough
 * that no 32-bit delta wraps, and stops once no set runs there.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/cpuhotplug.h>
#include <linux/hrtimer.h>
#include <linux/percpu.h>
#include <linux/spinlock.h>

#include <perfctr/cpu.h>
#include "internal.h"
#include "vperfctr.h"

/* The set counting on each CPU, set and cleared by set.c. */
DEFINE_PER_CPU(struct vperfctr *, vp_running);

struct vp_cpu {
	struct hrtimer timer;
	bool armed;
};

static DEFINE_PER_CPU(struct vp_cpu, vp_cpus);

/* As global mode: no 32-bit delta wraps at 16 events a cycle at 5 GHz. */
#define VP_SAMPLE_NS	(50 * NSEC_PER_MSEC)

/* A set starts counting here: the timer runs, if it did not already. */
void vp_timer_arm(void)
{
	struct vp_cpu *c = this_cpu_ptr(&vp_cpus);

	if (c->armed)
		return;
	c->armed = true;
	hrtimer_start(&c->timer, ns_to_ktime(VP_SAMPLE_NS),
		      PERFCTR_TIMER_MODE);
}

/* The timer of each CPU folds the running set's counts into its sums. */
static enum hrtimer_restart vp_tick(struct hrtimer *timer)
{
	struct vp_cpu *c = container_of(timer, struct vp_cpu, timer);
	struct vperfctr *v = this_cpu_read(vp_running);

	if (c != this_cpu_ptr(&vp_cpus) || !v) {
		WRITE_ONCE(c->armed, false);	/* the next resume restarts it */
		return HRTIMER_NORESTART;
	}
	raw_spin_lock(&v->lock);
	if (v->resumed) {
		vp_begin(v);
		perfctr_cpu_sample(&v->page->cpu);
		vp_end(v);
	}
	raw_spin_unlock(&v->lock);
	hrtimer_forward_now(timer, ns_to_ktime(VP_SAMPLE_NS));
	return HRTIMER_RESTART;
}

/*
 * A CPU going down: its sets have left it, and its timer would migrate
 * still marked armed, so that the CPU, back up, would never start it.
 */
static int vp_cpu_down(unsigned int cpu)
{
	struct vp_cpu *c = per_cpu_ptr(&vp_cpus, cpu);

	hrtimer_cancel(&c->timer);
	WRITE_ONCE(c->armed, false);
	return 0;
}

static int vp_hp_state;

int vp_tick_init(void)
{
	unsigned int cpu;
	int ret;

	for_each_possible_cpu(cpu)
		perfctr_timer_init(&per_cpu_ptr(&vp_cpus, cpu)->timer, vp_tick);
	ret = cpuhp_setup_state_nocalls(CPUHP_AP_ONLINE_DYN,
					"perfctr/virtual:online", NULL,
					vp_cpu_down);
	if (ret < 0)
		return ret;
	vp_hp_state = ret;
	return 0;
}

void vp_tick_exit(void)
{
	unsigned int cpu;

	cpuhp_remove_state_nocalls(vp_hp_state);
	for_each_possible_cpu(cpu)
		hrtimer_cancel(&per_cpu_ptr(&vp_cpus, cpu)->timer);
}
