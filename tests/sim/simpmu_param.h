/* SPDX-License-Identifier: GPL-2.0-only */
/* What tests/simpmu/simpmu_param.c asks of each arch's simulated PMU. */
#ifndef _PERFCTR_SIMPMU_PARAM_H
#define _PERFCTR_SIMPMU_PARAM_H

#include <linux/types.h>

/* The simulated kernel allocator refuses perfctr on every CPU, or not. */
void simpmu_set_kernel_busy(bool busy);
bool simpmu_kernel_busy(void);

#endif /* _PERFCTR_SIMPMU_PARAM_H */
