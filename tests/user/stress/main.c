// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_stress [-t SECONDS] [-w THREADS]: every role at once for
 * SECONDS (default 60), then the figures and "RESULT PASS|FAIL
 * stress-<model>" (testing.rst, "The stress run").
 */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "stress.h"

struct stats *stats;
unsigned long long t_start, t_end;
const char *self_exe = "/proc/self/exe";
int tracer_controls = 1;
int tracee_ops = 7;

static const char *const op_name[OP_NR] = {
	[OP_SWITCH] = "yields",
	[OP_AFFINITY] = "affinity-changes",
	[OP_CONTROL] = "controls",
	[OP_CTL_BUSY] = "controls-busy",
	[OP_SUSPEND] = "suspends",
	[OP_RESUME] = "resumes",
	[OP_CLEAR] = "clears",
	[OP_UNLINK] = "unlinks",
	[OP_SET_MADE] = "sets-made",
	[OP_READ] = "sums-reads",
	[OP_FASTREAD] = "state-page-reads",
	[OP_FORK] = "inheriting-forks",
	[OP_EXEC] = "execs",
	[OP_EXIT] = "exits-with-set",
	[OP_TRACE_STOP] = "tracee-stops",
	[OP_TRACE_READ] = "tracer-reads",
	[OP_TRACE_CTL] = "tracer-controls",
	[OP_TRACE_BUSY] = "tracer-controls-busy",
	[OP_GLOBAL] = "global-controls",
	[OP_GLOBAL_BUSY] = "global-controls-busy",
	[OP_GLOBAL_READ] = "global-reads",
	[OP_PERFMON] = "perfmon-cycles",
	[OP_PERFMON_BUSY] = "perfmon-starts-busy",
	[OP_RDPMC] = "rdpmc-faults",
	[OP_OFFLINE] = "cpu1-offline-online",
	[OP_ERRORS] = "errors",
	[OP_BAD] = "invariants-broken",
};

unsigned int rnd(unsigned int *seed, unsigned int n)
{
	return n ? (unsigned int)rand_r(seed) % n : 0;
}

unsigned long long phase_no(void)
{
	return (rdtsc() - t_start) / ms_ticks(PHASE_MS);
}

int phase(void)
{
	return phase_no() & 1;
}

unsigned long long phase_left_ms(void)
{
	return PHASE_MS - (rdtsc() - t_start) / khz % PHASE_MS;
}

/* Counters for new sets: early in an even phase, well before global's. */
int phase_for_counters(void)
{
	return !phase() && phase_left_ms() > 300;
}

static int nthreads = 4;

static void role_heavy(void)
{
	role_threads(nthreads, 0);
}

static void role_mixed(void)
{
	role_threads(nthreads, 1);
}

typedef void (*role_fn)(void);

static const struct {
	const char *name;
	role_fn fn;
} roles[] = {
	{ "heavy", role_heavy }, { "mixed", role_mixed },
	{ "rdpmc", role_rdpmc }, { "inherit", role_inherit },
	{ "tracer", role_tracer }, { "global", role_global },
	{ "perfmon", role_perfmon }, { "hotplug", role_hotplug },
	{ "relink", role_relink },
};

static const char *only;	/* -r: the roles to run, comma-separated */

static int chosen(const char *name)
{
	size_t n = strlen(name);
	const char *p = only;

	if (!only)
		return 1;
	for (; (p = strstr(p, name)); p += n)
		if ((p == only || p[-1] == ',') && (!p[n] || p[n] == ','))
			return 1;
	return 0;
}

