// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfex: counting a command (Documentation/perfctr/perfex.rst).
 *
 * A process may not open another process's /proc/perfctr/<tid>/ files
 * (virtual.rst), not even its child's. So the child opens its own,
 * writes the control with VPERFCTR_CONTROL_INHERIT, which makes every
 * thread and process it goes on to create count too, and passes the
 * files to perfex over a socket before it execs the command. Those
 * descriptors still read the final counts once the command has exited.
 * With --ibs-op or --ibs-fetch the child sets IBS up on itself too and
 * sends its sample ring, which perfex drains while the command runs
 * (ibs.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "perfex.h"

/* Writes @text on one line after @prefix: perfctr's advice has breaks. */
void one_line(FILE *f, const char *prefix, const char *text)
{
	fputs(prefix, f);
	for (; *text; text++) {
		if (*text != '\n')
			fputc(*text, f);
		else if (text[1] && text[1] != ' ')
			fputc(' ', f);
	}
	fputc('\n', f);
}

/* Kernel mode too where the policy lets this user have it. */
unsigned int default_modes(void)
{
	struct perfctr_info info;

	if (!perfctr_info(&info) && info.paranoid >= 2 && geteuid() != 0)
		return PERFCTR_EVENT_USER;
	return PERFCTR_EVENT_USER | PERFCTR_EVENT_KERNEL;
}

/* The table of @cpuid, PERFCTR_CPUID, the module's or the CPU's id. */
const struct perfctr_event_table *pick_table(const char *cpuid)
{
	const struct perfctr_event_table *t;
	char id[64];

	if (cpuid) {
		snprintf(id, sizeof(id), "%s", cpuid);
	} else if (perfctr_cpuid(id, sizeof(id))) {
		fprintf(stderr,
			"perfex: cannot tell this CPU's id; give one with --cpuid=ID (e.g. GenuineIntel-6-2E)\n");
		return NULL;
	}
	t = perfctr_event_table(id);
	if (!t)
		fprintf(stderr,
			"perfex: no event table for CPU id '%s'; raw events (rNNNN) still need one: check the id, or see Documentation/perfctr/events.rst to add a CPU\n",
			id);
	return t;
}

/* --- what to count --- */

/* perfctr_info() failed: say what to run to make perfctr usable. */
static int no_perfctr(void)
{
	struct stat st;

	if (errno == ENOENT && stat(PERFCTR_ROOT, &st))
		fprintf(stderr,
			"perfex: the perfctr module is not loaded: run 'modprobe perfctr' (or insmod perfctr.ko), then 'mount -t perfctr none %s'\n",
			PERFCTR_ROOT);
	else if (errno == ENOENT)
		fprintf(stderr,
			"perfex: the perfctr file system is not mounted: run 'mount -t perfctr none %s'\n",
			PERFCTR_ROOT);
	else if (errno == ENODATA)
		fprintf(stderr,
			"perfex: %s/info is not perfctr's: unmount what is on %s, then run 'mount -t perfctr none %s'\n",
			PERFCTR_ROOT, PERFCTR_ROOT, PERFCTR_ROOT);
	else
		fprintf(stderr, "perfex: cannot read %s/info: %s\n",
			PERFCTR_ROOT, strerror(errno));
	return EX_FAIL;
}

static int tsc_only_cpu(const struct perfctr_info *info)
{
	return (info->fallback[0] && strcmp(info->fallback, "none")) ||
	       !info->nrctrs;
}

static void tsc_only_note(const struct plan *p)
{
	const char *why = p->info.fallback[0] &&
			  strcmp(p->info.fallback, "none") ?
			  p->info.fallback : "the driver has no counters for it";

	fprintf(stderr, "perfex: note: this CPU counts only the TSC (%s)%s\n",
		why, p->set.nr ? "; the events are shown as <not supported>" : "");
}

/* perf stat's default events, each where this CPU has it and it fits. */
static const char *const default_events[] = {
	"cycles", "instructions", "branches", "branch-misses",
};

static void default_plan(const struct perfctr_event_table *t,
			 unsigned int modes, struct plan *p)
{
	char list[128] = "", more[128];
	unsigned int i;

	for (i = 0; i < sizeof(default_events) / sizeof(*default_events); i++) {
		snprintf(more, sizeof(more), "%s%s%s", list, list[0] ? "," : "",
			 default_events[i]);
		if (!perfctr_event_encode(t, more, modes, &p->ctl, &p->set))
			memcpy(list, more, sizeof(list));
	}
	/* A refused try leaves @set saying why: encode the list again. */
	if (!list[0] || perfctr_event_encode(t, list, modes, &p->ctl, &p->set)) {
		memset(&p->set, 0, sizeof(p->set));
		p->ctl.cpu_control.nractrs = 0;
	}
}

/*
 * The events of -e, which must all be known; 0 or perfex's exit code.
 * Software events are rows of perfex's own; the rest libperfctr's.
 */
static int given_plan(const struct opts *o, const char *events,
		      struct plan *p)
{
	const struct perfctr_event_table *t;
	char pmu[sizeof(o->events)];
	int err = sw_split(p, events, pmu, sizeof(pmu));

	if (err || !pmu[0])
		return err;
	t = pick_table(o->cpuid);
	if (!t)
		return EX_FAIL;
	if (perfctr_event_encode(t, pmu, default_modes(), &p->ctl, &p->set)) {
		err = errno;
		one_line(stderr, "perfex: ", p->set.error);
		if (err == ENOSPC && p->nmetrics)
			metrics_no_fit(o, p);
		return EX_USAGE;
	}
	return 0;
}

/* Rows for the events that -e did not place (the defaults, 2.6's). */
static void set_rows(struct plan *p)
{
	unsigned int i;

	for (i = 0; i < p->set.nr && p->nrows < MAX_ROWS; i++) {
		p->rows[p->nrows].sw = -1;
		p->rows[p->nrows++].idx = i;
	}
}

int make_plan(const struct opts *o, struct plan *p)
{
	const struct perfctr_event_table *t;
	char events[sizeof(o->events)];
	unsigned int mult;
	int err;

	memset(p, 0, sizeof(*p));
	if (perfctr_info(&p->info))
		return no_perfctr();
	if ((p->info.abi_version >> 8) != (PERFCTR_ABI_VERSION >> 8)) {
		fprintf(stderr,
			"perfex: the perfctr module's ABI is %#x, perfex was built for %#x: use the perfex of the module's own release\n",
			p->info.abi_version, PERFCTR_ABI_VERSION);
		return EX_FAIL;
	}
	mult = p->info.tsc_to_cpu_mult > 1 ? p->info.tsc_to_cpu_mult : 1;
	p->tsc_khz = p->info.cpu_khz / mult;
	p->counted = !tsc_only_cpu(&p->info);
	p->ibs = o->ibs;
	if (ibs_engines(&p->ibs))
		p->ibs.ring_pages = IBS_RING_PAGES;
	/* IBS alone counts the TSC only, and prints no counts. */
	p->print_counts = o->events[0] || o->metrics[0] || o->n26 ||
			  !ibs_engines(&p->ibs);
	err = ibs_plan_check(&p->ibs, p->info.ibs_caps);
	if (err)
		return err;
	/* -M: its events after -e's; they replace the defaults, as in perf. */
	snprintf(events, sizeof(events), "%s", o->events);
	if (o->metrics[0]) {
		err = metrics_plan(o, p, events, sizeof(events));
		if (err)
			return err;
	}
	if (o->n26) {
		err = p26_plan(o, &p->ctl, &p->set);
		if (err)
			return err;
		p->raw26 = 1;
	} else if (events[0]) {
		err = given_plan(o, events, p);
		if (err)
			return err;
	} else if (p->print_counts && !o->pid_list && !o->thread_list) {
		sw_default_rows(p, o->all_cpus || o->cpu_list);
	}
	if (p->nrows && (o->pid_list || o->thread_list) && !sw_none(p)) {
		fprintf(stderr,
			"perfex: software events count a command's own tree or the CPUs; with -p and -t give counters' events only\n");
		return EX_USAGE;
	}
	if (!o->n26 && !events[0] && p->counted && p->print_counts) {
		t = perfctr_event_table(p->info.cpuid);
		if (t)
			default_plan(t, default_modes(), p);
		else
			fprintf(stderr,
				"perfex: note: no event table for CPU id '%s': counting the TSC only\n",
				p->info.cpuid);
	}
	if (o->n26 || !events[0])
		set_rows(p);
	if (!p->counted) {
		if (p->print_counts)
			tsc_only_note(p);
		memset(&p->ctl, 0, sizeof(p->ctl));
	}
	p->ctl.cpu_control.tsc_on = 1;
	p->ctl.flags = VPERFCTR_CONTROL_INHERIT;
	return 0;
}

/* --- the child --- */

/* How far the child got: what its report names. */
enum stage {
	ST_OPEN = 1, ST_CONTROL, ST_NOINHERIT, ST_IBS, ST_IBS_RING, ST_SEND,
	ST_EXEC
};

struct report {
	int stage, err;
};

/* The dispositions perfex found, which the command gets back. */
struct saved_signals {
	struct sigaction intr, quit;
};

/* Never returns. */
static void child_fail(int rep, int stage, int err)
{
	struct report r = { stage, err };

	/* If the report is lost, perfex still sees the child fail. */
	if (write(rep, &r, sizeof(r)) != sizeof(r))
		_exit(EX_FAIL);
	_exit(stage == ST_EXEC ?
	      (err == ENOENT ? EX_NOTFOUND : EX_NOEXEC) : EX_FAIL);
}

/*
 * A module older than inheritance refuses the flag with EINVAL, as it
 * does a control it cannot program: the same control without the flag
 * tells them apart.
 */
static int child_control(struct vperfctr *vp, const struct vperfctr_control *ctl)
{
	struct vperfctr_control plain = *ctl;

	if (!vperfctr_control(vp, ctl))
		return 0;
	if (errno != EINVAL)
		return ST_CONTROL;
	plain.flags &= ~VPERFCTR_CONTROL_INHERIT;
	if (vperfctr_control(vp, &plain)) {
		errno = EINVAL;
		return ST_CONTROL;
	}
	errno = EINVAL;
	return ST_NOINHERIT;
}

/* IBS after the counters: its samples begin as close to the exec. */
static struct vperfctr_ibs_ring *child_ibs(struct vperfctr *vp,
					   const struct plan *p, int rep)
{
	struct vperfctr_ibs_ring *r;

	if (!ibs_engines(&p->ibs))
		return NULL;
	if (vperfctr_ibs_control(vp, &p->ibs))
		child_fail(rep, ST_IBS, errno);
	r = vperfctr_ibs_ring_open(vp);
	if (!r)
		child_fail(rep, ST_IBS_RING, errno);
	return r;
}

/* Never returns: execs the command, or _exit()s. */
static void child(const struct plan *p, char **cmd, int sock, int rep,
		  const struct saved_signals *sigs)
{
	struct vperfctr *vp = vperfctr_open();
	struct vperfctr_ibs_ring *ring;
	int stage;
	char go;

	if (!vp)
		child_fail(rep, ST_OPEN, errno);
	stage = child_control(vp, &p->ctl);
	if (stage)
		child_fail(rep, stage, errno);
	ring = child_ibs(vp, p, rep);
	if (vperfctr_send(vp, sock) ||
	    (ring && vperfctr_ibs_ring_send(ring, sock)))
		child_fail(rep, ST_SEND, errno);
	vperfctr_ibs_ring_close(ring);
	vperfctr_close(vp);
	/* perfex starts the clock, then says go; EOF: perfex went away. */
	if (read(sock, &go, 1) != 1)
		_exit(EX_FAIL);
	close(sock);
	sigaction(SIGINT, &sigs->intr, NULL);
	sigaction(SIGQUIT, &sigs->quit, NULL);
	execvp(cmd[0], cmd);
	child_fail(rep, ST_EXEC, errno);
}

/* --- what went wrong, and what to do --- */

int exec_failed(const char *cmd, int err)
{
	if (err == ENOENT) {
		fprintf(stderr,
			"perfex: %s: command not found: check its name, or give its path\n",
			cmd);
		return EX_NOTFOUND;
	}
	if (err == EACCES)
		fprintf(stderr,
			"perfex: %s: permission denied: make it executable (chmod +x), or check the path\n",
			cmd);
	else if (err == ENOEXEC)
		fprintf(stderr,
			"perfex: %s: not an executable format: give it a #! line, or run its interpreter (e.g. perfex sh %s)\n",
			cmd, cmd);
	else
		fprintf(stderr, "perfex: %s: cannot execute: %s\n", cmd,
			strerror(err));
	return EX_NOEXEC;
}

/*
 * Below level 3 perfex already picks user mode alone for those the
 * policy holds to it: only an explicit :k is refused.
 */
static const char *const user_mode_only =
	"without CAP_PERFMON, counters count user mode only: drop :k from\n"
	"the events (or add :u), or ask the administrator for CAP_PERFMON,\n"
	"or to lower /sys/module/perfctr/parameters/paranoid";

static void control_refused(int err)
{
	const char *why = perfctr_explain(err);
	struct perfctr_info info;
	int have = !perfctr_info(&info);
	char head[256];

	if (!have)
		memset(&info, 0, sizeof(info));
	if (err == EBUSY && have && strcmp(info.reserved_by, "none")) {
		snprintf(head, sizeof(head),
			 "perfex: the counters are held by %s: ",
			 info.reserved_by);
	} else if (err == EBUSY) {
		snprintf(head, sizeof(head), "perfex: the counters are busy: ");
	} else if ((err == EACCES || err == EPERM) && have) {
		/* At 3 and above perfctr_explain() names the level. */
		if (info.paranoid >= 3)
			snprintf(head, sizeof(head),
				 "perfex: uid %d may not have these counters: ",
				 (int)geteuid());
		else
			snprintf(head, sizeof(head),
				 "perfex: uid %d may not have these counters: perfctr.paranoid is %d: ",
				 (int)geteuid(), info.paranoid);
		if (info.paranoid < 3)
			why = user_mode_only;
	} else if (err == EINVAL && info.cpus_forbidden[0]) {
		snprintf(head, sizeof(head),
			 "perfex: CPUs %s cannot have counters (a hyper-threaded P4's second threads): run perfex with an affinity without them (e.g. taskset -c 0); or else ",
			 info.cpus_forbidden);
	} else {
		snprintf(head, sizeof(head),
			 "perfex: the module refused the control: %s%s",
			 strerror(err), why ? ": " : "");
	}
	one_line(stderr, head, why ? why : "");
}

static int child_failed(const struct plan *p, const char *cmd,
			const struct report *r)
{
	switch (r->stage) {
	case ST_EXEC:
		return exec_failed(cmd, r->err);
	case ST_CONTROL:
		control_refused(r->err);
		if (p->raw26 && r->err == EINVAL)
			fprintf(stderr,
				"perfex: note: perfctr 2.6 events go to the registers as given: check each EVNTSEL (its enable and mode bits too), /ESCR and @PMC against Documentation/perfctr/x86.rst; --print-control shows the control\n");
		break;
	case ST_IBS:
	case ST_IBS_RING:
		ibs_refused(&p->ibs, r->err, r->stage == ST_IBS_RING);
		break;
	case ST_NOINHERIT:
	case ST_SEND:
		if (r->stage == ST_NOINHERIT || r->err == EOPNOTSUPP) {
			fprintf(stderr,
				"perfex: this perfctr module cannot count a command's threads and children (no VPERFCTR_CONTROL_INHERIT): load a newer perfctr module\n");
			break;
		}
		fprintf(stderr, "perfex: cannot pass the counters to perfex: %s\n",
			strerror(r->err));
		break;
	default:
		fprintf(stderr,
			"perfex: cannot open %s/self: %s; is perfctr mounted? (mount -t perfctr none %s)\n",
			PERFCTR_ROOT, strerror(r->err), PERFCTR_ROOT);
	}
	return EX_FAIL;
}

/* The child's report: 0 if it exec'd (EOF), else its size. */
static ssize_t read_report(int fd, struct report *r)
{
	ssize_t n;

	do
		n = read(fd, r, sizeof(*r));
	while (n < 0 && errno == EINTR);
	return n;
}

/* The command's status, and its tree's rusage where @ru is given. */
static int reap(pid_t pid, int *status, struct rusage *ru)
{
	while (wait4(pid, status, 0, ru) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

/* --- the counts --- */

/* An exited thread's set is final once its status says so. */
static void wait_exited(struct vperfctr *vp)
{
	char st[64];
	int i;

	for (i = 0; i < 100; i++) {
		if (vperfctr_read_status(vp, st, sizeof(st)) ||
		    !strcmp(st, "exited") || !strcmp(st, "none"))
			return;
		usleep(10000);
	}
}

/* Members still exiting add their counts a moment after the command. */
static int read_children(struct vperfctr *vp, struct vperfctr_children *ch)
{
	int i;

	for (i = 0; i < 20; i++) {
		if (vperfctr_read_children(vp, ch))
			return -1;
		if (!ch->live)
			break;
		usleep(10000);
	}
	if (ch->live)
		fprintf(stderr,
			"perfex: note: %u threads or processes of the command were still running when it ended: their counts are not in the totals\n",
			ch->live);
	if (ch->lost)
		fprintf(stderr,
			"perfex: note: %u threads or processes of the command were not counted (no memory, perfctr.paranoid, or the counters held elsewhere when they were made)\n",
			ch->lost);
	return 0;
}

/* ABI 1.2's children count the tree's CPU migrations. */
static int has_migrations(const struct plan *p)
{
	return (p->info.abi_version & 0xFF) >= 2;
}

static void dropped_at_exec(const char *cmd, int ibs)
{
	fprintf(stderr,
		"perfex: %s ran without counters%s: perfctr removed them at exec, as it does for setuid, setgid and file-capability programs, or withheld its final counts as it changed its ids or made itself undumpable (virtual.rst, execve() and Final counts); count a copy without those bits, or run perfex as the user it runs as\n",
		cmd, ibs ? " or IBS" : "");
}

static int collect(struct vperfctr *vp, const struct plan *p, char **cmd,
		   struct counts *c)
{
	struct vperfctr_control ctl;
	struct vperfctr_children ch;
	struct perfctr_sum_ctrs s;
	unsigned int i, k;

	wait_exited(vp);
	if (vperfctr_read_control(vp, &ctl)) {
		if (errno != ESRCH && errno != EACCES)
			goto fail;
		ctl.cpu_control.tsc_on = 0;	/* its ids changed at exec */
	}
	if (!ctl.cpu_control.tsc_on) {
		dropped_at_exec(cmd[0], ibs_engines(&p->ibs));
		c->dropped = 1;
		return 0;
	}
	if (vperfctr_read_sums(vp, &s) || read_children(vp, &ch))
		goto fail;
	if (has_migrations(p))
		c->sw[SW_CPU_MIGRATIONS] = ch.migrations;
	c->tsc = s.tsc + ch.sums.tsc;
	for (i = 0; i < p->set.nr && p->counted; i++) {
		k = p->set.ev[i].counter;
		c->ev[i] = s.pmc[k] + ch.sums.pmc[k];
	}
	return 0;

fail:
	one_line(stderr, "perfex: cannot read the command's counts: ",
		 perfctr_explain(errno) ? perfctr_explain(errno) :
		 strerror(errno));
	return EX_FAIL;
}

/* --- one run --- */

static double since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) + (t.tv_nsec - t0->tv_nsec) / 1e9;
}

/*
 * The child's handle, and its IBS ring where the plan samples: 0, or
 * perfex's exit status after saying why the child sent none.
 */
static int receive(const struct plan *p, char **cmd, pid_t pid, int sock,
		   int rep, struct vperfctr **vp, struct vperfctr_ibs_ring **ring)
{
	const char *what = "it sent another thread's counters";
	struct report r;
	int ring_err;

	*ring = NULL;
	*vp = vperfctr_receive(sock);
	if (*vp && vperfctr_tid(*vp) == pid) {
		if (!ibs_engines(&p->ibs))
			return 0;
		*ring = vperfctr_ibs_ring_receive(sock);
		if (*ring)
			return 0;
	}
	if (!*vp || vperfctr_tid(*vp) == pid)
		what = strerror(errno);
	ring_err = *vp && vperfctr_tid(*vp) == pid ? errno : 0;
	vperfctr_close(*vp);
	/* A child that sent all waits for go: this releases it to exit. */
	shutdown(sock, SHUT_RDWR);
	if (read_report(rep, &r) == sizeof(r))
		return child_failed(p, cmd[0], &r);
	if (ring_err)
		fprintf(stderr, "perfex: cannot map the command's IBS sample ring: %s\n",
			what);
	else
		fprintf(stderr, "perfex: the counting child failed: %s\n", what);
	return EX_FAIL;
}

/*
 * -I: the command's counts so far, its live members' included (tree, as
 * of each one's last sample). 0, or -1 if the set cannot be read now.
 */
static int read_live(struct vperfctr *vp, const struct plan *p, pid_t pid,
		     struct counts *c)
{
	struct vperfctr_children ch;
	struct perfctr_sum_ctrs s;
	unsigned int i, k;

	if (vperfctr_read_sums(vp, &s) || vperfctr_read_tree(vp, &ch))
		return -1;
	c->tsc = s.tsc + ch.sums.tsc;
	for (i = 0; i < p->set.nr && p->counted; i++) {
		k = p->set.ev[i].counter;
		c->ev[i] = s.pmc[k] + ch.sums.pmc[k];
	}
	sw_from_proc(pid, c->sw);
	c->sw[SW_CPU_MIGRATIONS] = ch.migrations;
	return 0;
}

/*
 * -I: waits for the command, printing its counts every interval. The
 * last, shorter interval is the caller's, from the final counts.
 */
static int follow(const struct plan *p, struct vperfctr *vp, pid_t pid,
		  int *status, struct rusage *ru, const struct timespec *t0)
{
	double next = p->ival->o->interval_ms / 1e3, left;
	struct timespec nap;
	struct counts now;
	int failed = 0;
	pid_t w;

	for (;;) {
		w = wait4(pid, status, WNOHANG, ru);
		if (w == pid)
			return 0;
		if (w < 0 && errno != EINTR)
			return -1;
		left = next - since(t0);
		if (left <= 0) {
			memset(&now, 0, sizeof(now));
			if (!read_live(vp, p, pid, &now)) {
				now.elapsed = since(t0);
				print_interval(p->ival, &now);
			} else if (!failed++) {
				fprintf(stderr,
					"perfex: note: cannot read the command's counts as it runs (%s): its intervals are left out until they can be; the last one has them all\n",
					strerror(errno));
			}
			next = interval_next(next, since(t0),
					     p->ival->o->interval_ms);
			continue;
		}
		/* Its end is seen within 10 ms: a short command stays short. */
		left = left < 0.01 ? left : 0.01;
		nap.tv_sec = 0;
		nap.tv_nsec = left * 1e9;
		nanosleep(&nap, NULL);
	}
}

/* The command's end; with IBS, its samples meanwhile; with -I, counts. */
static int wait_command(const struct plan *p, struct vperfctr *vp,
			struct vperfctr_ibs_ring *ring, pid_t pid,
			int *status, struct rusage *ru, struct ibs_sink *sink,
			const struct timespec *t0)
{
	if (ring)
		return ibs_follow(ring, pid, status, ru, sink);
	if (p->threads)
		return threads_follow(pid, status, ru, p->threads);
	if (p->ival)
		return follow(p, vp, pid, status, ru, t0);
	return reap(pid, status, ru);
}

/* The parent's side, from the handle received to the counts read. */
static int parent(const struct plan *p, char **cmd, pid_t pid, int sock,
		  int rep, struct counts *c, int *status,
		  struct ibs_sink *sink)
{
	struct vperfctr_ibs_ring *ring;
	struct vperfctr *vp;
	struct rusage ru;
	struct timespec t0;
	struct report r;
	int ret;

	ret = receive(p, cmd, pid, sock, rep, &vp, &ring);
	if (ret)
		return ret;
	/* Before the command's own output, where they share a file. */
	if (ring)
		ibs_header(sink);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* A child gone already must not take perfex with it (SIGPIPE). */
	if (p->threads && threads_seize(pid)) {
		ret = EX_FAIL;
	} else if (send(sock, "g", 1, MSG_NOSIGNAL) != 1) {
		fprintf(stderr, "perfex: cannot start the command: %s\n",
			strerror(errno));
		ret = EX_FAIL;
	} else if (read_report(rep, &r) == sizeof(r)) {
		ret = child_failed(p, cmd[0], &r);
	} else if (wait_command(p, vp, ring, pid, status, &ru, sink, &t0)) {
		ret = EX_FAIL;
	} else {
		c->elapsed = since(&t0);
		sw_from_rusage(&ru, c->sw);
		ret = collect(vp, p, cmd, c);
	}
	vperfctr_ibs_ring_close(ring);
	vperfctr_close(vp);
	return ret;
}

/*
 * Runs @cmd once under @p's control: 0 with @c and the command's wait
 * @status, or perfex's exit status after it said what went wrong.
 */
int run_command(const struct plan *p, char **cmd, struct counts *c,
		int *status, struct ibs_sink *sink)
{
	struct sigaction ign = { .sa_handler = SIG_IGN };
	struct saved_signals sigs;
	int sv[2], rep[2], ret, err;
	struct rusage ru;
	pid_t pid;

	memset(c, 0, sizeof(*c));
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv))
		goto sys_fail;
	if (pipe2(rep, O_CLOEXEC)) {
		close(sv[0]);
		close(sv[1]);
		goto sys_fail;
	}
	/* As a shell does: ^C and ^\ are for the command; perfex reports. */
	sigaction(SIGINT, &ign, &sigs.intr);
	sigaction(SIGQUIT, &ign, &sigs.quit);
	fflush(NULL);
	pid = fork();
	if (!pid) {
		close(sv[0]);
		close(rep[0]);
		child(p, cmd, sv[1], rep[1], &sigs);
	}
	close(sv[1]);
	close(rep[1]);
	err = errno;
	ret = pid < 0 ? -1 :
	      parent(p, cmd, pid, sv[0], rep[0], c, status, sink);
	close(sv[0]);
	close(rep[0]);
	/*
	 * Closing the socket released a child that waits for go; a traced
	 * one is let go on through its stops to its end.
	 */
	if (pid > 0 && ret && p->threads)
		threads_follow(pid, status, &ru, p->threads);
	else if (pid > 0 && ret)
		reap(pid, status, NULL);
	sigaction(SIGINT, &sigs.intr, NULL);
	sigaction(SIGQUIT, &sigs.quit, NULL);
	if (ret >= 0)
		return ret;
	errno = err;
sys_fail:
	fprintf(stderr, "perfex: cannot start the command: %s\n",
		strerror(errno));
	return EX_FAIL;
}
