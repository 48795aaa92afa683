// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "parse" case: perfctr_parse_counter(), the
 * PMC:EVNTSEL[:HIGH] counters vself and gperfctr take. Accepted ones
 * land in the next a-mode slot; refused ones leave the control as it was.
 */
#include <check.h>
#include <errno.h>
#include <string.h>

#include "libperfctr.h"
#include "vperfctr.h"

START_TEST(parse_accepts_counters)
{
	struct perfctr_cpu_control c;

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(perfctr_parse_counter(&c, "0:0x4300c0"), 0);
	ck_assert_int_eq(perfctr_parse_counter(&c, "3:017"), 0);
	ck_assert_uint_eq(c.nractrs, 2);
	ck_assert_uint_eq(c.pmc_map[0], 0);
	ck_assert_uint_eq(c.evntsel[0], 0x4300c0);
	ck_assert_uint_eq(c.pmc_map[1], 3);
	ck_assert_uint_eq(c.evntsel[1], 15);	/* octal, as C reads it */
	ck_assert_int_eq(perfctr_parse_counter(&c, "1:0xffffffff"), 0);
	ck_assert_uint_eq(c.evntsel[2], 0xffffffffU);
#ifndef __powerpc__
	ck_assert_int_eq(perfctr_parse_counter(&c, "2:0x76:0x1"), 0);
	ck_assert_uint_eq(c.evntsel[3], 0x76);
	ck_assert_uint_eq(c.evntsel_high[3], 1);
#endif
}

static const char *const bad_counters[] = {
	"", "0", ":5", "0:", "0:5x", "-1:5", "0:-5", "0:0x100000000",
	"4294967296:1", "0:1:", "0:1:2:3", " 0:1", "0: 1", "x:1",
#ifdef __powerpc__
	"0:1:2",	/* no upper half on ppc32 */
#endif
};

START_TEST(parse_refuses_malformed)
{
	struct perfctr_cpu_control c, before;

	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(perfctr_parse_counter(&c, "1:0x10"), 0);
	before = c;
	errno = 0;
	ck_assert_int_eq(perfctr_parse_counter(&c, bad_counters[_i]), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_mem_eq(&c, &before, sizeof(c));
}

START_TEST(parse_refuses_one_too_many)
{
	struct perfctr_cpu_control c, before;
	unsigned int i;

	memset(&c, 0, sizeof(c));
	for (i = 0; i < PERFCTR_NR_PMCS; i++)
		ck_assert_int_eq(perfctr_parse_counter(&c, "0:1"), 0);
	before = c;
	errno = 0;
	ck_assert_int_eq(perfctr_parse_counter(&c, "0:1"), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_mem_eq(&c, &before, sizeof(c));
}

void vp_parse_tcase(struct Suite *s)
{
	TCase *tc = add_tcase(s, "parse", NULL, NULL);

	tcase_add_test(tc, parse_accepts_counters);
	tcase_add_loop_test(tc, parse_refuses_malformed, 0,
			    ARRAY_SIZE(bad_counters));
	tcase_add_test(tc, parse_refuses_one_too_many);
}
