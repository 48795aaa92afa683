// SPDX-License-Identifier: GPL-2.0-only
/*
 * Check suite for perfctr 2.6's library API (libperfctr26.h, compiled
 * with PERFCTR_API_2_6 as a 2.6 program is), run in the test VM as root
 * against perfctr.ko (the TSC only) and, with PERFCTR_SIM_MODEL=NAME,
 * against perfctr_simpmu.ko model=NAME, whose counters count cycles.
 *
 * Expected values are 2.6's (its ABI version and cpu_type numbers, the
 * behaviour its clients rely on), never read back from the library.
 */
#define _GNU_SOURCE
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define PERFCTR_API_2_6 1
#include <libperfctr.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *model_name;	/* $PERFCTR_SIM_MODEL, or NULL */

/* The value of KEY in /proc/perfctr/info, into @buf. */
static void info_value(const char *key, char *buf, size_t size)
{
	char line[256];
	size_t len = strlen(key);
	FILE *f = fopen("/proc/perfctr/info", "r");

	ck_assert_ptr_nonnull(f);
	buf[0] = '\0';
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, len) && line[len] == ':') {
			snprintf(buf, size, "%s", line + len + 2);
			buf[strcspn(buf, "\n")] = '\0';
		}
	fclose(f);
}

static unsigned int info_nrctrs(void)
{
	char buf[32];

	info_value("nrctrs", buf, sizeof(buf));
	return strtoul(buf, NULL, 10);
}

static void self_status(char *buf, size_t size)
{
	int fd = open("/proc/perfctr/self/status", O_RDONLY);
	ssize_t n;

	ck_assert_int_ge(fd, 0);
	n = read(fd, buf, size - 1);
	close(fd);
	ck_assert_int_ge(n, 0);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* 2.6's cpu_type of each simulated model (tests/sim/x86/model.c's CPUs). */
static int expected_cpu_type(const char *m)
{
#if defined(__x86_64__) || defined(__i386)
	static const struct { const char *model; int type; } types[] = {
		{ "k7", PERFCTR_X86_AMD_K7 },		/* AMD family 6 */
		{ "zen4", PERFCTR_X86_AMD_FAM10H },	/* family 19h */
		{ "arch-v2", PERFCTR_X86_INTEL_NHLM },	/* 6-3A, after 2.6 */
		{ "p4-model3-ht", PERFCTR_X86_INTEL_P4M3 },	/* model 3 */
		{ "p6", PERFCTR_X86_INTEL_PIII },	/* 6-8: Pentium III */
		{ "p5mmx", PERFCTR_X86_INTEL_P5MMX },	/* 5-4 */
	};
#else
	static const struct { const char *model; int type; } types[] = {
		{ "7450", PERFCTR_PPC_7450 },
		{ "750", PERFCTR_PPC_750 },
	};
#endif
	unsigned int i;

	for (i = 0; m && i < ARRAY_SIZE(types); i++)
		if (!strcmp(m, types[i].model))
			return types[i].type;
	return -1;
}

START_TEST(test_info_through_raw_open)
{
	struct perfctr_info info;
	char version[64], status[64];
	int fd = _vperfctr_open(0);

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(perfctr_info(fd, &info), 0);
	/* 2.6's ABI: API 5.2 above, the arch's layout version below. */
#if defined(__x86_64__) || defined(__i386)
	ck_assert_uint_eq(info.abi_version, 0x05020501);
#else
	ck_assert_uint_eq(info.abi_version, 0x05020000);
#endif
	ck_assert_uint_eq(PERFCTR_ABI_VERSION >> 24, 5);	/* PAPI's test */
	info_value("version", version, sizeof(version));
	ck_assert_str_eq(info.driver_version, version);
	ck_assert_uint_eq(info.cpu_features & ~7U, 0);
	ck_assert_uint_eq(perfctr_info_nrctrs(&info), info_nrctrs());
	info_value("cpu_type", version, sizeof(version));
	ck_assert_str_eq(perfctr_info_cpu_name(&info), version);
	if (expected_cpu_type(model_name) >= 0)
		ck_assert_int_eq(info.cpu_type, expected_cpu_type(model_name));
	ck_assert_int_eq(_perfctr_abi_check_fd(fd, PERFCTR_ABI_VERSION), 0);
	/* Opened without creat: still no set, as PAPI relies on. */
	self_status(status, sizeof(status));
	ck_assert_str_eq(status, "none");
	close(fd);
}

