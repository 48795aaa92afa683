// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: the request loop, the options and the tallies.
 *
 *   perfctr_fuzz [-s SEED] [-t SECONDS] [-n REQUESTS] [-v]
 *
 * Prints the seed first. Each request is one system call on a perfctr
 * file, /dev/perfmon or a mapping; before it the fuzzer reads everything
 * that request could change, and after a refusal reads it again: any
 * difference is a violation, reported with the seed and the request's
 * index, and the exit status is 1. -s SEED -n INDEX+1 -v replays up to
 * the failing request, printing each one.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fuzz.h"

int verbose;
static __u64 state_rnd;

/* splitmix64: small, and the same on every libc and architecture. */
__u64 rnd(void)
{
	__u64 z;

	state_rnd += 0x9e3779b97f4a7c15ULL;
	z = state_rnd;
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void rnd_seed(__u64 seed)
{
	state_rnd = seed;
}

__u32 rnd_u32(void)
{
	return (__u32)rnd();
}

__u32 rnd_below(__u32 n)
{
	return n ? (__u32)(rnd() % n) : 0;
}

__u32 rnd_pick(const __u32 *v, size_t n)
{
	return v[rnd_below(n)];
}

void rnd_fill(void *buf, size_t len)
{
	unsigned char *p = buf;
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)rnd();
}

static unsigned char *arena;	/* four pages, then one inaccessible */
static long page_size;

/* len bytes that end where the inaccessible page begins, or at the start. */
void *fuzz_buf(size_t len)
{
	size_t room = 4 * page_size;

	if (len > room)
		len = room;
	if (rnd_below(4) == 0)
		return arena + room - len;
	return arena;
}

void *fuzz_bad_ptr(void)
{
	static const unsigned long bad[] = { 0, 1, 0xfff, -4096UL };

	if (rnd_below(2))
		return arena + 4 * page_size;
	return (void *)bad[rnd_below(4)];
}

