/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr x86: every hardware access the drivers make goes through the
 * accessors here. Production builds inline the real instructions; test
 * builds (PERFCTR_SIM, never in perfctr.ko) route them to the simulated
 * register file in tests/sim/, so KUnit can check driver logic on CPUs
 * nobody here has.
 */
#ifndef _PERFCTR_X86_REGS_H
#define _PERFCTR_X86_REGS_H

#include <linux/cpumask.h>
#include <linux/types.h>

/* What detection needs to know about the boot CPU. */
struct pc_cpu_ident {
	u8 vendor;		/* X86_VENDOR_* */
	u8 family;
	u8 model;
	u8 stepping;
	char vendor_id[16];	/* CPUID leaf 0's, e.g. "GenuineIntel" */
	bool has_tsc;
	bool has_mmx;
	bool has_apic;		/* a usable local APIC */
	bool has_perfctr_core;	/* AMD core-extension counters */
	unsigned int cpuid_level;
	unsigned int siblings;	/* hardware threads per core */
	bool has_ibs;		/* CPUID Fn8000_0001 ECX bit 10 */
	u32 ibs_caps;		/* CPUID Fn8000_001B EAX, if it has IBS */
};

struct pt_regs;
/* The overflow NMI handler (irq.c); registered through pc_register_nmi(). */
int pc_nmi_handler(unsigned int cmd, struct pt_regs *regs);
/* The IBS sample NMI handler (ibs.c); through pc_register_ibs_nmi(). */
int pc_ibs_nmi_handler(unsigned int cmd, struct pt_regs *regs);

#ifdef PERFCTR_SIM

u64 perfctr_sim_rdtsc(void);
u64 perfctr_sim_rdpmc(u32 index);
u64 perfctr_sim_rdmsr(u32 msr);
void perfctr_sim_wrmsr(u32 msr, u64 val);
int perfctr_sim_rdmsr_safe(u32 msr, u64 *val);
int perfctr_sim_wrmsr_safe(u32 msr, u64 val);
void perfctr_sim_cpuid_on(unsigned int cpu, u32 leaf, u32 *a, u32 *b, u32 *c,
			  u32 *d);
void perfctr_sim_cpuid_count_on(unsigned int cpu, u32 leaf, u32 sub, u32 *a,
				u32 *b, u32 *c, u32 *d);
void perfctr_sim_cpu_ident(struct pc_cpu_ident *id);
void perfctr_sim_thread1_cpus(struct cpumask *mask);
u32 perfctr_sim_lvtpc_read(void);
void perfctr_sim_lvtpc_write(u32 val);
int perfctr_sim_register_nmi(void);
void perfctr_sim_unregister_nmi(void);
bool perfctr_sim_reserve_kernel(u32 msr);
void perfctr_sim_release_kernel(u32 msr);
void perfctr_sim_user_rdpmc(bool on);
void perfctr_sim_nmi_window(void);
int perfctr_sim_hw_setup(void);
void perfctr_sim_hw_teardown(void);
int perfctr_sim_register_ibs_nmi(void);
void perfctr_sim_unregister_ibs_nmi(void);
u32 perfctr_sim_eilvt_read(unsigned int offset);
int perfctr_sim_eilvt_setup(unsigned int offset, u8 vector, u8 msg_type,
			    u8 mask);

/* The live simulation (device, timers, model=) comes up before detection. */
static inline int pc_hw_setup(void)
{
	return perfctr_sim_hw_setup();
}

static inline void pc_hw_teardown(void)
{
	perfctr_sim_hw_teardown();
}

static inline u32 pc_rdtsc_low(void)
{
	return (u32)perfctr_sim_rdtsc();
}

static inline u64 pc_rdtsc(void)
{
	return perfctr_sim_rdtsc();
}

static inline u32 pc_rdpmc_low(u32 index)
{
	return (u32)perfctr_sim_rdpmc(index);
}

static inline u64 pc_rdmsr(u32 msr)
{
	return perfctr_sim_rdmsr(msr);
}

static inline void pc_wrmsr(u32 msr, u64 val)
{
	perfctr_sim_wrmsr(msr, val);
}

