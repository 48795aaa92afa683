// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: Intel Pentium 4 and NetBurst Xeon, with Hyper-Threading.
 *
 * 18 counters (MSR 0x300+n), each with a CCCR (0x360+n) that the
 * counter's evntsel[] programs. The CCCR's ESCR_SELECT picks one of the
 * ESCRs shared by the counter's pair; p4.escr[] programs that ESCR. The
 * ESCR's MSR is looked up once, at update_control, and kept in
 * p4_escr_map[]. With Hyper-Threading both threads of a core share all
 * of these registers, so only thread 0 of each core may use them
 * (perfctr_cpus_forbidden_mask); thread 1 is counted through the T1 bits
 * by global-mode counters only.
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/string.h>

#include "x86.h"

#define P4_CCCR0		0x360
#define P4_COUNTER0		0x300
#define P4_PEBS_ENABLE		0x3F1
#define P4_PEBS_MATRIX_VERT	0x3F2
#define P4_IQ_ESCR0		0x3BA
#define P4_IQ_ESCR1		0x3BB

#define CCCR_EXT_CASCADE	BIT(11)
#define CCCR_ENABLE		BIT(12)
#define CCCR_ESCR_SELECT(c)	(((c) >> 13) & 7)
#define CCCR_ACTIVE_THREAD	(BIT(16) | BIT(17))
#define CCCR_FORCE_OVF		BIT(25)
#define CCCR_OVF_PMI_T0		BIT(26)
#define CCCR_CASCADE		BIT(30)
/* OVF, OVF_PMI_T1, bits 29:28 and 10:0. */
#define CCCR_RESERVED		0xB80007FFU

#define ESCR_CPL_T1		(BIT(0) | BIT(1))
#define ESCR_T1_OS		BIT(1)
#define ESCR_T0_OS		BIT(3)
#define ESCR_RESERVED		BIT(31)		/* the 32nd bit */

#define PEBS_UOP_TAG		BIT(24)
#define PEBS_REPLAY_BITS	(BIT(10) | BIT(9) | BIT(2) | BIT(1) | BIT(0))
#define MATRIX_VERT_BITS	(BIT(1) | BIT(0))

#define P4_FAST_RDPMC		BIT(31)

/* ESCR MSR by counter pair and ESCR_SELECT; 0 where a select is invalid. */
static const u16 p4_escr_table[8][8] = {
	{ 0x3B2, 0x3B4, 0x3AA, 0x3B6, 0x3AC, 0x3C8, 0x3A2, 0x3A0 },	/* 0,1 */
	{ 0x3B3, 0x3B5, 0x3AB, 0x3B7, 0x3AD, 0x3C9, 0x3A3, 0x3A1 },	/* 2,3 */
	{ 0x3C0, 0x3C4, 0x3C2 },					/* 4,5 */
	{ 0x3C1, 0x3C5, 0x3C3 },					/* 6,7 */
	{ 0x3A6, 0x3A4, 0x3AE, 0x3B0, 0, 0x3A8 },			/* 8,9 */
	{ 0x3A7, 0x3A5, 0x3AF, 0x3B1, 0, 0x3A9 },			/* 10,11 */
	{ 0x3BA, 0x3CA, 0x3BC, 0x3BE, 0x3B8, 0x3CC, 0x3E0 },		/* 12,13,16 */
	{ 0x3BB, 0x3CB, 0x3BD, 0, 0x3B9, 0x3CD, 0x3E1 },		/* 14,15,17 */
};

static const u8 p4_pair[18] = {
	0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 6, 7
};

static u8 p4_model;
static bool p4_ht;

void pc_p4_setup(const struct pc_cpu_ident *id)
{
	p4_model = id->model;
	p4_ht = id->siblings > 1;
}

/* Model 3 removed IQ_ESCR0/1. */
static bool p4_escr_exists(u32 msr)
{
	if (msr == P4_IQ_ESCR0 || msr == P4_IQ_ESCR1)
		return p4_model <= 2;
	return msr != 0;
}

