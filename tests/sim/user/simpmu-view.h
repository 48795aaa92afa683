/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Test builds only: what libperfctr-sim.a reads where libperfctr.a
 * executes RDPMC. tools/lib/perfctr/pmc-view.h includes it under
 * PERFCTR_SIM, found on the -I path only tests/user/Makefile passes,
 * after barrier(), load_u32() and the arch header's arch_rdtsc_low().
 *
 * No register holds a simulated counter, so perfctr_simpmu.ko publishes
 * each CPU's counters on a page of /dev/perfctr_simpmu (simpmu_user.h),
 * and a read computes from this CPU's entry what RDPMC would return.
 * Where the device is missing (perfctr.ko), the handle reads as
 * libperfctr.a does on a CPU without user-space RDPMC.
 */
#ifndef _PERFCTR_SIMPMU_VIEW_H
#define _PERFCTR_SIMPMU_VIEW_H

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

#include "simpmu_user.h"

#define SIMPMU_DEV		"/dev/perfctr_simpmu"
#define SIMPMU_NR_MASK		0x1fU
#define SIMPMU_P4_FAST		0x80000000U

/* --- which CPU this is: the page has one entry per CPU --- */

#if defined(__powerpc__)
/* No user-mode instruction gives the CPU number: ask the kernel. */
static inline int simpmu_fast_cpu(void)
{
	return 0;
}

static inline unsigned int simpmu_cpu(int fast_cpu)
{
	(void)fast_cpu;
	return sched_getcpu();	/* -1 is out of range */
}
#else
/*
 * x86_64 kernels put "node << 12 | cpu" in the limit of GDT entry 15 for
 * the vDSO's getcpu; 32-bit programs under them can read it too. On i386
 * kernels 0x7b is the 4 GiB user data segment, which tells them apart.
 */
#define SIMPMU_CPU_SEG		0x7bU
#define SIMPMU_CPU_MASK		0xfffU

/* Whether LSL on SIMPMU_CPU_SEG gives this CPU's number. */
static inline int simpmu_fast_cpu(void)
{
	__u32 limit = ~0U;
	int ok;

	__asm__ __volatile__("lsl %2, %0"
			     : "+r" (limit), "=@ccz" (ok)
			     : "r" (SIMPMU_CPU_SEG));
	return ok && limit <= 0xfffffU;
}

static inline unsigned int simpmu_cpu(int have_lsl)
{
	__u32 limit;

	if (!have_lsl)
		return sched_getcpu();	/* -1 is out of range below */
	__asm__ __volatile__("lsl %1, %0" : "=r" (limit)
			     : "r" (SIMPMU_CPU_SEG));
	return limit & SIMPMU_CPU_MASK;
}
#endif

/* --- the handle's part: the page, mapped at open --- */

struct pmc_view_src {
	const struct simpmu_user_cpu *page;	/* NULL: not mapped */
	int fast_cpu;
};

/* Where RDPMC would be usable (@rdpmc): can the page be mapped? 1 or 0. */
static inline int pmc_view_open(struct pmc_view_src *src, size_t size,
				int rdpmc)
{
	void *p;
	int fd;

	if (!rdpmc)
		return 0;
	fd = open(SIMPMU_DEV, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return 0;
	src->page = p;
	src->fast_cpu = simpmu_fast_cpu();
	return 1;
}

static inline void pmc_view_close(struct pmc_view_src *src, size_t size)
{
	if (src->page)
		munmap((void *)src->page, size);
}

/* --- one read: a look at this CPU's entry --- */

/*
 * A look at this CPU's entry, taken once per pass of a state-page read:
 * the counters are read from it as RDPMC would read them, and the pass is
 * repeated if the entry changed meanwhile (a migration changes the state
 * page's seq). Only the low 32 bits of a value are needed, so 32-bit
 * arithmetic does.
 */
struct pmc_view {
	const struct simpmu_user_cpu *e;
	__u32 seq;
	__u32 delta;		/* TSC ticks since the entry was exact */
	__u32 not_fast;		/* clears a P4 fast read's bit 31 */
	__u32 width;		/* low half of the width mask */
	unsigned int cpu;	/* the CPU whose entry e is */
	int fast_cpu;
};

/* CPUs past the page have no counters: RDPMC would read 0. */
static const struct simpmu_user_cpu simpmu_none = { .user_read = 1 };

static inline void pmc_view_begin(struct pmc_view *v,
				  const struct pmc_view_src *src)
{
	unsigned int cpu = simpmu_cpu(src->fast_cpu);
	const struct simpmu_user_cpu *e;

	e = cpu < SIMPMU_USER_CPUS ? &src->page[cpu] : &simpmu_none;
	v->e = e;
	v->cpu = cpu;
	v->fast_cpu = src->fast_cpu;
	v->seq = load_u32(&e->seq);
	barrier();
	v->delta = arch_rdtsc_low() - (__u32)e->last_tsc;
	v->not_fast = e->p4_fast ? ~SIMPMU_P4_FAST : ~0U;
	v->width = (__u32)e->width_mask;
}

/* After the pass's last barrier(): did the entry change under it? */
static inline int pmc_view_changed(const struct pmc_view *v)
{
	return (v->seq & 1) || load_u32(&v->e->seq) != v->seq;
}

static inline __u32 simpmu_value(const struct pmc_view *v, __u64 ctr,
				 __u32 counting, unsigned int n)
{
	__u32 on = (counting >> n) & 1;

	return ((__u32)ctr + (-on & v->delta)) & v->width;
}

/* Fixed counters, and maps no counter answers (RDPMC would fault). */
static inline __u32 simpmu_other(const struct pmc_view *v, __u32 map)
{
	const struct simpmu_user_cpu *e = v->e;
	unsigned int n = map & SIMPMU_NR_MASK;

#ifdef PERFCTR_X86_FIXED_PMC
	if (map & PERFCTR_X86_FIXED_PMC)
		return n < SIMPMU_USER_FIXED ?
			simpmu_value(v, e->fixed[n], e->fixed_counting, n) : 0;
#endif
	if ((map & ~v->not_fast) && n < SIMPMU_USER_CTRS)
		return simpmu_value(v, e->ctr[n], e->counting, n);
	return 0;
}

/*
 * RDPMC faults while the CPU does not let user space read the counters
 * (CR4.PCE clear), and so does this; but not if the thread left the CPU
 * or the entry changed since the view was taken: the flag it read may be
 * another moment's, and the pass is redone anyway.
 */
static inline __u32 simpmu_denied(const struct pmc_view *v)
{
	if (!(v->seq & 1) && simpmu_cpu(v->fast_cpu) == v->cpu &&
	    load_u32(&v->e->seq) == v->seq)
		raise(SIGSEGV);
	return 0;
}

/* What RDPMC would read for @map on this CPU, low 32 bits. */
static inline __u32 pmc_low(const struct pmc_view *v, __u32 map)
{
	unsigned int n = map & v->not_fast;

	if (__builtin_expect(!v->e->user_read, 0))
		return simpmu_denied(v);
	if (__builtin_expect(n >= SIMPMU_USER_CTRS, 0))
		return simpmu_other(v, map);
	return simpmu_value(v, v->e->ctr[n], v->e->counting, n);
}

#endif /* _PERFCTR_SIMPMU_VIEW_H */
