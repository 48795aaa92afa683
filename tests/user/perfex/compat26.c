// SPDX-License-Identifier: GPL-2.0-only
/*
 * The perfex suite's "compat26" case: perfctr 2.6's event arguments
 * (perfex.rst, "Coming from perfctr 2.6's perfex"). Each rule of the
 * EVNTSEL[/ESCR][@PMC] form and of --p4pe/--p4pmv has its accepting
 * control (--print-control, which needs no module) and its refusal, exit
 * status 2 and a "perfex:" line saying what to write instead, nothing
 * run; and such events count on the simulated PMUs, or show <not
 * supported> where only the TSC counts, and a control the module refuses
 * gets the note on what to check.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "suite.h"

#define P6	"--cpuid=GenuineIntel-6-7-3"
#define P4	"--cpuid=GenuineIntel-15-2-9"
#define K7	"--cpuid=AuthenticAMD-6-2-0"
#define FAM10H	"--cpuid=AuthenticAMD-16-2-0"
#define PC	"--print-control"
/* 2.6's own example: L1 load misses retired, by replay tagging. */
#define P4_L1	"0x0003B000/0x12000204@0x8000000C"
#define REFUSED	"perfex: the module refused the control: Invalid argument"
#define CHECK_NOTE \
	"perfex: note: perfctr 2.6 events go to the registers as given"

struct accept {
	const char *argv[12];
	const char *lines[6];	/* each a line of the control printed */
};

static const struct accept accepted[] = {
	/* No @PMC: event n on counter n; numbers of any case. */
	{ { P6, "-e", "0x004100C0", PC },
	  { "pmc_map[0]\t0x00000000", "evntsel[0]\t0x004100c0",
	    "# counter 0: 0x004100C0" } },
	{ { K7, "-e", "0x00430040", "-e", "0x00430041", PC },
	  { "nractrs\t\t2", "pmc_map[1]\t0x00000001",
	    "evntsel[1]\t0x00430041" } },
	/* @PMC as given, also out of order; a number 2.6 read the same. */
	{ { K7, "-e", "0x00430040@3", "-e", "0x00430041@0", PC },
	  { "pmc_map[0]\t0x00000003", "pmc_map[1]\t0x00000000" } },
	{ { K7, "-e", "0x00430040@0x2", PC }, { "pmc_map[0]\t0x00000002" } },
#ifndef __powerpc__
	/* The P4: /ESCR to its ESCR, --p4pe and --p4pmv to PEBS. */
	{ { P4, "-e", P4_L1, "--p4pe=0x01000001", "--p4pmv=0x1", PC },
	  { "pmc_map[0]\t0x8000000c", "evntsel[0]\t0x0003b000",
	    "p4.escr[0]\t0x12000204", "p4.pebs_enable\t0x01000001",
	    "p4.pebs_matrix_vert\t0x00000001" } },
	/* 2.6's long names of the two. */
	{ { P4, "-e", P4_L1, "--p4_pebs_enable=0x01000002",
	    "--p4_pebs_matrix_vert=1", PC },
	  { "p4.pebs_enable\t0x01000002",
	    "p4.pebs_matrix_vert\t0x00000001" } },
	/* AMD family 10h on: /ESCR is EVNTSEL's high half, as in 2.6.4x. */
	{ { FAM10H, "-e", "0x004300d6/0x1@0", PC },
	  { "evntsel[0]\t0x004300d6", "evntsel_high[0]\t0x00000001" } },
#endif
};

START_TEST(compat26_control_accepted)
{
	const struct accept *a = &accepted[_i];
	struct px_result r;
	char want[128];
	int i;

	px_run(&r, a->argv);
	ck_assert_msg(r.status == 0, "case %d: status %d:\n%s", _i, r.status,
		      r.err);
	for (i = 0; i < 6 && a->lines[i]; i++) {
		snprintf(want, sizeof(want), "%s\n", a->lines[i]);
		ck_assert_msg(strstr(r.out, want), "case %d: no '%s' in:\n%s",
			      _i, a->lines[i], r.out);
	}
}

struct refuse {
	const char *msg;	/* the start of perfex's line */
	const char *argv[10];
};

