// SPDX-License-Identifier: GPL-2.0-only
/*
 * The vperfctr suite's "control" case: each bad control write refused
 * with nothing changed, preserve, and counters held by global mode.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "vperfctr.h"

/* --- control writes: each bad one refused, nothing changed --- */

struct bad_control {
	const char *name;
	int dlen;			/* written size - sizeof */
	int off;			/* written at */
	void (*bad)(struct vperfctr_control *c);
	void (*good)(struct vperfctr_control *c);	/* closest accepted */
};

static void c_flags_unknown(struct vperfctr_control *c)
{
	c->flags = VPERFCTR_CONTROL_FLAGS + 1;
}

static void c_flags_high(struct vperfctr_control *c)
{
	c->flags = 0x80000000U | VPERFCTR_CONTROL_CLOEXEC;
}

static void c_flags_cloexec(struct vperfctr_control *c)
{
	c->flags = VPERFCTR_CONTROL_CLOEXEC;
}

static void c_resv_first(struct vperfctr_control *c)
{
	c->_reserved[0] = 1;
}

static void c_resv_last(struct vperfctr_control *c)
{
	c->_reserved[3] = ~0U;
}

/* ABI 1.2: the label is the writer's, kept and read back as written. */
static void c_label(struct vperfctr_control *c)
{
	c->label = 0xdeadbeefU;
}

/* THREADS restricts INHERIT; alone it means nothing (virtual.rst). */
static void c_flags_threads_alone(struct vperfctr_control *c)
{
	c->flags = VPERFCTR_CONTROL_THREADS;
}

static void c_signo_65(struct vperfctr_control *c)
{
	c->si_signo = 65;
}

static void c_signo_64(struct vperfctr_control *c)
{
	c->si_signo = 64;
}

static void c_signo_huge(struct vperfctr_control *c)
{
	c->si_signo = ~0U;
}

static void c_signo_none(struct vperfctr_control *c)
{
	c->si_signo = 0;
}

static void c_preserve_bit_18(struct vperfctr_control *c)
{
	c->preserve = 1U << PERFCTR_NR_PMCS;
}

static void c_preserve_bit_30(struct vperfctr_control *c)
{
	c->preserve = 1U << 30;
}

static void c_preserve_all(struct vperfctr_control *c)
{
	c->preserve = VPERFCTR_PRESERVE_TSC | ((1U << PERFCTR_NR_PMCS) - 1);
}

static void c_tsc_on_2(struct vperfctr_control *c)
{
	c->cpu_control.tsc_on = 2;
}

static void c_nractrs_over(struct vperfctr_control *c)
{
	c->cpu_control.nractrs = nrctrs + 1;
}

static void c_cpu_resv_first(struct vperfctr_control *c)
{
	c->cpu_control._reserved[0] = 1;
}

static void c_cpu_resv_last(struct vperfctr_control *c)
{
	c->cpu_control._reserved[3] = ~0U;
}

static void c_imode(struct vperfctr_control *c)
{
	memset(&c->cpu_control, 0, sizeof(c->cpu_control));
	c->cpu_control.tsc_on = 1;
	model->imode(&c->cpu_control, IRESET_FAR);
	c->si_signo = SIGUSR1;
}

static void c_imode_no_signo(struct vperfctr_control *c)
{
	c_imode(c);
	c->si_signo = 0;
}

/* Start values the architecture's overflow can never come from. */
#ifdef __powerpc__
#define IRESET_BAD_1	(-1)
#define IRESET_BAD_2	(-0x7fffffff - 1)
#else
#define IRESET_BAD_1	0
#define IRESET_BAD_2	1000
#endif

static void c_ireset_bad_1(struct vperfctr_control *c)
{
	c_imode(c);
	c->cpu_control.ireset[1] = IRESET_BAD_1;
}

static void c_ireset_bad_2(struct vperfctr_control *c)
{
	c_imode(c);
	c->cpu_control.ireset[1] = IRESET_BAD_2;
}

static void c_refused(struct vperfctr_control *c)
{
	memset(&c->cpu_control, 0, sizeof(c->cpu_control));
	c->cpu_control.tsc_on = 1;
	model->refused(&c->cpu_control);
}

