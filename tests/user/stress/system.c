// SPDX-License-Identifier: GPL-2.0-only
/*
 * The system-wide parts: global mode, which takes the counters in the
 * odd phases; /dev/perfmon, whose sets are per-thread ones; and CPU 1
 * going offline and back.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <perfctr/perfmon.h>

#include "stress.h"

/* Global mode for the rest of an odd phase: CPU 0's sums only grow. */
static void global_hold(int fd, unsigned long long t0)
{
	struct perfctr_sum_ctrs s[MAX_CPUS], last;

	memset(&last, 0, sizeof(last));
	while (running() && phase() && phase_left_ms() > 300) {
		usleep(50000);
		if (pread(fd, s, sizeof(s), 0) < (ssize_t)sizeof(s[0])) {
			unexpected("global read");
			return;
		}
		count(OP_GLOBAL_READ);
		if (s[0].tsc < last.tsc || s[0].pmc[0] < last.pmc[0])
			bad("global: CPU 0's sums went back\n");
		if (s[0].tsc > rdtsc() - t0)
			bad("global: CPU 0's tsc %llu beyond the time\n",
			    s[0].tsc);
		last = s[0];
	}
}

void role_global(void)
{
	struct perfctr_cpu_control c;
	unsigned long long t0;
	int fd;

	while (running()) {
		usleep(50000);
		if (!phase() || phase_left_ms() > PHASE_MS - 300 ||
		    phase_left_ms() < 600)
			continue;
		fd = open(GLOBAL_PATH, O_RDWR);
		if (fd < 0) {
			unexpected("open global");
			continue;
		}
		memset(&c, 0, sizeof(c));
		c.tsc_on = 1;
		if (model)
			model->amode(&c);
		t0 = rdtsc();
		if (write(fd, &c, sizeof(c)) == sizeof(c)) {
			count(OP_GLOBAL);
			global_hold(fd, t0);
			memset(&c, 0, sizeof(c));
			if (write(fd, &c, sizeof(c)) != sizeof(c))
				unexpected("global stop");
		} else if (errno == EBUSY) {
			count(OP_GLOBAL_BUSY);
		} else {
			unexpected("global control");
		}
		close(fd);
	}
}

/* One counter of the calling thread: set up, started, read, stopped. */
static void perfmon_cycle(int fd, unsigned int *seed)
{
	struct pmc pmc = { .pmc_num = 0 };
	struct pmc_data pd = { .pmcd_num = 0 };
	unsigned long long t0, last = 0;
	int i, n = 0;

	/* Any event: the simulated PMU counts user-mode cycles. */
	pmc.pmc_event = 0xc0;
	pmc.pmc_flags = PMCF_USR;
	if (ioctl(fd, PMIOSETUP, &pmc)) {
		unexpected("PMIOSETUP");
		return;
	}
	t0 = rdtsc();
	if (ioctl(fd, PMIOSTART, &n)) {
		if (errno == EBUSY)
			count(OP_PERFMON_BUSY);	/* global mode holds it */
		else
			unexpected("PMIOSTART");
		return;
	}
	for (i = 0; i < 8; i++) {
		spin(rnd(seed, ms_ticks(1)));
		if (ioctl(fd, PMIOREAD, &pd)) {
			unexpected("PMIOREAD");
			break;
		}
		if ((unsigned long long)pd.pmcd_value < last ||
		    (unsigned long long)pd.pmcd_value > rdtsc() - t0)
			bad("perfmon: count %lld after %llu (%llu ticks)\n",
			    (long long)pd.pmcd_value, last, rdtsc() - t0);
		last = pd.pmcd_value;
	}
	if (ioctl(fd, PMIOSTOP, &n))
		unexpected("PMIOSTOP");
	count(OP_PERFMON);
}

void role_perfmon(void)
{
	unsigned int seed = getpid();
	struct pmc_tstamp ts;
	int fd;

	while (running()) {
		fd = open(_PATH_PERFMON, O_RDWR);
		if (fd < 0) {
			unexpected("open perfmon");
			return;
		}
		if (ioctl(fd, PMIOTSTAMP, &ts))
			unexpected("PMIOTSTAMP");
		if (model)
			perfmon_cycle(fd, &seed);
		else
			count(OP_PERFMON);
		close(fd);
		usleep(rnd(&seed, 20000));
	}
}

static int cpu1_online(const char *v)
{
	int fd = open("/sys/devices/system/cpu/cpu1/online", O_WRONLY);
	int ok;

	if (fd < 0)
		return -1;
	ok = write(fd, v, 1) == 1;
	close(fd);
	return ok ? 0 : -1;
}

void role_hotplug(void)
{
	if (ncpus < 2 || access("/sys/devices/system/cpu/cpu1/online", W_OK))
		return;
	while (running()) {
		sleep(2);
		if (cpu1_online("0")) {
			unexpected("cpu1 offline");
			continue;
		}
		usleep(300000);
		if (cpu1_online("1"))
			unexpected("cpu1 online");
		else
			count(OP_OFFLINE);
	}
}
