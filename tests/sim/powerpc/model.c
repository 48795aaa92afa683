// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr test builds: the simulated 604/750/74xx performance monitor.
 * Register layouts and PVRs follow the vendors' manuals; see
 * Documentation/perfctr/ppc32.rst.
 *
 * What is modelled: which PMCs and MMCRs exist; MMCR0[FC] freezing
 * everything; a counter counts only with a non-zero event select. A
 * PMC's overflow condition is its msb (bit 0 in the manuals' numbering,
 * 0x80000000) being set, enabled by PMC1CE (PMC1) or PMCnCE (PMC2-6).
 * The manuals warn that loading a negative value with the condition
 * enabled may raise the exception without any event counted: so the
 * condition is a level, looked at again whenever counters advance or
 * MMCR0 or a PMC is written. With PMXE on, an enabled condition raises
 * the exception, which clears PMXE. A condition that appears (a PMC turns
 * negative, or its enable turns on) sets FC if FCECE is on and TRIGGER
 * off; with TRIGGER on it only ends the trigger. TRIGGER holds PMC2-6
 * until PMC1 is negative (enabled or not) or an enabled condition
 * appears, and then clears itself (MPC7400/MPC7450 manuals, MMCR0).
 */
#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/ptrace.h>
#include <linux/string.h>

#include <perfctr/cpu.h>

#include <asm/time.h>

#include "model.h"

#define FC	0x80000000U
#define PMXE	0x04000000U
#define FCECE	0x02000000U
#define PMC1CE	0x00008000U
#define PMCNCE	0x00004000U
#define TRIGGER	0x00002000U

DEFINE_PER_CPU(struct perfctr_ppc_sim_state, perfctr_ppc_sim_pcpu);
#define S perfctr_ppc_sim

#define MHZ(n)	((n) * 1000000U)

/* A model: its name and PVR, Open Firmware's clocks in MHz, its PMU. */
#define SIM_PPC(nm, pv, cpu_mhz, tb_mhz, ...)				\
	{ .name = nm, .pvr = pv, .cpu_hz = MHZ(cpu_mhz),		\
	  .tb_hz = MHZ(tb_mhz), __VA_ARGS__ }

/* The families' PMUs: PMCs, MMCRs and BAMR, from the manuals. */
#define PMU_604		.nrctrs = 2, .nrmmcrs = 1
#define PMU_604E	.nrctrs = 4, .nrmmcrs = 2	/* and the 750 */
#define PMU_7400	.nrctrs = 4, .nrmmcrs = 3, .has_bamr = true
#define PMU_7450	.nrctrs = 6, .nrmmcrs = 3, .has_bamr = true

const struct perfctr_ppc_sim_model sim_ppc_604 =
	SIM_PPC("604", 0x00040103, 200, 50, PMU_604);

const struct perfctr_ppc_sim_model sim_ppc_604e =
	SIM_PPC("604e", 0x00090204, 350, 25, PMU_604E);

/* 604ev (Mach 5, QEMU's "604r"): a 604e core. */
const struct perfctr_ppc_sim_model sim_ppc_604ev =
	SIM_PPC("604ev", 0x000A0101, 300, 25, PMU_604E);

/* 750 rev 3.1: no overflow interrupt (the DEC/PMI erratum). */
const struct perfctr_ppc_sim_model sim_ppc_750 =
	SIM_PPC("750", 0x00080301, 400, 25, PMU_604E);

/* 750CXe rev 2.4: the same version as the 750, and its erratum. */
const struct perfctr_ppc_sim_model sim_ppc_750cxe =
	SIM_PPC("750cxe", 0x00082214, 500, 25, PMU_604E);

/* 750FX DD2.2, the last revision with the erratum. */
const struct perfctr_ppc_sim_model sim_ppc_750fx_dd22 =
	SIM_PPC("750fx-dd2.2", 0x70000202, 700, 33, PMU_604E);

/* 750FX DD2.3, the first without it. */
const struct perfctr_ppc_sim_model sim_ppc_750fx =
	SIM_PPC("750fx-dd2.3", 0x70000203, 800, 33, PMU_604E);

const struct perfctr_ppc_sim_model sim_ppc_750gx =
	SIM_PPC("750gx", 0x70020102, 1000, 33, PMU_604E);

