// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libperfctr: the x86 half of named events. The CPU id as perf builds
 * it, raw configs, and each family's control layout (x86.rst; the bits
 * are the Intel SDM's and AMD's BKDGs').
 */
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "events.h"
#include "pmu-events.h"

#define EVSEL_USR	0x00010000U
#define EVSEL_OS	0x00020000U
#define EVSEL_EDGE	0x00040000U
#define EVSEL_EN	0x00400000U
#define EVSEL_INV	0x00800000U
/*
 * What a raw config may carry: event, unit mask, edge, inv, cmask, and
 * the mode and enable bits, which the modifiers decide instead.
 */
#define EVSEL_RAW	0xFFC7FFFFULL
/*
 * AMD family 10h on (BKDG 31116, APM vol. 2): EventSelect[11:8] in bits
 * 35:32, GuestOnly bit 40, HostOnly bit 41; K7 and K8 have none of them.
 */
#define AMD_EVENT_HIGH	(0xFULL << 32)
#define AMD_GUEST_ONLY	0x10000000000ULL
#define AMD_HOST_ONLY	0x20000000000ULL

#define P5_CPL0_2	0x040U		/* CESR CC: count at CPL 0-2 */
#define P5_CPL3		0x080U		/* count at CPL 3 */
#define P5_CLOCKS	0x100U		/* count cycles (duration) */

#define P4_CCCR_ENABLE		0x00001000U
#define P4_CCCR_SELECT(s)	((s) << 13)
#define P4_CCCR_BOTH_THREADS	0x00030000U
#define P4_CCCR_COMPARE		0x00040000U
#define P4_CCCR_COMPLEMENT	0x00080000U
#define P4_CCCR_THRESHOLD(t)	((t) << 20)
#define P4_CCCR_EDGE		0x01000000U
#define P4_ESCR_EVENT(e)	((e) << 25)
#define P4_ESCR_MASK(m)		((m) << 9)
#define P4_ESCR_T0_OS		0x00000008U
#define P4_ESCR_T0_USR		0x00000004U
#define P4_FAST_RDPMC		0x80000000U

int arch_cpuid(char *buf, size_t size)
{
	unsigned int a, b, c, d, family, model;
	char vendor[13];

	if (!__get_cpuid(0, &a, &b, &c, &d)) {
		errno = ENODEV;
		return -1;
	}
	memcpy(vendor, &b, 4);
	memcpy(vendor + 4, &d, 4);
	memcpy(vendor + 8, &c, 4);
	vendor[12] = '\0';
	__get_cpuid(1, &a, &b, &c, &d);
	family = (a >> 8) & 0xF;
	model = (a >> 4) & 0xF;
	if (family == 0xF)
		family += (a >> 20) & 0xFF;
	if (family >= 6)
		model |= ((a >> 16) & 0xF) << 4;
	snprintf(buf, size, "%s-%u-%X-%X", vendor, family, model, a & 0xF);
	return 0;
}

static int raw_p5(unsigned int layout, unsigned long long cfg,
		  struct pe_req *r)
{
	unsigned long long legal = layout == PE_LAYOUT_MII ? 0x5FF :
		layout == PE_LAYOUT_C3 ? 0x1FF :
		layout == PE_LAYOUT_WINCHIP ? 0xFF : 0x1FF;

	if (cfg & ~legal)
		return -1;
	switch (layout) {
	case PE_LAYOUT_P5:
		r->code = cfg & 0x3F;
		r->duration = !!(cfg & P5_CLOCKS);
		break;
	case PE_LAYOUT_MII:
		r->code = (cfg & 0x3F) | ((cfg >> 10) & 1) << 6;
		r->duration = !!(cfg & P5_CLOCKS);
		break;
	default:
		r->code = cfg;
	}
	return 0;
}

static void raw_p4(unsigned long long cfg, struct pe_req *r)
{
	unsigned int escr = cfg >> 32, cccr = cfg, sel = (cccr >> 13) & 7, i;

	r->code = (escr >> 25) & 0x3F;
	r->umask = (escr >> 9) & 0xFFFF;
	r->cmask = (cccr >> 20) & 0xF;
	r->inv = !!(cccr & P4_CCCR_COMPLEMENT);
	r->edge = !!(cccr & P4_CCCR_EDGE);
	for (i = 0; i < pe_nr_escrs; i++)
		if (pe_escrs[i].select == sel)
			r->escrs |= 1ULL << i;
}

int arch_raw(unsigned int layout, unsigned long long cfg, struct pe_req *r)
{
	unsigned long long legal = EVSEL_RAW;

	switch (layout) {
	case PE_LAYOUT_P5:
	case PE_LAYOUT_MII:
	case PE_LAYOUT_WINCHIP:
	case PE_LAYOUT_C3:
		return raw_p5(layout, cfg, r);
	case PE_LAYOUT_P4:
		raw_p4(cfg, r);
		return 0;
	case PE_LAYOUT_AMD10H:
		legal |= AMD_EVENT_HIGH | AMD_GUEST_ONLY | AMD_HOST_ONLY;
		break;
	}
	if (cfg & ~legal)
		return -1;
	r->guest = !!(cfg & AMD_GUEST_ONLY);
	r->host = !!(cfg & AMD_HOST_ONLY);
	r->code = (cfg & 0xFF) | ((cfg >> 32) & 0xF) << 8;
	r->umask = (cfg >> 8) & 0xFF;
	r->edge = !!(cfg & EVSEL_EDGE);
	r->inv = !!(cfg & EVSEL_INV);
	r->cmask = (cfg >> 24) & 0xFF;
	return 0;
}

