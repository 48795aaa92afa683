// SPDX-License-Identifier: GPL-2.0-only
/*
 * The sets' fast suite: each test in its own process (CK_FORK), so that
 * the driver's static state starts fresh and a sanitizer's report ends
 * only the test that caused it.
 */
#include <stdlib.h>

#include "areas.h"
#include "harness.h"

TCase *vp_tcase(Suite *s, const char *name)
{
	TCase *tc = tcase_create(name);

	tcase_add_checked_fixture(tc, fk_setup, fk_teardown);
	tcase_set_timeout(tc, 10);
	suite_add_tcase(s, tc);
	return tc;
}

int main(void)
{
	static void (*const areas[])(Suite *s) = {
		area_life, area_basic, area_exec, area_unlink, area_exit, area_signal,
		area_inherit, area_files,
	};
	Suite *s = suite_create("vp");
	SRunner *sr;
	unsigned int i;
	int failed;

	for (i = 0; i < ARRAY_SIZE(areas); i++)
		areas[i](s);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
