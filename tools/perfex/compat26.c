// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex: perfctr 2.6's event arguments (perfex.rst, "Coming from
 * perfctr 2.6's perfex"). 2.6 took each event as the registers' values,
 * EVNTSEL[/ESCR][@PMC], and the P4's PEBS_ENABLE and PEBS_MATRIX_VERT as
 * --p4pe and --p4pmv. Such events make the control as given, with no
 * event table: EVNTSEL to evntsel, ESCR to the P4's ESCR (on AMD family
 * 10h and later to EVNTSEL's high half, as 2.6's last releases had it),
 * PMC to pmc_map, the events in order on counters 0, 1, ... without it.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perfex.h"

/*
 * Whether -e's @arg is meant as 2.6's: it has an '@', which no event of
 * perf's syntax has, or it is digits, hex letters, 'x', '/' and ','
 * from a digit on (table names that begin with a digit, such as the
 * P4's 1STL_CACHE_LOAD_MISS_RETIRED, have an '_' or a '.').
 */
int p26_is_event(const char *arg)
{
	return strchr(arg, '@') ||
	       (isdigit((unsigned char)arg[0]) &&
		!arg[strspn(arg, "0123456789abcdefABCDEFxX/,")]);
}

/*
 * One number at *@s, C syntax, 32 bits; *@s moves past it. 2.6's
 * perfex read a number without 0x as hexadecimal (its -d as C does):
 * one that the two read differently is refused, naming both.
 */
static int p26_number(const char *opt, const char *arg, const char **s,
		      __u32 *val)
{
	size_t len = strspn(*s, "0123456789abcdefABCDEFxX");
	unsigned long long hex, c = 0;
	char tok[64], *end;
	int c_ok;

	if (!len || !isdigit((unsigned char)**s)) {
		fprintf(stderr,
			"perfex: '%s %s': a number is missing: give EVNTSEL[/ESCR][@PMC], each a number in C syntax (0x for hex), e.g. 0x004100c0@0\n",
			opt, arg);
		return -1;
	}
	snprintf(tok, sizeof(tok), "%.*s", (int)(len < 63 ? len : 63), *s);
	errno = 0;
	if (tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X')) {
		hex = strtoull(tok + 2, &end, 16);
		if (!tok[2] || *end || tok[2] == '-' || tok[2] == '+')
			goto bad;
		c = hex;
		c_ok = 1;
	} else {
		hex = strtoull(tok, &end, 16);
		if (*end)
			goto bad;
		c = strtoull(tok, &end, 0);
		c_ok = !*end;
	}
	if (errno || hex > 0xFFFFFFFFULL || (c_ok && c > 0xFFFFFFFFULL)) {
		fprintf(stderr, "perfex: '%s %s': %s is over 32 bits\n", opt,
			arg, tok);
		return -1;
	}
	if (!c_ok) {
		fprintf(stderr,
			"perfex: '%s %s': perfctr 2.6 read %s as hex: write 0x%llx (perfex reads numbers as C does)\n",
			opt, arg, tok, hex);
		return -1;
	}
	if (c != hex) {
		fprintf(stderr,
			"perfex: '%s %s': %s was 0x%llx to perfctr 2.6 (%llu with its -d): write 0x%llx, or 0x%llx if decimal was meant\n",
			opt, arg, tok, hex, c, hex, c);
		return -1;
	}
	*val = c;
	*s += len;
	return 0;

bad:
	fprintf(stderr,
		"perfex: '%s %s': %s is not a number: write each in C syntax (0x for hex), e.g. 0x004100c0@0\n",
		opt, arg, tok);
	return -1;
}

int p26_add_event(struct opts *o, const char *arg)
{
	struct ev26 e = { 0 };
	const char *s = arg;

	if (strchr(arg, ',')) {
		fprintf(stderr,
			"perfex: '-e %s': give each perfctr 2.6 event its own -e (-e A -e B), as 2.6 took them\n",
			arg);
		return -1;
	}
	if (o->n26 >= PERFCTR_NR_PMCS) {
		fprintf(stderr,
			"perfex: '-e %s': too many events: perfctr has %u counters at most\n",
			arg, PERFCTR_NR_PMCS);
		return -1;
	}
	if (strlen(arg) >= sizeof(e.text)) {
		fprintf(stderr, "perfex: '-e %s': too long for an event\n", arg);
		return -1;
	}
	if (p26_number("-e", arg, &s, &e.evntsel))
		return -1;
	if (*s == '/') {
		s++;
		if (p26_number("-e", arg, &s, &e.escr))
			return -1;
		e.has_escr = 1;
	}
	if (*s == '@') {
		s++;
		if (p26_number("-e", arg, &s, &e.pmc))
			return -1;
		e.has_pmc = 1;
	}
	if (*s) {
		fprintf(stderr,
			"perfex: '-e %s': not a perfctr 2.6 event: give EVNTSEL[/ESCR][@PMC], each a number in C syntax, e.g. 0x004100c0@0 (a name: perfex -l)\n",
			arg);
		return -1;
	}
	snprintf(e.text, sizeof(e.text), "%s", arg);
	o->ev26[o->n26++] = e;
	return 0;
}

