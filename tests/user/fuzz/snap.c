// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: what a refused request must leave byte for byte as it
 * was. Everything is at rest when the snapshots are taken (fuzz_settle():
 * the thread's set suspended, global mode and /dev/perfmon stopped), so
 * none of it changes by itself; the IBS ring's head, lost, filtered and
 * busy counts do (sampling is not stopped), and are left out. A set that
 * /dev/perfmon made cannot be suspended through the command file, and
 * counts its TSC with every counter stopped: then the sums' tsc and the
 * state page (sampled every 50 ms) are left out too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perfctr/perfmon.h>

#include "fuzz.h"

#define SNAP_BYTES	4096
/* The ABI's part of the state page (virtual.rst, "state"). */
#define STATE_ABI_BYTES	320

struct blob {
	int err;		/* 0, or the read's errno */
	ssize_t len;
	unsigned char data[SNAP_BYTES];
};

enum {
	S_CONTROL, S_SUMS, S_STATUS, S_CHILDREN, S_IBS, S_GLOBAL, S_STATE,
	S_PERFMON, S_RING, S_NR
};

static const char *const snap_name[S_NR] = {
	"control", "sums", "status", "children", "ibs", "global",
	"state page", "perfmon counters", "ibs_ring header",
};

struct snap {
	struct blob b[S_NR];
};

static const unsigned char *state_page;	/* NULL: the thread has no set */
static const struct perfctr_ibs_ring *ring_hdr;
static int ring_fd = -1;

struct snap *snap_new(void)
{
	struct snap *s = calloc(1, sizeof(*s));

	if (!s) {
		perror("perfctr_fuzz");
		exit(2);
	}
	return s;
}

static void take_file(struct blob *b, int fd)
{
	b->err = 0;
	b->len = fd < 0 ? 0 : pread(fd, b->data, SNAP_BYTES, 0);
	if (b->len < 0) {
		b->err = errno;
		b->len = 0;
	}
}

static void take_mem(struct blob *b, const void *p, size_t len)
{
	b->err = 0;
	b->len = p ? (ssize_t)len : 0;
	if (p)
		memcpy(b->data, p, len);
}

/* Both counters' setup and value; a stopped counter's value stays. */
static void take_perfmon(struct blob *b)
{
	struct pmc_data d;
	struct pmc pm;
	int n;

	b->len = 0;
	b->err = 0;
	if (perfmon_fd < 0)
		return;
	for (n = 0; n < NPMC; n++) {
		memset(&pm, 0, sizeof(pm));
		memset(&d, 0, sizeof(d));
		pm.pmc_num = n;
		d.pmcd_num = n;
		if (ioctl(perfmon_fd, PMIOGET, &pm) || ioctl(perfmon_fd, PMIOREAD, &d))
			b->err = errno;
		memcpy(b->data + b->len, &pm, sizeof(pm));
		b->len += sizeof(pm);
		memcpy(b->data + b->len, &d, sizeof(d));
		b->len += sizeof(d);
	}
}

/* The ring's fixed part and its tail, which only its reader moves. */
static void take_ring(struct blob *b)
{
	__u64 tail;

	b->err = 0;
	b->len = 0;
	if (!ring_hdr)
		return;
	memcpy(b->data, ring_hdr, 16);
	tail = __atomic_load_n(&ring_hdr->tail, __ATOMIC_ACQUIRE);
	memcpy(b->data + 16, &tail, sizeof(tail));
	b->len = 16 + sizeof(tail);
}

void snap_take(struct snap *s)
{
	take_file(&s->b[S_CONTROL], vfd[VF_CONTROL]);
	take_file(&s->b[S_SUMS], vfd[VF_SUMS]);
	take_file(&s->b[S_STATUS], vfd[VF_STATUS]);
	take_file(&s->b[S_CHILDREN], vfd[VF_CHILDREN]);
	/* Its migrations count the root's own as they happen (ABI 1.2). */
	if (s->b[S_CHILDREN].len >=
	    (ssize_t)offsetof(struct vperfctr_children, sums))
		memset(s->b[S_CHILDREN].data +
		       offsetof(struct vperfctr_children, migrations), 0,
		       sizeof(__u32));
	take_file(&s->b[S_IBS], vfd[VF_IBS]);
	take_file(&s->b[S_GLOBAL], global_fd);
	take_mem(&s->b[S_STATE], state_page, STATE_ABI_BYTES);
	take_perfmon(&s->b[S_PERFMON]);
	take_ring(&s->b[S_RING]);
}

int snap_diff(const struct snap *a, const struct snap *b, char *why,
	      size_t len)
{
	const struct blob *x, *y;
	ssize_t off;
	int i;

	for (i = 0; i < S_NR; i++) {
		x = &a->b[i];
		y = &b->b[i];
		if (set_running && i == S_STATE)
			continue;
		if (x->err != y->err || x->len != y->len) {
			snprintf(why, len, "%s: read %zd bytes (%s), then %zd (%s)",
				 snap_name[i], x->len, strerror(x->err), y->len,
				 strerror(y->err));
			return 1;
		}
		off = set_running && i == S_SUMS ? sizeof(__u64) : 0;
		for (; off < x->len; off++)
			if (x->data[off] != y->data[off])
				break;
		if (off < x->len) {
			snprintf(why, len, "%s: byte %zd was 0x%02x, is 0x%02x (status %.*s)",
				 snap_name[i], off, x->data[off], y->data[off],
				 (int)b->b[S_STATUS].len, b->b[S_STATUS].data);
			return 1;
		}
	}
	return 0;
}

static int has_set(void)
{
	char st[16];
	ssize_t n;

	if (vfd[VF_STATUS] < 0)
		return 0;
	n = pread(vfd[VF_STATUS], st, sizeof(st), 0);
	return n >= 4 && strncmp(st, "none", 4);
}

static void ring_remap(void)
{
	struct perfctr_ibs_control ic;
	long pg = sysconf(_SC_PAGESIZE);
	size_t len;
	void *p;

	if (ring_hdr)
		munmap((void *)ring_hdr, pg);
	ring_hdr = NULL;
	if (ring_fd >= 0)
		close(ring_fd);
	ring_fd = fuzz_open_file(gettid(), "ibs_ring", O_RDONLY);
	if (ring_fd < 0 || vfd[VF_IBS] < 0 ||
	    pread(vfd[VF_IBS], &ic, sizeof(ic), 0) != sizeof(ic))
		return;
	len = (1 + (ic.ring_pages ? ic.ring_pages : PERFCTR_IBS_RING_PAGES)) * pg;
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, ring_fd, 0);
	if (p == MAP_FAILED)
		return;
	/* Only the header page is looked at. */
	munmap((char *)p + pg, len - pg);
	ring_hdr = p;
}

const struct perfctr_ibs_ring *fuzz_ring(void)
{
	return ring_hdr;
}

/*
 * Mapping state makes a set where there is none: only a thread that has
 * one gets its page mapped, so a thread without stays without.
 */
void state_remap(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	void *p;

	if (state_page)
		munmap((void *)state_page, pg);
	state_page = NULL;
	if (has_set() && vfd[VF_STATE] >= 0) {
		p = mmap(NULL, pg, PROT_READ, MAP_SHARED, vfd[VF_STATE], 0);
		if (p != MAP_FAILED)
			state_page = p;
	}
	ring_remap();
}
