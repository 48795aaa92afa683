// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_perfmon: the layout this CPU's driver gives FreeBSD's setups,
 * from the family /proc/perfctr/info names, and the suite's helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>

#include "perfmon.h"

enum pm_layout layout;

/* info's cpu_family_id: the x86 values of Documentation/perfctr/x86.rst. */
static enum pm_layout find_layout(void)
{
#ifdef __powerpc__
	return PM_NONE;
#else
	const char *v = info_field("cpu_family_id");

	switch (v ? atoi(v) : 0) {
	case 1: case 2: case 9:		/* P5, P5MMX, Cyrix MII */
		return PM_CESR;
	case 3: case 4: case 6: case 7: case 8:	/* P6, arch, K7, K8, 10h+ */
		return PM_EVNTSEL;
	default:
		return PM_NONE;
	}
#endif
}

int pm_open(void)
{
	int fd = open(_PATH_PERFMON, O_RDWR);

	ck_assert_msg(fd >= 0, "open %s: %s", _PATH_PERFMON, strerror(errno));
	return fd;
}

int pm_ioctl(int fd, unsigned long req, void *arg)
{
	return ioctl(fd, req, arg) ? errno : 0;
}

int pm_num(int fd, unsigned long req, int num)
{
	return pm_ioctl(fd, req, &num);
}

int pm_setup(int fd, int num, unsigned int word)
{
	struct pmc p = { .pmc_num = num };

	p.pmc_val = word;
	return pm_ioctl(fd, PMIOSETUP, &p);
}

long long pm_read(int fd, int num)
{
	struct pmc_data d = { .pmcd_num = num };

	ck_assert_int_eq(pm_ioctl(fd, PMIOREAD, &d), 0);
	return d.pmcd_value;
}

/*
 * User-mode instructions: Pentium INSTRUCTIONS_EXECUTED (0x16) counted
 * as events; Pentium Pro INST_RETIRED (0xC0), the same code on AMD and
 * architectural perfmon.
 */
unsigned int pm_word(void)
{
	if (layout == PM_CESR)
		return 0x16 | (PMCF_USR | PMCF_E) << 16;
	return 0xC0 | PMCF_USR << 16;
}

/* The CESR half 0x96 (CC: CPL 3 events); PerfEvtSel USR, with EN. */
unsigned int pm_evntsel(int num)
{
	const char *v = info_field("cpu_family_id");

	if (layout == PM_CESR)
		return 0x96;
	if (num == 1 && v && atoi(v) == 3)	/* the P6: EN in counter 0's */
		return 0x000100C0;
	return 0x004100C0;
}

static const check_area_fn areas[] = {
	pm_ioctl_tcase,
	pm_share_tcase,
	pm_count_tcase,
	pm_names_tcase,
};

int main(void)
{
	if (check_init())
		return EXIT_FAILURE;
	layout = find_layout();
	return check_run_areas("perfmon", areas, ARRAY_SIZE(areas));
}
