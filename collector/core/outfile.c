// SPDX-License-Identifier: GPL-2.0-or-later
/* Output files that cannot be turned against their host (see outfile.h). */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>

#include "errbuf.h"
#include "outfile.h"

struct ss_outfile {
	enum ss_out_mode mode;
	int fd;
	int dirfd;          /* REPLACE: the directory of PATH, where the temporary file lives */
	char *name;         /* REPLACE: PATH's last component */
	char *tmp;          /* REPLACE: the temporary file's name in dirfd, NULL once renamed */
	char *path;         /* for messages */
};

/* The directory part and the last component of PATH, each malloc'd. */
static int split_path(const char *path, char **dir, char **base)
{
	char *a = strdup(path), *b = strdup(path);

	*dir = *base = NULL;
	if (!a || !b) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	*dir = strdup(dirname(a));
	*base = strdup(basename(b));
	free(a);
	free(b);
	if (!*dir || !*base) {
		free(*dir);
		free(*base);
		*dir = *base = NULL;
		return -ENOMEM;
	}
	return 0;
}

/*
 * May we write into the existing file ST (in the directory DST)?  0, or -errno with a reason.
 * Checked on the opened descriptor (or the name about to be replaced), not on a path that could
 * change in between.
 */
static int check_existing(const char *path, const struct stat *st, const struct stat *dst,
			  char *err, size_t errlen)
{
	if (S_ISDIR(st->st_mode)) {
		ss_errf(err, errlen, "%s: is a directory", path);
		return -EISDIR;
	}
	if (S_ISREG(st->st_mode) && st->st_nlink > 1) {
		ss_errf(err, errlen, "%s: refusing to overwrite a file with %ju hard links "
			"(remove it or name another output)", path, (uintmax_t)st->st_nlink);
		return -EMLINK;
	}
	if ((dst->st_mode & S_ISVTX) && (dst->st_mode & S_IWOTH) && st->st_uid != geteuid() &&
	    st->st_uid != dst->st_uid) {
		ss_errf(err, errlen, "%s: refusing to overwrite a file of another user (uid %u) in "
			"a shared sticky directory", path, (unsigned)st->st_uid);
		return -EPERM;
	}
	return 0;
}

static int symlink_refused(const char *path, char *err, size_t errlen)
{
	ss_errf(err, errlen, "%s: refusing to write through a symbolic link", path);
	return -ELOOP;
}

/* Open an existing PATH without following a link, check it, truncate a regular file. */
static int open_existing(const char *path, int dirfd, const char *name, char *err, size_t errlen)
{
	struct stat st, dst;
	int fd, ret;

	fd = openat(dirfd, name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0) {
		ret = -errno;
		if (ret == -ELOOP)
			return symlink_refused(path, err, errlen);
		ss_errf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st) < 0 || fstat(dirfd, &dst) < 0) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", path, strerror(-ret));
		goto error;
	}
	ret = check_existing(path, &st, &dst, err, errlen);
	if (ret)
		goto error;
	if (S_ISREG(st.st_mode) && ftruncate(fd, 0) < 0) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", path, strerror(-ret));
		goto error;
	}
	if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) < 0) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", path, strerror(-ret));
		goto error;
	}
	return fd;
error:
	close(fd);
	return ret;
}

/* SS_OUT_INPLACE: a new file (O_EXCL), or an existing one that passes the checks. */
static int open_inplace(struct ss_outfile *o, int dirfd, const char *name, mode_t perm,
			char *err, size_t errlen)
{
	/* the file may come and go between the two opens: try a few times */
	for (int tries = 0; tries < 8; tries++) {
		int fd = openat(dirfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
				perm);

		if (fd >= 0) {
			o->fd = fd;
			return 0;
		}
		if (errno != EEXIST) {
			int ret = -errno;

			ss_errf(err, errlen, "cannot create %s: %s", o->path, strerror(-ret));
			return ret;
		}
		fd = open_existing(o->path, dirfd, name, err, errlen);
		if (fd >= 0) {
			o->fd = fd;
			return 0;
		}
		if (fd != -ENOENT)
			return fd;
	}
	ss_errf(err, errlen, "cannot create %s: it keeps appearing and disappearing", o->path);
	return -EAGAIN;
}

/* SS_OUT_REPLACE: a fresh temporary file next to PATH. */
static int open_replace(struct ss_outfile *o, mode_t perm, char *err, size_t errlen)
{
	struct stat st, dst;
	struct timespec ts;
	size_t len = strlen(o->name) + 32;
	int ret;

	if (fstatat(o->dirfd, o->name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode))
			return symlink_refused(o->path, err, errlen);
		if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)) {
			/* /dev/null, a FIFO: write into it, never replace it */
			o->mode = SS_OUT_INPLACE;
			ret = open_existing(o->path, o->dirfd, o->name, err, errlen);
			if (ret < 0)
				return ret;
			o->fd = ret;
			return 0;
		}
		if (fstat(o->dirfd, &dst) < 0) {
			ret = -errno;
			ss_errf(err, errlen, "%s: %s", o->path, strerror(-ret));
			return ret;
		}
		/* renaming over another link of a file leaves that file alone: no nlink rule */
		st.st_nlink = 1;
		ret = check_existing(o->path, &st, &dst, err, errlen);
		if (ret)
			return ret;
	} else if (errno != ENOENT) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", o->path, strerror(-ret));
		return ret;
	}
	o->tmp = malloc(len);
	if (!o->tmp)
		return -ENOMEM;
	clock_gettime(CLOCK_REALTIME, &ts);
	for (unsigned n = 0; n < 100; n++) {
		unsigned long tag = ((unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 16)) + n * 7919u;

		/* hidden, and cut short so that a long name still fits NAME_MAX */
		snprintf(o->tmp, len, ".%.200s.%06lx~", o->name, tag & 0xffffff);
		o->fd = openat(o->dirfd, o->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			       perm);
		if (o->fd >= 0)
			return 0;
		if (errno != EEXIST)
			break;
	}
	ret = -errno;
	ss_errf(err, errlen, "cannot create a file in the directory of %s: %s", o->path,
		strerror(-ret));
	free(o->tmp);
	o->tmp = NULL;
	return ret;
}