/* --p4pe=N (@vert 0) or --p4pmv=N (@vert 1), and their long names. */
int p26_pebs(struct opts *o, int vert, const char *opt, const char *arg)
{
	const char *s = arg;
	__u32 v;

	if (p26_number(opt, arg, &s, &v))
		return -1;
	if (*s) {
		fprintf(stderr, "perfex: '%s %s': give one number, in C syntax\n",
			opt, arg);
		return -1;
	}
	if (vert) {
		o->p4pmv = v;
		o->has_p4pmv = 1;
	} else {
		o->p4pe = v;
		o->has_p4pe = 1;
	}
	return 0;
}

/* The rules over the whole command line; -1: a usage error, said. */
int p26_check_opts(const struct opts *o)
{
	unsigned int i, j, with_pmc = 0;

	if ((o->has_p4pe || o->has_p4pmv) && !o->n26) {
		fprintf(stderr,
			"perfex: --p4pe and --p4pmv go with perfctr 2.6 events (-e EVNTSEL[/ESCR][@PMC]); the P4's named replay events set PEBS_ENABLE and PEBS_MATRIX_VERT themselves (perfex -l -v)\n");
		return -1;
	}
	if (!o->n26)
		return 0;
	if (o->events[0]) {
		fprintf(stderr,
			"perfex: perfctr 2.6 events (-e %s) and perf's (-e %s) do not mix: give all as 2.6 events, or all in perf's syntax (rHEX for a raw event)\n",
			o->ev26[0].text, o->events);
		return -1;
	}
	for (i = 0; i < o->n26; i++)
		with_pmc += o->ev26[i].has_pmc;
	if (with_pmc && with_pmc != o->n26) {
		fprintf(stderr,
			"perfex: give @PMC on every perfctr 2.6 event or on none (then event n counts on counter n), as 2.6 asked\n");
		return -1;
	}
	for (i = 0; with_pmc && i < o->n26; i++)
		for (j = 0; j < i; j++)
			if (o->ev26[i].pmc == o->ev26[j].pmc) {
				fprintf(stderr,
					"perfex: '-e %s' and '-e %s' name the same counter: give each event a counter of its own\n",
					o->ev26[j].text, o->ev26[i].text);
				return -1;
			}
	return 0;
}

enum cpu_kind { CPU_OTHER, CPU_P4, CPU_AMD_HIGH };

/* From the CPU id (vendor-family-model-stepping, family in decimal). */
static enum cpu_kind cpu_kind(const char *id)
{
	const char *dash = strchr(id, '-');
	unsigned long family;

	if (!dash)
		return CPU_OTHER;	/* ppc32: a PVR */
	family = strtoul(dash + 1, NULL, 10);
	if (!strncmp(id, "GenuineIntel-", 13) && family == 15)
		return CPU_P4;
	if ((!strncmp(id, "AuthenticAMD-", 13) ||
	     !strncmp(id, "HygonGenuine-", 13)) && family >= 0x10)
		return CPU_AMD_HIGH;
	return CPU_OTHER;
}

int p26_plan(const struct opts *o, struct vperfctr_control *ctl,
	     struct perfctr_event_set *set)
{
	struct perfctr_cpu_control *c = &ctl->cpu_control;
	int need_id = o->has_p4pe || o->has_p4pmv;
	enum cpu_kind kind = CPU_OTHER;
	unsigned int i;
	char id[64] = "";

	for (i = 0; i < o->n26; i++)
		need_id |= o->ev26[i].has_escr;
	if (need_id) {
		if (o->cpuid) {
			snprintf(id, sizeof(id), "%s", o->cpuid);
		} else if (perfctr_cpuid(id, sizeof(id))) {
			fprintf(stderr,
				"perfex: cannot tell this CPU's id, which decides where /ESCR, --p4pe and --p4pmv go: give one with --cpuid=ID\n");
			return EX_FAIL;
		}
		kind = cpu_kind(id);
	}
	if ((o->has_p4pe || o->has_p4pmv) && kind != CPU_P4) {
		fprintf(stderr,
			"perfex: --p4pe and --p4pmv set the P4's PEBS_ENABLE and PEBS_MATRIX_VERT; this CPU (%s) is not a P4: drop them\n",
			id);
		return EX_USAGE;
	}
	memset(ctl, 0, sizeof(*ctl));
	memset(set, 0, sizeof(*set));
	c->tsc_on = 1;
	for (i = 0; i < o->n26; i++) {
		const struct ev26 *e = &o->ev26[i];

		if (e->has_escr && kind == CPU_OTHER) {
			fprintf(stderr,
				"perfex: '-e %s': /ESCR is the P4's ESCR, or on AMD family 10h and later EVNTSEL's high half; this CPU (%s) has neither: drop it\n",
				e->text, id);
			return EX_USAGE;
		}
		c->pmc_map[i] = e->has_pmc ? e->pmc : i;
		c->evntsel[i] = e->evntsel;
#ifndef __powerpc__
		if (kind == CPU_P4)
			c->p4.escr[i] = e->escr;
		else
			c->evntsel_high[i] = e->escr;
#endif
		snprintf(set->ev[i].text, sizeof(set->ev[i].text), "%s",
			 e->text);
		set->ev[i].counter = i;
	}
	c->nractrs = o->n26;
	set->nr = o->n26;
#ifndef __powerpc__
	c->p4.pebs_enable = o->p4pe;
	c->p4.pebs_matrix_vert = o->p4pmv;
#endif
	return 0;
}
