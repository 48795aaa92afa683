/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr x86: what the common x86 code needs from each CPU family.
 * One family per file; each fills in one struct perfctr_x86_family.
 */
#ifndef _PERFCTR_X86_H
#define _PERFCTR_X86_H

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/moduleparam.h>
#include <asm/msr-index.h>

#include <perfctr/cpu_arch.h>

#include "regs.h"

/* Values of perfctr_info.family_id, stable for user space. */
enum perfctr_x86_family_id {
	PERFCTR_X86_GENERIC = 0,
	PERFCTR_X86_INTEL_P5 = 1,
	PERFCTR_X86_INTEL_P5MMX = 2,
	PERFCTR_X86_INTEL_P6 = 3,
	PERFCTR_X86_INTEL_ARCH = 4,	/* architectural perfmon, CPUID 0xA */
	PERFCTR_X86_INTEL_P4 = 5,
	PERFCTR_X86_AMD_K7 = 6,
	PERFCTR_X86_AMD_K8 = 7,
	PERFCTR_X86_AMD_FAM10 = 8,	/* family 10h and later */
	PERFCTR_X86_CYRIX_MII = 9,
	PERFCTR_X86_WINCHIP = 10,
	PERFCTR_X86_VIA_C3 = 11,
};

/* The P4's ESCRs lie between these MSRs. */
#define PC_ESCR_FIRST		0x3A0
#define PC_NR_ESCRS		(0x3E1 - PC_ESCR_FIRST + 1)

/* Per CPU: what the control registers hold, so unchanged ones are not rewritten. */
struct pc_cache {
	u64 id;				/* control loaded, or 0 if unknown */
	u64 ctl[PERFCTR_NR_PMCS];	/* last value written, per hw counter */
	u64 escr[PC_NR_ESCRS];		/* P4 only */
	u64 fixed_ctrl;			/* Intel fixed-function counters */
	u64 pebs_enable, pebs_matrix_vert;
	u32 used;			/* counters the last control read */
	u64 owner;			/* control whose counts they hold */
	u64 global_ctrl;		/* arch v2+: GLOBAL_CTRL as written */
	u64 global_on;			/* ... with our counters enabled */
};

/* pmc_map[] may carry flags above the counter number (P4 fast RDPMC). */
#define PC_HW_INDEX(pmc)	((pmc) & 0x1F)

static inline bool pc_is_fixed(u32 pmc)
{
	return pmc & PERFCTR_X86_FIXED_PMC;
}

/* Event select bits with the same meaning on P6, K7 and later. */
#define EVNTSEL_USR		0x00010000U
#define EVNTSEL_OS		0x00020000U
#define EVNTSEL_INT		0x00100000U
#define EVNTSEL_EN		0x00400000U

/* Bit 19 (pin control) and bit 21 (AnyThread, arch perfmon v3+): p6.c, arch.c. */
#define PC_P6_RESERVED		0x00280000U

/* What the P6 and architectural perfmon families share (p6.c, arch.c). */
#define PC_P6_COMMON						\
	.features = PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC, \
	.kernel_reserve = true,					\
	.pmi = true,						\
	.sel_msr = MSR_P6_EVNTSEL0,				\
	.ctr_msr = MSR_P6_PERFCTR0,				\
	.msr_stride = 1,					\
	.counts_kernel = pc_evntsel_counts_kernel

/* An enabled counter counting at every privilege level (K7, P6). */
#define COUNT_ALL		(EVNTSEL_EN | EVNTSEL_OS | EVNTSEL_USR)

/* Bit 0 of a fixed counter's IA32_FIXED_CTR_CTRL field: count at CPL 0. */
#define FIXED_OS		0x1U

/* The P4 CCCR's enable bit: the counter counts only with it set. */
#define PC_P4_CCCR_ENABLE	0x00001000U

/*
 * Fixed-function counters the driver can address: counter masks give
 * them bits 24-31 of a u32 (core.c), so at most 8.
 */
#define PC_MAX_FIXED		8

/* How a family's event selects enable their counters. */
enum pc_enable {
	PC_EN_NONE,		/* no enable bit (P5, VIA C3) */
	PC_EN_EACH,		/* every evntsel has its own (K7, arch perfmon) */
	PC_EN_PMC0,		/* one global bit in EVNTSEL0 (P6) */
};

/*
 * How suspend stops a state's counters, so that they do not count other
 * tasks, and resume starts them again (F5 of the security audit).
 */
enum pc_gate {
	PC_GATE_NONE,		/* no counters (generic) */
	PC_GATE_GLOBAL,		/* one GLOBAL_CTRL write (arch perfmon v2+) */
	PC_GATE_PMC0,		/* EVNTSEL0.EN gates all (P6) */
	PC_GATE_EACH,		/* each evntsel's EN (arch v1, AMD) */
	PC_GATE_CCCR,		/* each CCCR's enable bit (P4) */
	PC_GATE_CESR,		/* CESR zero: CC fields count nothing (P5) */
	PC_GATE_ZERO,		/* cannot stop: zeroed at resume (WinChip, C3) */
};

