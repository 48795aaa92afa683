// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libperfctr: the ppc32 half of named events. The PVR as perf writes it,
 * raw configs, and the control layout (ppc32.rst; MMCR0's bits are the
 * MPC750/7400/7450 manuals').
 */
#include <errno.h>
#include <stdio.h>

#include "events.h"

#define MMCR0_FCS		0x40000000U	/* freeze in supervisor state */
#define MMCR0_FCP		0x20000000U	/* freeze in problem state */
#define MMCR0_THRESHOLD(t)	((t) << 16)	/* bits 10-15 */

int arch_cpuid(char *buf, size_t size)
{
	unsigned int pvr;

	/* mfpvr is privileged; Linux emulates it for user mode. */
	__asm__ __volatile__("mfspr %0, 287" : "=r" (pvr));
	snprintf(buf, size, "0x%08x", pvr);
	return 0;
}

/* rPSS: PMC number P (0: any), PMCnSEL value SS. */
int arch_raw(unsigned int layout, unsigned long long cfg, struct pe_req *r)
{
	unsigned int pmc = cfg >> 8;

	(void)layout;
	if (pmc > 6)
		return -1;
	r->code = cfg & 0xFF;		/* events.c fits it to each PMC */
	if (pmc)
		r->counters &= 1U << (pmc - 1);
	return 0;
}

int arch_encode(unsigned int layout, const struct pe_req *r, unsigned int nr,
		struct perfctr_cpu_control *c, char *err, size_t size)
{
	unsigned int i;

	(void)layout;
	for (i = 0; i < nr; i++) {
		if (r[i].modes != r[0].modes ||
		    r[i].has_thresh != r[0].has_thresh ||
		    r[i].thresh != r[0].thresh) {
			snprintf(err, size,
				 "'%s': the counters share MMCR0's mode bits and threshold: give every event the same :u/:k and thresh=.",
				 r[i].text);
			errno = EINVAL;
			return -1;
		}
		c->pmc_map[i] = r[i].pmc;
		c->evntsel[i] = r[i].pmc_code[r[i].pmc];
	}
	c->nractrs = nr;
	if (nr && !(r[0].modes & PERFCTR_EVENT_KERNEL))
		c->ppc.mmcr0 |= MMCR0_FCS;
	if (nr && !(r[0].modes & PERFCTR_EVENT_USER))
		c->ppc.mmcr0 |= MMCR0_FCP;
	if (nr)
		c->ppc.mmcr0 |= MMCR0_THRESHOLD(r[0].thresh);
	return 0;
}
