# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
# shellcheck disable=SC2154 # check.sh sets kb and results
# check.sh's x86 part: the KUnit and Check suites in the x86_64 test VM.
# Sourced by check.sh, whose build section made $BUILD/x86_64 and
# $BUILD/user against the test kernel $kb.

want x86 || return 0
section "test VM: KUnit and Check suites (x86_64, TCG, -smp 2)"
# The fuzzer runs PERFCTR_FUZZ_SECONDS (20) on each of five models, the
# stress run PERFCTR_STRESS_SECONDS (30) on four and two thirds of it on
# the TSC, each with a few seconds to start and stop; zen4's Check suites
# take about as long again as another model's, the Intel v4/v5 and
# hybrid models' about 300 s more (450 on a busy host), check_hw 60.
vm_suites "" x86 "$BUILD/user" "$BUILD/vm-check.log" \
	--timeout $((2340 + 5 * ${PERFCTR_FUZZ_SECONDS:-20} + \
	6 * ${PERFCTR_STRESS_SECONDS:-30})) --user "$BUILD/user" check "$kb" check \
	"$BUILD/vm-check.log" "$BUILD/x86_64"/{perfctr,perfctr_test,perfctr_simpmu}.ko
