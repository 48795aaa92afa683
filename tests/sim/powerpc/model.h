/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr test builds: a simulated 604/750/74xx performance monitor
 * behind the accessors of arch/powerpc/perfctr/regs.h, the other side of
 * that header. A model describes
 * a CPU's registers; the state holds their contents. Tests pick a model,
 * run driver code, make events happen with perfctr_ppc_sim_tick(), and
 * look at what the driver read and wrote.
 */
#ifndef _PERFCTR_SIM_POWERPC_MODEL_H
#define _PERFCTR_SIM_POWERPC_MODEL_H

#include <linux/percpu.h>
#include <linux/types.h>

/* Only test builds see this file: the accessors are the simulation's. */
#ifndef PERFCTR_SIM
#define PERFCTR_SIM 1
#endif
#include "../../../arch/powerpc/perfctr/regs.h"

struct perfctr_ppc_sim_model {
	const char *name;
	u32 pvr;
	unsigned int nrctrs;		/* PMC1..PMCn exist */
	unsigned int nrmmcrs;		/* MMCR0..MMCRn-1 exist */
	bool has_bamr;
	bool dead;			/* registers hold values, nothing counts */
	u32 cpu_hz, tb_hz;		/* Open Firmware's clocks */
};

struct perfctr_ppc_sim_state {
	const struct perfctr_ppc_sim_model *m;
	u32 tb;				/* value of the next mftb */
	u32 tb_step;			/* added to tb after each mftb */
	u32 mmcr[3];
	u32 pmc[PP_MAX_PMCS];
	u32 bamr;
	u32 autotick;			/* events per PMC read: time passing */
	bool kernel_busy;		/* perf_events holds the PMC hardware */
	bool reserved;
	pp_perf_irq_t handler;		/* the reserver's exception handler */
	bool pmi_pending;		/* an enabled condition met PMXE */
	u32 cond_seen;			/* conditions at the last look */
	unsigned long release_gp;	/* RCU state when released */
	unsigned int nr_mmcr_writes, nr_mmcr_reads;
	unsigned int nr_pmc_writes, nr_pmc_reads, nr_mftb;
	unsigned int nr_bad;		/* access to a register the CPU lacks */
	bool live;			/* counters follow the real timebase */
	u32 last_tb;
};

/*
 * One simulated CPU per CPU. Tests pin themselves to one CPU; the driver
 * calls in with preemption off; so the raw accessor is right.
 */
DECLARE_PER_CPU(struct perfctr_ppc_sim_state, perfctr_ppc_sim_pcpu);
#define perfctr_ppc_sim (*raw_cpu_ptr(&perfctr_ppc_sim_pcpu))

extern const struct perfctr_ppc_sim_model sim_ppc_604, sim_ppc_604e,
	sim_ppc_604ev, sim_ppc_750, sim_ppc_750cxe, sim_ppc_750fx_dd22,
	sim_ppc_750fx, sim_ppc_750gx, sim_ppc_7400, sim_ppc_7410_r12,
	sim_ppc_7410, sim_ppc_7450, sim_ppc_7455, sim_ppc_7457,
	sim_ppc_7447a, sim_ppc_7448, sim_ppc_qemu_7450, sim_ppc_qemu_750,
	sim_ppc_603e, sim_ppc_603e_no_tb, sim_ppc_qemu_7450_no_tb,
	sim_ppc_601;

/* Power on @m: registers zero, timebase at 0 and still, nothing reserved. */
void perfctr_ppc_sim_reset(const struct perfctr_ppc_sim_model *m);

/* @n events happen: every counter that counts advances by @n. */
void perfctr_ppc_sim_tick(u32 n);

/* Take the pending performance monitor exception; false if none. */
bool perfctr_ppc_sim_deliver_pmi(unsigned long nip);

/* Hardware event select of counter @pmc (0 = PMC1), from the MMCRs. */
u32 perfctr_ppc_sim_sel(unsigned int pmc);

/* Every CPU powered on as @m, its counters following the real timebase. */
void perfctr_ppc_sim_live(const struct perfctr_ppc_sim_model *m);

/*
 * What the model asks of whoever drives it: kunit.c in perfctr_test.ko
 * (one CPU, the test's time) or live.c in perfctr_simpmu.ko (every CPU,
 * real time). Each module links one of the two, which also give the
 * reservation, the clocks and perfctr_ppc_sim_on_each_cpu()
 * (arch/powerpc/perfctr/regs.h).
 */
void perfctr_ppc_sim_publish(void);		/* the registers changed */
void perfctr_ppc_sim_pmxe_changed(void);	/* PMIs enabled or not */

#endif /* _PERFCTR_SIM_POWERPC_MODEL_H */
