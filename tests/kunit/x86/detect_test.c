// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: x86 detection. Each case is a simulated CPU; the driver must
 * pick the right family, counter count and features, run its self-test
 * without touching a missing register, and fall back to the TSC where
 * the counters do not count.
 */
#include "arch_test.h"

struct detect_case {
	const struct perfctr_x86_sim_model *model;
	const char *name;
	unsigned int nrctrs;
	unsigned int features;
	const char *fallback;	/* substring of the reason, or NULL */
};

#define RD (PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_RDTSC)
#define RDI (RD | PERFCTR_FEATURE_PCINT)	/* and overflow interrupts */
/*
 * And i-mode presets beyond 32 bits: AMD's counter MSRs take all 48
 * (APM vol. 2, 13.2.1), Intel's through IA32_A_PMCx where
 * IA32_PERF_CAPABILITIES[13] says so (SDM vol. 3B, 20.2.6).
 */
#define RDIW (RDI | PERFCTR_FEATURE_WIDE_IRESET)

static const struct detect_case detect_cases[] = {
	{ &sim_generic, "Generic x86 with TSC", 0, PERFCTR_FEATURE_RDTSC },
	{ &sim_p5, "Intel P5", 2, PERFCTR_FEATURE_RDTSC },
	{ &sim_p5mmx, "Intel P5MMX", 2, RD },
	{ &sim_mii, "Cyrix 6x86MX/MII/III", 2, RD },
	{ &sim_winchip, "WinChip C6/2/3", 2, PERFCTR_FEATURE_RDPMC },
	{ &sim_p6, "Intel P6", 2, RDI },
	/* Hidden TSC: no rdtsc; hidden APIC: no overflow interrupt (X13). */
	{ &sim_p6_no_tsc, "Intel P6", 2, PERFCTR_FEATURE_RDPMC | PERFCTR_FEATURE_PCINT },
	{ &sim_p6_no_apic, "Intel P6", 2, RD },
	{ &sim_arch_v1, "Intel architectural perfmon", 2, RDI },
	{ &sim_arch_v2, "Intel architectural perfmon", 4 + 3, RDI },
	{ &sim_k7, "AMD K7", 4, RDIW },
	{ &sim_k8, "AMD K8", 4, RDIW },
	{ &sim_fam10, "AMD Family 10h+", 4, RDIW },
	{ &sim_fam15, "AMD Family 15h+ (6 core counters)", 6, RDIW },
	{ &sim_zen3, "AMD Family 15h+ (6 core counters)", 6, RDIW },
	{ &sim_hygon, "AMD Family 15h+ (6 core counters)", 6, RDIW },
	{ &sim_zen4, "AMD PerfMonV2 (Zen 4 and later)", 6, RDIW },
	{ &sim_c3, "VIA C3", 1, RD },
	{ &sim_p4, "Intel P4", 18, RDI },
	{ &sim_p4_ht, "Intel P4", 18, RDI },
	/* Leaf 0AH of each (intel.c): v4 4 + 3, v5 8 + fixed 0-3. */
	{ &sim_skylake, "Intel architectural perfmon", 4 + 3, RDIW },
	{ &sim_sapphire_rapids, "Intel architectural perfmon", 8 + 4, RDIW },
	{ &sim_core2_tcg, "Generic x86 with TSC", 0, PERFCTR_FEATURE_RDTSC, "CPUID leaf 0xA" },
	/* QEMU TCG: MSRs that read 0, or that fault. */
	{ &sim_qemu_p6, "Intel P6", 0, PERFCTR_FEATURE_RDTSC, "do not count" },
	{ &sim_qemu_k7, "AMD K7", 0, PERFCTR_FEATURE_RDTSC, "not writable" },
};

static void detect_case_desc(const struct detect_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->model->name);
}

KUNIT_ARRAY_PARAM(detect, detect_cases, detect_case_desc);

static void x86_detect(struct kunit *test)
{
	const struct detect_case *c = test->param_value;

	perfctr_x86_sim_reset(c->model);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	KUNIT_EXPECT_STREQ(test, perfctr_cpu_name(), c->name);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, c->nrctrs);
	KUNIT_EXPECT_EQ(test, perfctr_info.features, c->features);
	if (c->fallback) {
		KUNIT_ASSERT_NOT_NULL(test, perfctr_info.fallback_reason);
		KUNIT_EXPECT_NOT_NULL(test, strstr(perfctr_info.fallback_reason,
						   c->fallback));
	} else {
		KUNIT_EXPECT_NULL(test, perfctr_info.fallback_reason);
	}
	/* The self-test probed safely and left nothing behind. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
	if (!c->model->has_tsc)
		KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_rdtsc, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.kernel_reserved, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.sel[0] | perfctr_x86_sim.sel[1] |
			perfctr_x86_sim.cesr, 0ULL);
	perfctr_cpu_exit();
}

static void x86_detect_no_tsc(struct kunit *test)
{
	perfctr_x86_sim_reset(&sim_no_tsc);
	KUNIT_EXPECT_EQ(test, perfctr_cpu_init(), -ENODEV);
	/* No RDTSC (#UD there) on the way. */
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_rdtsc, 0U);
}

