// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for perfex counting a command (perfex.rst) and for
 * libperfctr's passing of a handle over a socket, run in the test VM as
 * root with /proc/perfctr mounted: against perfctr.ko (the TSC only) and,
 * with PERFCTR_SIM_MODEL=NAME, against perfctr_simpmu.ko, whose counters
 * count TSC cycles. It runs the real perfex (/bin/perfex in the VM, or
 * $PERFEX) on real commands, busy among them (/bin/busy, or $BUSY).
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "suite.h"

static const check_area_fn areas[] = {
	px_exit_tcase,
	px_format_tcase,
	px_errors_tcase,
	px_inherit_tcase,
	px_send_tcase,
	px_ibs_tcase,
	px_compat26_tcase,
	px_software_tcase,
	px_system_tcase,
	px_attach_tcase,
	px_interval_tcase,
	px_per_thread_tcase,
	px_metrics_tcase,
};

int main(int argc, char **argv)
{
	/* The command perfex runs to see a signal's exit status. */
	if (argc == 3 && !strcmp(argv[1], RAISE_ARG)) {
		signal(atoi(argv[2]), SIG_DFL);
		raise(atoi(argv[2]));
		return 1;
	}
	/* The command that moves from CPU to CPU N times (software.c). */
	if (argc == 3 && !strcmp(argv[1], HOP_ARG))
		return hop_cpus(atoi(argv[2])) ? 1 : 0;
	if (argc == 2 && (!strcmp(argv[1], CONT_ARG) ||
			  !strcmp(argv[1], STOP_CONT_ARG) ||
			  !strcmp(argv[1], DAEMON_ARG)))
		return px_own_business(argv[1]);
	if ((argc == 2 || argc == 3) && !strcmp(argv[1], TARGET_ARG))
		return px_target_main(argc == 3);
	if (argc == 3 && !strcmp(argv[1], KICK_ARG))
		return px_kick_main(argv[2]);
	if (check_init())
		return EXIT_FAILURE;
	return check_run_areas("perfex", areas, ARRAY_SIZE(areas));
}
