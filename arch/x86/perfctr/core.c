// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: the common low-level API on top of the family drivers.
 *
 * Rules shared by every family are checked here; each family file checks
 * its own. Sums use accumulate-differences: a period's count is the
 * 32-bit difference between two reads, so counters are never written
 * for a-mode use and one wrap per period is harmless.
 */
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/mutex.h>
#include <linux/string.h>
#include <asm/tsc.h>

#include "regs.h"
#include "x86.h"

struct perfctr_cpu_info perfctr_info;
struct cpumask perfctr_cpus_forbidden_mask;

static const struct perfctr_x86_family *family;
static perfctr_ihandler_t ihandler;

static DEFINE_MUTEX(reserve_lock);
static const char *reserved_by;

/* Control ids identify a validated control; 0 means "none". */
static atomic_t next_control_id = ATOMIC_INIT(0);

static u32 new_control_id(void)
{
	u32 id;

	do
		id = (u32)atomic_inc_return(&next_control_id);
	while (id == 0);
	return id;
}

static bool pmc_map_has_duplicates(const struct perfctr_cpu_control *control,
				   unsigned int nrctrs)
{
	unsigned int i, j;

	for (i = 0; i < nrctrs; i++)
		for (j = i + 1; j < nrctrs; j++)
			if (control->pmc_map[i] == control->pmc_map[j])
				return true;
	return false;
}

static int check_common(const struct perfctr_cpu_control *control)
{
	unsigned int i, nrctrs;

	if (control->tsc_on > 1)
		return -EINVAL;
	if (control->nractrs > PERFCTR_NR_PMCS ||
	    control->nrictrs > PERFCTR_NR_PMCS)
		return -EINVAL;
	nrctrs = control->nractrs + control->nrictrs;
	if (nrctrs > family->nrctrs)
		return -EINVAL;
	if (control->nrictrs &&
	    !(perfctr_info.features & PERFCTR_FEATURE_PCINT))
		return -EINVAL;
	for (i = 0; i < ARRAY_SIZE(control->_reserved); i++)
		if (control->_reserved[i])
			return -EINVAL;
	/* i-mode counters overflow on the negative to non-negative step. */
	for (i = control->nractrs; i < nrctrs; i++)
		if (control->ireset[i] >= 0)
			return -EINVAL;
	if (pmc_map_has_duplicates(control, nrctrs))
		return -EINVAL;
	return 0;
}

int perfctr_cpu_update_control(struct perfctr_cpu_state *state, bool is_global)
{
	const struct perfctr_cpu_control *control = &state->control;
	unsigned int i, nrctrs;
	int err;

	err = check_common(control);
	if (err)
		return err;
	err = family->check_control(state, is_global);
	if (err)
		return err;

	nrctrs = control->nractrs + control->nrictrs;
	state->cstatus = perfctr_mk_cstatus(control->tsc_on, control->nractrs,
					    control->nrictrs);
	for (i = 0; i < nrctrs; i++)
		state->pmc[i].map = control->pmc_map[i];
	state->k1.id = new_control_id();
	state->k1.isuspend_cpu = -1;
	return 0;
}

void perfctr_cpu_suspend(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_has_tsc(state->cstatus))
		perfctr_accumulate(&state->tsc_sum, &state->tsc_start,
				   pc_rdtsc_low());
}

void perfctr_cpu_resume(struct perfctr_cpu_state *state)
{
	if (perfctr_cstatus_has_tsc(state->cstatus))
		state->tsc_start = pc_rdtsc_low();
}

void perfctr_cpu_sample(struct perfctr_cpu_state *state)
{
	perfctr_cpu_suspend(state);
}

void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler)
{
	WRITE_ONCE(ihandler, handler);
}

unsigned int perfctr_cpu_identify_overflow(struct perfctr_cpu_state *state)
{
	/* No family here has i-mode counters yet; nothing can overflow. */
	return 0;
}

void perfctr_cpu_ireload(struct perfctr_cpu_state *state)
{
	state->k1.isuspend_cpu = -1;
}

const char *perfctr_cpu_reserve(const char *service)
{
	const char *holder;

	mutex_lock(&reserve_lock);
	holder = reserved_by;
	if (!holder)
		reserved_by = service;
	mutex_unlock(&reserve_lock);
	return holder;
}

void perfctr_cpu_release(const char *service)
{
	mutex_lock(&reserve_lock);
	if (reserved_by == service)
		reserved_by = NULL;
	mutex_unlock(&reserve_lock);
}

const char *perfctr_cpu_reserved_by(void)
{
	return READ_ONCE(reserved_by);
}

const char *perfctr_cpu_name(void)
{
	return perfctr_info.name;
}

static const struct perfctr_x86_family *detect_family(void)
{
	return pc_cpu_has_tsc() ? &perfctr_generic_family : NULL;
}

int perfctr_cpu_init(void)
{
	family = detect_family();
	if (!family)
		return -ENODEV;

	memset(&perfctr_info, 0, sizeof(perfctr_info));
	perfctr_info.name = family->name;
	perfctr_info.family_id = family->id;
	perfctr_info.features = family->features;
	perfctr_info.nrctrs = family->nrctrs;
	perfctr_info.cpu_khz = cpu_khz;
	perfctr_info.tsc_to_cpu_mult =
		tsc_khz ? max(1U, DIV_ROUND_CLOSEST(cpu_khz, tsc_khz)) : 1;
	cpumask_clear(&perfctr_cpus_forbidden_mask);
	return 0;
}

void perfctr_cpu_exit(void)
{
	perfctr_cpu_set_ihandler(NULL);
	family = NULL;
}
