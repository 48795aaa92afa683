// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: AMD Instruction-Based Sampling on the simulated family 10h and
 * Zen (tests/sim/x86/model.h's IBS model). Register layouts are typed
 * here from AMD's BKDG for families 10h and 15h and the PPRs, not taken
 * from the driver: IbsFetchCtl MSRC001_1030 (MaxCnt[19:4] in 15:0, En 48,
 * Val 49, PhyAddrValid 52, RandEn 57), IbsOpCtl MSRC001_1033 (MaxCnt[19:4]
 * in 15:0, En 17, Val 18, CntCtl 19, MaxCnt[26:20] in 26:20), IbsOpData1
 * bit 38 IbsRipInvalid, IbsOpData3 bits 17 and 18 the DC address valid
 * bits, IbsCtl MSRC001_103A (LvtOffset 3:0, LvtOffsetVal 8).
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <asm/apicdef.h>
#include <asm/nmi.h>

#include <perfctr/ibs.h>

#include "arch_test.h"
#include "../../../arch/x86/perfctr/x86.h"

#define FETCH_CTL	0xC0011030
#define OP_CTL		0xC0011033
#define FETCH_EN	BIT_ULL(48)
#define FETCH_VAL	BIT_ULL(49)
#define FETCH_PHY_VALID	BIT_ULL(52)
#define FETCH_RAND	BIT_ULL(57)
#define OP_EN		BIT_ULL(17)
#define OP_VAL		BIT_ULL(18)
#define OP_CNT_CTL	BIT_ULL(19)
#define EILVT_NMI	(APIC_EILVT_MSG_NMI << 8)	/* unmasked, vector 0 */

#define TEST_RIP	0x0000000000401234ULL

#define sim_ibs		(perfctr_x86_sim.ibs)

/*
 * amd.rst: the reservation outlives its last user by a second, and a busy
 * answer stands for a second. Sleeps a little longer than that.
 */
#define IBS_SECOND_MS	1000
#define IBS_PAST_MS	(IBS_SECOND_MS + 200)

/* What the handler saw. */
static unsigned int nr_samples;
static struct perfctr_ibs_sample last;
static struct perfctr_ibs_state *last_st;

static void test_handler(struct perfctr_ibs_state *st,
			 struct perfctr_ibs_sample *s)
{
	nr_samples++;
	last = *s;
	last_st = st;
}

/* Models the tests need beyond the simulation's own. */
static const struct perfctr_x86_sim_model sim_op_only = {
	.name = "op-only", .vendor = X86_VENDOR_AMD, .family = 0x10,
	.has_tsc = true, .kind = SIM_K7, .pmc_mask = 0xF,
	.sel_msr = 0xC0010000, .ctr_msr = 0xC0010004, .stride = 1, .width = 48,
	.ibs_caps = PERFCTR_IBS_CAP_AVAIL | PERFCTR_IBS_CAP_OPSAM,
};

/* The op-only part with CPUID's TSC flag clear, as a hypervisor may. */
static const struct perfctr_x86_sim_model sim_ibs_no_tsc = {
	.name = "ibs-no-tsc", .vendor = X86_VENDOR_AMD, .family = 0x10,
	.kind = SIM_K7, .pmc_mask = 0xF,
	.sel_msr = 0xC0010000, .ctr_msr = 0xC0010004, .stride = 1, .width = 48,
	.ibs_caps = PERFCTR_IBS_CAP_AVAIL | PERFCTR_IBS_CAP_OPSAM,
};

/* CPUID Fn8000_001B without IbsFfv: its flags mean nothing. */
static const struct perfctr_x86_sim_model sim_no_ffv = {
	.name = "no-ffv", .vendor = X86_VENDOR_AMD, .family = 0x10,
	.has_tsc = true, .kind = SIM_K7, .pmc_mask = 0xF,
	.sel_msr = 0xC0010000, .ctr_msr = 0xC0010004, .stride = 1, .width = 48,
	.ibs_caps = PERFCTR_IBS_CAP_OPCNT,
};

/* An AMD K8 whose CPUID claimed IBS: before family 10h there is none. */
static const struct perfctr_x86_sim_model sim_k8_ibs = {
	.name = "k8-ibs", .vendor = X86_VENDOR_AMD, .family = 15, .model = 5,
	.has_tsc = true, .kind = SIM_K7, .pmc_mask = 0xF,
	.sel_msr = 0xC0010000, .ctr_msr = 0xC0010004, .stride = 1, .width = 48,
	.ibs_caps = 0x7,
};

static const struct perfctr_x86_sim_model sim_intel_ibs = {
	.name = "intel-ibs", .vendor = X86_VENDOR_INTEL, .family = 6,
	.model = 0x3A, .has_tsc = true, .cpuid_level = 13,
	.cpuid_a_eax = 0x07300402, .nr_fixed = 3, .kind = SIM_ARCH,
	.pmc_mask = 0xF, .sel_msr = 0x186, .ctr_msr = 0xC1, .stride = 1,
	.width = 48, .sext31 = true, .ibs_caps = 0x7,
};

static bool reserved;

static int ibs_init(struct kunit *test)
{
	nr_samples = 0;
	last_st = NULL;
	memset(&last, 0, sizeof(last));
	reserved = false;
	return 0;
}

static void ibs_exit(struct kunit *test)
{
	sim_repin(test);
	if (reserved)
		perfctr_cpu_ibs_release();
	perfctr_cpu_set_ibs_handler(NULL);
	sim_stop(test);
}

static void ibs_start(struct kunit *test, const struct sim_model *m)
{
	KUNIT_ASSERT_EQ(test, sim_start(test, m), 0);
	perfctr_cpu_set_ibs_handler(test_handler);
}

static void ibs_reserve(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, perfctr_cpu_ibs_reserve(), 0);
	reserved = true;
}

