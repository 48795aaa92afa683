/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfctr: perfctr 2.6's library interface, for programs written for
 * it (PAPI's perfctr component among them). Do not include this file:
 * include <libperfctr.h> with PERFCTR_API_2_6 defined, which the header
 * in $(LIBDIR)/perfctr-2.6/include does (libperfctr.rst, "Programs
 * written for perfctr 2.6").
 *
 * The types whose names this project's own API also uses carry a
 * perfctr26_ prefix here; <libperfctr.h> gives them their 2.6 names.
 */
#ifndef _LIBPERFCTR26_H
#define _LIBPERFCTR26_H

#include <perfctr/perfctr.h>

#ifdef __cplusplus
extern "C" {
#endif

struct vperfctr;

/*
 * 2.6's abi_version: the API version (5.2) in the upper half, the
 * arch's control layout version in the lower (x86 5.1, ppc32 0.0).
 */
#define PERFCTR26_API_VERSION	0x0502
#if defined(__x86_64__) || defined(__i386)
#define PERFCTR26_CPU_VERSION	0x0501
#else
#define PERFCTR26_CPU_VERSION	0x0000
#endif
#define PERFCTR26_ABI_VERSION	((PERFCTR26_API_VERSION << 16) | \
				 PERFCTR26_CPU_VERSION)

/* cpu_type: 2.6's numbers (the table in libperfctr.rst). */
#if defined(__x86_64__) || defined(__i386)
#define PERFCTR_X86_GENERIC	0
#define PERFCTR_X86_INTEL_P5	1
#define PERFCTR_X86_INTEL_P5MMX	2
#define PERFCTR_X86_INTEL_P6	3
#define PERFCTR_X86_INTEL_PII	4
#define PERFCTR_X86_INTEL_PIII	5
#define PERFCTR_X86_CYRIX_MII	6
#define PERFCTR_X86_WINCHIP_C6	7
#define PERFCTR_X86_WINCHIP_2	8
#define PERFCTR_X86_AMD_K7	9
#define PERFCTR_X86_VIA_C3	10
#define PERFCTR_X86_INTEL_P4	11
#define PERFCTR_X86_INTEL_P4M2	12
#define PERFCTR_X86_AMD_K8	13
#define PERFCTR_X86_INTEL_PENTM	14
#define PERFCTR_X86_AMD_K8C	15
#define PERFCTR_X86_INTEL_P4M3	16
#define PERFCTR_X86_INTEL_CORE	17
#define PERFCTR_X86_INTEL_CORE2	18
#define PERFCTR_X86_AMD_FAM10H	19
#define PERFCTR_X86_AMD_FAM10	PERFCTR_X86_AMD_FAM10H
#define PERFCTR_X86_INTEL_ATOM	20
#define PERFCTR_X86_INTEL_NHLM	21
#define PERFCTR_X86_INTEL_COREI7	PERFCTR_X86_INTEL_NHLM
#define PERFCTR_X86_INTEL_WSTMR	22
#else
#define PERFCTR_PPC_GENERIC	0
#define PERFCTR_PPC_604		1
#define PERFCTR_PPC_604e	2
#define PERFCTR_PPC_750		3
#define PERFCTR_PPC_7400	4
#define PERFCTR_PPC_7450	5
#endif

/* 2.6's driver information; libperfctr fills it from /proc/perfctr/info. */
struct perfctr26_info {
	unsigned int abi_version;	/* PERFCTR26_ABI_VERSION */
	char driver_version[32];
	unsigned int cpu_type;		/* PERFCTR_X86_*, PERFCTR_PPC_* */
	unsigned int cpu_features;	/* PERFCTR_FEATURE_* */
	unsigned int cpu_khz;
	unsigned int tsc_to_cpu_mult;
	unsigned int _reserved2;
	unsigned int _reserved3;
	unsigned int _reserved4;
};

/* A CPU set: bit n of mask[n / 32] is CPU n. */
struct perfctr_cpu_mask {
	unsigned int nrwords;
	unsigned int mask[1];		/* nrwords of them */
};

/* Both masks malloc()ed with the structure: one free() frees all. */
struct perfctr_cpus_info {
	struct perfctr_cpu_mask *cpus;
	struct perfctr_cpu_mask *cpus_forbidden;
};

/* Global mode, one CPU's control and its counts (global.rst). */
struct gperfctr_cpu_control {
	unsigned int cpu;
	struct perfctr_cpu_control cpu_control;
	unsigned int _reserved1;
	unsigned int _reserved2;
	unsigned int _reserved3;
	unsigned int _reserved4;
};

struct gperfctr_cpu_state {
	unsigned int cpu;
	struct perfctr_cpu_control cpu_control;
	struct perfctr_sum_ctrs sum;
	unsigned int _reserved1;
	unsigned int _reserved2;
	unsigned int _reserved3;
	unsigned int _reserved4;
};

/* Event descriptions, as 2.6 listed them per cpu_type. */
enum perfctr_unit_mask_type {
	perfctr_um_type_fixed,		/* one required value */
	perfctr_um_type_exclusive,	/* exactly one of the values */
	perfctr_um_type_bitmask,	/* any OR of the values */
};

struct perfctr_unit_mask_value {
	unsigned int value;
	const char *description;	/* [NAME:]text */
};

struct perfctr_unit_mask {
	unsigned short default_value;
	enum perfctr_unit_mask_type type:8;
	unsigned char nvalues;
	struct perfctr_unit_mask_value values[1];	/* nvalues */
};

struct perfctr_event {
	unsigned short evntsel;
	unsigned short counters_set;
	const struct perfctr_unit_mask *unit_mask;
	const char *name;
	const char *description;
};

struct perfctr26_event_set {
	unsigned int cpu_type;
	const char *event_prefix;
	const struct perfctr26_event_set *include;
	unsigned int nevents;
	const struct perfctr_event *events;
};

/*
 * vperfctr_control() as 2.6 programs call it (libperfctr.h maps the one
 * to the other in 2.6 mode): an Intel fixed counter's evntsel may be in
 * the EVNTSEL layout 2.6 took (libperfctr.rst).
 */
int perfctr26_vperfctr_control(const struct vperfctr *vp,
			       const struct vperfctr_control *control);

/* The raw calls: a descriptor of the calling thread's directory. */
int _vperfctr_open(int creat);
int _vperfctr_control(int fd, const struct vperfctr_control *control);
int _vperfctr_read_control(int fd, struct vperfctr_control *control);
int _vperfctr_read_sum(int fd, struct perfctr_sum_ctrs *sum);

/* mode: 0 (the set must exist) or VPERFCTR_OPEN_CREAT_EXCL. */
#define VPERFCTR_OPEN_CREAT_EXCL	3
struct vperfctr *vperfctr_open_mode(unsigned int mode);
int vperfctr_info(const struct vperfctr *vp, struct perfctr26_info *info);
struct perfctr_cpus_info *vperfctr_cpus_info(const struct vperfctr *vp);
int vperfctr_read_state(const struct vperfctr *vp,
			struct perfctr_sum_ctrs *sum,
			struct vperfctr_control *control);
int vperfctr_stop(const struct vperfctr *vp);
int vperfctr_is_running(const struct vperfctr *vp);

/* Another thread's set: a struct rvperfctr begins with a struct vperfctr. */
struct rvperfctr;

struct rvperfctr *rvperfctr_open(int pid);
int rvperfctr_pid(const struct rvperfctr *rv);
int rvperfctr_info(const struct rvperfctr *rv, struct perfctr26_info *info);
int rvperfctr_read_ctrs(const struct rvperfctr *rv,
			struct perfctr_sum_ctrs *sum);
int rvperfctr_read_state(const struct rvperfctr *rv,
			 struct perfctr_sum_ctrs *sum,
			 struct vperfctr_control *control);
int rvperfctr_control(const struct rvperfctr *rv,
		      struct vperfctr_control *control);
int rvperfctr_stop(const struct rvperfctr *rv);
int rvperfctr_iresume(const struct rvperfctr *rv);
int rvperfctr_unlink(const struct rvperfctr *rv);
void rvperfctr_close(struct rvperfctr *rv);

/* Global mode (global.rst): every CPU's counters. */
struct gperfctr;

struct gperfctr *gperfctr_open(void);
void gperfctr_close(struct gperfctr *gp);
int gperfctr_control(const struct gperfctr *gp,
		     struct gperfctr_cpu_control *control);
int gperfctr_read(const struct gperfctr *gp, struct gperfctr_cpu_state *state);
int gperfctr_stop(const struct gperfctr *gp);
int gperfctr_start(const struct gperfctr *gp, unsigned int interval_usec);
int gperfctr_info(const struct gperfctr *gp, struct perfctr26_info *info);
struct perfctr_cpus_info *gperfctr_cpus_info(const struct gperfctr *gp);

const struct perfctr26_event_set *perfctr_cpu_event_set(unsigned int cpu_type);

int _perfctr_abi_check_fd(int fd, unsigned int user_abi_version);
int perfctr26_info(int fd, struct perfctr26_info *info);
int perfctr_get_info(struct perfctr26_info *info);
struct perfctr_cpus_info *perfctr_cpus_info(int fd);
unsigned int perfctr_info_nrctrs(const struct perfctr26_info *info);
const char *perfctr_info_cpu_name(const struct perfctr26_info *info);
void perfctr_info_print(const struct perfctr26_info *info);
void perfctr_cpus_info_print(const struct perfctr_cpus_info *info);
void perfctr_cpu_control_print(const struct perfctr_cpu_control *control);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPERFCTR26_H */
