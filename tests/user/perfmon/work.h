/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The loop check_perfmon counts; example.c, which is installed and so
 * includes nothing of the tests', has the same code as work().
 */
#ifndef _PERFCTR_PERFMON_WORK_H
#define _PERFCTR_PERFMON_WORK_H

static inline void pm_work(unsigned long loops)
{
	unsigned long i, x = 0;

	for (i = 0; i < loops; i++) {
		x += i;
		asm volatile("" : "+r" (x));	/* each step done */
	}
}

#endif /* _PERFCTR_PERFMON_WORK_H */
