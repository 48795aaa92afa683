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
#define PERFCTR_SIM 1

#include <linux/bits.h>
#include <linux/errno.h>
#include <linux/ptrace.h>
#include <linux/rcupdate.h>
#include <linux/string.h>

#include <perfctr/cpu.h>

#include "ppc_sim.h"
#ifdef PERFCTR_SIMPMU
#include <linux/hrtimer.h>
#include <linux/miscdevice.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/smp.h>
#include <asm/irq_regs.h>
#include <asm/pmc.h>
#include <asm/time.h>
#include <perfctr/compat.h>
#include "simpmu_param.h"
#include "user/simpmu_user.h"
#endif

#define FC	0x80000000U
#define PMXE	0x04000000U
#define FCECE	0x02000000U
#define PMC1CE	0x00008000U
#define PMCNCE	0x00004000U
#define TRIGGER	0x00002000U

DEFINE_PER_CPU(struct perfctr_ppc_sim_state, perfctr_ppc_sim_pcpu);
#define S perfctr_ppc_sim

static void simpmu_publish(void);
static void simpmu_pmxe_changed(void);

#define MHZ(n)	((n) * 1000000U)

const struct perfctr_ppc_sim_model sim_ppc_604 = {
	.name = "604", .pvr = 0x00040103, .nrctrs = 2, .nrmmcrs = 1,
	.cpu_hz = MHZ(200), .tb_hz = MHZ(50),
};

const struct perfctr_ppc_sim_model sim_ppc_604e = {
	.name = "604e", .pvr = 0x00090204, .nrctrs = 4, .nrmmcrs = 2,
	.cpu_hz = MHZ(350), .tb_hz = MHZ(25),
};

/* 604ev (Mach 5, QEMU's "604r"): a 604e core. */
const struct perfctr_ppc_sim_model sim_ppc_604ev = {
	.name = "604ev", .pvr = 0x000A0101, .nrctrs = 4, .nrmmcrs = 2,
	.cpu_hz = MHZ(300), .tb_hz = MHZ(25),
};

/* 750 rev 3.1: no overflow interrupt (the DEC/PMI erratum). */
const struct perfctr_ppc_sim_model sim_ppc_750 = {
	.name = "750", .pvr = 0x00080301, .nrctrs = 4, .nrmmcrs = 2,
	.cpu_hz = MHZ(400), .tb_hz = MHZ(25),
};

/* 750CXe rev 2.4: the same version as the 750, and its erratum. */
const struct perfctr_ppc_sim_model sim_ppc_750cxe = {
	.name = "750cxe", .pvr = 0x00082214, .nrctrs = 4, .nrmmcrs = 2,
	.cpu_hz = MHZ(500), .tb_hz = MHZ(25),
};

/* 750FX DD2.2, the last revision with the erratum. */
const struct perfctr_ppc_sim_model sim_ppc_750fx_dd22 = {
	.name = "750fx-dd2.2", .pvr = 0x70000202, .nrctrs = 4, .nrmmcrs = 2,
	.cpu_hz = MHZ(700), .tb_hz = MHZ(33),
};

/* 750FX DD2.3, the first without it. */
const struct perfctr_ppc_sim_model sim_ppc_750fx = {
	.name = "750fx-dd2.3", .pvr = 0x70000203, .nrctrs = 4, .nrmmcrs = 2,
	.cpu_hz = MHZ(800), .tb_hz = MHZ(33),
};

const struct perfctr_ppc_sim_model sim_ppc_750gx = {
	.name = "750gx", .pvr = 0x70020102, .nrctrs = 4, .nrmmcrs = 2,
	.cpu_hz = MHZ(1000), .tb_hz = MHZ(33),
};

const struct perfctr_ppc_sim_model sim_ppc_7400 = {
	.name = "7400", .pvr = 0x000C0209, .nrctrs = 4, .nrmmcrs = 3,
	.has_bamr = true, .cpu_hz = MHZ(450), .tb_hz = MHZ(25),
};

/* 7410 rev 1.2, the last with the 750's erratum; rev 1.3 is fixed. */
const struct perfctr_ppc_sim_model sim_ppc_7410_r12 = {
	.name = "7410-r1.2", .pvr = 0x800C1102, .nrctrs = 4, .nrmmcrs = 3,
	.has_bamr = true, .cpu_hz = MHZ(450), .tb_hz = MHZ(25),
};

