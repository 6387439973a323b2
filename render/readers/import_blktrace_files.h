// SPDX-License-Identifier: GPL-2.0-or-later
/* The files of a blktrace trace, for its importer (import_blktrace.c).  Not for use outside
 * the reader. */
#ifndef SS_IMPORT_BLKTRACE_FILES_H
#define SS_IMPORT_BLKTRACE_FILES_H

#include <stddef.h>

/*
 * The files PATH names: a directory's NAME.blktrace.N files, all of PREFIX's CPUs for
 * PREFIX.blktrace.N or for a PREFIX that names no file, or one file of another name (one
 * stream); sorted by prefix and CPU, empty files left out.  0 with *PATHS (*NR paths, each and
 * the array the caller's to free), or -errno (-ENOENT: none) with a reason in err when one
 * helps.
 */
int ss_bt_list_files(const char *path, char ***paths, size_t *nr, char *err, size_t errlen);

#endif
