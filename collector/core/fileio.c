// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a file region completely (see fileio.h). */
#include <errno.h>
#include <unistd.h>

#include "fileio.h"

ssize_t ss_pread_full(int fd, void *buf, size_t len, off_t off)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = pread(fd, (char *)buf + done, len - done, off + (off_t)done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		done += (size_t)n;
	}
	return (ssize_t)done;
}
