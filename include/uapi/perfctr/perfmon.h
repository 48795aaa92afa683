/* SPDX-License-Identifier: GPL-2.0-only WITH Linux-syscall-note */
/*
 * perfctr: FreeBSD's perfmon(4) interface, /dev/perfmon, on Linux.
 *
 * A program written for FreeBSD's <machine/perfmon.h> builds against this
 * header with its include line changed to <perfctr/perfmon.h>; nothing
 * else changes. The structures, ioctl numbers and constants are FreeBSD's
 * (i386); the event codes are those of Intel's manuals. What differs from
 * FreeBSD, and the errors, are in Documentation/perfctr/perfmon.rst.
 */
#ifndef _UAPI_PERFCTR_PERFMON_H
#define _UAPI_PERFCTR_PERFMON_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define NPMC		2		/* counters per open file */
#define PMC_ALL		(-1)		/* FreeBSD's; no ioctl takes it */

#ifndef __KERNEL__
#define _PATH_PERFMON	"/dev/perfmon"
#endif

/*
 * One counter's setup. The four bytes are, in order, the low 32 bits of
 * a Pentium Pro PerfEvtSel: event, unit mask, flags (bits 16-23), counter
 * mask; pmcu_val is all four as one word. The union and its members have
 * FreeBSD's names, so a program that uses them rather than the accessors
 * builds too.
 */
struct pmc {
	int pmc_num;			/* 0 .. NPMC - 1 */
	union {
		struct {
			unsigned char pmcus_event;
			unsigned char pmcus_unit;
			unsigned char pmcus_flags;
			unsigned char pmcus_mask;
		} pmcu_s;
		unsigned int pmcu_val;
	} pmc_pmcu;
};

/* FreeBSD's accessors; not in the kernel, whose names they would take. */
#ifndef __KERNEL__
#define pmc_event	pmc_pmcu.pmcu_s.pmcus_event
#define pmc_unit	pmc_pmcu.pmcu_s.pmcus_unit
#define pmc_flags	pmc_pmcu.pmcu_s.pmcus_flags
#define pmc_mask	pmc_pmcu.pmcu_s.pmcus_mask
#define pmc_val		pmc_pmcu.pmcu_val
#endif

/* pmc_flags: PerfEvtSel bits 16-23. */
#define PMCF_USR	0x01		/* count at CPL 3 */
#define PMCF_OS		0x02		/* count at CPL 0 */
#define PMCF_E		0x04		/* occurrences, not duration (edge) */
#define PMCF_PC		0x08		/* pin control: refused */
#define PMCF_INT	0x10		/* interrupt on overflow: refused */
#define PMCF_EN		0x40		/* enable: the driver sets it */
#define PMCF_INV	0x80		/* count while below pmc_mask */

#define PMCF_SYS_FLAGS	(PMCF_INT | PMCF_EN)

/*
 * quad_t on FreeBSD/i386 is 4-byte aligned in a structure, as __s64 is
 * on Linux/i386: these are 12 bytes there and 16 on x86_64, and so are
 * their ioctl numbers (the kernel takes both from 32-bit programs).
 */
struct pmc_data {
	int pmcd_num;
	__s64 pmcd_value;
};

struct pmc_tstamp {
	int pmct_rate;			/* TSC rate, MHz: a hint */
	__s64 pmct_value;
};

#define PMIOSETUP	_IOW('5', 1, struct pmc)
#define PMIOSTART	_IOW('5', 2, int)
#define PMIOSTOP	_IOW('5', 3, int)
#define PMIOREAD	_IOWR('5', 4, struct pmc_data)
#define PMIORESET	_IOW('5', 5, int)
#define PMIOTSTAMP	_IOR('5', 6, struct pmc_tstamp)
#define PMIOGET		_IOWR('5', 7, struct pmc)

/*
 * Pentium Pro events (Intel Architecture Software Developer's Manual,
 * vol. 3, appendix A, "Performance-Monitoring Events", P6 family).
 */
