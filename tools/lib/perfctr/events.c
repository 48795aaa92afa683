// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libperfctr: named events. The CPU id, the table it picks, listing,
 * perf's event syntax, and encoding a list of events into one
 * vperfctr_control, each event on a counter it may use
 * (Documentation/perfctr/events.rst).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libperfctr.h"
#include "pmu-events.h"
#include "events.h"

#define STR(off)	(pe_strings + (off))

struct perfctr_event_table {
	struct pe_table t;
};

static const char *const generic_names[] = {
	"cycles", "instructions", "branches", "branch-misses",
	"cache-references", "cache-misses", "bus-cycles", "ref-cycles",
};

static int is_ppc(unsigned int layout)
{
	return layout >= PE_LAYOUT_PPC604;
}

/* The CPU id */

int perfctr_cpuid(char *buf, size_t size)
{
	const char *env = getenv("PERFCTR_CPUID");
	struct perfctr_info info;

	if (env && *env) {
		snprintf(buf, size, "%s", env);
		return 0;
	}
	if (!perfctr_info(&info) && info.cpuid[0]) {
		snprintf(buf, size, "%s", info.cpuid);
		return 0;
	}
	return arch_cpuid(buf, size);
}

/* Tables */

/* A mapfile row matches all of @id, or (x86) all of it but -Stepping. */
static int row_matches(const char *re_text, const char *id)
{
	char anchored[512], bare[64];
	const char *dash;
	regex_t re;
	int hit;

	snprintf(anchored, sizeof(anchored), "^(%s)$", re_text);
	if (regcomp(&re, anchored, REG_EXTENDED | REG_NOSUB | REG_ICASE))
		return 0;
	hit = !regexec(&re, id, 0, NULL, 0);
	dash = strchr(id, '-');
	dash = dash ? strchr(dash + 1, '-') : NULL;
	dash = dash ? strchr(dash + 1, '-') : NULL;
	if (!hit && dash && (size_t)(dash - id) < sizeof(bare)) {
		snprintf(bare, sizeof(bare), "%.*s", (int)(dash - id), id);
		hit = !regexec(&re, bare, 0, NULL, 0);
	}
	regfree(&re);
	return hit;
}

const struct perfctr_event_table *perfctr_event_table(const char *cpuid)
{
	unsigned int i;

	for (i = 0; i < pe_nr_map; i++)
		if (row_matches(STR(pe_map[i].cpuid), cpuid))
			return (const void *)&pe_tables[pe_map[i].table];
	errno = ENOENT;
	return NULL;
}

const char *perfctr_event_table_name(const struct perfctr_event_table *t)
{
	return STR(t->t.name);
}

int perfctr_event_table_imported(const struct perfctr_event_table *t)
{
	return t->t.imported;
}

/* Listing */

static const char *unsupported(const struct pe_event *e)
{
	const char *why = e->aux ? STR(pe_aux[e->aux].unsupported) : "";

	return *why ? why : NULL;
}

static uint32_t p4_counters(uint64_t escrs)
{
	uint32_t ctrs = 0;
	unsigned int i;

	for (i = 0; i < pe_nr_escrs; i++)
		if (escrs & (1ULL << i))
			ctrs |= pe_escrs[i].counters;
	return ctrs;
}

static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

/* "0,1", "PMC1,PMC2", "fixed 0" */
static void format_counters(char *buf, size_t size, unsigned int layout,
			    uint32_t ctrs, unsigned int fixed)
{
	unsigned int n;

	buf[0] = '\0';
	for (n = 0; n < 32; n++)
		if (ctrs & (1U << n))
			append(buf, size, is_ppc(layout) ? "%sPMC%u" : "%s%u",
			       buf[0] ? "," : "", is_ppc(layout) ? n + 1 : n);
	for (n = 0; n < 8; n++)
		if (fixed & (1U << n))
			append(buf, size, "%sfixed %u", buf[0] ? "," : "", n);
}