START_TEST(test_info_refuses_other_fds)
{
	struct perfctr_info info;
	int fd = open("/dev/null", O_RDONLY);

	ck_assert_int_eq(perfctr_info(fd, &info), -1);
	ck_assert_int_eq(errno, ENOTTY);
	ck_assert_int_eq(perfctr_abi_check_fd(fd), -1);
	ck_assert_int_eq(errno, ENOTTY);
	close(fd);
	ck_assert_int_eq(perfctr_info(-1, &info), -1);
	ck_assert_int_eq(errno, EBADF);
	fd = _vperfctr_open(0);
	ck_assert_int_eq(_perfctr_abi_check_fd(fd, 0x05020400), -1);
	ck_assert_int_eq(errno, EPROTO);
	close(fd);
}

/* A counter counting cycles in user mode (x86; have_counters()). */
static void cycles_counter(struct vperfctr_control *c, int imode)
{
#if defined(__x86_64__) || defined(__i386)
	struct perfctr_info info;
	unsigned int evntsel = 0x00410000;	/* USR, EN */

	ck_assert_int_eq(perfctr_get_info(&info), 0);
	switch (info.cpu_type) {
	case PERFCTR_X86_AMD_K7:
	case PERFCTR_X86_AMD_FAM10H:
		evntsel |= 0x76;	/* CPU clocks not halted */
		break;
	case PERFCTR_X86_INTEL_P6:
	case PERFCTR_X86_INTEL_PII:
	case PERFCTR_X86_INTEL_PIII:
	case PERFCTR_X86_INTEL_PENTM:
		evntsel |= 0x79;	/* CPU_CLK_UNHALTED */
		break;
	default:
		evntsel |= 0x3c;	/* UnHalted Core Cycles */
	}
	c->cpu_control.pmc_map[0] = 0;
	c->cpu_control.evntsel[0] = evntsel | (imode ? 0x100000 : 0);
	if (imode) {
		c->cpu_control.nrictrs = 1;
		c->cpu_control.ireset[0] = -100000;
	} else {
		c->cpu_control.nractrs = 1;
	}
#else
	(void)c;
	(void)imode;
#endif
}

/*
 * Models whose counters cycles_counter() can program: x86's but the P4's
 * (CCCR and ESCR pairs) and the P5's (CESR halves); the ppc32 suites
 * count the TSC only here.
 */
static int have_counters(void)
{
#if defined(__x86_64__) || defined(__i386)
	return model_name && info_nrctrs() > 0 &&
	       strncmp(model_name, "p4", 2) != 0 &&
	       strncmp(model_name, "p5", 2) != 0;
#else
	return 0;
#endif
}

/* Work the compiler cannot drop: an empty asm on the loop's counter. */
static void spin(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		asm volatile("" : "+r" (i));
}

START_TEST(test_preserve_0_zeroes_and_stop_empties)
{
	struct vperfctr_control c, back;
	struct perfctr_sum_ctrs s;
	struct vperfctr *vp = vperfctr_open();

	ck_assert_ptr_nonnull(vp);
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	if (have_counters())
		cycles_counter(&c, 0);
	ck_assert_int_eq(vperfctr_control(vp, &c), 0);
	ck_assert_int_eq(vperfctr_is_running(vp), 1);
	spin(1000000);
	ck_assert_int_eq(vperfctr_read_ctrs(vp, &s), 0);
	ck_assert_uint_gt(s.tsc, 0);
	if (have_counters())
		ck_assert_uint_gt(s.pmc[0], 0);
	/* The TSC's preserve bit keeps it; the counter's sum starts over. */
	c.preserve = VPERFCTR_PRESERVE_TSC;
	ck_assert_int_eq(vperfctr_control(vp, &c), 0);
	ck_assert_int_eq(vperfctr_read_state(vp, &s, NULL), 0);
	ck_assert_uint_gt(s.tsc, 0);
	/* vperfctr_stop(): an empty control, preserve 0: all zero. */
	ck_assert_int_eq(vperfctr_stop(vp), 0);
	ck_assert_int_eq(vperfctr_is_running(vp), 0);
	ck_assert_int_eq(vperfctr_read_state(vp, &s, &back), 0);
	ck_assert_uint_eq(s.tsc, 0);
	ck_assert_uint_eq(s.pmc[0], 0);
	ck_assert_uint_eq(back.cpu_control.tsc_on, 0);
	ck_assert_uint_eq(back.cpu_control.nractrs, 0);
	ck_assert_uint_eq(back.cpu_control.nrictrs, 0);
	ck_assert_int_eq(vperfctr_unlink(vp), 0);
	vperfctr_close(vp);
}

