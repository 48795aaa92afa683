// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for the virtual per-thread counters (/proc/perfctr/<tid>/),
 * run in the test VM as root with /proc/perfctr mounted: against
 * perfctr.ko (the TSC only) and, with PERFCTR_SIM_MODEL=NAME, against
 * perfctr_simpmu.ko model=NAME, whose counters count TSC cycles, where
 * the tests that need counters (overflow signals among them) run too.
 *
 * Normal paths go through libperfctr; bad requests use the raw files, and
 * each refused one is checked to have left the control and the sums
 * exactly as they were. Every test runs in its own forked process, so no
 * counters carry over from one test to the next.
 *
 * This file assembles the suite; each test case is a file of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "vperfctr.h"

static const check_area_fn areas[] = {
	vp_files_tcase,
	vp_counting_tcase,
	vp_state_tcase,
	vp_control_tcase,
	vp_command_tcase,
	vp_remote_tcase,
	vp_lifetime_tcase,
	vp_sim_tcase,
	vp_parse_tcase,
	vp_inherit_tcase,
	vp_final_tcase,
};

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], PROBE_ARG))
		return exec_probe();

	if (check_init())
		return EXIT_FAILURE;
	if (argc > 1 && !strcmp(argv[1], PROBE_NEW_ARG))
		return model ? exec_new_set_probe() : 15;
	return check_run_areas("vperfctr", areas, ARRAY_SIZE(areas));
}
