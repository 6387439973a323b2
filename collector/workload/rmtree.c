// SPDX-License-Identifier: GPL-2.0-or-later
/* fd-relative recursive removal (see rmtree.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "rmtree.h"

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
		ss_errf(t->err, t->errlen, "tree deeper than %d levels", SS_RMTREE_MAX_DEPTH);
		return -ELOOP;
	}
	d = fdopendir(fd);
	if (!d) {
		ret = -errno;
		close(fd);
		ss_errf(t->err, t->errlen, "reading a directory: %s", strerror(-ret));
		return ret;
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
				ss_errf(t->err, t->errlen, "stopped while removing");
				ret = -EINTR;
				break;
			}
			again = true;
			if (type == DT_UNKNOWN) {   /* some filesystems do not fill d_type */
				if (fstatat(dirfd(d), n, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
					ret = -errno;
					ss_errf(t->err, t->errlen, "%s: %s", n, strerror(-ret));
					break;
				}
				type = S_ISDIR(sb.st_mode) ? DT_DIR : S_ISREG(sb.st_mode) ? DT_REG : DT_LNK;
			}
			if (type == DT_DIR) {
				int sub = open_subdir(dirfd(d), n);

				if (sub < 0) {
					ss_errf(t->err, t->errlen, "%s: %s", n, strerror(-sub));
					ret = sub;
					break;
				}
				ret = empty_dir(t, sub, depth + 1);
				if (ret)
					break;
			}
			ret = unlink_child(dirfd(d), n, type == DT_DIR ? AT_REMOVEDIR : 0);
			if (ret) {
				ss_errf(t->err, t->errlen, "%s: %s", n, strerror(-ret));
				break;
			}
			removed(t, type == DT_REG);
		}
		if (!ret && errno) {
			ret = -errno;
			ss_errf(t->err, t->errlen, "reading a directory: %s", strerror(-ret));
		}
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
	if (fstatat(dirfd, name, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
		ret = -errno;
		ss_errf(t->err, t->errlen, "%s: %s", name, strerror(-ret));
		return ret;
	}
	if (!S_ISDIR(sb.st_mode)) {
		ret = unlink_child(dirfd, name, 0);
		if (ret) {
			ss_errf(t->err, t->errlen, "%s: %s", name, strerror(-ret));
			return ret;
		}
		removed(t, S_ISREG(sb.st_mode));
		return 0;
	}
	fd = open_subdir(dirfd, name);
	if (fd < 0) {
		ss_errf(t->err, t->errlen, "%s: %s", name, strerror(-fd));
		return fd;
	}
	ret = empty_dir(t, fd, 0);
	if (ret)
		return ret;
	ret = unlink_child(dirfd, name, AT_REMOVEDIR);
	if (ret) {
		ss_errf(t->err, t->errlen, "%s: %s", name, strerror(-ret));
		return ret;
	}
	removed(t, false);
	return 0;
}
