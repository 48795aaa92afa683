/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr test builds: a simulated x86 CPU behind the accessors of
 * arch/x86/perfctr/regs.h, the other side of that header. A model
 * describes a family's registers; the state holds their contents. Tests
 * pick a model, run driver code, make events happen with
 * perfctr_x86_sim_tick(), and look at what the driver read and wrote.
 */
#ifndef _PERFCTR_SIM_X86_MODEL_H
#define _PERFCTR_SIM_X86_MODEL_H

#include <linux/bits.h>
#include <linux/percpu.h>
#include <linux/types.h>

/* Only test builds see this file: the accessors are the simulation's. */
#ifndef PERFCTR_SIM
#define PERFCTR_SIM 1
#endif
#include "../../../arch/x86/perfctr/regs.h"

#define SIM_MAX_CTRS	18

/* How a model's counters are enabled and programmed. */
enum sim_kind {
	SIM_NONE,	/* no counters */
	SIM_P5,		/* CESR halves with CPL bits */
	SIM_WINCHIP,	/* CESR, counters never stop */
	SIM_P6,		/* EVNTSEL0.EN gates all counters */
	SIM_ARCH,	/* per-counter EN, plus GLOBAL_CTRL from version 2 */
	SIM_K7,		/* per-counter EN */
	SIM_C3,		/* only counter 1, never stops */
	SIM_P4,		/* CCCR per counter, selecting a shared ESCR */
};

#define SIM_P4_ESCR0	0x3A0
#define SIM_P4_NR_ESCRS	0x42

struct perfctr_x86_sim_model {
	const char *name;
	u8 vendor, family, model, stepping;
	bool has_tsc, has_mmx, has_perfctr_core;
	bool no_apic;			/* CPUID's APIC flag clear */
	unsigned int cpuid_level;
	u32 cpuid_a_eax;		/* CPUID 0xA EAX: version, counters */
	unsigned int nr_fixed;		/* fixed-function counters (0xA EDX) */
	enum sim_kind kind;
	u32 pmc_mask;			/* counters that exist */
	u32 sel_msr, ctr_msr, stride;
	unsigned int width;		/* counter bits */
	bool sext31;			/* writes sign-extend from bit 31 */
	bool no_rdpmc;
	bool dead;			/* MSRs work, nothing counts (QEMU) */
	bool no_msrs;			/* counter MSRs fault (QEMU, others) */
	unsigned int siblings;		/* hardware threads per core */
	u32 ibs_caps;			/* CPUID Fn8000_001B EAX; 0: no IBS */
	/* AMD family 17h on: counter pairs for large-increment events. */
	bool amd_pairs;
	/* AMD PerfMonV2: CPUID Fn8000_0022 EBX[3:0]; 0: none. */
	u8 amd_v2_ctrs;
	/* Intel arch perfmon v4/v5 and hybrids (intel.c; x86.rst's table). */
	u32 cpuid_a_ecx;		/* v5: fixed counter bitmap */
	bool any_deprecated;		/* CPUID.0AH:EDX[15] */
	u64 perf_caps;			/* IA32_PERF_CAPABILITIES; 0: no PDCM */
	u32 leaf23_gp, leaf23_fixed;	/* CPUID 23H.1 bitmaps; 0: no leaf */
	u8 core_type;			/* CPUID.1AH:EAX[31:24], hybrid parts */
	/* A hybrid machine: its odd CPUs are this part (an E-core). */
	const struct perfctr_x86_sim_model *e_core;
};

/*
 * The IBS model (AMD family 10h on; Documentation/perfctr/testing.rst):
 * the fetch counter counts cycles, the op counter cycles or, with
 * IbsOpCntCtl, dispatched ops, one per SIM_IBS_CYCLES_PER_OP cycles.
 * At MaxCnt an engine latches a sample from the values below (RIPs from
 * ibs_rip), sets Val, stops, and raises the IBS NMI if its LVT entry is
 * an unmasked NMI. Every op is a load with both DC addresses valid.
 */
#define SIM_IBS_CYCLES_PER_OP	2
#define SIM_IBS_LVT_OFFSET	1		/* IbsCtl's LvtOffset */
#define SIM_IBS_FETCH_PHYS	0x12345000ULL	/* | the RIP's page offset */
#define SIM_IBS_FETCH_LAT	0x20ULL		/* IbsFetchLat, cycles */
#define SIM_IBS_OP_DATA1	0x00050003ULL	/* TagToRet 5, CompToRet 3 */
#define SIM_IBS_OP_DATA2	0ULL
#define SIM_IBS_DC_LIN		0x00007FFD12340040ULL
#define SIM_IBS_DC_PHYS		0x0000000023456040ULL
#define SIM_IBS_EILVTS		4

