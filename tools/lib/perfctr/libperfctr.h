/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfctr: user-space access to perfctr's virtual per-thread counters
 * (/proc/perfctr/<tid>/) and to the driver information
 * (/proc/perfctr/info). See Documentation/perfctr/libperfctr.rst.
 *
 * Functions that can fail return 0 or a pointer on success and -1 or
 * NULL with errno set (the kernel's errno where the kernel refused).
 */
#ifndef _LIBPERFCTR_H
#define _LIBPERFCTR_H

#include <sys/types.h>
#include <perfctr/perfctr.h>
#include <perfctr/ibs.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Where the perfctr file system is mounted. */
#define PERFCTR_ROOT	"/proc/perfctr"

#ifdef PERFCTR_API_2_6
/*
 * perfctr 2.6's API (libperfctr.rst, "Programs written for perfctr 2.6"):
 * its types under their 2.6 names and its ABI version; the calls it
 * shares with this project's API follow both.
 */
#include "libperfctr26.h"

#define perfctr_info		perfctr26_info
#define perfctr_event_set	perfctr26_event_set
#define perfctr_cpu_state	perfctr_cpu_state_user
/* A function-like macro: struct vperfctr_control keeps its name. */
#define vperfctr_control(vp, control) \
	perfctr26_vperfctr_control((vp), (control))
#undef PERFCTR_ABI_VERSION
#define PERFCTR_ABI_VERSION	PERFCTR26_ABI_VERSION
#define PERFCTR_API_VERSION	PERFCTR26_API_VERSION
#define PERFCTR_CPU_VERSION	PERFCTR26_CPU_VERSION

static inline int perfctr_abi_check_fd(int fd)
{
	return _perfctr_abi_check_fd(fd, PERFCTR_ABI_VERSION);
}

#else /* this project's API */

/* /proc/perfctr/info, parsed. */
struct perfctr_info {
	char version[32];
	unsigned int abi_version;
	char cpu_type[64];
	unsigned int cpu_family_id;
	unsigned int features;		/* PERFCTR_FEATURE_* */
	unsigned int cpu_khz;
	unsigned int tsc_to_cpu_mult;
	unsigned int nrctrs;
	char cpus_forbidden[64];	/* a CPU list, "" if none */
	char fallback[128];		/* "none", or why only the TSC works */
	int paranoid;			/* perfctr.paranoid */
	char reserved_by[128];		/* who holds the counters, or "none" */
	char cpuid[64];			/* perf's CPU id (events.rst) */
	unsigned int ibs_caps;		/* PERFCTR_IBS_CAP_*; 0: no IBS */
	int reclaim_hold;		/* 1: sets are held off (reclaim) */
};

int perfctr_info(struct perfctr_info *info);

/*
 * The kernel's NMI watchdog as /proc/sys/kernel/nmi_watchdog says: 1 on
 * (on x86 it holds the counters through perf_events), 0 off; -1 with
 * errno where it cannot be read (ENOENT: this kernel has none).
 */
int perfctr_nmi_watchdog(void);

/*
 * Why perfctr refused a request with errno @err, and what to change, as
 * one sentence; NULL where it has nothing to add to strerror(@err).
 */
const char *perfctr_explain(int err);

/*
 * Parses a counter given as PMC:EVNTSEL[:HIGH] (HIGH: the event select's
 * upper half, x86 only; numbers in C syntax) into @c's next a-mode
 * counter and counts it in nractrs. EINVAL, with @c untouched, for a
 * malformed @arg (an empty or signed field, one over 32 bits, trailing
 * text) or one counter too many.
 */
int perfctr_parse_counter(struct perfctr_cpu_control *c, const char *arg);

struct vperfctr;

/* Another thread's (ptrace-attach permission needed); no state page. */
struct vperfctr *vperfctr_open_tid(pid_t tid);
/* The thread the handle was opened for, as its opener named it. */
pid_t vperfctr_tid(const struct vperfctr *vp);

/*
 * Passing a handle to another process: vperfctr_send() sends its files
 * (control, sums, command, status, children, and tree where the module
 * has it) and its tid as one message
 * on a connected AF_UNIX socket (SCM_RIGHTS). vperfctr_receive() makes a
 * remote handle (no state page) of them, refusing anything else with
 * ENOMSG (the peer closed), EPROTO (not five or six descriptors, or truncated)
 * or EBADMSG (not the payload, or not perfctr's files as opened by
 * vperfctr_open()); it closes whatever descriptors came. The descriptors
 * go on working after the thread exits: they read its final counts.
 */
int vperfctr_send(const struct vperfctr *vp, int sock);
struct vperfctr *vperfctr_receive(int sock);

int vperfctr_read_control(const struct vperfctr *vp,
			  struct vperfctr_control *ctl);

/* One read() of the sums file: always exact, costs a system call. */
int vperfctr_read_sums(const struct vperfctr *vp,
		       struct perfctr_sum_ctrs *sums);

/*
 * <tid>/children: what the members of an inheriting set's tree that have
 * exited added up to (VPERFCTR_CONTROL_INHERIT). The whole count is the
 * sums plus these. EOPNOTSUPP where the module has no children file.
 */
int vperfctr_read_children(const struct vperfctr *vp,
			   struct vperfctr_children *ch);

/*
 * <tid>/tree (ABI 1.2): the same total with the live members' sums in
 * it, each as of its last sample, for counts while a command runs.
 * EOPNOTSUPP where the module has no tree file.
 */
int vperfctr_read_tree(const struct vperfctr *vp, struct vperfctr_children *ch);

/* Commands (VPERFCTR_CMD_*); vperfctr_iresume() and _unlink() below. */
int vperfctr_suspend(const struct vperfctr *vp);
int vperfctr_resume(const struct vperfctr *vp);
int vperfctr_clear(const struct vperfctr *vp);

/*
 * The set's state as <tid>/status says it, without the newline: "none",
 * "idle", "running" or "stopped: <why>[,<why>...]" (suspended, overflow,
 * forbidden-cpu, evicted, exec, exited, notsc).
 */
int vperfctr_read_status(const struct vperfctr *vp, char *buf, size_t size);

/* The mapped state page, or NULL (remote handles). */
const struct vperfctr_state *vperfctr_state(const struct vperfctr *vp);

/*
 * AMD Instruction-Based Sampling of the handle's thread (<perfctr/ibs.h>,
 * amd.rst). The control is written and read whole; flags 0 stops IBS
 * and frees its ring. ENOENT: a module without IBS files; EBADF: a
 * received handle, which has no directory to open ibs in.
 */
int vperfctr_ibs_control(struct vperfctr *vp,
			 const struct perfctr_ibs_control *c);
int vperfctr_read_ibs_control(struct vperfctr *vp,
			      struct perfctr_ibs_control *c);

/*
 * The thread's sample ring (<tid>/ibs_ring), mapped read-only. It stays
 * readable after the thread exits, until closed. ENODATA: the thread has
 * no IBS set up.
 */
struct vperfctr_ibs_ring;

struct vperfctr_ibs_ring *vperfctr_ibs_ring_open(struct vperfctr *vp);
void vperfctr_ibs_ring_close(struct vperfctr_ibs_ring *r);
/* The ring's header page (magic, head, tail, lost, ...) as mapped. */
const struct perfctr_ibs_ring *
vperfctr_ibs_header(const struct vperfctr_ibs_ring *r);

/*
 * Copies up to @max of the oldest samples to @buf and hands their slots
 * back to the kernel (writes the new tail); returns how many (0: none
 * yet) or -1.
 */
int vperfctr_ibs_drain(struct vperfctr_ibs_ring *r,
		       struct perfctr_ibs_sample *buf, unsigned int max);

/* The ring's counts, as of now. */
struct vperfctr_ibs_stats {
	unsigned long long head;	/* samples written, ever */
	unsigned long long tail;	/* of them consumed */
	unsigned long long lost;	/* dropped: the ring was full */
	unsigned long long filtered;	/* kernel samples dropped */
	unsigned long long busy;	/* perf's IBS held the CPU */
};

void vperfctr_ibs_stats(const struct vperfctr_ibs_ring *r,
			struct vperfctr_ibs_stats *st);

/*
 * Passing a ring to another process, as vperfctr_send() does a handle:
 * one message with the ibs_ring descriptor; the receiver maps it.
 * vperfctr_ibs_ring_receive() refuses what vperfctr_receive() refuses,
 * with the same errnos (one descriptor, not five).
 */
int vperfctr_ibs_ring_send(const struct vperfctr_ibs_ring *r, int sock);
struct vperfctr_ibs_ring *vperfctr_ibs_ring_receive(int sock);

/*
 * Named events (Documentation/perfctr/events.rst).
 *
 * The CPU id that picks the event table, as perf writes it: the
 * environment's PERFCTR_CPUID if set, else the one /proc/perfctr/info
 * gives, else the CPU's own (CPUID, the PVR).
 */
int perfctr_cpuid(char *buf, size_t size);

struct perfctr_event_table;

/* The table of @cpuid: the first mapfile row that matches. ENOENT. */
const struct perfctr_event_table *perfctr_event_table(const char *cpuid);
/* Its directory's name, and whether it came from perf's own tables. */
const char *perfctr_event_table_name(const struct perfctr_event_table *t);
int perfctr_event_table_imported(const struct perfctr_event_table *t);

struct perfctr_event_info {
	const char *name;
	const char *desc;
	const char *unsupported;	/* why it cannot be used, or NULL */
	char encoding[96];		/* "event=0xc0,umask=0x0,..." */
	char counters[64];		/* where it may count */
	char generic[96];		/* perf's generic names it implements */
};

/*
 * Calls @fn for each event of @t whose name matches @glob (fnmatch(3),
 * case ignored; NULL: every event), in table order, until @fn returns
 * non-zero, which is then returned. 0 otherwise.
 */
int perfctr_event_list(const struct perfctr_event_table *t, const char *glob,
		       int (*fn)(const struct perfctr_event_info *, void *),
		       void *arg);

/* What an event counts when it has no :u or :k. */
#define PERFCTR_EVENT_USER	0x1
#define PERFCTR_EVENT_KERNEL	0x2

struct perfctr_event_set {
	unsigned int nr;
	struct {
		char text[128];		/* the event as given */
		unsigned int counter;	/* its index in cpu_control */
	} ev[PERFCTR_NR_PMCS];
	char error[1024];		/* why encoding failed, and what to do */
};

/*
 * Encodes @events, a comma-separated list in perf's syntax (events.rst),
 * for @t into @ctl, which it clears first: tsc_on, then one a-mode
 * counter per event, each on a counter it may use, and any counter the
 * family needs besides (the P6's counter 0). @set says which counter
 * holds which event. -1 with errno, @set->error saying why: EINVAL
 * (syntax), ENOENT (no such event, with the nearest names), EOPNOTSUPP
 * (this CPU cannot count it so), ENOSPC (the set does not fit: each
 * event's counters named).
 */
int perfctr_event_encode(const struct perfctr_event_table *t,
			 const char *events, unsigned int modes,
			 struct vperfctr_control *ctl,
			 struct perfctr_event_set *set);

#endif /* PERFCTR_API_2_6 */

/* The calls of both APIs, with the same arguments (2.6's const handles). */
struct vperfctr;

/* The calling thread's counters. The state page is mapped. */
struct vperfctr *vperfctr_open(void);
void vperfctr_close(struct vperfctr *vp);
/* The name in parentheses: 2.6 mode's macro of the name stays out. */
int (vperfctr_control)(const struct vperfctr *vp,
		       const struct vperfctr_control *ctl);

/*
 * The fast path, for vperfctr_open() handles: the sums from the state
 * page, plus what the running counters added since they were last
 * resumed (RDTSC, RDPMC), retried until the page's sequence counter
 * shows a consistent view. Without a usable RDPMC (or RDTSC) it falls
 * back to vperfctr_read_sums().
 */
int vperfctr_read_ctrs(const struct vperfctr *vp,
		       struct perfctr_sum_ctrs *sums);
unsigned long long vperfctr_read_tsc(const struct vperfctr *vp);
unsigned long long vperfctr_read_pmc(const struct vperfctr *vp,
				     unsigned int i);
int vperfctr_iresume(const struct vperfctr *vp);
int vperfctr_unlink(const struct vperfctr *vp);

#ifdef __cplusplus
}
#endif

#endif /* _LIBPERFCTR_H */
