// SPDX-License-Identifier: GPL-2.0-only
/* The driver, as one translation unit (units.h lists its sources). */
#include "units.h"

/*
 * The one look inside: the lock of @task's set (unlinked or not), for
 * on_next_lock(); NULL if it has none.
 */
raw_spinlock_t *vpt_set_lock(struct task_struct *task)
{
	struct vperfctr *v = vp_find_any(task);

	return v ? &v->lock : NULL;
}