START_TEST(test_open_modes)
{
	char status[64];
	struct vperfctr *vp;
	int fd;

	ck_assert_ptr_null(vperfctr_open_mode(1));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(vperfctr_open_mode(2));
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_ptr_null(vperfctr_open_mode(0));	/* no set yet */
	ck_assert_int_eq(errno, ENOENT);
	vp = vperfctr_open_mode(VPERFCTR_OPEN_CREAT_EXCL);
	ck_assert_ptr_nonnull(vp);
	self_status(status, sizeof(status));
	ck_assert_str_ne(status, "none");
	ck_assert_ptr_null(vperfctr_open_mode(VPERFCTR_OPEN_CREAT_EXCL));
	ck_assert_int_eq(errno, EEXIST);
	vperfctr_close(vp);
	vp = vperfctr_open_mode(0);			/* it exists now */
	ck_assert_ptr_nonnull(vp);
	ck_assert_int_eq(vperfctr_unlink(vp), 0);
	vperfctr_close(vp);
	/* _vperfctr_open(1) makes an idle set, which the raw calls use. */
	fd = _vperfctr_open(1);
	ck_assert_int_ge(fd, 0);
	self_status(status, sizeof(status));
	ck_assert_str_ne(status, "none");
	close(fd);
}

START_TEST(test_raw_calls)
{
	struct vperfctr_control c, back;
	struct perfctr_sum_ctrs s;
	int fd = _vperfctr_open(1), null = open("/dev/null", O_RDWR);

	ck_assert_int_ge(fd, 0);
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	c.flags = VPERFCTR_CONTROL_CLOEXEC;
	ck_assert_int_eq(_vperfctr_control(fd, &c), 0);
	spin(100000);
	ck_assert_int_eq(_vperfctr_read_sum(fd, &s), 0);
	ck_assert_uint_gt(s.tsc, 0);
	ck_assert_int_eq(_vperfctr_read_control(fd, &back), 0);
	ck_assert_uint_eq(back.cpu_control.tsc_on, 1);
	ck_assert_uint_eq(back.flags, VPERFCTR_CONTROL_CLOEXEC);
	/* A bad control is the kernel's EINVAL; a foreign fd, ENOTTY. */
	c.cpu_control.nractrs = PERFCTR_NR_PMCS + 1;
	ck_assert_int_eq(_vperfctr_control(fd, &c), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(_vperfctr_read_sum(null, &s), -1);
	ck_assert_int_eq(errno, ENOTTY);
	close(null);
	close(fd);
}

/* A child stopped under our ptrace, for the rvperfctr calls. */
static pid_t traced_child(unsigned long work)
{
	pid_t pid = fork();
	int st;

	ck_assert_int_ge(pid, 0);
	if (!pid) {
		ptrace(PTRACE_TRACEME, 0, NULL, NULL);
		raise(SIGSTOP);
		spin(work);
		_exit(0);
	}
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);
	ck_assert(WIFSTOPPED(st));
	return pid;
}