/*
 * /dev/perfmon's PMIOTSTAMP reads the TSC through perfctr_cpu_read_tsc():
 * a value where the CPU has a TSC, EOPNOTSUPP and no RDTSC where it has
 * none (the same P6 with CPUID's TSC flag clear, as a hypervisor may).
 */
static void x86_read_tsc(struct kunit *test)
{
	u64 tsc = 0;

	perfctr_x86_sim_reset(&sim_p6);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	perfctr_x86_sim.tsc = 0x123456789ULL;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_read_tsc(&tsc), 0);
	KUNIT_EXPECT_EQ(test, tsc, 0x123456789ULL);
	perfctr_cpu_exit();

	perfctr_x86_sim_reset(&sim_p6_no_tsc);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	tsc = 1;
	KUNIT_EXPECT_EQ(test, perfctr_cpu_read_tsc(&tsc), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, tsc, 1ULL);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_rdtsc, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_bad, 0U);
	perfctr_cpu_exit();
}

/* Counters perf_events holds exist: no self-test, no fallback. */
static void x86_detect_kernel_busy(struct kunit *test)
{
	perfctr_x86_sim_reset(&sim_qemu_p6);
	perfctr_x86_sim.kernel_busy = true;
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 2U);
	KUNIT_EXPECT_NULL(test, perfctr_info.fallback_reason);
	KUNIT_EXPECT_EQ(test, perfctr_x86_sim.nr_wrmsr, 0U);
	perfctr_cpu_exit();
}

/* HT P4: every core's thread 1 is forbidden; elsewhere nothing is. */
static void x86_detect_ht_forbidden(struct kunit *test)
{
	unsigned int cpu;

	perfctr_x86_sim_reset(&sim_p4_ht);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	for_each_possible_cpu(cpu)
		KUNIT_EXPECT_EQ(test, cpumask_test_cpu(cpu, &perfctr_cpus_forbidden_mask),
				(bool)(cpu & 1));
	perfctr_cpu_exit();

	perfctr_x86_sim_reset(&sim_p4);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	KUNIT_EXPECT_TRUE(test, cpumask_empty(&perfctr_cpus_forbidden_mask));
	perfctr_cpu_exit();
}

/*
 * The CPU id perf's pmu-events mapfiles match (tools/perf's x86
 * header.c): CPUID leaf 0's vendor, then the family in decimal and the
 * model and stepping in upper-case hex, extended fields added as the
 * SDM's CPUID leaf 1 says. Written out here from those rules.
 */
struct cpuid_case {
	const char *name;
	const struct perfctr_x86_sim_model *model;
	const char *cpuid;
};

static const struct cpuid_case cpuid_cases[] = {
	{ "p5", &sim_p5, "GenuineIntel-5-2-0" },
	{ "p6", &sim_p6, "GenuineIntel-6-8-0" },
	{ "ivy-bridge-e1", &sim_arch_v2, "GenuineIntel-6-3A-9" },
	{ "p4", &sim_p4, "GenuineIntel-15-2-0" },
	{ "k8", &sim_k8, "AuthenticAMD-15-5-0" },
	{ "zen", &sim_fam15, "AuthenticAMD-23-1-0" },
	{ "zen3", &sim_zen3, "AuthenticAMD-25-21-0" },
	{ "zen4", &sim_zen4, "AuthenticAMD-25-11-0" },
	{ "hygon", &sim_hygon, "HygonGenuine-24-0-0" },
	{ "mii", &sim_mii, "CyrixInstead-6-0-0" },
	{ "c3", &sim_c3, "CentaurHauls-6-7-0" },
	{ "skylake", &sim_skylake, "GenuineIntel-6-5E-3" },
	{ "sapphire-rapids", &sim_sapphire_rapids, "GenuineIntel-6-8F-8" },
};

SIM_CASE_DESC(cpuid_case);
KUNIT_ARRAY_PARAM(cpuid, cpuid_cases, cpuid_case_desc);

static void x86_detect_cpuid(struct kunit *test)
{
	const struct cpuid_case *c = test->param_value;

	perfctr_x86_sim_reset(c->model);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	KUNIT_EXPECT_STREQ(test, perfctr_info.cpuid, c->cpuid);
	perfctr_cpu_exit();
}

static struct kunit_case detect_test_cases[] = {
	KUNIT_CASE(x86_detect_ht_forbidden),
	KUNIT_CASE_PARAM(x86_detect, detect_gen_params),
	KUNIT_CASE_PARAM(x86_detect_cpuid, cpuid_gen_params),
	KUNIT_CASE(x86_detect_no_tsc),
	KUNIT_CASE(x86_read_tsc),
	KUNIT_CASE(x86_detect_kernel_busy),
	{}
};

SUITEOF(detect_test_cases,
	.name = "perfctr_x86_detect", .init = sim_pin, .exit = sim_unpin);
