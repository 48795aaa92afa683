/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The security suite, one file per area: each file's sec_<area>_tcase()
 * adds its test cases to the suite (and decides itself what needs a
 * simulated model); main.c assembles them. The shared helpers are the
 * library's (../lib/check_util.h), and these few the areas share.
 */
#ifndef _PERFCTR_SECURITY_CHECK_H
#define _PERFCTR_SECURITY_CHECK_H

#include <check.h>

#include "check_util.h"

void sec_paranoid_tcase(struct Suite *s);
void sec_hardware_tcase(struct Suite *s);
void sec_access_tcase(struct Suite *s);
void sec_lifetime_tcase(struct Suite *s);
void sec_fastread_tcase(struct Suite *s);
void sec_watches_tcase(struct Suite *s);
void sec_tsc_tcase(struct Suite *s);
void sec_hidepid_tcase(struct Suite *s);

/* paranoid.c: perfctr.paranoid, the defaults, an unprivileged child. */
void set_paranoid(int level);
void defaults(void);
int become_nobody(void);

/* The suite's binary exec'd again, setuid, by lifetime.c's tests. */
#define HELPER_ARG	"--suid-helper"

int suid_helper(int started, int out);

#endif /* _PERFCTR_SECURITY_CHECK_H */