START_TEST(test_remote_final_counts_after_reaping)
{
	struct vperfctr_control c;
	struct perfctr_sum_ctrs s;
	struct rvperfctr *rv;
	pid_t pid = traced_child(2000000);
	int st;

	rv = rvperfctr_open(pid);
	ck_assert_ptr_nonnull(rv);
	ck_assert_int_eq(rvperfctr_pid(rv), pid);
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	if (have_counters())
		cycles_counter(&c, 0);
	ck_assert_int_eq(rvperfctr_control(rv, &c), 0);
	ck_assert_ptr_null(rvperfctr_open(pid));	/* it has a set now */
	ck_assert_int_eq(errno, EEXIST);
	ck_assert_int_eq(ptrace(PTRACE_DETACH, pid, NULL, NULL), 0);
	ck_assert_int_eq(waitpid(pid, &st, 0), pid);	/* reaped */
	ck_assert(WIFEXITED(st));
	ck_assert_int_eq(rvperfctr_read_ctrs(rv, &s), 0);
	ck_assert_uint_gt(s.tsc, 0);
	if (have_counters())
		ck_assert_uint_gt(s.pmc[0], 0);
	ck_assert_int_eq(rvperfctr_read_state(rv, &s, &c), 0);
	ck_assert_uint_eq(c.cpu_control.tsc_on, 1);
	rvperfctr_close(rv);
	ck_assert_ptr_null(rvperfctr_open(0));
	ck_assert_int_eq(errno, EINVAL);
}

/* PAPI stops a set through a vperfctr handle cast to an rvperfctr. */
START_TEST(test_rvperfctr_begins_with_vperfctr)
{
	struct vperfctr_control c;
	struct vperfctr *vp = vperfctr_open();

	ck_assert_ptr_nonnull(vp);
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	ck_assert_int_eq(vperfctr_control(vp, &c), 0);
	ck_assert_int_eq(rvperfctr_pid((struct rvperfctr *)vp), gettid());
	ck_assert_int_eq(rvperfctr_stop((struct rvperfctr *)vp), 0);
	ck_assert_int_eq(vperfctr_is_running(vp), 0);
	vperfctr_close(vp);
}

/*
 * The P4's ESCR and replay-tagging registers under 2.6's names (the
 * counter counts only with its ESCR written: the model, like the CPU,
 * needs both). Values from Intel's SDM: global_power_events (ESCR
 * select 6, FSB_ESCR0, event 13h, mask RUNNING) on counter 0; replay
 * tagging of 1stL_cache_load_miss_retired (PEBS_ENABLE bits 0 and 24,
 * PEBS_MATRIX_VERT bit 0).
 */
START_TEST(test_p4_names)
{
#if defined(__x86_64__) || defined(__i386)
	struct vperfctr_control c, back;
	struct perfctr_sum_ctrs s;
	struct vperfctr *vp;

	cpu_set_t cpu0;

	if (!model_name || strncmp(model_name, "p4", 2))
		return;
	/* An HT P4's thread 1 has no counters (cpus_forbidden): keep off it. */
	CPU_ZERO(&cpu0);
	CPU_SET(0, &cpu0);
	ck_assert_int_eq(sched_setaffinity(0, sizeof(cpu0), &cpu0), 0);
	vp = vperfctr_open();
	ck_assert_ptr_nonnull(vp);
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	c.cpu_control.nractrs = 1;
	c.cpu_control.pmc_map[0] = 0x80000000U;		/* fast RDPMC, 0 */
	c.cpu_control.evntsel[0] = (1U << 12) | (6U << 13) | (3U << 16);
	c.cpu_control.p4.escr[0] = (0x13U << 25) | (1U << 9) | (1U << 2);
	c.cpu_control.p4.pebs_enable = (1U << 24) | 1U;
	c.cpu_control.p4.pebs_matrix_vert = 1;
	ck_assert_int_eq(vperfctr_control(vp, &c), 0);
	spin(1000000);
	ck_assert_int_eq(vperfctr_read_state(vp, &s, &back), 0);
	ck_assert_uint_gt(s.pmc[0], 0);
	ck_assert_uint_eq(back.cpu_control.p4.escr[0], c.cpu_control.p4.escr[0]);
	ck_assert_uint_eq(back.cpu_control.p4.pebs_enable, (1U << 24) | 1U);
	ck_assert_uint_eq(back.cpu_control.p4.pebs_matrix_vert, 1);
	/* Without its ESCR the counter counts nothing, as on the CPU. */
	c.cpu_control.p4.escr[0] = 0;
	c.cpu_control.p4.pebs_enable = 0;
	c.cpu_control.p4.pebs_matrix_vert = 0;
	ck_assert_int_eq(vperfctr_control(vp, &c), 0);
	spin(1000000);
	ck_assert_int_eq(vperfctr_read_ctrs(vp, &s), 0);
	ck_assert_uint_eq(s.pmc[0], 0);
	/* Refused: the uop tag without a replay bit (SDM: both or none). */
	c.cpu_control.p4.escr[0] = (0x13U << 25) | (1U << 9) | (1U << 2);
	c.cpu_control.p4.pebs_enable = 1U << 24;
	ck_assert_int_eq(vperfctr_control(vp, &c), -1);
	ck_assert_int_eq(errno, EINVAL);
	vperfctr_close(vp);
#endif
}

