// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: which ppc32 driver each simulated CPU gets, what it reports,
 * that it touches no register the CPU lacks, and that counters which do
 * not count (QEMU) fall back to the timebase with the reason given.
 */
#include <linux/rcupdate.h>

#include "arch_test.h"

struct detect_case {
	const struct perfctr_ppc_sim_model *model;
	int err;
	const char *name;
	unsigned int nrctrs;
	unsigned int features;
	const char *fallback;	/* a substring, or NULL for none */
	unsigned int khz, mult;
};

#define RDPMC	PERFCTR_FEATURE_RDPMC
#define RDTSC	PERFCTR_FEATURE_RDTSC
#define PCINT	PERFCTR_FEATURE_PCINT

/*
 * One case per entry of the PVR table (detect.c), and PCINT on both sides
 * of each revision boundary: 750FX DD2.2/DD2.3, 7410 rev 1.2/1.3.
 */
static const struct detect_case detect_cases[] = {
	{ &sim_ppc_604, 0, "PowerPC 604", 2, RDTSC | PCINT, NULL, 200000, 4 },
	{ &sim_ppc_604e, 0, "PowerPC 604e", 4, RDTSC | PCINT, NULL, 350000, 14 },
	{ &sim_ppc_604ev, 0, "PowerPC 604e", 4, RDTSC | PCINT, NULL, 300000, 12 },
	{ &sim_ppc_750, 0, "PowerPC 750", 4, RDPMC | RDTSC, NULL, 400000, 16 },
	{ &sim_ppc_750cxe, 0, "PowerPC 750", 4, RDPMC | RDTSC, NULL,
	  500000, 20 },
	{ &sim_ppc_750fx_dd22, 0, "PowerPC 750", 4, RDPMC | RDTSC, NULL,
	  700000, 21 },
	{ &sim_ppc_750fx, 0, "PowerPC 750", 4, RDPMC | RDTSC | PCINT, NULL,
	  800000, 24 },
	{ &sim_ppc_750gx, 0, "PowerPC 750", 4, RDPMC | RDTSC | PCINT, NULL,
	  1000000, 30 },
	{ &sim_ppc_7400, 0, "PowerPC 7400", 4, RDPMC | RDTSC, NULL,
	  450000, 18 },
	{ &sim_ppc_7410_r12, 0, "PowerPC 7400", 4, RDPMC | RDTSC, NULL,
	  450000, 18 },
	{ &sim_ppc_7410, 0, "PowerPC 7400", 4, RDPMC | RDTSC | PCINT, NULL,
	  500000, 20 },
	{ &sim_ppc_7450, 0, "PowerPC 7450", 6, RDPMC | RDTSC | PCINT, NULL,
	  733000, 22 },
	{ &sim_ppc_7455, 0, "PowerPC 7450", 6, RDPMC | RDTSC | PCINT, NULL,
	  1250000, 15 },
	{ &sim_ppc_7457, 0, "PowerPC 7450", 6, RDPMC | RDTSC | PCINT, NULL,
	  1300000, 13 },
	{ &sim_ppc_7447a, 0, "PowerPC 7450", 6, RDPMC | RDTSC | PCINT, NULL,
	  1420000, 17 },
	{ &sim_ppc_7448, 0, "PowerPC 7450", 6, RDPMC | RDTSC | PCINT, NULL,
	  1700000, 17 },
	{ &sim_ppc_qemu_7450, 0, "PowerPC 7450", 0, RDTSC,
	  "do not count", 900000, 9 },
	{ &sim_ppc_qemu_750, 0, "PowerPC 750", 0, RDTSC,
	  "do not count", 900000, 9 },
	{ &sim_ppc_603e, 0, "Generic PowerPC with timebase", 0, RDTSC, NULL,
	  200000, 8 },
	/* The generic driver needs Open Firmware's timebase frequency. */
	{ &sim_ppc_603e_no_tb, -ENODEV },
	{ &sim_ppc_qemu_7450_no_tb, -ENODEV },
	{ &sim_ppc_601, -ENODEV },
};

static void detect_case_desc(const struct detect_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->model->name);
}

KUNIT_ARRAY_PARAM(detect, detect_cases, detect_case_desc);

static void ppc_detect(struct kunit *test)
{
	const struct detect_case *c = test->param_value;
	int err;

	err = sim_start(test, c->model);
	KUNIT_ASSERT_EQ(test, err, c->err);
	if (err)
		return;
	KUNIT_EXPECT_STREQ(test, perfctr_cpu_name(), c->name);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, c->nrctrs);
	KUNIT_EXPECT_EQ(test, perfctr_info.features, c->features);
	KUNIT_EXPECT_EQ(test, perfctr_info.cpu_khz, c->khz);
	KUNIT_EXPECT_EQ(test, perfctr_info.tsc_to_cpu_mult, c->mult);
	if (c->fallback)
		KUNIT_EXPECT_NOT_NULL(test, strstr(perfctr_info.fallback_reason ?: "",
						   c->fallback));
	else
		KUNIT_EXPECT_NULL(test, perfctr_info.fallback_reason);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&perfctr_cpus_forbidden_mask));
	/* The counters are reserved from the kernel unless there are none. */
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.reserved, c->nrctrs != 0);
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_FALSE(test, perfctr_ppc_sim.reserved);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_bad, 0U);
}

