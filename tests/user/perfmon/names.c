// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_perfmon: FreeBSD's names for struct pmc's union. A program may
 * use the union directly (pmc_pmcu.pmcu_s.pmcus_event, ...,
 * pmc_pmcu.pmcu_val) as well as the accessors (pmc_event, ..., pmc_val):
 * both must name the same bytes, and a setup written through either must
 * reach the driver as the same word (Documentation/perfctr/perfmon.rst).
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "perfmon.h"

/* The layout FreeBSD/i386 has, on every ABI: compiled, not run. */
static_assert(sizeof(struct pmc) == 8, "struct pmc is 8 bytes");
static_assert(offsetof(struct pmc, pmc_pmcu) == 4, "union at byte 4");
static_assert(sizeof(((struct pmc *)0)->pmc_pmcu) == 4, "union of 4");
static_assert(offsetof(struct pmc, pmc_pmcu.pmcu_s.pmcus_event) == 4 &&
	      offsetof(struct pmc, pmc_pmcu.pmcu_s.pmcus_unit) == 5 &&
	      offsetof(struct pmc, pmc_pmcu.pmcu_s.pmcus_flags) == 6 &&
	      offsetof(struct pmc, pmc_pmcu.pmcu_s.pmcus_mask) == 7,
	      "the bytes in PerfEvtSel order");
static_assert(offsetof(struct pmc, pmc_pmcu.pmcu_val) == 4, "the word");

/* A setup of four distinct bytes, so that a swapped pair shows. */
#define EV	0xC0
#define UNIT	0x5A
#define FLAGS	PMCF_USR
#define MASK	0x03

static void set_through_union(struct pmc *p)
{
	p->pmc_pmcu.pmcu_s.pmcus_event = EV;
	p->pmc_pmcu.pmcu_s.pmcus_unit = UNIT;
	p->pmc_pmcu.pmcu_s.pmcus_flags = FLAGS;
	p->pmc_pmcu.pmcu_s.pmcus_mask = MASK;
}

/* Written through the union's names, read through the accessors. */
START_TEST(test_union_bytes_are_accessors)
{
	struct pmc p, q;

	memset(&p, 0xEE, sizeof(p));
	p.pmc_num = 1;
	set_through_union(&p);
	ck_assert_uint_eq(p.pmc_event, EV);
	ck_assert_uint_eq(p.pmc_unit, UNIT);
	ck_assert_uint_eq(p.pmc_flags, FLAGS);
	ck_assert_uint_eq(p.pmc_mask, MASK);
	ck_assert_ptr_eq(&p.pmc_event, &p.pmc_pmcu.pmcu_s.pmcus_event);
	ck_assert_ptr_eq(&p.pmc_mask, &p.pmc_pmcu.pmcu_s.pmcus_mask);
	ck_assert_ptr_eq(&p.pmc_val, &p.pmc_pmcu.pmcu_val);
	/* The same bytes as the accessors write. */
	memset(&q, 0xEE, sizeof(q));
	q.pmc_num = 1;
	q.pmc_event = EV;
	q.pmc_unit = UNIT;
	q.pmc_flags = FLAGS;
	q.pmc_mask = MASK;
	ck_assert_int_eq(memcmp(&p, &q, sizeof(p)), 0);
}

/* The word is the four bytes, the event lowest (x86 is little-endian). */
START_TEST(test_union_word_is_bytes)
{
	unsigned int word = EV | UNIT << 8 | FLAGS << 16 | MASK << 24;
	struct pmc p = { .pmc_num = 0 };

	set_through_union(&p);
#ifdef __powerpc__
	/* Big-endian: the same bytes, the other way round in the word. */
	word = __builtin_bswap32(word);
#endif
	ck_assert_uint_eq(p.pmc_pmcu.pmcu_val, word);
	ck_assert_uint_eq(p.pmc_val, word);
	p.pmc_pmcu.pmcu_val = 0;
	ck_assert_uint_eq(p.pmc_event, 0);
	p.pmc_val = word;
	ck_assert_uint_eq(p.pmc_pmcu.pmcu_s.pmcus_event, EV);
	ck_assert_uint_eq(p.pmc_pmcu.pmcu_s.pmcus_mask, MASK);
}

/*
 * A setup made through the union's names is the driver's word: PMIOGET
 * gives it back, read through either name. The TSC-only layouts refuse
 * it as any setup (EOPNOTSUPP), and PMIOGET then finds none (ENXIO).
 */
START_TEST(test_union_setup_reaches_driver)
{
	struct pmc p = { .pmc_num = 0 }, got = { .pmc_num = 0 };
	unsigned int word = pm_word();
	int fd = pm_open();

	p.pmc_pmcu.pmcu_s.pmcus_event = word & 0xFF;
	p.pmc_pmcu.pmcu_s.pmcus_unit = (word >> 8) & 0xFF;
	p.pmc_pmcu.pmcu_s.pmcus_flags = (word >> 16) & 0xFF;
	p.pmc_pmcu.pmcu_s.pmcus_mask = word >> 24;
	if (layout == PM_NONE) {
		ck_assert_int_eq(pm_ioctl(fd, PMIOSETUP, &p), EOPNOTSUPP);
		ck_assert_int_eq(pm_ioctl(fd, PMIOGET, &got), ENXIO);
		close(fd);
		return;
	}
	ck_assert_uint_eq(p.pmc_val, word);
	ck_assert_int_eq(pm_ioctl(fd, PMIOSETUP, &p), 0);
	ck_assert_int_eq(pm_ioctl(fd, PMIOGET, &got), 0);
	ck_assert_uint_eq(got.pmc_pmcu.pmcu_val, word);
	ck_assert_uint_eq(got.pmc_event, p.pmc_pmcu.pmcu_s.pmcus_event);
	ck_assert_uint_eq(got.pmc_pmcu.pmcu_s.pmcus_flags, p.pmc_flags);
	close(fd);
}

void pm_names_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "names", NULL, NULL);

	tcase_add_test(tc, test_union_bytes_are_accessors);
	tcase_add_test(tc, test_union_word_is_bytes);
	tcase_add_test(tc, test_union_setup_reaches_driver);
}