static void format_escrs(char *buf, size_t size, uint64_t escrs)
{
	unsigned int i;
	int first = 1;

	for (i = 0; i < pe_nr_escrs; i++)
		if (escrs & (1ULL << i)) {
			append(buf, size, "%s%s", first ? "escr=" : "|",
			       STR(pe_escrs[i].name));
			first = 0;
		}
	append(buf, size, ",");
}

static void event_info(const struct pe_table *t, const struct pe_event *e,
		       struct perfctr_event_info *info)
{
	uint64_t escrs = e->aux ? pe_aux[e->aux].escrs : 0;
	unsigned int g;

	memset(info, 0, sizeof(*info));
	info->name = STR(e->name);
	info->desc = STR(e->desc);
	info->unsupported = unsupported(e);
	if (t->layout == PE_LAYOUT_P4)
		format_escrs(info->encoding, sizeof(info->encoding), escrs);
	append(info->encoding, sizeof(info->encoding), "event=0x%x", e->code);
	if (e->umask || pe_layouts[t->layout].umask_bits)
		append(info->encoding, sizeof(info->encoding), ",umask=0x%x",
		       e->umask);
	if (e->cmask)
		append(info->encoding, sizeof(info->encoding), ",cmask=%u",
		       e->cmask);
	if (e->flags & PE_INV)
		append(info->encoding, sizeof(info->encoding), ",inv");
	if (e->flags & PE_EDGE)
		append(info->encoding, sizeof(info->encoding), ",edge");
	if (e->flags & PE_DURATION)
		append(info->encoding, sizeof(info->encoding), ",duration");
	format_counters(info->counters, sizeof(info->counters), t->layout,
			t->layout == PE_LAYOUT_P4 ? p4_counters(escrs) :
			e->counters, e->fixed);
	for (g = 0; g < 8; g++)
		if (e->generic & (1U << g))
			append(info->generic, sizeof(info->generic), "%s%s",
			       info->generic[0] ? "," : "", generic_names[g]);
}

int perfctr_event_list(const struct perfctr_event_table *tab, const char *glob,
		       int (*fn)(const struct perfctr_event_info *, void *),
		       void *arg)
{
	const struct pe_table *t = &tab->t;
	struct perfctr_event_info info;
	unsigned int i;
	int ret;

	for (i = t->first; i < t->first + t->count; i++) {
		const struct pe_event *e = &pe_events[i];

		/* A name on several counters with several codes: once. */
		if (i > t->first && e->name == pe_events[i - 1].name)
			continue;
		if (glob && fnmatch(glob, STR(e->name), FNM_CASEFOLD))
			continue;
		event_info(t, e, &info);
		ret = fn(&info, arg);
		if (ret)
			return ret;
	}
	return 0;
}

int perfctr_metric_list(const struct perfctr_event_table *tab,
			const char *glob,
			int (*fn)(const struct perfctr_metric_info *, void *),
			void *arg)
{
	const struct pe_table *t = &tab->t;
	struct perfctr_metric_info info;
	unsigned int i;
	int ret;

	for (i = t->metric_first; i < t->metric_first + t->metric_count; i++) {
		const struct pe_metric *m = &pe_metrics[i];

		if (glob && fnmatch(glob, STR(m->name), FNM_CASEFOLD))
			continue;
		info.name = STR(m->name);
		info.group = STR(m->group);
		info.desc = STR(m->desc);
		info.expr = STR(m->expr);
		info.scale_unit = STR(m->unit);
		info.unsupported = *STR(m->unsupported) ?
				   STR(m->unsupported) : NULL;
		ret = fn(&info, arg);
		if (ret)
			return ret;
	}
	return 0;
}

/* One event of a list, as parsed (struct pe_req, events.h) */

struct ctx {
	const struct pe_table *t;
	const struct pe_layout_info *lay;
	struct perfctr_event_set *set;
	struct pe_req req[PERFCTR_NR_PMCS];
	unsigned int nr;
};

