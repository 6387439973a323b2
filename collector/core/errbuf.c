// SPDX-License-Identifier: GPL-2.0-or-later
/* One-line error messages for library code (see errbuf.h). */
#include <stdarg.h>
#include <stdio.h>

#include "errbuf.h"

void ss_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}