static inline int pc_rdmsr_safe(u32 msr, u64 *val)
{
	return perfctr_sim_rdmsr_safe(msr, val);
}

static inline int pc_wrmsr_safe(u32 msr, u64 val)
{
	return perfctr_sim_wrmsr_safe(msr, val);
}

static inline void pc_cpuid_on(unsigned int cpu, u32 leaf, u32 *a, u32 *b,
			       u32 *c, u32 *d)
{
	perfctr_sim_cpuid_on(cpu, leaf, a, b, c, d);
}

static inline void pc_cpuid_count_on(unsigned int cpu, u32 leaf, u32 sub,
				     u32 *a, u32 *b, u32 *c, u32 *d)
{
	perfctr_sim_cpuid_count_on(cpu, leaf, sub, a, b, c, d);
}

static inline void pc_cpu_ident(struct pc_cpu_ident *id)
{
	perfctr_sim_cpu_ident(id);
}

static inline void pc_thread1_cpus(struct cpumask *mask)
{
	perfctr_sim_thread1_cpus(mask);
}

static inline u32 pc_lvtpc_read(void)
{
	return perfctr_sim_lvtpc_read();
}

static inline void pc_lvtpc_write(u32 val)
{
	perfctr_sim_lvtpc_write(val);
}

/* Tests call pc_nmi_handler() themselves: no real NMI reaches the model. */
static inline int pc_register_nmi(void)
{
	return perfctr_sim_register_nmi();
}

static inline void pc_unregister_nmi(void)
{
	perfctr_sim_unregister_nmi();
}

void perfctr_sim_on_each_cpu(void (*fn)(void *));

static inline void pc_on_each_cpu(void (*fn)(void *))
{
	perfctr_sim_on_each_cpu(fn);
}

static inline void pc_on_ready_cpus(void (*fn)(void *))
{
	perfctr_sim_on_each_cpu(fn);
}

static inline bool pc_reserve_kernel_ctr(u32 ctr_msr, u32 sel_msr)
{
	if (!perfctr_sim_reserve_kernel(ctr_msr))
		return false;
	if (perfctr_sim_reserve_kernel(sel_msr))
		return true;
	perfctr_sim_release_kernel(ctr_msr);
	return false;
}

static inline void pc_release_kernel_ctr(u32 ctr_msr, u32 sel_msr)
{
	perfctr_sim_release_kernel(sel_msr);
	perfctr_sim_release_kernel(ctr_msr);
}

static inline void pc_user_rdpmc(bool on)
{
	perfctr_sim_user_rdpmc(on);
}

/* Where tests deliver an NMI between two stores (irq.c). */
static inline void pc_nmi_window(void)
{
	perfctr_sim_nmi_window();
}

static inline int pc_register_ibs_nmi(void)
{
	return perfctr_sim_register_ibs_nmi();
}

static inline void pc_unregister_ibs_nmi(void)
{
	perfctr_sim_unregister_ibs_nmi();
}

static inline u32 pc_eilvt_read(unsigned int offset)
{
	return perfctr_sim_eilvt_read(offset);
}

static inline int pc_eilvt_setup(unsigned int offset, u8 vector, u8 msg_type,
				 u8 mask)
{
	return perfctr_sim_eilvt_setup(offset, vector, msg_type, mask);
}

#else /* !PERFCTR_SIM */

#include <linux/log2.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <asm/apic.h>
#include <asm/cpufeature.h>
#include <asm/msr.h>
#include <asm/nmi.h>
#include <asm/processor.h>
#include <asm/smp.h>
#include <asm/tlbflush.h>
#include <perfctr/compat.h>

/* Only the low 32 bits are ever used: cheaper, and dodges width errata. */
static inline u32 pc_rdtsc_low(void)
{
	return (u32)rdtsc();
}

/* The whole TSC: /dev/perfmon's PMIOTSTAMP. */
static inline u64 pc_rdtsc(void)
{
	return rdtsc();
}

static inline u32 pc_rdpmc_low(u32 index)
{
	return (u32)rdpmc(index);
}