/* "-": standard output, unless it is a terminal (every output is binary or a whole page). */
static int check_stdout(char *err, size_t errlen)
{
	if (isatty(STDOUT_FILENO)) {
		ss_errf(err, errlen, "standard output is a terminal: redirect it (> FILE, | CMD) "
			"or name a file");
		return -ENOTTY;
	}
	if (fcntl(STDOUT_FILENO, F_GETFL) < 0) {
		ss_errf(err, errlen, "standard output is closed");
		return -EBADF;
	}
	return 0;
}

/* Written as it comes, whatever MODE asks: a pipe cannot be replaced.  A failure leaves the
 * reader what was written (a seekscope trace then reads as truncated). */
static int open_stdout(struct ss_outfile *o, char *err, size_t errlen)
{
	int ret = check_stdout(err, errlen);

	if (ret)
		return ret;
	o->mode = SS_OUT_INPLACE;
	o->fd = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
	if (o->fd < 0) {
		ret = -errno;
		ss_errf(err, errlen, "standard output: %s", strerror(-ret));
	}
	return ret;
}

struct ss_outfile *ss_outfile_open(const char *path, enum ss_out_mode mode, mode_t perm,
				   char *err, size_t errlen)
{
	struct ss_outfile *o = calloc(1, sizeof(*o));
	bool out = !strcmp(path, "-");
	char *dir = NULL;
	int ret;

	if (!o || !(o->path = strdup(out ? "standard output" : path))) {
		free(o);
		ss_errf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	o->mode = mode;
	o->fd = o->dirfd = -1;
	if (out) {
		ret = open_stdout(o, err, errlen);
		if (ret)
			goto error;
		return o;
	}
	ret = split_path(path, &dir, &o->name);
	if (ret) {
		ss_errf(err, errlen, "out of memory");
		goto error;
	}
	o->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (o->dirfd < 0) {
		ret = -errno;
		ss_errf(err, errlen, "cannot create %s: %s", path, strerror(-ret));
		goto error;
	}
	if (mode == SS_OUT_INPLACE)
		ret = open_inplace(o, o->dirfd, o->name, perm, err, errlen);
	else
		ret = open_replace(o, perm, err, errlen);
	if (ret)
		goto error;
	free(dir);
	return o;
error:
	free(dir);
	ss_outfile_discard(o);
	errno = -ret;
	return NULL;
}

int ss_outfile_check(const char *path, char *err, size_t errlen)
{
	char *dir = NULL, *name = NULL;
	struct stat st, dst;
	int dirfd = -1, ret;

	if (!strcmp(path, "-"))
		return check_stdout(err, errlen);
	ret = split_path(path, &dir, &name);
	if (ret) {
		ss_errf(err, errlen, "out of memory");
		return ret;
	}
	dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dirfd < 0 || fstat(dirfd, &dst) < 0) {
		ret = -errno;
		ss_errf(err, errlen, "cannot create %s: %s", path, strerror(-ret));
		goto out;
	}
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
		if (S_ISLNK(st.st_mode))
			ret = symlink_refused(path, err, errlen);
		else
			ret = check_existing(path, &st, &dst, err, errlen);
		if (!ret && faccessat(dirfd, name, W_OK, AT_EACCESS) < 0) {
			ret = -errno;
			ss_errf(err, errlen, "%s: %s", path, strerror(-ret));
		}
	} else if (errno != ENOENT) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", path, strerror(-ret));
	} else if (faccessat(dirfd, ".", W_OK | X_OK, AT_EACCESS) < 0) {
		ret = -errno;
		ss_errf(err, errlen, "cannot create %s: %s", path, strerror(-ret));
	}
out:
	if (dirfd >= 0)
		close(dirfd);
	free(dir);
	free(name);
	return ret;
}

int ss_outfile_fd(const struct ss_outfile *o)
{
	return o->fd;
}

static void outfile_free(struct ss_outfile *o)
{
	if (o->fd >= 0)
		close(o->fd);
	if (o->dirfd >= 0)
		close(o->dirfd);
	free(o->name);
	free(o->tmp);
	free(o->path);
	free(o);
}

int ss_outfile_commit(struct ss_outfile *o, char *err, size_t errlen)
{
	int ret = 0;

	if (o->mode == SS_OUT_REPLACE && o->tmp) {
		if (fdatasync(o->fd) < 0 ||
		    renameat(o->dirfd, o->tmp, o->dirfd, o->name) < 0) {
			ret = -errno;
			ss_errf(err, errlen, "%s: %s", o->path, strerror(-ret));
			ss_outfile_discard(o);
			return ret;
		}
		free(o->tmp);
		o->tmp = NULL;
	}
	if (close(o->fd) < 0) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", o->path, strerror(-ret));
	}
	o->fd = -1;
	outfile_free(o);
	return ret;
}

void ss_outfile_discard(struct ss_outfile *o)
{
	if (!o)
		return;
	if (o->tmp && o->dirfd >= 0)
		unlinkat(o->dirfd, o->tmp, 0);
	outfile_free(o);
}