static int fail(struct ctx *c, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->set->error, sizeof(c->set->error), fmt, ap);
	va_end(ap);
	errno = err;
	return -1;
}

static int edit_distance(const char *a, const char *b)
{
	int row[64], i, j, prev, tmp, la = strlen(a), lb = strlen(b);

	if (la > 63 || lb > 63)
		return INT_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			tmp = row[j];
			row[j] = prev + (tolower((unsigned char)a[i - 1]) !=
					 tolower((unsigned char)b[j - 1]));
			if (row[j - 1] + 1 < row[j])
				row[j] = row[j - 1] + 1;
			if (tmp + 1 < row[j])
				row[j] = tmp + 1;
			prev = tmp;
		}
	}
	return row[lb];
}

/* The three names nearest @name, for an unknown event's message. */
static void nearest(const struct pe_table *t, const char *name, char *buf,
		    size_t size)
{
	uint32_t best[3] = { 0, 0, 0 };
	int dist[3] = { INT_MAX, INT_MAX, INT_MAX }, d, k;
	unsigned int i;

	for (i = t->first; i < t->first + t->count; i++) {
		uint32_t n = pe_events[i].name;

		d = edit_distance(name, STR(n));
		if (strcasestr(STR(n), name))
			d = d / 2;
		for (k = 0; k < 3; k++)
			if (n == best[k])
				d = INT_MAX;
		for (k = 0; k < 3 && d != INT_MAX; k++)
			if (d < dist[k]) {
				memmove(&dist[k + 1], &dist[k],
					(2 - k) * sizeof(dist[0]));
				memmove(&best[k + 1], &best[k],
					(2 - k) * sizeof(best[0]));
				dist[k] = d;
				best[k] = n;
				break;
			}
	}
	buf[0] = '\0';
	for (k = 0; k < 3; k++)
		if (dist[k] != INT_MAX)
			append(buf, size, "%s%s", k ? ", " : "", STR(best[k]));
}

/* Every entry of @name (several on ppc32), or the generic name's. */
static unsigned int find_events(const struct pe_table *t, const char *name,
				const struct pe_event **out, unsigned int max)
{
	unsigned int i, n = 0, g;

	for (i = t->first; i < t->first + t->count && n < max; i++)
		if (!strcasecmp(STR(pe_events[i].name), name))
			out[n++] = &pe_events[i];
	if (n)
		return n;
	for (g = 0; g < 8; g++)
		if (!strcasecmp(generic_names[g], name))
			break;
	for (i = t->first; g < 8 && i < t->first + t->count && n < max; i++)
		if (pe_events[i].generic & (1U << g))
			out[n++] = &pe_events[i];
	return n;
}

static int take_events(struct ctx *c, struct pe_req *r, const char *name)
{
	const struct pe_event *ev[8];
	unsigned int n, i, pmc;
	const char *why;
	char near[256];

	n = find_events(c->t, name, ev, 8);
	if (!n) {
		nearest(c->t, name, near, sizeof(near));
		return fail(c, ENOENT, "'%s': no such event for this CPU (table %s).%s%s%s\n"
			    "'perfex -l' lists them all.", name, STR(c->t->name),
			    near[0] ? " Did you mean " : "", near, near[0] ? "?" : "");
	}
	why = unsupported(ev[0]);
	if (why)
		return fail(c, EOPNOTSUPP, "'%s' cannot be counted by perfctr: %s.",
			    STR(ev[0]->name), why);
	r->code = ev[0]->code;
	r->umask = ev[0]->umask;
	r->cmask = ev[0]->cmask;
	r->inv = !!(ev[0]->flags & PE_INV);
	r->edge = !!(ev[0]->flags & PE_EDGE);
	r->duration = !!(ev[0]->flags & PE_DURATION);
	r->fixed = ev[0]->fixed;
	if (ev[0]->aux) {
		r->escrs = pe_aux[ev[0]->aux].escrs;
		r->pebs_enable = pe_aux[ev[0]->aux].pebs_enable;
		r->pebs_matrix_vert = pe_aux[ev[0]->aux].pebs_matrix_vert;
	}
	r->counters = 0;		/* the event's, not cpu//'s default */
	for (i = 0; i < n; i++) {
		r->counters |= ev[i]->counters;
		for (pmc = 0; pmc < 8; pmc++)
			if (ev[i]->counters & (1U << pmc))
				r->pmc_code[pmc] = ev[i]->code;
	}
	return 0;
}

