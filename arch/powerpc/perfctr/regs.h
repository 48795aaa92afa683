/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr ppc32: every hardware access the drivers make goes through the
 * accessors here. Production builds inline the real instructions; test
 * builds (PERFCTR_SIM, never in perfctr.ko) route them to the simulated
 * register file in tests/sim/, so KUnit can check driver logic on CPUs
 * nobody here has.
 *
 * mfspr/mtspr take the SPR number as an immediate, so counter n is
 * reached through a switch rather than an address computation.
 */
#ifndef _PERFCTR_PPC_REGS_H
#define _PERFCTR_PPC_REGS_H

#include <linux/of.h>
#include <linux/types.h>

#define PP_MAX_PMCS	6

struct pt_regs;
typedef void (*pp_perf_irq_t)(struct pt_regs *regs);

/* Open Firmware's clocks of the boot CPU, in Hz; 0 where it gives none. */
struct pp_clocks {
	u32 cpu_hz;
	u32 tb_hz;
};

/* What Open Firmware says of the boot CPU's clocks. */
static inline void pp_of_clocks(struct pp_clocks *clk)
{
	struct device_node *cpu = of_find_node_by_type(NULL, "cpu");

	clk->cpu_hz = 0;
	clk->tb_hz = 0;
	if (!cpu)
		return;
	of_property_read_u32(cpu, "clock-frequency", &clk->cpu_hz);
	of_property_read_u32(cpu, "timebase-frequency", &clk->tb_hz);
	of_node_put(cpu);
}

#ifdef PERFCTR_SIM

u32 perfctr_ppc_sim_mfpvr(void);
u32 perfctr_ppc_sim_mftb(void);
u32 perfctr_ppc_sim_read_mmcr(unsigned int n);
void perfctr_ppc_sim_write_mmcr(unsigned int n, u32 val);
u32 perfctr_ppc_sim_read_pmc(unsigned int n);
void perfctr_ppc_sim_write_pmc(unsigned int n, u32 val);
void perfctr_ppc_sim_write_bamr(u32 val);
int perfctr_ppc_sim_reserve(pp_perf_irq_t handler);
void perfctr_ppc_sim_release(void);
void perfctr_ppc_sim_clocks(struct pp_clocks *clk);
void perfctr_ppc_sim_on_each_cpu(void (*fn)(void *));
int perfctr_sim_hw_setup(void);
void perfctr_sim_hw_teardown(void);

/* The live simulation (device, timers, model=) comes up before detection. */
static inline int pp_hw_setup(void)
{
	return perfctr_sim_hw_setup();
}

static inline void pp_hw_teardown(void)
{
	perfctr_sim_hw_teardown();
}

static inline u32 pp_mfpvr(void)
{
	return perfctr_ppc_sim_mfpvr();
}

static inline u32 pp_mftb_low(void)
{
	return perfctr_ppc_sim_mftb();
}

static inline u64 pp_mftb(void)
{
	return perfctr_ppc_sim_mftb();
}

static inline u32 pp_read_mmcr(unsigned int n)
{
	return perfctr_ppc_sim_read_mmcr(n);
}

static inline void pp_write_mmcr(unsigned int n, u32 val)
{
	perfctr_ppc_sim_write_mmcr(n, val);
}

static inline u32 pp_read_pmc(unsigned int n)
{
	return perfctr_ppc_sim_read_pmc(n);
}

static inline void pp_write_pmc(unsigned int n, u32 val)
{
	perfctr_ppc_sim_write_pmc(n, val);
}

static inline void pp_write_bamr(u32 val)
{
	perfctr_ppc_sim_write_bamr(val);
}

static inline int pp_reserve_hw(pp_perf_irq_t handler)
{
	return perfctr_ppc_sim_reserve(handler);
}

static inline void pp_release_hw(void)
{
	perfctr_ppc_sim_release();
}

static inline void pp_clocks(struct pp_clocks *clk)
{
	perfctr_ppc_sim_clocks(clk);
}

static inline void pp_on_ready_cpus(void (*fn)(void *))
{
	perfctr_ppc_sim_on_each_cpu(fn);
}

#else /* !PERFCTR_SIM */

#include <linux/smp.h>
#include <asm/pmc.h>
#include <asm/reg.h>
#include <asm/time.h>

/* The 74xx breakpoint address mask; <asm/reg.h> does not name it. */
#define PP_SPRN_BAMR	951

static inline u32 pp_mfpvr(void)
{
	return mfspr(SPRN_PVR);
}

/* Only the low 32 bits are ever used, as on x86. */
static inline u32 pp_mftb_low(void)
{
	return (u32)mftb();
}

/* The whole time base: /dev/perfmon's PMIOTSTAMP. */
static inline u64 pp_mftb(void)
{
	return get_tb();
}

static inline u32 pp_read_mmcr(unsigned int n)
{
	switch (n) {
	case 0:
		return mfspr(SPRN_MMCR0);
	case 1:
		return mfspr(SPRN_MMCR1);
	default:
		return mfspr(SPRN_MMCR2);
	}
}

static inline void pp_write_mmcr(unsigned int n, u32 val)
{
	switch (n) {
	case 0:
		mtspr(SPRN_MMCR0, val);
		break;
	case 1:
		mtspr(SPRN_MMCR1, val);
		break;
	default:
		mtspr(SPRN_MMCR2, val);
		break;
	}
}

static inline u32 pp_read_pmc(unsigned int n)
{
	switch (n) {
	case 0:
		return mfspr(SPRN_PMC1);
	case 1:
		return mfspr(SPRN_PMC2);
	case 2:
		return mfspr(SPRN_PMC3);
	case 3:
		return mfspr(SPRN_PMC4);
	case 4:
		return mfspr(SPRN_PMC5);
	default:
		return mfspr(SPRN_PMC6);
	}
}

static inline void pp_write_pmc(unsigned int n, u32 val)
{
	switch (n) {
	case 0:
		mtspr(SPRN_PMC1, val);
		break;
	case 1:
		mtspr(SPRN_PMC2, val);
		break;
	case 2:
		mtspr(SPRN_PMC3, val);
		break;
	case 3:
		mtspr(SPRN_PMC4, val);
		break;
	case 4:
		mtspr(SPRN_PMC5, val);
		break;
	default:
		mtspr(SPRN_PMC6, val);
		break;
	}
}

static inline void pp_write_bamr(u32 val)
{
	mtspr(PP_SPRN_BAMR, val);
}

/*
 * The kernel's one owner of the performance monitor exception, shared
 * with perf_events: whoever holds it gets every PMI.
 */
static inline int pp_reserve_hw(pp_perf_irq_t handler)
{
	return reserve_pmc_hardware(handler);
}

static inline void pp_release_hw(void)
{
	release_pmc_hardware();
}

static inline void pp_clocks(struct pp_clocks *clk)
{
	pp_of_clocks(clk);
}

/* The CPUs the hotplug callback counted in: perfctr_cpus_ready. */
static inline void pp_on_ready_cpus(void (*fn)(void *))
{
	on_each_cpu_mask(&perfctr_cpus_ready, fn, NULL, true);
}

/* Real counters need nothing set up before detection, nor after exit. */
static inline int pp_hw_setup(void)
{
	return 0;
}

static inline void pp_hw_teardown(void)
{
}

#endif /* PERFCTR_SIM */

#endif /* _PERFCTR_PPC_REGS_H */