static int run_roles(void)
{
	pid_t pid[ARRAY_SIZE(roles)];
	unsigned int i;
	int st, ok = 1;

	for (i = 0; i < ARRAY_SIZE(roles); i++) {
		pid[i] = chosen(roles[i].name) ? fork() : -2;
		if (!pid[i]) {
			roles[i].fn();
			_exit(0);
		}
		if (pid[i] == -2)
			continue;
		if (pid[i] < 0) {
			unexpected("fork");
			return 0;
		}
	}
	for (i = 0; i < ARRAY_SIZE(roles); i++)
		if (pid[i] != -2 &&
		    (waitpid(pid[i], &st, 0) != pid[i] || !WIFEXITED(st) ||
		     WEXITSTATUS(st))) {
			fprintf(stderr, "stress: role %s ended with 0x%x\n",
				roles[i].name, st);
			ok = 0;
		}
	return ok;
}

/* The sets of exited threads are freed a moment later: wait for none. */
static char *holder_after(void)
{
	char *who = NULL;
	int i;

	for (i = 0; i < 50; i++) {
		who = info_field("reserved_by");	/* a static buffer */
		if (!who || !strcmp(who, "none"))
			break;
		usleep(100000);
	}
	return who;
}

static void print_figures(void)
{
	unsigned int i;

	for (i = 0; i < OP_NR; i++)
		printf("STRESS %-22s %llu\n", op_name[i], stats->n[i]);
	printf("STRESS %-22s %llu\n", "cpu-time-excess-max-ms",
	       stats->cpu_excess / khz);
}

/* Each kind the run is for must have happened. */
static int exercised(unsigned int secs)
{
	static const enum op need[] = {
		OP_CONTROL, OP_SUSPEND, OP_RESUME, OP_CLEAR, OP_UNLINK,
		OP_AFFINITY, OP_FORK, OP_EXEC, OP_TRACE_READ, OP_TRACE_CTL,
		OP_RDPMC, OP_PERFMON, OP_FASTREAD,
	};
	unsigned int i;
	int ok = 1;

	for (i = 0; i < ARRAY_SIZE(need); i++)
		if (!stats->n[need[i]]) {
			printf("stress: no %s\n", op_name[need[i]]);
			ok = 0;
		}
	/* Global mode gets a turn every other phase (4 s). */
	if (secs >= 10 && !stats->n[OP_GLOBAL]) {
		printf("stress: global mode never had the counters\n");
		ok = 0;
	}
	if (secs >= 10 && ncpus > 1 && !stats->n[OP_OFFLINE] &&
	    !access("/sys/devices/system/cpu/cpu1/online", W_OK)) {
		printf("stress: CPU 1 never went offline\n");
		ok = 0;
	}
	return ok;
}

int main(int argc, char **argv)
{
	unsigned int secs = 60;
	char *holder;
	int opt, ok;

	if (argc > 1 && !strcmp(argv[1], "--exec-child"))
		return exec_child(argc, argv);
	while ((opt = getopt(argc, argv, "t:w:r:CT:")) != -1) {
		if (opt == 't')
			secs = strtoul(optarg, NULL, 0);
		else if (opt == 'w')
			nthreads = strtoul(optarg, NULL, 0);
		else if (opt == 'r')
			only = optarg;
		else if (opt == 'C')
			tracer_controls = 0;
		else if (opt == 'T')
			tracee_ops = strtoul(optarg, NULL, 0);
		else
			return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (check_init())
		return 1;
	stats = mmap(NULL, sizeof(*stats), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (stats == MAP_FAILED)
		return 1;
	printf("stress: %u s, model %s, %ld CPUs, %d threads a process\n",
	       secs, model_name ? model_name : "tsc", ncpus, nthreads);
	t_start = rdtsc();
	t_end = t_start + ms_ticks(secs * 1000);
	ok = run_roles();
	print_figures();
	holder = holder_after();
	printf("STRESS reserved_by-after %s\n", holder ? holder : "?");
	ok = ok && (only || exercised(secs)) && !stats->n[OP_ERRORS] &&
	     !stats->n[OP_BAD] && holder && !strcmp(holder, "none");
	printf("RESULT %s stress-%s\n", ok ? "PASS" : "FAIL",
	       model_name ? model_name : "tsc");
	return ok ? 0 : 1;
}