struct perfctr_x86_sim_ibs {
	u64 fetch_ctl, fetch_lin, fetch_phys;
	u64 op_ctl, op_rip, op_data[3], dc_lin, dc_phys;
	u64 ctl;			/* IbsCtl */
	u64 fetch_cnt, op_cnt;		/* the engines' counts, whole */
	u64 op_cycles;			/* cycles toward the next op */
	u32 eilvt[SIM_IBS_EILVTS];	/* the extended APIC LVT entries */
	u64 rip;			/* the RIP the next sample latches */
	bool rip_invalid;		/* latch ops with IbsRipInvalid */
	bool not_load;			/* latch ops that are no loads */
	bool foreign;			/* perf's IBS holds this CPU */
	bool nmi_pending;		/* raised, not yet delivered */
	bool in_nmi;			/* delivering: no nested NMI */
	bool live_latch;		/* live mode: latch now (timer tick) */
	u32 rand;			/* RandEn's generator */
	unsigned int nr_fetch, nr_op;	/* samples latched */
	unsigned int nr_nmi;		/* NMIs delivered */
};

struct perfctr_x86_sim_state {
	const struct perfctr_x86_sim_model *m;
	u64 tsc;			/* value of the next RDTSC */
	u64 tsc_step;			/* added to tsc after each RDTSC */
	u64 sel[SIM_MAX_CTRS];
	u64 ctr[SIM_MAX_CTRS];
	u64 cesr;
	u64 global_ctrl;		/* arch v2 GLOBAL_CTRL, AMD PerfCntrGlobalCtl */
	u64 escr[SIM_P4_NR_ESCRS];	/* P4 */
	u64 fixed[8];			/* Intel fixed-function counters */
	u64 fixed_ctrl;
	u64 perf_metrics;		/* IA32_PERF_METRICS (intel.c) */
	u64 global_status;		/* arch v2, AMD PerfMonV2 overflow flags */
	u64 sel_at_preset;		/* a counter's control when last preset */
	u64 pebs_enable, pebs_matrix_vert;
	/* Overflows that interrupted: bit n, or bit 24 + n for fixed n. */
	u32 ovf_pending;
	u64 autotick;			/* events per MSR read: time passing */
	bool kernel_busy;		/* perf_events holds the counters */
	u32 lvtpc;			/* the local APIC's LVTPC entry */
	bool nmi_registered;
	unsigned int kernel_reserved;	/* MSRs we hold in its allocator */
	unsigned int nr_rdtsc, nr_rdpmc, nr_rdmsr, nr_wrmsr;
	unsigned int nr_fw_writes;	/* through IA32_A_PMCx (intel.c) */
	unsigned int nr_bad;		/* unsafe access to a missing register */
	u32 last_bad;
	bool user_rdpmc;		/* CR4.PCE: user space may RDPMC */
	void (*nmi_window)(void);	/* a test's NMI at pc_nmi_window() */
	bool live;			/* counters follow the real TSC */
	u64 last_tsc;
	unsigned int phase;		/* cycles since power-on, mod 4 */
	struct perfctr_x86_sim_ibs ibs;
	bool ibs_nmi_registered;	/* kunit.c; live.c has its own */
	/* kunit.c: pc_on_each_cpu() calls and IBS NMI registrations */
	unsigned int nr_broadcasts, nr_ibs_nmi_registers;
};

/*
 * One simulated CPU per CPU. Tests pin themselves to one CPU; the driver
 * calls in with preemption off; so the raw accessor is right.
 */
DECLARE_PER_CPU(struct perfctr_x86_sim_state, perfctr_x86_sim_pcpu);
#define perfctr_x86_sim (*raw_cpu_ptr(&perfctr_x86_sim_pcpu))

extern const struct perfctr_x86_sim_model sim_generic, sim_p5, sim_p5mmx,
	sim_mii, sim_winchip, sim_p6, sim_arch_v1, sim_arch_v2, sim_k7,
	sim_k8, sim_fam10, sim_fam15, sim_c3, sim_qemu_p6, sim_qemu_k7,
	sim_p4, sim_p4_m1, sim_p4_ht, sim_core2_tcg, sim_no_tsc,
	sim_p6_no_tsc, sim_p6_no_apic;