static int parse_number(const char *s, unsigned long long *val)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	*val = strtoull(s, &end, 0);
	return errno || *end ? -1 : 0;
}

static int find_escr(const char *name)
{
	unsigned int i;

	for (i = 0; i < pe_nr_escrs; i++)
		if (!strcasecmp(STR(pe_escrs[i].name), name))
			return i;
	return -1;
}

/*
 * perf's modifier letters: "u", "k" (the modes), "G", "H" (guest or host
 * only, AMD), in any combination; anything else is not a mode word.
 */
static int mode_word(struct pe_req *r, const char *w)
{
	unsigned int modes = 0;

	if (!*w || strspn(w, "ukGH") != strlen(w))
		return 0;
	if (strchr(w, 'u'))
		modes |= PERFCTR_EVENT_USER;
	if (strchr(w, 'k'))
		modes |= PERFCTR_EVENT_KERNEL;
	if (strchr(w, 'G'))
		r->guest = 1;
	if (strchr(w, 'H'))
		r->host = 1;
	r->modes |= modes;
	if (modes)
		r->explicit_modes = 1;
	return 1;
}

/* The flags a term may give without a value: never an event's name. */
static int flag_word(const char *w)
{
	static const char *const flags[] = {
		"inv", "edge", "i", "e", "g", "h", NULL
	};
	unsigned int i;

	for (i = 0; flags[i]; i++)
		if (!strcmp(w, flags[i]))
			return 1;
	return 0;
}

static int has_guest_host(unsigned int layout)
{
	return layout == PE_LAYOUT_AMD10H || layout == PE_LAYOUT_AMDZEN;
}

static int bad_term(struct ctx *c, struct pe_req *r, const char *term,
		    const char *why)
{
	const char *more = c->t->layout == PE_LAYOUT_P4 ? ", escr=" :
		is_ppc(c->t->layout) ? ", pmc=, thresh=" : "";
	const char *mods = has_guest_host(c->t->layout) ? ", :G, :H" : "";

	return fail(c, EINVAL,
		    "'%s': %s '%s'. Terms: event=, umask=, cmask=, inv, edge%s; modifiers :u, :k%s.",
		    r->text, why, term, more, mods);
}

static int set_field(struct ctx *c, struct pe_req *r, const char *key,
		     unsigned long long v, const char *term)
{
	const struct pe_layout_info *l = c->lay;

	if (!strcmp(key, "event")) {
		if (v >> l->code_bits)
			return bad_term(c, r, term, "this CPU's event select is narrower than");
		r->code = v;
	} else if (!strcmp(key, "umask")) {
		if (v >> l->umask_bits)
			return bad_term(c, r, term, "this CPU's unit mask is narrower than");
		r->umask = v;
	} else if (!strcmp(key, "cmask") || !strcmp(key, "c")) {
		if (v > l->cmask_max)
			return bad_term(c, r, term, "this CPU's counter mask is narrower than");
		r->cmask = v;
	} else if (!strcmp(key, "inv") || !strcmp(key, "i")) {
		if (v > 1)
			return bad_term(c, r, term, "want 0 or 1 in");
		if (v && !l->cmask_max)
			return bad_term(c, r, term, "this CPU has no");
		r->inv = v;
	} else if (!strcmp(key, "edge") || !strcmp(key, "e")) {
		if (v > 1)
			return bad_term(c, r, term, "want 0 or 1 in");
		if (v && !l->cmask_max)
			return bad_term(c, r, term, "this CPU has no");
		r->edge = v;
	} else if (!strcmp(key, "g") || !strcmp(key, "h")) {
		/* libpfm's guest and host modifiers; checked in check_modes. */
		if (v > 1)
			return bad_term(c, r, term, "want 0 or 1 in");
		if (key[0] == 'g')
			r->guest = v;
		else
			r->host = v;
	} else if (!strcmp(key, "thresh") && is_ppc(c->t->layout)) {
		if (v > 63)
			return bad_term(c, r, term, "MMCR0's threshold is 0-63, not");
		r->thresh = v;
		r->has_thresh = 1;
	} else if (!strcmp(key, "pmc") && is_ppc(c->t->layout)) {
		if (!v || !(l->counters & (1U << (v - 1))))
			return bad_term(c, r, term, "no such PMC here:");
		r->counters &= 1U << (v - 1);
	} else {
		return bad_term(c, r, term, "unknown term");
	}
	return 0;
}