/* Data cache unit */
#define PMC6_DATA_MEM_REFS		0x43
#define PMC6_DCU_LINES_IN		0x45
#define PMC6_DCU_M_LINES_IN		0x46
#define PMC6_DCU_M_LINES_OUT		0x47
#define PMC6_DCU_MISS_OUTSTANDING	0x48
/* Instruction fetch unit */
#define PMC6_IFU_IFETCH			0x80
#define PMC6_IFU_IFETCH_MISS		0x81
#define PMC6_ITLB_MISS			0x85
#define PMC6_IFU_MEM_STALL		0x86
#define PMC6_ILD_STALL			0x87
/* L2 cache (the MESI ones take a unit mask) */
#define PMC6_L2_ADS			0x21
#define PMC6_L2_DBUS_BUSY		0x22
#define PMC6_L2_DBUS_BUSY_RD		0x23
#define PMC6_L2_LINES_IN		0x24
#define PMC6_L2_M_LINES_INM		0x25
#define PMC6_L2_LINES_OUT		0x26
#define PMC6_L2_M_LINES_OUTM		0x27
#define PMC6_L2_IFETCH			0x28
#define PMC6_L2_LD			0x29
#define PMC6_L2_ST			0x2a
#define PMC6_L2_RQSTS			0x2e
/* External bus */
#define PMC6_BUS_REQ_OUTSTANDING	0x60
#define PMC6_BUS_BNR_DRV		0x61
#define PMC6_BUS_DRDY_CLOCKS		0x62
#define PMC6_BUS_LOCK_CLOCKS		0x63
#define PMC6_BUS_DATA_RCV		0x64
#define PMC6_BUS_TRAN_BRD		0x65
#define PMC6_BUS_TRAN_RFO		0x66
#define PMC6_BUS_TRAN_WB		0x67
#define PMC6_BUS_TRAN_IFETCH		0x68
#define PMC6_BUS_TRAN_INVAL		0x69
#define PMC6_BUS_TRAN_PWR		0x6a
#define PMC6_BUS_TRAN_P			0x6b
#define PMC6_BUS_TRAN_IO		0x6c
#define PMC6_BUS_TRAN_DEF		0x6d
#define PMC6_BUS_TRAN_BURST		0x6e
#define PMC6_BUS_TRAN_MEM		0x6f
#define PMC6_BUS_TRAN_ANY		0x70
#define PMC6_BUS_HIT_DRV		0x7a
#define PMC6_BUS_HITM_DRV		0x7b
#define PMC6_BUS_SNOOP_STALL		0x7e
/* Floating point: some on one counter only (0: FLOPS, FP_COMP_OPS_EXE, CYCLES_DIV_BUSY) */
#define PMC6_FP_COMP_OPS_EXE		0x10
#define PMC6_FP_ASSIST			0x11
#define PMC6_MUL			0x12
#define PMC6_DIV			0x13
#define PMC6_CYCLES_DIV_BUSY		0x14
#define PMC6_FLOPS			0xc1
/* Memory ordering */
#define PMC6_LD_BLOCKS			0x03
#define PMC6_SB_DRAINS			0x04
#define PMC6_MISALIGN_MEM_REF		0x05
/* Segment register loads */
#define PMC6_SEGMENT_REG_LOADS		0x06
/* Clocks */
#define PMC6_CPU_CLK_UNHALTED		0x79
/* Stalls */
#define PMC6_RESOURCE_STALLS		0xa2
#define PMC6_PARTIAL_RAT_STALLS		0xd2
/* Decoding and retirement */
#define PMC6_INST_RETIRED		0xc0
#define PMC6_UOPS_RETIRED		0xc2
#define PMC6_INST_DECODER		0xd0	/* Intel: INST_DECODED */
/* Interrupts */
#define PMC6_CYCLES_INT_MASKED		0xc6
#define PMC6_CYCLES_INT_PENDING_AND_MASKED 0xc7
#define PMC6_HW_INT_RX			0xc8
/* Branches */
#define PMC6_BR_INST_RETIRED		0xc4
#define PMC6_BR_MISS_PRED_RETIRED	0xc5
#define PMC6_BR_TAKEN_RETIRED		0xc9
#define PMC6_BR_MISS_PRED_TAKEN_RET	0xca
#define PMC6_BR_INST_DECODED		0xe0
#define PMC6_BTB_MISSES			0xe2
#define PMC6_BR_BOGUS			0xe4
#define PMC6_BACLEARS			0xe6

/*
 * Pentium events (Pentium Processor Family Developer's Manual, vol. 3,
 * "Model-Specific Registers", the CESR's event encodings); 6 bits.
 */
#define PMC5_DATA_READ			0
#define PMC5_DATA_WRITE			1
#define PMC5_DATA_TLB_MISS		2
#define PMC5_DATA_READ_MISS		3
#define PMC5_DATA_WRITE_MISS		4
#define PMC5_WRITE_M_E			5
#define PMC5_DATA_LINES_WBACK		6
#define PMC5_DATA_CACHE_SNOOP		7
#define PMC5_DATA_CACHE_SNOOP_HIT	8
#define PMC5_MEM_ACCESS_BOTH		9
#define PMC5_BANK_CONFLICTS		10
#define PMC5_MISALIGNED_DATA		11
#define PMC5_INST_READ			12
#define PMC5_INST_TLB_MISS		13
#define PMC5_INST_CACHE_MISS		14
#define PMC5_SEGMENT_REG_LOAD		15
#define PMC5_BRANCHES			18
#define PMC5_BTB_HITS			19
#define PMC5_BRANCH_TAKEN		20
#define PMC5_PIPELINE_FLUSH		21
#define PMC5_INST_EXECUTED		22
#define PMC5_INST_EXECUTED_V		23
#define PMC5_BUS_UTILIZATION		24
#define PMC5_WRITE_BACKUP_STALL		25
#define PMC5_DATA_READ_STALL		26
#define PMC5_WRITE_E_M_STALL		27
#define PMC5_LOCKED_BUS			28
#define PMC5_IO_CYCLE			29
#define PMC5_NONCACHE_MEMORY		30
#define PMC5_ADDR_GEN_INTERLOCK		31
#define PMC5_FLOPS			34
#define PMC5_BP0_MATCH			35
#define PMC5_BP1_MATCH			36
#define PMC5_BP2_MATCH			37
#define PMC5_BP3_MATCH			38
#define PMC5_HW_INTR			39
#define PMC5_DATA_RW			40
#define PMC5_DATA_RW_MISS		41

#endif /* _UAPI_PERFCTR_PERFMON_H */
