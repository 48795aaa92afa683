// SPDX-License-Identifier: GPL-2.0-only
/*
 * A thread's own counter set through its raw files, and the invariants
 * checked at every read: sums only grow, the TSC sum stays within the
 * TSC time since the sums started and within the thread's own CPU time,
 * and each counter (on the simulated PMU one a cycle of the owner's user
 * mode) stays within the TSC sum: another thread's counts would break it.
 */
#define _GNU_SOURCE
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "set.h"

static unsigned long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/* What the thread asked, for the report of a broken bound. */
static void vset_note(struct vset *v, char op)
{
	memmove(v->ops, v->ops + 1, sizeof(v->ops) - 1);
	v->ops[sizeof(v->ops) - 1] = op;
}

int vset_open(struct vset *v)
{
	memset(v, 0, sizeof(*v));
	memset(v->ops, '.', sizeof(v->ops));
	v->seed = gettid() ^ (unsigned int)rdtsc();
	v->ctl = pfs_open(gettid(), "control", O_RDWR);
	v->sums = pfs_open(gettid(), "sums", O_RDONLY);
	v->cmd = pfs_open(gettid(), "command", O_WRONLY);
	if (v->ctl < 0 || v->sums < 0 || v->cmd < 0) {
		unexpected("open own files");
		return -1;
	}
	return 0;
}

void vset_close(struct vset *v)
{
	if (v->st)
		munmap((void *)v->st, page_size());
	close(v->ctl);
	close(v->sums);
	close(v->cmd);
}

/* The sums start again from 0: the bounds count from now. */
static void vset_restart(struct vset *v)
{
	memset(&v->last, 0, sizeof(v->last));
	v->t0 = rdtsc();
	v->cpu0 = cpu_ns();
}