static unsigned int p5_half(unsigned int layout, const struct pe_req *r)
{
	unsigned int v = r->code & 0x3F;

	if (layout == PE_LAYOUT_WINCHIP || layout == PE_LAYOUT_C3)
		return r->code;
	if (layout == PE_LAYOUT_MII)
		v |= ((r->code >> 6) & 1) << 10;
	if (r->modes & PERFCTR_EVENT_KERNEL)
		v |= P5_CPL0_2;
	if (r->modes & PERFCTR_EVENT_USER)
		v |= P5_CPL3;
	if (r->duration)
		v |= P5_CLOCKS;
	return v;
}

static unsigned int evntsel(unsigned int layout, const struct pe_req *r)
{
	unsigned int v = (r->code & 0xFF) | r->umask << 8 | r->cmask << 24;

	if (r->modes & PERFCTR_EVENT_USER)
		v |= EVSEL_USR;
	if (r->modes & PERFCTR_EVENT_KERNEL)
		v |= EVSEL_OS;
	if (r->edge)
		v |= EVSEL_EDGE;
	if (r->inv)
		v |= EVSEL_INV;
	/* The P6's EVNTSEL0.EN gates both counters and is reserved in 1. */
	if (layout != PE_LAYOUT_P6 || r->pmc == 0)
		v |= EVSEL_EN;
	return v;
}

static int p4_counter(const struct pe_req *r, struct perfctr_cpu_control *c,
		      unsigned int i, char *err, size_t size)
{
	unsigned int cccr = P4_CCCR_ENABLE | P4_CCCR_BOTH_THREADS |
		P4_CCCR_SELECT(pe_escrs[r->escr].select);
	unsigned int escr = P4_ESCR_EVENT(r->code) | P4_ESCR_MASK(r->umask);

	if (r->cmask || r->inv || r->edge)
		cccr |= P4_CCCR_COMPARE | P4_CCCR_THRESHOLD(r->cmask);
	if (r->inv)
		cccr |= P4_CCCR_COMPLEMENT;
	if (r->edge)
		cccr |= P4_CCCR_EDGE;
	if (r->modes & PERFCTR_EVENT_KERNEL)
		escr |= P4_ESCR_T0_OS;
	if (r->modes & PERFCTR_EVENT_USER)
		escr |= P4_ESCR_T0_USR;
	c->pmc_map[i] = r->pmc | P4_FAST_RDPMC;
	c->evntsel[i] = cccr;
	c->p4.escr[i] = escr;
	if (!r->pebs_enable)
		return 0;
	if (c->p4.pebs_enable && (c->p4.pebs_enable != r->pebs_enable ||
				  c->p4.pebs_matrix_vert != r->pebs_matrix_vert)) {
		snprintf(err, size,
			 "'%s': the P4 has one replay-tagging setting, and another event of the set needs a different one; count them separately.",
			 r->text);
		errno = EINVAL;
		return -1;
	}
	c->p4.pebs_enable = r->pebs_enable;
	c->p4.pebs_matrix_vert = r->pebs_matrix_vert;
	return 0;
}

/*
 * Counter 0's EN runs both P6 counters: a set on counter 1 alone gets
 * counter 0 too, enabled, counting in no mode.
 */
static void p6_filler(const struct pe_req *r, unsigned int nr,
		      struct perfctr_cpu_control *c)
{
	unsigned int i;

	for (i = 0; i < nr; i++)
		if (r[i].pmc == 0)
			return;
	if (!nr)
		return;
	c->pmc_map[nr] = 0;
	c->evntsel[nr] = EVSEL_EN;
	c->nractrs++;
}

int arch_encode(unsigned int layout, const struct pe_req *r, unsigned int nr,
		struct perfctr_cpu_control *c, char *err, size_t size)
{
	unsigned int i;

	for (i = 0; i < nr; i++) {
		c->pmc_map[i] = r[i].pmc;
		if (r[i].pmc & PERFCTR_ARCH_FIXED(0)) {
			/* IA32_FIXED_CTR_CTRL's field: bit 0 OS, bit 1 USR. */
			c->evntsel[i] = (r[i].modes & PERFCTR_EVENT_KERNEL ? 1 : 0) |
				(r[i].modes & PERFCTR_EVENT_USER ? 2 : 0);
			continue;
		}
		switch (layout) {
		case PE_LAYOUT_P5:
		case PE_LAYOUT_MII:
		case PE_LAYOUT_WINCHIP:
		case PE_LAYOUT_C3:
			c->evntsel[i] = p5_half(layout, &r[i]);
			break;
		case PE_LAYOUT_P4:
			if (p4_counter(&r[i], c, i, err, size))
				return -1;
			break;
		default:
			c->evntsel[i] = evntsel(layout, &r[i]);
			if (layout == PE_LAYOUT_AMD10H)
				c->evntsel_high[i] = ((r[i].code >> 8) & 0xF) |
					r[i].guest << 8 | r[i].host << 9;
		}
	}
	c->nractrs = nr;
	if (layout == PE_LAYOUT_P6)
		p6_filler(r, nr, c);
	return 0;
}
