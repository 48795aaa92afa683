// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: architectural perfmon on machines whose CPUs answer CPUID leaf
 * 0xA differently (hybrid or asymmetric). The driver must offer what
 * every online CPU has, and refuse a CPU coming online that lacks what
 * it offers. Leaf 0xA (Intel SDM vol. 2A, CPUID): EAX[7:0] version,
 * EAX[15:8] general-purpose counters, EAX[23:16] their width; from
 * version 2, EDX[4:0] fixed counters, EDX[12:5] their width.
 */
#include <linux/cpu.h>

#include "arch_test.h"
#include "../../../arch/x86/perfctr/x86.h"

#define LEAF_A_EAX(version, gp, bits)	((7U << 24) | ((bits) << 16) | \
					 ((gp) << 8) | (version))
#define LEAF_A_EDX(fixed, bits)		((fixed) | ((bits) << 5))
#define FX(n)				(PERFCTR_X86_FIXED_PMC | (n))

/* sim_arch_v2: version 2, 4 counters of 48 bits, 3 fixed of 48 bits. */
#define V2_EAX	LEAF_A_EAX(2, 4, 48)
#define V2_EDX	LEAF_A_EDX(3, 48)

static unsigned int other_cpu(struct kunit *test)
{
	unsigned int cpu = cpumask_any_but(cpu_online_mask, raw_smp_processor_id());

	if (cpu >= nr_cpu_ids)
		kunit_skip(test, "needs a second online CPU");
	return cpu;
}

/* Like sim_start(), with another CPU answering leaf 0xA as @eax, @edx. */
static int start_other(struct kunit *test, u32 eax, u32 edx)
{
	unsigned int cpu;

	sim_pin(test);
	cpu = other_cpu(test);
	perfctr_x86_sim_reset(&sim_arch_v2);
	perfctr_x86_sim_set_leaf_a(cpu, eax, edx);
	return sim_bring_up(test);
}

/* Can one counter at @pmc with @evntsel be programmed? */
static int try_counter(struct kunit *test, u32 pmc, u32 evntsel)
{
	struct perfctr_cpu_state *state = sim_state(test);

	state->control.tsc_on = 1;
	state->control.nractrs = 1;
	state->control.pmc_map[0] = pmc;
	state->control.evntsel[0] = evntsel;
	return perfctr_cpu_update_control(state, false);
}

#define GP_OK	0x0041003CU	/* EN | USR | unhalted core cycles */
#define FX_OK	0x2U		/* CPL > 0 */

/* Every CPU the same: the whole of leaf 0xA is offered. */
static void x86_cpus_alike(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start_other(test, V2_EAX, V2_EDX), 0);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 4U + 3U);
	KUNIT_EXPECT_EQ(test, pc_family.pmc_mask, 0xFU);
	KUNIT_EXPECT_EQ(test, pc_family.fixed_mask, 0x7U);
	KUNIT_EXPECT_EQ(test, (unsigned int)pc_family.ctr_bits, 48U);
	KUNIT_EXPECT_EQ(test, (unsigned int)pc_family.fixed_bits, 48U);
	KUNIT_EXPECT_EQ(test, try_counter(test, 3, GP_OK), 0);
	KUNIT_EXPECT_EQ(test, try_counter(test, FX(2), FX_OK), 0);
}

/* Another CPU has 2 counters and 1 fixed, 40 bits wide: only those. */
static void x86_cpus_intersection(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start_other(test, LEAF_A_EAX(2, 2, 40),
					  LEAF_A_EDX(1, 40)), 0);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 2U + 1U);
	KUNIT_EXPECT_EQ(test, pc_family.pmc_mask, 0x3U);
	KUNIT_EXPECT_EQ(test, pc_family.fixed_mask, 0x1U);
	KUNIT_EXPECT_EQ(test, (unsigned int)pc_family.ctr_bits, 40U);
	KUNIT_EXPECT_EQ(test, (unsigned int)pc_family.fixed_bits, 40U);
	KUNIT_EXPECT_EQ(test, try_counter(test, 1, GP_OK), 0);
	/* On the boot CPU, not the other: -EOPNOTSUPP (x86.rst, hybrids). */
	KUNIT_EXPECT_EQ(test, try_counter(test, 2, GP_OK), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, try_counter(test, 4, GP_OK), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_counter(test, FX(0), FX_OK), 0);
	KUNIT_EXPECT_EQ(test, try_counter(test, FX(1), FX_OK), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, try_counter(test, FX(3), FX_OK), -EINVAL);
}