/*
 * perf's precise modifiers ask where a sample was taken; perfctr counts
 * and does not sample, so they are refused rather than taken as unknown.
 */
static int precise_word(struct ctx *c, struct pe_req *r, const char *w)
{
	if (!*w || strspn(w, "ukGHpP") != strlen(w) || !strpbrk(w, "pP"))
		return 0;
	return fail(c, EOPNOTSUPP,
		    "'%s': :p asks for precise sampling (PEBS, IBS); perfctr counts events and does not sample them, so drop :p. For AMD's IBS samples see perfex --ibs-op (amd.rst).",
		    r->text);
}

/* perf's name=: what the row is called in place of the event's text. */
static int set_name(struct ctx *c, struct pe_req *r, const char *name)
{
	const char *s;

	if (!*name || strlen(name) >= sizeof(r->name))
		return fail(c, EINVAL,
			    "'%s': name= wants 1 to %zu characters.",
			    r->text, sizeof(r->name) - 1);
	for (s = name; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f || strchr("\"/,", *s))
			return fail(c, EINVAL,
				    "'%s': name= takes no blanks, quotes, '/', ',' or control characters.",
				    r->text);
	strcpy(r->name, name);
	return 0;
}

/* One term or modifier: key=value, a flag, a mode word or a name. */
static int parse_term(struct ctx *c, struct pe_req *r, char *term, int *named,
		      int allow_name)
{
	char *eq = strchr(term, '=');
	unsigned long long v = 1;
	int i;

	if (!eq && mode_word(r, term))
		return 0;
	if (!eq && precise_word(c, r, term))
		return -1;
	if (eq) {
		*eq = '\0';
		if (!strcmp(term, "name"))
			return set_name(c, r, eq + 1);
		if (!strcmp(term, "escr") && c->t->layout == PE_LAYOUT_P4) {
			i = find_escr(eq + 1);
			if (i < 0)
				return bad_term(c, r, eq + 1, "no such ESCR:");
			r->escrs = 1ULL << i;
			return 0;
		}
		if (parse_number(eq + 1, &v))
			return bad_term(c, r, eq + 1, "not a number:");
	} else if (allow_name && !*named && !flag_word(term)) {
		*named = 1;
		return take_events(c, r, term);
	}
	return set_field(c, r, term, v, term);
}

/* rHEX: perf's raw config, AMD's event bits 11:8 at bits 35:32. */
static int parse_raw(struct ctx *c, struct pe_req *r, const char *hex)
{
	unsigned long long cfg;
	char *end;

	errno = 0;
	cfg = strtoull(hex, &end, 16);
	if (errno || end == hex || (*end && *end != ':'))
		return fail(c, EINVAL,
			"'%s': a raw event is r and hex digits, e.g. r00c0.",
			r->text);
	r->counters = c->lay->counters;
	return arch_raw(c->t->layout, cfg, r) ? fail(c, EINVAL,
		"'%s': this raw value does not fit this CPU's event select (see events.rst, raw events).",
		r->text) : 0;
}

