// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_ibs: what this CPU has, and the suite's helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ibs.h"

unsigned int ibs_caps;

struct perfctr_ibs_control ibs_ctl(unsigned int flags, unsigned int fetch,
				   unsigned int op)
{
	struct perfctr_ibs_control c;

	memset(&c, 0, sizeof(c));
	c.flags = flags;
	c.fetch_maxcnt = fetch;
	c.op_maxcnt = op;
	return c;
}

static int ibs_open(const char *name, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), PERFCTR_ROOT "/self/%s", name);
	return open(path, flags);
}

int ibs_put(const struct perfctr_ibs_control *c)
{
	int fd = ibs_open("ibs", O_WRONLY), err = 0;

	ck_assert_int_ge(fd, 0);
	if (write(fd, c, sizeof(*c)) != (ssize_t)sizeof(*c))
		err = errno;
	close(fd);
	return err;
}

struct perfctr_ibs_control ibs_get(void)
{
	struct perfctr_ibs_control c;
	int fd = ibs_open("ibs", O_RDONLY);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(read(fd, &c, sizeof(c)), sizeof(c));
	close(fd);
	return c;
}

int ibs_ring_open(void)
{
	int fd = ibs_open("ibs_ring", O_RDWR);

	return fd >= 0 ? fd : -errno;
}

int ibs_start(const struct perfctr_ibs_control *c)
{
	int fd;

	ck_assert_int_eq(pin(0), 0);
	ck_assert_int_eq(ibs_put(c), 0);
	fd = ibs_ring_open();
	ck_assert_int_ge(fd, 0);
	return fd;
}

void ibs_spin(unsigned int ms)
{
	spin(ms_ticks(ms));
}

void ibs_text(unsigned long *lo, unsigned long *hi)
{
	unsigned long here = (unsigned long)&ibs_spin, a, b;
	char line[512], perm[8];
	FILE *f = fopen("/proc/self/maps", "r");

	ck_assert_ptr_nonnull(f);
	*lo = *hi = 0;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%lx-%lx %7s", &a, &b, perm) != 3)
			continue;
		if (here >= a && here < b && perm[2] == 'x') {
			*lo = a;
			*hi = b;
		}
	}
	fclose(f);
	ck_assert_msg(*lo, "no code mapping holds %#lx", here);
}

static void ibs_find_caps(void)
{
	const char *v = info_field("ibs_caps");

	ibs_caps = v ? strtoul(v, NULL, 0) : 0;
}

int main(void)
{
	static const check_area_fn areas[] = {
		ibs_setup_tcase, ibs_ring_tcase, ibs_access_tcase,
		ibs_calls_tcase,
	};

	if (check_init())
		return EXIT_FAILURE;
	ibs_find_caps();
	return check_run_areas("ibs", areas, ARRAY_SIZE(areas));
}