static void setup_arena(void)
{
	page_size = sysconf(_SC_PAGESIZE);
	arena = mmap(NULL, 5 * page_size, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (arena == MAP_FAILED || mprotect(arena + 4 * page_size, page_size,
					    PROT_NONE)) {
		perror("perfctr_fuzz: arena");
		exit(2);
	}
}

typedef void (*req_fn)(struct fuzz_req *r);

/* Weights: the per-thread files are the largest surface. */
static const req_fn reqs[] = {
	req_vperfctr, req_vperfctr, req_vperfctr, req_vperfctr,
	req_state, req_global, req_global, req_perfmon, req_perfmon,
	req_ibs, req_ibs_ring,
};

#define MAX_KINDS	32

struct kind {
	const char *what;
	unsigned long requests, accepted;
};

struct tally {
	unsigned long requests, accepted, violations;
	unsigned long by_errno[256];
	struct kind kinds[MAX_KINDS];
};

/* Per kind of request: what each area got through, and what not. */
static void count_kind(struct tally *t, const struct fuzz_req *r)
{
	struct kind *k = t->kinds;

	while (k < t->kinds + MAX_KINDS - 1 && k->what && strcmp(k->what, r->what))
		k++;
	k->what = r->what;
	k->requests++;
	if (!r->err)
		k->accepted++;
}

static void report(const struct tally *t, __u64 seed)
{
	int e;

	printf("perfctr_fuzz: seed %llu: %lu requests, %lu accepted, %lu rejected\n",
	       (unsigned long long)seed, t->requests, t->accepted,
	       t->requests - t->accepted);
	for (e = 1; e < 256; e++)
		if (t->by_errno[e])
			printf("perfctr_fuzz:   rejected %-8s %lu\n",
			       strerrorname_np(e) ? strerrorname_np(e) : "?",
			       t->by_errno[e]);
	for (e = 0; e < MAX_KINDS && t->kinds[e].what; e++)
		printf("perfctr_fuzz:   %-16s %lu requests, %lu accepted\n",
		       t->kinds[e].what, t->kinds[e].requests,
		       t->kinds[e].accepted);
	printf("perfctr_fuzz: %lu crashes\n", t->violations);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void one(struct tally *t, struct snap *before, struct snap *after,
		unsigned long i, __u64 seed)
{
	unsigned long writable = fuzz_writable_mappings();
	struct fuzz_req r = { "?", 0 };
	char why[256];

	snap_take(before);
	if (verbose) {
		/* Before the request too: the last line names one that hangs. */
		printf("perfctr_fuzz: #%lu\n", i);
		fflush(stdout);
	}
	reqs[rnd_below(ARRAY_SIZE(reqs))](&r);
	t->requests++;
	count_kind(t, &r);
	if (verbose)
		printf("perfctr_fuzz: #%lu %s: %s\n", i, r.what,
		       r.err ? strerror(r.err) : "accepted");
	if (fuzz_writable_mappings() != writable) {
		t->violations++;
		printf("perfctr_fuzz: VIOLATION seed %llu request %lu (%s): %s\n",
		       (unsigned long long)seed, i, r.what,
		       "mprotect() made the mapping writable");
	}
	if (!r.err) {
		t->accepted++;
		fuzz_settle();
		return;
	}
	t->by_errno[r.err & 255]++;
	snap_take(after);
	if (snap_diff(before, after, why, sizeof(why))) {
		t->violations++;
		printf("perfctr_fuzz: VIOLATION seed %llu request %lu (%s, %s): %s\n",
		       (unsigned long long)seed, i, r.what, strerror(r.err),
		       why);
		printf("perfctr_fuzz: reproduce: perfctr_fuzz -s %llu -n %lu -v\n",
		       (unsigned long long)seed, i + 1);
		fuzz_settle();
	}
}

/*
 * The module's own signals (an overflow, a full IBS ring) are expected
 * whatever their number: a mutated setup may name SIGINT or SIGSEGV,
 * which the kernel takes. Anything else keeps its default, re-raised:
 * a real crash still kills the fuzzer.
 */
static void module_signal(int sig, siginfo_t *si, void *uc)
{
	(void)uc;
	if (si->si_code == SI_PMC_OVF || si->si_code == SI_PMC_IBS_FULL)
		return;
	signal(sig, SIG_DFL);
	raise(sig);
}

static void take_module_signals(void)
{
	struct sigaction sa;
	int sig;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = module_signal;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	sigfillset(&sa.sa_mask);
	for (sig = 1; sig <= SIGRTMAX; sig++)
		if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD)
			sigaction(sig, &sa, NULL);
}

/* Another thread, asleep: its files are another thread's (EPERM, ...). */
static void start_other(void)
{
	other_tid = fork();
	if (other_tid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
}

int main(int argc, char **argv)
{
	__u64 seed = (__u64)time(NULL) ^ ((__u64)getpid() << 32);
	unsigned long max = (unsigned long)-1, i;
	double budget = -1, end;
	struct tally t;
	struct snap *before, *after;
	int opt;

	while ((opt = getopt(argc, argv, "s:t:n:v")) != -1) {
		switch (opt) {
		case 's':
			seed = strtoull(optarg, NULL, 0);
			break;
		case 't':
			budget = strtod(optarg, NULL);
			break;
		case 'n':
			max = strtoul(optarg, NULL, 0);
			break;
		case 'v':
			verbose = 1;
			break;
		default:
			fprintf(stderr, "usage: %s [-s SEED] [-t SECONDS] [-n REQUESTS] [-v]\n",
				argv[0]);
			return 2;
		}
	}
	printf("perfctr_fuzz: seed %llu\n", (unsigned long long)seed);
	fflush(stdout);
	setvbuf(stdout, NULL, _IOLBF, 0);
	memset(&t, 0, sizeof(t));
	rnd_seed(seed);
	take_module_signals();
	setup_arena();
	start_other();
	fuzz_open_files();
	before = snap_new();
	after = snap_new();
	fuzz_settle();
	/* -n alone: as many requests as it says, however long they take. */
	if (budget < 0)
		budget = max == (unsigned long)-1 ? 20 : 1e9;
	end = now() + budget;
	for (i = 0; i < max && now() < end; i++)
		one(&t, before, after, i, seed);
	kill(other_tid, SIGKILL);
	waitpid(other_tid, NULL, 0);
	report(&t, seed);
	return t.violations ? 1 : 0;
}