const struct perfctr_ppc_sim_model sim_ppc_7410 = {
	.name = "7410-r1.3", .pvr = 0x800C1103, .nrctrs = 4, .nrmmcrs = 3,
	.has_bamr = true, .cpu_hz = MHZ(500), .tb_hz = MHZ(25),
};

const struct perfctr_ppc_sim_model sim_ppc_7450 = {
	.name = "7450", .pvr = 0x80000201, .nrctrs = 6, .nrmmcrs = 3,
	.has_bamr = true, .cpu_hz = MHZ(733), .tb_hz = MHZ(33),
};

const struct perfctr_ppc_sim_model sim_ppc_7455 = {
	.name = "7455", .pvr = 0x80010201, .nrctrs = 6, .nrmmcrs = 3,
	.has_bamr = true, .cpu_hz = MHZ(1250), .tb_hz = MHZ(83),
};

const struct perfctr_ppc_sim_model sim_ppc_7457 = {
	.name = "7457", .pvr = 0x80020101, .nrctrs = 6, .nrmmcrs = 3,
	.has_bamr = true, .cpu_hz = MHZ(1300), .tb_hz = MHZ(100),
};

const struct perfctr_ppc_sim_model sim_ppc_7447a = {
	.name = "7447a", .pvr = 0x80030101, .nrctrs = 6, .nrmmcrs = 3,
	.has_bamr = true, .cpu_hz = MHZ(1420), .tb_hz = MHZ(83),
};

const struct perfctr_ppc_sim_model sim_ppc_7448 = {
	.name = "7448", .pvr = 0x80040202, .nrctrs = 6, .nrmmcrs = 3,
	.has_bamr = true, .cpu_hz = MHZ(1700), .tb_hz = MHZ(100),
};

/* QEMU: the registers exist and keep what is written; nothing counts. */
const struct perfctr_ppc_sim_model sim_ppc_qemu_7450 = {
	.name = "qemu-7450", .pvr = 0x80000201, .nrctrs = 6, .nrmmcrs = 3,
	.has_bamr = true, .dead = true, .cpu_hz = MHZ(900), .tb_hz = MHZ(100),
};

const struct perfctr_ppc_sim_model sim_ppc_qemu_750 = {
	.name = "qemu-750", .pvr = 0x00080301, .nrctrs = 4, .nrmmcrs = 2,
	.dead = true, .cpu_hz = MHZ(900), .tb_hz = MHZ(100),
};

/* No performance monitor: the generic driver. */
const struct perfctr_ppc_sim_model sim_ppc_603e = {
	.name = "603e", .pvr = 0x00060401, .cpu_hz = MHZ(200),
	.tb_hz = MHZ(25),
};

/* Open Firmware without a timebase frequency: no generic driver. */
const struct perfctr_ppc_sim_model sim_ppc_603e_no_tb = {
	.name = "603e-no-tb", .pvr = 0x00060401, .cpu_hz = MHZ(200),
};

/* The same where the counters do not count: nothing to fall back on. */
const struct perfctr_ppc_sim_model sim_ppc_qemu_7450_no_tb = {
	.name = "qemu-7450-no-tb", .pvr = 0x80000201, .nrctrs = 6,
	.nrmmcrs = 3, .has_bamr = true, .dead = true, .cpu_hz = MHZ(900),
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
	simpmu_publish();
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

u32 perfctr_ppc_sim_read_mmcr(unsigned int n)
{
	if (n >= S.m->nrmmcrs) {
		S.nr_bad++;
		return 0;
	}
	S.nr_mmcr_reads++;
	sim_live_advance();
	return S.mmcr[n];
}

void perfctr_ppc_sim_write_mmcr(unsigned int n, u32 val)
{
	if (n >= S.m->nrmmcrs) {
		S.nr_bad++;
		return;
	}
	sim_live_advance();
	S.nr_mmcr_writes++;
	S.mmcr[n] = val;
	sim_evaluate();
	simpmu_publish();
	if (n == 0)
		simpmu_pmxe_changed();
}

u32 perfctr_ppc_sim_read_pmc(unsigned int n)
{
	if (n >= S.m->nrctrs) {
		S.nr_bad++;
		return 0;
	}
	S.nr_pmc_reads++;
	sim_live_advance();
	if (S.autotick)
		perfctr_ppc_sim_tick(S.autotick);
	return S.pmc[n];
}

void perfctr_ppc_sim_write_pmc(unsigned int n, u32 val)
{
	if (n >= S.m->nrctrs) {
		S.nr_bad++;
		return;
	}
	sim_live_advance();
	S.nr_pmc_writes++;
	S.pmc[n] = val;
	sim_evaluate();
	simpmu_publish();
	simpmu_pmxe_changed();
}

void perfctr_ppc_sim_write_bamr(u32 val)
{
	if (!S.m->has_bamr) {
		S.nr_bad++;
		return;
	}
	S.bamr = val;
}

#ifdef PERFCTR_SIMPMU
/*
 * The live module counts the real timebase: its clocks are the machine's
 * own, from Open Firmware, or user space would misjudge the TSC's rate.
 */
void perfctr_ppc_sim_clocks(struct pp_clocks *clk)
{
	pp_of_clocks(clk);
}
#else
void perfctr_ppc_sim_clocks(struct pp_clocks *clk)
{
	clk->cpu_hz = S.m->cpu_hz;
	clk->tb_hz = S.m->tb_hz;
}
#endif

#ifdef PERFCTR_SIMPMU
/*
 * The simulated-PMU module (perfctr_simpmu.ko): the whole driver on a
 * simulated CPU of the chosen model on every CPU, with counters that
 * count timebase ticks. Test builds only.
 */
static char *model = "7450";
module_param(model, charp, 0444);
MODULE_PARM_DESC(model,
		 "simulated CPU: 604 604e 750 (a 750GX) 7400 (no PCINT) 7410 7450");

/* kernel_busy=1: as if perf_events held the counters. */
void simpmu_set_kernel_busy(bool busy)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		WRITE_ONCE(per_cpu_ptr(&perfctr_ppc_sim_pcpu, cpu)->kernel_busy, busy);
}