/* A state for @flags and MaxCnts, set up and accepted. */
static struct perfctr_ibs_state *ibs_state(struct kunit *test, u32 flags,
					   u32 fetch, u32 op)
{
	struct perfctr_ibs_control c = {
		.flags = flags, .fetch_maxcnt = fetch, .op_maxcnt = op,
	};
	struct perfctr_ibs_state *st = kunit_kzalloc(test, sizeof(*st), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, st);
	KUNIT_ASSERT_EQ(test, perfctr_cpu_ibs_setup(st, &c), 0);
	return st;
}

/* IBS reserved on model @m, and a state for @flags and MaxCnts. */
static struct perfctr_ibs_state *ibs_ready(struct kunit *test,
					   const struct sim_model *m,
					   u32 flags, u32 fetch, u32 op)
{
	ibs_start(test, m);
	ibs_reserve(test);
	return ibs_state(test, flags, fetch, op);
}

static int ibs_resume(struct perfctr_ibs_state *st)
{
	int err;

	preempt_disable();
	err = perfctr_cpu_ibs_resume(st);
	preempt_enable();
	return err;
}

static void ibs_suspend(struct perfctr_ibs_state *st)
{
	preempt_disable();
	perfctr_cpu_ibs_suspend(st);
	preempt_enable();
}

/* The raised NMI, if any: the handler's answer, or -1 if none was raised. */
static int ibs_nmi(void)
{
	int ret;

	preempt_disable();
	ret = perfctr_x86_sim_ibs_nmi(NULL);
	preempt_enable();
	return ret;
}

/* @n cycles in steps of @step, each step's NMI delivered. */
static void ibs_run(u64 n, u64 step)
{
	for (; n; n -= min(n, step)) {
		sim_tick(min(n, step));
		ibs_nmi();
	}
}

/* --- detection --- */

struct ibs_detect_case {
	const char *name;
	const struct sim_model *model;
	u32 caps;
};

static const struct ibs_detect_case ibs_detect_cases[] = {
	{ "fam10h", &sim_fam10, 0x7 },		/* AVAIL FETCHSAM OPSAM */
	{ "zen", &sim_fam15, 0xFF },		/* ... OPCNT OPCNTEXT RIPINVALIDCHK */
	{ "no IbsFfv: fetch and op", &sim_no_ffv, 0x6 },
	{ "k8", &sim_k8, 0 },
	{ "k8 claiming IBS", &sim_k8_ibs, 0 },
	{ "intel", &sim_arch_v2, 0 },
	{ "intel claiming IBS", &sim_intel_ibs, 0 },
};

SIM_CASE_DESC(ibs_detect_case);
KUNIT_ARRAY_PARAM(ibs_detect, ibs_detect_cases, ibs_detect_case_desc);

static void ibs_detects_caps(struct kunit *test)
{
	const struct ibs_detect_case *c = test->param_value;

	ibs_start(test, c->model);
	KUNIT_EXPECT_EQ(test, perfctr_cpu_ibs_caps(), c->caps);
}

/* The model answers CPUID as the manuals say: Fn8000_0001 ECX bit 10. */
static void ibs_model_cpuid(struct kunit *test)
{
	u32 a, b, c, d;

	ibs_start(test, &sim_fam15);
	perfctr_sim_cpuid_on(0, 0x80000001, &a, &b, &c, &d);
	KUNIT_EXPECT_TRUE(test, c & BIT(10));
	perfctr_sim_cpuid_on(0, 0x8000001B, &a, &b, &c, &d);
	KUNIT_EXPECT_EQ(test, a, 0xFFU);
	sim_stop(test);
	ibs_start(test, &sim_k8);
	perfctr_sim_cpuid_on(0, 0x80000001, &a, &b, &c, &d);
	KUNIT_EXPECT_FALSE(test, c & BIT(10));
}

/* --- setup: every rule accepting and refusing --- */

struct ibs_rule_case {
	const char *name;
	const struct sim_model *model;
	u32 flags, fetch, op;
	int err;
	u64 fetch_ctl, op_ctl;		/* encodings from the manuals */
};

#define F	PERFCTR_IBS_FETCH
#define O	PERFCTR_IBS_OP

