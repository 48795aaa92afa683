// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr x86: AMD Instruction-Based Sampling, the low-level half (see
 * include/perfctr/cpu.h and Documentation/perfctr/amd.rst).
 *
 * Two engines, fetch and op, each count to a MaxCnt, latch one sample
 * (their Val bit), stop and raise an interrupt through the extended APIC
 * LVT entry IbsCtl names. We take that interrupt as an NMI, hand the
 * sample to the high-level driver and restart the engine. perf's IBS PMU
 * uses the same registers: an engine enabled with a value that is not
 * the resumed state's is perf's, and we neither take nor touch it.
 * Register layouts from AMD's BKDG for families 10h and 15h and the PPRs.
 *
 * Any user may write setups at will, and reserving, releasing and asking
 * whether perf's IBS is busy each call every CPU. So the reservation
 * outlives its last user by a grace period, and the busy answer is kept
 * for a while: a setup toggled on and off calls no CPU (amd.rst).
 */
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/errno.h>
#include <linux/jiffies.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/string.h>
#include <linux/workqueue.h>
#include <asm/apicdef.h>
#include <asm/nmi.h>

#include <perfctr/ibs.h>

#include "x86.h"

/* MSRC001_1030 IbsFetchCtl */
#define IBS_FETCH_MAXCNT	0x000000000000FFFFULL	/* MaxCnt[19:4] */
#define IBS_FETCH_CNT		0x00000000FFFF0000ULL	/* count[19:4] */
#define IBS_FETCH_EN		BIT_ULL(48)
#define IBS_FETCH_VAL		BIT_ULL(49)
#define IBS_FETCH_PHY_VALID	BIT_ULL(52)		/* IbsPhyAddrValid */
#define IBS_FETCH_RAND_EN	BIT_ULL(57)
/* MSRC001_1033 IbsOpCtl */
#define IBS_OP_MAXCNT		0x000000000000FFFFULL	/* MaxCnt[19:4] */
#define IBS_OP_EN		BIT_ULL(17)
#define IBS_OP_VAL		BIT_ULL(18)
#define IBS_OP_CNT_CTL		BIT_ULL(19)		/* count dispatched ops */
#define IBS_OP_MAXCNT_EXT	0x0000000007F00000ULL	/* MaxCnt[26:20] */
#define IBS_OP_CUR_CNT		0x07FFFFFF00000000ULL	/* IbsOpCurCnt */
/* MSRC001_1035 IbsOpData1, MSRC001_1037 IbsOpData3 */
#define IBS_RIP_INVALID		BIT_ULL(38)
#define IBS_DC_LIN_VALID	BIT_ULL(17)
#define IBS_DC_PHY_VALID	BIT_ULL(18)
/* MSRC001_103A IbsCtl */
#define IBS_CTL_LVT_OFFSET	0xFULL
#define IBS_CTL_LVT_VALID	BIT_ULL(8)

/* The bits of a control we wrote: with them equal, an engine is ours. */
#define IBS_FETCH_MINE	(IBS_FETCH_MAXCNT | IBS_FETCH_EN | IBS_FETCH_RAND_EN)
#define IBS_OP_MINE	(IBS_OP_MAXCNT | IBS_OP_MAXCNT_EXT | IBS_OP_EN | \
			 IBS_OP_CNT_CTL)

/* The kernel keeps four extended LVT entries (APIC_EILVT_NR_MAX). */
#define IBS_NR_EILVT	4

/* How long the reservation outlives its last user. */
#define IBS_GRACE	HZ
/* How long a busy scan's answer stands. */
#define IBS_BUSY_AGE	HZ

struct pc_ibs_cpu {
	/* The state resumed here, or NULL. */
	struct perfctr_ibs_state *cur;
	/* Suspend saw a latched sample whose NMI may still come. */
	bool late;
	/* The LVT entry is ours to give back (saved_eilvt), and NMIs work. */
	bool ready;
	u8 offset;
	u32 saved_eilvt;
	int err;		/* reserve's result on this CPU */
};

