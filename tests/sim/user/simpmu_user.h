/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * Test builds only: what user space sees of the simulated PMU of
 * perfctr_simpmu.ko, through mmap of /dev/perfctr_simpmu (one read-only
 * page). Real hardware lets user space read a counter with RDPMC; QEMU
 * cannot, and a simulated counter is not in any register, so the sim
 * publishes each CPU's counters here and libperfctr built with
 * PERFCTR_SIM reads them instead of executing RDPMC.
 *
 * A live simulated counter that counts advances by one per TSC tick, so
 * its value now is ctr[n] + (TSC now - last_tsc), within width_mask.
 */
#ifndef _PERFCTR_SIMPMU_USER_H
#define _PERFCTR_SIMPMU_USER_H

#include <linux/types.h>

#define SIMPMU_USER_CPUS	16	/* CPUs published; the test VMs have 2 */
#define SIMPMU_USER_CTRS	18
#define SIMPMU_USER_FIXED	4

struct simpmu_user_cpu {
	__u32 seq;		/* odd while the kernel updates this entry */
	__u32 counting;		/* bit n: ctr[n] counts */
	__aligned_u64 last_tsc;	/* TSC at which the values below were exact */
	__aligned_u64 width_mask;
	__aligned_u64 ctr[SIMPMU_USER_CTRS];
	__aligned_u64 fixed[SIMPMU_USER_FIXED];
	__u32 fixed_counting;	/* bit n: fixed[n] counts */
	__u32 p4_fast;		/* RDPMC bit 31 reads the low 32 bits (P4) */
	__u32 user_read;	/* user space may read them now (x86: CR4.PCE) */
	__u32 _pad[3];
};

#endif /* _PERFCTR_SIMPMU_USER_H */
