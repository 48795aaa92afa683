// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfmon-example: FreeBSD perfmon(4) used as a FreeBSD program uses it:
 * two counters set up, started, a loop, stopped (counter 1 first, as the
 * man page asks of the Pentium), read; and the TSC around it. Only the
 * include line differs from FreeBSD (<machine/perfmon.h> there).
 *
 *   perfmon-example WORD0 WORD1 LOOPS
 *
 * WORDn is counter n's struct pmc pmc_val, in hex. Prints "pmc0 N",
 * "pmc1 N" and "tsc N", one a line. check_perfmon runs it.
 *
 * It stands alone: make install puts it in the documentation's examples
 * (perfmon-example.c), and it builds there with the installed header
 * and nothing else: cc -o perfmon-example perfmon-example.c
 */
#include <err.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <perfctr/perfmon.h>

/* The loop counted; check_perfmon counts the same code (work.h). */
static void work(unsigned long loops)
{
	unsigned long i, x = 0;

	for (i = 0; i < loops; i++) {
		x += i;
		__asm__ __volatile__("" : "+r" (x));	/* each step done */
	}
}

int main(int argc, char **argv)
{
	struct pmc_tstamp then, now;
	struct pmc_data pd;
	unsigned long loops;
	struct pmc pmc;
	int fd, i;

	if (argc != 4) {
		fprintf(stderr, "usage: %s WORD0 WORD1 LOOPS\n", argv[0]);
		return 2;
	}
	loops = strtoul(argv[3], NULL, 0);
	fd = open(_PATH_PERFMON, O_RDWR);
	if (fd < 0)
		err(1, "open %s", _PATH_PERFMON);
	for (i = 0; i < NPMC; i++) {
		pmc.pmc_num = i;
		pmc.pmc_val = strtoul(argv[1 + i], NULL, 16);
		if (ioctl(fd, PMIOSETUP, &pmc) < 0)
			err(1, "PMIOSETUP %d", i);
	}
	if (ioctl(fd, PMIOTSTAMP, &then) < 0)
		err(1, "PMIOTSTAMP");
	for (i = 0; i < NPMC; i++)
		if (ioctl(fd, PMIOSTART, &i) < 0)
			err(1, "PMIOSTART %d", i);
	work(loops);
	for (i = NPMC - 1; i >= 0; i--)
		if (ioctl(fd, PMIOSTOP, &i) < 0)
			err(1, "PMIOSTOP %d", i);
	if (ioctl(fd, PMIOTSTAMP, &now) < 0)
		err(1, "PMIOTSTAMP");
	for (i = 0; i < NPMC; i++) {
		pd.pmcd_num = i;
		if (ioctl(fd, PMIOREAD, &pd) < 0)
			err(1, "PMIOREAD %d", i);
		printf("pmc%d %lld\n", i, (long long)pd.pmcd_value);
	}
	printf("tsc %lld\n", (long long)(now.pmct_value - then.pmct_value));
	close(fd);
	return 0;
}
