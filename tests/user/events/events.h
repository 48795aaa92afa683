/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The named-events suite (check_events): libperfctr's tables, lookup,
 * syntax and encoding, and counting by name on the simulated PMUs. One
 * file per area.
 */
#ifndef _PERFCTR_EVENTS_CHECK_H
#define _PERFCTR_EVENTS_CHECK_H

#include <check.h>

#include "check_util.h"
#include "libperfctr.h"

void ev_lookup_tcase(struct Suite *s);
void ev_encode_tcase(struct Suite *s);
void ev_count_tcase(struct Suite *s);

/* Whether this build has perf's own tables (linux-source-6.12). */
int ev_have_perf_tables(void);

#endif /* _PERFCTR_EVENTS_CHECK_H */
