// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: controls, setups, sizes and offsets. Controls are
 * mutated from a corpus that starts with a few plain setups (on x86
 * Intel's and AMD's event-select layout: event in bits 0-7, USR bit 16,
 * OS 17, INT 20, EN 22, and a fixed counter's 4-bit field; on ppc32
 * PMCnSEL codes and MMCR0) and keeps every control a model accepted, so
 * each model's own valid space is explored.
 */
#include <signal.h>
#include <string.h>

#include "fuzz.h"

#define CORPUS_MAX	64
#define SEL_USR		0x00010000U
#define SEL_OS		0x00020000U
#define SEL_INT		0x00100000U
#define SEL_EN		0x00400000U

static struct perfctr_cpu_control corpus[CORPUS_MAX];
static unsigned int corpus_len;

static const __u32 boundary[] = {
	0, 1, 2, 3, 4, 7, 8, 15, 16, 17, 18, 19, 0x3f, 0x40, 0x7f, 0x80,
	0xff, 0x100, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe,
	0xffffffff,
#ifdef PERFCTR_X86_FIXED_PMC
	PERFCTR_X86_FIXED_PMC, PERFCTR_X86_FIXED_PMC | 1,
	PERFCTR_X86_FIXED_PMC | 3,
#endif
};

#ifdef __powerpc__
/*
 * ppc32: PMCnSEL codes the 604, 750 and 74xx share (PMC1 1: cycles, PMC2
 * 2: instructions completed), the MMCR0 bits of an overflow interrupt,
 * and ireset 100000 counts before PMCn's sign bit.
 */
static void seed_arch(void)
{
	struct perfctr_cpu_control *c = &corpus[corpus_len++];

	c->nractrs = 1;
	c->evntsel[0] = 1;
	c = &corpus[corpus_len++];
	c->tsc_on = 1;
	c->nractrs = 2;
	c->pmc_map[1] = 1;
	c->evntsel[0] = 1;
	c->evntsel[1] = 2;
	c = &corpus[corpus_len++];
	c->nrictrs = 1;
	c->evntsel[0] = 1;
	c->ireset[0] = 0x80000000 - 100000;
	c->ppc.mmcr0 = PERFCTR_PPC_MMCR0_PMXE | PERFCTR_PPC_MMCR0_PMC1CE;
}
#else
static void seed_arch(void)
{
	struct perfctr_cpu_control *c = &corpus[corpus_len++];

	c->tsc_on = 1;
	c->nractrs = 1;
	c->evntsel[0] = SEL_EN | SEL_USR | 0xc0;	/* instructions retired */
	c = &corpus[corpus_len++];
	c->nractrs = 2;
	c->pmc_map[1] = 1;
	c->evntsel[0] = SEL_EN | SEL_USR | SEL_OS | 0x76;	/* AMD cycles */
	c->evntsel[1] = SEL_EN | SEL_USR | 0xc0;
	c = &corpus[corpus_len++];
	c->nrictrs = 1;
	c->evntsel[0] = SEL_EN | SEL_INT | SEL_USR | 0xc0;
	c->ireset[0] = -100000;
#ifdef PERFCTR_X86_FIXED_PMC
	c = &corpus[corpus_len++];
	c->nractrs = 1;
	c->pmc_map[0] = PERFCTR_X86_FIXED_PMC;
	c->evntsel[0] = 2;	/* fixed counter 0 above CPL 0 */
#endif
}
#endif

static void seed_corpus(void)
{
	memset(corpus, 0, sizeof(corpus));
	corpus[0].tsc_on = 1;
	corpus_len = 1;
	seed_arch();
}

void gen_keep_cpu_control(const struct perfctr_cpu_control *c)
{
	unsigned int slot;

	if (!corpus_len)
		seed_corpus();
	slot = corpus_len < CORPUS_MAX ? corpus_len++ : rnd_below(CORPUS_MAX);
	corpus[slot] = *c;
}

static __u32 gen_value(__u32 old)
{
	switch (rnd_below(4)) {
	case 0:
		return old ^ (1U << rnd_below(32));
	case 1:
		return rnd_pick(boundary, ARRAY_SIZE(boundary));
	case 2:
		return old + rnd_below(5) - 2;
	default:
		return rnd_u32();
	}
}

/* The control as an array of words; every word is fair game. */
static void mutate(struct perfctr_cpu_control *c)
{
	__u32 *w = (__u32 *)c;
	size_t n = sizeof(*c) / sizeof(*w);
	unsigned int k = 1 + rnd_below(3);
	size_t i;

	while (k--) {
		/* Mostly the counts and the first counters' words. */
		if (rnd_below(3) == 0)
			i = rnd_below(3);
		else
			i = rnd_below(n);
		w[i] = gen_value(w[i]);
	}
}

void gen_cpu_control(struct perfctr_cpu_control *c)
{
	if (!corpus_len)
		seed_corpus();
	if (rnd_below(16) == 0) {
		rnd_fill(c, sizeof(*c));
		return;
	}
	*c = corpus[rnd_below(corpus_len)];
	if (rnd_below(8))
		mutate(c);
}

