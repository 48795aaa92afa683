/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr: kernel-internal low-level API, common to every architecture.
 * See Documentation/perfctr/low-level-api.rst.
 */
#ifndef _PERFCTR_CPU_H
#define _PERFCTR_CPU_H

#include <linux/types.h>
#include <linux/build_bug.h>
#include <linux/cpumask.h>
#include <linux/stddef.h>
#include <perfctr/perfctr.h>	/* include/uapi/perfctr/perfctr.h */

/*
 * The state of one set of counters: the user-visible prefix (what the
 * mmap'd state page shows), then the control and whatever the
 * architecture derives from it.
 */
struct perfctr_cpu_state {
	union {
		struct perfctr_cpu_state_user user;
		struct {	/* same members, for short names */
			u32 cstatus;
			struct {
				u32 id;
				s32 isuspend_cpu;
			} k1;
			u32 tsc_start;
			u64 tsc_sum;
			struct perfctr_pmc_state pmc[PERFCTR_NR_PMCS];
		};
	};
	struct perfctr_cpu_control control;
	/*
	 * Identifies the validated control for the per-CPU register caches:
	 * never 0, never the same twice (a 64-bit count, which cannot wrap),
	 * so no set can pose as another's cached control. The state page
	 * shows it, so it is that count through a keyed permutation, and
	 * tells nobody how many controls others validated (cpu.c). k1.id
	 * stays 0.
	 */
	u64 id;
#ifdef CONFIG_X86
	u32 p4_escr_map[PERFCTR_NR_PMCS];	/* ESCR MSR per counter */
	/* Wide i-mode counters (bit n: pmc[n]) and their starts' bits 63:32. */
	u32 wide;
	u32 start_high[PERFCTR_NR_PMCS];
#endif
#ifdef CONFIG_PPC32
	u32 ppc_mmcr[3];			/* MMCR0-2 from the control */
#endif
};

/* The short names must alias the user-visible prefix exactly. */
static_assert(offsetof(struct perfctr_cpu_state, tsc_sum) ==
	      offsetof(struct perfctr_cpu_state_user, tsc_sum));
static_assert(offsetof(struct perfctr_cpu_state, pmc) ==
	      offsetof(struct perfctr_cpu_state_user, pmc));
static_assert(offsetof(struct perfctr_cpu_state, control) >=
	      sizeof(struct perfctr_cpu_state_user));

/* Driver information, filled in by perfctr_cpu_init(). */
struct perfctr_cpu_info {
	const char *name;		/* CPU type name */
	unsigned int family_id;		/* PERFCTR_X86_* or PERFCTR_PPC_* */
	unsigned int features;		/* PERFCTR_FEATURE_* */
	unsigned int nrctrs;		/* programmable counters */
	unsigned int cpu_khz;
	unsigned int tsc_to_cpu_mult;	/* core clock / TSC clock */
	const char *fallback_reason;	/* why only the TSC is used, or NULL */
	const char *core_types;		/* a hybrid CPU's, or NULL */
	/*
	 * The CPU as perf's pmu-events mapfiles name it: x86 "vendor-family-
	 * model-stepping" (family in decimal, model and stepping in upper-case
	 * hex, as CPUID leaf 1 gives them with the extended fields added),
	 * ppc32 the PVR as "0x%08x". For named-event tables in user space.
	 */
	char cpuid[32];
};

extern struct perfctr_cpu_info perfctr_info;

/* CPUs that must never touch the counters (HT thread 1 on a P4). */
extern struct cpumask perfctr_cpus_forbidden_mask;
/*
 * CPUs the hotplug callback checked and counted in, changed only under
 * the reservation's lock: a reservation sets up, and a release restores,
 * exactly these, so a CPU coming online is set up once, by whichever of
 * the two runs second, and never before its check.
 */
extern struct cpumask perfctr_cpus_ready;

int perfctr_cpu_init(void);
void perfctr_cpu_exit(void);
const char *perfctr_cpu_name(void);

/*
 * Returns NULL when the hardware is now reserved for @service, else the
 * name of the service that holds it. Release by a non-holder is ignored.
 */
const char *perfctr_cpu_reserve(const char *service);
void perfctr_cpu_release(const char *service);
/* The holder named when the kernel's perf_events owns the counters. */
extern const char *const perfctr_kernel_holder;

/* The current holder, or NULL; for information only. */
const char *perfctr_cpu_reserved_by(void);

/*
 * Unreserved, did the kernel (perf_events, for itself, the NMI watchdog
 * or a KVM guest) hold the counters when last seen? A refused reserve is
 * seen; @may_ask also asks again if the last answer is a second old
 * (asking takes the counters for a moment, when perf could want them).
 * For information only: it may change at once.
 */
