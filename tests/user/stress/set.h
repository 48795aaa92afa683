/* SPDX-License-Identifier: GPL-2.0-only */
/* A thread's own set, for the stress roles (set.c). */
#ifndef _PERFCTR_STRESS_SET_H
#define _PERFCTR_STRESS_SET_H

#include <fcntl.h>

#include "stress.h"

struct vset {
	int ctl, sums, cmd;		/* the owner's own files */
	int have;			/* a set exists */
	int ctrs;			/* counters besides the TSC */
	struct perfctr_sum_ctrs last;	/* the last sums read */
	unsigned long long t0;		/* TSC when the sums last were 0 */
	unsigned long long cpu0;	/* the thread's CPU ns then */
	const struct vperfctr_state *st;	/* the state page, mapped */
	unsigned long long dropped;	/* 1 + the phase it left counters in */
	unsigned int seed;
	char ops[16];			/* the last requests, newest last */
};

int vset_open(struct vset *v);
void vset_close(struct vset *v);
int vset_control(struct vset *v, __u32 flags, int preserve);
void vset_check(struct vset *v, const char *where);
void vset_unlink(struct vset *v);
void vset_churn(struct vset *v, __u32 flags);
int vset_follow_phase(struct vset *v, __u32 flags);

#endif /* _PERFCTR_STRESS_SET_H */