bool simpmu_kernel_busy(void)
{
	return READ_ONCE(raw_cpu_ptr(&perfctr_ppc_sim_pcpu)->kernel_busy);
}

/*
 * The family names the Check suites use. "750" is a 750GX, a 750 whose
 * overflow interrupt works (a plain 750 has none: detect.c).
 */
static const struct {
	const char *name;
	const struct perfctr_ppc_sim_model *m;
} simpmu_models[] = {
	{ "604", &sim_ppc_604 }, { "604e", &sim_ppc_604e },
	{ "750", &sim_ppc_750gx }, { "7400", &sim_ppc_7400 },
	{ "7410", &sim_ppc_7410 }, { "7450", &sim_ppc_7450 },
};

/* An unknown model is a 601: the driver refuses to load. */
static const struct perfctr_ppc_sim_model *simpmu_model(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(simpmu_models); i++)
		if (!strcmp(simpmu_models[i].name, model))
			return simpmu_models[i].m;
	return &sim_ppc_601;
}

static void simpmu_setup(void)
{
	const struct perfctr_ppc_sim_model *m = simpmu_model();
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

/* PMI delivery goes through the one handler the reservation installed. */
static pp_perf_irq_t simpmu_handler;

int perfctr_ppc_sim_reserve(pp_perf_irq_t handler)
{
	int err;

	/* kernel_busy=1: as if perf_events held it (simpmu_param.c). */
	if (READ_ONCE(S.kernel_busy))
		return -EBUSY;
	err = reserve_pmc_hardware(handler);
	if (!err)
		WRITE_ONCE(simpmu_handler, handler);
	return err;
}

void perfctr_ppc_sim_release(void)
{
	WRITE_ONCE(simpmu_handler, NULL);
	release_pmc_hardware();
}

void perfctr_ppc_sim_on_each_cpu(void (*fn)(void *))
{
	on_each_cpu(fn, NULL, 1);
}

/*
 * User space reads the simulated counters from a page (simpmu_user.h),
 * as it would read the real ones through UPMCn.
 */
static struct simpmu_user_cpu *simpmu_user;

static void simpmu_publish(void)
{
	unsigned int cpu = smp_processor_id(), i;
	struct simpmu_user_cpu *e;
	bool frozen;

	if (!simpmu_user || cpu >= SIMPMU_USER_CPUS || !S.m)
		return;
	e = &simpmu_user[cpu];
	frozen = S.m->dead || (S.mmcr[0] & FC);
	WRITE_ONCE(e->seq, e->seq + 1);
	smp_wmb();		/* odd seq before the data */
	e->last_tsc = S.last_tb;
	e->width_mask = U32_MAX;
	e->counting = 0;
	for (i = 0; i < S.m->nrctrs; i++) {
		e->ctr[i] = S.pmc[i];
		if (!frozen && perfctr_ppc_sim_sel(i) &&
		    !(i && (S.mmcr[0] & TRIGGER)))
			e->counting |= BIT(i);
	}
	/* UPMCn: user space can always read them, where they exist. */
	e->user_read = 1;
	smp_wmb();		/* the data before the even seq */
	WRITE_ONCE(e->seq, e->seq + 1);
}

static int simpmu_mmap(struct file *file, struct vm_area_struct *vma)
{
	if (vma->vm_pgoff || vma->vm_end - vma->vm_start > PAGE_SIZE)
		return -EINVAL;
	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	perfctr_vma_read_only(vma);
	return vm_insert_page(vma, vma->vm_start, virt_to_page(simpmu_user));
}

static const struct file_operations simpmu_fops = {
	.owner = THIS_MODULE,
	.mmap = simpmu_mmap,
};

static struct miscdevice simpmu_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "perfctr_simpmu",
	.fops = &simpmu_fops,
	.mode = 0444,
};