/* :-separated modifiers and terms after a name or cpu/.../; no names. */
static int parse_mods(struct ctx *c, struct pe_req *r, char *mods)
{
	char *save = NULL, *w;
	int named = 1;

	for (w = strtok_r(mods, ":", &save); w; w = strtok_r(NULL, ":", &save))
		if (parse_term(c, r, w, &named, 0))
			return -1;
	return 0;
}

/* ppc32: an event= or raw code goes only where its PMCnSEL has room. */
static void ppc_fit(struct pe_req *r)
{
	static const unsigned int bits[8] = { 7, 6, 5, 5, 5, 6, 0, 0 };
	unsigned int n;

	for (n = 0; n < 8; n++) {
		r->pmc_code[n] = r->code;
		if (r->code >> bits[n])
			r->counters &= ~(1U << n);
	}
}

/*
 * Zen's large-increment event (0x003) needs the Merge event (0xFFF)
 * beside it (amd.rst, "Counter pairs"): libperfctr places both, so Merge
 * alone is no request.
 */
static int zen_pair(struct ctx *c, struct pe_req *r)
{
	if (c->t->layout != PE_LAYOUT_AMDZEN)
		return 0;
	if (r->code == PE_ZEN_MERGE)
		return fail(c, EINVAL,
			"'%s': the Merge event counts nothing alone; ask for the large-increment event (0x003), and its Merge is placed beside it.",
			r->text);
	r->pair = r->code == PE_ZEN_LARGE;
	return 0;
}

static int parse_req(struct ctx *c, struct pe_req *r, unsigned int modes)
{
	char buf[128], *p = buf, *slash, *colon, *save = NULL, *w;
	const struct pe_event *ev;
	int named = 0;

	snprintf(buf, sizeof(buf), "%s", r->text);
	r->escr = -1;
	r->counters = 0;
	if (strstr(p, "::"))		/* libpfm's pmu::name */
		p = strstr(p, "::") + 2;
	slash = strchr(p, '/');
	if (slash) {
		char *end = strrchr(p, '/');

		*slash = '\0';
		if (end == slash || strcmp(p, "cpu"))
			return fail(c, EINVAL,
				"'%s': want cpu/terms/[modifiers]: the PMU is 'cpu'.",
				r->text);
		*end = '\0';
		r->counters = c->lay->counters;
		for (w = strtok_r(slash + 1, ",", &save); w;
		     w = strtok_r(NULL, ",", &save))
			if (parse_term(c, r, w, &named, 1))
				return -1;
		if (*(end + 1) && parse_mods(c, r, end + 1))
			return -1;
	} else {
		colon = strchr(p, ':');
		if (colon)
			*colon++ = '\0';
		if (p[0] == 'r' && isxdigit((unsigned char)p[1]) &&
		    !find_events(c->t, p, &ev, 1)) {
			if (parse_raw(c, r, p + 1))
				return -1;
		} else {
			if (take_events(c, r, p))
				return -1;
			named = 1;
		}
		if (colon && parse_mods(c, r, colon))
			return -1;
	}
	if (!r->explicit_modes)
		r->modes = modes;
	if (is_ppc(c->t->layout) && !named)
		ppc_fit(r);
	return zen_pair(c, r);
}

/* Counter assignment: exact, by backtracking; never multiplexing. */

static int option_ok(struct ctx *c, unsigned int k, unsigned int pmc, int escr)
{
	unsigned int i;

	for (i = 0; i < k; i++)
		if (c->req[i].pmc == pmc ||
		    (c->req[i].pair && c->req[i].pmc + 1 == pmc) ||
		    (escr >= 0 && c->req[i].escr == escr))
			return 0;
	return 1;
}

/*
 * A large-increment event (amd.rst, "Counter pairs") takes an even
 * counter and the odd one above it, where arch_encode() puts Merge.
 */
static int pair_ok(struct ctx *c, unsigned int k, unsigned int n)
{
	return !(n & 1) && (c->lay->counters & (1U << (n + 1))) &&
	       option_ok(c, k, n + 1, -1);
}