static inline u64 pc_rdmsr(u32 msr)
{
	u64 val;

	rdmsrq(msr, val);
	return val;
}

static inline void pc_wrmsr(u32 msr, u64 val)
{
	wrmsrq(msr, val);
}

/* For probing only: MSRs that may not exist (emulators, hypervisors). */
static inline int pc_rdmsr_safe(u32 msr, u64 *val)
{
	return rdmsrq_safe(msr, val);
}

static inline int pc_wrmsr_safe(u32 msr, u64 val)
{
	return wrmsrq_safe(msr, val);
}

struct pc_cpuid_regs {
	u32 leaf, sub, a, b, c, d;
};

static inline void pc_cpuid_fn(void *info)
{
	struct pc_cpuid_regs *r = info;

	cpuid_count(r->leaf, r->sub, &r->a, &r->b, &r->c, &r->d);
}

/*
 * CPUID as CPU @cpu answers it: hybrid and asymmetric CPUs differ. All
 * zero if @cpu is not online. Interrupts on.
 */
static inline void pc_cpuid_count_on(unsigned int cpu, u32 leaf, u32 sub,
				     u32 *a, u32 *b, u32 *c, u32 *d)
{
	struct pc_cpuid_regs r = { .leaf = leaf, .sub = sub };

	if (smp_call_function_single(cpu, pc_cpuid_fn, &r, 1))
		memset(&r, 0, sizeof(r));
	*a = r.a;
	*b = r.b;
	*c = r.c;
	*d = r.d;
}

/* Sub-leaf 0: the same for leaves that ignore ECX. */
static inline void pc_cpuid_on(unsigned int cpu, u32 leaf, u32 *a, u32 *b,
			       u32 *c, u32 *d)
{
	pc_cpuid_count_on(cpu, leaf, 0, a, b, c, d);
}

static inline void pc_cpu_ident(struct pc_cpu_ident *id)
{
	const struct cpuinfo_x86 *c = &boot_cpu_data;

	id->vendor = c->x86_vendor;
	id->family = c->x86;
	id->model = c->x86_model;
	id->stepping = c->x86_stepping;
	strscpy(id->vendor_id, c->x86_vendor_id, sizeof(id->vendor_id));
	id->has_tsc = boot_cpu_has(X86_FEATURE_TSC);
	id->has_mmx = boot_cpu_has(X86_FEATURE_MMX);
	/* Cleared at boot when the local APIC is disabled or absent. */
	id->has_apic = boot_cpu_has(X86_FEATURE_APIC);
	id->has_perfctr_core = boot_cpu_has(X86_FEATURE_PERFCTR_CORE);
	id->cpuid_level = c->cpuid_level;
	id->siblings = perfctr_threads_per_core();
	id->has_ibs = boot_cpu_has(X86_FEATURE_IBS);
	id->ibs_caps = 0;
	if (id->has_ibs && c->extended_cpuid_level >= 0x8000001B)
		id->ibs_caps = cpuid_eax(0x8000001B);
}

/*
 * Hyper-threads other than thread 0 of their core: the SMT bits of the
 * APIC ID, which firmware gives for every possible CPU, online or not.
 */
static inline void pc_thread1_cpus(struct cpumask *mask)
{
	unsigned int cpu, smt_mask = roundup_pow_of_two(perfctr_threads_per_core()) - 1;

	cpumask_clear(mask);
	for_each_possible_cpu(cpu)
		if (cpu_physical_id(cpu) & smt_mask)
			cpumask_set_cpu(cpu, mask);
}

static inline void pc_on_each_cpu(void (*fn)(void *))
{
	on_each_cpu(fn, NULL, 1);
}

/* The CPUs the hotplug callback counted in: perfctr_cpus_ready. */
static inline void pc_on_ready_cpus(void (*fn)(void *))
{
	on_each_cpu_mask(&perfctr_cpus_ready, fn, NULL, true);
}

/* Real counters need nothing set up before detection, nor after exit. */
static inline int pc_hw_setup(void)
{
	return 0;
}

static inline void pc_hw_teardown(void)
{
}

static inline u32 pc_lvtpc_read(void)
{
	return perfctr_apic_read(APIC_LVTPC);
}

