// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: generic driver for any x86 with a TSC. It samples the TSC
 * and nothing else, so it is also the fallback where the counters of a
 * known family do not count (emulators, many hypervisors).
 */
#include <linux/errno.h>

#include "x86.h"

static int generic_check_control(const struct perfctr_cpu_state *state,
				 bool is_global)
{
	const struct perfctr_cpu_control *control = &state->control;

	/*
	 * The TSC or nothing: an empty control stops counting here as on
	 * every family (perfctr 2.6's vperfctr_stop() writes one).
	 */
	if (control->nractrs || control->nrictrs)
		return -EINVAL;
	return 0;
}

/* No counters: nothing to load, stop or clear. */
static void generic_write_control(const struct perfctr_cpu_state *state,
				  struct pc_cache *cache)
{
}

static void generic_clear_counters(struct pc_cache *cache)
{
}

const struct perfctr_x86_family perfctr_generic_family = {
	.name = "Generic x86 with TSC",
	.id = PERFCTR_X86_GENERIC,
	.features = PERFCTR_FEATURE_RDTSC,
	.check_control = generic_check_control,
	.write_control = generic_write_control,
	.clear_counters = generic_clear_counters,
};