/*
 * An Intel fixed counter set up as 2.6 took it, in the EVNTSEL layout
 * (USR bit 16, EN bit 22): fixed counter 1 counts core cycles (SDM). The
 * project's own call, named in parentheses past 2.6 mode's macro,
 * refuses the same control: the module takes the 4-bit field only.
 */
START_TEST(test_fixed_counter_as_26)
{
#if defined(__x86_64__) || defined(__i386)
	struct vperfctr_control c, back;
	struct perfctr_sum_ctrs s;
	struct vperfctr *vp;

	if (!model_name || strcmp(model_name, "arch-v2"))
		return;
	vp = vperfctr_open();
	ck_assert_ptr_nonnull(vp);
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	c.cpu_control.nractrs = 1;
	c.cpu_control.pmc_map[0] = PERFCTR_X86_FIXED_PMC | 1;
	c.cpu_control.evntsel[0] = 0x00410000;
	ck_assert_int_eq((vperfctr_control)(vp, &c), -1);
	ck_assert_int_eq(errno, EINVAL);
	ck_assert_int_eq(vperfctr_control(vp, &c), 0);
	ck_assert_uint_eq(c.cpu_control.evntsel[0], 0x00410000);  /* kept */
	spin(1000000);
	ck_assert_int_eq(vperfctr_read_state(vp, &s, &back), 0);
	ck_assert_uint_gt(s.pmc[0], 0);
	ck_assert_uint_eq(back.cpu_control.evntsel[0], 0x2);	/* USR */
	/* OS and INT map to bits 0 and 3: an i-mode fixed counter. */
	signal(SIGIO, SIG_IGN);		/* an early overflow is no failure */
	c.si_signo = SIGIO;
	c.cpu_control.nractrs = 0;
	c.cpu_control.nrictrs = 1;
	c.cpu_control.ireset[0] = -1000000;
	c.cpu_control.evntsel[0] = 0x00530000;	/* USR, OS, INT, EN */
	ck_assert_int_eq(vperfctr_control(vp, &c), 0);
	ck_assert_int_eq(vperfctr_read_state(vp, &s, &back), 0);
	ck_assert_uint_eq(back.cpu_control.evntsel[0], 0xB);
	ck_assert_int_eq(vperfctr_stop(vp), 0);
	vperfctr_close(vp);
#endif
}

/* Reads from a SIGPROF handler, as PAPI's sampling makes them. */
/* Written in the handlers, read with __atomic (as check_vperfctr does). */
static struct vperfctr *sig_vp;
static int sig_reads, sig_bad;
static unsigned long long sig_last;
#define LOAD(x)		__atomic_load_n(&(x), __ATOMIC_ACQUIRE)

static void on_prof(int sig)
{
	struct perfctr_sum_ctrs s, t;
	int saved = errno;

	(void)sig;
	if (vperfctr_read_ctrs(sig_vp, &s) ||
	    vperfctr_read_state(sig_vp, &t, NULL) || s.tsc < sig_last ||
	    t.tsc < s.tsc)
		__atomic_store_n(&sig_bad, 1, __ATOMIC_RELAXED);
	sig_last = t.tsc;
	__atomic_fetch_add(&sig_reads, 1, __ATOMIC_RELEASE);
	errno = saved;
}

