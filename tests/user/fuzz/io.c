// SPDX-License-Identifier: GPL-2.0-only
/*
 * perfctr_fuzz: one read or write of a file, with the size, offset and
 * buffer chosen around the file's own (a partial write, a buffer that
 * runs into an inaccessible page, an offset past the end).
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "io.h"

static int result(ssize_t n)
{
	return n < 0 ? errno : 0;
}

/* Writes len bytes of data (or garbage) as one write or pwrite. */
int fuzz_write(int fd, const void *data, size_t exact)
{
	__u32 len = gen_size(exact);
	void *buf = fuzz_buf(len);
	off_t off = gen_offset(exact);

	memset(buf, 0, len > 4096 ? 4096 : len);
	memcpy(buf, data, len < exact ? len : exact);
	if (rnd_below(16) == 0)
		buf = fuzz_bad_ptr();
	if (rnd_below(4) == 0)
		return result(write(fd, buf, len));
	return result(pwrite(fd, buf, len, off));
}

int fuzz_read(int fd, size_t exact)
{
	__u32 len = gen_size(exact);
	void *buf = fuzz_buf(len);
	off_t off = gen_offset(exact);

	if (rnd_below(16) == 0)
		buf = fuzz_bad_ptr();
	if (rnd_below(4) == 0)
		return result(read(fd, buf, len));
	return result(pread(fd, buf, len, off));
}
