// SPDX-License-Identifier: GPL-2.0-only
/*
 * A set's life as virtual.rst draws it ("A set's life"): every pair of
 * states, each move the diagram has made, each other refused with one
 * warning and the state unchanged. The states and the moves are typed
 * here from the document, not taken from the driver.
 */
#include "areas.h"
#include "harness.h"

enum { SPARE, LINKING, LINKED, EXITED, UNLINKED, DEAD, NLIVES };

static const char *const names[NLIVES] = {
	"SPARE", "LINKING", "LINKED", "EXITED", "UNLINKED", "DEAD",
};

/* The diagram's moves: allowed[from] has bit to. */
static const unsigned int allowed[NLIVES] = {
	[SPARE]		= 1U << LINKING | 1U << LINKED,
	[LINKING]	= 1U << LINKED | 1U << EXITED | 1U << UNLINKED |
			  1U << DEAD,
	[LINKED]	= 1U << EXITED | 1U << UNLINKED,
	[EXITED]	= 1U << DEAD,
	[UNLINKED]	= 1U << DEAD,
	[DEAD]		= 0,
};

/* _i runs over every (from, to): from = _i / NLIVES, to = _i % NLIVES. */
START_TEST(life_moves_as_drawn)
{
	int from = _i / NLIVES, to = _i % NLIVES, after = -1;
	bool ok = allowed[from] & 1U << to;
	int warned = fk.warnings;

	if (!ok)
		fk.expected_warnings++;
	ck_assert_int_eq(vpt_life_try(from, to, &after), ok);
	ck_assert_msg(after == (ok ? to : from), "%s -> %s: now %s",
		      names[from], names[to], names[after]);
	ck_assert_int_eq(fk.warnings - warned, ok ? 0 : 1);
}

/* Only forward, as the enum orders them. */
START_TEST(life_only_forward)
{
	int from, to;

	for (from = 0; from < NLIVES; from++)
		for (to = 0; to <= from; to++)
			ck_assert_msg(!(allowed[from] & 1U << to),
				      "%s -> %s goes back", names[from],
				      names[to]);
}

void area_life(Suite *s)
{
	TCase *tc = vp_tcase(s, "life");

	tcase_add_loop_test(tc, life_moves_as_drawn, 0, NLIVES * NLIVES);
	tcase_add_test(tc, life_only_forward);
}