bool perfctr_cpu_kernel_busy(bool may_ask);

/*
 * PRE: no running i-mode counters. Validates state->control and, only if
 * it is valid, recomputes the derived fields. Returns 0 or -EINVAL; on
 * error the state is untouched.
 */
int perfctr_cpu_update_control(struct perfctr_cpu_state *state, bool is_global);

/*
 * PRE: @state's control was accepted by perfctr_cpu_update_control().
 * True if a counter of it can count events in kernel mode (x86 CPL 0,
 * PowerPC supervisor state), or the CPU cannot keep its counters out of
 * kernel mode; false for a control with no counters (TSC only). For the
 * high-level driver's privilege policy.
 */
bool perfctr_cpu_counts_kernel(const struct perfctr_cpu_state *state);

/*
 * The next three must be called with preemption disabled; on ppc32, and
 * for a state with i-mode counters anywhere, with interrupts off too (the
 * overflow interrupt works on the same per-CPU data). Suspend stops the
 * counters of @state where the hardware can stop them, and resume starts
 * them again; where it cannot (WinChip, VIA C3), resume zeroes them: the
 * counts of @state never include what ran on the CPU in between.
 *
 * Suspend also returns the i-mode counters that overflowed (bit n for
 * state->pmc[n]; 0 if none, and never an a-mode counter). It has already
 * acknowledged them and restarted them from ireset[]: their start is
 * ireset again, and the next resume presets them.
 */
unsigned int perfctr_cpu_suspend(struct perfctr_cpu_state *state);
void perfctr_cpu_resume(struct perfctr_cpu_state *state);
void perfctr_cpu_sample(struct perfctr_cpu_state *state);

/*
 * PERFCTR_FEATURE_* as /proc/perfctr/info shows them now: perfctr_info's,
 * less RDPMC while the x86 module parameter rdpmc is 0.
 */
unsigned int perfctr_cpu_features(void);

/*
 * The full 64-bit TSC (ppc32: time base) the sums' tsc counts, in @tsc;
 * -EOPNOTSUPP on an x86 CPU without one (a hypervisor may hide it), where
 * RDTSC would fault.
 */
int perfctr_cpu_read_tsc(u64 *tsc);

/*
 * /dev/perfmon (drivers/perfctr/perfmon.c): FreeBSD perfmon(4) counter
 * setups @words[0..NPMC-1] (struct pmc's pmc_val) of the counters in
 * @run (bit n: counter n) as @control: the TSC and one a-mode counter
 * each, hardware counter n for counter n; @slot[n] gets counter n's
 * index in it. -EOPNOTSUPP where the CPU has neither the Pentium's CESR
 * nor the Pentium Pro's PerfEvtSel layout, -EINVAL for a setup that
 * layout has no place for; perfctr_cpu_update_control() judges the rest.
 */
int perfctr_cpu_perfmon_control(struct perfctr_cpu_control *control,
				const u32 *words, unsigned int run,
				unsigned int *slot);

/*
 * AMD Instruction-Based Sampling (x86, family 10h on; see
 * Documentation/perfctr/amd.rst). Everywhere else caps are 0 and the
 * rest answers -EOPNOTSUPP.
 *
 * A thread's IBS as the hardware takes it: the IbsFetchCtl and IbsOpCtl
 * values that start each engine (0: engine off), and the high-level
 * driver's cookie, handed back with every sample.
 */
struct perfctr_ibs_state {
	u64 fetch_ctl;
	u64 op_ctl;
	void *owner;
};

struct perfctr_ibs_control;
struct perfctr_ibs_sample;
struct pt_regs;

/* CPUID Fn8000_001B EAX (PERFCTR_IBS_CAP_*), or 0 without IBS. */
u32 perfctr_cpu_ibs_caps(void);

/*
 * Validate @c's engines and MaxCnts and encode them into @st (owner
 * untouched): 0, -EINVAL (bad field) or -EOPNOTSUPP (no such engine or
 * feature on this CPU); @st untouched on error. Flags the arch does
 * not own (KERNEL, PHYS, signal, ring) are the caller's to judge.
 */
int perfctr_cpu_ibs_setup(struct perfctr_ibs_state *st,
			  const struct perfctr_ibs_control *c);

/*
 * While any thread samples, and for a grace period (a second) after the
 * last release: the interrupt set up on every CPU (the extended APIC LVT
 * entry IbsCtl names, as an NMI) and the NMI handler registered. 0,
 * -EOPNOTSUPP (no IBS, or no LVT offset from firmware) or -EBUSY (the
 * offset serves something else). Sleeps.
 */
int perfctr_cpu_ibs_reserve(void);
void perfctr_cpu_ibs_release(void);