static DEFINE_PER_CPU(struct pc_ibs_cpu, pc_ibs);
static u32 pc_ibs_caps;
static bool pc_ibs_fam10;		/* stop in two writes (erratum 420) */
static perfctr_ibs_handler_t pc_ibs_handler;
static DEFINE_MUTEX(pc_ibs_lock);	/* reservations and busy scans */
static unsigned int pc_ibs_users;
static bool pc_ibs_held;		/* reserved, users or not */
static int pc_ibs_hp_state;
static atomic_t pc_ibs_foreign_cpus;
/* The last busy scan: its answer, when, and whether there was one. */
static bool pc_ibs_busy_seen;
static unsigned long pc_ibs_busy_when;
static bool pc_ibs_busy_known;

static void pc_ibs_release_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(pc_ibs_release_work, pc_ibs_release_fn);

/* AMD and Hygon, family 10h and later, with the CPUID flag. */
void pc_ibs_init(const struct pc_cpu_ident *id)
{
	pc_ibs_caps = 0;
	if (id->vendor != X86_VENDOR_AMD && id->vendor != X86_VENDOR_HYGON)
		return;
	if (id->family < 0x10 || !id->has_ibs)
		return;
	pc_ibs_caps = id->ibs_caps;
	pc_ibs_fam10 = id->family == 0x10;
	/*
	 * Without IbsFfv the leaf's flags mean nothing; every IBS CPU has
	 * fetch and op sampling (family 10h's baseline).
	 */
	if (!(pc_ibs_caps & PERFCTR_IBS_CAP_AVAIL))
		pc_ibs_caps = PERFCTR_IBS_CAP_FETCHSAM | PERFCTR_IBS_CAP_OPSAM;
}

u32 perfctr_cpu_ibs_caps(void)
{
	return pc_ibs_caps;
}

void perfctr_cpu_set_ibs_handler(perfctr_ibs_handler_t handler)
{
	WRITE_ONCE(pc_ibs_handler, handler);
}

/* A multiple of 16 from PERFCTR_IBS_MIN to @max. */
static int pc_ibs_check_maxcnt(u32 maxcnt, u32 max)
{
	if (maxcnt & 0xF || maxcnt < PERFCTR_IBS_MIN || maxcnt > max)
		return -EINVAL;
	return 0;
}

/* Flags that make no sense together, or a MaxCnt for an engine not asked. */
static int pc_ibs_check_flags(const struct perfctr_ibs_control *c)
{
	u32 f = c->flags;

	if (f & ~PERFCTR_IBS_FLAGS || !(f & (PERFCTR_IBS_FETCH | PERFCTR_IBS_OP)))
		return -EINVAL;
	if ((f & PERFCTR_IBS_FETCH_RAND) && !(f & PERFCTR_IBS_FETCH))
		return -EINVAL;
	if ((f & PERFCTR_IBS_OP_CNT_OPS) && !(f & PERFCTR_IBS_OP))
		return -EINVAL;
	if (!(f & PERFCTR_IBS_FETCH) && c->fetch_maxcnt)
		return -EINVAL;
	if (!(f & PERFCTR_IBS_OP) && c->op_maxcnt)
		return -EINVAL;
	return 0;
}

/* An engine or feature asked for that this CPU does not have. */
static int pc_ibs_check_caps(u32 f)
{
	if (!pc_ibs_caps)
		return -EOPNOTSUPP;
	if ((f & PERFCTR_IBS_FETCH) && !(pc_ibs_caps & PERFCTR_IBS_CAP_FETCHSAM))
		return -EOPNOTSUPP;
	if ((f & PERFCTR_IBS_OP) && !(pc_ibs_caps & PERFCTR_IBS_CAP_OPSAM))
		return -EOPNOTSUPP;
	if ((f & PERFCTR_IBS_OP_CNT_OPS) && !(pc_ibs_caps & PERFCTR_IBS_CAP_OPCNT))
		return -EOPNOTSUPP;
	return 0;
}

