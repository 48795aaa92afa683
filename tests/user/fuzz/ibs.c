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
	switch (rnd_below(4)) {
	case 0:
		r->err = fuzz_read(fd, sizeof(ic));
		break;
	case 1:
		/* Whole, at 0: the setup's own rules decide. */
		r->err = pwrite(fd, &ic, sizeof(ic), 0) < 0 ? errno : 0;
		break;
	default:
		r->err = fuzz_write(fd, &ic, sizeof(ic));
		break;
	}
}

/* The ring's length as the setup asked for it, header page included. */
static size_t ring_len(void)
{
	struct perfctr_ibs_control ic;
	long pg = sysconf(_SC_PAGESIZE);

	if (vfd[VF_IBS] < 0 ||
	    pread(vfd[VF_IBS], &ic, sizeof(ic), 0) != sizeof(ic))
		return (1 + PERFCTR_IBS_RING_PAGES) * pg;
	return (1 + (ic.ring_pages ? ic.ring_pages : PERFCTR_IBS_RING_PAGES)) * pg;
}

/* A tail at its limits (the tail, the head), past them, or anywhere. */
static __u64 gen_tail(void)
{
	const struct perfctr_ibs_ring *h = fuzz_ring();
	__u64 head = h ? __atomic_load_n(&h->head, __ATOMIC_ACQUIRE) : 0;
	__u64 tail = h ? __atomic_load_n(&h->tail, __ATOMIC_ACQUIRE) : 0;

	switch (rnd_below(6)) {
	case 0:
		return tail;
	case 1:
		return head;
	case 2:
		return head + 1;
	case 3:
		return tail - 1;
	case 4:
		return tail + rnd_below(head - tail + 1);
	default:
		return rnd();
	}
}

/* read(2) of whole samples or not; tails written back; mappings. */
void req_ibs_ring(struct fuzz_req *r)
{
	__u64 tail = gen_tail();
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
		r->err = fuzz_mmap(fd, ring_len());
		break;
	}
	close(fd);
}