static const struct perfctr_ppc_sim_model *const bamr_models[] = {
	&sim_ppc_7400, &sim_ppc_7450,
};

KUNIT_ARRAY_PARAM(bamr, bamr_models, sim_model_desc);

/* A reservation clears every register the CPU has, BAMR included. */
static void ppc_detect_reserve_clears(struct kunit *test)
{
	const struct perfctr_ppc_sim_model *const *m = test->param_value;
	unsigned int i;

	sim_pin(test);
	perfctr_ppc_sim_reset(*m);
	perfctr_ppc_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	perfctr_ppc_sim.autotick = 0;
	for (i = 0; i < (*m)->nrctrs; i++)
		perfctr_ppc_sim.pmc[i] = 0x1234 + i;
	perfctr_ppc_sim.mmcr[0] = 0x40;
	perfctr_ppc_sim.mmcr[1] = 0x08000000;
	perfctr_ppc_sim.mmcr[2] = 0x80000000;
	perfctr_ppc_sim.bamr = 0xFFF;
	KUNIT_ASSERT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
	for (i = 0; i < (*m)->nrctrs; i++)
		KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[i], 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0], FC);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[1], 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[2], 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.bamr, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_bad, 0U);
}

/* perf_events holds the PMC hardware: a clear refusal, nothing touched. */
static void ppc_detect_kernel_busy(struct kunit *test)
{
	const char *holder;

	sim_pin(test);
	perfctr_ppc_sim_reset(&sim_ppc_750);
	perfctr_ppc_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	perfctr_ppc_sim.autotick = 0;
	perfctr_ppc_sim.kernel_busy = true;
	perfctr_ppc_sim.mmcr[0] = 0x40;
	perfctr_ppc_sim.pmc[0] = 77;
	holder = perfctr_cpu_reserve(SIM_SERVICE);
	KUNIT_EXPECT_STREQ(test, holder, "perf_events");
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserved_by());
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.mmcr[0], 0x40U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.pmc[0], 77U);
	/* Once perf_events lets go, the reservation goes through. */
	perfctr_ppc_sim.kernel_busy = false;
	KUNIT_EXPECT_NULL(test, perfctr_cpu_reserve(SIM_SERVICE));
	KUNIT_EXPECT_STREQ(test, perfctr_cpu_reserved_by(), SIM_SERVICE);
}

/* One holder at a time; a release by anyone else changes nothing. */
static void ppc_detect_one_holder(struct kunit *test)
{
	static const char other[] = "other";

	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_ppc_604), 0);
	KUNIT_EXPECT_STREQ(test, perfctr_cpu_reserve(other), SIM_SERVICE);
	perfctr_cpu_release(other);
	KUNIT_EXPECT_STREQ(test, perfctr_cpu_reserved_by(), SIM_SERVICE);
	KUNIT_EXPECT_TRUE(test, perfctr_ppc_sim.reserved);
}

/* Perf_events holding the counters at load: no self-test, no fallback. */
static void ppc_detect_busy_at_init(struct kunit *test)
{
	sim_pin(test);
	perfctr_ppc_sim_reset(&sim_ppc_qemu_7450);
	perfctr_ppc_sim.kernel_busy = true;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	KUNIT_EXPECT_STREQ(test, perfctr_cpu_name(), "PowerPC 7450");
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_pmc_reads, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_ppc_sim.nr_mmcr_writes, 0U);
}

/*
 * After release no exception reaches the handler, and one already running
 * on another CPU (interrupts off: an RCU reader) has finished: a grace
 * period has passed since the kernel took the handler back.
 */
static void ppc_detect_release_waits(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_ppc_7450), 0);
	perfctr_cpu_release(SIM_SERVICE);
	KUNIT_EXPECT_FALSE(test, perfctr_ppc_sim.reserved);
	KUNIT_EXPECT_TRUE(test,
			  poll_state_synchronize_rcu(perfctr_ppc_sim.release_gp));
}

/* perf's ppc CPU id: the PVR in eight hex digits after "0x". */
static void ppc_detect_cpuid(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_ppc_7450), 0);
	KUNIT_EXPECT_STREQ(test, perfctr_info.cpuid, "0x80000201");
	sim_stop(test);
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_ppc_604), 0);
	KUNIT_EXPECT_STREQ(test, perfctr_info.cpuid, "0x00040103");
}

static struct kunit_case detect_test_cases[] = {
	KUNIT_CASE_PARAM(ppc_detect, detect_gen_params),
	KUNIT_CASE_PARAM(ppc_detect_reserve_clears, bamr_gen_params),
	KUNIT_CASE(ppc_detect_kernel_busy),
	KUNIT_CASE(ppc_detect_cpuid),
	KUNIT_CASE(ppc_detect_one_holder),
	KUNIT_CASE(ppc_detect_busy_at_init),
	KUNIT_CASE(ppc_detect_release_waits),
	{}
};

SUITEOF(detect_test_cases,
	.name = "perfctr_ppc_detect", .exit = sim_stop);