int perfctr_cpu_ibs_setup(struct perfctr_ibs_state *st,
			  const struct perfctr_ibs_control *c)
{
	u32 f = c->flags, op_max = PERFCTR_IBS_MAX;
	u64 fetch = 0, op = 0;
	int err;

	err = pc_ibs_check_flags(c);
	if (!err)
		err = pc_ibs_check_caps(f);
	if (err)
		return err;
	if (pc_ibs_caps & PERFCTR_IBS_CAP_OPCNTEXT)
		op_max = PERFCTR_IBS_MAX_EXT;
	if (f & PERFCTR_IBS_FETCH) {
		err = pc_ibs_check_maxcnt(c->fetch_maxcnt, PERFCTR_IBS_MAX);
		fetch = (c->fetch_maxcnt >> 4) | IBS_FETCH_EN;
		if (f & PERFCTR_IBS_FETCH_RAND)
			fetch |= IBS_FETCH_RAND_EN;
	}
	if (!err && (f & PERFCTR_IBS_OP)) {
		err = pc_ibs_check_maxcnt(c->op_maxcnt, op_max);
		/* MaxCnt[19:4] in bits 15:0, MaxCnt[26:20] in place. */
		op = ((c->op_maxcnt >> 4) & IBS_OP_MAXCNT) |
		     (c->op_maxcnt & IBS_OP_MAXCNT_EXT) | IBS_OP_EN;
		if (f & PERFCTR_IBS_OP_CNT_OPS)
			op |= IBS_OP_CNT_CTL;
	}
	if (err)
		return err;
	st->fetch_ctl = fetch;
	st->op_ctl = op;
	return 0;
}

/* Is the control @now the one @start began (a latched Val aside)? */
static bool pc_ibs_is(u64 start, u64 now, u64 mine)
{
	return start && !((start ^ now) & mine);
}

/* Is an engine enabled here that is not @st's? @st may be NULL. */
static bool pc_ibs_foreign(const struct perfctr_ibs_state *st, u64 fetch,
			   u64 op)
{
	if ((fetch & IBS_FETCH_EN) &&
	    !(st && pc_ibs_is(st->fetch_ctl, fetch, IBS_FETCH_MINE)))
		return true;
	return (op & IBS_OP_EN) && !(st && pc_ibs_is(st->op_ctl, op, IBS_OP_MINE));
}

static u64 pc_ibs_read_fetch_ctl(void)
{
	if (pc_ibs_caps & PERFCTR_IBS_CAP_FETCHSAM)
		return pc_rdmsr(MSR_AMD64_IBSFETCHCTL);
	return 0;
}

static u64 pc_ibs_read_op_ctl(void)
{
	if (pc_ibs_caps & PERFCTR_IBS_CAP_OPSAM)
		return pc_rdmsr(MSR_AMD64_IBSOPCTL);
	return 0;
}

static void pc_ibs_fetch_sample(struct perfctr_ibs_sample *s, u64 ctl)
{
	memset(s, 0, sizeof(*s));
	s->kind = PERFCTR_IBS_SAMPLE_FETCH;
	perfctr_cpu_read_tsc(&s->tsc);	/* none: 0, as memset left it */
	s->fetch_ctl = ctl;
	s->fetch_lin = pc_rdmsr(MSR_AMD64_IBSFETCHLINAD);
	s->valid = PERFCTR_IBS_VALID_FETCH_LIN;
	if (ctl & IBS_FETCH_PHY_VALID) {
		s->fetch_phys = pc_rdmsr(MSR_AMD64_IBSFETCHPHYSAD);
		s->valid |= PERFCTR_IBS_VALID_FETCH_PHYS;
	}
}

static void pc_ibs_op_sample(struct perfctr_ibs_sample *s, u64 ctl)
{
	memset(s, 0, sizeof(*s));
	s->kind = PERFCTR_IBS_SAMPLE_OP;
	perfctr_cpu_read_tsc(&s->tsc);	/* none: 0, as memset left it */
	s->op_ctl = ctl;
	s->op_data[0] = pc_rdmsr(MSR_AMD64_IBSOPDATA);
	s->op_data[1] = pc_rdmsr(MSR_AMD64_IBSOPDATA2);
	s->op_data[2] = pc_rdmsr(MSR_AMD64_IBSOPDATA3);
	if (!(pc_ibs_caps & PERFCTR_IBS_CAP_RIPINVALIDCHK) ||
	    !(s->op_data[0] & IBS_RIP_INVALID)) {
		s->op_rip = pc_rdmsr(MSR_AMD64_IBSOPRIP);
		s->valid |= PERFCTR_IBS_VALID_OP_RIP;
	}
	if (s->op_data[2] & IBS_DC_LIN_VALID) {
		s->dc_lin = pc_rdmsr(MSR_AMD64_IBSDCLINAD);
		s->valid |= PERFCTR_IBS_VALID_DC_LIN;
	}
	if (s->op_data[2] & IBS_DC_PHY_VALID) {
		s->dc_phys = pc_rdmsr(MSR_AMD64_IBSDCPHYSAD);
		s->valid |= PERFCTR_IBS_VALID_DC_PHYS;
	}
}