const struct perfctr_ppc_sim_model sim_ppc_7400 =
	SIM_PPC("7400", 0x000C0209, 450, 25, PMU_7400);

/* 7410 rev 1.2, the last with the 750's erratum; rev 1.3 is fixed. */
const struct perfctr_ppc_sim_model sim_ppc_7410_r12 =
	SIM_PPC("7410-r1.2", 0x800C1102, 450, 25, PMU_7400);

const struct perfctr_ppc_sim_model sim_ppc_7410 =
	SIM_PPC("7410-r1.3", 0x800C1103, 500, 25, PMU_7400);

const struct perfctr_ppc_sim_model sim_ppc_7450 =
	SIM_PPC("7450", 0x80000201, 733, 33, PMU_7450);

const struct perfctr_ppc_sim_model sim_ppc_7455 =
	SIM_PPC("7455", 0x80010201, 1250, 83, PMU_7450);

const struct perfctr_ppc_sim_model sim_ppc_7457 =
	SIM_PPC("7457", 0x80020101, 1300, 100, PMU_7450);

const struct perfctr_ppc_sim_model sim_ppc_7447a =
	SIM_PPC("7447a", 0x80030101, 1420, 83, PMU_7450);

const struct perfctr_ppc_sim_model sim_ppc_7448 =
	SIM_PPC("7448", 0x80040202, 1700, 100, PMU_7450);

/* QEMU: the registers exist and keep what is written; nothing counts. */
const struct perfctr_ppc_sim_model sim_ppc_qemu_7450 =
	SIM_PPC("qemu-7450", 0x80000201, 900, 100, PMU_7450, .dead = true);

const struct perfctr_ppc_sim_model sim_ppc_qemu_750 =
	SIM_PPC("qemu-750", 0x00080301, 900, 100, PMU_604E, .dead = true);

/* No performance monitor: the generic driver. */
const struct perfctr_ppc_sim_model sim_ppc_603e =
	SIM_PPC("603e", 0x00060401, 200, 25);

/* Open Firmware without a timebase frequency: no generic driver. */
const struct perfctr_ppc_sim_model sim_ppc_603e_no_tb = {
	.name = "603e-no-tb", .pvr = 0x00060401, .cpu_hz = MHZ(200),
};

/* The same where the counters do not count: nothing to fall back on. */
const struct perfctr_ppc_sim_model sim_ppc_qemu_7450_no_tb = {
	.name = "qemu-7450-no-tb", .pvr = 0x80000201, PMU_7450, .dead = true,
	.cpu_hz = MHZ(900),
};

/* No timebase: no driver. */
const struct perfctr_ppc_sim_model sim_ppc_601 = {
	.name = "601", .pvr = 0x00010001,
};

void perfctr_ppc_sim_reset(const struct perfctr_ppc_sim_model *m)
{
	memset(&S, 0, sizeof(S));
	S.m = m;
}

void perfctr_ppc_sim_live(const struct perfctr_ppc_sim_model *m)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct perfctr_ppc_sim_state *sim =
			per_cpu_ptr(&perfctr_ppc_sim_pcpu, cpu);

		memset(sim, 0, sizeof(*sim));
		sim->m = m;
		sim->live = true;
		sim->last_tb = (u32)mftb();
	}
}

u32 perfctr_ppc_sim_sel(unsigned int pmc)
{
	static const u8 shift[PP_MAX_PMCS] = { 6, 0, 27, 22, 17, 11 };
	static const u8 width[PP_MAX_PMCS] = { 7, 6, 5, 5, 5, 6 };
	u32 reg = S.mmcr[pmc < 2 ? 0 : 1];

	if (pmc >= 2 && S.m->nrmmcrs < 2)
		return 0;
	return (reg >> shift[pmc]) & GENMASK(width[pmc] - 1, 0);
}

static u32 sim_ce_bit(unsigned int pmc)
{
	return pmc ? PMCNCE : PMC1CE;
}

/* The PMCs whose overflow condition holds now: negative and enabled. */
static u32 sim_conditions(void)
{
	u32 cond = 0;
	unsigned int pmc;

	for (pmc = 0; pmc < S.m->nrctrs; pmc++)
		if ((S.pmc[pmc] & BIT(31)) && (S.mmcr[0] & sim_ce_bit(pmc)))
			cond |= BIT(pmc);
	return cond;
}

