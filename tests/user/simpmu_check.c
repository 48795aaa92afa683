// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for the simulated-PMU module (perfctr_simpmu.ko model=NAME,
 * NAME in $PERFCTR_SIM_MODEL): global mode with real counter programming
 * on a family whose simulated counters count real cycles. Each a-mode
 * counter must track the TSC; a control the family refuses must leave the
 * running one alone; a hyper-threaded P4's thread 1 must stay idle.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perfctr/perfctr.h>

#include "test_util.h"

#define MAX_CPUS	64

struct model {
	const char *name, *cpu_type, *forbidden;
	unsigned int nrctrs;
	void (*good)(struct perfctr_cpu_control *c);	/* tsc + 2 counters */
	void (*bad)(struct perfctr_cpu_control *c);	/* one rule broken */
	void (*imode)(struct perfctr_cpu_control *c);	/* valid, counter 1 i-mode */
};

#ifndef __powerpc__
#define EN_CPL	0x00430000U	/* EN | OS | USR */

static void k7_good(struct perfctr_cpu_control *c)
{
	c->nractrs = 2;
	c->pmc_map[0] = 0;
	c->evntsel[0] = EN_CPL | 0x76;
	c->pmc_map[1] = 3;
	c->evntsel[1] = EN_CPL | 0xC0;
}

static void k7_bad(struct perfctr_cpu_control *c)
{
	k7_good(c);
	c->evntsel[1] &= ~0x00400000U;		/* no enable bit */
}

static void k7_imode(struct perfctr_cpu_control *c)
{
	k7_good(c);
	c->nractrs = 1;
	c->nrictrs = 1;
	c->evntsel[1] |= 0x00100000U;		/* INT */
	c->ireset[1] = -1000;
}

static void arch_good(struct perfctr_cpu_control *c)
{
	c->nractrs = 2;
	c->pmc_map[0] = 1;
	c->evntsel[0] = EN_CPL | 0x3C;
	c->pmc_map[1] = PERFCTR_X86_FIXED_PMC | 1;
	c->evntsel[1] = 0x3;
}

static void arch_bad(struct perfctr_cpu_control *c)
{
	arch_good(c);
	c->evntsel[1] = 0x7;			/* AnyThread */
}

static void arch_imode(struct perfctr_cpu_control *c)
{
	arch_good(c);
	c->nractrs = 1;
	c->nrictrs = 1;
	c->evntsel[1] |= 0x8;			/* fixed counter PMI */
	c->ireset[1] = -1000;
}

#define P4_CCCR(sel)	((1U << 12) | ((sel) << 13) | (3U << 16))
#define P4_ESCR		((0x13U << 25) | (1U << 9) | 0xC)

static void p4_good(struct perfctr_cpu_control *c)
{
	c->nractrs = 2;
	c->pmc_map[0] = 0x80000000U | 0;	/* fast RDPMC */
	c->evntsel[0] = P4_CCCR(6);		/* FSB_ESCR0 */
	c->p4.escr[0] = P4_ESCR;
	c->pmc_map[1] = 0x80000000U | 12;
	c->evntsel[1] = P4_CCCR(4);		/* CRU_ESCR0 */
	c->p4.escr[1] = P4_ESCR;
}

static void p4_bad(struct perfctr_cpu_control *c)
{
	p4_good(c);
	c->evntsel[1] |= 1;			/* reserved CCCR bit */
}

static void p4_imode(struct perfctr_cpu_control *c)
{
	p4_good(c);
	c->nractrs = 1;
	c->nrictrs = 1;
	c->evntsel[1] |= 1U << 26;		/* OVF_PMI_T0 */
	c->ireset[1] = -1000;
}

