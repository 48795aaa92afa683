/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check_perfmon: /dev/perfmon, FreeBSD's perfmon(4), in the test VM, on
 * perfctr.ko (the TSC only) and on the simulated PMUs
 * (PERFCTR_SIM_MODEL=NAME). Its files: main.c (the layouts), ioctl.c
 * (every request, accepted and refused), share.c (the hardware and the
 * thread shared with /proc/perfctr), count.c (what the counters count),
 * names.c (FreeBSD's names for struct pmc's union).
 */
#ifndef _PERFCTR_CHECK_PERFMON_H
#define _PERFCTR_CHECK_PERFMON_H

#include <check.h>
#include <perfctr/perfmon.h>

#include "check_util.h"
#include "work.h"

/* How this CPU's driver takes FreeBSD's setups (Documentation/perfctr/perfmon.rst). */
enum pm_layout {
	PM_NONE,	/* TSC only, P4, WinChip, C3, ppc32: PMIOSETUP refused */
	PM_CESR,	/* P5, P5MMX, Cyrix MII */
	PM_EVNTSEL,	/* P6, arch perfmon, AMD */
};

extern enum pm_layout layout;

/* Opens /dev/perfmon; fails the test if it cannot. */
int pm_open(void);
/* ioctl(), then errno or 0. */
int pm_ioctl(int fd, unsigned long req, void *arg);
int pm_num(int fd, unsigned long req, int num);
int pm_setup(int fd, int num, unsigned int word);
long long pm_read(int fd, int num);
/* A setup this layout takes, counting user mode: cycles or instructions. */
unsigned int pm_word(void);
/* The same counter as a /proc control's evntsel for hardware counter @num. */
unsigned int pm_evntsel(int num);

void pm_ioctl_tcase(Suite *s);
void pm_share_tcase(Suite *s);
void pm_count_tcase(Suite *s);
void pm_names_tcase(Suite *s);

#endif /* _PERFCTR_CHECK_PERFMON_H */
