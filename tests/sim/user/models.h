/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The simulated PMU's families (perfctr_simpmu.ko model=NAME), as the
 * Check suites program them: for each, two a-mode counters, the same
 * with the second counter in i-mode, and a control one rule of the
 * family refuses; all count user mode only, so any user may have them
 * at perfctr.paranoid 2, and kernel() makes the first count kernel mode
 * too. Their counters count the TSC's (timebase's) ticks.
 */
#ifndef _PERFCTR_SIM_USER_MODELS_H
#define _PERFCTR_SIM_USER_MODELS_H

#include <stddef.h>
#include <string.h>

#include <perfctr/perfctr.h>

struct sim_model {
	const char *name;		/* the module's model= */
	const char *cpu_type;		/* what info names */
	const char *cpuid;		/* info's cpuid, perf's CPU id */
	const char *forbidden;		/* info's cpus_forbidden */
	unsigned int nrctrs;
	void (*amode)(struct perfctr_cpu_control *c);	/* two a-mode ctrs */
	void (*imode)(struct perfctr_cpu_control *c, int ireset); /* 1 a, 1 i */
	void (*refused)(struct perfctr_cpu_control *c);	/* a rule broken */
	void (*kernel)(struct perfctr_cpu_control *c);	/* + kernel mode */
};

#ifndef __powerpc__
#define SIM_EN_CPL	0x00410000U	/* EN | USR */
#define SIM_EVNTSEL_OS	0x00020000U	/* counts CPL 0 */
#define SIM_EVNTSEL_INT	0x00100000U

/* EVNTSEL.OS on counter 0: the Intel SDM and AMD BKDG agree. */
static inline void sim_evntsel_kernel(struct perfctr_cpu_control *c)
{
	c->evntsel[0] |= SIM_EVNTSEL_OS;
}

static inline void sim_k7_amode(struct perfctr_cpu_control *c)
{
	c->nractrs = 2;
	c->pmc_map[0] = 0;
	c->evntsel[0] = SIM_EN_CPL | 0x76;
	c->pmc_map[1] = 3;
	c->evntsel[1] = SIM_EN_CPL | 0xC0;
}

static inline void sim_k7_imode(struct perfctr_cpu_control *c, int ireset)
{
	sim_k7_amode(c);
	c->nractrs = 1;
	c->nrictrs = 1;
	c->evntsel[1] |= SIM_EVNTSEL_INT;
	c->ireset[1] = ireset;
}

static inline void sim_k7_refused(struct perfctr_cpu_control *c)
{
	sim_k7_amode(c);
	c->evntsel[1] &= ~0x00400000U;		/* no enable bit */
}

static inline void sim_arch_amode(struct perfctr_cpu_control *c)
{
	c->nractrs = 2;
	c->pmc_map[0] = 1;
	c->evntsel[0] = SIM_EN_CPL | 0x3C;
	c->pmc_map[1] = PERFCTR_X86_FIXED_PMC | 1;
	c->evntsel[1] = 0x2;			/* user mode (bit 1) */
}

static inline void sim_arch_imode(struct perfctr_cpu_control *c, int ireset)
{
	sim_arch_amode(c);
	c->nractrs = 1;
	c->nrictrs = 1;
	c->evntsel[1] |= 0x8;			/* fixed counter PMI */
	c->ireset[1] = ireset;
}

static inline void sim_arch_refused(struct perfctr_cpu_control *c)
{
	sim_arch_amode(c);
	c->evntsel[1] = 0x7;			/* AnyThread */
}

/* Pin control (EVNTSEL bit 19) is reserved on every Intel model. */
static inline void sim_intel_refused(struct perfctr_cpu_control *c)
{
	sim_arch_amode(c);
	c->evntsel[0] |= 0x00080000U;
}

#define SIM_P4_CCCR(sel)	((1U << 12) | ((sel) << 13) | (3U << 16))
#define SIM_P4_ESCR		((0x13U << 25) | (1U << 9) | 0x4) /* T0_USR */
#define SIM_P4_ESCR_T0_OS	0x8U

static inline void sim_p4_kernel(struct perfctr_cpu_control *c)
{
	c->p4.escr[0] |= SIM_P4_ESCR_T0_OS;
}

static inline void sim_p4_amode(struct perfctr_cpu_control *c)
{
	c->nractrs = 2;
	c->pmc_map[0] = 0x80000000U | 0;	/* fast RDPMC */
	c->evntsel[0] = SIM_P4_CCCR(6);		/* FSB_ESCR0 */
	c->p4.escr[0] = SIM_P4_ESCR;
	c->pmc_map[1] = 0x80000000U | 12;
	c->evntsel[1] = SIM_P4_CCCR(4);		/* CRU_ESCR0 */
	c->p4.escr[1] = SIM_P4_ESCR;
}

