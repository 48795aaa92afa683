/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfctr: the event tables that tools/pmu-events/jevents.py compiles
 * from the pmu-events JSON (Documentation/perfctr/events.rst). Internal
 * to the library. Strings are offsets into pe_strings.
 */
#ifndef _LIBPERFCTR_PMU_EVENTS_H
#define _LIBPERFCTR_PMU_EVENTS_H

#include <stdint.h>

/*
 * jevents.py's LAYOUTS, in order: how a table's events are encoded. The
 * generated C asserts the order; the fields are in pe_layouts[].
 */
enum pe_layout {
	PE_LAYOUT_P5, PE_LAYOUT_MII, PE_LAYOUT_WINCHIP, PE_LAYOUT_C3,
	PE_LAYOUT_P6, PE_LAYOUT_ARCH, PE_LAYOUT_K7, PE_LAYOUT_AMD10H,
	PE_LAYOUT_AMDZEN, PE_LAYOUT_P4, PE_LAYOUT_PPC604, PE_LAYOUT_PPC604E, PE_LAYOUT_PPC750,
	PE_LAYOUT_PPC7400, PE_LAYOUT_PPC7450,
	PE_NR_LAYOUTS
};

/* How a layout's fields are bounded: a row of jevents.py's LAYOUTS. */
struct pe_layout_info {
	uint8_t code_bits, umask_bits, cmask_max;
	uint32_t counters;	/* bit n: pmc_map n (ppc32: PMC n+1) */
	uint8_t nfixed;		/* Intel fixed counters */
	uint8_t modes;		/* has user/kernel mode bits */
};

/* jevents.py's FLAG_KEYS. */
#define PE_INV		0x01
#define PE_EDGE		0x02
#define PE_DURATION	0x04
#define PE_THRESHOLD	0x08

struct pe_event {
	uint32_t name, desc;
	uint16_t code, umask;
	uint32_t counters;	/* bit n: pmc_map n (ppc32: PMC n+1) */
	uint8_t fixed;		/* bit n: Intel fixed counter n */
	uint8_t cmask, flags;	/* CounterMask, PE_* */
	uint8_t generic;	/* bit n: pe_generic[n] */
	uint32_t aux;		/* index into pe_aux, 0: none */
};

/* What few events need: P4 ESCRs and replay tagging, why refused. */
struct pe_aux {
	uint64_t escrs;		/* bit n: pe_escrs[n] */
	uint32_t pebs_enable, pebs_matrix_vert;
	uint32_t unsupported;	/* why, or "" */
};

/* A metric object: perf's MetricName, MetricExpr, ... (events.rst). */
struct pe_metric {
	uint32_t name, group, desc;
	uint32_t expr;		/* MetricExpr, as the table has it */
	uint32_t unit;		/* ScaleUnit, e.g. "100%", or "" */
	uint32_t unsupported;	/* why perfex cannot evaluate it, or "" */
};

struct pe_table {
	uint32_t name;		/* its directory */
	uint32_t first, count;	/* in pe_events */
	uint8_t layout;		/* enum pe_layout */
	uint8_t imported;	/* from perf's tables */
	uint32_t metric_first, metric_count;	/* in pe_metrics */
};

/* A mapfile.csv row. */
struct pe_map {
	uint32_t cpuid;		/* POSIX extended regular expression */
	uint32_t table;		/* index into pe_tables */
	uint32_t version;	/* the row's Version, e.g. "v1" */
	uint32_t type;		/* its Type: "core", the only one perfctr takes */
};

struct pe_escr {
	uint32_t name;
	uint32_t select;	/* CCCR ESCR_SELECT */
	uint32_t counters;	/* bit n: counter n */
};

extern const char pe_strings[];
extern const struct pe_layout_info pe_layouts[PE_NR_LAYOUTS];
extern const struct pe_event pe_events[];
extern const struct pe_aux pe_aux[];
extern const struct pe_metric pe_metrics[];
extern const struct pe_table pe_tables[];
extern const unsigned int pe_nr_tables;
extern const struct pe_map pe_map[];
extern const unsigned int pe_nr_map;
extern const struct pe_escr pe_escrs[];
extern const unsigned int pe_nr_escrs;

#endif /* _LIBPERFCTR_PMU_EVENTS_H */
