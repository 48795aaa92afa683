// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libperfctr: user-space access to perfctr's virtual per-thread counters.
 *
 * Everything but the fast read path is a plain pread()/pwrite() on the
 * files of /proc/perfctr/<tid>/. The fast path reads the sums from the
 * state page the kernel maps for the owning thread and adds what the
 * running counters counted since their period began (RDTSC, RDPMC).
 *
 * A counter is read through pmc-view.h: RDPMC, or in test builds a read
 * of the simulated PMU's page, which no register backs. The build picks
 * the view; this file is the same for both.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "libperfctr.h"
#include "libperfctr-int.h"
#include "pmc-view.h"

#define INFO_PATH	PERFCTR_ROOT "/info"
#define NMI_WATCHDOG_PATH	"/proc/sys/kernel/nmi_watchdog"

struct vperfctr {
	/*
	 * The state page where the fast paths may use it, NULL where they
	 * must read the sums file: one load and test decides, and the fast
	 * paths need nothing else from the handle in production builds.
	 */
	const struct vperfctr_state *fast_ctrs;
	const struct vperfctr_state *fast_tsc;
	struct pmc_view_src view_src;	/* empty where RDPMC is read */
	const struct vperfctr_state *state;	/* NULL: remote */
	size_t state_size;
	int state_fd;
	int control_fd;
	int sums_fd;
	int command_fd;
	int status_fd;
	int children_fd;	/* -1: a module without <tid>/children */
	int tree_fd;		/* -1: a module without <tid>/tree (ABI 1.2) */
	int ibs_fd;		/* <tid>/ibs, opened at first use; -1 */
	char dir[32];		/* the files' directory; "": received */
	pid_t tid;
	int can_tsc;		/* RDTSC usable: fast_tsc may be set */
	int can_ctrs;		/* and RDPMC too: fast_ctrs may be set */
};

/* /proc/perfctr/info */

static void copy_field(char *dst, size_t size, const char *val)
{
	snprintf(dst, size, "%s", val);
}

static unsigned int parse_features(char *val)
{
	unsigned int features = 0;
	char *word, *save = NULL;

	for (word = strtok_r(val, " \t", &save); word;
	     word = strtok_r(NULL, " \t", &save)) {
		if (!strcmp(word, "rdpmc"))
			features |= PERFCTR_FEATURE_RDPMC;
		else if (!strcmp(word, "rdtsc"))
			features |= PERFCTR_FEATURE_RDTSC;
		else if (!strcmp(word, "pcint"))
			features |= PERFCTR_FEATURE_PCINT;
		else if (!strcmp(word, "wide_ireset"))
			features |= PERFCTR_FEATURE_WIDE_IRESET;
	}
	return features;
}

static void parse_info_line(struct perfctr_info *info, const char *key,
			    char *val)
{
	if (!strcmp(key, "version"))
		copy_field(info->version, sizeof(info->version), val);
	else if (!strcmp(key, "abi_version"))
		info->abi_version = strtoul(val, NULL, 16);
	else if (!strcmp(key, "cpu_type"))
		copy_field(info->cpu_type, sizeof(info->cpu_type), val);
	else if (!strcmp(key, "cpu_family_id"))
		info->cpu_family_id = strtoul(val, NULL, 10);
	else if (!strcmp(key, "features"))
		info->features = parse_features(val);
	else if (!strcmp(key, "cpu_khz"))
		info->cpu_khz = strtoul(val, NULL, 10);
	else if (!strcmp(key, "tsc_to_cpu_mult"))
		info->tsc_to_cpu_mult = strtoul(val, NULL, 10);
	else if (!strcmp(key, "nrctrs"))
		info->nrctrs = strtoul(val, NULL, 10);
	else if (!strcmp(key, "cpus_forbidden"))
		copy_field(info->cpus_forbidden, sizeof(info->cpus_forbidden),
			   val);
	else if (!strcmp(key, "fallback"))
		copy_field(info->fallback, sizeof(info->fallback), val);
	else if (!strcmp(key, "paranoid"))
		info->paranoid = strtol(val, NULL, 10);
	else if (!strcmp(key, "reserved_by"))
		copy_field(info->reserved_by, sizeof(info->reserved_by), val);
	else if (!strcmp(key, "cpuid"))
		copy_field(info->cpuid, sizeof(info->cpuid), val);
	else if (!strcmp(key, "ibs_caps"))
		info->ibs_caps = strtoul(val, NULL, 16);
	else if (!strcmp(key, "reclaim_hold"))
		info->reclaim_hold = strtol(val, NULL, 10);
}

int perfctr_info(struct perfctr_info *info)
{
	char *line = NULL, *val;
	size_t size = 0;
	int err;
	FILE *f;

	f = fopen(INFO_PATH, "re");
	if (!f)
		return -1;
	memset(info, 0, sizeof(*info));
	while (getline(&line, &size, f) > 0) {
		val = strchr(line, ':');
		if (!val)
			continue;
		*val++ = '\0';
		val += strspn(val, " \t");
		val[strcspn(val, "\n")] = '\0';
		parse_info_line(info, line, val);
	}
	err = ferror(f);
	free(line);
	fclose(f);
	if (err) {
		errno = EIO;
		return -1;
	}
	/* Without an ABI version this is not perfctr's info file. */
	if (!info->abi_version) {
		errno = ENODATA;
		return -1;
	}
	return 0;
}

/* Advice for refusals */

static int read_paranoid(void)
{
	struct perfctr_info info;

	return perfctr_info(&info) ? 2 : info.paranoid;
}