static int assign(struct ctx *c, unsigned int k)
{
	struct pe_req *r = &c->req[k];
	unsigned int n, e;

	if (k == c->nr)
		return 0;
	/* Fixed counters first; they have no counter mask, inv or edge. */
	for (n = 0; n < 4 && !r->cmask && !r->inv && !r->edge; n++)
		if ((r->fixed & (1U << n)) &&
		    option_ok(c, k, PERFCTR_ARCH_FIXED(n), -1)) {
			r->pmc = PERFCTR_ARCH_FIXED(n);
			if (!assign(c, k + 1))
				return 0;
		}
	if (c->t->layout == PE_LAYOUT_P4) {
		for (e = 0; e < pe_nr_escrs; e++)
			for (n = 0; (r->escrs & (1ULL << e)) && n < 18; n++)
				if ((pe_escrs[e].counters & (1U << n)) &&
				    option_ok(c, k, n, e)) {
					r->pmc = n;
					r->escr = e;
					if (!assign(c, k + 1))
						return 0;
				}
		r->escr = -1;
		return -1;
	}
	for (n = 0; n < 31; n++)
		if ((r->counters & c->lay->counters & (1U << n)) &&
		    option_ok(c, k, n, -1) && (!r->pair || pair_ok(c, k, n))) {
			r->pmc = n;
			if (!assign(c, k + 1))
				return 0;
		}
	return -1;
}

static int no_fit(struct ctx *c)
{
	char where[64];
	unsigned int i;
	int n;

	n = snprintf(c->set->error, sizeof(c->set->error),
		     "these events do not fit this CPU's counters at once (table %s):",
		     STR(c->t->name));
	for (i = 0; i < c->nr; i++) {
		const struct pe_req *r = &c->req[i];

		format_counters(where, sizeof(where), c->t->layout,
				c->t->layout == PE_LAYOUT_P4 ?
				p4_counters(r->escrs) : r->counters, r->fixed);
		n += snprintf(c->set->error + n, sizeof(c->set->error) - n,
			      "\n  %s may use counter%s %s%s", r->text,
			      strchr(where, ',') ? "s" : "", where,
			      r->pair ? " (an even one, and the next for its Merge)" : "");
		if ((size_t)n >= sizeof(c->set->error))
			break;
	}
	if ((size_t)n < sizeof(c->set->error))
		snprintf(c->set->error + n, sizeof(c->set->error) - n,
			 "\nCount fewer events at once, or run again for the rest.");
	errno = ENOSPC;
	return -1;
}

/* One event of the list, @start to @end, into c->req. */
static int add_req(struct ctx *c, const char *list, const char *start,
		   const char *end)
{
	size_t len = end - start;

	if (!len)
		return fail(c, EINVAL, "'%s': an empty event in the list.", list);
	if (c->nr == PERFCTR_NR_PMCS)
		return fail(c, ENOSPC,
			    "more than %d events: no CPU has that many counters.",
			    PERFCTR_NR_PMCS);
	if (len >= sizeof(c->req[0].text))
		return fail(c, EINVAL, "'%.40s...': too long.", start);
	memset(&c->req[c->nr], 0, sizeof(c->req[0]));
	memcpy(c->req[c->nr].text, start, len);
	c->nr++;
	return 0;
}

/*
 * After a group's '}': nothing, or ":MODS", which each member of the
 * group (from c->req[first]) takes as if written after it, as in perf.
 * *@p is left on the ',' or the end that follows.
 */
static int group_mods(struct ctx *c, const char *list, unsigned int first,
		      const char **p)
{
	size_t len = strcspn(*p, ",");
	unsigned int i;

	if (**p && **p != ',' && (**p != ':' || len < 2))
		return fail(c, EINVAL,
			    "'%s': a group's '}' is followed by ':modifiers', a comma or the end.",
			    list);
	for (i = first; i < c->nr && len; i++) {
		size_t have = strlen(c->req[i].text);

		if (have + len >= sizeof(c->req[i].text))
			return fail(c, EINVAL, "'%.40s...': too long.",
				    c->req[i].text);
		memcpy(c->req[i].text + have, *p, len);
		c->req[i].text[have + len] = '\0';
	}
	*p += len;
	return 0;
}