static const struct bad_control bad_controls[] = {
	{ "short", -1, 0, NULL, NULL },
	{ "oversized", 1, 0, NULL, NULL },
	{ "empty", -(int)CTL_SIZE, 0, NULL, NULL },
	{ "offset-1", 0, 1, NULL, NULL },
	{ "offset-end", 0, CTL_SIZE, NULL, NULL },
	{ "flags-unknown", 0, 0, c_flags_unknown, c_flags_cloexec },
	{ "flags-high", 0, 0, c_flags_high, c_flags_cloexec },
	{ "flags-threads-alone", 0, 0, c_flags_threads_alone, c_flags_cloexec },
	{ "reserved-first", 0, 0, c_resv_first, c_label },
	{ "reserved-last", 0, 0, c_resv_last, NULL },
	{ "signo-65", 0, 0, c_signo_65, c_signo_64 },
	{ "signo-huge", 0, 0, c_signo_huge, c_signo_none },
	{ "preserve-bit-18", 0, 0, c_preserve_bit_18, c_preserve_all },
	{ "preserve-bit-30", 0, 0, c_preserve_bit_30, c_preserve_all },
	{ "tsc_on-2", 0, 0, c_tsc_on_2, NULL },
	{ "nractrs-over-nrctrs", 0, 0, c_nractrs_over, NULL },
	{ "cpu-reserved-first", 0, 0, c_cpu_resv_first, NULL },
	{ "cpu-reserved-last", 0, 0, c_cpu_resv_last, NULL },
#ifndef __powerpc__
	/* ABI 1.0's size is taken (control_size_1_0); those beside it not. */
	{ "size-1.0-short", VPERFCTR_CONTROL_SIZE_1_0 - (int)CTL_SIZE - 1, 0,
	  NULL, NULL },
	{ "size-1.0-long", VPERFCTR_CONTROL_SIZE_1_0 - (int)CTL_SIZE + 1, 0,
	  NULL, NULL },
#endif
};

#ifndef __powerpc__
/* ABI 1.1's wide preset on the a-mode counter, or on no counter at all. */
static void c_wide_amode(struct vperfctr_control *c)
{
	c_imode(c);
	c->cpu_control.ireset_high[0] = -2;
}

static void c_wide_unused(struct vperfctr_control *c)
{
	c_imode(c);
	c->cpu_control.ireset_high[PERFCTR_NR_PMCS - 1] = -2;
}
#endif

/* These need counters (and interrupts) to have an accepted neighbour. */
static const struct bad_control sim_bad_controls[] = {
	{ "imode-without-signal", 0, 0, c_imode_no_signo, c_imode },
	{ "ireset-out-of-range-1", 0, 0, c_ireset_bad_1, c_imode },
	{ "ireset-out-of-range-2", 0, 0, c_ireset_bad_2, c_imode },
	{ "driver-refuses", 0, 0, c_refused, NULL },
#ifndef __powerpc__
	{ "wide-preset-on-amode", 0, 0, c_wide_amode, c_imode },
	{ "wide-preset-unused", 0, 0, c_wide_unused, c_imode },
#endif
};

static void check_bad_control(const struct bad_control *b)
{
	struct {
		struct vperfctr_control c;
		char extra[16];
	} buf;
	const struct vperfctr_state *st = map_state();
	struct perfctr_sum_ctrs before, after;
	struct vperfctr_control c0, got;
	struct files f;

	/* An overflow of the far i-mode counter would only be ignored. */
	signal(SIGUSR1, SIG_IGN);
	files_open(&f, gettid());
	full_control(&c0);
	c0.si_signo = SIGUSR2;
	set_control(f.ctl, &c0);
	spin(ms_ticks(10));
	/* Suspended, the sums must stay exactly what they are. */
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	get_sums(f.sums, &before);

	memset(&buf, 0, sizeof(buf));
	buf.c = c0;
	if (b->bad)
		b->bad(&buf.c);
	errno = 0;
	ck_assert_int_eq(pwrite(f.ctl, &buf, CTL_SIZE + b->dlen, b->off), -1);
	ck_assert_msg(errno == EINVAL, "%s: errno %d", b->name, errno);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c0, CTL_SIZE);
	get_sums(f.sums, &after);
	ck_assert_mem_eq(&after, &before, SUMS_SIZE);
	ck_assert_uint_eq(cstatus_of(st), 0);
	/* Resumed, they go on from where they were. */
	do_command(f.cmd, VPERFCTR_CMD_RESUME);
	ck_assert_uint_eq(cstatus_of(st), full_cstatus());
	spin(ms_ticks(1));
	get_sums(f.sums, &after);
	ck_assert_uint_gt(after.tsc, before.tsc);

	/* The closest good control is accepted. */
	buf.c = c0;
	if (b->good)
		b->good(&buf.c);
	set_control(f.ctl, &buf.c);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &buf.c, CTL_SIZE);
}

START_TEST(control_bad_write)
{
	check_bad_control(&bad_controls[_i]);
}

START_TEST(sim_control_bad_write)
{
	check_bad_control(&sim_bad_controls[_i]);
}

/* preserve keeps the chosen sums across a new control; the others restart. */
START_TEST(control_preserve)
{
	struct perfctr_sum_ctrs a, b;
	struct vperfctr_control c;
	unsigned long long t0;
	struct files f;

	files_open(&f, gettid());
	full_control(&c);
	set_control(f.ctl, &c);
	count_at_least(NULL, f.sums, ms_ticks(50));
	do_command(f.cmd, VPERFCTR_CMD_SUSPEND);
	get_sums(f.sums, &a);

	/* The TSC's and counter 0's sums kept, counter 1's restarted. */
	c.preserve = VPERFCTR_PRESERVE_TSC | (model ? 1 : 0);
	t0 = rdtsc();
	set_control(f.ctl, &c);
	get_sums(f.sums, &b);
	ck_assert_uint_ge(b.tsc, a.tsc);
	ck_assert(since(b.tsc - a.tsc, t0));
	if (model) {
		ck_assert_uint_ge(b.pmc[0], a.pmc[0]);
		ck_assert_msg(since(b.pmc[1], t0), "pmc1 %llu kept", b.pmc[1]);
	}

	/* Nothing kept. */
	c.preserve = 0;
	t0 = rdtsc();
	set_control(f.ctl, &c);
	get_sums(f.sums, &b);
	ck_assert_msg(since(b.tsc, t0), "tsc %llu kept", b.tsc);
	if (model)
		ck_assert_msg(since(b.pmc[0], t0), "pmc0 %llu kept", b.pmc[0]);
}