static void pc_ibs_deliver(struct perfctr_ibs_state *st,
			   struct perfctr_ibs_sample *s)
{
	perfctr_ibs_handler_t handler = READ_ONCE(pc_ibs_handler);

	if (handler)
		handler(st, s);
}

/*
 * NMI: each engine of the resumed state with a sample latched gives it
 * to the handler and starts again; writing the start value clears Val
 * and the count (RandEn randomises the count's low bits again).
 */
int pc_ibs_nmi_handler(unsigned int cmd, struct pt_regs *regs)
{
	struct pc_ibs_cpu *p = this_cpu_ptr(&pc_ibs);
	struct perfctr_ibs_state *st = READ_ONCE(p->cur);
	struct perfctr_ibs_sample s;
	bool handled = false;
	u64 ctl;

	ctl = st && st->fetch_ctl ? pc_rdmsr(MSR_AMD64_IBSFETCHCTL) : 0;
	if ((ctl & IBS_FETCH_VAL) && pc_ibs_is(st->fetch_ctl, ctl, IBS_FETCH_MINE)) {
		pc_ibs_fetch_sample(&s, ctl);
		pc_ibs_deliver(st, &s);
		pc_wrmsr(MSR_AMD64_IBSFETCHCTL, st->fetch_ctl);
		handled = true;
	}
	ctl = st && st->op_ctl ? pc_rdmsr(MSR_AMD64_IBSOPCTL) : 0;
	if ((ctl & IBS_OP_VAL) && pc_ibs_is(st->op_ctl, ctl, IBS_OP_MINE)) {
		pc_ibs_op_sample(&s, ctl);
		pc_ibs_deliver(st, &s);
		pc_wrmsr(MSR_AMD64_IBSOPCTL, st->op_ctl);
		handled = true;
	}
	/* Once only, the NMI of a sample suspend took: see there. */
	if (!handled && READ_ONCE(p->late)) {
		WRITE_ONCE(p->late, false);
		handled = true;
	}
	return handled ? NMI_HANDLED : NMI_DONE;
}

int perfctr_cpu_ibs_resume(struct perfctr_ibs_state *st)
{
	struct pc_ibs_cpu *p = this_cpu_ptr(&pc_ibs);
	struct perfctr_ibs_state *cur = READ_ONCE(p->cur);

	if (!pc_ibs_caps)
		return -EOPNOTSUPP;
	/* No interrupt here (a CPU that came up and could not set it up). */
	if (!p->ready)
		return -EBUSY;
	if (cur && cur != st)
		perfctr_cpu_ibs_suspend(cur);
	if (pc_ibs_foreign(READ_ONCE(p->cur), pc_ibs_read_fetch_ctl(),
			   pc_ibs_read_op_ctl()))
		return -EBUSY;
	/* Before the engines start: their first NMI must find @st. */
	WRITE_ONCE(p->cur, st);
	barrier();
	if (st->fetch_ctl)
		pc_wrmsr(MSR_AMD64_IBSFETCHCTL, st->fetch_ctl);
	if (st->op_ctl)
		pc_wrmsr(MSR_AMD64_IBSOPCTL, st->op_ctl);
	return 0;
}

/*
 * Stop one engine if it is still @start's: En, Val and the count
 * cleared. Family 10h clears Val and the count with the engine still
 * enabled first, else an interrupt may stay pending that nothing can
 * clear (erratum 420 of AMD's family 10h revision guide). Returns the
 * control as it was, or 0 if the engine is not ours (perf took it).
 */
static u64 pc_ibs_stop(u32 msr, u64 start, u64 mine, u64 en, u64 val_cnt)
{
	u64 ctl;

	if (!start)
		return 0;
	ctl = pc_rdmsr(msr);
	if (!pc_ibs_is(start, ctl, mine))
		return 0;
	if (pc_ibs_fam10)
		pc_wrmsr(msr, ctl & ~val_cnt);
	pc_wrmsr(msr, ctl & ~(en | val_cnt));
	return ctl;
}

/*
 * @st leaves the CPU first, with "late" set: an NMI from here on finds
 * no state and delivers nothing, so a latched sample is delivered here,
 * once, and never reaches the next state. That NMI is still claimed
 * (once), as "late" stays set only if a sample was latched.
 */