static inline void sim_p4_imode(struct perfctr_cpu_control *c, int ireset)
{
	sim_p4_amode(c);
	c->nractrs = 1;
	c->nrictrs = 1;
	c->evntsel[1] |= 1U << 26;		/* OVF_PMI_T0 */
	c->ireset[1] = ireset;
}

static inline void sim_p4_refused(struct perfctr_cpu_control *c)
{
	sim_p4_amode(c);
	c->evntsel[1] |= 1;			/* reserved CCCR bit */
}

static const struct sim_model sim_models[] = {
	{ "k7", "AMD K7", "AuthenticAMD-6-2-0", "", 4, sim_k7_amode,
	  sim_k7_imode, sim_k7_refused, sim_evntsel_kernel },
	{ "arch-v2", "Intel architectural perfmon", "GenuineIntel-6-3A-9", "",
	  7, sim_arch_amode, sim_arch_imode, sim_arch_refused,
	  sim_evntsel_kernel },
	{ "p4-model3-ht", "Intel P4", "GenuineIntel-15-3-0", "1", 18,
	  sim_p4_amode, sim_p4_imode, sim_p4_refused, sim_p4_kernel },
	/* AMD PerfMonV2: the K7's controls, counting only with the global enable. */
	{ "zen4", "AMD PerfMonV2 (Zen 4 and later)", "AuthenticAMD-25-11-0", "",
	  6, sim_k7_amode, sim_k7_imode, sim_k7_refused, sim_evntsel_kernel },
	/* Arch perfmon v4, v5 and a hybrid (its two vCPUs: 6 + 3 in common). */
	{ "skylake", "Intel architectural perfmon", "GenuineIntel-6-5E-3", "",
	  7, sim_arch_amode, sim_arch_imode, sim_intel_refused,
	  sim_evntsel_kernel },
	{ "sapphire-rapids", "Intel architectural perfmon", "GenuineIntel-6-8F-8",
	  "", 12, sim_arch_amode, sim_arch_imode, sim_intel_refused,
	  sim_evntsel_kernel },
	{ "alder-lake", "Intel architectural perfmon", "GenuineIntel-6-97-2", "",
	  9, sim_arch_amode, sim_arch_imode, sim_intel_refused,
	  sim_evntsel_kernel },
};
#else
/* MMCR0[FCS], bit 1 in the manuals' numbering: freeze in supervisor state. */
#define SIM_PPC_MMCR0_FCS	0x40000000U

/* PMC1 counting cycles (event 1), PMC3 instructions (event 2). */
static inline void sim_ppc_amode(struct perfctr_cpu_control *c)
{
	c->nractrs = 2;
	c->pmc_map[0] = 0;
	c->evntsel[0] = 1;
	c->pmc_map[1] = 2;
	c->evntsel[1] = 2;
	c->ppc.mmcr0 = SIM_PPC_MMCR0_FCS;
}

static inline void sim_ppc_kernel(struct perfctr_cpu_control *c)
{
	c->ppc.mmcr0 &= ~SIM_PPC_MMCR0_FCS;
}

static inline void sim_ppc_imode(struct perfctr_cpu_control *c, int ireset)
{
	sim_ppc_amode(c);
	c->nractrs = 1;
	c->nrictrs = 1;
	c->ireset[1] = ireset;
	c->ppc.mmcr0 |= PERFCTR_PPC_MMCR0_PMXE | PERFCTR_PPC_MMCR0_PMCNCE;
}

static inline void sim_ppc_refused(struct perfctr_cpu_control *c)
{
	sim_ppc_amode(c);
	c->evntsel[1] = 0x20;			/* PMC3SEL has 5 bits */
}

/*
 * "750" is a 750GX: the 750 family's name, and a 750 whose overflow
 * interrupt works (a plain 750 has none, for its DEC/PMI erratum).
 */
static const struct sim_model sim_models[] = {
	{ "7450", "PowerPC 7450", "0x80000201", "", 6, sim_ppc_amode, sim_ppc_imode,
	  sim_ppc_refused, sim_ppc_kernel },
	{ "750", "PowerPC 750", "0x70020102", "", 4, sim_ppc_amode, sim_ppc_imode,
	  sim_ppc_refused, sim_ppc_kernel },
};
#endif

/* The model called @name, or NULL. */
static inline const struct sim_model *sim_model_find(const char *name)
{
	size_t i;

	for (i = 0; name && i < sizeof(sim_models) / sizeof(*sim_models); i++)
		if (!strcmp(sim_models[i].name, name))
			return &sim_models[i];
	return NULL;
}

#endif /* _PERFCTR_SIM_USER_MODELS_H */