static const struct refuse refused[] = {
	/* A number 2.6 read as hex and C reads otherwise, or not at all. */
	{
		"perfex: '-e 0x4100c0@12': 12 was 0x12 to perfctr 2.6 (12 with its -d): write 0x12, or 0xc if decimal was meant",
		{ P6, "-e", "0x4100c0@12", PX_TOUCH }
	},
	{ "perfex: '-e 4100C0': perfctr 2.6 read 4100C0 as hex: write 0x4100c0",
	  { P6, "-e", "4100C0", PX_TOUCH } },
	{ "perfex: '-e 0x1ffffffff': 0x1ffffffff is over 32 bits",
	  { P6, "-e", "0x1ffffffff", PX_TOUCH } },
	{ "perfex: '-e 0x4100c0@': a number is missing: give EVNTSEL[/ESCR][@PMC]",
	  { P6, "-e", "0x4100c0@", PX_TOUCH } },
	{ "perfex: '-e 0x@0': 0x is not a number",
	  { P6, "-e", "0x@0", PX_TOUCH } },
	{ "perfex: '-e 0x4100c0@0q': not a perfctr 2.6 event",
	  { P6, "-e", "0x4100c0@0q", PX_TOUCH } },
	/* One event an -e, as 2.6 had them. */
	{ "perfex: '-e 0x4100c0,0x4100c1': give each perfctr 2.6 event its own -e",
	  { P6, "-e", "0x4100c0,0x4100c1", PX_TOUCH } },
	/* Not mixed with perf's syntax, either order. */
	{ "perfex: perfctr 2.6 events (-e 0x4100c0@0) and perf's (-e cycles) do not mix",
	  { P6, "-e", "cycles", "-e", "0x4100c0@0", PX_TOUCH } },
	{ "perfex: perfctr 2.6 events (-e 0x4100c0@0) and perf's (-e instructions) do not mix",
	  { P6, "-e", "0x4100c0@0", "-e", "instructions", PX_TOUCH } },
	/* @PMC on all or none; a counter once. */
	{ "perfex: give @PMC on every perfctr 2.6 event or on none",
	  { P6, "-e", "0x4100c0@0", "-e", "0x4100c1", PX_TOUCH } },
	{ "perfex: '-e 0x4100c0@1' and '-e 0x4100c1@1' name the same counter",
	  { P6, "-e", "0x4100c0@1", "-e", "0x4100c1@1", PX_TOUCH } },
	/* /ESCR, --p4pe, --p4pmv where the CPU has no such register. */
	{
		"perfex: '-e 0x4100c0/0x1@0': /ESCR is the P4's ESCR, or on AMD family 10h and later EVNTSEL's high half; this CPU (GenuineIntel-6-7-3) has neither: drop it",
		{ P6, "-e", "0x4100c0/0x1@0", PX_TOUCH }
	},
	{
		"perfex: --p4pe and --p4pmv set the P4's PEBS_ENABLE and PEBS_MATRIX_VERT; this CPU (AuthenticAMD-6-2-0) is not a P4: drop them",
		{ K7, "-e", "0x4100c0@0", "--p4pmv=1", PX_TOUCH }
	},
	/* --p4pe without 2.6 events; a bad value. */
	{ "perfex: --p4pe and --p4pmv go with perfctr 2.6 events",
	  { P4, "-e", "instructions", "--p4pe=0x01000001", PX_TOUCH } },
	{ "perfex: '--p4pe 010': 010 was 0x10 to perfctr 2.6 (8 with its -d)",
	  { P4, "-e", P4_L1, "--p4pe=010", PX_TOUCH } },
	/* 2.6's -x (hex numbers) taken for perf stat's separator. */
	{ "perfex: -x -e: -x takes a CSV separator (perf stat's)",
	  { "-x", "-e", "0x4100c0", PX_TOUCH } },
	/* The same with --print-control: refused before any control. */
	{ "perfex: '-e 0x4100c0/0x1@0': /ESCR",
	  { P6, "-e", "0x4100c0/0x1@0", PC } },
};

START_TEST(compat26_refused_is_2)
{
	const struct refuse *f = &refused[_i];
	struct px_result r;

	unlink(MARKER);
	px_run(&r, f->argv);
	ck_assert_msg(r.status == 2, "case %d: status %d:\n%s", _i, r.status,
		      r.err);
	ck_assert_msg(strstr(r.err, f->msg), "case %d: no '%s' in:\n%s", _i,
		      f->msg, r.err);
	ck_assert_msg(!strstr(r.out, "tsc_on"), "case %d: a control:\n%s", _i,
		      r.out);
	ck_assert_int_ne(access(MARKER, F_OK), 0);
}