/* The per-counter rules of families with one event select per counter. */
struct pc_evntsel_rules {
	u32 reserved;		/* bits that must be clear */
	u32 cpl;		/* at least one of these must be set, if any */
	enum pc_enable enable;
	u32 intr;		/* set exactly for i-mode counters, if any */
	u32 high_allowed;	/* bits allowed in evntsel_high[] */
};

struct perfctr_x86_family {
	const char *name;
	enum perfctr_x86_family_id id;
	unsigned int nrctrs;
	u32 pmc_mask;			/* valid hardware counter numbers */
	u32 fixed_mask;			/* valid Intel fixed-function counters */
	unsigned int features;		/* PERFCTR_FEATURE_RDPMC, _RDTSC */
	bool read_by_msr;		/* no RDPMC: read with RDMSR (P5) */
	bool kernel_reserve;		/* perf_events knows these counters */
	bool pmi;			/* overflow can interrupt via LVTPC */
	bool global_ctrl;		/* IA32_PERF_GLOBAL_CTRL (arch v2+) */
	enum pc_gate gate;		/* set by core.c from the family */
	u32 sel_msr, ctr_msr;		/* MSRs of hardware counter 0 */
	/*
	 * Counter 0's MSR for counter writes, if not ctr_msr: Intel's
	 * full-width alias IA32_A_PMC0 (arch.c), which takes every bit.
	 */
	u32 ctr_wr_msr;
	bool wide_writes;		/* counter MSRs take every bit (AMD) */
	u32 msr_stride;			/* distance to counter 1's MSRs */
	u8 ctr_bits, fixed_bits;	/* counter widths, for presets */
	u32 selftest_event;		/* counts cycles or instructions */
	u32 selftest_aux_msr;		/* written with selftest_aux first */
	u32 selftest_aux;
	struct pc_evntsel_rules rules;
	/* Rules for a fixed-function counter i (pc_check_evntsels); or NULL. */
	int (*check_fixed)(const struct perfctr_cpu_control *c, unsigned int i);
	/* Family rules beyond the per-counter ones; NULL if none. */
	int (*check_control)(const struct perfctr_cpu_state *state,
			     bool is_global);
	/*
	 * Can a counter of @state's valid control count in kernel mode (CPL
	 * 0)? NULL: the family has no mode bits, so every counter does.
	 */
	bool (*counts_kernel)(const struct perfctr_cpu_state *state);
	/*
	 * CPU @cpu is coming online: 0 if it has every counter offered, else
	 * -EBUSY with @why (of @len bytes) saying what it lacks. NULL: every
	 * CPU of the family has the same counters.
	 */
	int (*check_cpu)(unsigned int cpu, char *why, size_t len);
	/* Derive per-state data from a valid control; NULL if none. */
	void (*commit_control)(struct perfctr_cpu_state *state);
	/* Load the control registers of @state (cache says what is there). */
	void (*write_control)(const struct perfctr_cpu_state *state,
			      struct pc_cache *cache);
	/* Stop hardware counter @pmc (an i-mode counter being suspended). */
	void (*stop_counter)(u32 pmc, struct pc_cache *cache);
	/*
	 * In the overflow NMI: has an i-mode counter of @state overflowed?
	 * NULL: the counters' values say.
	 */
	bool (*ictrs_overflowed)(const struct perfctr_cpu_state *state);
	/* Clear overflow flags of the counters in @mask; NULL if none. */
	void (*ack_overflow)(const struct perfctr_cpu_state *state,
			     unsigned int mask);
	/* Zero every control register of this CPU. */
	void (*clear_counters)(struct pc_cache *cache);
	/* Per CPU, around a reservation: global state to set and restore. */
	void (*reserve_cpu)(void);
	void (*release_cpu)(void);
};

extern const struct perfctr_x86_family perfctr_generic_family;
extern const struct perfctr_x86_family perfctr_p5_family;
extern const struct perfctr_x86_family perfctr_p5mmx_family;
extern const struct perfctr_x86_family perfctr_mii_family;
extern const struct perfctr_x86_family perfctr_winchip_family;
extern const struct perfctr_x86_family perfctr_p6_family;
extern const struct perfctr_x86_family perfctr_arch_family;
extern const struct perfctr_x86_family perfctr_k7_family;
extern const struct perfctr_x86_family perfctr_k8_family;
extern const struct perfctr_x86_family perfctr_fam10_family;
extern const struct perfctr_x86_family perfctr_fam15_family;
extern const struct perfctr_x86_family perfctr_amd_v2_family;
extern const struct perfctr_x86_family perfctr_c3_family;
extern const struct perfctr_x86_family perfctr_p4_family;

/* AMD: family 17h on pairs counters for its large-increment events. */
void pc_amd_setup(const struct pc_cpu_ident *id);

/* Fills @out from CPUID Fn8000_0022; false without AMD PerfMonV2. */
bool pc_amd_v2_probe(const struct pc_cpu_ident *id,
		     struct perfctr_x86_family *out);

