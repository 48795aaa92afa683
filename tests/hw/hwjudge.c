// SPDX-License-Identifier: GPL-2.0-only
/*
 * hwjudge: make check-hw's verdict from a file of facts (judge.h).
 *
 *   hwjudge FILE             prints the verdict; exits 0 (PASS), 1 (FAIL)
 *                            or 2 (REFUSED)
 *   hwjudge --refused FILE   prints nothing; exits 2 if the check cannot
 *                            run here, else 0: whether to measure at all
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "judge.h"

static int read_facts(const char *path, struct hw_facts *f)
{
	char buf[1024];
	FILE *in = fopen(path, "r");

	if (!in) {
		fprintf(stderr, "hwjudge: %s: %s: give the facts file run.sh wrote\n",
			path, strerror(errno));
		return -1;
	}
	while (fgets(buf, sizeof(buf), in))
		if (buf[0] != '\n' && hw_fact_line(f, buf))
			fprintf(stderr,
				"hwjudge: %s: line ignored (not key=value, or too many): %s",
				path, buf);
	fclose(in);
	return 0;
}

int main(int argc, char **argv)
{
	static struct hw_facts f;
	FILE *devnull;

	if (argc == 3 && !strcmp(argv[1], "--refused")) {
		if (read_facts(argv[2], &f))
			return 1;
		devnull = fopen("/dev/null", "w");
		return devnull ? hw_refusals(&f, devnull) : HW_FAIL;
	}
	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: hwjudge [--refused] FACTS\n");
		return 1;
	}
	if (read_facts(argv[1], &f))
		return 1;
	return hw_judge(&f, stdout);
}
