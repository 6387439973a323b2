// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a file region completely, retrying short reads and EINTR; spooling a stream (a pipe,
 * standard input) into a file that can be read at any offset; opening a path beneath a
 * directory without following any symlink. */
#ifndef SS_FILEIO_H
#define SS_FILEIO_H

#include <stddef.h>
#include <sys/types.h>

/* Read up to LEN bytes at OFF: the number read (less than LEN only at end of file) or -errno. */
ssize_t ss_pread_full(int fd, void *buf, size_t len, off_t off);

/*
 * Copy everything FD yields until its end into a new unnamed temporary file (O_TMPFILE, or a
 * file removed right after its creation) in $TMPDIR, else /tmp: a reader that needs to seek can
 * then read a pipe.  Returns the temporary file's descriptor (close-on-exec; the file vanishes
 * with it), or -errno with one line in ERR (ENOSPC stays ENOSPC).  FD is left open.
 */
int ss_spool_fd(int fd, char *err, size_t errlen);

/*
 * Open PATH relative to DIRFD with FLAGS (O_NOFOLLOW is added) such that no component may be
 * a symlink and the result must lie beneath DIRFD (openat2 RESOLVE_BENEATH |
 * RESOLVE_NO_SYMLINKS): a tree someone else can change cannot send a root process outside of
 * it.  Where the kernel is older than 5.6 or a seccomp profile (or valgrind) refuses openat2
 * (ENOSYS, EPERM): the same rule one component at a time with openat and O_NOFOLLOW.  A
 * descriptor or -1 with errno (ELOOP or EXDEV for a symlink or an escape on the way).
 */
int ss_open_beneath(int dirfd, const char *path, int flags);

#endif
