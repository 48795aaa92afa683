/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check_hw: make check-hw's logic (tests/hw/) in the test VM. rules.c
 * feeds the judge measured values typed here; runner.c runs the real
 * runner (/bin/perfctr-check-hw) on perfctr.ko under TCG, where it must
 * refuse, and on the simulated PMUs, where it must measure.
 */
#ifndef _CHECK_HW_SUITE_H
#define _CHECK_HW_SUITE_H

#include <check.h>

#include "check_util.h"
#include "judge.h"

void hw_rules_tcase(struct Suite *s);
void hw_runner_tcase(struct Suite *s);

#endif