static const struct ibs_rule_case ibs_rule_cases[] = {
	{ "fetch 0x10", &sim_fam10, F, 0x10, 0, 0, 0x1 | FETCH_EN },
	{ "fetch 0", &sim_fam10, F, 0, 0, -EINVAL },
	{ "fetch 0x8", &sim_fam10, F, 0x8, 0, -EINVAL },
	{ "fetch 0x11", &sim_fam10, F, 0x11, 0, -EINVAL },
	{ "fetch 0xFFFF0", &sim_fam10, F, 0xFFFF0, 0, 0, 0xFFFF | FETCH_EN },
	{ "fetch 0x100000", &sim_fam10, F, 0x100000, 0, -EINVAL },
	{ "fetch 0x100000 zen", &sim_fam15, F, 0x100000, 0, -EINVAL },
	{ "fetch rand", &sim_fam10, F | PERFCTR_IBS_FETCH_RAND, 0x100, 0, 0,
	  0x10 | FETCH_EN | FETCH_RAND },
	{ "rand without fetch", &sim_fam10, O | PERFCTR_IBS_FETCH_RAND, 0,
	  0x100, -EINVAL },
	{ "op 0x10", &sim_fam10, O, 0, 0x10, 0, 0, 0x1 | OP_EN },
	{ "op 0", &sim_fam10, O, 0, 0, -EINVAL },
	{ "op 0x8", &sim_fam10, O, 0, 0x8, -EINVAL },
	{ "op 0x11", &sim_fam10, O, 0, 0x11, -EINVAL },
	{ "op 0xFFFF0", &sim_fam10, O, 0, 0xFFFF0, 0, 0, 0xFFFF | OP_EN },
	{ "op 0x100000 fam10h", &sim_fam10, O, 0, 0x100000, -EINVAL },
	{ "op 0x7FFFFF0 fam10h", &sim_fam10, O, 0, 0x7FFFFF0, -EINVAL },
	{ "op 0x100000 zen", &sim_fam15, O, 0, 0x100000, 0, 0,
	  BIT_ULL(20) | OP_EN },
	{ "op 0x7FFFFF0 zen", &sim_fam15, O, 0, 0x7FFFFF0, 0, 0,
	  0xFFFF | (0x7FULL << 20) | OP_EN },
	{ "op 0x8000000 zen", &sim_fam15, O, 0, 0x8000000, -EINVAL },
	{ "op 0x7FFFFF8 zen", &sim_fam15, O, 0, 0x7FFFFF8, -EINVAL },
	{ "op counting ops zen", &sim_fam15, O | PERFCTR_IBS_OP_CNT_OPS, 0,
	  0x100, 0, 0, 0x10 | OP_EN | OP_CNT_CTL },
	{ "op counting ops fam10h", &sim_fam10, O | PERFCTR_IBS_OP_CNT_OPS, 0,
	  0x100, -EOPNOTSUPP },
	{ "counting ops without op", &sim_fam15, F | PERFCTR_IBS_OP_CNT_OPS,
	  0x100, 0, -EINVAL },
	{ "fetch MaxCnt without fetch", &sim_fam10, O, 0x100, 0x100, -EINVAL },
	{ "op MaxCnt without op", &sim_fam10, F, 0x100, 0x100, -EINVAL },
	{ "both engines", &sim_fam10, F | O, 0x1230, 0x4560, 0,
	  0x123 | FETCH_EN, 0x456 | OP_EN },
	{ "no engine", &sim_fam10, PERFCTR_IBS_KERNEL, 0, 0, -EINVAL },
	{ "unknown flag", &sim_fam10, F | 0x40, 0x100, 0, -EINVAL },
	{ "kernel and phys: the caller's", &sim_fam10,
	  F | PERFCTR_IBS_KERNEL | PERFCTR_IBS_PHYS, 0x100, 0, 0,
	  0x10 | FETCH_EN },
	{ "fetch on k8", &sim_k8, F, 0x100, 0, -EOPNOTSUPP },
	{ "op on intel", &sim_arch_v2, O, 0, 0x100, -EOPNOTSUPP },
	{ "fetch on an op-only CPU", &sim_op_only, F, 0x100, 0, -EOPNOTSUPP },
	{ "op on an op-only CPU", &sim_op_only, O, 0, 0x100, 0, 0,
	  0x10 | OP_EN },
};

#undef F
#undef O

SIM_CASE_DESC(ibs_rule_case);
KUNIT_ARRAY_PARAM(ibs_rule, ibs_rule_cases, ibs_rule_case_desc);

static void ibs_setup_rules(struct kunit *test)
{
	const struct ibs_rule_case *c = test->param_value;
	struct perfctr_ibs_control ctl = {
		.flags = c->flags, .fetch_maxcnt = c->fetch, .op_maxcnt = c->op,
	};
	struct perfctr_ibs_state st = {
		.fetch_ctl = 0x1111, .op_ctl = 0x2222, .owner = &st,
	};

	ibs_start(test, c->model);
	KUNIT_EXPECT_EQ(test, perfctr_cpu_ibs_setup(&st, &ctl), c->err);
	if (c->err) {		/* untouched */
		KUNIT_EXPECT_EQ(test, st.fetch_ctl, 0x1111ULL);
		KUNIT_EXPECT_EQ(test, st.op_ctl, 0x2222ULL);
	} else {
		KUNIT_EXPECT_EQ(test, st.fetch_ctl, c->fetch_ctl);
		KUNIT_EXPECT_EQ(test, st.op_ctl, c->op_ctl);
	}
	KUNIT_EXPECT_PTR_EQ(test, st.owner, (void *)&st);
}

/* --- reserve and release: the LVT entry IbsCtl names, as an NMI --- */

