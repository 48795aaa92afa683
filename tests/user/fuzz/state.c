// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: mappings of state (and of ibs_ring in ibs.c): every
 * protection, sharing, length and offset; an accepted mapping is tried
 * with mprotect(PROT_WRITE), which must fail, then unmapped.
 */
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"

static unsigned long writable_allowed;

int fuzz_mmap(int fd, size_t exact)
{
	const int prots[] = { PROT_READ, PROT_READ, PROT_WRITE,
			      PROT_READ | PROT_WRITE, PROT_NONE,
			      PROT_READ | PROT_EXEC };
	const int flags[] = { MAP_SHARED, MAP_SHARED, MAP_PRIVATE,
			      MAP_SHARED | MAP_POPULATE,
			      MAP_PRIVATE | MAP_POPULATE, MAP_SHARED | MAP_LOCKED };
	long pg = sysconf(_SC_PAGESIZE);
	size_t lens[] = { exact, exact, pg, 1, pg - 1, exact + pg, 2 * exact,
			  0 };
	off_t offs[] = { 0, 0, 0, pg, exact, 1, -pg };
	size_t len = lens[rnd_below(ARRAY_SIZE(lens))];
	int prot = prots[rnd_below(ARRAY_SIZE(prots))];
	void *p;

	p = mmap(NULL, len, prot, flags[rnd_below(ARRAY_SIZE(flags))], fd,
		 offs[rnd_below(ARRAY_SIZE(offs))]);
	if (p == MAP_FAILED)
		return errno;
	/* The pages are read-only for good: counted, not fatal here. */
	if (!mprotect(p, len, PROT_READ | PROT_WRITE))
		writable_allowed++;
	munmap(p, len);
	return 0;
}

unsigned long fuzz_writable_mappings(void)
{
	return writable_allowed;
}

void req_state(struct fuzz_req *r)
{
	r->what = "state mmap";
	r->err = vfd[VF_STATE] < 0 ? EBADF :
		 fuzz_mmap(vfd[VF_STATE], sysconf(_SC_PAGESIZE));
}
