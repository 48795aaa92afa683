// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ends the test VM. On x86 with an exit code, through QEMU's
 * isa-debug-exit device (iobase 0xf4): QEMU exits with (code << 1) | 1.
 * On ppc32 PowerMacs by powering off; the code is in the log.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/reboot.h>
#include <termios.h>
#include <unistd.h>
#ifndef __powerpc__
#include <sys/io.h>
#endif

int main(int argc, char **argv)
{
	int code = argc > 1 ? atoi(argv[1]) : 0;

	/* Let the serial port drain: the exit device stops the VM at once. */
	tcdrain(STDOUT_FILENO);
	usleep(200000);
#ifdef __powerpc__
	(void)code;
	sync();
	reboot(RB_POWER_OFF);
	perror("vm-exit: reboot");
#else
	if (ioperm(0xf4, 1, 1)) {
		perror("vm-exit: ioperm");
		return 1;
	}
	outb((unsigned char)code, 0xf4);
#endif
	return 0;
}
