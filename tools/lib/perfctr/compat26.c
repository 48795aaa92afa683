// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libperfctr: perfctr 2.6's library calls (libperfctr26.h), on this
 * project's files and calls. Documented in libperfctr.rst, "Programs
 * written for perfctr 2.6"; written from that API's declarations and
 * documented behaviour.
 *
 * The read calls (vperfctr_read_ctrs(), vperfctr_read_state(),
 * rvperfctr_read_ctrs(), _vperfctr_read_sum()) and vperfctr_iresume() are
 * async-signal-safe: they use the state page, openat(), pread(),
 * pwrite() and close() only. PAPI calls them from its SIGPROF handler.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "libperfctr.h"
#include "libperfctr26.h"
#include "libperfctr-int.h"

#define SELF_DIR	PERFCTR_ROOT "/self"
#define GLOBAL_PATH	PERFCTR_ROOT "/global"
#define ONLINE_PATH	"/sys/devices/system/cpu/online"

/* A perfctr file system descriptor, as 2.6's ioctl()s needed one. */
static int fd_is_perfctr(int fd)
{
	struct statfs sfs;

	if (fstatfs(fd, &sfs))
		return 0;
	if (sfs.f_type != PERFCTR_FS_MAGIC) {
		errno = ENOTTY;
		return 0;
	}
	return 1;
}

/* One file of the set's directory @dfd, read or written whole at 0. */
static int dir_io(int dfd, const char *name, void *buf, size_t size,
		  int write)
{
	int fd = openat(dfd, name, (write ? O_WRONLY : O_RDONLY) | O_CLOEXEC);
	ssize_t n;
	int saved;

	if (fd < 0)
		return -1;
	n = write ? pwrite(fd, buf, size, 0) : pread(fd, buf, size, 0);
	saved = errno;
	close(fd);
	errno = saved;
	return perfctr_io_result(n, size);
}

