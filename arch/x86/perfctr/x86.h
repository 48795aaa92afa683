/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr x86: what the common x86 code needs from each CPU family.
 * One family per file; each fills in one struct perfctr_x86_family.
 */
#ifndef _PERFCTR_X86_H
#define _PERFCTR_X86_H

#include <perfctr/cpu.h>

/* Values of perfctr_info.family_id, stable for user space. */
enum perfctr_x86_family_id {
	PERFCTR_X86_GENERIC = 0,
};

struct perfctr_x86_family {
	const char *name;
	enum perfctr_x86_family_id id;
	unsigned int nrctrs;		/* programmable counters */
	unsigned int features;		/* PERFCTR_FEATURE_* */
	/*
	 * Family-specific rules for a control that passed the common x86
	 * checks. Must not modify @state when it returns an error.
	 */
	int (*check_control)(struct perfctr_cpu_state *state, bool is_global);
};

extern const struct perfctr_x86_family perfctr_generic_family;

#endif /* _PERFCTR_X86_H */
