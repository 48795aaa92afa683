// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: /proc/perfctr/global (every family's control, global
 * mode's rules: no i-mode counters), reclaim and info.
 */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
#include "io.h"

static int req_reclaim(void)
{
	const char *const v[] = { "1", "1\n", "0", "2", "", "x", "11" };
	const char *s = v[rnd_below(7)];
	int fd = fuzz_open_file(0, "reclaim", O_WRONLY);
	int err = 0;
	size_t len = 0;

	if (fd < 0)
		return errno;
	while (s[len])
		len++;
	if (write(fd, s, len) < 0)
		err = errno;
	close(fd);
	return err;
}

void req_global(struct fuzz_req *r)
{
	struct perfctr_cpu_control c;
	int fd;

	switch (rnd_below(16)) {
	case 0:
		/* Rare: it takes the hardware from every thread. */
		r->what = "reclaim";
		r->err = req_reclaim();
		return;
	case 1:
		r->what = "info read";
		fd = fuzz_open_file(0, "info", O_RDONLY);
		r->err = fd < 0 ? errno : fuzz_read(fd, 4096);
		if (fd >= 0)
			close(fd);
		return;
	case 2:
	case 3:
		r->what = "global read";
		r->err = global_fd < 0 ? EBADF :
			 fuzz_read(global_fd, 2 * sizeof(struct perfctr_sum_ctrs));
		return;
	}
	r->what = "global write";
	if (global_fd < 0) {
		r->err = EBADF;
		return;
	}
	gen_cpu_control(&c);
	r->err = fuzz_write(global_fd, &c, sizeof(c));
	if (!r->err)
		gen_keep_cpu_control(&c);
}