/* Whether the thread of directory @dfd has a set: its status is not "none". */
static int dir_has_set(int dfd)
{
	char buf[16] = "";
	int fd = openat(dfd, "status", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	if (n < 0)
		return -1;
	return strncmp(buf, "none", 4) != 0;
}

static int path_has_set(const char *dir)
{
	int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int ret, saved;

	if (dfd < 0)
		return -1;
	ret = dir_has_set(dfd);
	saved = errno;
	close(dfd);
	errno = saved;
	return ret;
}

/*
 * 2.6 took an Intel fixed counter's setup in the general counters'
 * EVNTSEL layout and made the 4-bit IA32_FIXED_CTR_CTRL field of it: OS
 * (bit 17) to bit 0, USR (16) to bit 1, INT (20) to bit 3. The module
 * takes the field itself (x86.rst), so a value with bits above the
 * field's, which it would refuse, is converted; the rest are left alone.
 */
static const struct vperfctr_control *
fixed_from_26(const struct vperfctr_control *in, struct vperfctr_control *buf)
{
#if defined(__x86_64__) || defined(__i386)
	const struct perfctr_cpu_control *c = &in->cpu_control;
	unsigned int i, n = c->nractrs + c->nrictrs;
	int copied = 0;

	for (i = 0; i < n && i < PERFCTR_NR_PMCS; i++) {
		unsigned int e = c->evntsel[i];

		if (!(c->pmc_map[i] & PERFCTR_X86_FIXED_PMC) || e <= 0xF)
			continue;
		if (!copied) {
			*buf = *in;
			copied = 1;
		}
		buf->cpu_control.evntsel[i] = ((e >> 17) & 1) |
					      ((e >> 16) & 1) << 1 |
					      ((e >> 20) & 1) << 3;
	}
	return copied ? buf : in;
#else
	(void)buf;
	return in;
#endif
}

int perfctr26_vperfctr_control(const struct vperfctr *vp,
			       const struct vperfctr_control *control)
{
	struct vperfctr_control buf;

	return vperfctr_control(vp, fixed_from_26(control, &buf));
}

/* The raw calls */

int _vperfctr_open(int creat)
{
	static const struct vperfctr_control empty;
	int dfd = open(SELF_DIR, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int has;

	if (dfd < 0 || !creat)
		return dfd;
	/* An empty control makes an idle set; an existing one is kept. */
	has = dir_has_set(dfd);
	if (!has)
		has = perfctr_control_write_at(dfd, &empty) ? -1 : 1;
	if (has < 0) {
		int saved = errno;

		close(dfd);
		errno = saved;
		return -1;
	}
	return dfd;
}

int _vperfctr_control(int fd, const struct vperfctr_control *control)
{
	struct vperfctr_control buf;

	if (!fd_is_perfctr(fd))
		return -1;
	return perfctr_control_write_at(fd, fixed_from_26(control, &buf));
}

int _vperfctr_read_control(int fd, struct vperfctr_control *control)
{
	if (!fd_is_perfctr(fd))
		return -1;
	return perfctr_control_read_at(fd, control);
}

int _vperfctr_read_sum(int fd, struct perfctr_sum_ctrs *sum)
{
	if (!fd_is_perfctr(fd))
		return -1;
	return dir_io(fd, "sums", sum, sizeof(*sum), 0);
}

/* The calling thread's set */

struct vperfctr *vperfctr_open_mode(unsigned int mode)
{
	int has;

	if (mode != 0 && mode != VPERFCTR_OPEN_CREAT_EXCL) {
		errno = EINVAL;
		return NULL;
	}
	has = path_has_set(SELF_DIR);
	if (has < 0)
		return NULL;
	if (mode == 0 && !has) {
		errno = ENOENT;
		return NULL;
	}
	if (mode == VPERFCTR_OPEN_CREAT_EXCL && has) {
		errno = EEXIST;
		return NULL;
	}
	return vperfctr_open();
}

int vperfctr_info(const struct vperfctr *vp, struct perfctr26_info *info)
{
	(void)vp;
	return perfctr_get_info(info);
}

struct perfctr_cpus_info *vperfctr_cpus_info(const struct vperfctr *vp)
{
	(void)vp;
	return perfctr_cpus_info(-1);
}

/* 2.6 allowed a NULL control: only the sums are read then. */
int vperfctr_read_state(const struct vperfctr *vp,
			struct perfctr_sum_ctrs *sum,
			struct vperfctr_control *control)
{
	if (vperfctr_read_sums(vp, sum))
		return -1;
	return control ? vperfctr_read_control(vp, control) : 0;
}

/* An empty control, preserve 0: the counters stop and the sums are 0. */
int vperfctr_stop(const struct vperfctr *vp)
{
	static const struct vperfctr_control empty;

	return vperfctr_control(vp, &empty);
}

/* Counting now: the state page's cstatus, or the status file's word. */
int vperfctr_is_running(const struct vperfctr *vp)
{
	const struct vperfctr_state *st = vperfctr_state(vp);
	char buf[64];

	if (st)
		return __atomic_load_n(&st->cpu_state.cstatus,
				       __ATOMIC_RELAXED) != 0;
	if (vperfctr_read_status(vp, buf, sizeof(buf)))
		return 0;
	return !strcmp(buf, "running");
}

/*
 * Another thread's set. A struct rvperfctr is the struct vperfctr of a
 * handle that vperfctr_open_tid() made: it begins with one because it is
 * one, so PAPI's casts of a vperfctr to an rvperfctr keep working.
 */
static const struct vperfctr *rv_vp(const struct rvperfctr *rv)
{
	return (const struct vperfctr *)rv;
}

/* 2.6 refused a thread that already had a set (EEXIST), as here. */
struct rvperfctr *rvperfctr_open(int pid)
{
	char dir[64];
	int has;

	if (pid <= 0) {
		errno = EINVAL;
		return NULL;
	}
	snprintf(dir, sizeof(dir), PERFCTR_ROOT "/%d", pid);
	has = path_has_set(dir);
	if (has < 0)
		return NULL;
	if (has) {
		errno = EEXIST;
		return NULL;
	}
	return (struct rvperfctr *)vperfctr_open_tid(pid);
}

int rvperfctr_pid(const struct rvperfctr *rv)
{
	return vperfctr_tid(rv_vp(rv));
}

int rvperfctr_info(const struct rvperfctr *rv, struct perfctr26_info *info)
{
	return vperfctr_info(rv_vp(rv), info);
}

/* The sums file: it reads the final counts after the thread is reaped. */
int rvperfctr_read_ctrs(const struct rvperfctr *rv,
			struct perfctr_sum_ctrs *sum)
{
	return vperfctr_read_sums(rv_vp(rv), sum);
}

int rvperfctr_read_state(const struct rvperfctr *rv,
			 struct perfctr_sum_ctrs *sum,
			 struct vperfctr_control *control)
{
	return vperfctr_read_state(rv_vp(rv), sum, control);
}

int rvperfctr_control(const struct rvperfctr *rv,
		      struct vperfctr_control *control)
{
	return perfctr26_vperfctr_control(rv_vp(rv), control);
}

int rvperfctr_stop(const struct rvperfctr *rv)
{
	return vperfctr_stop(rv_vp(rv));
}

int rvperfctr_iresume(const struct rvperfctr *rv)
{
	return vperfctr_iresume(rv_vp(rv));
}

int rvperfctr_unlink(const struct rvperfctr *rv)
{
	return vperfctr_unlink(rv_vp(rv));
}

void rvperfctr_close(struct rvperfctr *rv)
{
	vperfctr_close((struct vperfctr *)rv);
}

/*
 * Global mode. 2.6 took a control per CPU; /proc/perfctr/global takes one
 * for all (global.rst). The handle keeps the controls gperfctr_control()
 * gave; gperfctr_start() writes them if they are one and the same control.
 */
struct gperfctr {
	int fd;
	unsigned int nr_cpus;
	unsigned char *has_control;	/* nr_cpus flags */
	struct perfctr_cpu_control *control;	/* nr_cpus controls */
};

static unsigned int nr_cpu_ids(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? n : 1;
}

struct gperfctr *gperfctr_open(void)
{
	struct gperfctr *gp = calloc(1, sizeof(*gp));

	if (!gp)
		return NULL;
	gp->nr_cpus = nr_cpu_ids();
	gp->has_control = calloc(gp->nr_cpus, 1);
	gp->control = calloc(gp->nr_cpus, sizeof(*gp->control));
	gp->fd = open(GLOBAL_PATH, O_RDWR | O_CLOEXEC);
	if (!gp->has_control || !gp->control || gp->fd < 0) {
		gperfctr_close(gp);
		return NULL;
	}
	return gp;
}

void gperfctr_close(struct gperfctr *gp)
{
	int saved = errno;

	if (!gp)
		return;
	if (gp->fd >= 0)
		close(gp->fd);
	free(gp->has_control);
	free(gp->control);
	free(gp);
	errno = saved;
}

int gperfctr_control(const struct gperfctr *cgp,
		     struct gperfctr_cpu_control *control)
{
	struct gperfctr *gp = (struct gperfctr *)cgp;	/* the handle's cache */

	if (control->cpu >= gp->nr_cpus) {
		errno = EINVAL;
		return -1;
	}
	gp->control[control->cpu] = control->cpu_control;
	gp->has_control[control->cpu] = 1;
	return 0;
}

static int global_write(int fd, const struct perfctr_cpu_control *c)
{
	ssize_t n = pwrite(fd, c, PERFCTR_CPU_CONTROL_SIZE_1_0, 0);

	if (n < 0)
		return -1;
	if (n != PERFCTR_CPU_CONTROL_SIZE_1_0) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* The sampling interval is the module's own, 50 ms: @interval_usec aside. */
int gperfctr_start(const struct gperfctr *gp, unsigned int interval_usec)
{
	const struct perfctr_cpu_control *first = NULL;
	unsigned int cpu;

	(void)interval_usec;
	for (cpu = 0; cpu < gp->nr_cpus; cpu++) {
		if (!gp->has_control[cpu])
			continue;
		if (!first) {
			first = &gp->control[cpu];
		} else if (memcmp(first, &gp->control[cpu], sizeof(*first))) {
			errno = EINVAL;	/* one control for every CPU */
			return -1;
		}
	}
	if (!first) {
		errno = EINVAL;
		return -1;
	}
	return global_write(gp->fd, first);
}

int gperfctr_stop(const struct gperfctr *gp)
{
	static const struct perfctr_cpu_control empty;

	return global_write(gp->fd, &empty);
}

int gperfctr_read(const struct gperfctr *gp, struct gperfctr_cpu_state *state)
{
	off_t off = (off_t)state->cpu * sizeof(state->sum);
	ssize_t n;

	if (state->cpu >= gp->nr_cpus) {
		errno = EINVAL;
		return -1;
	}
	/* Offset 0 takes a new snapshot; this CPU's entry follows. */
	n = pread(gp->fd, &state->sum, sizeof(state->sum), 0);
	if (n >= 0 && off)
		n = pread(gp->fd, &state->sum, sizeof(state->sum), off);
	if (n < 0)
		return -1;
	if ((size_t)n != sizeof(state->sum)) {
		errno = EIO;
		return -1;
	}
	state->cpu_control = gp->control[state->cpu];
	return 0;
}

int gperfctr_info(const struct gperfctr *gp, struct perfctr26_info *info)
{
	(void)gp;
	return perfctr_get_info(info);
}

struct perfctr_cpus_info *gperfctr_cpus_info(const struct gperfctr *gp)
{
	(void)gp;
	return perfctr_cpus_info(-1);
}

/* Information */

#if defined(__x86_64__) || defined(__i386)
/* The module's family ids (x86.rst) as 2.6 numbered the CPUs. */
static unsigned int x86_intel_p6(unsigned int model)
{
	if (model == 1)
		return PERFCTR_X86_INTEL_P6;
	if (model <= 6)
		return PERFCTR_X86_INTEL_PII;
	if (model == 9 || model == 13)
		return PERFCTR_X86_INTEL_PENTM;
	if (model == 14)
		return PERFCTR_X86_INTEL_CORE;
	return PERFCTR_X86_INTEL_PIII;
}

static unsigned int x86_intel_arch(unsigned int model)
{
	switch (model) {
	case 14:
		return PERFCTR_X86_INTEL_CORE;
	case 15: case 22: case 23: case 29:
		return PERFCTR_X86_INTEL_CORE2;
	case 28: case 38: case 39: case 53: case 54:
		return PERFCTR_X86_INTEL_ATOM;
	case 37: case 44: case 47:
		return PERFCTR_X86_INTEL_WSTMR;
	default:	/* Nehalem, and the Cores 2.6 never knew */
		return PERFCTR_X86_INTEL_NHLM;
	}
}

static unsigned int x86_intel_p4(unsigned int model)
{
	if (model <= 1)
		return PERFCTR_X86_INTEL_P4;
	return model == 2 ? PERFCTR_X86_INTEL_P4M2 : PERFCTR_X86_INTEL_P4M3;
}

static unsigned int cpu_type_of(const struct perfctr_info *in)
{
	/* By family id; 0 where the model decides, below. */
	static const unsigned char by_family[] = {
		[1] = PERFCTR_X86_INTEL_P5,
		[2] = PERFCTR_X86_INTEL_P5MMX,
		[6] = PERFCTR_X86_AMD_K7,
		[7] = PERFCTR_X86_AMD_K8,
		[8] = PERFCTR_X86_AMD_FAM10H,
		[9] = PERFCTR_X86_CYRIX_MII,
		[11] = PERFCTR_X86_VIA_C3,
	};
	unsigned int id = in->cpu_family_id, model;

	if (sscanf(in->cpuid, "%*[^-]-%*u-%x", &model) != 1)
		model = 0;
	switch (id) {
	case 3:
		return x86_intel_p6(model);
	case 4:
		return x86_intel_arch(model);
	case 5:
		return x86_intel_p4(model);
	case 10:
		return model == 4 ? PERFCTR_X86_WINCHIP_C6 :
		       PERFCTR_X86_WINCHIP_2;
	}
	return id < sizeof(by_family) ? by_family[id] : PERFCTR_X86_GENERIC;
}
#else
static unsigned int cpu_type_of(const struct perfctr_info *in)
{
	/* 604 and 604e share a family id; the PVR's version tells. */
	static const unsigned char by_family[] = {
		[2] = PERFCTR_PPC_750,
		[3] = PERFCTR_PPC_7400,
		[4] = PERFCTR_PPC_7450,
	};
	unsigned int id = in->cpu_family_id;

	if (id == 1)
		return (strtoul(in->cpuid, NULL, 16) >> 16) == 4 ?
		       PERFCTR_PPC_604 : PERFCTR_PPC_604e;
	return id < sizeof(by_family) ? by_family[id] : PERFCTR_PPC_GENERIC;
}
#endif

int perfctr_get_info(struct perfctr26_info *info)
{
	struct perfctr_info in;

	if (perfctr_info(&in))
		return -1;
	memset(info, 0, sizeof(*info));
	info->abi_version = PERFCTR26_ABI_VERSION;
	snprintf(info->driver_version, sizeof(info->driver_version), "%s",
		 in.version);
	info->cpu_type = cpu_type_of(&in);
	info->cpu_features = in.features & (PERFCTR_FEATURE_RDPMC |
					    PERFCTR_FEATURE_RDTSC |
					    PERFCTR_FEATURE_PCINT);
	info->cpu_khz = in.cpu_khz;
	info->tsc_to_cpu_mult = in.tsc_to_cpu_mult;
	return 0;
}

int perfctr26_info(int fd, struct perfctr26_info *info)
{
	if (!fd_is_perfctr(fd))
		return -1;
	return perfctr_get_info(info);
}

/* The library speaks 2.6's ABI 5.2 with this arch's control layout. */
int _perfctr_abi_check_fd(int fd, unsigned int user_abi_version)
{
	if (!fd_is_perfctr(fd))
		return -1;
	if (user_abi_version != PERFCTR26_ABI_VERSION) {
		errno = EPROTO;
		return -1;
	}
	return 0;
}

/*
 * The running module's count and name where @info describes its CPU (the
 * only one a program sees), else 0 and 2.6's name of the type.
 */
static int info_is_live(const struct perfctr26_info *info,
			struct perfctr_info *in)
{
	return !perfctr_info(in) && cpu_type_of(in) == info->cpu_type;
}

unsigned int perfctr_info_nrctrs(const struct perfctr26_info *info)
{
	struct perfctr_info in;

	return info_is_live(info, &in) ? in.nrctrs : 0;
}

const char *perfctr_info_cpu_name(const struct perfctr26_info *info)
{
	static char name[sizeof(((struct perfctr_info *)0)->cpu_type)];
	struct perfctr_info in;

	if (!info_is_live(info, &in))
		return "unknown";
	memcpy(name, in.cpu_type, sizeof(name));
	return name;
}

void perfctr_info_print(const struct perfctr26_info *info)
{
	static const char *const features[] = { "rdpmc", "rdtsc", "pcint" };
	unsigned int i;

	printf("abi_version\t\t0x%08X\n", info->abi_version);
	printf("driver_version\t\t%s\n", info->driver_version);
	printf("cpu_type\t\t%u (%s)\n", info->cpu_type,
	       perfctr_info_cpu_name(info));
	printf("cpu_features\t\t0x%x", info->cpu_features);
	for (i = 0; i < 3; i++)
		if (info->cpu_features & (1U << i))
			printf(" %s", features[i]);
	printf("\ncpu_khz\t\t\t%u\n", info->cpu_khz);
	printf("tsc_to_cpu_mult\t\t%u\n", info->tsc_to_cpu_mult);
	printf("cpu_nrctrs\t\t%u\n", perfctr_info_nrctrs(info));
}

/* CPU sets */

/* Sets bit n of @m for each CPU of list @s ("0-3,6"); -1 on a bad list. */
static int mask_parse(struct perfctr_cpu_mask *m, const char *s)
{
	while (*s && *s != '\n') {
		char *end;
		unsigned long lo = strtoul(s, &end, 10), hi = lo;

		if (end == s)
			return -1;
		if (*end == '-')
			hi = strtoul(end + 1, &end, 10);
		for (; lo <= hi && lo / 32 < m->nrwords; lo++)
			m->mask[lo / 32] |= 1U << (lo % 32);
		s = end + (*end == ',');
	}
	return 0;
}

static int read_line(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = !!fgets(buf, size, f);
	fclose(f);
	if (!ok) {
		errno = EIO;
		return -1;
	}
	return 0;
}

/* @fd is 2.6's; -1 (the handles' calls) means the module's own files. */
struct perfctr_cpus_info *perfctr_cpus_info(int fd)
{
	unsigned int words = (nr_cpu_ids() + 31) / 32;
	size_t msize = sizeof(struct perfctr_cpu_mask) +
		       (words - 1) * sizeof(unsigned int);
	struct perfctr_cpus_info *ci;
	struct perfctr_info in;
	char online[256];

	if ((fd >= 0 && !fd_is_perfctr(fd)) || perfctr_info(&in) ||
	    read_line(ONLINE_PATH, online, sizeof(online)))
		return NULL;
	ci = calloc(1, sizeof(*ci) + 2 * msize);
	if (!ci)
		return NULL;
	ci->cpus = (struct perfctr_cpu_mask *)(ci + 1);
	ci->cpus_forbidden = (struct perfctr_cpu_mask *)
			     ((char *)ci->cpus + msize);
	ci->cpus->nrwords = words;
	ci->cpus_forbidden->nrwords = words;
	if (mask_parse(ci->cpus, online) ||
	    mask_parse(ci->cpus_forbidden, in.cpus_forbidden)) {
		free(ci);
		errno = EPROTO;
		return NULL;
	}
	return ci;
}

static void mask_print(const char *what, const struct perfctr_cpu_mask *m)
{
	unsigned int i;

	printf("%s\t\t[", what);
	for (i = 0; i < m->nrwords; i++)
		printf("%s0x%08x", i ? ", " : "", m->mask[i]);
	printf("]\n");
}

void perfctr_cpus_info_print(const struct perfctr_cpus_info *info)
{
	mask_print("cpus", info->cpus);
	mask_print("cpus_forbidden", info->cpus_forbidden);
}

void perfctr_cpu_control_print(const struct perfctr_cpu_control *c)
{
	unsigned int i, n = c->nractrs + c->nrictrs;

	printf("tsc_on\t\t\t%u\n", c->tsc_on);
	printf("nractrs\t\t\t%u\n", c->nractrs);
	printf("nrictrs\t\t\t%u\n", c->nrictrs);
	for (i = 0; i < n && i < PERFCTR_NR_PMCS; i++) {
		printf("pmc_map[%u]\t\t0x%08x\n", i, c->pmc_map[i]);
		printf("evntsel[%u]\t\t0x%08x\n", i, c->evntsel[i]);
#if defined(__x86_64__) || defined(__i386)
		if (c->evntsel_high[i])
			printf("evntsel_high[%u]\t0x%08x\n", i,
			       c->evntsel_high[i]);
		if (c->p4.escr[i])
			printf("escr[%u]\t\t\t0x%08x\n", i, c->p4.escr[i]);
#endif
		if (i >= c->nractrs)
			printf("ireset[%u]\t\t%d\n", i, c->ireset[i]);
	}
#if defined(__x86_64__) || defined(__i386)
	if (c->p4.pebs_enable)
		printf("pebs_enable\t\t0x%08x\n", c->p4.pebs_enable);
	if (c->p4.pebs_matrix_vert)
		printf("pebs_matrix_vert\t0x%08x\n", c->p4.pebs_matrix_vert);
#else
	printf("mmcr0\t\t\t0x%08x\n", c->ppc.mmcr0);
	printf("mmcr2\t\t\t0x%08x\n", c->ppc.mmcr2);
#endif
}

/* Event descriptions: the named-event table of this CPU (events.rst). */

static int event_code(const char *enc, const char *key, unsigned int *val)
{
	const char *p = strstr(enc, key);

	if (!p)
		return 0;
	*val = strtoul(p + strlen(key), NULL, 0);
	return 1;
}

struct event_fill {
	struct perfctr_event *ev;
	unsigned int n, max;
};

static unsigned int counters_of(const char *list)
{
	unsigned int set = 0;

	while (*list) {
		char *end;
		unsigned long n = strtoul(list, &end, 10);

		if (end == list)
			break;
		if (n < 16)
			set |= 1U << n;
		list = end + (*end == ',');
	}
	return set;
}

/* Events with an event code and unit mask of 8 bits each, as 2.6 had. */
static int event_add(const struct perfctr_event_info *e, void *arg)
{
	struct event_fill *f = arg;
	unsigned int code = 0, umask = 0;

	if (e->unsupported || !event_code(e->encoding, "event=", &code) ||
	    code > 0xff)
		return 0;
	event_code(e->encoding, "umask=", &umask);
	if (umask > 0xff)
		return 0;
	if (f->ev) {
		f->ev[f->n].evntsel = code | umask << 8;
		f->ev[f->n].counters_set = counters_of(e->counters);
		f->ev[f->n].name = e->name;
		f->ev[f->n].description = e->desc;
	}
	f->n++;
	return 0;
}

/*
 * Built once, for the CPU being run on: 2.6 described the others too, but
 * a program can only count on this one. Never freed, as 2.6's were static.
 */
const struct perfctr26_event_set *perfctr_cpu_event_set(unsigned int cpu_type)
{
	static struct perfctr26_event_set set;
	static struct event_fill fill;
	const struct perfctr_event_table *t;
	struct perfctr_info in;
	char cpuid[64];

	if (perfctr_info(&in))
		return NULL;
	if (cpu_type != cpu_type_of(&in)) {
		errno = ENOENT;
		return NULL;
	}
	if (set.events)
		return &set;
	if (perfctr_cpuid(cpuid, sizeof(cpuid)))
		return NULL;
	t = perfctr_event_table(cpuid);
	if (!t)
		return NULL;
	fill.ev = NULL;
	fill.n = 0;
	perfctr_event_list(t, NULL, event_add, &fill);
	fill.ev = calloc(fill.n ? fill.n : 1, sizeof(*fill.ev));
	if (!fill.ev)
		return NULL;
	fill.n = 0;
	perfctr_event_list(t, NULL, event_add, &fill);
	set.cpu_type = cpu_type;
	set.event_prefix = "";
	set.nevents = fill.n;
	set.events = fill.ev;
	return &set;
}
