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

/*
 * A spare set put in life @from, asked to move to @to under its lock:
 * 1 if it moved, 0 if not; *@after is the life it has then.
 */
int vpt_life_try(int from, int to, int *after)
{
	struct vperfctr *v = vp_alloc();
	unsigned long flags;
	bool moved;

	if (!v)
		return -ENOMEM;
	v->life = from;
	raw_spin_lock_irqsave(&v->lock, flags);
	moved = vp_life_move(v, to);
	raw_spin_unlock_irqrestore(&v->lock, flags);
	*after = v->life;
	vp_free_spare(v);
	return moved;
}

/* perfctr.files_per_user, as root would write it. */
void vpt_files_per_user(unsigned int n)
{
	files_per_user = n;
}