/* What the conditions do to MMCR0; after every change that may matter. */
static void sim_evaluate(void)
{
	u32 cond, fresh;

	if (S.m->dead)
		return;
	cond = sim_conditions();
	fresh = cond & ~S.cond_seen;
	S.cond_seen = cond;
	if (fresh) {
		if (S.mmcr[0] & TRIGGER)
			S.mmcr[0] &= ~TRIGGER;
		else if (S.mmcr[0] & FCECE)
			S.mmcr[0] |= FC;
	}
	if ((S.mmcr[0] & TRIGGER) && (S.pmc[0] & BIT(31)))
		S.mmcr[0] &= ~TRIGGER;
	if (cond && (S.mmcr[0] & PMXE)) {
		S.mmcr[0] &= ~PMXE;
		S.pmi_pending = true;
	}
}

void perfctr_ppc_sim_tick(u32 n)
{
	unsigned int pmc;

	if (S.m->dead || (S.mmcr[0] & FC))
		return;
	for (pmc = 0; pmc < S.m->nrctrs; pmc++) {
		if (!perfctr_ppc_sim_sel(pmc))
			continue;
		if (pmc && (S.mmcr[0] & TRIGGER))
			continue;
		S.pmc[pmc] += n;
	}
	sim_evaluate();
}

/* Live mode: counting counters count the timebase ticks since the last access. */
static void sim_live_advance(void)
{
	u32 now;

	if (!S.live)
		return;
	now = (u32)mftb();
	perfctr_ppc_sim_tick(now - S.last_tb);
	S.last_tb = now;
	perfctr_ppc_sim_publish();
}

bool perfctr_ppc_sim_deliver_pmi(unsigned long nip)
{
	struct pt_regs regs = {};

	if (!S.pmi_pending || !S.handler)
		return false;
	S.pmi_pending = false;
	regs.nip = nip;
	S.handler(&regs);
	return true;
}

u32 perfctr_ppc_sim_mfpvr(void)
{
	return S.m->pvr;
}

u32 perfctr_ppc_sim_mftb(void)
{
	u32 tb = S.tb;

	if (S.live) {
		sim_live_advance();
		S.nr_mftb++;
		return S.last_tb;
	}

	S.nr_mftb++;
	S.tb += S.tb_step;
	return tb;
}

/* An access to a register the model lacks is counted, and does nothing. */
static bool sim_lacks(bool lacks)
{
	if (lacks)
		S.nr_bad++;
	return lacks;
}

/*
 * The driver writes @val to @reg, counted in @writes: time passes up to
 * the write, and the conditions and the live page follow it.
 */
static void sim_write(u32 *reg, unsigned int *writes, u32 val)
{
	sim_live_advance();
	(*writes)++;
	*reg = val;
	sim_evaluate();
	perfctr_ppc_sim_publish();
}

u32 perfctr_ppc_sim_read_mmcr(unsigned int n)
{
	if (sim_lacks(n >= S.m->nrmmcrs))
		return 0;
	S.nr_mmcr_reads++;
	sim_live_advance();
	return S.mmcr[n];
}

void perfctr_ppc_sim_write_mmcr(unsigned int n, u32 val)
{
	if (sim_lacks(n >= S.m->nrmmcrs))
		return;
	sim_write(&S.mmcr[n], &S.nr_mmcr_writes, val);
	if (n == 0)
		perfctr_ppc_sim_pmxe_changed();
}

u32 perfctr_ppc_sim_read_pmc(unsigned int n)
{
	if (sim_lacks(n >= S.m->nrctrs))
		return 0;
	S.nr_pmc_reads++;
	sim_live_advance();
	if (S.autotick)
		perfctr_ppc_sim_tick(S.autotick);
	return S.pmc[n];
}

void perfctr_ppc_sim_write_pmc(unsigned int n, u32 val)
{
	if (sim_lacks(n >= S.m->nrctrs))
		return;
	sim_write(&S.pmc[n], &S.nr_pmc_writes, val);
	perfctr_ppc_sim_pmxe_changed();
}

void perfctr_ppc_sim_write_bamr(u32 val)
{
	if (sim_lacks(!S.m->has_bamr))
		return;
	S.bamr = val;
}
