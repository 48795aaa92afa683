// SPDX-License-Identifier: GPL-2.0-only
/*
 * Ends the test VM with an exit code through QEMU's isa-debug-exit device
 * (iobase 0xf4): QEMU exits with (code << 1) | 1.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/io.h>
#include <termios.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int code = argc > 1 ? atoi(argv[1]) : 0;

	/* Let the serial port drain: the exit device stops the VM at once. */
	tcdrain(STDOUT_FILENO);
	usleep(200000);
	if (ioperm(0xf4, 1, 1)) {
		perror("vm-exit: ioperm");
		return 1;
	}
	outb((unsigned char)code, 0xf4);
	return 0;
}
