/* SPDX-License-Identifier: GPL-2.0-only */
/* perfctr: shared between the parts of the high-level module. */
#ifndef _PERFCTR_DRIVER_H
#define _PERFCTR_DRIVER_H

#include <linux/proc_fs.h>

#define PERFCTR_VERSION	"0.1.0"

int perfctr_global_init(struct proc_dir_entry *root);
void perfctr_global_exit(void);

#endif /* _PERFCTR_DRIVER_H */