START_TEST(test_reads_in_signal_handler)
{
	struct itimerval it = { { 0, 2000 }, { 0, 2000 } };
	struct vperfctr_control c;
	time_t end = time(NULL) + 3;

	sig_vp = vperfctr_open();
	ck_assert_ptr_nonnull(sig_vp);
	memset(&c, 0, sizeof(c));
	c.cpu_control.tsc_on = 1;
	if (have_counters())
		cycles_counter(&c, 0);
	ck_assert_int_eq(vperfctr_control(sig_vp, &c), 0);
	signal(SIGPROF, on_prof);
	ck_assert_int_eq(setitimer(ITIMER_PROF, &it, NULL), 0);
	/* malloc() and stdio in the interrupted code, as in a real program */
	while (LOAD(sig_reads) < 50 && time(NULL) < end)
		free(malloc(1 + LOAD(sig_reads) % 4096));
	memset(&it, 0, sizeof(it));
	setitimer(ITIMER_PROF, &it, NULL);
	ck_assert_int_ge(LOAD(sig_reads), 10);
	ck_assert_int_eq(LOAD(sig_bad), 0);
	vperfctr_close(sig_vp);
}

static int ovf_code, ovf_count;
static unsigned int ovf_mask;

static void on_ovf(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	__atomic_store_n(&ovf_code, si->si_code, __ATOMIC_RELAXED);
	__atomic_store_n(&ovf_mask, si->si_pmc_ovf_mask, __ATOMIC_RELAXED);
	__atomic_fetch_add(&ovf_count, 1, __ATOMIC_RELEASE);
}

START_TEST(test_overflow_signal_mask)
{
	struct sigaction sa;
	struct vperfctr_control c;
	struct vperfctr *vp;
	time_t end = time(NULL) + 5;

	if (!have_counters())
		return;		/* i-mode counters need a PMU */
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_ovf;
	sa.sa_flags = SA_SIGINFO;
	ck_assert_int_eq(sigaction(SIGIO, &sa, NULL), 0);
	vp = vperfctr_open();
	ck_assert_ptr_nonnull(vp);
	memset(&c, 0, sizeof(c));
	c.si_signo = SIGIO;
	c.cpu_control.tsc_on = 1;
	cycles_counter(&c, 1);		/* counter 0 of the control, i-mode */
	ck_assert_int_eq(vperfctr_control(vp, &c), 0);
	while (!LOAD(ovf_count) && time(NULL) < end)
		spin(100000);
	ck_assert_int_gt(LOAD(ovf_count), 0);
	ck_assert_int_eq(LOAD(ovf_code), SI_PMC_OVF);
	ck_assert_uint_eq(LOAD(ovf_mask), 1);
	ck_assert_int_eq(vperfctr_iresume(vp), 0);
	ck_assert_int_eq(vperfctr_unlink(vp), 0);
	vperfctr_close(vp);
}

START_TEST(test_cpus_info_and_prints)
{
	struct perfctr_cpus_info *ci = perfctr_cpus_info(-1);
	struct perfctr_info info;
	char buf[4096];
	FILE *f;
	int fd;

	ck_assert_ptr_nonnull(ci);
	ck_assert_uint_ge(ci->cpus->nrwords, 1);
	ck_assert_uint_eq(ci->cpus->mask[0] & 1, 1);	/* CPU 0 is online */
	ck_assert_uint_eq(ci->cpus_forbidden->nrwords, ci->cpus->nrwords);
	/* The print helpers write stdout: catch it in a file. */
	f = tmpfile();
	ck_assert_ptr_nonnull(f);
	fflush(stdout);
	fd = dup(1);
	dup2(fileno(f), 1);
	ck_assert_int_eq(perfctr_get_info(&info), 0);
	perfctr_info_print(&info);
	perfctr_cpus_info_print(ci);
	fflush(stdout);
	dup2(fd, 1);
	close(fd);
	rewind(f);
	buf[fread(buf, 1, sizeof(buf) - 1, f)] = '\0';
	fclose(f);
	free(ci);
#if defined(__x86_64__) || defined(__i386)
	ck_assert_ptr_nonnull(strstr(buf, "abi_version\t\t0x05020501\n"));
#endif
	ck_assert_ptr_nonnull(strstr(buf, "cpus\t\t[0x"));
	fd = open("/dev/null", O_RDONLY);
	ck_assert_ptr_null(perfctr_cpus_info(fd));	/* not perfctr's */
	ck_assert_int_eq(errno, ENOTTY);
	close(fd);
}