static void vset_map(struct vset *v)
{
	void *p;
	int fd;

	if (v->st)
		return;
	fd = pfs_open(gettid(), "state", O_RDONLY);
	if (fd < 0) {
		unexpected("open state");
		return;
	}
	p = mmap(NULL, page_size(), PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		unexpected("mmap state");
	else
		v->st = p;
}

static void vset_unmap(struct vset *v)
{
	if (v->st)
		munmap((void *)v->st, page_size());
	v->st = NULL;
}

static void make_control(struct vperfctr_control *c, int ctrs, __u32 flags,
			 int preserve)
{
	tsc_control(c);
	c->flags = flags;
	if (ctrs)
		model->amode(&c->cpu_control);
	if (preserve)
		c->preserve = VPERFCTR_PRESERVE_TSC | 3;
}

int vset_control(struct vset *v, __u32 flags, int preserve)
{
	int ctrs = model && phase_for_counters() && rnd(&v->seed, 4);
	struct vperfctr_control c;
	int ok;

	if (!v->have)
		preserve = 0;
	if (!preserve)
		vset_restart(v);
	vset_note(v, preserve ? 'p' : 'c');
	make_control(&c, ctrs, flags, preserve);
	ok = put_control(v->ctl, &c) == CTL_SIZE;
	if (!ok && ctrs && errno == EBUSY) {
		count(OP_CTL_BUSY);
		ctrs = 0;
		make_control(&c, 0, flags, preserve);
		ok = put_control(v->ctl, &c) == CTL_SIZE;
	}
	if (!ok) {
		unexpected("control write");
		return -1;
	}
	if (!v->have)
		count(OP_SET_MADE);
	count(OP_CONTROL);
	v->have = 1;
	v->ctrs = ctrs ? 2 : 0;
	vset_map(v);
	return 0;
}

/* Owner's read of the state page (TSC only): the seq protocol. */
static unsigned long long fast_tsc(const struct vperfctr_state *st)
{
	unsigned long long tsc;
	__u32 seq, cstatus;

	do {
		seq = PAGE_LOAD(st->seq);
		if (seq & 1)
			continue;
		cstatus = PAGE_LOAD(st->cpu_state.cstatus);
		tsc = PAGE_LOAD(st->cpu_state.tsc_sum);
		if (perfctr_cstatus_has_tsc(cstatus))
			tsc += (__u32)(rdtsc() - PAGE_LOAD(st->cpu_state.tsc_start));
	} while ((seq & 1) || PAGE_LOAD(st->seq) != seq);
	return tsc;
}

/*
 * A sum within the thread's own CPU time: the TSC, and on the simulated
 * PMU each counter (one a cycle while enabled). Slack: the CPU clock and
 * the sums are sampled at other moments (CPU_SLACK_MS). Another thread's
 * counts would take a light thread's sums far past it.
 */
static void vset_within_cpu(const struct vset *v, unsigned long long sum,
			    unsigned long long cpu, unsigned long long wall,
			    const char *what, const char *where)
{
	if (sum > cpu)
		note_excess(sum - cpu);
	if (sum > cpu + cpu / 2 + ms_ticks(CPU_SLACK_MS))
		bad("%s %d: %s %llu > CPU time %llu (%llu since 0; %.16s)\n",
		    where, gettid(), what, sum, cpu, wall, v->ops);
}

static void vset_bounds(struct vset *v, const struct perfctr_sum_ctrs *s,
			const char *where)
{
	unsigned long long wall = rdtsc() - v->t0;
	unsigned long long cpu = (cpu_ns() - v->cpu0) * khz / 1000000;

	if (s->tsc > wall)
		bad("%s: tsc sum %llu > %llu ticks since it started\n", where,
		    s->tsc, wall);
	vset_within_cpu(v, s->tsc, cpu, wall, "tsc sum", where);
	vset_within_cpu(v, s->pmc[0], cpu, wall, "pmc[0]", where);
	vset_within_cpu(v, s->pmc[1], cpu, wall, "pmc[1]", where);
}

void vset_check(struct vset *v, const char *where)
{
	struct perfctr_sum_ctrs s;
	unsigned long long fast = 0;
	unsigned int i;

	if (v->have && v->st) {
		fast = fast_tsc(v->st);
		count(OP_FASTREAD);
		if (fast < v->last.tsc)
			bad("%s: state page tsc %llu < earlier %llu\n", where,
			    fast, v->last.tsc);
	}
	if (pread(v->sums, &s, sizeof(s), 0) != sizeof(s)) {
		unexpected("sums read");
		return;
	}
	count(OP_READ);
	if (!v->have) {
		if (!is_zero(&s, sizeof(s)))
			bad("%s: a thread without a set reads non-zero sums\n",
			    where);
		return;
	}
	if (s.tsc < fast)
		bad("%s: sums tsc %llu < the state page's %llu\n", where,
		    s.tsc, fast);
	for (i = 0; i < 2; i++)
		if (s.pmc[i] < v->last.pmc[i])
			bad("%s: pmc[%u] went back: %llu < %llu\n", where, i,
			    s.pmc[i], v->last.pmc[i]);
	if (s.tsc < v->last.tsc)
		bad("%s: tsc went back: %llu < %llu\n", where, s.tsc,
		    v->last.tsc);
	vset_bounds(v, &s, where);
	v->last = s;
}

static int vset_cmd(struct vset *v, __u32 cmd)
{
	vset_note(v, "0SRCIU"[cmd % 6]);
	if (put_command(v->cmd, cmd) == sizeof(cmd))
		return 0;
	if (!v->have && errno == ENODATA)
		return 0;
	unexpected("command");
	return -1;
}

void vset_unlink(struct vset *v)
{
	if (v->have && !vset_cmd(v, VPERFCTR_CMD_UNLINK)) {
		count(OP_UNLINK);
		v->have = 0;
		vset_unmap(v);
	}
}

/* One of the owner's requests, at random. */
void vset_churn(struct vset *v, __u32 flags)
{
	switch (rnd(&v->seed, 8)) {
	case 0:
	case 1:
		vset_control(v, flags, rnd(&v->seed, 2));
		break;
	case 2:
		if (!vset_cmd(v, VPERFCTR_CMD_SUSPEND) && v->have)
			count(OP_SUSPEND);
		break;
	case 3:
	case 4:
		if (!vset_cmd(v, VPERFCTR_CMD_RESUME) && v->have)
			count(OP_RESUME);
		break;
	case 5:
		v->t0 = rdtsc();
		v->cpu0 = cpu_ns();
		if (!vset_cmd(v, VPERFCTR_CMD_CLEAR) && v->have) {
			count(OP_CLEAR);
			memset(&v->last, 0, sizeof(v->last));
		}
		break;
	case 6:
		vset_unlink(v);
		break;
	default:
		if (!v->have)
			vset_control(v, flags, 0);
		break;
	}
}

/*
 * Global mode's turn: a set holding counters gives them up (TSC only,
 * its sums kept), once per phase, whoever gave it the counters; 1 if
 * it wrote a control.
 */
int vset_follow_phase(struct vset *v, __u32 flags)
{
	unsigned long long n = phase_no();

	if (phase_for_counters() || v->dropped == n + 1 || !v->have)
		return 0;
	v->dropped = n + 1;
	return !vset_control(v, flags, 1);
}