/* Another CPU has more: the boot CPU's counters are what all have. */
static void x86_cpus_other_has_more(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start_other(test, LEAF_A_EAX(4, 8, 48),
					  LEAF_A_EDX(4, 48)), 0);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 4U + 3U);
	KUNIT_EXPECT_EQ(test, try_counter(test, 4, GP_OK), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, try_counter(test, 8, GP_OK), -EINVAL);
	KUNIT_EXPECT_EQ(test, try_counter(test, FX(3), FX_OK), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, try_counter(test, FX(4), FX_OK), -EINVAL);
}

/* Version 1 somewhere: no fixed counters (they need version 2). */
static void x86_cpus_version1(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start_other(test, LEAF_A_EAX(1, 4, 48),
					  LEAF_A_EDX(3, 48)), 0);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 4U);
	KUNIT_EXPECT_EQ(test, try_counter(test, 3, GP_OK), 0);
	KUNIT_EXPECT_EQ(test, try_counter(test, FX(0), FX_OK), -EOPNOTSUPP);
}

/* No architectural perfmon on one CPU: none on any, the TSC only. */
static void x86_cpus_one_without_perfmon(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, start_other(test, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 0U);
	KUNIT_EXPECT_EQ(test, perfctr_info.family_id, (unsigned int)PERFCTR_X86_GENERIC);
	KUNIT_ASSERT_NOT_NULL(test, perfctr_info.fallback_reason);
	KUNIT_EXPECT_NOT_NULL(test, strstr(perfctr_info.fallback_reason, "leaf 0xA"));
}

/* The driver up on CPUs that all answer leaf 0xA as @eax, @edx. */
static void init_all_alike(struct kunit *test, u32 eax, u32 edx)
{
	unsigned int cpu;

	perfctr_x86_sim_reset(&sim_arch_v2);
	for_each_online_cpu(cpu)
		perfctr_x86_sim_set_leaf_a(cpu, eax, edx);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
}

/*
 * Fixed counters beyond what the driver can address are not offered:
 * 31 reported, 8 used (bits 24-31 of a counter mask), and never more
 * than the state's 18 counters minus the general-purpose ones.
 */
static void x86_cpus_fixed_clamped(struct kunit *test)
{
	sim_pin(test);
	init_all_alike(test, LEAF_A_EAX(2, 4, 48), LEAF_A_EDX(31, 48));
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 4U + 8U);
	KUNIT_EXPECT_EQ(test, pc_family.fixed_mask, 0xFFU);
	KUNIT_EXPECT_EQ(test, try_counter(test, FX(7), FX_OK), 0);
	KUNIT_EXPECT_EQ(test, try_counter(test, FX(8), FX_OK), -EINVAL);
	perfctr_cpu_exit();

	init_all_alike(test, LEAF_A_EAX(2, 16, 48), LEAF_A_EDX(31, 48));
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 16U + 2U);
	KUNIT_EXPECT_EQ(test, pc_family.fixed_mask, 0x3U);
}

/* A CPU coming online, and what its leaf 0xA says. */
struct online_case {
	const char *name;
	u32 eax, edx;
	int expect;
};

static const struct online_case online_cases[] = {
	{ "same", V2_EAX, V2_EDX, 0 },
	{ "more-and-wider", LEAF_A_EAX(4, 8, 64), LEAF_A_EDX(4, 64), 0 },
	{ "fewer-counters", LEAF_A_EAX(2, 3, 48), V2_EDX, -EBUSY },
	{ "narrower-counters", LEAF_A_EAX(2, 4, 40), V2_EDX, -EBUSY },
	{ "fewer-fixed", V2_EAX, LEAF_A_EDX(2, 48), -EBUSY },
	{ "narrower-fixed", V2_EAX, LEAF_A_EDX(3, 40), -EBUSY },
	{ "version1", LEAF_A_EAX(1, 4, 48), V2_EDX, -EBUSY },
	{ "no-perfmon", 0, 0, -EBUSY },
};

