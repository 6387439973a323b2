// SPDX-License-Identifier: GPL-2.0-or-later
/* Reading a file region completely; spooling a stream into a temporary file (see fileio.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include "errbuf.h"
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

/* An unnamed file in DIR: O_TMPFILE where the filesystem has it, else a named one unlinked. */
static int tmpfile_in(const char *dir)
{
	char *name;
	int fd = open(dir, O_RDWR | O_TMPFILE | O_CLOEXEC, 0600);

	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd < 0 ? -errno : fd;
	if (asprintf(&name, "%s/seekscope-stdin.XXXXXX", dir) < 0)
		return -ENOMEM;
	fd = mkostemp(name, O_CLOEXEC);
	if (fd >= 0)
		unlink(name);
	else
		fd = -errno;
	free(name);
	return fd;
}

int ss_spool_fd(int fd, char *err, size_t errlen)
{
	const char *dir = getenv("TMPDIR");
	size_t cap = 1 << 20;
	char *buf = malloc(cap);
	int out, ret = 0;

	if (!dir || !*dir)
		dir = "/tmp";
	if (!buf) {
		ss_errf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	out = tmpfile_in(dir);
	if (out < 0) {
		ss_errf(err, errlen, "cannot create a temporary file in %s to hold the input: %s",
			dir, strerror(-out));
		free(buf);
		return out;
	}
	for (;;) {
		ssize_t n = read(fd, buf, cap), done = 0;

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			ss_errf(err, errlen, "read error: %s", strerror(-ret));
			break;
		}
		if (n == 0)
			break;
		while (done < n) {
			ssize_t w = write(out, buf + done, (size_t)(n - done));

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				ret = w < 0 ? -errno : -EIO;
				ss_errf(err, errlen, "cannot copy the input into %s: %s", dir,
					strerror(-ret));
				break;
			}
			done += w;
		}
		if (ret)
			break;
	}
	free(buf);
	if (ret) {
		close(out);
		return ret;
	}
	return out;
}

/* ss_open_beneath() without openat2: one component at a time, none of them "..", each
 * directory on the way opened with O_NOFOLLOW (a symlink there is ELOOP). */
static int open_by_components(int dirfd, const char *path, int flags)
{
	char comp[NAME_MAX + 1];
	int cur = dirfd, fd, e;

	for (;;) {
		const char *slash = strchr(path, '/');
		size_t len = slash ? (size_t)(slash - path) : strlen(path);

		if (len > NAME_MAX) {
			e = ENAMETOOLONG;
			break;
		}
		memcpy(comp, path, len);
		comp[len] = 0;
		if (!strcmp(comp, "..")) {
			e = EXDEV;
			break;
		}
		if (!slash) {
			fd = openat(cur, len ? comp : ".", flags | O_NOFOLLOW);
			e = errno;
			if (cur != dirfd)
				close(cur);
			errno = e;
			return fd;
		}
		path = slash + 1;
		if (!len || !strcmp(comp, "."))
			continue;
		fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		e = errno;
		if (fd < 0) {
			struct stat sb;

			if (fstatat(cur, comp, &sb, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(sb.st_mode))
				e = ELOOP;
			break;
		}
		if (cur != dirfd)
			close(cur);
		cur = fd;
	}
	if (cur != dirfd)
		close(cur);
	errno = e;
	return -1;
}

int ss_open_beneath(int dirfd, const char *path, int flags)
{
	struct open_how how = { .flags = (uint64_t)(flags | O_NOFOLLOW),
				.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS };
	int fd = (int)syscall(SYS_openat2, dirfd, path, &how, sizeof(how));

	if (fd < 0 && (errno == ENOSYS || errno == EPERM)) {
		if (path[0] == '/') {
			errno = EXDEV;
			return -1;
		}
		fd = open_by_components(dirfd, path, flags);
	}
	return fd;
}