/* The ESCR MSR a counter's CCCR selects, or 0 if there is none. */
static u32 p4_escr_msr(u32 hw, u32 cccr)
{
	u32 msr = p4_escr_table[p4_pair[hw]][CCCR_ESCR_SELECT(cccr)];

	return p4_escr_exists(msr) ? msr : 0;
}

static int p4_check_cccr(u32 hw, u32 cccr, bool imode, s32 ireset)
{
	if (cccr & CCCR_RESERVED)
		return -EINVAL;
	if ((cccr & CCCR_EXT_CASCADE) &&
	    (p4_model < 2 || !(hw == 12 || hw >= 15)))
		return -EINVAL;
	if (!p4_ht && (cccr & CCCR_ACTIVE_THREAD) != CCCR_ACTIVE_THREAD)
		return -EINVAL;
	if (!(cccr & (CCCR_ENABLE | CCCR_CASCADE | CCCR_EXT_CASCADE)))
		return -EINVAL;
	if (!!(cccr & CCCR_OVF_PMI_T0) != imode)
		return -EINVAL;
	if (imode && (cccr & CCCR_FORCE_OVF) && ireset != -1)
		return -EINVAL;
	return 0;
}

static int p4_check_escr(u32 escr, bool is_global)
{
	if (escr & ESCR_RESERVED)
		return -EINVAL;
	/* Thread 1's bits count the sibling: only global mode may. */
	if ((escr & ESCR_CPL_T1) && !(p4_ht && is_global))
		return -EINVAL;
	return 0;
}

static int p4_check_pebs(const struct perfctr_cpu_control *c)
{
	u32 pebs = c->p4.pebs_enable, vert = c->p4.pebs_matrix_vert;

	if (!pebs)
		return vert ? -EINVAL : 0;
	if (pebs & ~(PEBS_UOP_TAG | PEBS_REPLAY_BITS))
		return -EINVAL;
	if (!(pebs & PEBS_UOP_TAG) || !(pebs & PEBS_REPLAY_BITS))
		return -EINVAL;
	if ((vert & ~MATRIX_VERT_BITS) || !(vert & MATRIX_VERT_BITS))
		return -EINVAL;
	return 0;
}

static int p4_check_one(const struct perfctr_cpu_control *c, unsigned int i,
			bool is_global, u32 *escr_msr)
{
	u32 hw = c->pmc_map[i] & ~P4_FAST_RDPMC;
	int err;

	if (hw >= 18 || c->evntsel_high[i])
		return -EINVAL;
	err = p4_check_cccr(hw, c->evntsel[i], i >= c->nractrs, c->ireset[i]);
	if (!err)
		err = p4_check_escr(c->p4.escr[i], is_global);
	if (err)
		return err;
	*escr_msr = p4_escr_msr(hw, c->evntsel[i]);
	return *escr_msr ? 0 : -EINVAL;
}

static int p4_check_control(const struct perfctr_cpu_state *state,
			    bool is_global)
{
	const struct perfctr_cpu_control *c = &state->control;
	unsigned int i, j, nrctrs = c->nractrs + c->nrictrs;
	u32 escr_msr[PERFCTR_NR_PMCS], used = 0;
	int err;

	for (i = 0; i < nrctrs; i++) {
		u32 hw = c->pmc_map[i] & ~P4_FAST_RDPMC;

		err = p4_check_one(c, i, is_global, &escr_msr[i]);
		if (err)
			return err;
		if (used & BIT(hw))
			return -EINVAL;
		used |= BIT(hw);
		/* One ESCR, one value. */
		for (j = 0; j < i; j++)
			if (escr_msr[j] == escr_msr[i] &&
			    c->p4.escr[j] != c->p4.escr[i])
				return -EINVAL;
	}
	return p4_check_pebs(c);
}

static void p4_commit_control(struct perfctr_cpu_state *state)
{
	const struct perfctr_cpu_control *c = &state->control;
	unsigned int i, nrctrs = c->nractrs + c->nrictrs;

	for (i = 0; i < nrctrs; i++)
		state->p4_escr_map[i] =
			p4_escr_msr(c->pmc_map[i] & ~P4_FAST_RDPMC, c->evntsel[i]);
}