/*
 * Preemption off, reserved. Start @st's engines on this CPU, or
 * -EBUSY, touching nothing, if an engine is already enabled here by
 * someone else (perf's IBS PMU). Suspend stops them if they are still
 * @st's; a sample latched on the way is delivered or dropped, never
 * left for the next thread.
 */
int perfctr_cpu_ibs_resume(struct perfctr_ibs_state *st);
void perfctr_cpu_ibs_suspend(struct perfctr_ibs_state *st);

/*
 * Reserved. Is any CPU's IBS enabled by someone other than us? As the
 * reservation, or the last scan of every CPU, found it: at most a second
 * old. Sleeps.
 */
bool perfctr_cpu_ibs_busy(void);

/*
 * Called in NMI context with each sample of the state resumed on this
 * CPU (@st), kind, valid bits, tsc and registers filled in; the engine
 * is restarted after it returns.
 */
typedef void (*perfctr_ibs_handler_t)(struct perfctr_ibs_state *st,
				      struct perfctr_ibs_sample *sample);
void perfctr_cpu_set_ibs_handler(perfctr_ibs_handler_t handler);

/*
 * The overflow handler, called in interrupt context with the interrupted
 * pc; it finds the overflowed counters by suspending the state. One for
 * the module's life; NULL removes it.
 */
typedef void (*perfctr_ihandler_t)(unsigned long pc);
void perfctr_cpu_set_ihandler(perfctr_ihandler_t handler);

/* Forces the next resume to rewrite the i-mode counters. */
void perfctr_cpu_ireload(struct perfctr_cpu_state *state);

/*
 * Interrupts off, on the CPU where @state's owner runs. @on: from now
 * until the call with !on, user space may read the counters directly
 * (x86: RDPMC, through CR4.PCE), and whatever it reads is a counter of
 * @state or zero, never another state's counts. That holds whether or
 * not @state is resumed and whatever its cstatus: the counters are those
 * of state->control, and if this CPU's registers hold another control's
 * counts they are stopped and zeroed first. Call it with @on at every
 * switch-in of an owner whose control has counters, stopped or not, and
 * with !on at its switch-out and detach; suspend and resume never need
 * it. Where the CPU cannot give user space the counters, or must not
 * (an HT P4's thread 1; x86 module parameter rdpmc=0), @on gives no
 * access; !on may leave access on where it is everyone's (rdpmc=2).
 * ppc32: the user copies UPMCn are always readable where they exist, so
 * @on only makes sure the PMCs hold nothing of another state's.
 */
void perfctr_cpu_user_read(const struct perfctr_cpu_state *state, bool on);

/*
 * Has an i-mode counter whose count is @count overflowed? x86 presets
 * them negative and counts up through zero; ppc32 presets them
 * non-negative and the overflow is the most significant bit setting
 * (bit 0 in the PowerPC manuals, 0x80000000).
 */
static inline bool perfctr_ictr_overflowed(u32 count)
{
#ifdef CONFIG_PPC32
	return (s32)count < 0;
#else
	return (s32)count >= 0;
#endif
}

/*
 * Is i-mode counter @i's preset wider than ireset[i] (x86's ireset_high[],
 * ABI 1.1)? The arch checks and runs those; the rest are 32-bit.
 */
static inline bool perfctr_ireset_wide(const struct perfctr_cpu_control *c,
				       unsigned int i)
{
#ifdef CONFIG_X86
	return c->ireset_high[i] != 0;
#else
	return false;
#endif
}

/*
 * For the arches' suspend, once the i-mode counters are stopped and their
 * counts are in pmc[].start: those that overflowed, restarted from
 * ireset[]. The caller acknowledges them to the hardware and makes the
 * next resume preset them. Bit n stands for state->pmc[n]; counters in
 * @skip (wide ones, which a 32-bit count cannot judge) are the caller's.
 */
static inline unsigned int perfctr_ictrs_restart(struct perfctr_cpu_state *state,
						 unsigned int skip)
{
	unsigned int i = perfctr_cstatus_nractrs(state->cstatus);
	unsigned int nrctrs = perfctr_cstatus_nrctrs(state->cstatus);
	unsigned int mask = 0;

	for (; i < nrctrs; i++) {
		if (skip & (1U << i))
			continue;
		if (perfctr_ictr_overflowed(state->pmc[i].start)) {
			mask |= 1U << i;
			state->pmc[i].start = state->control.ireset[i];
		}
	}
	return mask;
}

/*
 * Shared by every driver: add the 32-bit delta since *start to *sum.
 * Unsigned subtraction makes one wrap of the counter harmless.
 */
static inline void perfctr_accumulate(u64 *sum, u32 *start, u32 now)
{
	*sum += (u32)(now - *start);
	*start = now;
}

#endif /* _PERFCTR_CPU_H */