static inline void pc_lvtpc_write(u32 val)
{
	perfctr_apic_write(APIC_LVTPC, val);
}

static inline int pc_register_nmi(void)
{
	return register_nmi_handler(NMI_LOCAL, pc_nmi_handler, 0, "perfctr");
}

static inline void pc_unregister_nmi(void)
{
	unregister_nmi_handler(NMI_LOCAL, "perfctr");
}

/*
 * The kernel's own counter allocation, shared with perf_events and the
 * NMI watchdog: whoever takes a counter here owns it.
 */
static inline bool pc_reserve_kernel_ctr(u32 ctr_msr, u32 sel_msr)
{
	if (!reserve_perfctr_nmi(ctr_msr))
		return false;
	if (reserve_evntsel_nmi(sel_msr))
		return true;
	release_perfctr_nmi(ctr_msr);
	return false;
}

static inline void pc_release_kernel_ctr(u32 ctr_msr, u32 sel_msr)
{
	release_evntsel_nmi(sel_msr);
	release_perfctr_nmi(ctr_msr);
}

/*
 * CR4.PCE lets user space execute RDPMC. Interrupts off. Turning it off
 * leaves it on if perf_events lets this mm use RDPMC: a thread of the
 * same mm may run next, and switch_mm() only fixes PCE for a new mm.
 */
static inline void pc_user_rdpmc(bool on)
{
	struct mm_struct *mm = current->mm;

	if (on)
		perfctr_set_pce(true);
	else if (!mm || !atomic_read(&mm->context.perf_rdpmc_allowed))
		perfctr_set_pce(false);
}

/* Real NMIs come when they like; only the simulation places one here. */
static inline void pc_nmi_window(void)
{
}

static inline int pc_register_ibs_nmi(void)
{
	return register_nmi_handler(NMI_LOCAL, pc_ibs_nmi_handler, 0,
				    "perfctr_ibs");
}

static inline void pc_unregister_ibs_nmi(void)
{
	unregister_nmi_handler(NMI_LOCAL, "perfctr_ibs");
}

/* Extended APIC LVT entry @offset (AMD, APIC 500h on), as IbsCtl names it. */
static inline u32 pc_eilvt_read(unsigned int offset)
{
	return perfctr_apic_read(0x500 + 0x10 * offset);
}

/*
 * Through the kernel, which keeps who uses each offset: it refuses an
 * offset already set up for another vector or message type, and lets
 * perf's IBS and us share one set up the same way (an NMI).
 */
static inline int pc_eilvt_setup(unsigned int offset, u8 vector, u8 msg_type,
				 u8 mask)
{
	return setup_APIC_eilvt(offset, vector, msg_type, mask);
}

#endif /* PERFCTR_SIM */

/*
 * AMD PerfMonV2 (CPUID Fn8000_0022 EAX[0]; APM vol. 2, 24593 rev. 3.42,
 * section 13.2): one bit per core counter in each of PerfCntrGlobalCtl
 * (a counter counts only with this bit and its PERF_CTL.EN),
 * PerfCntrGlobalStatus (overflowed; read-only) and
 * PerfCntrGlobalStatusClr (write 1 to clear a status bit).
 */
#define PC_AMD_GLOBAL_STATUS		0xC0000300U
#define PC_AMD_GLOBAL_CTL		0xC0000301U
#define PC_AMD_GLOBAL_STATUS_CLR	0xC0000302U

static inline u64 pc_amd_global_ctl_read(void)
{
	return pc_rdmsr(PC_AMD_GLOBAL_CTL);
}

static inline void pc_amd_global_ctl_write(u64 val)
{
	pc_wrmsr(PC_AMD_GLOBAL_CTL, val);
}

static inline u64 pc_amd_global_status(void)
{
	return pc_rdmsr(PC_AMD_GLOBAL_STATUS);
}

static inline void pc_amd_global_status_clr(u64 bits)
{
	pc_wrmsr(PC_AMD_GLOBAL_STATUS_CLR, bits);
}

#endif /* _PERFCTR_X86_REGS_H */