static void ibs_reserve_programs_lvt(struct kunit *test)
{
	ibs_start(test, &sim_fam10);
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], APIC_EILVT_MASKED);
	KUNIT_EXPECT_EQ(test, perfctr_cpu_ibs_reserve(), 0);
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], EILVT_NMI);
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.ibs_nmi_registered);
	/* Reference counted: the last release gives it back, in time. */
	KUNIT_EXPECT_EQ(test, perfctr_cpu_ibs_reserve(), 0);
	perfctr_cpu_ibs_release();
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], EILVT_NMI);
	perfctr_cpu_ibs_release();
	pc_ibs_exit();			/* the grace period cut short */
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], APIC_EILVT_MASKED);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.ibs_nmi_registered);
}

/* Perf's IBS set the entry up the same way first: shared, and left so. */
static void ibs_reserve_shares_perf_lvt(struct kunit *test)
{
	ibs_start(test, &sim_fam10);
	sim_ibs.eilvt[SIM_IBS_LVT_OFFSET] = EILVT_NMI;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_ibs_reserve(), 0);
	perfctr_cpu_ibs_release();
	pc_ibs_exit();
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.ibs_nmi_registered);
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], EILVT_NMI);
}

static void ibs_reserve_offset_taken(struct kunit *test)
{
	u32 other = (APIC_EILVT_MSG_FIX << 8) | 0xF9;	/* someone's vector */

	ibs_start(test, &sim_fam10);
	sim_ibs.eilvt[SIM_IBS_LVT_OFFSET] = other;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_ibs_reserve(), -EBUSY);
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], other);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.ibs_nmi_registered);
	/* Nothing held: a later reserve works once the entry is free. */
	sim_ibs.eilvt[SIM_IBS_LVT_OFFSET] = APIC_EILVT_MASKED;
	ibs_reserve(test);
}

static void ibs_reserve_no_offset(struct kunit *test)
{
	ibs_start(test, &sim_fam10);
	sim_ibs.ctl = SIM_IBS_LVT_OFFSET;	/* LvtOffsetVal clear */
	KUNIT_EXPECT_EQ(test, perfctr_cpu_ibs_reserve(), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], APIC_EILVT_MASKED);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.ibs_nmi_registered);
}

static void ibs_reserve_without_ibs(struct kunit *test)
{
	struct perfctr_ibs_state st = { .op_ctl = 0x10 | OP_EN };

	ibs_start(test, &sim_k8);
	KUNIT_EXPECT_EQ(test, perfctr_cpu_ibs_reserve(), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ibs_resume(&st), -EOPNOTSUPP);
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_ibs_busy());
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
}

/* --- resume and suspend --- */

static void ibs_resume_suspend_writes(struct kunit *test)
{
	struct perfctr_ibs_state *st;

	st = ibs_ready(test, &sim_fam15, PERFCTR_IBS_FETCH | PERFCTR_IBS_OP,
		       0x1000, 0x2000);
	KUNIT_EXPECT_EQ(test, ibs_resume(st), 0);
	KUNIT_EXPECT_EQ(test, sim_ibs.fetch_ctl, 0x100 | FETCH_EN);
	KUNIT_EXPECT_EQ(test, sim_ibs.op_ctl, 0x200 | OP_EN);
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_ibs_busy());
	sim_tick(0x100);
	ibs_suspend(st);
	/* Stopped, MaxCnt kept, no sample on the way. */
	KUNIT_EXPECT_FALSE(test, sim_ibs.fetch_ctl & FETCH_EN);
	KUNIT_EXPECT_FALSE(test, sim_ibs.op_ctl & OP_EN);
	KUNIT_EXPECT_EQ(test, sim_ibs.fetch_ctl & 0xFFFF, 0x100ULL);
	KUNIT_EXPECT_EQ(test, sim_ibs.op_ctl & 0xFFFF, 0x200ULL);
	KUNIT_EXPECT_EQ(test, nr_samples, 0U);
	sim_tick(0x10000);
	KUNIT_EXPECT_EQ(test, sim_ibs.nr_fetch + sim_ibs.nr_op, 0U);
	KUNIT_EXPECT_EQ(test, ibs_nmi(), -1);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
}

/*
 * Suspend stops each engine with one write; family 10h with two, Val and
 * the count cleared while still enabled first (its erratum 420).
 */
static void ibs_suspend_writes_per_family(struct kunit *test)
{
	const struct sim_model *models[] = { &sim_fam15, &sim_fam10 };
	struct perfctr_ibs_state *st;
	unsigned int i, writes;

	for (i = 0; i < ARRAY_SIZE(models); i++) {
		ibs_start(test, models[i]);
		KUNIT_ASSERT_EQ(test, perfctr_cpu_ibs_reserve(), 0);
		st = ibs_state(test, PERFCTR_IBS_FETCH | PERFCTR_IBS_OP, 0x100, 0x100);
		KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
		sim_tick(0x20);
		writes = perfctr_x86_sim.nr_wrmsr;
		ibs_suspend(st);
		KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr - writes, 2 * (i + 1));
		/* Stopped with the count zero: MaxCnt alone is left. */
		KUNIT_EXPECT_EQ(test, sim_ibs.fetch_ctl, 0x10ULL);
		KUNIT_EXPECT_EQ(test, sim_ibs.op_ctl, 0x10ULL);
		perfctr_cpu_ibs_release();
		sim_stop(test);
	}
	ibs_start(test, &sim_fam10);
}

