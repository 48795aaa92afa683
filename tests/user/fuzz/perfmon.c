// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: /dev/perfmon, every request with counter numbers, event
 * bytes and flags at random and at their limits, the wrong sizes in the
 * request number, other request numbers of group '5', and bad pointers.
 */
#include <errno.h>
#include <string.h>
#include <sys/ioctl.h>

#include <perfctr/perfmon.h>

#include "fuzz.h"

static const unsigned long requests[] = {
	PMIOSETUP, PMIOSETUP, PMIOSETUP, PMIOSTART, PMIOSTOP, PMIOREAD,
	PMIORESET, PMIOTSTAMP, PMIOGET,
};

static unsigned long pick_request(void)
{
	unsigned long req = requests[rnd_below(ARRAY_SIZE(requests))];

	switch (rnd_below(16)) {
	case 0:		/* another size in the number */
		return (req & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT)) |
		       ((unsigned long)rnd_below(64) << _IOC_SIZESHIFT);
	case 1:		/* another request of the group */
		return _IOC(rnd_below(4), '5', rnd_below(16), rnd_below(32));
	case 2:		/* another direction */
		return req ^ ((unsigned long)(1 + rnd_below(3)) << _IOC_DIRSHIFT);
	default:
		return req;
	}
}

static int pick_num(void)
{
	const __u32 v[] = { 0, 1, 0, 1, 2, 3, (__u32)-1, 0x7fffffff,
			       0x80000000 };

	return (int)rnd_pick(v, ARRAY_SIZE(v));
}

/* Mostly plausible P6 setups, with any flag and any byte sometimes. */
static void gen_pmc(struct pmc *pm)
{
	const __u32 events[] = { PMC6_INST_RETIRED, PMC6_CPU_CLK_UNHALTED,
				    PMC6_FLOPS, PMC6_DATA_MEM_REFS,
				    PMC5_INST_EXECUTED, 0, 0xff };

	pm->pmc_num = pick_num();
	pm->pmc_event = rnd_pick(events, ARRAY_SIZE(events));
	pm->pmc_unit = rnd_below(4) ? 0 : rnd_u32();
	pm->pmc_flags = rnd_below(2) ? PMCF_USR | PMCF_OS : rnd_u32();
	pm->pmc_mask = rnd_below(4) ? 0 : rnd_u32();
}

void req_perfmon(struct fuzz_req *r)
{
	union {
		struct pmc pm;
		struct pmc_data d;
		struct pmc_tstamp ts;
		int num;
		unsigned char raw[64];
	} *arg = fuzz_buf(64);
	unsigned long req = pick_request();
	void *p = arg;

	r->what = "perfmon ioctl";
	if (perfmon_fd < 0) {
		r->err = EBADF;
		return;
	}
	memset(arg, 0, 64);
	if (_IOC_NR(req) == _IOC_NR(PMIOSETUP))
		gen_pmc(&arg->pm);
	else
		arg->num = pick_num();
	if (rnd_below(16) == 0)
		p = fuzz_bad_ptr();
	r->err = ioctl(perfmon_fd, req, p) ? errno : 0;
}