/* Either thread's OS bit counts that thread at CPL 0. */
static bool p4_counts_kernel(const struct perfctr_cpu_state *state)
{
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	for (i = 0; i < nrctrs; i++)
		if (state->control.p4.escr[i] & (ESCR_T0_OS | ESCR_T1_OS))
			return true;
	return false;
}

static void p4_write(u32 msr, u64 val, u64 *cached)
{
	if (*cached != val) {
		pc_wrmsr(msr, val);
		*cached = val;
	}
}

/* ESCRs first: enabling the CCCR starts the count. */
static void p4_write_control(const struct perfctr_cpu_state *state,
			     struct pc_cache *cache)
{
	const struct perfctr_cpu_control *c = &state->control;
	unsigned int i, nrctrs = perfctr_cstatus_nrctrs(state->cstatus);

	for (i = 0; i < nrctrs; i++) {
		u32 escr = state->p4_escr_map[i];

		p4_write(escr, c->p4.escr[i], &cache->escr[escr - PC_ESCR_FIRST]);
	}
	for (i = 0; i < nrctrs; i++) {
		u32 hw = state->pmc[i].map & ~P4_FAST_RDPMC;

		p4_write(P4_CCCR0 + hw, c->evntsel[i], &cache->ctl[hw]);
	}
	p4_write(P4_PEBS_ENABLE, c->p4.pebs_enable, &cache->pebs_enable);
	p4_write(P4_PEBS_MATRIX_VERT, c->p4.pebs_matrix_vert,
		 &cache->pebs_matrix_vert);
}

/* Writing the CCCR as 0 also clears its sticky OVF flag. */
static void p4_stop_counter(u32 pmc, struct pc_cache *cache)
{
	u32 hw = pmc & ~P4_FAST_RDPMC;

	pc_wrmsr(P4_CCCR0 + hw, 0);
	cache->ctl[hw] = 0;
}

static void p4_clear_counters(struct pc_cache *cache)
{
	unsigned int hw, pair, sel;

	for (hw = 0; hw < 18; hw++) {
		pc_wrmsr(P4_CCCR0 + hw, 0);
		cache->ctl[hw] = 0;
	}
	for (pair = 0; pair < ARRAY_SIZE(p4_escr_table); pair++) {
		for (sel = 0; sel < 8; sel++) {
			u32 msr = p4_escr_table[pair][sel];

			if (!p4_escr_exists(msr))
				continue;
			pc_wrmsr(msr, 0);
			cache->escr[msr - PC_ESCR_FIRST] = 0;
		}
	}
	pc_wrmsr(P4_PEBS_ENABLE, 0);
	pc_wrmsr(P4_PEBS_MATRIX_VERT, 0);
	cache->pebs_enable = 0;
	cache->pebs_matrix_vert = 0;
}

/* Self-test: counter 0 counts GLOBAL_POWER_EVENTS (running) via FSB_ESCR0. */
#define P4_SELFTEST_ESCR	((0x13U << 25) | BIT(9) | BIT(3) | BIT(2))
#define P4_SELFTEST_CCCR	(CCCR_ENABLE | (6U << 13) | CCCR_ACTIVE_THREAD)

const struct perfctr_x86_family perfctr_p4_family = {
	.name = "Intel P4",
	.id = PERFCTR_X86_INTEL_P4,
	.nrctrs = 18,
	.pmc_mask = 0x3FFFF,
	.ctr_bits = 40,
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC,
	.kernel_reserve = true,
	.pmi = true,
	.sel_msr = P4_CCCR0,
	.ctr_msr = P4_COUNTER0,
	.msr_stride = 1,
	.selftest_event = P4_SELFTEST_CCCR,
	.selftest_aux_msr = 0x3A2,
	.selftest_aux = P4_SELFTEST_ESCR,
	.check_control = p4_check_control,
	.counts_kernel = p4_counts_kernel,
	.commit_control = p4_commit_control,
	.write_control = p4_write_control,
	.stop_counter = p4_stop_counter,
	.clear_counters = p4_clear_counters,
};
