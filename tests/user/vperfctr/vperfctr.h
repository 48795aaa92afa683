/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The vperfctr suite, one file per test case: each file's vp_<area>_tcase()
 * adds its case to the suite (and decides itself what needs a simulated
 * model); main.c assembles them. The shared helpers are the library's
 * (../lib/check_util.h).
 */
#ifndef _PERFCTR_VPERFCTR_CHECK_H
#define _PERFCTR_VPERFCTR_CHECK_H

#include <check.h>

#include "check_util.h"

void vp_files_tcase(struct Suite *s);
void vp_counting_tcase(struct Suite *s);
void vp_state_tcase(struct Suite *s);
void vp_control_tcase(struct Suite *s);
void vp_command_tcase(struct Suite *s);
void vp_remote_tcase(struct Suite *s);
void vp_lifetime_tcase(struct Suite *s);
void vp_sim_tcase(struct Suite *s);
void vp_parse_tcase(struct Suite *s);
void vp_inherit_tcase(struct Suite *s);
void vp_final_tcase(struct Suite *s);

/* The suite's binary exec'd again by lifetime.c's tests, as a probe. */
#define PROBE_ARG	"--exec-probe"
#define PROBE_NEW_ARG	"--exec-new-set"

int exec_probe(void);
int exec_new_set_probe(void);

#endif /* _PERFCTR_VPERFCTR_CHECK_H */
