// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: the files it works on, and bringing everything back to
 * rest after an accepted request.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <perfctr/perfmon.h>

#include "fuzz.h"

const char *const vfile_name[VF_NR] = {
	"control", "sums", "state", "command", "status", "children", "ibs",
	"ibs_ring", "tree",
};

int vfd[VF_NR];
int global_fd = -1;
int perfmon_fd = -1;
pid_t other_tid;

int fuzz_open_file(pid_t tid, const char *name, int flags)
{
	char path[64];

	if (tid)
		snprintf(path, sizeof(path), "/proc/perfctr/%d/%s", tid, name);
	else
		snprintf(path, sizeof(path), "/proc/perfctr/%s", name);
	return open(path, flags | O_CLOEXEC);
}

/* Read-write where the file allows it (root opens 0400 files so). */
static int open_any(pid_t tid, const char *name)
{
	int fd = fuzz_open_file(tid, name, O_RDWR);

	if (fd < 0)
		fd = fuzz_open_file(tid, name, O_RDONLY);
	if (fd < 0)
		fd = fuzz_open_file(tid, name, O_WRONLY);
	return fd;
}

void fuzz_open_files(void)
{
	pid_t self = gettid();
	int i;

	for (i = 0; i < VF_NR; i++)
		vfd[i] = open_any(self, vfile_name[i]);
	global_fd = open_any(0, "global");
	perfmon_fd = open("/dev/perfmon", O_RDWR | O_CLOEXEC);
	if (vfd[VF_CONTROL] < 0 || vfd[VF_COMMAND] < 0) {
		perror("perfctr_fuzz: /proc/perfctr/self");
		_exit(2);
	}
}

static void stop_perfmon(void)
{
	int n;

	if (perfmon_fd < 0)
		return;
	for (n = 0; n < NPMC; n++)
		ioctl(perfmon_fd, PMIOSTOP, &n);
}

static void stop_global(void)
{
	struct perfctr_cpu_control zero;

	memset(&zero, 0, sizeof(zero));
	if (global_fd >= 0)
		pwrite(global_fd, &zero, sizeof(zero), 0);
}

int set_running;

static int status_running(void)
{
	char st[16];
	ssize_t n = -1;

	if (vfd[VF_STATUS] >= 0)
		n = pread(vfd[VF_STATUS], st, sizeof(st), 0);
	return n >= 7 && !strncmp(st, "running", 7);
}

/*
 * A set /dev/perfmon made refuses the command file (EBUSY), and its TSC
 * runs while the file has it, every counter stopped or not.
 */
static void suspend_self(void)
{
	__u32 cmd = VPERFCTR_CMD_SUSPEND;

	if (status_running())
		pwrite(vfd[VF_COMMAND], &cmd, sizeof(cmd), 0);
	set_running = status_running();
}

/*
 * /dev/perfmon's stop writes the thread's control, so it goes first; the
 * suspend last, once nothing else will change the set.
 */
void fuzz_settle(void)
{
	stop_perfmon();
	stop_global();
	suspend_self();
	state_remap();
}
