// SPDX-License-Identifier: GPL-2.0-only
/*
 * The low level the driver stands on (<perfctr/cpu.h>, the policy, the
 * IBS half), as a model: every counter of a resumed state, and the TSC,
 * advance by what fk_advance() adds; i-mode counters overflow when a
 * test says so. Resume and suspend must pair up on each CPU.
 */
#include "harness.h"

#include <perfctr/ibs.h>

struct perfctr_cpu_info perfctr_info;
struct cpumask perfctr_cpus_forbidden_mask;

#define FK_NRCTRS	4

static u64 clock_now;
static struct perfctr_cpu_state *resumed[FK_NR_CPUS];
static u64 resumed_at[FK_NR_CPUS];
static u32 ovf_pending;
static perfctr_ihandler_t ihandler;

void fk_advance(unsigned int n)
{
	clock_now += n;
}

int perfctr_cpu_update_control(struct perfctr_cpu_state *state, bool is_global)
{
	const struct perfctr_cpu_control *c = &state->control;
	unsigned int n = c->nractrs + c->nrictrs, i;

	if (n > FK_NRCTRS)
		return -EINVAL;
	for (i = c->nractrs; i < n; i++)
		if (c->ireset[i] >= 0)
			return -EINVAL;
	state->cstatus = perfctr_mk_cstatus(c->tsc_on, c->nractrs, c->nrictrs);
	for (i = 0; i < n; i++) {
		state->pmc[i].map = c->pmc_map[i];
		state->pmc[i].start = i < c->nractrs ? 0 : c->ireset[i];
	}
	return 0;
}

bool perfctr_cpu_counts_kernel(const struct perfctr_cpu_state *state)
{
	return false;
}

static int where_resumed(const struct perfctr_cpu_state *st)
{
	int cpu;

	for (cpu = 0; cpu < FK_NR_CPUS; cpu++)
		if (resumed[cpu] == st)
			return cpu;
	return -1;
}

void perfctr_cpu_resume(struct perfctr_cpu_state *st)
{
	if (!preempt_count_here())
		FK_FAIL("%s() with preemption on", __func__);
	if (where_resumed(st) >= 0)
		FK_FAIL("resume of a state already resumed on CPU %d",
			where_resumed(st));
	if (resumed[fk_cpu])
		FK_FAIL("resume on CPU %d, which counts for another state",
			fk_cpu);
	resumed[fk_cpu] = st;
	resumed_at[fk_cpu] = clock_now;
	fk.resumes++;
}

/* The counts since the resume (or the last sample) go to the sums. */
static void accumulate(struct perfctr_cpu_state *st)
{
	u64 d = clock_now - resumed_at[fk_cpu];
	unsigned int i, n = perfctr_cstatus_nrctrs(st->cstatus);

	resumed_at[fk_cpu] = clock_now;
	if (perfctr_cstatus_has_tsc(st->cstatus))
		st->tsc_sum += d;
	for (i = 0; i < n; i++) {
		st->pmc[i].sum += d;
		st->pmc[i].start += d;
	}
}

/*
 * The i-mode counters fire_overflow() named, acked and restarted from
 * ireset, as the API says suspend returns them.
 */
unsigned int perfctr_cpu_suspend(struct perfctr_cpu_state *st)
{
	unsigned int i, n = perfctr_cstatus_nrctrs(st->cstatus), mask = 0;

	if (resumed[fk_cpu] != st)
		FK_FAIL("suspend of a state not resumed on CPU %d", fk_cpu);
	accumulate(st);
	for (i = perfctr_cstatus_nractrs(st->cstatus); i < n; i++) {
		if (!(ovf_pending & BIT(i)))
			continue;
		mask |= BIT(i);
		st->pmc[i].start = st->control.ireset[i];
	}
	ovf_pending = 0;
	resumed[fk_cpu] = NULL;
	fk.suspends++;
	return mask;
}

void perfctr_cpu_sample(struct perfctr_cpu_state *st)
{
	if (resumed[fk_cpu] != st)
		FK_FAIL("sample of a state not resumed on CPU %d", fk_cpu);
	accumulate(st);
}

void perfctr_cpu_ireload(struct perfctr_cpu_state *st)
{
	fk.ireloads++;
}

void perfctr_cpu_user_read(const struct perfctr_cpu_state *st, bool on)
{
	if (!irqs_off_here())
		FK_FAIL("%s() with interrupts on", __func__);
}

void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler)
{
	ihandler = handler;
}

/* The overflow interrupt, on current's CPU, interrupts off. */
void fire_overflow(u32 mask)
{
	unsigned long flags;

	if (!resumed[fk_cpu])
		FK_FAIL("%s(): nothing counts on CPU %d", __func__, fk_cpu);
	ovf_pending = mask;
	flags = fk_irq_save();
	if (ihandler)
		ihandler(0);
	fk_irq_restore(flags);
}

const char *perfctr_cpu_reserve(const char *service)
{
	might_sleep();
	if (fk_hw_holder && fk_hw_holder != service)
		return fk_hw_holder;
	fk_hw_holder = service;
	fk.reserves++;
	return NULL;
}

void perfctr_cpu_release(const char *service)
{
	if (fk_hw_holder == service)
		fk_hw_holder = NULL;
}

/*
 * The IBS hardware half: a CPU with the op engine, whose reservation
 * always succeeds; fk_ibs_sample() delivers one sample of the state
 * resumed on current's CPU, as the NMI handler would.
 */
static perfctr_ibs_handler_t ibs_handler;
static struct perfctr_ibs_state *ibs_resumed[FK_NR_CPUS];

u32 perfctr_cpu_ibs_caps(void)
{
	return PERFCTR_IBS_CAP_FETCHSAM | PERFCTR_IBS_CAP_OPSAM;
}

int perfctr_cpu_ibs_setup(struct perfctr_ibs_state *st,
			  const struct perfctr_ibs_control *c)
{
	return 0;
}

int perfctr_cpu_ibs_reserve(void)
{
	return 0;
}

void perfctr_cpu_ibs_release(void)
{
}

bool perfctr_cpu_ibs_busy(void)
{
	return false;
}

int perfctr_cpu_ibs_resume(struct perfctr_ibs_state *st)
{
	ibs_resumed[fk_cpu] = st;
	return 0;
}

void perfctr_cpu_ibs_suspend(struct perfctr_ibs_state *st)
{
	if (ibs_resumed[fk_cpu] == st)
		ibs_resumed[fk_cpu] = NULL;
}

void perfctr_cpu_set_ibs_handler(perfctr_ibs_handler_t handler)
{
	ibs_handler = handler;
}

bool fk_ibs_sample(void)
{
	struct perfctr_ibs_sample s = {
		.kind = PERFCTR_IBS_SAMPLE_OP,
		.valid = PERFCTR_IBS_VALID_OP_RIP,
		.op_rip = 0x400000,
	};

	if (!ibs_handler || !ibs_resumed[fk_cpu])
		return false;
	ibs_handler(ibs_resumed[fk_cpu], &s);
	return true;
}
