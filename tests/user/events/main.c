// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for named events, run in the test VM: against perfctr.ko
 * (the tables need no counters) and, with PERFCTR_SIM_MODEL=NAME, against
 * perfctr_simpmu.ko, where events named in the model's table count.
 */
#include <stdlib.h>

#include "events.h"

static const check_area_fn areas[] = {
	ev_lookup_tcase,
	ev_encode_tcase,
	ev_count_tcase,
};

int ev_have_perf_tables(void)
{
	const struct perfctr_event_table *t;

	t = perfctr_event_table("GenuineIntel-6-3A-9");
	return t && perfctr_event_table_imported(t);
}

int main(void)
{
	if (check_init())
		return EXIT_FAILURE;
	return check_run_areas("events", areas, ARRAY_SIZE(areas));
}