SIM_CASE_DESC(online_case)
KUNIT_ARRAY_PARAM(online, online_cases, online_case_desc);

/*
 * The offer was made (4 + 3 counters, 48 bits, version 2); then a CPU
 * comes online. The hotplug callback asks the family's check_cpu().
 */
static void x86_cpus_online(struct kunit *test)
{
	const struct online_case *c = test->param_value;
	unsigned int cpu = nr_cpu_ids - 1;
	char why[256] = "";
	char *msg;

	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_arch_v2), 0);
	KUNIT_ASSERT_NOT_NULL(test, pc_family.check_cpu);
	perfctr_x86_sim_set_leaf_a(cpu, c->eax, c->edx);
	KUNIT_EXPECT_EQ(test, pc_family.check_cpu(cpu, why, sizeof(why)), c->expect);
	if (!c->expect)
		return;
	msg = kasprintf(GFP_KERNEL, "CPU %u has fewer counters than", cpu);
	KUNIT_ASSERT_NOT_NULL(test, msg);
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(why, msg), "why: %s", why);
	KUNIT_EXPECT_NOT_NULL(test, strstr(why, "unload perfctr"));
	kfree(msg);
	/* The offer stands. */
	KUNIT_EXPECT_EQ(test, perfctr_info.nrctrs, 4U + 3U);
}

/*
 * The same through real CPU hotplug: the hotplug callback refuses the
 * CPU, which stays offline; with the counters it comes back. Nothing is
 * reserved, so no other CPU's simulated registers are touched.
 */
static void x86_cpus_hotplug(struct kunit *test)
{
	unsigned int cpu = cpumask_last(cpu_online_mask);

	if (!cpu)
		kunit_skip(test, "needs a second online CPU");
	/* CPU 0 cannot go offline here; stay there. */
	set_cpus_allowed_ptr(current, cpumask_of(0));
	perfctr_x86_sim_reset(&sim_arch_v2);
	perfctr_x86_sim.autotick = 1;
	KUNIT_ASSERT_EQ(test, perfctr_cpu_init(), 0);
	/*
	 * The reservation sets up the CPUs counted in, each once its check
	 * passed: all online ones here, the refused one never.
	 */
	KUNIT_EXPECT_TRUE(test, cpumask_equal(&perfctr_cpus_ready, cpu_online_mask));
	KUNIT_ASSERT_EQ(test, remove_cpu(cpu), 0);
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(cpu, &perfctr_cpus_ready));
	perfctr_x86_sim_set_leaf_a(cpu, LEAF_A_EAX(2, 2, 48), V2_EDX);
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), -EBUSY);
	KUNIT_EXPECT_FALSE(test, cpu_online(cpu));
	KUNIT_EXPECT_FALSE(test, cpumask_test_cpu(cpu, &perfctr_cpus_ready));
	perfctr_x86_sim_set_leaf_a(cpu, V2_EAX, V2_EDX);
	KUNIT_EXPECT_EQ(test, add_cpu(cpu), 0);
	KUNIT_EXPECT_TRUE(test, cpu_online(cpu));
	KUNIT_EXPECT_TRUE(test, cpumask_test_cpu(cpu, &perfctr_cpus_ready));
}

/* Families whose CPUs are all alike have nothing to check. */
static void x86_cpus_online_other_families(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, sim_start(test, &sim_k7), 0);
	KUNIT_EXPECT_NULL(test, pc_family.check_cpu);
}

static struct kunit_case cpus_test_cases[] = {
	KUNIT_CASE(x86_cpus_alike),
	KUNIT_CASE(x86_cpus_intersection),
	KUNIT_CASE(x86_cpus_other_has_more),
	KUNIT_CASE(x86_cpus_version1),
	KUNIT_CASE(x86_cpus_one_without_perfmon),
	KUNIT_CASE(x86_cpus_fixed_clamped),
	KUNIT_CASE_PARAM(x86_cpus_online, online_gen_params),
	KUNIT_CASE(x86_cpus_hotplug),
	KUNIT_CASE(x86_cpus_online_other_families),
	{}
};

SUITEOF(cpus_test_cases,
	.name = "perfctr_x86_cpus", .exit = sim_stop);