/* Perf's IBS holds the CPU: EBUSY, and not one register written. */
static void ibs_resume_busy(struct kunit *test)
{
	unsigned int cpu = raw_smp_processor_id(), writes;
	struct perfctr_ibs_state *st;

	ibs_start(test, &sim_fam15);
	perfctr_x86_sim_ibs_perf(cpu, true);
	ibs_reserve(test);		/* its scan sees perf */
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_ibs_busy());
	st = ibs_state(test, PERFCTR_IBS_FETCH | PERFCTR_IBS_OP, 0x100, 0x100);
	writes = perfctr_x86_sim.nr_wrmsr;
	KUNIT_EXPECT_EQ(test, ibs_resume(st), -EBUSY);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, writes);
	KUNIT_EXPECT_EQ(test, sim_ibs.op_ctl, SIM_IBS_PERF_OP_CTL);
	KUNIT_EXPECT_EQ(test, sim_ibs.fetch_ctl, 0ULL);
	ibs_suspend(st);			/* never resumed: nothing */
	KUNIT_EXPECT_EQ(test, sim_ibs.op_ctl, SIM_IBS_PERF_OP_CTL);
	/* Switch-in looks at the CPU itself, whatever the last scan said. */
	perfctr_x86_sim_ibs_perf(cpu, false);
	KUNIT_EXPECT_EQ(test, ibs_resume(st), 0);
	ibs_suspend(st);
}

/* Perf took the op engine while we ran: suspend leaves perf's alone. */
static void ibs_suspend_leaves_perf(struct kunit *test)
{
	unsigned int cpu = raw_smp_processor_id();
	struct perfctr_ibs_state *st;

	st = ibs_ready(test, &sim_fam15, PERFCTR_IBS_OP, 0, 0x100);
	KUNIT_EXPECT_EQ(test, ibs_resume(st), 0);
	perfctr_x86_sim_ibs_perf(cpu, true);
	ibs_suspend(st);
	KUNIT_EXPECT_EQ(test, sim_ibs.op_ctl, SIM_IBS_PERF_OP_CTL);
	perfctr_x86_sim_ibs_perf(cpu, false);
}

/* --- samples --- */

static void ibs_op_sample(struct kunit *test)
{
	struct perfctr_ibs_state *st;

	st = ibs_ready(test, &sim_fam15, PERFCTR_IBS_OP, 0, 0x100);
	sim_ibs.rip = TEST_RIP;
	perfctr_x86_sim.tsc = 0x123456789ULL;	/* still: every read gives it */
	KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
	sim_tick(0xFF);
	KUNIT_EXPECT_EQ(test, ibs_nmi(), -1);
	sim_tick(1);
	KUNIT_EXPECT_TRUE(test, sim_ibs.op_ctl & OP_VAL);
	KUNIT_EXPECT_EQ(test, ibs_nmi(), NMI_HANDLED);
	KUNIT_ASSERT_EQ(test, nr_samples, 1U);
	KUNIT_EXPECT_PTR_EQ(test, last_st, st);
	KUNIT_EXPECT_EQ(test, last.kind, (u32)PERFCTR_IBS_SAMPLE_OP);
	KUNIT_EXPECT_EQ(test, last.valid, (u32)(PERFCTR_IBS_VALID_OP_RIP |
		PERFCTR_IBS_VALID_DC_LIN | PERFCTR_IBS_VALID_DC_PHYS));
	KUNIT_EXPECT_TRUE(test, last.op_ctl & OP_VAL);
	KUNIT_EXPECT_EQ(test, last.op_ctl & 0xFFFF, 0x10ULL);
	KUNIT_EXPECT_EQ(test, last.op_rip, TEST_RIP);
	KUNIT_EXPECT_EQ(test, last.op_data[0], SIM_IBS_OP_DATA1);
	KUNIT_EXPECT_EQ(test, last.op_data[1], SIM_IBS_OP_DATA2);
	KUNIT_EXPECT_EQ(test, last.op_data[2], BIT_ULL(0) | BIT_ULL(17) | BIT_ULL(18));
	KUNIT_EXPECT_EQ(test, last.dc_lin, SIM_IBS_DC_LIN);
	KUNIT_EXPECT_EQ(test, last.dc_phys, SIM_IBS_DC_PHYS);
	KUNIT_EXPECT_EQ(test, last.fetch_ctl | last.fetch_lin | last.fetch_phys, 0ULL);
	KUNIT_EXPECT_EQ(test, last.tsc, 0x123456789ULL);
	/* Restarted: the start value again, Val and the count clear. */
	KUNIT_EXPECT_EQ(test, sim_ibs.op_ctl, st->op_ctl);
	ibs_suspend(st);
}