/*
 * The model notices an overflow when the driver touches it, so while
 * PMXE is on a 1 ms timer touches it and takes the exception, in hard
 * interrupt context with interrupts off, as the kernel would.
 */
static DEFINE_PER_CPU(struct hrtimer, simpmu_pmi_timer);
#define SIMPMU_PMI_PERIOD_NS	(1000 * 1000)

static enum hrtimer_restart simpmu_pmi_tick(struct hrtimer *timer)
{
	pp_perf_irq_t handler = READ_ONCE(simpmu_handler);

	if (timer != this_cpu_ptr(&simpmu_pmi_timer) || !S.m)
		return HRTIMER_NORESTART;
	sim_live_advance();
	if (S.pmi_pending && handler) {
		S.pmi_pending = false;
		handler(get_irq_regs());
	}
	if (!(S.mmcr[0] & PMXE) && !S.pmi_pending)
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(SIMPMU_PMI_PERIOD_NS));
	return HRTIMER_RESTART;
}

/* PMXE on, or an exception it already raised: the timer must run. */
static void simpmu_pmxe_changed(void)
{
	struct hrtimer *t = this_cpu_ptr(&simpmu_pmi_timer);

	if (((S.mmcr[0] & PMXE) || S.pmi_pending) && t->function &&
	    !hrtimer_active(t))
		hrtimer_start(t, ns_to_ktime(SIMPMU_PMI_PERIOD_NS),
			      HRTIMER_MODE_REL_PINNED_HARD);
}

int perfctr_simpmu_init(void)
{
	unsigned int cpu;
	int err;

	simpmu_setup();
	simpmu_user = (void *)get_zeroed_page(GFP_KERNEL);
	if (!simpmu_user)
		return -ENOMEM;
	err = misc_register(&simpmu_dev);
	if (err) {
		free_page((unsigned long)simpmu_user);
		simpmu_user = NULL;
		return err;
	}
	for_each_possible_cpu(cpu) {
		struct hrtimer *t = per_cpu_ptr(&simpmu_pmi_timer, cpu);

		hrtimer_init(t, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
		t->function = simpmu_pmi_tick;
	}
	return 0;
}

/* After the driver let go of the hardware: PMXE is off everywhere. */
void perfctr_simpmu_exit(void)
{
	unsigned int cpu;

	for_each_possible_cpu(cpu)
		hrtimer_cancel(per_cpu_ptr(&simpmu_pmi_timer, cpu));
	misc_deregister(&simpmu_dev);
	free_page((unsigned long)simpmu_user);
	simpmu_user = NULL;
}
#else
/* As reserve_pmc_hardware(): one owner, who gets the exceptions. */
int perfctr_ppc_sim_reserve(pp_perf_irq_t handler)
{
	if (S.kernel_busy || S.reserved)
		return -EBUSY;
	S.reserved = true;
	S.handler = handler;
	return 0;
}

void perfctr_ppc_sim_release(void)
{
	if (!S.reserved)
		S.nr_bad++;
	S.reserved = false;
	S.handler = NULL;
	/* From here an exception no longer reaches the handler. */
	S.release_gp = get_state_synchronize_rcu();
}

/* The KUnit simulation is this CPU's: the others have nothing to do. */
void perfctr_ppc_sim_on_each_cpu(void (*fn)(void *))
{
	unsigned long flags;

	local_irq_save(flags);
	fn(NULL);
	local_irq_restore(flags);
}

static void simpmu_publish(void)
{
}

static void simpmu_pmxe_changed(void)
{
}
#endif /* PERFCTR_SIMPMU */
