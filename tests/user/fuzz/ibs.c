// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: a thread's IBS setup (/proc/perfctr/<tid>/ibs) and its
 * samples (ibs_ring: read, the tail written back, mappings).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "fuzz.h"
#include "io.h"

int fuzz_mmap(int fd, size_t exact);

void req_ibs(struct fuzz_req *r)
{
	struct perfctr_ibs_control ic;
	int fd = vfd[VF_IBS];

	r->what = "ibs";
	if (fd < 0) {
		r->err = EBADF;
		return;
	}
	gen_ibs(&ic);
	r->err = rnd_below(4) ? fuzz_write(fd, &ic, sizeof(ic)) :
		 fuzz_read(fd, sizeof(ic));
}

/* A tail from 0 to past the head; read(2) of whole samples or not. */
void req_ibs_ring(struct fuzz_req *r)
{
	long pg = sysconf(_SC_PAGESIZE);
	__u64 tail = rnd_below(4) ? rnd_below(64) : rnd();
	int fd = fuzz_open_file(gettid(), "ibs_ring",
				rnd_below(4) ? O_RDWR : O_RDONLY);

	r->what = "ibs_ring";
	if (fd < 0) {
		r->err = errno;
		return;
	}
	switch (rnd_below(3)) {
	case 0:
		r->what = "ibs_ring read";
		r->err = fuzz_read(fd, sizeof(struct perfctr_ibs_sample));
		break;
	case 1:
		r->what = "ibs_ring tail";
		r->err = fuzz_write(fd, &tail, sizeof(tail));
		break;
	default:
		r->what = "ibs_ring mmap";
		r->err = fuzz_mmap(fd, (1 + PERFCTR_IBS_RING_PAGES) * pg);
		break;
	}
	close(fd);
}
