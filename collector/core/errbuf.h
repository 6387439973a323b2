// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One-line error messages for library code: functions that can fail for reasons a user must
 * read take (char *err, size_t errlen) and fill it with ss_errf(); only the CLI prints it.
 */
#ifndef SS_ERRBUF_H
#define SS_ERRBUF_H

#include <stddef.h>

/* printf into ERR (nothing when ERR is NULL or ERRLEN is 0); always NUL-terminated. */
void ss_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
