// SPDX-License-Identifier: GPL-2.0-only
/*
 * KUnit: the cstatus helpers of the user ABI. Each case builds a cstatus
 * from (tsc_on, nractrs, nrictrs) and checks that every helper gives the
 * parts back.
 */
#include <kunit/test.h>
#include <linux/module.h>

#include <perfctr/cpu.h>

struct cstatus_case {
	const char *name;
	u32 tsc_on, nractrs, nrictrs;
};

static const struct cstatus_case cstatus_cases[] = {
	{ "all-off", 0, 0, 0 },
	{ "tsc-only", 1, 0, 0 },
	{ "one-a-mode", 0, 1, 0 },
	{ "one-i-mode", 0, 0, 1 },
	{ "mixed", 1, 2, 3 },
	{ "all-a-mode", 1, PERFCTR_NR_PMCS, 0 },
	{ "all-i-mode", 0, 0, PERFCTR_NR_PMCS },
	{ "split", 0, 5, 13 },
};

static void cstatus_case_desc(const struct cstatus_case *c, char *desc)
{
	snprintf(desc, KUNIT_PARAM_DESC_SIZE, "%s", c->name);
}

KUNIT_ARRAY_PARAM(cstatus, cstatus_cases, cstatus_case_desc);

static void cstatus_roundtrip(struct kunit *test)
{
	const struct cstatus_case *c = test->param_value;
	u32 cs = perfctr_mk_cstatus(c->tsc_on, c->nractrs, c->nrictrs);
	bool any = c->tsc_on || c->nractrs || c->nrictrs;

	KUNIT_EXPECT_EQ(test, perfctr_cstatus_enabled(cs) != 0, any);
	KUNIT_EXPECT_EQ(test, perfctr_cstatus_has_tsc(cs), (int)c->tsc_on);
	KUNIT_EXPECT_EQ(test, perfctr_cstatus_nractrs(cs), c->nractrs);
	KUNIT_EXPECT_EQ(test, perfctr_cstatus_nrctrs(cs),
			c->nractrs + c->nrictrs);
	KUNIT_EXPECT_EQ(test, perfctr_cstatus_has_ictrs(cs) != 0,
			c->nrictrs != 0);
}

/* tsc_on is a truth value: any non-zero input sets only the TSC bit. */
static void cstatus_tsc_on_is_boolean(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, perfctr_mk_cstatus(7, 0, 0),
			perfctr_mk_cstatus(1, 0, 0));
	KUNIT_EXPECT_EQ(test, perfctr_cstatus_nrctrs(perfctr_mk_cstatus(7, 0, 0)),
			0U);
}

static struct kunit_case cstatus_test_cases[] = {
	KUNIT_CASE_PARAM(cstatus_roundtrip, cstatus_gen_params),
	KUNIT_CASE(cstatus_tsc_on_is_boolean),
	{}
};

static struct kunit_suite cstatus_test_suite = {
	.name = "perfctr_cstatus",
	.test_cases = cstatus_test_cases,
};

kunit_test_suite(cstatus_test_suite);

MODULE_DESCRIPTION("KUnit tests for perfctr");
MODULE_LICENSE("GPL");
