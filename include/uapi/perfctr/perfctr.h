/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * perfctr: common user ABI.
 *
 * Every structure here has one layout for 32- and 64-bit user space:
 * only fixed-size types, 64-bit members explicitly 8-byte aligned, and
 * no implicit padding (static asserts in the kernel and in the user-space
 * tests check the offsets).
 */
#ifndef _UAPI_PERFCTR_PERFCTR_H
#define _UAPI_PERFCTR_PERFCTR_H

#include <linux/types.h>
/*
 * The arch's control, chosen by the compiler's target rather than found
 * as <asm/perfctr.h>: installed, these headers sit in <prefix>/include/
 * perfctr/, and a system <asm/...> must not be confused with them.
 */
#if defined(__x86_64__) || defined(__i386)
#include <perfctr/asm-x86.h>
#elif defined(__powerpc__) && !defined(__PPC64__)
#include <perfctr/asm-powerpc.h>
#else
#error "perfctr: no ABI for this architecture (x86 and 32-bit PowerPC)"
#endif

/*
 * major.minor, one byte each. 1.1 added ireset_high[] to the x86 control
 * (the kernel still takes 1.0's shorter control) and
 * PERFCTR_FEATURE_WIDE_IRESET. 1.2 added the control's label,
 * VPERFCTR_CONTROL_THREADS and <tid>/tree.
 */
#define PERFCTR_ABI_VERSION	0x0102

/* Running sums, one per counter, plus the time-stamp counter. */
struct perfctr_sum_ctrs {
	__aligned_u64 tsc;
	__aligned_u64 pmc[PERFCTR_NR_PMCS];
};

/* Per-counter state; "map" is copied from control.pmc_map[]. */
struct perfctr_pmc_state {
	__u32 map;
	__u32 start;
	__aligned_u64 sum;
};

/*
 * The state of one set of counters. The size of pmc[] is not part of the
 * ABI. The kernel appends its private data (see <perfctr/cpu.h>), which
 * the mmap'd state page shows too but which is no ABI: among it the
 * control's 64-bit id, a random-looking value that only tells whether
 * the control changed.
 */
struct perfctr_cpu_state_user {
	__u32 cstatus;
	struct {		/* opaque to user space */
		__u32 id;	/* unused, 0 (the control id is kernel data) */
		__s32 isuspend_cpu;	/* CPU where i-mode ctrs were stopped */
	} k1;
	__u32 tsc_start;
	__aligned_u64 tsc_sum;
	struct perfctr_pmc_state pmc[PERFCTR_NR_PMCS];
};

/*
 * cstatus re-encodes control.{tsc_on,nractrs,nrictrs} so the hot paths
 * need one load and a mask:
 *   bit 31      TSC sampled
 *   bits 16-22  number of i-mode counters
 *   bits 8-14   total number of counters
 *   bits 0-6    number of a-mode counters
 */
#define PERFCTR_CSTATUS_TSC	0x80000000U
#define PERFCTR_CSTATUS_NRMASK	0x7FU

static inline __u32 perfctr_mk_cstatus(__u32 tsc_on, __u32 nractrs,
				       __u32 nrictrs)
{
	return (tsc_on ? PERFCTR_CSTATUS_TSC : 0) |
	       ((nrictrs & PERFCTR_CSTATUS_NRMASK) << 16) |
	       (((nractrs + nrictrs) & PERFCTR_CSTATUS_NRMASK) << 8) |
	       (nractrs & PERFCTR_CSTATUS_NRMASK);
}

static inline __u32 perfctr_cstatus_enabled(__u32 cstatus)
{
	return cstatus;
}

static inline int perfctr_cstatus_has_tsc(__u32 cstatus)
{
	return (cstatus & PERFCTR_CSTATUS_TSC) != 0;
}

static inline __u32 perfctr_cstatus_nractrs(__u32 cstatus)
{
	return cstatus & PERFCTR_CSTATUS_NRMASK;
}

static inline __u32 perfctr_cstatus_nrctrs(__u32 cstatus)
{
	return (cstatus >> 8) & PERFCTR_CSTATUS_NRMASK;
}

static inline __u32 perfctr_cstatus_has_ictrs(__u32 cstatus)
{
	return cstatus & (PERFCTR_CSTATUS_NRMASK << 16);
}

/*
 * Overflow signals: si_code is SI_PMC_OVF and the mask of overflowed
 * counters (bit i for counter i of the control) sits in the first word
 * of the siginfo padding, where no other si_code puts anything.
 */