static void ibs_fetch_sample(struct kunit *test)
{
	struct perfctr_ibs_state *st;

	st = ibs_ready(test, &sim_fam10, PERFCTR_IBS_FETCH, 0x40, 0);
	sim_ibs.rip = TEST_RIP;
	KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
	sim_tick(0x40);
	KUNIT_EXPECT_EQ(test, ibs_nmi(), NMI_HANDLED);
	KUNIT_ASSERT_EQ(test, nr_samples, 1U);
	KUNIT_EXPECT_EQ(test, last.kind, (u32)PERFCTR_IBS_SAMPLE_FETCH);
	KUNIT_EXPECT_EQ(test, last.valid, (u32)(PERFCTR_IBS_VALID_FETCH_LIN |
		PERFCTR_IBS_VALID_FETCH_PHYS));
	KUNIT_EXPECT_TRUE(test, last.fetch_ctl & FETCH_VAL);
	KUNIT_EXPECT_TRUE(test, last.fetch_ctl & FETCH_PHY_VALID);
	KUNIT_EXPECT_EQ(test, last.fetch_lin, TEST_RIP);
	KUNIT_EXPECT_EQ(test, last.fetch_phys, SIM_IBS_FETCH_PHYS | (TEST_RIP & 0xFFF));
	KUNIT_EXPECT_EQ(test, last.op_ctl | last.op_rip | last.dc_lin, 0ULL);
	KUNIT_EXPECT_EQ(test, sim_ibs.fetch_ctl, st->fetch_ctl);
	ibs_suspend(st);
}

/* Fields the valid bits deny are zero, whatever the registers held. */
static void ibs_invalid_fields_zero(struct kunit *test)
{
	struct perfctr_ibs_state *st;

	st = ibs_ready(test, &sim_fam15, PERFCTR_IBS_OP, 0, 0x100);
	sim_ibs.rip_invalid = true;
	sim_ibs.not_load = true;
	KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
	ibs_run(0x100, 0x100);
	KUNIT_ASSERT_EQ(test, nr_samples, 1U);
	KUNIT_EXPECT_EQ(test, last.valid, 0U);
	KUNIT_EXPECT_EQ(test, last.op_rip, 0ULL);
	KUNIT_EXPECT_EQ(test, last.dc_lin, 0ULL);
	KUNIT_EXPECT_EQ(test, last.dc_phys, 0ULL);
	KUNIT_EXPECT_TRUE(test, last.op_data[0] & BIT_ULL(38));
	ibs_suspend(st);
}

/* No TSC: the sample's tsc is 0, and no RDTSC (#UD) in the NMI. */
static void ibs_sample_without_tsc(struct kunit *test)
{
	struct perfctr_ibs_state *st;

	st = ibs_ready(test, &sim_ibs_no_tsc, PERFCTR_IBS_OP, 0, 0x100);
	perfctr_x86_sim.tsc = 0x123456789ULL;	/* what an RDTSC would give */
	KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
	ibs_run(0x100, 0x100);
	ibs_suspend(st);
	KUNIT_ASSERT_EQ(test, nr_samples, 1U);
	KUNIT_EXPECT_EQ(test, last.tsc, 0ULL);
	KUNIT_EXPECT_TRUE(test, last.op_ctl & OP_VAL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
}

/* Without RipInvalidChk bit 38 means nothing: the RIP counts as valid. */
static void ibs_rip_invalid_needs_cap(struct kunit *test)
{
	struct perfctr_ibs_state *st;

	st = ibs_ready(test, &sim_fam10, PERFCTR_IBS_OP, 0, 0x100);
	sim_ibs.rip_invalid = true;
	KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
	ibs_run(0x100, 0x100);
	KUNIT_ASSERT_EQ(test, nr_samples, 1U);
	KUNIT_EXPECT_TRUE(test, last.valid & PERFCTR_IBS_VALID_OP_RIP);
	ibs_suspend(st);
}

static void ibs_nmi_not_ours(struct kunit *test)
{
	struct pt_regs regs = {};
	int ret;

	ibs_start(test, &sim_fam15);
	ibs_reserve(test);
	preempt_disable();
	ret = pc_ibs_nmi_handler(NMI_LOCAL, &regs);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, ret, NMI_DONE);
}

/* No sample before reserve: the LVT entry is masked, no NMI goes out. */
static void ibs_masked_lvt_no_nmi(struct kunit *test)
{
	struct perfctr_ibs_state *st;

	ibs_start(test, &sim_fam15);
	st = ibs_state(test, PERFCTR_IBS_OP, 0, 0x100);
	sim_ibs.op_ctl = st->op_ctl;
	sim_tick(0x100);
	KUNIT_EXPECT_TRUE(test, sim_ibs.op_ctl & OP_VAL);
	KUNIT_EXPECT_FALSE(test, sim_ibs.nmi_pending);
	sim_ibs.op_ctl = 0;
}

/* --- rate --- */

/* Samples taken by a set of FLAGS and MaxCnts run for N cycles. */
static unsigned int ibs_rate(struct kunit *test, const struct sim_model *m,
			     u32 flags, u32 fetch_max, u32 op_max, u64 n,
			     u64 step)
{
	struct perfctr_ibs_state *st;

	st = ibs_ready(test, m, flags, fetch_max, op_max);
	KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
	ibs_run(n, step);
	ibs_suspend(st);
	return nr_samples;
}

static void ibs_rate_op_cycles(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ibs_rate(test, &sim_fam15, PERFCTR_IBS_OP, 0,
				       0x100, 50 * 0x100, 16), 50U);
}

/* Dispatched ops: one per SIM_IBS_CYCLES_PER_OP cycles, half the rate. */
static void ibs_rate_op_ops(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ibs_rate(test, &sim_fam15,
				       PERFCTR_IBS_OP | PERFCTR_IBS_OP_CNT_OPS,
				       0, 0x100, 50 * 0x100, 16),
			50U / SIM_IBS_CYCLES_PER_OP);
}