static const struct model models[] = {
	{ "k7", "AMD K7", "", 4, k7_good, k7_bad, k7_imode },
	{ "arch-v2", "Intel architectural perfmon", "", 7, arch_good, arch_bad,
	  arch_imode },
	{ "p4-model3-ht", "Intel P4", "1", 18, p4_good, p4_bad, p4_imode },
};
#else
/* PMC1 counting cycles (event 1), PMC3 instructions (event 2). */
static void ppc_good(struct perfctr_cpu_control *c)
{
	c->nractrs = 2;
	c->pmc_map[0] = 0;
	c->evntsel[0] = 1;
	c->pmc_map[1] = 2;
	c->evntsel[1] = 2;
}

static void ppc_bad(struct perfctr_cpu_control *c)
{
	ppc_good(c);
	c->evntsel[1] = 0x20;			/* PMC3SEL has 5 bits */
}

static void ppc_imode(struct perfctr_cpu_control *c)
{
	ppc_good(c);
	c->nractrs = 1;
	c->nrictrs = 1;
	c->ireset[1] = 0x7FFFF000;
	c->ppc.mmcr0 = PERFCTR_PPC_MMCR0_PMXE | PERFCTR_PPC_MMCR0_PMCNCE;
}

/*
 * "750" is a 750GX: the 750 family's name, and a 750 whose overflow
 * interrupt works (a plain 750 has none, for its DEC/PMI erratum).
 */
static const struct model models[] = {
	{ "7450", "PowerPC 7450", "", 6, ppc_good, ppc_bad, ppc_imode },
	{ "750", "PowerPC 750", "", 4, ppc_good, ppc_bad, ppc_imode },
};
#endif

static const struct model *model;

static int open_global(void)
{
	int fd = open(GLOBAL_PATH, O_RDWR);

	ck_assert_msg(fd >= 0, "open: %s", strerror(errno));
	return fd;
}

static ssize_t apply(int fd, void (*fill)(struct perfctr_cpu_control *c))
{
	struct perfctr_cpu_control c;

	memset(&c, 0, sizeof(c));
	if (fill) {
		c.tsc_on = 1;
		fill(&c);
	}
	return write(fd, &c, sizeof(c));
}

static int read_sums(int fd, struct perfctr_sum_ctrs *sums)
{
	ssize_t n = pread(fd, sums, MAX_CPUS * sizeof(*sums), 0);

	ck_assert_int_gt(n, 0);
	return n / sizeof(*sums);
}

static int forbidden(int cpu)
{
	return model->forbidden[0] && atoi(model->forbidden) == cpu;
}

START_TEST(info_names_family)
{
	ck_assert_str_eq(info_field("cpu_type"), model->cpu_type);
	ck_assert_str_eq(info_field("fallback"), "none");
	ck_assert_int_eq(atoi(info_field("nrctrs")), model->nrctrs);
	ck_assert_ptr_nonnull(strstr(info_field("features"), "pcint"));
	ck_assert_str_eq(info_field("cpus_forbidden"), model->forbidden);
}

START_TEST(global_counters_track_tsc)
{
	struct perfctr_sum_ctrs sums[MAX_CPUS];
	int fd = open_global(), cpu, n, counted = 0;

	ck_assert_int_eq(apply(fd, model->good), sizeof(struct perfctr_cpu_control));
	usleep(300000);
	n = read_sums(fd, sums);
	for (cpu = 0; cpu < n; cpu++) {
		unsigned long long tsc = sums[cpu].tsc;
		int i;

		if (forbidden(cpu)) {
			ck_assert_uint_eq(tsc, 0);
			ck_assert_uint_eq(sums[cpu].pmc[0], 0);
			continue;
		}
		if (!tsc)
			continue;	/* not online */
		counted++;
		for (i = 0; i < 2; i++) {
			ck_assert_uint_gt(sums[cpu].pmc[i], tsc * 9 / 10);
			ck_assert_uint_lt(sums[cpu].pmc[i], tsc * 11 / 10);
		}
	}
	ck_assert_int_gt(counted, 0);
	ck_assert_int_eq(apply(fd, NULL), sizeof(struct perfctr_cpu_control));
	close(fd);
}

