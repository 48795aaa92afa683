/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * perfctr_fuzz: random and boundary requests to every perfctr file and
 * ioctl, with the rule that a refused request changes nothing
 * (Documentation/perfctr/testing.rst, "The fuzzer").
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stddef.h>
#include <linux/types.h>
#include <sys/types.h>

#include <perfctr/perfctr.h>
#include <perfctr/ibs.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* A request's outcome: 0 accepted, else the errno it was refused with. */
struct fuzz_req {
	const char *what;	/* for -v and for a violation's report */
	int err;
};

/* The fuzzer's own generator: the same seed gives the same requests. */
__u64 rnd(void);
__u32 rnd_below(__u32 n);
__u32 rnd_u32(void);
__u32 rnd_pick(const __u32 *v, size_t n);
void rnd_fill(void *buf, size_t len);
void rnd_seed(__u64 seed);

/* Buffers: a page whose end touches an inaccessible page (EFAULT cases). */
void *fuzz_buf(size_t len);
void *fuzz_bad_ptr(void);

/* The files of the fuzzing thread, opened once (fd < 0: unavailable). */
enum vfile { VF_CONTROL, VF_SUMS, VF_STATE, VF_COMMAND, VF_STATUS,
	     VF_CHILDREN, VF_IBS, VF_IBS_RING, VF_TREE, VF_NR };
extern const char *const vfile_name[VF_NR];
extern int vfd[VF_NR];
extern int global_fd;
extern int perfmon_fd;
extern pid_t other_tid;	/* a sleeping child: another thread's files */
void fuzz_open_files(void);
int fuzz_open_file(pid_t tid, const char *name, int flags);

/* Generated inputs (gen.c); accepted ones join the corpus. */
void gen_cpu_control(struct perfctr_cpu_control *c);
void gen_vcontrol(struct vperfctr_control *vc);
void gen_ibs(struct perfctr_ibs_control *ic);
void gen_keep_cpu_control(const struct perfctr_cpu_control *c);
__u32 gen_size(size_t exact);
off_t gen_offset(size_t exact);
__u32 gen_signo(void);

/* The requests of each area; each fills in req and returns it. */
void req_vperfctr(struct fuzz_req *r);
void req_state(struct fuzz_req *r);
void req_global(struct fuzz_req *r);
void req_perfmon(struct fuzz_req *r);
void req_ibs(struct fuzz_req *r);
void req_ibs_ring(struct fuzz_req *r);

/* Everything a refused request must leave as it was (snap.c). */
struct snap;
struct snap *snap_new(void);
void snap_take(struct snap *s);
int snap_diff(const struct snap *a, const struct snap *b, char *why,
	      size_t len);
/* After fuzz_settle(): the set still counts its TSC (/dev/perfmon's). */
extern int set_running;
/* Stops what an accepted request started, so that nothing counts. */
void fuzz_settle(void);
/* Mappings that mprotect() made writable: each one a violation. */
unsigned long fuzz_writable_mappings(void);
/* The thread's IBS ring header, mapped after each settle, or NULL. */
const struct perfctr_ibs_ring *fuzz_ring(void);
/* The state page, mapped again after a request that may replace it. */
void state_remap(void);

extern int verbose;

#endif /* FUZZ_H */