/* A names table event that begins with a digit is still perf's syntax. */
START_TEST(compat26_digit_names_are_names)
{
	static const char *const argv[] = {
		P4, "-e", "1STL_CACHE_LOAD_MISS_RETIRED", PC, NULL
	};
	struct px_result r;

#ifdef __powerpc__
	return;
#endif
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_ptr_nonnull(strstr(r.out,
				     "# counter 0: 1STL_CACHE_LOAD_MISS_RETIRED"));
}

/* An event each simulated x86 model counts: user-mode instructions. */
static const char *model_event(void)
{
	if (!model || !model_name || !strncmp(model_name, "7", 1))
		return NULL;		/* perfctr.ko, or ppc32 */
	if (!strncmp(model_name, "p4", 2))
		return "0x00039000/0x04000204@0x8000000C";	/* 2.6's */
	return "0x004100c0@0";
}

/*
 * Counting: on a simulated PMU the event's row counts (the simulated
 * counters count TSC ticks); on perfctr.ko the row is <not supported>.
 */
START_TEST(compat26_counts)
{
	const char *ev = model_event(), *argv[8];
	struct px_row rows[PX_MAX_ROWS];
	const struct px_row *row;
	struct px_result r;
	int n;

#ifdef __powerpc__
	return;
#endif
	argv[0] = "-x";
	argv[1] = ";";
	argv[2] = "-e";
	argv[3] = ev ? ev : "0x004100c0@0";
	argv[4] = "sh";
	argv[5] = "-c";
	argv[6] = ": >" MARKER;
	argv[7] = NULL;
	unlink(MARKER);
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_int_eq(access(MARKER, F_OK), 0);
	n = px_csv(r.err, ";", rows, PX_MAX_ROWS);
	row = px_find(rows, n, argv[3]);
	ck_assert_msg(row, "no row %s in:\n%s", argv[3], r.err);
	if (!model) {
		ck_assert_str_eq(row->value, "<not supported>");
		return;
	}
	ck_assert_msg(px_is_uint(row->value) &&
		      strtoull(row->value, NULL, 10) > 0, "%s: '%s'\n%s",
		      row->name, row->value, r.err);
}

/* The P4's PEBS registers with 2.6's replay example: counted. */
START_TEST(compat26_p4_pebs_counts)
{
	static const char *const argv[] = {
		"-x", ";", "-e", P4_L1, "--p4pe=0x01000001", "--p4pmv=0x1",
		"true", NULL
	};
	struct px_row rows[PX_MAX_ROWS];
	struct px_result r;

	if (!model || !model_name || strncmp(model_name, "p4", 2))
		return;
	px_run(&r, argv);
	ck_assert_msg(r.status == 0, "status %d:\n%s", r.status, r.err);
	ck_assert_ptr_nonnull(px_find(rows, px_csv(r.err, ";", rows,
						   PX_MAX_ROWS), P4_L1));
}

/*
 * A control the module refuses (no counter 0x20 on any x86 model): exit
 * status 1, the module's refusal and the note on what to check.
 */
START_TEST(compat26_refused_control_says_check)
{
	static const char *const argv[] = {
		"-e", "0x004100c0@0x20", PX_TOUCH, NULL
	};
	struct px_result r;

	if (!model_event())
		return;
	unlink(MARKER);
	px_run(&r, argv);
	ck_assert_msg(r.status == 1, "status %d:\n%s", r.status, r.err);
	/* The first line may name the P4's forbidden CPUs instead. */
	ck_assert_msg(strstr(r.err, REFUSED) ||
		      strstr(r.err, "cannot have counters"), "%s", r.err);
	ck_assert_msg(strstr(r.err, CHECK_NOTE), "%s", r.err);
	ck_assert_int_ne(access(MARKER, F_OK), 0);
}

void px_compat26_tcase(struct Suite *s)
{
	struct TCase *tc = add_tcase(s, "perfex-compat26", NULL, NULL);

	tcase_add_loop_test(tc, compat26_control_accepted, 0,
			    ARRAY_SIZE(accepted));
	tcase_add_loop_test(tc, compat26_refused_is_2, 0, ARRAY_SIZE(refused));
	tcase_add_test(tc, compat26_digit_names_are_names);
	tcase_add_test(tc, compat26_counts);
	tcase_add_test(tc, compat26_p4_pebs_counts);
	tcase_add_test(tc, compat26_refused_control_says_check);
}
