// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for perfctr's security model (Documentation/perfctr/
 * security.rst), in the test VM as root against perfctr.ko and, with
 * PERFCTR_SIM_MODEL=NAME, against perfctr_simpmu.ko model=NAME:
 *  - perfctr.paranoid: who may count what (kernel mode, counters at all);
 *  - who may read another process's counters;
 *  - the hardware taken back by CAP_PERFMON, and who holds it;
 *  - a set given to a tracee at a syscall stop while the tracee itself
 *    unlinks, rewrites or commands it (the link still pending);
 *  - exec into a setuid program, and with changed credentials;
 *  - user-space reads racing with overflow stops;
 *  - how many threads a user may keep files open on;
 *  - PR_SET_TSC honoured; hidepid= on the file system.
 * Unprivileged steps run in children that setuid() to nobody.
 *
 * This file assembles the suite; each area is a file of its own.
 */
#include <stdlib.h>
#include <string.h>

#include "security.h"

static const check_area_fn areas[] = {
	sec_paranoid_tcase,
	sec_hardware_tcase,
	sec_access_tcase,
	sec_lifetime_tcase,
	sec_fastread_tcase,
	sec_watches_tcase,
	sec_tsc_tcase,
	sec_hidepid_tcase,
};

int main(int argc, char **argv)
{
	if (check_init())
		return EXIT_FAILURE;
	if (argc > 3 && !strcmp(argv[1], HELPER_ARG))
		return suid_helper(atoi(argv[2]), atoi(argv[3]));
	return check_run_areas("security", areas, ARRAY_SIZE(areas));
}