static const char *explain_eacces(void)
{
	if (read_paranoid() >= 3)
		return "perfctr.paranoid is 3: without CAP_PERFMON only the TSC\n"
		       "may be counted; ask the administrator for CAP_PERFMON, or\n"
		       "to lower /sys/module/perfctr/parameters/paranoid";
	return "perfctr.paranoid forbids counting kernel mode without\n"
	       "CAP_PERFMON: count user mode only (x86: clear the event\n"
	       "select's OS bit, 0x20000; ppc32: set MMCR0[FCS]), or ask the\n"
	       "administrator for CAP_PERFMON, or to lower\n"
	       "/sys/module/perfctr/parameters/paranoid";
}

int perfctr_nmi_watchdog(void)
{
	char buf[8];
	ssize_t n;
	int fd, err;

	fd = open(NMI_WATCHDOG_PATH, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	err = n < 0 ? errno : EPROTO;
	close(fd);
	if (n == 2 && (buf[0] == '0' || buf[0] == '1') && buf[1] == '\n')
		return buf[0] - '0';
	errno = err;
	return -1;
}

/*
 * The kernel only knows that perf_events holds the counters; whether for
 * the NMI watchdog, it cannot tell, but the watchdog's sysctl reads 1
 * only while it is available and on (sharing.rst).
 */
static const char *const held_by_watchdog =
	"kernel.nmi_watchdog is 1: most likely the NMI watchdog\n"
	"holds the counters through perf_events. As root, run\n"
	"'sysctl kernel.nmi_watchdog=0' to free them; to keep it off\n"
	"after a reboot, put 'kernel.nmi_watchdog = 0' in a file in\n"
	"/etc/sysctl.d/ (e.g. 90-perfctr.conf), or boot with\n"
	"nmi_watchdog=0. If they stay busy, a perf user holds them\n"
	"too (perf stat, record or top, a KVM guest's PMU): wait for\n"
	"it to end";

static const char *const held_by_perf_user =
	"perf_events holds the counters for a perf user, not the NMI\n"
	"watchdog (kernel.nmi_watchdog is 0 or absent): perf stat,\n"
	"record or top, another perf_event_open() caller, or a KVM\n"
	"guest's virtual PMU. Wait for it to end; perfctr cannot\n"
	"take the counters back from perf";

static const char *const held_by_perf_unknown =
	"perf_events holds the counters, and\n"
	NMI_WATCHDOG_PATH " cannot be read to tell\n"
	"for whom: if it is the NMI watchdog, as root run\n"
	"'sysctl kernel.nmi_watchdog=0' (to keep it off, put\n"
	"'kernel.nmi_watchdog = 0' in a file in /etc/sysctl.d/, or\n"
	"boot with nmi_watchdog=0); else wait for the perf user\n"
	"(perf stat, record or top, a KVM guest's PMU) to end";

static const char *explain_kernel_holder(void)
{
	switch (perfctr_nmi_watchdog()) {
	case 1:
		return held_by_watchdog;
	case 0:
		return held_by_perf_user;
	}
	return errno == ENOENT ? held_by_perf_user : held_by_perf_unknown;
}

static int has_prefix(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* Reclaim is advised only where it helps: perfctr's own per-thread sets. */
static const char *explain_ebusy(void)
{
	struct perfctr_info info;

	if (perfctr_info(&info))
		return "the counters are in use: see reserved_by in " INFO_PATH
		       "\nfor their holder, and wait for it to let go";
	if (has_prefix(info.reserved_by, "virtual counters"))
		return "other threads' per-thread counters hold the counters\n"
		       "(reserved_by in " INFO_PATH "): wait for them to\n"
		       "end, or ask the administrator to take them back:\n"
		       "echo 1 > " PERFCTR_ROOT "/reclaim";
	if (has_prefix(info.reserved_by, "global-mode perfctr"))
		return "global-mode perfctr holds the counters: wait for its\n"
		       "user to close " PERFCTR_ROOT "/global (only\n"
		       "per-thread counters can be taken back)";
	if (has_prefix(info.reserved_by, "perf_events"))
		return explain_kernel_holder();
	if (info.reclaim_hold > 0)
		return "the administrator holds the counters back from\n"
		       "per-thread counters (reclaim_hold is 1 in " INFO_PATH
		       "):\nask them to write release to " PERFCTR_ROOT "/reclaim";
	if (!strcmp(info.reserved_by, "none"))
		return "the counters were busy, and their holder has let go\n"
		       "since (reserved_by in " INFO_PATH " is none): try\n"
		       "again";
	return "the counters are in use (reserved_by in " INFO_PATH "):\n"
	       "wait for their holder to let go";
}

static const char *explain(int err)
{
	switch (err) {
	case EACCES:
		return explain_eacces();
	case EBUSY:
		return explain_ebusy();
	case EINVAL:
		return "the control is not valid for this CPU: see the rules\n"
		       "for its family in Documentation/perfctr/";
	case ESRCH:
		return "the thread has exited (its files must be opened while it\n"
		       "lives to read its final counts), or it ran a setuid,\n"
		       "setgid or file-capability program after they were opened";
	case EOPNOTSUPP:
		return "this kernel has no sched_process_exec tracepoint\n"
		       "(CONFIG_TRACEPOINTS), which per-thread counters need";
	case ENOENT:
		return "is perfctr loaded and mounted? (mount -t perfctr none\n"
		       PERFCTR_ROOT ")";
	}
	return NULL;
}

/* The files read to explain leave errno as the caller had it. */
const char *perfctr_explain(int err)
{
	int saved = errno;
	const char *why = explain(err);

	errno = saved;
	return why;
}

/* Command-line counters, as the tools take them */

/*
 * One field: a C-syntax number of 32 bits at *@s, no sign, not empty;
 * *@s moves past it. strtoul alone would take "", "-1" and 2^32 + 1.
 */
static int parse_u32(const char **s, __u32 *val)
{
	unsigned long long v;
	char *end;

	if (**s < '0' || **s > '9')
		return -1;
	errno = 0;
	v = strtoull(*s, &end, 0);
	if (errno || v > 0xFFFFFFFFULL)
		return -1;
	*val = v;
	*s = end;
	return 0;
}

int perfctr_parse_counter(struct perfctr_cpu_control *c, const char *arg)
{
	__u32 pmc, sel;
#ifndef __powerpc__
	__u32 high = 0;
#endif

	/* Parsed whole before @c is touched: a bad @arg changes nothing. */
	if (c->nractrs >= PERFCTR_NR_PMCS || parse_u32(&arg, &pmc) ||
	    *arg++ != ':' || parse_u32(&arg, &sel))
		goto invalid;
#ifndef __powerpc__
	if (*arg == ':') {
		arg++;
		if (parse_u32(&arg, &high))
			goto invalid;
	}
#endif
	if (*arg)
		goto invalid;
	c->pmc_map[c->nractrs] = pmc;
	c->evntsel[c->nractrs] = sel;
#ifndef __powerpc__
	c->evntsel_high[c->nractrs] = high;
#endif
	c->nractrs++;
	return 0;

invalid:
	errno = EINVAL;
	return -1;
}

/* Opening and closing */

static void vp_free(struct vperfctr *vp)
{
	int saved = errno;

	if (vp->state)
		munmap((void *)vp->state, vp->state_size);
	pmc_view_close(&vp->view_src, vp->state_size);
	if (vp->state_fd >= 0)
		close(vp->state_fd);
	if (vp->control_fd >= 0)
		close(vp->control_fd);
	if (vp->sums_fd >= 0)
		close(vp->sums_fd);
	if (vp->command_fd >= 0)
		close(vp->command_fd);
	if (vp->status_fd >= 0)
		close(vp->status_fd);
	if (vp->children_fd >= 0)
		close(vp->children_fd);
	if (vp->tree_fd >= 0)
		close(vp->tree_fd);
	if (vp->ibs_fd >= 0)
		close(vp->ibs_fd);
	free(vp);
	errno = saved;
}

static void vp_fast_on(struct vperfctr *vp)
{
	vp->fast_tsc = vp->can_tsc ? vp->state : NULL;
	vp->fast_ctrs = vp->can_ctrs ? vp->state : NULL;
}

/*
 * The owner maps the state page, which makes the kernel set up a counter
 * set if the thread has none. A mapping at @addr is replaced in place, so
 * that a pointer from vperfctr_state() stays good.
 */
static int vp_map_state(struct vperfctr *vp, void *addr)
{
	void *p;

	vp->fast_tsc = NULL;
	vp->fast_ctrs = NULL;
	p = mmap(addr, vp->state_size, PROT_READ,
		 MAP_SHARED | (addr ? MAP_FIXED : 0), vp->state_fd, 0);
	if (p == MAP_FAILED)
		return -1;
	vp->state = p;
	if (load_u32(&vp->state->magic) != VPERFCTR_STATE_MAGIC) {
		errno = EPROTO;
		return -1;
	}
	vp_fast_on(vp);
	return 0;
}

static int vp_open_state(struct vperfctr *vp, int dfd,
			 const struct perfctr_info *info)
{
	int rdpmc = !!(info->features & PERFCTR_FEATURE_RDPMC);

	vp->state_fd = openat(dfd, "state", O_RDONLY | O_CLOEXEC);
	if (vp->state_fd < 0)
		return -1;
	rdpmc = pmc_view_open(&vp->view_src, vp->state_size, rdpmc);
	vp->can_tsc = !!(info->features & PERFCTR_FEATURE_RDTSC);
	/* Where no counter can be programmed, RDPMC is never executed. */
	vp->can_ctrs = vp->can_tsc && (rdpmc || !info->nrctrs);
	return vp_map_state(vp, NULL);
}

/* One of the set's files, close-on-exec, into *@fd; 0 or -1. */
static int vp_openat(int dfd, const char *name, int flags, int *fd)
{
	*fd = openat(dfd, name, flags | O_CLOEXEC);
	return *fd < 0 ? -1 : 0;
}

/* A handle with no file open yet. */
static struct vperfctr *vp_alloc(pid_t tid)
{
	struct vperfctr *vp = calloc(1, sizeof(*vp));

	if (!vp)
		return NULL;
	vp->state_fd = -1;
	vp->control_fd = -1;
	vp->sums_fd = -1;
	vp->command_fd = -1;
	vp->status_fd = -1;
	vp->children_fd = -1;
	vp->tree_fd = -1;
	vp->ibs_fd = -1;
	vp->tid = tid;
	vp->state_size = sysconf(_SC_PAGESIZE);
	return vp;
}

/*
 * children came with inheritance, tree with ABI 1.2: a module without
 * them has no such file, and its handles simply have no inherited
 * totals to read.
 */
static int vp_open_optional(int dfd, const char *name, int *fd)
{
	if (!vp_openat(dfd, name, O_RDONLY, fd))
		return 0;
	return errno == ENOENT ? 0 : -1;
}

static struct vperfctr *vp_open(const char *dir, pid_t tid, int self)
{
	struct perfctr_info info;
	struct vperfctr *vp;
	int dfd;

	if (perfctr_info(&info))
		return NULL;
	if ((info.abi_version >> 8) != (PERFCTR_ABI_VERSION >> 8)) {
		errno = EPROTO;
		return NULL;
	}
	vp = vp_alloc(tid);
	if (!vp)
		return NULL;
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		goto fail;
	if (vp_openat(dfd, "control", O_RDWR, &vp->control_fd) ||
	    vp_openat(dfd, "sums", O_RDONLY, &vp->sums_fd) ||
	    vp_openat(dfd, "command", O_WRONLY, &vp->command_fd) ||
	    vp_openat(dfd, "status", O_RDONLY, &vp->status_fd) ||
	    vp_open_optional(dfd, "children", &vp->children_fd) ||
	    vp_open_optional(dfd, "tree", &vp->tree_fd) ||
	    (self && vp_open_state(vp, dfd, &info)))
		goto fail_dir;
	close(dfd);
	snprintf(vp->dir, sizeof(vp->dir), "%s", dir);
	return vp;

fail_dir:
	{
		int saved = errno;

		close(dfd);
		errno = saved;
	}
fail:
	vp_free(vp);
	return NULL;
}

struct vperfctr *vperfctr_open(void)
{
	return vp_open(PERFCTR_ROOT "/self", gettid(), 1);
}

struct vperfctr *vperfctr_open_tid(pid_t tid)
{
	char dir[64];

	if (tid <= 0) {
		errno = EINVAL;
		return NULL;
	}
	snprintf(dir, sizeof(dir), PERFCTR_ROOT "/%d", (int)tid);
	return vp_open(dir, tid, 0);
}

void vperfctr_close(struct vperfctr *vp)
{
	if (vp)
		vp_free(vp);
}

const struct vperfctr_state *vperfctr_state(const struct vperfctr *vp)
{
	return vp->state;
}

pid_t vperfctr_tid(const struct vperfctr *vp)
{
	return vp->tid;
}

/* The files */

/* pread()/pwrite() of exactly @size bytes at offset 0; short is EIO. */
int perfctr_io_result(ssize_t n, size_t size)
{
	if (n < 0)
		return -1;
	if ((size_t)n != size) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/*
 * The kernel installs a control in the thread's live state page, changing
 * its seq. A page whose seq stayed is one that an unlink left behind: the
 * write created a new set, whose page is mapped in the old one's place.
 */
/*
 * A module of ABI 1.0 takes only 1.0's shorter control (EINVAL for this
 * one's size); one without 1.1's additions says the same in 1.0's size.
 */
static int vp_control_is_1_0(const struct vperfctr_control *ctl)
{
	const unsigned char *p = (const unsigned char *)ctl;
	size_t i;

	for (i = VPERFCTR_CONTROL_SIZE_1_0; i < sizeof(*ctl); i++)
		if (p[i])
			return 0;
	return 1;
}

static int vp_write_control(int fd, const struct vperfctr_control *ctl)
{
	if (!perfctr_io_result(pwrite(fd, ctl, sizeof(*ctl), 0), sizeof(*ctl)))
		return 0;
	if (errno != EINVAL || sizeof(*ctl) == VPERFCTR_CONTROL_SIZE_1_0 ||
	    !vp_control_is_1_0(ctl))
		return -1;
	return perfctr_io_result(pwrite(fd, ctl, VPERFCTR_CONTROL_SIZE_1_0, 0),
			 VPERFCTR_CONTROL_SIZE_1_0);
}

/*
 * The handle is const to its users (perfctr 2.6's prototype): what a
 * control changes is the library's own cache of the mapping, in an object
 * vp_alloc() allocated, never a const one.
 */
int vperfctr_control(const struct vperfctr *cvp,
		     const struct vperfctr_control *ctl)
{
	struct vperfctr *vp = (struct vperfctr *)cvp;
	__u32 seq = vp->state ? load_u32(&vp->state->seq) : 0;

	if (vp_write_control(vp->control_fd, ctl))
		return -1;
	if (vp->state && load_u32(&vp->state->seq) == seq)
		return vp_map_state(vp, (void *)vp->state);
	return 0;
}

/* A module of ABI 1.0 returns 1.0's shorter control: the rest is 0. */
static int vp_read_control(int fd, struct vperfctr_control *ctl)
{
	ssize_t n;

	memset(ctl, 0, sizeof(*ctl));
	n = pread(fd, ctl, sizeof(*ctl), 0);
	if (n == VPERFCTR_CONTROL_SIZE_1_0)
		return 0;
	return perfctr_io_result(n, sizeof(*ctl));
}

int vperfctr_read_control(const struct vperfctr *vp,
			  struct vperfctr_control *ctl)
{
	return vp_read_control(vp->control_fd, ctl);
}

/* For the 2.6 calls on a directory descriptor (compat26.c). */
static int control_at(int dfd, int flags)
{
	return openat(dfd, "control", flags | O_CLOEXEC);
}

static int close_keep_errno(int fd, int ret)
{
	int saved = errno;

	close(fd);
	errno = saved;
	return ret;
}

int perfctr_control_write_at(int dfd, const struct vperfctr_control *ctl)
{
	int fd = control_at(dfd, O_WRONLY);

	if (fd < 0)
		return -1;
	return close_keep_errno(fd, vp_write_control(fd, ctl));
}

int perfctr_control_read_at(int dfd, struct vperfctr_control *ctl)
{
	int fd = control_at(dfd, O_RDONLY);

	if (fd < 0)
		return -1;
	return close_keep_errno(fd, vp_read_control(fd, ctl));
}

/*
 * Not inlined: in the fast paths' fallback it would make the fast path
 * set up for a call (the PIC register on i386) that it never makes.
 */
__attribute__((__noinline__, __cold__))
int vperfctr_read_sums(const struct vperfctr *vp,
		       struct perfctr_sum_ctrs *sums)
{
	return perfctr_io_result(pread(vp->sums_fd, sums, sizeof(*sums), 0),
			 sizeof(*sums));
}

int vperfctr_read_status(const struct vperfctr *vp, char *buf, size_t size)
{
	ssize_t n;

	if (!size) {
		errno = EINVAL;
		return -1;
	}
	n = pread(vp->status_fd, buf, size - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int vperfctr_read_children(const struct vperfctr *vp,
			   struct vperfctr_children *ch)
{
	if (vp->children_fd < 0) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return perfctr_io_result(pread(vp->children_fd, ch, sizeof(*ch), 0),
			 sizeof(*ch));
}

int vperfctr_read_tree(const struct vperfctr *vp, struct vperfctr_children *ch)
{
	if (vp->tree_fd < 0) {
		errno = EOPNOTSUPP;
		return -1;
	}
	return perfctr_io_result(pread(vp->tree_fd, ch, sizeof(*ch), 0),
			 sizeof(*ch));
}

static int vp_command(const struct vperfctr *vp, __u32 cmd)
{
	return perfctr_io_result(pwrite(vp->command_fd, &cmd, sizeof(cmd), 0),
			 sizeof(cmd));
}

int vperfctr_suspend(const struct vperfctr *vp)
{
	return vp_command(vp, VPERFCTR_CMD_SUSPEND);
}

int vperfctr_resume(const struct vperfctr *vp)
{
	return vp_command(vp, VPERFCTR_CMD_RESUME);
}

int vperfctr_clear(const struct vperfctr *vp)
{
	return vp_command(vp, VPERFCTR_CMD_CLEAR);
}

int vperfctr_iresume(const struct vperfctr *vp)
{
	return vp_command(vp, VPERFCTR_CMD_IRESUME);
}

/*
 * The page stays mapped but is no longer the kernel's: the fast paths read
 * the (empty) sums file until vperfctr_control() maps the new set's page.
 */
int vperfctr_unlink(const struct vperfctr *cvp)
{
	struct vperfctr *vp = (struct vperfctr *)cvp;	/* as in control */

	if (vp_command(vp, VPERFCTR_CMD_UNLINK))
		return -1;
	vp->fast_tsc = NULL;
	vp->fast_ctrs = NULL;
	return 0;
}

/*
 * Passing a handle to another process: one message on an AF_UNIX socket,
 * a struct vp_msg with the files' descriptors (SCM_RIGHTS): five, and
 * tree's as the sixth where the module has it (magic "vpm2"). The
 * receiver treats it as hostile: anything but exactly this, on perfctr's
 * own files opened as vp_open() opens them, is refused and every
 * descriptor that came with it closed.
 */
#define VP_MSG_MAGIC_1	0x76706d31U	/* "vpm1": five, no tree */
#define VP_MSG_MAGIC	0x76706d32U	/* "vpm2": six */
#define VP_MSG_NFDS	6

struct vp_msg {
	__u32 magic;
	__s32 tid;
};

/* The handle's files in message order, and the modes vp_open() gives. */
static const size_t vp_msg_off[VP_MSG_NFDS] = {
	offsetof(struct vperfctr, control_fd),
	offsetof(struct vperfctr, sums_fd),
	offsetof(struct vperfctr, command_fd),
	offsetof(struct vperfctr, status_fd),
	offsetof(struct vperfctr, children_fd),
	offsetof(struct vperfctr, tree_fd),
};

static const int vp_msg_mode[VP_MSG_NFDS] = {
	O_RDWR, O_RDONLY, O_WRONLY, O_RDONLY, O_RDONLY, O_RDONLY
};

static int *vp_msg_fd(struct vperfctr *vp, unsigned int i)
{
	return (int *)((char *)vp + vp_msg_off[i]);
}

/* Room for the descriptors and for credentials (SO_PASSCRED) besides. */
union vp_cmsg_buf {
	struct cmsghdr h;
	char buf[CMSG_SPACE(sizeof(struct ucred)) +
		 CMSG_SPACE(VP_MSG_NFDS * sizeof(int))];
};

int vperfctr_send(const struct vperfctr *vp, int sock)
{
	unsigned int i, nfds = vp->tree_fd < 0 ? VP_MSG_NFDS - 1 : VP_MSG_NFDS;
	struct vp_msg m = { VP_MSG_MAGIC, vp->tid };
	struct iovec iov = { &m, sizeof(m) };
	union vp_cmsg_buf u;
	struct msghdr mh;
	struct cmsghdr *c;
	ssize_t n;

	if (vp->children_fd < 0) {
		errno = EOPNOTSUPP;
		return -1;
	}
	if (nfds < VP_MSG_NFDS)
		m.magic = VP_MSG_MAGIC_1;
	memset(&u, 0, sizeof(u));
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = CMSG_SPACE(nfds * sizeof(int));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(nfds * sizeof(int));
	for (i = 0; i < nfds; i++)
		memcpy(CMSG_DATA(c) + i * sizeof(int),
		       (const char *)vp + vp_msg_off[i], sizeof(int));
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return perfctr_io_result(n, sizeof(m));
}

/*
 * Every descriptor of every SCM_RIGHTS header into @fds (at most @max;
 * any beyond are closed at once); returns how many there were in all.
 */
/*
 * One message of @len bytes into @m, its descriptors close-on-exec in
 * @u, described by @mh for take_fds() and the checks (its iovec is gone
 * on return). Retries on EINTR; recvmsg()'s result.
 */
static ssize_t msg_receive(int sock, void *m, size_t len, struct msghdr *mh,
			   union vp_cmsg_buf *u)
{
	struct iovec iov = { m, len };
	ssize_t n;

	memset(mh, 0, sizeof(*mh));
	mh->msg_iov = &iov;
	mh->msg_iovlen = 1;
	mh->msg_control = u->buf;
	mh->msg_controllen = sizeof(u->buf);
	do
		n = recvmsg(sock, mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	mh->msg_iov = NULL;
	mh->msg_iovlen = 0;
	return n;
}

static unsigned int take_fds(struct msghdr *mh, int *fds, unsigned int max)
{
	unsigned int total = 0, i, n;
	struct cmsghdr *c;
	int fd;

	for (c = CMSG_FIRSTHDR(mh); c; c = CMSG_NXTHDR(mh, c)) {
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
		    c->cmsg_len < CMSG_LEN(0))
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++, total++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(fd));
			if (total < max)
				fds[total] = fd;
			else
				close(fd);
		}
	}
	return total;
}

/* Descriptor @i of a message: a perfctr file opened as vp_open() does. */
static int msg_fd_ok(int fd, unsigned int i)
{
	struct statfs sfs;
	int fl = fcntl(fd, F_GETFL);

	return fl >= 0 && (fl & O_ACCMODE) == vp_msg_mode[i] &&
	       !fstatfs(fd, &sfs) && sfs.f_type == PERFCTR_FS_MAGIC;
}

/* 0, or minus the errno that refuses the message (vperfctr_receive()). */
static int msg_check(const struct msghdr *mh, ssize_t n, const struct vp_msg *m,
		     const int *fds, unsigned int nfds)
{
	unsigned int i;

	if (!n && !nfds)
		return -ENOMSG;			/* the peer closed */
	if ((mh->msg_flags & MSG_CTRUNC) ||
	    (nfds != VP_MSG_NFDS && nfds != VP_MSG_NFDS - 1))
		return -EPROTO;
	if ((mh->msg_flags & MSG_TRUNC) || n != sizeof(*m) || m->tid <= 0 ||
	    m->magic != (nfds == VP_MSG_NFDS ? VP_MSG_MAGIC : VP_MSG_MAGIC_1))
		return -EBADMSG;
	for (i = 0; i < nfds; i++)
		if (!msg_fd_ok(fds[i], i))
			return -EBADMSG;
	return 0;
}

struct vperfctr *vperfctr_receive(int sock)
{
	struct vp_msg m = { 0, 0 };
	int fds[VP_MSG_NFDS], err;
	struct vperfctr *vp = NULL;
	union vp_cmsg_buf u;
	unsigned int nfds, i;
	struct msghdr mh;
	ssize_t n;

	n = msg_receive(sock, &m, sizeof(m), &mh, &u);
	if (n < 0)
		return NULL;
	nfds = take_fds(&mh, fds, VP_MSG_NFDS);
	err = -msg_check(&mh, n, &m, fds, nfds);
	if (!err) {
		vp = vp_alloc(m.tid);
		err = vp ? 0 : errno;
	}
	for (i = 0; i < nfds && i < VP_MSG_NFDS; i++) {
		if (err)
			close(fds[i]);
		else
			*vp_msg_fd(vp, i) = fds[i];
	}
	if (err) {
		errno = err;
		return NULL;
	}
	return vp;
}

/*
 * The fast path. The kernel makes the state page's seq odd while it
 * changes the page and changes seq whenever the counters are suspended,
 * resumed or sampled, so an even seq that is the same before and after
 * the reads means they saw one period of counters that ran on this CPU
 * all along.
 *
 * Plain loads of the fields (see load_u32()) let the compiler fold them
 * into the arithmetic, which keeps the hot path short.
 */

/*
 * perfctr_cstatus_nrctrs(@cstatus) >= @n in one comparison: below the
 * count (bits 8-14) are only the a-mode count and a zero bit 7, and above
 * it a zero bit 15.
 */
static inline int nrctrs_at_least(__u32 cstatus, unsigned int n)
{
	return (__u16)cstatus >= n << 8;
}

static inline __u64 pmc_now(const struct pmc_view *v,
			    const struct perfctr_pmc_state *pmc)
{
	return pmc->sum + (__u32)(pmc_low(v, pmc->map) - pmc->start);
}

/*
 * Any number of counters, and stopped ones (cstatus 0: the sums are final,
 * all of them). Out of line, so that the common case of few counters
 * needs neither a loop nor the registers of one.
 */
static __attribute__((__noinline__, __cold__))
int read_ctrs_any(const struct vperfctr *vp, struct perfctr_sum_ctrs *sums,
		  const struct vperfctr_state *st)
{
	const struct perfctr_cpu_state_user *cs = &st->cpu_state;
	__u32 seq, cstatus, i, n;
	struct pmc_view view = { 0 };

retry:
	seq = load_u32(&st->seq);
	if (seq & 1)
		goto retry;
	barrier();
	cstatus = load_u32(&cs->cstatus);
	sums->tsc = cs->tsc_sum;
	if (perfctr_cstatus_has_tsc(cstatus))
		sums->tsc += (__u32)(arch_rdtsc_low() - cs->tsc_start);
	/* The kernel's cstatus never counts more than PERFCTR_NR_PMCS. */
	n = perfctr_cstatus_nrctrs(cstatus);
	if (n)
		pmc_view_begin(&view, &vp->view_src);
	for (i = 0; i < n; i++)
		sums->pmc[i] = pmc_now(&view, &cs->pmc[i]);
	for (; !cstatus && i < PERFCTR_NR_PMCS; i++)
		sums->pmc[i] = cs->pmc[i].sum;
	barrier();
	if (st->seq != seq || (n && pmc_view_changed(&view)))
		goto retry;
	return 0;
}

/*
 * While the counters run, only sums->tsc and the control's counters
 * (pmc[0] to pmc[nractrs + nrictrs - 1]) are written. Up to two counters
 * are read here, unrolled: a loop costs more than the work of a counter.
 */
int vperfctr_read_ctrs(const struct vperfctr *vp,
		       struct perfctr_sum_ctrs *sums)
{
	const struct vperfctr_state *st = vp->fast_ctrs;
	const struct perfctr_cpu_state_user *cs;
	struct pmc_view view;
	__u32 seq, cstatus;

	if (__builtin_expect(!st, 0))
		return vperfctr_read_sums(vp, sums);
	cs = &st->cpu_state;
retry:
	seq = load_u32(&st->seq) & ~1U;	/* odd: never matches below */
	barrier();
	cstatus = load_u32(&cs->cstatus);
	if (__builtin_expect(perfctr_cstatus_has_tsc(cstatus), 1))
		sums->tsc = cs->tsc_sum +
			(__u32)(arch_rdtsc_low() - cs->tsc_start);
	else if (cstatus)
		sums->tsc = cs->tsc_sum;
	else
		return read_ctrs_any(vp, sums, st);
	if (nrctrs_at_least(cstatus, 1)) {
		pmc_view_begin(&view, &vp->view_src);
		sums->pmc[0] = pmc_now(&view, &cs->pmc[0]);
		if (nrctrs_at_least(cstatus, 2)) {
			sums->pmc[1] = pmc_now(&view, &cs->pmc[1]);
			if (nrctrs_at_least(cstatus, 3))
				return read_ctrs_any(vp, sums, st);
		}
	}
	barrier();
	/* barrier() makes st->seq a fresh load. */
	if (st->seq != seq ||
	    (nrctrs_at_least(cstatus, 1) && pmc_view_changed(&view)))
		goto retry;
	return 0;
}

unsigned long long vperfctr_read_tsc(const struct vperfctr *vp)
{
	const struct vperfctr_state *st = vp->fast_tsc;
	struct perfctr_sum_ctrs sums;
	__u64 tsc;
	__u32 seq;

	if (!st)
		return vperfctr_read_sums(vp, &sums) ? 0 : sums.tsc;
retry:
	seq = load_u32(&st->seq) & ~1U;	/* odd: never matches below */
	barrier();
	tsc = st->cpu_state.tsc_sum;
	if (perfctr_cstatus_has_tsc(load_u32(&st->cpu_state.cstatus)))
		tsc += (__u32)(arch_rdtsc_low() - st->cpu_state.tsc_start);
	barrier();
	if (st->seq != seq)
		goto retry;
	return tsc;
}

unsigned long long vperfctr_read_pmc(const struct vperfctr *vp,
				     unsigned int i)
{
	const struct vperfctr_state *st = vp->fast_ctrs;
	const struct perfctr_pmc_state *pmc;
	struct perfctr_sum_ctrs sums;
	struct pmc_view view;
	__u32 seq, live;
	__u64 sum;

	if (i >= PERFCTR_NR_PMCS) {
		errno = EINVAL;
		return 0;
	}
	if (!st)
		return vperfctr_read_sums(vp, &sums) ? 0 : sums.pmc[i];
	pmc = &st->cpu_state.pmc[i];
retry:
	seq = load_u32(&st->seq);
	if (seq & 1)
		goto retry;
	barrier();
	live = i < perfctr_cstatus_nrctrs(load_u32(&st->cpu_state.cstatus));
	if (live) {
		pmc_view_begin(&view, &vp->view_src);
		sum = pmc_now(&view, pmc);
	} else {
		sum = pmc->sum;
	}
	barrier();
	if (st->seq != seq || (live && pmc_view_changed(&view)))
		goto retry;
	return sum;
}

/*
 * IBS (<perfctr/ibs.h>). The control is a plain file; the ring is the
 * kernel's mapped page of counts and its slots, which the kernel fills
 * at head and the reader empties at tail. The reader loads head with
 * acquire order, so the slots before it are complete when copied, and
 * publishes a new tail by writing it to the file, after the copies: the
 * kernel reuses no slot before that.
 */
#ifdef __powerpc__
/*
 * IBS is AMD's: no ring is ever opened on ppc32, which has no 64-bit
 * atomic loads without libatomic.
 */
#define IBS_RING_HERE	0
static inline __u64 ring_load(const __u64 *p)
{
	return *p;
}
#else
#define IBS_RING_HERE	1
static inline __u64 ring_load(const __u64 *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}
#endif

struct vperfctr_ibs_ring {
	const struct perfctr_ibs_ring *hdr;
	const unsigned char *slots;
	size_t map_size;
	unsigned int ring_pages;
	int fd;
};

/* <dir>/@name of a handle that has a directory, close-on-exec. */
static int vp_open_file(const struct vperfctr *vp, const char *name, int flags)
{
	char path[64];

	if (!vp->dir[0]) {
		errno = EBADF;
		return -1;
	}
	snprintf(path, sizeof(path), "%s/%s", vp->dir, name);
	return open(path, flags | O_CLOEXEC);
}

static int vp_ibs_fd(struct vperfctr *vp)
{
	if (vp->ibs_fd < 0)
		vp->ibs_fd = vp_open_file(vp, "ibs", O_RDWR);
	return vp->ibs_fd;
}

int vperfctr_ibs_control(struct vperfctr *vp,
			 const struct perfctr_ibs_control *c)
{
	if (vp_ibs_fd(vp) < 0)
		return -1;
	return perfctr_io_result(pwrite(vp->ibs_fd, c, sizeof(*c), 0), sizeof(*c));
}

int vperfctr_read_ibs_control(struct vperfctr *vp,
			      struct perfctr_ibs_control *c)
{
	if (vp_ibs_fd(vp) < 0)
		return -1;
	return perfctr_io_result(pread(vp->ibs_fd, c, sizeof(*c), 0), sizeof(*c));
}

/* The header the kernel wrote: this ABI's, and slots that fit @size. */
static int ring_header_ok(const struct perfctr_ibs_ring *h, size_t size)
{
	return h->magic == PERFCTR_IBS_RING_MAGIC &&
	       h->sample_size == sizeof(struct perfctr_ibs_sample) &&
	       h->nr_slots && (size_t)h->nr_slots * h->sample_size <= size;
}

/*
 * Maps @fd's ring of @ring_pages data pages (the kernel maps only the
 * whole of it, header page first); takes @fd, closing it on failure.
 */
static struct vperfctr_ibs_ring *ring_map(int fd, unsigned int ring_pages)
{
	size_t page = sysconf(_SC_PAGESIZE);
	size_t size = (1 + (size_t)ring_pages) * page;
	struct vperfctr_ibs_ring *r = NULL;
	void *p;
	int err;

	if (!IBS_RING_HERE) {
		err = EOPNOTSUPP;
		goto fail;
	}
	if (!ring_pages || ring_pages > PERFCTR_IBS_RING_MAX) {
		err = EPROTO;
		goto fail;
	}
	r = calloc(1, sizeof(*r));
	if (!r) {
		err = ENOMEM;
		goto fail;
	}
	p = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		err = errno;
		goto fail;
	}
	if (!ring_header_ok(p, size - page)) {
		munmap(p, size);
		err = EPROTO;
		goto fail;
	}
	r->hdr = p;
	r->slots = (const unsigned char *)p + page;
	r->map_size = size;
	r->ring_pages = ring_pages;
	r->fd = fd;
	return r;

fail:
	free(r);
	close(fd);
	errno = err;
	return NULL;
}

struct vperfctr_ibs_ring *vperfctr_ibs_ring_open(struct vperfctr *vp)
{
	struct perfctr_ibs_control c;
	int fd;

	if (vperfctr_read_ibs_control(vp, &c))
		return NULL;
	if (!c.flags) {
		errno = ENODATA;
		return NULL;
	}
	fd = vp_open_file(vp, "ibs_ring", O_RDWR);
	if (fd < 0)
		return NULL;
	return ring_map(fd, c.ring_pages ? c.ring_pages :
			PERFCTR_IBS_RING_PAGES);
}

void vperfctr_ibs_ring_close(struct vperfctr_ibs_ring *r)
{
	int saved = errno;

	if (!r)
		return;
	munmap((void *)r->hdr, r->map_size);
	close(r->fd);
	free(r);
	errno = saved;
}

const struct perfctr_ibs_ring *
vperfctr_ibs_header(const struct vperfctr_ibs_ring *r)
{
	return r->hdr;
}

int vperfctr_ibs_drain(struct vperfctr_ibs_ring *r,
		       struct perfctr_ibs_sample *buf, unsigned int max)
{
	const struct perfctr_ibs_ring *h = r->hdr;
	__u64 head = ring_load(&h->head);
	__u64 tail = ring_load(&h->tail);
	unsigned int n, i;

	/* The kernel keeps head - tail within the slots; never trust it. */
	if (head < tail || head - tail > h->nr_slots) {
		errno = EPROTO;
		return -1;
	}
	n = head - tail < max ? head - tail : max;
	for (i = 0; i < n; i++)
		memcpy(&buf[i], r->slots + ((tail + i) % h->nr_slots) *
		       sizeof(*buf), sizeof(*buf));
	if (!n)
		return 0;
	/* The copies are done before the slots are handed back. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	tail += n;
	if (perfctr_io_result(pwrite(r->fd, &tail, sizeof(tail), 0), sizeof(tail)))
		return -1;
	return n;
}

void vperfctr_ibs_stats(const struct vperfctr_ibs_ring *r,
			struct vperfctr_ibs_stats *st)
{
	const struct perfctr_ibs_ring *h = r->hdr;

	st->head = ring_load(&h->head);
	st->tail = ring_load(&h->tail);
	st->lost = ring_load(&h->lost);
	st->filtered = ring_load(&h->filtered);
	st->busy = ring_load(&h->busy);
}

/* A ring in a message: its descriptor, and its size to map it by. */
#define IBS_MSG_MAGIC	0x69627331U	/* "ibs1" */

struct ibs_msg {
	__u32 magic;
	__u32 ring_pages;
};

int vperfctr_ibs_ring_send(const struct vperfctr_ibs_ring *r, int sock)
{
	struct ibs_msg m = { IBS_MSG_MAGIC, r->ring_pages };
	struct iovec iov = { &m, sizeof(m) };
	union vp_cmsg_buf u;
	struct msghdr mh;
	struct cmsghdr *c;
	ssize_t n;

	memset(&u, 0, sizeof(u));
	memset(&mh, 0, sizeof(mh));
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = u.buf;
	mh.msg_controllen = CMSG_SPACE(sizeof(int));
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &r->fd, sizeof(int));
	do
		n = sendmsg(sock, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return perfctr_io_result(n, sizeof(m));
}

/* 0, or minus the errno that refuses a ring's message. */
static int ibs_msg_check(const struct msghdr *mh, ssize_t n,
			 const struct ibs_msg *m, int fd, unsigned int nfds)
{
	struct statfs sfs;
	int fl;

	if (!n && !nfds)
		return -ENOMSG;
	if ((mh->msg_flags & MSG_CTRUNC) || nfds != 1)
		return -EPROTO;
	if ((mh->msg_flags & MSG_TRUNC) || n != sizeof(*m) ||
	    m->magic != IBS_MSG_MAGIC)
		return -EBADMSG;
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || (fl & O_ACCMODE) != O_RDWR || fstatfs(fd, &sfs) ||
	    sfs.f_type != PERFCTR_FS_MAGIC)
		return -EBADMSG;
	return 0;
}

struct vperfctr_ibs_ring *vperfctr_ibs_ring_receive(int sock)
{
	struct ibs_msg m = { 0, 0 };
	union vp_cmsg_buf u;
	struct msghdr mh;
	unsigned int nfds;
	int fd = -1, err;
	ssize_t n;

	n = msg_receive(sock, &m, sizeof(m), &mh, &u);
	if (n < 0)
		return NULL;
	nfds = take_fds(&mh, &fd, 1);
	err = -ibs_msg_check(&mh, n, &m, fd, nfds);
	if (err) {
		if (nfds)
			close(fd);
		errno = err;
		return NULL;
	}
	return ring_map(fd, m.ring_pages);
}
