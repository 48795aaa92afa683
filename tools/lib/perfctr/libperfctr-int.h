/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * libperfctr's own helpers, shared between its files and exported by
 * neither library (libperfctr.map lists what libperfctr.so exports).
 */
#ifndef _LIBPERFCTR_INT_H
#define _LIBPERFCTR_INT_H

#include "libperfctr.h"

/* statfs()'s f_type of the perfctr file system (virtual.rst). */
#define PERFCTR_FS_MAGIC	0x70637472

/*
 * The control file of the set directory @dfd, written or read whole as
 * vperfctr_control() and vperfctr_read_control() do (ABI 1.0's size for
 * a module of ABI 1.0).
 */
int perfctr_control_write_at(int dfd, const struct vperfctr_control *ctl);
int perfctr_control_read_at(int dfd, struct vperfctr_control *ctl);

/* The result of a pread()/pwrite() of @size bytes: 0, or -1 (EIO short). */
int perfctr_io_result(ssize_t n, size_t size);

#endif /* _LIBPERFCTR_INT_H */
