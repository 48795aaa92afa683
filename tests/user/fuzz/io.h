/* SPDX-License-Identifier: GPL-2.0-only */
/* perfctr_fuzz: one read or write (io.c); 0 or the errno. */
#ifndef FUZZ_IO_H
#define FUZZ_IO_H

#include <stddef.h>

int fuzz_write(int fd, const void *data, size_t exact);
int fuzz_read(int fd, size_t exact);

#endif /* FUZZ_IO_H */
