/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfctr: what events.c shares with the arch's encoder,
 * events-x86.c or events-powerpc.c. Internal to the library.
 */
#ifndef _LIBPERFCTR_EVENTS_H
#define _LIBPERFCTR_EVENTS_H

#include <stddef.h>
#include <stdint.h>

#include "libperfctr.h"

/* One event of a list, parsed and resolved. */
struct pe_req {
	char text[128];			/* as the user gave it */
	char name[64];			/* name=: the row's name, or "" */
	unsigned int code, umask, cmask, inv, edge, duration;
	unsigned int modes;		/* PERFCTR_EVENT_USER|KERNEL */
	unsigned int explicit_modes;	/* from :u/:k, not the default */
	unsigned int guest, host;	/* AMD GuestOnly, HostOnly (:G, :H) */
	unsigned int thresh, has_thresh;	/* ppc32 MMCR0 THRESHOLD */
	uint32_t counters;		/* bit n: pmc_map n it may use */
	unsigned int fixed;		/* bit n: Intel fixed counter n */
	uint64_t escrs;			/* P4: bit n: pe_escrs[n] */
	uint32_t pebs_enable, pebs_matrix_vert;
	unsigned short pmc_code[8];	/* ppc32: the code on pmc_map n */
	unsigned int pmc;		/* the counter chosen (pmc_map) */
	unsigned int pair;		/* Zen: Merge goes on pmc + 1 */
	int escr;			/* P4: the ESCR chosen, or -1 */
};

/* Zen's large-increment event and the Merge event its pair needs. */
#define PE_ZEN_LARGE	0x003
#define PE_ZEN_MERGE	0xFFF

/* pmc_map of Intel's fixed counter @n; never a general counter's. */
#define PERFCTR_ARCH_FIXED(n)	(0x40000000U | (n))

/* The CPU's own id, in perf's format, from the CPU itself. */
int arch_cpuid(char *buf, size_t size);
/* A raw config (rHEX) into @r's fields; -1 if it does not fit. */
int arch_raw(unsigned int layout, unsigned long long cfg, struct pe_req *r);
/*
 * @nr events, their counters chosen, into @c (zeroed, tsc_on set). -1
 * with errno and @err saying why when the family cannot have them so.
 */
int arch_encode(unsigned int layout, const struct pe_req *r, unsigned int nr,
		struct perfctr_cpu_control *c, char *err, size_t size);

#endif /* _LIBPERFCTR_EVENTS_H */