static void ibs_rate_fetch(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, ibs_rate(test, &sim_fam10, PERFCTR_IBS_FETCH,
				       0x200, 0, 40 * 0x200, 16), 40U);
}

/*
 * RandEn: each period starts 0 to 15 fetches in, so N * MaxCnt cycles
 * give from N samples to N * MaxCnt / (MaxCnt - 15).
 */
static void ibs_rate_fetch_random(struct kunit *test)
{
	unsigned int n = ibs_rate(test, &sim_fam10,
				  PERFCTR_IBS_FETCH | PERFCTR_IBS_FETCH_RAND,
				  0x100, 0, 40 * 0x100, 1);

	KUNIT_EXPECT_GE(test, n, 40U);
	KUNIT_EXPECT_LE(test, n, 40U * 0x100 / (0x100 - 15));
	/* And it does randomise: not one period every MaxCnt exactly. */
	KUNIT_EXPECT_GT(test, n, 40U);
}

/* --- a latched sample and suspend --- */

static void ibs_suspend_delivers_latched(struct kunit *test)
{
	struct perfctr_ibs_state *st, *next;

	st = ibs_ready(test, &sim_fam15, PERFCTR_IBS_OP, 0, 0x100);
	next = ibs_state(test, PERFCTR_IBS_OP, 0, 0x100);
	KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
	sim_tick(0x100);			/* latched, NMI not yet here */
	ibs_suspend(st);
	KUNIT_EXPECT_EQ(test, nr_samples, 1U);
	KUNIT_EXPECT_PTR_EQ(test, last_st, st);
	KUNIT_EXPECT_FALSE(test, sim_ibs.op_ctl & (OP_EN | OP_VAL));
	KUNIT_ASSERT_EQ(test, ibs_resume(next), 0);
	/* The late NMI is claimed, and reaches nobody. */
	KUNIT_EXPECT_EQ(test, ibs_nmi(), NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, nr_samples, 1U);
	ibs_suspend(next);
	KUNIT_EXPECT_EQ(test, nr_samples, 1U);
}

static void ibs_late_nmi_claimed_once(struct kunit *test)
{
	struct perfctr_ibs_state *st;
	struct pt_regs regs = {};
	int ret[2];

	st = ibs_ready(test, &sim_fam15, PERFCTR_IBS_OP, 0, 0x100);
	KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
	sim_tick(0x100);
	ibs_suspend(st);
	preempt_disable();
	ret[0] = pc_ibs_nmi_handler(NMI_LOCAL, &regs);
	ret[1] = pc_ibs_nmi_handler(NMI_LOCAL, &regs);
	preempt_enable();
	KUNIT_EXPECT_EQ(test, ret[0], NMI_HANDLED);
	KUNIT_EXPECT_EQ(test, ret[1], NMI_DONE);
	KUNIT_EXPECT_EQ(test, nr_samples, 1U);
}

/* --- the busy scan and the grace period: calls to every CPU --- */

/* Scans allowed since @since: the reservation's, then one a second. */
static unsigned int ibs_scans_allowed(unsigned long since)
{
	return 1 + (jiffies - since) / HZ;
}

/* The reservation's call scans too: no call of its own for the answer. */
static void ibs_busy_scanned_at_reserve(struct kunit *test)
{
	unsigned int cpu = raw_smp_processor_id(), calls;
	unsigned long t0;

	ibs_start(test, &sim_fam15);
	perfctr_x86_sim_ibs_perf(cpu, true);
	calls = perfctr_x86_sim.nr_broadcasts;
	t0 = jiffies;
	ibs_reserve(test);
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_ibs_busy());
	KUNIT_EXPECT_GE(test, perfctr_x86_sim.nr_broadcasts - calls, 1U);
	KUNIT_EXPECT_LE(test, perfctr_x86_sim.nr_broadcasts - calls,
			ibs_scans_allowed(t0));
	perfctr_x86_sim_ibs_perf(cpu, false);
}

/*
 * What 100 setups written and taken back do (a user's loop): the first
 * reserves and scans; the others neither scan nor reserve again, nor
 * register the NMI handler, nor release.
 */
static void ibs_setups_call_once(struct kunit *test)
{
	unsigned int calls, i;
	unsigned long t0;

	ibs_start(test, &sim_fam15);
	calls = perfctr_x86_sim.nr_broadcasts;
	t0 = jiffies;
	for (i = 0; i < 100; i++) {
		KUNIT_ASSERT_EQ(test, perfctr_cpu_ibs_reserve(), 0);
		KUNIT_EXPECT_FALSE(test, perfctr_cpu_ibs_busy());
		perfctr_cpu_ibs_release();
	}
	KUNIT_EXPECT_GE(test, perfctr_x86_sim.nr_broadcasts - calls, 1U);
	KUNIT_EXPECT_LE(test, perfctr_x86_sim.nr_broadcasts - calls,
			ibs_scans_allowed(t0));
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_ibs_nmi_registers, 1U);
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.ibs_nmi_registered);
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], EILVT_NMI);
}

/*
 * The answer stands for a second, then the next question scans again:
 * perf's IBS that came since is seen then; our own resumed engine never.
 */