extern const struct perfctr_x86_sim_model sim_zen3, sim_zen4, sim_hygon;

/* Intel arch perfmon v4, v5 and a hybrid: tests/sim/x86/intel.c. */
extern const struct perfctr_x86_sim_model sim_skylake, sim_sapphire_rapids,
	sim_alder_lake, sim_alder_lake_e;

/* @m's fixed counters as a bitmap: EDX[4:0] first ones, v5's ECX, leaf 23H. */
u32 perfctr_x86_sim_fixed_mask(const struct perfctr_x86_sim_model *m);

/* What CPU @cpu of machine @m is: @m, or its E-core part. */
const struct perfctr_x86_sim_model *
perfctr_x86_sim_part(const struct perfctr_x86_sim_model *m, unsigned int cpu);

/*
 * Power on @m: registers zero, TSC at 0 and still, nothing reserved,
 * every CPU's CPUID the model's.
 */
void perfctr_x86_sim_reset(const struct perfctr_x86_sim_model *m);

/*
 * CPU @cpu answers CPUID leaf 0xA with @eax and @edx instead of as the
 * model does (a hybrid or asymmetric machine), until the next reset.
 */
void perfctr_x86_sim_set_leaf_a(unsigned int cpu, u32 eax, u32 edx);

/* The same with leaf 0xA's ECX too (v5's fixed counter bitmap). */
void perfctr_x86_sim_set_leaf_a5(unsigned int cpu, u32 eax, u32 ecx, u32 edx);

/*
 * @n cycles pass: every enabled counter advances by @n, but on the AMD
 * kinds (SIM_K7), where counter mask, invert and edge are honoured and
 * event SIM_PATTERN_EVENT occurs 0, 1, 2, 3 times in successive cycles
 * (Documentation/perfctr/testing.rst, "The AMD pattern event").
 */
void perfctr_x86_sim_tick(u64 n);

/* Its 12-bit event select: EventSelect[7:0] 0xFF, [11:8] 0. */
#define SIM_PATTERN_EVENT	0x0FF
/*
 * On models with amd_pairs, event SIM_WIDE_EVENT (AMD's 0x003, retired
 * SSE/AVX FLOPs) occurs SIM_WIDE_PER_CYCLE times a cycle. An even counter
 * adds them all only if the odd one next to it holds the Merge event
 * (SIM_MERGE_EVENT with EN); alone it keeps the low four bits of each
 * cycle's increment (Documentation/perfctr/testing.rst).
 */
#define SIM_WIDE_EVENT		0x003
#define SIM_WIDE_PER_CYCLE	18
#define SIM_MERGE_EVENT		0xFFF
/*
 * Deliver a raised IBS NMI on this CPU, as the kernel would, to the
 * driver's handler if registered: its return value, or -1 if there was
 * none to deliver. @regs: the interrupted registers, or NULL.
 */
int perfctr_x86_sim_ibs_nmi(struct pt_regs *regs);

/* Perf's IBS holds CPU @cpu (@on): IbsOpEn set with perf's own MaxCnt. */
void perfctr_x86_sim_ibs_perf(unsigned int cpu, bool on);
#define SIM_IBS_PERF_OP_CTL	(BIT_ULL(17) | 0x1234ULL)

/* The value of hardware counter @pmc (or PERFCTR_X86_FIXED_PMC | n), full width. */
u64 perfctr_x86_sim_counter(unsigned int pmc);

/* Every CPU powered on as @m, its counters following the real TSC. */
void perfctr_x86_sim_live(const struct perfctr_x86_sim_model *m);

/*
 * What the model asks of whoever drives it: kunit.c in perfctr_test.ko
 * (one CPU, the test's time) or live.c in perfctr_simpmu.ko (every CPU,
 * real time). Each module links one of the two, which also give
 * perfctr_sim_on_each_cpu() and perfctr_sim_(un)register_nmi().
 */
void perfctr_x86_sim_publish(void);		/* the registers changed */
void perfctr_x86_sim_lvtpc_changed(void);	/* PMIs masked or not */
bool perfctr_x86_sim_ibs_nmi_registered(void);
void perfctr_x86_sim_ibs_changed(void);		/* an engine started */

#endif /* _PERFCTR_SIM_X86_MODEL_H */