void perfctr_cpu_ibs_suspend(struct perfctr_ibs_state *st)
{
	struct pc_ibs_cpu *p = this_cpu_ptr(&pc_ibs);
	struct perfctr_ibs_sample s;
	u64 fetch, op;

	if (READ_ONCE(p->cur) != st || !st)
		return;
	WRITE_ONCE(p->late, true);
	barrier();
	WRITE_ONCE(p->cur, NULL);
	barrier();
	fetch = pc_ibs_stop(MSR_AMD64_IBSFETCHCTL, st->fetch_ctl, IBS_FETCH_MINE,
			    IBS_FETCH_EN, IBS_FETCH_VAL | IBS_FETCH_CNT);
	op = pc_ibs_stop(MSR_AMD64_IBSOPCTL, st->op_ctl, IBS_OP_MINE,
			 IBS_OP_EN, IBS_OP_VAL | IBS_OP_CUR_CNT);
	WRITE_ONCE(p->late, (fetch & IBS_FETCH_VAL) || (op & IBS_OP_VAL));
	if (fetch & IBS_FETCH_VAL) {
		pc_ibs_fetch_sample(&s, fetch);
		pc_ibs_deliver(st, &s);
	}
	if (op & IBS_OP_VAL) {
		pc_ibs_op_sample(&s, op);
		pc_ibs_deliver(st, &s);
	}
}

static void pc_ibs_busy_cpu(void *unused)
{
	struct pc_ibs_cpu *p = this_cpu_ptr(&pc_ibs);

	if (pc_ibs_foreign(READ_ONCE(p->cur), pc_ibs_read_fetch_ctl(),
			   pc_ibs_read_op_ctl()))
		atomic_inc(&pc_ibs_foreign_cpus);
}

/* pc_ibs_lock held: the answer of the calls that just ran. */
static void pc_ibs_busy_record(void)
{
	pc_ibs_busy_seen = atomic_read(&pc_ibs_foreign_cpus) > 0;
	pc_ibs_busy_when = jiffies;
	pc_ibs_busy_known = true;
}

/*
 * The reservation's calls scanned too; then a new scan at most once per
 * IBS_BUSY_AGE. A CPU perf takes meanwhile is still found at switch-in
 * (perfctr_cpu_ibs_resume()), and never touched.
 */
bool perfctr_cpu_ibs_busy(void)
{
	bool busy;

	if (!pc_ibs_caps)
		return false;
	mutex_lock(&pc_ibs_lock);
	if (!pc_ibs_busy_known ||
	    time_after(jiffies, pc_ibs_busy_when + IBS_BUSY_AGE)) {
		atomic_set(&pc_ibs_foreign_cpus, 0);
		pc_on_each_cpu(pc_ibs_busy_cpu);
		pc_ibs_busy_record();
	}
	busy = pc_ibs_busy_seen;
	mutex_unlock(&pc_ibs_lock);
	return busy;
}

/* This CPU's LVT entry as an unmasked NMI, remembering what it was. */
static void pc_ibs_setup_cpu(void *unused)
{
	struct pc_ibs_cpu *p = this_cpu_ptr(&pc_ibs);
	u64 ctl;

	p->cur = NULL;
	p->late = false;
	p->ready = false;
	p->err = -EOPNOTSUPP;
	if (pc_rdmsr_safe(MSR_AMD64_IBSCTL, &ctl) || !(ctl & IBS_CTL_LVT_VALID) ||
	    (ctl & IBS_CTL_LVT_OFFSET) >= IBS_NR_EILVT)
		return;
	p->offset = ctl & IBS_CTL_LVT_OFFSET;
	p->saved_eilvt = pc_eilvt_read(p->offset);
	p->err = -EBUSY;
	if (pc_eilvt_setup(p->offset, 0, APIC_EILVT_MSG_NMI, 0))
		return;
	p->err = 0;
	p->ready = true;
}

/*
 * Give the entry back: masked again if it was masked; an entry that was
 * already an NMI is perf's IBS's too, and stays.
 */
static void pc_ibs_restore_cpu(void *unused)
{
	struct pc_ibs_cpu *p = this_cpu_ptr(&pc_ibs);
	u32 old = p->saved_eilvt;

	perfctr_cpu_ibs_suspend(READ_ONCE(p->cur));
	if (p->ready && (old & APIC_EILVT_MASKED))
		pc_eilvt_setup(p->offset, old & 0xFF, (old >> 8) & 7, 1);
	p->ready = false;
	p->late = false;
}