START_TEST(global_refused_control_keeps_old)
{
	struct perfctr_sum_ctrs before[MAX_CPUS], after[MAX_CPUS];
	int fd = open_global();

	ck_assert_int_eq(apply(fd, model->good), sizeof(struct perfctr_cpu_control));
	usleep(50000);
	read_sums(fd, before);
	errno = 0;
	ck_assert_int_eq(apply(fd, model->bad), -1);
	ck_assert_int_eq(errno, EINVAL);
	usleep(50000);
	read_sums(fd, after);
	ck_assert_uint_gt(after[0].pmc[1], before[0].pmc[1]);
	ck_assert_int_eq(apply(fd, NULL), sizeof(struct perfctr_cpu_control));
	close(fd);
}

/*
 * The driver accepts i-mode counters here (it has interrupts), but global
 * mode has no thread to signal: it refuses them, and nothing starts.
 */
START_TEST(global_refuses_imode)
{
	int fd = open_global();

	errno = 0;
	ck_assert_int_eq(apply(fd, model->imode), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_str_eq(info_field("reserved_by"), "none");
	ck_assert_int_eq(apply(fd, model->good), sizeof(struct perfctr_cpu_control));
	ck_assert_str_eq(info_field("reserved_by"), "global-mode perfctr");
	ck_assert_int_eq(apply(fd, NULL), sizeof(struct perfctr_cpu_control));
	close(fd);
}

#define CPU1_ONLINE	"/sys/devices/system/cpu/cpu1/online"

static void set_online(int cpu, int on)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	ck_assert_msg(fd >= 0, "%s: %s", path, strerror(errno));
	ck_assert_int_eq(write(fd, on ? "1" : "0", 1), 1);
	close(fd);
}

/* CPU 1 goes down and comes back while counting: it counts again. */
START_TEST(global_survives_cpu_hotplug)
{
	struct perfctr_sum_ctrs mid[MAX_CPUS], end[MAX_CPUS];
	int fd = open_global();

	ck_assert_int_eq(apply(fd, model->good), sizeof(struct perfctr_cpu_control));
	usleep(100000);
	set_online(1, 0);
	usleep(100000);
	read_sums(fd, mid);
	set_online(1, 1);
	usleep(300000);
	read_sums(fd, end);
	ck_assert_uint_gt(end[1].tsc, mid[1].tsc);
	ck_assert_uint_gt(end[1].pmc[0], mid[1].pmc[0]);
	ck_assert_uint_gt(end[1].pmc[0], end[1].tsc * 9 / 10);
	ck_assert_uint_lt(end[1].pmc[0], end[1].tsc * 11 / 10);
	ck_assert_int_eq(apply(fd, NULL), sizeof(struct perfctr_cpu_control));
	close(fd);
}

int main(void)
{
	const char *name = getenv("PERFCTR_SIM_MODEL");
	Suite *s = suite_create("simpmu");
	TCase *tc = tcase_create(name ? name : "none");
	SRunner *sr;
	size_t i;
	int failed;

	for (i = 0; name && i < ARRAY_SIZE(models); i++)
		if (!strcmp(models[i].name, name))
			model = &models[i];
	if (!model) {
		fprintf(stderr, "simpmu_check: unknown PERFCTR_SIM_MODEL\n");
		return 2;
	}
	tcase_add_test(tc, info_names_family);
	tcase_add_test(tc, global_counters_track_tsc);
	tcase_add_test(tc, global_refused_control_keeps_old);
	tcase_add_test(tc, global_refuses_imode);
	/* CPU 1 must exist (ppc32 guests are uniprocessors) and be usable. */
	if (!model->forbidden[0] && access(CPU1_ONLINE, F_OK) == 0)
		tcase_add_test(tc, global_survives_cpu_hotplug);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
