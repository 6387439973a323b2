// SPDX-License-Identifier: GPL-2.0-or-later
/* fd-relative recursive removal (see rmtree.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "rmtree.h"

__attribute__((format(printf, 3, 4)))
static int fail(struct ss_rmtree *t, int ret, const char *fmt, ...)
{
	va_list ap;

	if (t->err && t->errlen) {
		va_start(ap, fmt);
		vsnprintf(t->err, t->errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

static int open_subdir(int pfd, const char *name)
{
	int fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

	/* A directory extracted with mode 0 (or without u+rx) cannot be opened by its non-root
	 * owner: grant ourselves access (root never gets EACCES here).  AT_SYMLINK_NOFOLLOW so
	 * that a link swapped in meanwhile makes this fail instead of chmod'ing its target. */
	if (fd < 0 && errno == EACCES && fchmodat(pfd, name, 0700, AT_SYMLINK_NOFOLLOW) == 0)
		fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}

static int unlink_child(int fd, const char *name, int flags)
{
	struct stat sb;

	if (unlinkat(fd, name, flags) == 0)
		return 0;
	/* Parent extracted read-only (e.g. mode 0555): make it writable for its owner. */
	if (errno != EACCES || fstat(fd, &sb) < 0 || fchmod(fd, (sb.st_mode & 07777) | 0700) < 0)
		return -errno;
	return unlinkat(fd, name, flags) == 0 ? 0 : -errno;
}

static void removed(struct ss_rmtree *t, bool regular)
{
	t->entries++;
	t->files += regular;
	if (t->tick)
		t->tick(t->ctx, t);
}

/*
 * Empty the directory open as fd (consumed).  Removing entries readdir() has already
 * returned is safe; the directory is read again until a pass finds nothing, in case the
 * filesystem's cookie order shifted under the removals.
 */
static int empty_dir(struct ss_rmtree *t, int fd, unsigned depth)
{
	DIR *d;
	struct dirent *de;
	bool again = true;
	int ret = 0;

	if (depth > SS_RMTREE_MAX_DEPTH) {
		close(fd);
		return fail(t, -ELOOP, "tree deeper than %d levels", SS_RMTREE_MAX_DEPTH);
	}
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		return fail(t, ret, "reading a directory: %s", strerror(-ret));
	}
	while (again && !ret) {
		again = false;
		rewinddir(d);
		while (!ret && (errno = 0, de = readdir(d))) {
			const char *n = de->d_name;
			unsigned char type = de->d_type;
			struct stat sb;

			if (!strcmp(n, ".") || !strcmp(n, ".."))
				continue;
			if (t->stop && *t->stop) {
				ret = fail(t, -EINTR, "stopped while removing");
				break;
			}
			again = true;
			if (type == DT_UNKNOWN) {   /* some filesystems do not fill d_type */
				if (fstatat(dirfd(d), n, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
					ret = fail(t, -errno, "%s: %s", n, strerror(errno));
					break;
				}
				type = S_ISDIR(sb.st_mode) ? DT_DIR : S_ISREG(sb.st_mode) ? DT_REG : DT_LNK;
			}
			if (type == DT_DIR) {
				int sub = open_subdir(dirfd(d), n);

				if (sub < 0) {
					ret = fail(t, sub, "%s: %s", n, strerror(-sub));
					break;
				}
				ret = empty_dir(t, sub, depth + 1);
				if (ret)
					break;
			}
			ret = unlink_child(dirfd(d), n, type == DT_DIR ? AT_REMOVEDIR : 0);
			if (ret) {
				fail(t, ret, "%s: %s", n, strerror(-ret));
				break;
			}
			removed(t, type == DT_REG);
		}
		if (!ret && errno)
			ret = fail(t, -errno, "reading a directory: %s", strerror(errno));
	}
	closedir(d);
	return ret;
}

int ss_rmtree_at(struct ss_rmtree *t, int dirfd, const char *name)
{
	struct stat sb;
	int fd, ret;

	if (t->err && t->errlen)
		t->err[0] = '\0';
	if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		return fail(t, -errno, "%s: %s", name, strerror(errno));
	if (!S_ISDIR(sb.st_mode)) {
		ret = unlink_child(dirfd, name, 0);
		if (ret)
			return fail(t, ret, "%s: %s", name, strerror(-ret));
		removed(t, S_ISREG(sb.st_mode));
		return 0;
	}
	fd = open_subdir(dirfd, name);
	if (fd < 0)
		return fail(t, fd, "%s: %s", name, strerror(-fd));
	ret = empty_dir(t, fd, 0);
	if (ret)
		return ret;
	ret = unlink_child(dirfd, name, AT_REMOVEDIR);
	if (ret)
		return fail(t, ret, "%s: %s", name, strerror(-ret));
	removed(t, false);
	return 0;
}