#define SI_PMC_OVF		('P')
#define si_pmc_ovf_mask		_sifields._pad[0]

/* Feature bits reported in struct perfctr_info.cpu_features. */
#define PERFCTR_FEATURE_RDPMC	0x01	/* user-space RDPMC is usable */
#define PERFCTR_FEATURE_RDTSC	0x02	/* user-space RDTSC is usable */
#define PERFCTR_FEATURE_PCINT	0x04	/* overflow interrupts work */
#define PERFCTR_FEATURE_WIDE_IRESET 0x08 /* i-mode presets beyond 32 bits */

/*
 * Virtual per-thread counters: /proc/perfctr/<tid>/ (see
 * Documentation/perfctr/virtual.rst).
 */

/* <tid>/control: written whole at offset 0; read back the same way. */
struct vperfctr_control {
	__u32 si_signo;		/* sent on i-mode overflow; 0: none */
	__u32 preserve;		/* sums kept: bit n = pmc[n], _PRESERVE_TSC */
	__u32 flags;		/* VPERFCTR_CONTROL_* */
	__u32 label;		/* the writer's own; kept, read back, inherited */
	__u32 _reserved[4];	/* must be zero */
	struct perfctr_cpu_control cpu_control;
};

/*
 * ABI 1.0's control, which the kernel still takes: cpu_control without
 * what 1.1 appended (PERFCTR_CPU_CONTROL_SIZE_1_0).
 */
#define VPERFCTR_CONTROL_SIZE_1_0	(32 + PERFCTR_CPU_CONTROL_SIZE_1_0)

#define VPERFCTR_PRESERVE_TSC		0x80000000U
#define VPERFCTR_CONTROL_CLOEXEC	0x00000001U	/* unlink at exec */
#define VPERFCTR_CONTROL_INHERIT	0x00000002U	/* new threads and children count too */
/* With INHERIT only: the owner's new threads inherit, processes do not. */
#define VPERFCTR_CONTROL_THREADS	0x00000004U
#define VPERFCTR_CONTROL_FLAGS		(VPERFCTR_CONTROL_CLOEXEC | \
					 VPERFCTR_CONTROL_INHERIT | \
					 VPERFCTR_CONTROL_THREADS)

/*
 * <tid>/children: the inherited total of the set whose control was
 * written with VPERFCTR_CONTROL_INHERIT (the root of its tree): the sums
 * of every member that has exited or left the tree, added once each.
 * Zeroes for a set that is no tree's root. Read whole at offset 0.
 * <tid>/tree (1.2) has the same layout: the same total with the sums of
 * the live members added, each as of its last sample.
 */
struct vperfctr_children {
	__u32 live;		/* members made and not yet exited */
	__u32 exited;		/* members whose sums are in sums */
	__u32 lost;		/* threads made uncounted (see virtual.rst) */
	__u32 _reserved;
	struct perfctr_sum_ctrs sums;
};

/*
 * <tid>/state: page 0, mapped read-only by the owner. The kernel makes
 * seq odd while it changes the page and even again after, and changes
 * it whenever the counters are suspended, resumed or sampled, so a reader
 * that sees the same even seq before and after its reads has a consistent
 * view of counters that ran on its CPU all along. cpu_state.cstatus is 0
 * while the counters are stopped (suspended by command, or after an
 * overflow until iresume); the sums are then final.
 */
/*
 * The ABI's major version in bits 15:8, as PERFCTR_ABI_VERSION has it: a
 * minor one leaves the page as it was. A number, not an expression of
 * PERFCTR_ABI_VERSION, which perfctr 2.6's API redefines (libperfctr.h).
 */
#define VPERFCTR_STATE_MAGIC	0x76700100U

struct vperfctr_state {
	__u32 magic;
	__u32 seq;
	struct perfctr_cpu_state_user cpu_state;
};

/* <tid>/command: one __u32 written at offset 0. */
#define VPERFCTR_CMD_SUSPEND	1	/* stop counting; sums stay */
#define VPERFCTR_CMD_RESUME	2	/* count again after SUSPEND */
#define VPERFCTR_CMD_CLEAR	3	/* zero the sums */
#define VPERFCTR_CMD_IRESUME	4	/* restart i-mode counters after overflow */
#define VPERFCTR_CMD_UNLINK	5	/* remove the counters altogether */

#endif /* _UAPI_PERFCTR_PERFCTR_H */
