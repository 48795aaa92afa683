/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * perfctr: AMD Instruction-Based Sampling (IBS) per thread (x86 only).
 * See Documentation/perfctr/amd.rst.
 *
 * /proc/perfctr/<tid>/ibs        struct perfctr_ibs_control, written whole
 *                                at offset 0 and read back the same way;
 *                                flags 0 stops sampling and frees the ring
 * /proc/perfctr/<tid>/ibs_ring   the samples: mmap (read-only) the header
 *                                page and the data pages after it, or
 *                                read(2) whole samples, which consumes them
 *
 * Like every perfctr ABI structure these have one layout for 32- and
 * 64-bit user space.
 */
#ifndef _UAPI_PERFCTR_IBS_H
#define _UAPI_PERFCTR_IBS_H

#include <linux/types.h>

/* CPUID Fn8000_001B EAX, as "ibs_caps:" in /proc/perfctr/info shows it. */
#define PERFCTR_IBS_CAP_AVAIL		0x0001	/* feature flags valid */
#define PERFCTR_IBS_CAP_FETCHSAM	0x0002	/* fetch sampling */
#define PERFCTR_IBS_CAP_OPSAM		0x0004	/* op sampling */
#define PERFCTR_IBS_CAP_RDWROPCNT	0x0008	/* read/write of op counter */
#define PERFCTR_IBS_CAP_OPCNT		0x0010	/* op counting (IbsOpCntCtl) */
#define PERFCTR_IBS_CAP_BRNTRGT		0x0020	/* branch target address */
#define PERFCTR_IBS_CAP_OPCNTEXT	0x0040	/* IbsOpMaxCnt 27 bits wide */
#define PERFCTR_IBS_CAP_RIPINVALIDCHK	0x0080	/* IbsRipInvalid in OpData1 */

/* struct perfctr_ibs_control.flags */
#define PERFCTR_IBS_FETCH	0x0001	/* fetch sampling */
#define PERFCTR_IBS_FETCH_RAND	0x0002	/* randomise the fetch count's low 4 bits */
#define PERFCTR_IBS_OP		0x0004	/* op sampling */
#define PERFCTR_IBS_OP_CNT_OPS	0x0008	/* count dispatched ops, not cycles */
#define PERFCTR_IBS_KERNEL	0x0010	/* keep samples of kernel code */
#define PERFCTR_IBS_PHYS	0x0020	/* keep physical addresses */
#define PERFCTR_IBS_FLAGS	0x003F

/*
 * A MaxCnt is the number of fetches (ops, or cycles) between samples: a
 * multiple of 16, from 0x10 up to 0xFFFF0 (op sampling with
 * PERFCTR_IBS_CAP_OPCNTEXT: 0x7FFFFF0).
 */
#define PERFCTR_IBS_MIN		0x10
/* Without privilege at perfctr.paranoid 2: every sample is an NMI. */
#define PERFCTR_IBS_MIN_USER	0x10000
#define PERFCTR_IBS_MAX		0xFFFF0
#define PERFCTR_IBS_MAX_EXT	0x7FFFFF0

/* ring_pages: 0 asks for the default; else a power of two up to the max. */
#define PERFCTR_IBS_RING_PAGES	8
#define PERFCTR_IBS_RING_MAX	256

struct perfctr_ibs_control {
	__u32 flags;		/* PERFCTR_IBS_*; 0: no sampling */
	__u32 si_signo;		/* sent when the ring fills; 0: none */
	__u32 fetch_maxcnt;	/* with PERFCTR_IBS_FETCH, else 0 */
	__u32 op_maxcnt;	/* with PERFCTR_IBS_OP, else 0 */
	__u32 ring_pages;	/* data pages of ibs_ring */
	__u32 _reserved[3];	/* must be zero */
};

/* The fill signal's si_code. */
#define SI_PMC_IBS_FULL		('I')

/* struct perfctr_ibs_sample.kind */
#define PERFCTR_IBS_SAMPLE_FETCH	1
#define PERFCTR_IBS_SAMPLE_OP		2

/* struct perfctr_ibs_sample.valid: fields that hold data (others are 0) */
#define PERFCTR_IBS_VALID_FETCH_LIN	0x01
#define PERFCTR_IBS_VALID_FETCH_PHYS	0x02
#define PERFCTR_IBS_VALID_OP_RIP	0x04
#define PERFCTR_IBS_VALID_DC_LIN	0x08
#define PERFCTR_IBS_VALID_DC_PHYS	0x10

/*
 * One sample, the registers as the hardware latched them. A fetch
 * sample fills the fetch_ fields, an op sample the op_ and dc_ ones.
 */
struct perfctr_ibs_sample {
	__u32 kind;		/* PERFCTR_IBS_SAMPLE_* */
	__u32 valid;		/* PERFCTR_IBS_VALID_* */
	__aligned_u64 seq;	/* this sample's number: ring head when written */
	__aligned_u64 tsc;	/* time stamp counter at the interrupt */
	__aligned_u64 fetch_ctl;	/* IbsFetchCtl: count, latency, flags */
	__aligned_u64 fetch_lin;	/* IbsFetchLinAd */
	__aligned_u64 fetch_phys;	/* IbsFetchPhysAd */
	__aligned_u64 op_ctl;		/* IbsOpCtl */
	__aligned_u64 op_rip;		/* IbsOpRip */
	__aligned_u64 op_data[3];	/* IbsOpData1 to IbsOpData3 */
	__aligned_u64 dc_lin;		/* IbsDcLinAd */
	__aligned_u64 dc_phys;		/* IbsDcPhysAd */
	__aligned_u64 _reserved[3];
};

/*
 * Page 0 of ibs_ring; the data pages follow, slot n of the ring at
 * byte n * sample_size of them. The kernel writes sample number head
 * into slot head % nr_slots, then makes head one more (release order),
 * and only while head - tail < nr_slots: a sample that finds the ring
 * full is counted in lost instead. tail moves on as read(2) consumes
 * samples or as the owner writes a new tail (a __u64 at offset 0 of
 * ibs_ring, from tail up to head).
 */
#define PERFCTR_IBS_RING_MAGIC	0x69627301U	/* "ibs", version 1 */

struct perfctr_ibs_ring {
	__u32 magic;
	__u32 sample_size;	/* sizeof(struct perfctr_ibs_sample) */
	__u32 nr_slots;		/* samples the data pages hold */
	__u32 _pad;
	__aligned_u64 head;	/* samples written, ever */
	__aligned_u64 tail;	/* samples consumed, ever */
	__aligned_u64 lost;	/* samples dropped: the ring was full */
	__aligned_u64 filtered;	/* kernel samples dropped (no PERFCTR_IBS_KERNEL) */
	__aligned_u64 busy;	/* times perf's IBS held a CPU this thread ran on */
};

#endif /* _UAPI_PERFCTR_IBS_H */
