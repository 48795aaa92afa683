/* SPDX-License-Identifier: GPL-2.0-only */
/* What the ppc32 KUnit suites share beyond sim_test.h. */
#ifndef _PERFCTR_PPC_ARCH_TEST_H
#define _PERFCTR_PPC_ARCH_TEST_H

#include "../sim_test.h"

/* Bits of control.ppc.mmcr0 the tests use. */
#define PMXE	PERFCTR_PPC_MMCR0_PMXE
#define FCECE	PERFCTR_PPC_MMCR0_FCECE
#define PMC1CE	PERFCTR_PPC_MMCR0_PMC1CE
#define PMCNCE	PERFCTR_PPC_MMCR0_PMCNCE
#define TRIGGER	PERFCTR_PPC_MMCR0_TRIGGER
#define FC	PERFCTR_PPC_MMCR0_FC
#define TBEE	PERFCTR_PPC_MMCR0_TBEE

/* The driver's MMCR and PMC writes so far. */
static inline unsigned int sim_reg_writes(void)
{
	return perfctr_ppc_sim.nr_mmcr_writes + perfctr_ppc_sim.nr_pmc_writes;
}

/* One counter of a control in a table of test cases. */
struct sim_ctr {
	u32 map, sel;
	s32 ireset;
};

/* A control with the counts and MMCR0 given and the first @n of @c. */
static inline void sim_fill_control(struct perfctr_cpu_control *control,
				    u32 tsc_on, u32 nractrs, u32 nrictrs,
				    u32 mmcr0, const struct sim_ctr *c,
				    unsigned int n)
{
	unsigned int i;

	memset(control, 0, sizeof(*control));
	control->tsc_on = tsc_on;
	control->nractrs = nractrs;
	control->nrictrs = nrictrs;
	control->ppc.mmcr0 = mmcr0;
	for (i = 0; i < n && i < PERFCTR_NR_PMCS; i++) {
		control->pmc_map[i] = c[i].map;
		control->evntsel[i] = c[i].sel;
		control->ireset[i] = c[i].ireset;
	}
}

/*
 * Power on the model of table case @tcase and return a new state with its
 * control filled in, not yet loaded. @tcase has .model, .tsc_on, .nractrs,
 * .nrictrs, .mmcr0 and an array .c of struct sim_ctr.
 */
#define sim_case_state(test, tcase) ({					\
	__auto_type __c = (tcase);					\
	struct perfctr_cpu_state *__state =				\
		sim_start_state(test, __c->model);			\
									\
	sim_fill_control(&__state->control, __c->tsc_on, __c->nractrs,	\
			 __c->nrictrs, __c->mmcr0, __c->c,		\
			 ARRAY_SIZE(__c->c));				\
	__state;							\
})

#endif /* _PERFCTR_PPC_ARCH_TEST_H */
