// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for make check-hw (testing.rst, "Real counters"), run in
 * the test VM as root with /proc/perfctr mounted: against perfctr.ko
 * (the TSC only, under TCG) and, with PERFCTR_SIM_MODEL=NAME, against
 * perfctr_simpmu.ko.
 */
#include <stdlib.h>

#include "suite.h"

static const check_area_fn areas[] = {
	hw_rules_tcase,
	hw_runner_tcase,
};

int main(void)
{
	if (check_init())
		return EXIT_FAILURE;
	return check_run_areas("hw", areas, ARRAY_SIZE(areas));
}