static void ibs_busy_answer_ages(struct kunit *test)
{
	unsigned int cpu = raw_smp_processor_id(), calls;
	struct perfctr_ibs_state *st;
	unsigned long t0;
	bool busy;

	st = ibs_ready(test, &sim_fam15, PERFCTR_IBS_FETCH, 0x100, 0);
	KUNIT_ASSERT_EQ(test, ibs_resume(st), 0);
	msleep(IBS_PAST_MS);
	calls = perfctr_x86_sim.nr_broadcasts;
	KUNIT_EXPECT_FALSE(test, perfctr_cpu_ibs_busy());	/* ours */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_broadcasts - calls, 1U);
	/* perf takes the op engine: not seen until the answer is old. */
	t0 = jiffies;
	perfctr_x86_sim_ibs_perf(cpu, true);
	calls = perfctr_x86_sim.nr_broadcasts;
	busy = perfctr_cpu_ibs_busy();
	if (time_before(jiffies, t0 + HZ)) {
		KUNIT_EXPECT_FALSE(test, busy);
		KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_broadcasts, calls);
	}
	msleep(IBS_PAST_MS);
	calls = perfctr_x86_sim.nr_broadcasts;
	KUNIT_EXPECT_TRUE(test, perfctr_cpu_ibs_busy());
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_broadcasts - calls, 1U);
	ibs_suspend(st);
	perfctr_x86_sim_ibs_perf(cpu, false);
}

/*
 * A user back within the grace period takes the reservation as it is;
 * a second after the last release it is given back: the entry masked
 * again, the handler gone, the hardware perf's alone.
 */
static void ibs_release_grace(struct kunit *test)
{
	unsigned int calls;

	ibs_start(test, &sim_fam10);
	KUNIT_ASSERT_EQ(test, perfctr_cpu_ibs_reserve(), 0);
	perfctr_cpu_ibs_release();
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.ibs_nmi_registered);
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], EILVT_NMI);
	calls = perfctr_x86_sim.nr_broadcasts;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_ibs_reserve(), 0);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_ibs_nmi_registers, 1U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_broadcasts, calls);
	perfctr_cpu_ibs_release();
	msleep(IBS_PAST_MS);
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.ibs_nmi_registered);
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], APIC_EILVT_MASKED);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_broadcasts - calls, 1U);
	/* Released: the next user reserves and scans anew. */
	ibs_reserve(test);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_ibs_nmi_registers, 2U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_broadcasts - calls, 2U);
}

/* Unload does not wait for the grace period: the release is made now. */
static void ibs_release_at_exit(struct kunit *test)
{
	ibs_start(test, &sim_fam10);
	KUNIT_ASSERT_EQ(test, perfctr_cpu_ibs_reserve(), 0);
	perfctr_cpu_ibs_release();
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.ibs_nmi_registered);
	pc_ibs_exit();
	KUNIT_EXPECT_FALSE(test, perfctr_x86_sim.ibs_nmi_registered);
	KUNIT_EXPECT_EQ(test, sim_ibs.eilvt[SIM_IBS_LVT_OFFSET], APIC_EILVT_MASKED);
	/* A user still there keeps it: exit gives back only the idle one. */
	ibs_reserve(test);
	pc_ibs_exit();
	KUNIT_EXPECT_TRUE(test, perfctr_x86_sim.ibs_nmi_registered);
}

static struct kunit_case ibs_cases[] = {
	KUNIT_CASE_PARAM(ibs_detects_caps, ibs_detect_gen_params),
	KUNIT_CASE(ibs_model_cpuid),
	KUNIT_CASE_PARAM(ibs_setup_rules, ibs_rule_gen_params),
	KUNIT_CASE(ibs_reserve_programs_lvt),
	KUNIT_CASE(ibs_reserve_shares_perf_lvt),
	KUNIT_CASE(ibs_reserve_offset_taken),
	KUNIT_CASE(ibs_reserve_no_offset),
	KUNIT_CASE(ibs_reserve_without_ibs),
	KUNIT_CASE(ibs_resume_suspend_writes),
	KUNIT_CASE(ibs_suspend_writes_per_family),
	KUNIT_CASE(ibs_resume_busy),
	KUNIT_CASE(ibs_suspend_leaves_perf),
	KUNIT_CASE(ibs_op_sample),
	KUNIT_CASE(ibs_fetch_sample),
	KUNIT_CASE(ibs_invalid_fields_zero),
	KUNIT_CASE(ibs_sample_without_tsc),
	KUNIT_CASE(ibs_rip_invalid_needs_cap),
	KUNIT_CASE(ibs_nmi_not_ours),
	KUNIT_CASE(ibs_masked_lvt_no_nmi),
	KUNIT_CASE(ibs_rate_op_cycles),
	KUNIT_CASE(ibs_rate_op_ops),
	KUNIT_CASE(ibs_rate_fetch),
	KUNIT_CASE(ibs_rate_fetch_random),
	KUNIT_CASE(ibs_suspend_delivers_latched),
	KUNIT_CASE(ibs_late_nmi_claimed_once),
	KUNIT_CASE(ibs_busy_scanned_at_reserve),
	KUNIT_CASE(ibs_setups_call_once),
	KUNIT_CASE(ibs_busy_answer_ages),
	KUNIT_CASE(ibs_release_grace),
	KUNIT_CASE(ibs_release_at_exit),
	{}
};

SUITEOF(ibs_cases,
	.name = "perfctr_x86_ibs", .init = ibs_init, .exit = ibs_exit);
