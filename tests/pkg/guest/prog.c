// SPDX-License-Identifier: GPL-2.0-only
/*
 * A user's first program against the installed libperfctr-dev: its own
 * TSC through a virtual counter set (the one counter that counts under
 * QEMU's TCG). Prints the count; exits 0 if it is not zero.
 */
#include <stdio.h>
#include <string.h>

#include <libperfctr.h>

int main(void)
{
	struct vperfctr_control ctl;
	struct vperfctr *vp;
	unsigned long long tsc;
	unsigned long i, x = 0;

	vp = vperfctr_open();
	if (!vp) {
		perror("vperfctr_open");
		return 1;
	}
	memset(&ctl, 0, sizeof(ctl));
	ctl.cpu_control.tsc_on = 1;
	if (vperfctr_control(vp, &ctl) < 0) {
		perror("vperfctr_control");
		return 1;
	}
	/* Work the compiler cannot drop: x passes through an empty asm. */
	for (i = 0; i < 1000000; i++) {
		x += i;
		__asm__ __volatile__("" : "+r" (x));
	}
	tsc = vperfctr_read_tsc(vp);
	printf("tsc %llu\n", tsc);
	vperfctr_close(vp);
	return tsc == 0;
}