/* The reservation's call: the busy scan, then the entry, on each CPU. */
static void pc_ibs_reserve_cpu(void *unused)
{
	pc_ibs_busy_cpu(NULL);
	pc_ibs_setup_cpu(NULL);
}

static int pc_ibs_cpu_online(unsigned int cpu)
{
	local_irq_disable();
	pc_ibs_setup_cpu(NULL);
	local_irq_enable();
	return 0;
}

static int pc_ibs_cpu_offline(unsigned int cpu)
{
	local_irq_disable();
	pc_ibs_restore_cpu(NULL);
	local_irq_enable();
	return 0;
}

static int pc_ibs_reserve_all(void)
{
	unsigned int cpu;
	int err;

	for_each_possible_cpu(cpu)
		per_cpu_ptr(&pc_ibs, cpu)->err = 0;
	err = pc_register_ibs_nmi();
	if (err)
		return err;
	/* No CPU comes or goes between the calls and the hotplug state. */
	cpus_read_lock();
	atomic_set(&pc_ibs_foreign_cpus, 0);
	pc_on_each_cpu(pc_ibs_reserve_cpu);
	for_each_possible_cpu(cpu)
		if (!err)
			err = per_cpu_ptr(&pc_ibs, cpu)->err;
	if (!err) {
		/* CPUs that come up later set themselves up; no calls now. */
		err = cpuhp_setup_state_nocalls_cpuslocked(CPUHP_AP_ONLINE_DYN,
							   "perfctr/ibs:online",
							   pc_ibs_cpu_online,
							   pc_ibs_cpu_offline);
		if (err >= 0) {
			pc_ibs_hp_state = err;
			cpus_read_unlock();
			pc_ibs_busy_record();
			pc_ibs_held = true;
			return 0;
		}
	}
	pc_on_each_cpu(pc_ibs_restore_cpu);
	cpus_read_unlock();
	pc_unregister_ibs_nmi();
	return err;
}

/* pc_ibs_lock held, no users: every entry given back, the handler gone. */
static void pc_ibs_release_all(void)
{
	cpus_read_lock();
	cpuhp_remove_state_nocalls_cpuslocked(pc_ibs_hp_state);
	pc_ibs_hp_state = 0;
	pc_on_each_cpu(pc_ibs_restore_cpu);
	cpus_read_unlock();
	/* Waits for a handler still running on another CPU. */
	pc_unregister_ibs_nmi();
	pc_ibs_held = false;
	/* The next reservation scans anew. */
	pc_ibs_busy_known = false;
}

/* The grace period is over: release, unless a user came back since. */
static void pc_ibs_release_fn(struct work_struct *work)
{
	mutex_lock(&pc_ibs_lock);
	if (pc_ibs_held && !pc_ibs_users)
		pc_ibs_release_all();
	mutex_unlock(&pc_ibs_lock);
}

int perfctr_cpu_ibs_reserve(void)
{
	int err = 0;

	if (!pc_ibs_caps)
		return -EOPNOTSUPP;
	mutex_lock(&pc_ibs_lock);
	if (!pc_ibs_held)
		err = pc_ibs_reserve_all();
	if (!err) {
		/* Back within the grace period: no release is due. */
		cancel_delayed_work(&pc_ibs_release_work);
		pc_ibs_users++;
	}
	mutex_unlock(&pc_ibs_lock);
	return err;
}

void perfctr_cpu_ibs_release(void)
{
	mutex_lock(&pc_ibs_lock);
	if (pc_ibs_users && !--pc_ibs_users) {
		/*
		 * On this CPU, which cannot go offline with preemption off:
		 * any CPU would do, but the KUnit simulation's calls act on
		 * the CPU they run on.
		 */
		preempt_disable();
		queue_delayed_work_on(smp_processor_id(), system_wq,
				      &pc_ibs_release_work, IBS_GRACE);
		preempt_enable();
	}
	mutex_unlock(&pc_ibs_lock);
}

/* Nobody samples any more: a release in its grace period happens now. */
void pc_ibs_exit(void)
{
	cancel_delayed_work_sync(&pc_ibs_release_work);
	mutex_lock(&pc_ibs_lock);
	if (pc_ibs_held && !pc_ibs_users)
		pc_ibs_release_all();
	mutex_unlock(&pc_ibs_lock);
}
