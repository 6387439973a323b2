// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a file region completely, retrying short reads and EINTR. */
#ifndef SS_FILEIO_H
#define SS_FILEIO_H

#include <sys/types.h>

/* Read up to LEN bytes at OFF: the number read (less than LEN only at end of file) or -errno. */
ssize_t ss_pread_full(int fd, void *buf, size_t len, off_t off);

#endif