/* P4 model and Hyper-Threading facts, from detection. */
void pc_p4_setup(const struct pc_cpu_ident *id);

/* The driver in use; read-only after perfctr_cpu_init(). */
extern struct perfctr_x86_family pc_family;

/* Module parameter rdpmc: 0 never, 1 the running owner, 2 always. */
extern int pc_rdpmc;
extern const struct kernel_param_ops pc_rdpmc_ops;

/* Shared helpers for families with one event select MSR per counter. */
int pc_check_evntsels(const struct perfctr_cpu_state *state, bool is_global);
void pc_write_evntsels(const struct perfctr_cpu_state *state,
		       struct pc_cache *cache);
void pc_stop_evntsel(u32 pmc, struct pc_cache *cache);
void pc_clear_evntsels(struct pc_cache *cache);
bool pc_evntsel_has(const struct perfctr_cpu_state *state, u32 bits,
		    u32 fixed_bits);
bool pc_evntsel_counts_kernel(const struct perfctr_cpu_state *state);

/* Overflow interrupts (irq.c). */
void pc_irq_arm(struct perfctr_cpu_state *state);
void pc_irq_disarm(bool overflowed);
void pc_irq_setup_cpu(void);
void pc_irq_restore_cpu(void);
int pc_irq_init(void);
void pc_irq_exit(void);

/*
 * IBS (ibs.c): what this CPU has, from detection; at exit, a reservation
 * still in its grace period is given back.
 */
void pc_ibs_init(const struct pc_cpu_ident *id);
void pc_ibs_exit(void);

/* Fills @out from CPUID leaf 0xA; false without architectural perfmon. */
bool pc_arch_perfmon_probe(const struct pc_cpu_ident *id,
			   struct perfctr_x86_family *out);

/*
 * Detection (detect.c): fills @out with the driver for this CPU, sized
 * from CPUID where the family is; -ENODEV if there is none. @why says why
 * a CPU of a known vendor gets only the generic driver.
 */
int pc_detect_family(const struct pc_cpu_ident *id,
		     struct perfctr_x86_family *out, const char **why);

static inline u32 pc_sel_msr(u32 pmc)
{
	return pc_family.sel_msr + PC_HW_INDEX(pmc) * pc_family.msr_stride;
}

static inline u32 pc_ctr_msr(u32 pmc)
{
	if (pc_is_fixed(pmc))
		return MSR_CORE_PERF_FIXED_CTR0 + PC_HW_INDEX(pmc);
	return pc_family.ctr_msr + PC_HW_INDEX(pmc) * pc_family.msr_stride;
}

/* The MSR that writes counter @pmc: its full-width alias where there is one. */
static inline u32 pc_ctr_wr_msr(u32 pmc)
{
	if (pc_is_fixed(pmc) || !pc_family.ctr_wr_msr)
		return pc_ctr_msr(pmc);
	return pc_family.ctr_wr_msr + PC_HW_INDEX(pmc) * pc_family.msr_stride;
}

/* Is @pmc's control enabled, as far as this CPU's cache knows? */
static inline bool pc_ctl_live(u32 pmc, const struct pc_cache *cache)
{
	if (pc_is_fixed(pmc))
		return (cache->fixed_ctrl >> (4 * PC_HW_INDEX(pmc))) & 0xF;
	return cache->ctl[PC_HW_INDEX(pmc)] != 0;
}

/* IA32_PERF_GLOBAL_CTRL's enable bits of every counter we drive. */
static inline u64 pc_all_ctrs(void)
{
	return pc_family.pmc_mask | ((u64)pc_family.fixed_mask << 32);
}

/* Bits above a counter's width are reserved: presets must not set them. */
static inline u64 pc_ctr_mask(u32 pmc)
{
	unsigned int bits = pc_is_fixed(pmc) ? pc_family.fixed_bits
					     : pc_family.ctr_bits;

	return bits ? GENMASK_ULL(bits - 1, 0) : ~0ULL;
}

/*
 * Can @pmc be preset beyond 32 bits? Its MSR must take every bit: AMD's
 * do; Intel's through IA32_A_PMCx, and the fixed counters where those
 * exist (as perf presets them).
 */
static inline bool pc_wide_preset(u32 pmc)
{
	return pc_family.ctr_wr_msr ||
	       (pc_family.wide_writes && !pc_is_fixed(pmc));
}

/* A wide i-mode counter has overflowed once its top bit clears. */
static inline bool pc_wide_overflowed(u32 pmc, u64 count)
{
	return !(count & ~(pc_ctr_mask(pmc) >> 1));
}

/* The whole count, for wide i-mode counters: RDMSR, off the hot paths. */
static inline u64 pc_read_counter_wide(u32 pmc)
{
	return pc_rdmsr(pc_ctr_msr(pmc)) & pc_ctr_mask(pmc);
}

static inline u32 pc_read_counter(u32 pmc)
{
	if (unlikely(pc_family.read_by_msr))
		return (u32)pc_rdmsr(pc_ctr_msr(pmc));
	return pc_rdpmc_low(pmc);
}

#endif /* _PERFCTR_X86_H */