START_TEST(test_event_set)
{
	struct perfctr_info info;
	const struct perfctr_event_set *es;

	ck_assert_int_eq(perfctr_get_info(&info), 0);
	ck_assert_ptr_null(perfctr_cpu_event_set(info.cpu_type + 1));
	ck_assert_int_eq(errno, ENOENT);
	if (!have_counters())
		return;
	es = perfctr_cpu_event_set(info.cpu_type);
	ck_assert_ptr_nonnull(es);
	ck_assert_uint_eq(es->cpu_type, info.cpu_type);
	ck_assert_uint_gt(es->nevents, 0);
	ck_assert_ptr_nonnull(es->events[0].name);
}

START_TEST(test_global_mode)
{
	struct gperfctr_cpu_control gc;
	struct gperfctr_cpu_state gs;
	struct gperfctr *gp = gperfctr_open();
	int i;

	ck_assert_ptr_nonnull(gp);
	ck_assert_int_eq(gperfctr_start(gp, 0), -1);	/* no control */
	ck_assert_int_eq(errno, EINVAL);
	memset(&gc, 0, sizeof(gc));
	gc.cpu_control.tsc_on = 1;
	gc.cpu = 0;
	ck_assert_int_eq(gperfctr_control(gp, &gc), 0);
	/* Another control for CPU 1 than for CPU 0 (the ppc32 guest has one). */
	if (sysconf(_SC_NPROCESSORS_CONF) > 1) {
		gc.cpu = 1;
		gc.cpu_control.nractrs = 1;
		ck_assert_int_eq(gperfctr_control(gp, &gc), 0);
		ck_assert_int_eq(gperfctr_start(gp, 10000), -1);
		ck_assert_int_eq(errno, EINVAL);
		gc.cpu_control.nractrs = 0;
		ck_assert_int_eq(gperfctr_control(gp, &gc), 0);
	}
	gc.cpu = 100000;
	ck_assert_int_eq(gperfctr_control(gp, &gc), -1);
	ck_assert_int_eq(errno, EINVAL);
	/* The per-thread tests' sets may hold the hardware a moment yet. */
	for (i = 0; gperfctr_start(gp, 10000) && errno == EBUSY && i < 50; i++)
		usleep(100000);
	ck_assert_int_lt(i, 50);
	usleep(200000);
	memset(&gs, 0, sizeof(gs));
	ck_assert_int_eq(gperfctr_read(gp, &gs), 0);
	ck_assert_uint_gt(gs.sum.tsc, 0);
	ck_assert_uint_eq(gs.cpu_control.tsc_on, 1);
	ck_assert_int_eq(gperfctr_stop(gp), 0);
	gperfctr_close(gp);
}

int main(void)
{
	Suite *s = suite_create("compat26");
	TCase *tc = tcase_create("compat26");
	SRunner *sr;
	int failed;

	model_name = getenv("PERFCTR_SIM_MODEL");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_info_through_raw_open);
	tcase_add_test(tc, test_info_refuses_other_fds);
	tcase_add_test(tc, test_preserve_0_zeroes_and_stop_empties);
	tcase_add_test(tc, test_open_modes);
	tcase_add_test(tc, test_raw_calls);
	tcase_add_test(tc, test_remote_final_counts_after_reaping);
	tcase_add_test(tc, test_rvperfctr_begins_with_vperfctr);
	tcase_add_test(tc, test_p4_names);
	tcase_add_test(tc, test_fixed_counter_as_26);
	tcase_add_test(tc, test_reads_in_signal_handler);
	tcase_add_test(tc, test_overflow_signal_mask);
	tcase_add_test(tc, test_cpus_info_and_prints);
	tcase_add_test(tc, test_event_set);
	tcase_add_test(tc, test_global_mode);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