/*
 * Splits @list at commas outside cpu/.../. perf's groups, {a,b}:MODS,
 * are taken as their members: every list is counted as one group.
 */
static int split(struct ctx *c, const char *list)
{
	const char *p = list, *start = list;
	int in_slash = 0, group = -1;	/* its first member, or -1 */

	for (;; p++) {
		if (*p == '/') {
			in_slash = !in_slash;
		} else if (*p == '{' && !in_slash) {
			if (group >= 0 || p != start)
				return fail(c, EINVAL,
					    "'%s': a '{' inside an event or a group; groups do not nest.",
					    list);
			group = c->nr;
			start = p + 1;
			continue;
		} else if (*p == '}' && !in_slash) {
			if (group < 0)
				return fail(c, EINVAL, "'%s': a '}' without its '{'.", list);
			p++;
			if (add_req(c, list, start, p - 1) ||
			    group_mods(c, list, group, &p))
				return -1;
			group = -1;
			if (!*p)
				return 0;
			start = p + 1;
			continue;
		}
		if ((*p == ',' && !in_slash) || !*p) {
			if (!*p && group >= 0)
				return fail(c, EINVAL, "'%s': a '{' without its '}'.", list);
			if (add_req(c, list, start, p))
				return -1;
			start = p + 1;
		}
		if (!*p)
			return 0;
	}
}

static int check_modes(struct ctx *c, struct pe_req *r)
{
	if (!r->modes)
		return fail(c, EINVAL, "'%s': counts in no mode; give :u, :k or neither.", r->text);
	if (!c->lay->modes && r->explicit_modes)
		return fail(c, EOPNOTSUPP,
			"'%s': this CPU's counters count user and kernel mode alike; drop :u or :k.",
			    r->text);
	if ((r->guest || r->host) && !has_guest_host(c->t->layout))
		return fail(c, EOPNOTSUPP,
			"'%s': this CPU cannot count guest or host alone (AMD family 10h and later can); drop :G, :H (g, h).",
			    r->text);
	if (c->t->layout == PE_LAYOUT_P4 && !r->escrs)
		return fail(c, EINVAL,
			"'%s': on the P4 name the ESCR too (escr=NAME, see p4-escrs.csv).",
			r->text);
	return 0;
}

int perfctr_event_encode(const struct perfctr_event_table *tab,
			 const char *events, unsigned int modes,
			 struct vperfctr_control *ctl,
			 struct perfctr_event_set *set)
{
	struct ctx *c = calloc(1, sizeof(*c));
	struct vperfctr_control out;
	unsigned int i;
	int ret = -1;

	memset(set, 0, sizeof(*set));
	if (!c) {
		snprintf(set->error, sizeof(set->error), "out of memory");
		return -1;
	}
	c->t = &tab->t;
	c->lay = &pe_layouts[c->t->layout];
	c->set = set;
	if (split(c, events))
		goto out;
	for (i = 0; i < c->nr; i++)
		if (parse_req(c, &c->req[i], modes) ||
		    check_modes(c, &c->req[i]))
			goto out;
	if (assign(c, 0)) {
		no_fit(c);
		goto out;
	}
	memset(&out, 0, sizeof(out));
	out.cpu_control.tsc_on = 1;
	if (arch_encode(c->t->layout, c->req, c->nr, &out.cpu_control,
			set->error, sizeof(set->error)))
		goto out;
	set->nr = c->nr;
	for (i = 0; i < c->nr; i++) {
		snprintf(set->ev[i].text, sizeof(set->ev[i].text), "%s",
			 c->req[i].name[0] ? c->req[i].name : c->req[i].text);
		set->ev[i].counter = i;
	}
	*ctl = out;
	ret = 0;
out:
	free(c);
	return ret;
}