/* Counters held by global mode: EBUSY, and nothing created. */
START_TEST(sim_control_busy_in_global_mode)
{
	struct perfctr_sum_ctrs s;
	struct vperfctr_control c, got;
	ssize_t ret = 0, got_ctl, got_sums;
	int g, err;
	struct files f;

	files_open(&f, gettid());
	g = global_take();
	full_control(&c);
	errno = 0;
	ret = put_control(f.ctl, &c);
	err = errno;
	got_ctl = pread(f.ctl, &got, sizeof(got), 0);
	got_sums = pread(f.sums, &s, sizeof(s), 0);
	/* Stop global mode before anything can fail and leave it running. */
	global_give(g);
	ck_assert_int_eq(ret, -1);
	ck_assert_int_eq(err, EBUSY);
	ck_assert_int_eq(got_ctl, CTL_SIZE);
	ck_assert(is_zero(&got, sizeof(got)));
	ck_assert_int_eq(got_sums, SUMS_SIZE);
	ck_assert(is_zero(&s, sizeof(s)));
	set_control(f.ctl, &c);
}

#ifndef __powerpc__
/*
 * ABI 1.0's 428-byte control is taken as 1.1's with ireset_high[] all 0,
 * and a 428-byte buffer reads 1.0's part back (virtual.rst, "ABI
 * versions").
 */
START_TEST(control_size_1_0)
{
	struct vperfctr_control c, got;
	struct files f;

	files_open(&f, gettid());
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	ck_assert_int_eq(pwrite(f.ctl, &c, VPERFCTR_CONTROL_SIZE_1_0, 0),
			 VPERFCTR_CONTROL_SIZE_1_0);
	memset(&got, 0xFF, sizeof(got));
	ck_assert_int_eq(pread(f.ctl, &got, VPERFCTR_CONTROL_SIZE_1_0, 0),
			 VPERFCTR_CONTROL_SIZE_1_0);
	ck_assert_mem_eq(&got, &c, VPERFCTR_CONTROL_SIZE_1_0);
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, &c, CTL_SIZE);
	ck_assert_str_eq(info_field("abi_version"), "0x0102");
}

/*
 * A wide preset, -2^33: taken and read back where info says
 * wide_ireset, EOPNOTSUPP with the old control in force elsewhere.
 */
START_TEST(sim_control_wide_preset)
{
	const char *features = info_field("features");
	struct vperfctr_control c0, c, got;
	int wide;
	struct files f;

	ck_assert_ptr_nonnull(features);
	wide = !!strstr(features, "wide_ireset");
	signal(SIGUSR1, SIG_IGN);
	files_open(&f, gettid());
	memset(&c0, 0, sizeof(c0));
	c_imode(&c0);
	set_control(f.ctl, &c0);
	c = c0;
	c.cpu_control.ireset[1] = 0;
	c.cpu_control.ireset_high[1] = -2;
	errno = 0;
	if (wide) {
		set_control(f.ctl, &c);
	} else {
		ck_assert_int_eq(put_control(f.ctl, &c), -1);
		ck_assert_int_eq(errno, EOPNOTSUPP);
	}
	get_control(f.ctl, &got);
	ck_assert_mem_eq(&got, wide ? &c : &c0, CTL_SIZE);
	/* 1.0's size cannot hold a wide preset: said, not cut short. */
	errno = 0;
	ck_assert_int_eq(pread(f.ctl, &got, VPERFCTR_CONTROL_SIZE_1_0, 0),
			 wide ? -1 : VPERFCTR_CONTROL_SIZE_1_0);
	if (wide)
		ck_assert_int_eq(errno, EOVERFLOW);
}
#endif

void vp_control_tcase(Suite *s)
{
	TCase *tc = add_tcase(s, "control", NULL, NULL);

	tcase_add_loop_test(tc, control_bad_write, 0, ARRAY_SIZE(bad_controls));
	tcase_add_test(tc, control_preserve);
#ifndef __powerpc__
	tcase_add_test(tc, control_size_1_0);
#endif
	if (model) {
		tcase_add_loop_test(tc, sim_control_bad_write, 0,
				    ARRAY_SIZE(sim_bad_controls));
		tcase_add_test(tc, sim_control_busy_in_global_mode);
#ifndef __powerpc__
		tcase_add_test(tc, sim_control_wide_preset);
#endif
	}
}
