// SPDX-License-Identifier: GPL-2.0-only
/*
 * PID 1 of the CPU-matrix VMs: load perfctr.ko, show its information,
 * unload it, check it left nothing, and end the VM.
 *
 * Freestanding (raw system calls, no libc): Debian's i386 libc needs
 * CMOV, which QEMU's "pentium" (a P5) does not have. Built with
 * -nostdlib -static for i386 (int $0x80) and x86_64 (syscall).
 */
#include <asm/unistd.h>

#define O_RDONLY	0
#define O_NONBLOCK	04000
#define ENOENT		2

#ifdef __x86_64__
static long sys3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile ("syscall" : "=a" (ret)
		      : "a" (nr), "D" (a), "S" (b), "d" (c)
		      : "rcx", "r11", "memory");
	return ret;
}

static long sys5(long nr, long a, long b, long c, long d, long e)
{
	register long r10 asm("r10") = d;
	register long r8 asm("r8") = e;
	long ret;

	asm volatile ("syscall" : "=a" (ret)
		      : "a" (nr), "D" (a), "S" (b), "d" (c), "r" (r10), "r" (r8)
		      : "rcx", "r11", "memory");
	return ret;
}
#else
static long sys3(long nr, long a, long b, long c)
{
	long ret;

	asm volatile ("int $0x80" : "=a" (ret)
		      : "a" (nr), "b" (a), "c" (b), "d" (c) : "memory");
	return ret;
}

static long sys5(long nr, long a, long b, long c, long d, long e)
{
	long ret;

	asm volatile ("int $0x80" : "=a" (ret)
		      : "a" (nr), "b" (a), "c" (b), "d" (c), "S" (d), "D" (e)
		      : "memory");
	return ret;
}
#endif

static int failures;

static unsigned long len(const char *s)
{
	unsigned long n = 0;

	while (s[n])
		n++;
	return n;
}

static void put(const char *s)
{
	sys3(__NR_write, 1, (long)s, len(s));
}

static void result(int ok, const char *name)
{
	put(ok ? "RESULT PASS " : "RESULT FAIL ");
	put(name);
	put("\n");
	failures += !ok;
}

static int has(const char *buf, const char *word)
{
	unsigned long i, n = len(word);

	for (i = 0; buf[i]; i++) {
		unsigned long j = 0;

		while (j < n && buf[i + j] == word[j])
			j++;
		if (j == n)
			return 1;
	}
	return 0;
}

static int show_info(void)
{
	static char buf[4096];
	long fd = sys3(__NR_open, (long)"/proc/perfctr/info", O_RDONLY, 0);
	long n;

	if (fd < 0)
		return 0;
	n = sys3(__NR_read, fd, (long)buf, sizeof(buf) - 1);
	sys3(__NR_close, fd, 0, 0);
	if (n <= 0)
		return 0;
	buf[n] = 0;
	put(buf);
	return has(buf, "cpu_type: ");
}

static void vm_exit(int code)
{
	long ts[2] = { 0, 200000000 };	/* let the serial port drain */
	unsigned char val = code;

	sys3(__NR_nanosleep, (long)ts, 0, 0);
	/* ioperm(0xf4, 1, 1), then outb to the isa-debug-exit port. */
	if (sys3(__NR_ioperm, 0xf4, 1, 1) == 0)
		asm volatile ("outb %0, %1" : : "a" (val), "Nd" ((unsigned short)0xf4));
}

static void run_plan(void)
{
	long fd;

	sys5(__NR_mount, (long)"proc", (long)"/proc", (long)"proc", 0, 0);
	put("== perfctr-vm: plan matrix\n");
	fd = sys3(__NR_open, (long)"/lib/modules/perfctr.ko", O_RDONLY, 0);
	result(fd >= 0 && sys3(__NR_finit_module, fd, (long)"", 0) == 0,
	       "matrix-module-load");
	result(sys5(__NR_mount, (long)"perfctr", (long)"/proc/perfctr",
		    (long)"perfctr", 0, 0) == 0, "matrix-mount");
	result(show_info(), "matrix-info-readable");
	result(sys3(__NR_umount2, (long)"/proc/perfctr", 0, 0) == 0,
	       "matrix-umount");
	result(sys3(__NR_delete_module, (long)"perfctr", O_NONBLOCK, 0) == 0,
	       "matrix-module-unload");
	result(sys3(__NR_open, (long)"/proc/perfctr", O_RDONLY, 0) == -ENOENT,
	       "matrix-proc-removed");
	put(failures ? "== perfctr-vm: end rc=1\n" : "== perfctr-vm: end rc=0\n");
	vm_exit(failures ? 1 : 0);
}

void _start(void)
{
	run_plan();
	for (;;)
		sys3(__NR_pause, 0, 0, 0);
}