/* Signals the fuzzer ignores, mostly, and numbers beyond any signal. */
__u32 gen_signo(void)
{
	const __u32 ok[] = { 0, SIGUSR1, SIGUSR2, SIGRTMAX };
	const __u32 bad[] = { SIGRTMAX + 1, 128, 0xffffffff };

	if (rnd_below(4))
		return rnd_pick(ok, ARRAY_SIZE(ok));
	return rnd_pick(bad, ARRAY_SIZE(bad));
}

void gen_vcontrol(struct vperfctr_control *vc)
{
	const __u32 flags[] = { 0, 0, VPERFCTR_CONTROL_CLOEXEC,
				   VPERFCTR_CONTROL_INHERIT, 3, 4, 6, 7, 8,
				   0x80000000 };

	memset(vc, 0, sizeof(*vc));
	gen_cpu_control(&vc->cpu_control);
	vc->si_signo = gen_signo();
	vc->preserve = rnd_below(2) ? 0 : rnd_u32();
	vc->flags = rnd_pick(flags, ARRAY_SIZE(flags));
	vc->label = rnd_below(2) ? 0 : rnd_u32();
	if (rnd_below(16) == 0)
		vc->_reserved[rnd_below(ARRAY_SIZE(vc->_reserved))] =
			1U << rnd_below(32);
}

/*
 * A setup as amd.rst describes a valid one (a count, a multiple of 16 in
 * range, for each kind of sampling asked for, 0 for the other; a ring of
 * a power of two pages), so that rings exist to fuzz; then, sometimes,
 * one field changed.
 */
static void gen_ibs_valid(struct perfctr_ibs_control *ic)
{
	const __u32 pages[] = { 0, 1, 2, 8 };
	__u32 *w = (__u32 *)ic;

	ic->flags = rnd_below(2) ? PERFCTR_IBS_OP : PERFCTR_IBS_FETCH;
	ic->flags |= rnd_below(PERFCTR_IBS_FLAGS + 1) &
		     (PERFCTR_IBS_FETCH_RAND | PERFCTR_IBS_OP_CNT_OPS |
		      PERFCTR_IBS_KERNEL | PERFCTR_IBS_PHYS);
	if (ic->flags & PERFCTR_IBS_FETCH)
		ic->fetch_maxcnt = PERFCTR_IBS_MIN_USER;
	if (ic->flags & PERFCTR_IBS_OP)
		ic->op_maxcnt = PERFCTR_IBS_MIN_USER;
	ic->si_signo = gen_signo();
	ic->ring_pages = rnd_pick(pages, ARRAY_SIZE(pages));
	if (rnd_below(4) == 0)
		w[rnd_below(sizeof(*ic) / sizeof(*w))] = gen_value(0);
}

void gen_ibs(struct perfctr_ibs_control *ic)
{
	const __u32 cnt[] = { 0, 0x10, 0x18, 0x1000, 0x10000, 0x10010,
				 PERFCTR_IBS_MAX, PERFCTR_IBS_MAX + 0x10,
				 PERFCTR_IBS_MAX_EXT, PERFCTR_IBS_MAX_EXT + 0x10,
				 0xfffffff0 };
	const __u32 pages[] = { 0, 1, 2, 3, 8, 16, PERFCTR_IBS_RING_MAX,
				   PERFCTR_IBS_RING_MAX * 2, 0xffffffff };

	memset(ic, 0, sizeof(*ic));
	if (rnd_below(2)) {
		gen_ibs_valid(ic);
		return;
	}
	ic->flags = rnd_below(8) ? rnd_below(PERFCTR_IBS_FLAGS + 1) :
		    1U << rnd_below(32);
	ic->si_signo = gen_signo();
	ic->fetch_maxcnt = rnd_pick(cnt, ARRAY_SIZE(cnt));
	ic->op_maxcnt = rnd_pick(cnt, ARRAY_SIZE(cnt));
	ic->ring_pages = rnd_pick(pages, ARRAY_SIZE(pages));
	if (rnd_below(16) == 0)
		ic->_reserved[rnd_below(3)] = 1;
}

/* Sizes around the exact one; exact most often. */
__u32 gen_size(size_t exact)
{
	const __u32 v[] = { 0, 1, 3, 4, 5, 7, 8, 151, 152, 153, 427, 428,
			       429, 4095, 4096, 4097 };

	switch (rnd_below(4)) {
	case 0:
	case 1:
		return exact;
	case 2:
		return exact + rnd_below(3) - 1;
	default:
		return rnd_pick(v, ARRAY_SIZE(v));
	}
}

off_t gen_offset(size_t exact)
{
	const off_t v[] = { 1, 4, 8, 151, 152, 427, 428, 4096, 0x7fffffff,
			    -1 };

	if (rnd_below(2))
		return 0;
	if (rnd_below(2))
		return exact;
	return v[rnd_below(ARRAY_SIZE(v))];
}
