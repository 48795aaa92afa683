// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: which driver runs this CPU, from its CPUID vendor, family
 * and model. Anything with a TSC and no driver gets the generic one.
 */
#include <asm/processor.h>

#include "x86.h"

struct pc_model {
	u8 vendor, family, model;
	const struct perfctr_x86_family *driver;
};

static const struct pc_model pc_models[] = {
	/* Intel family 5: P5; P5MMX is told apart by its MMX flag. */
	{ X86_VENDOR_INTEL, 5, 1, &perfctr_p5_family },		/* P5 60/66 */
	{ X86_VENDOR_INTEL, 5, 2, &perfctr_p5_family },		/* P54C 75-200 */
	{ X86_VENDOR_INTEL, 5, 3, &perfctr_p5_family },		/* P24T OverDrive */
	{ X86_VENDOR_INTEL, 5, 4, &perfctr_p5mmx_family },	/* P55C */
	{ X86_VENDOR_INTEL, 5, 7, &perfctr_p5_family },		/* mobile P54C */
	{ X86_VENDOR_INTEL, 5, 8, &perfctr_p5mmx_family },	/* mobile P55C */
	/* Intel family 6 before architectural perfmon. */
	{ X86_VENDOR_INTEL, 6, 1, &perfctr_p6_family },		/* Pentium Pro */
	{ X86_VENDOR_INTEL, 6, 3, &perfctr_p6_family },		/* PII Klamath */
	{ X86_VENDOR_INTEL, 6, 5, &perfctr_p6_family },		/* PII Deschutes */
	{ X86_VENDOR_INTEL, 6, 6, &perfctr_p6_family },		/* Celeron Mendocino */
	{ X86_VENDOR_INTEL, 6, 7, &perfctr_p6_family },		/* PIII Katmai */
	{ X86_VENDOR_INTEL, 6, 8, &perfctr_p6_family },		/* PIII Coppermine */
	{ X86_VENDOR_INTEL, 6, 9, &perfctr_p6_family },		/* Pentium M Banias */
	{ X86_VENDOR_INTEL, 6, 10, &perfctr_p6_family },	/* PIII Xeon Cascades */
	{ X86_VENDOR_INTEL, 6, 11, &perfctr_p6_family },	/* PIII Tualatin */
	{ X86_VENDOR_INTEL, 6, 13, &perfctr_p6_family },	/* Pentium M Dothan */
	{ X86_VENDOR_INTEL, 6, 14, &perfctr_p6_family },	/* Core Solo/Duo Yonah */
	/* Cyrix: 6x86MX/MII report family 6 model 0, Cyrix III model 5. */
	{ X86_VENDOR_CYRIX, 6, 0, &perfctr_mii_family },
	{ X86_VENDOR_CYRIX, 6, 5, &perfctr_mii_family },
	/* Centaur: WinChips are family 5, VIA C3s family 6. */
	{ X86_VENDOR_CENTAUR, 5, 4, &perfctr_winchip_family },	/* WinChip C6 */
	{ X86_VENDOR_CENTAUR, 5, 8, &perfctr_winchip_family },	/* WinChip 2 */
	{ X86_VENDOR_CENTAUR, 5, 9, &perfctr_winchip_family },	/* WinChip 3 */
	{ X86_VENDOR_CENTAUR, 6, 6, &perfctr_c3_family },	/* C3 Samuel 1 */
	{ X86_VENDOR_CENTAUR, 6, 7, &perfctr_c3_family },	/* C3 Samuel 2/Ezra */
	{ X86_VENDOR_CENTAUR, 6, 8, &perfctr_c3_family },	/* C3 Ezra-T */
	{ X86_VENDOR_CENTAUR, 6, 9, &perfctr_c3_family },	/* C3 Nehemiah */
};

static const struct perfctr_x86_family *pc_amd(const struct pc_cpu_ident *id)
{
	if (id->family == 6)
		return &perfctr_k7_family;		/* Athlon, Duron */
	if (id->family == 15)
		return &perfctr_k8_family;		/* Athlon 64, Opteron */
	if (id->family < 16)
		return NULL;
	/* 15h, Zen 1-3 and Hygon 18h (Zen 1); Zen 4 was probed before. */
	if (id->has_perfctr_core)
		return &perfctr_fam15_family;
	return &perfctr_fam10_family;			/* 10h-14h */
}

static const struct perfctr_x86_family *pc_table(const struct pc_cpu_ident *id)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(pc_models); i++) {
		const struct pc_model *m = &pc_models[i];

		if (m->vendor == id->vendor && m->family == id->family &&
		    m->model == id->model)
			return m->driver;
	}
	return NULL;
}

/* Why a CPU we know something about still gets the generic driver. */
static const char *pc_no_driver(const struct pc_cpu_ident *id)
{
	if (id->vendor != X86_VENDOR_INTEL)
		return NULL;
	if (id->family == 6)
		return "no architectural perfmon in CPUID leaf 0xA";
	return NULL;
}

int pc_detect_family(const struct pc_cpu_ident *id,
		     struct perfctr_x86_family *out, const char **why)
{
	const struct perfctr_x86_family *f = NULL;

	*why = NULL;
	if (id->vendor == X86_VENDOR_INTEL && pc_arch_perfmon_probe(id, out))
		return 0;
	if (id->vendor == X86_VENDOR_AMD || id->vendor == X86_VENDOR_HYGON)
		pc_amd_setup(id);
	/* Zen 4 on: sized from CPUID, as arch perfmon is. */
	if ((id->vendor == X86_VENDOR_AMD || id->vendor == X86_VENDOR_HYGON) &&
	    id->family >= 0x17 && id->has_perfctr_core &&
	    pc_amd_v2_probe(id, out))
		return 0;
	if (id->vendor == X86_VENDOR_INTEL && id->family == 15) {
		pc_p4_setup(id);			/* every NetBurst model */
		f = &perfctr_p4_family;
	} else if (id->vendor == X86_VENDOR_AMD || id->vendor == X86_VENDOR_HYGON) {
		f = pc_amd(id);
	} else {
		f = pc_table(id);
	}
	if (!f) {
		*why = pc_no_driver(id);
		if (!id->has_tsc)
			return -ENODEV;
		f = &perfctr_generic_family;
	}
	*out = *f;
	return 0;
}
