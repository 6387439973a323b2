// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * File mapper: fts walk + FIEMAP of every regular file and directory under a directory;
 * XFS directories, which FIEMAP refuses, through XFS_IOC_GETBMAPX.
 */
#include <errno.h>
#include <fcntl.h>
#include <fts.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <xfs/xfs.h>           /* XFS_IOC_GETBMAPX, struct getbmapx: xfslibs-dev */

#include "errbuf.h"
#include "fileio.h"
#include "fsmap.h"

#define EXTENTS_PER_CALL 256
/* An extent record's length is 32 bits of sectors: longer extents become several records. */
#define MAX_RECORD_SECTORS (1ull << 31)

struct walk {
	const struct ss_fsmap_opts *o;
	struct ss_fsmap_stats *st;
	struct fiemap *fm;           /* one buffer for every call */
	struct getbmapx *bmx;        /* the same for GETBMAPX: a header + EXTENTS_PER_CALL */
	uint32_t *dirs;              /* entry number of the directory open at each depth */
	size_t nr_dirs;
	uint32_t next;               /* number of the next entry */
	int rootfd;                  /* DIR, which every entry is opened beneath */
	size_t root_len;             /* the length of DIR's path as fts spells it */
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void note_error(struct ss_fsmap_stats *st, const char *path, int e)
{
	if (!st->errors++)
		snprintf(st->first_error, sizeof(st->first_error), "%s: %s", path, strerror(e));
}

static int emit_extent(struct walk *w, uint32_t file, const struct fiemap_extent *fe)
{
	uint64_t sector = w->o->part_start + fe->fe_physical / 512;
	uint64_t left = (fe->fe_length + 511) / 512;
	uint64_t logical = fe->fe_logical;

	while (left) {
		uint64_t n = left < MAX_RECORD_SECTORS ? left : MAX_RECORD_SECTORS;
		struct ss_rec_extent e = {
			.logical = logical,
			.sector = sector,
			.nr_sectors = (uint32_t)n,
			.file = file,
			.flags = fe->fe_flags,
		};
		int ret = w->o->extent(w->o->ctx, &e);

		if (ret)
			return ret;
		w->st->extents++;
		sector += n;
		logical += n * 512;
		left -= n;
	}
	return 0;
}

/*
 * The extents of the open file FD, entry FILE.  1 when the kernel cannot map it (errno in
 * *E), 0 when done, or a callback's error.
 */
static int map_fd(struct walk *w, int fd, uint32_t file, int *e)
{
	struct fiemap *fm = w->fm;
	uint64_t start = 0;

	for (;;) {
		bool last = false;

		memset(fm, 0, sizeof(*fm));
		fm->fm_start = start;
		fm->fm_length = FIEMAP_MAX_OFFSET - start;
		fm->fm_flags = w->o->no_sync ? 0 : FIEMAP_FLAG_SYNC;
		fm->fm_extent_count = EXTENTS_PER_CALL;
		if (ioctl(fd, FS_IOC_FIEMAP, fm) < 0) {
			*e = errno;
			return 1;
		}
		if (!fm->fm_mapped_extents)
			return 0;
		for (uint32_t i = 0; i < fm->fm_mapped_extents; i++) {
			const struct fiemap_extent *fe = &fm->fm_extents[i];
			int ret;

			last = fe->fe_flags & FIEMAP_EXTENT_LAST;
			/* delayed allocation, inline data: no place of their own on the disk */
			if (fe->fe_flags & (FIEMAP_EXTENT_UNKNOWN | FIEMAP_EXTENT_DELALLOC |
					    FIEMAP_EXTENT_DATA_INLINE)) {
				w->st->no_location++;
				continue;
			}
			ret = emit_extent(w, file, fe);
			if (ret)
				return ret;
		}
		if (last)
			return 0;
		start = fm->fm_extents[fm->fm_mapped_extents - 1].fe_logical +
			fm->fm_extents[fm->fm_mapped_extents - 1].fe_length;
		if (start >= FIEMAP_MAX_OFFSET)
			return 0;
	}
}

/*
 * The blocks of the XFS directory open as FD, entry FILE, through GETBMAPX (FIEMAP says
 * EOPNOTSUPP for XFS directories).  Units are 512-byte basic blocks, bmv_block counted from
 * the start of the filesystem.  An explicit length, not -1: with -1 the kernel stops at the
 * directory's size, and the leaf and free-index blocks (at 32 and 64 GiB in the directory's
 * address space) would be left out, as xfs_bmap leaves them out.  1 when the kernel cannot
 * map it (errno in *E), 0 when done, or a callback's error.
 */
static int map_dir_xfs(struct walk *w, int fd, uint32_t file, int *e)
{
	struct getbmapx *b = w->bmx;
	const int64_t end = INT64_MAX / 512;
	int64_t off = 0;

	for (;;) {
		int n;

		memset(b, 0, sizeof(*b));
		b->bmv_offset = off;
		b->bmv_length = end - off;
		b->bmv_count = EXTENTS_PER_CALL + 1;
		b->bmv_iflags = BMV_IF_NO_HOLES | BMV_IF_PREALLOC |
				(w->o->no_sync ? BMV_IF_DELALLOC : 0);
		if (ioctl(fd, XFS_IOC_GETBMAPX, b) < 0) {
			*e = errno;
			return 1;
		}
		n = b->bmv_entries;
		if (n <= 0)
			return 0;
		for (int i = 1; i <= n; i++) {
			const struct getbmapx *x = &b[i];
			struct fiemap_extent fe = {
				.fe_logical = (uint64_t)x->bmv_offset * 512,
				.fe_physical = (uint64_t)x->bmv_block * 512,
				.fe_length = (uint64_t)x->bmv_length * 512,
				.fe_flags = (x->bmv_oflags & BMV_OF_PREALLOC ? FIEMAP_EXTENT_UNWRITTEN : 0) |
					    (x->bmv_oflags & BMV_OF_SHARED ? FIEMAP_EXTENT_SHARED : 0),
			};
			int ret;

			if (x->bmv_block < 0) {          /* -1 hole, -2 delayed allocation */
				if (x->bmv_block != -1)
					w->st->no_location++;
				continue;
			}
			if ((ret = emit_extent(w, file, &fe)))
				return ret;
		}
		if (b[n].bmv_oflags & BMV_OF_LAST || b[n].bmv_length <= 0)
			return 0;
		off = b[n].bmv_offset + b[n].bmv_length;
		if (off >= end)
			return 0;
	}
}

/*
 * The entry fts found, opened beneath DIR without following a symlink on the way (the tree
 * may be changed while it is mapped, e.g. a directory swapped for a symlink to /root between
 * fts listing it and our open), and only if it is still the file fts looked at: -1 with
 * errno, ESTALE for another file in its place.
 */
static int open_entry(const struct walk *w, const FTSENT *ent, bool dir)
{
	const char *rel = ent->fts_path + w->root_len;
	int flags = O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY | (dir ? O_DIRECTORY : 0);
	struct stat sb;
	int fd;

	while (*rel == '/')
		rel++;
	if (!*rel)
		rel = ".";
	fd = ss_open_beneath(w->rootfd, rel, flags | O_NOATIME);
	/* O_NOATIME is for the owner (or root) only */
	if (fd < 0 && errno == EPERM)
		fd = ss_open_beneath(w->rootfd, rel, flags);
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) < 0 || sb.st_dev != ent->fts_statp->st_dev ||
	    sb.st_ino != ent->fts_statp->st_ino || (sb.st_mode & S_IFMT) != (dir ? S_IFDIR : S_IFREG)) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/* Open the entry, then record it and its extents (an entry that cannot be opened as the file
 * fts saw is left out: -1 for a directory, so that the walk skips its subtree). */
static int visit(struct walk *w, const FTSENT *ent, bool dir)
{
	struct ss_rec_file f = {
		.ino = ent->fts_statp->st_ino,
		.inode_sector = SS_SECTOR_NONE,
		.parent = SS_FILE_NO_PARENT,
		.kind = dir ? SS_FILE_DIR : SS_FILE_REG,
	};
	const char *name = ent->fts_level ? ent->fts_name : "";
	size_t level = (size_t)ent->fts_level;
	uint32_t id = w->next;
	int fd, e = 0, ret;

	if (strlen(name) > UINT16_MAX)
		return 0;
	fd = open_entry(w, ent, dir);
	if (fd < 0) {
		if (errno == ELOOP || errno == EXDEV || errno == ESTALE || errno == ENOENT ||
		    errno == ENOTDIR)
			w->st->changed++;     /* replaced or removed while we walked */
		else
			note_error(w->st, ent->fts_path, errno);
		return dir ? 1 : 0;
	}
	if (level) {
		if (level > w->nr_dirs) {
			close(fd);
			return -EUCLEAN;     /* fts returns parents first: cannot happen */
		}
		f.parent = w->dirs[level - 1];
	}
	if (w->o->inodes) {
		f.inode_sector = ss_inode_sector(w->o->inodes, f.ino);
		if (f.inode_sector != SS_SECTOR_NONE)
			f.inode_sector += w->o->part_start;
	}
	f.name_len = (uint16_t)strlen(name);
	ret = w->o->file(w->o->ctx, &f, name);
	if (ret) {
		close(fd);
		return ret;
	}
	w->next++;
	if (dir) {
		uint32_t *d = realloc(w->dirs, (level + 1) * sizeof(*d));

		if (!d) {
			close(fd);
			return -ENOMEM;
		}
		w->dirs = d;
		w->dirs[level] = id;
		w->nr_dirs = level + 1;
		w->st->dirs++;
	} else {
		w->st->files++;
	}
	ret = map_fd(w, fd, id, &e);
	/* XFS maps directory blocks only through its own GETBMAPX */
	if (ret == 1 && dir && (e == EOPNOTSUPP || e == ENOTTY))
		ret = map_dir_xfs(w, fd, id, &e);
	close(fd);
	if (ret == 1) {
		/* a directory neither maps: known, kept without extents (its inode is still
		 * located) */
		if (dir && (e == EOPNOTSUPP || e == ENOTTY || e == EINVAL))
			w->st->dirs_unmapped++;
		else
			note_error(w->st, ent->fts_path, e);
		ret = 0;
	}
	return ret;
}

static int by_name(const FTSENT **a, const FTSENT **b)
{
	return strcmp((*a)->fts_name, (*b)->fts_name);
}

int ss_fsmap_walk(const struct ss_fsmap_opts *o, struct ss_fsmap_stats *st, char *err,
		  size_t errlen)
{
	struct walk w = { .o = o, .st = st, .rootfd = -1 };
	char *paths[2] = { NULL, NULL };
	uint64_t t0 = now_ns();
	dev_t root_dev = 0;
	FTSENT *ent;
	FTS *fts = NULL;
	int ret = 0;

	memset(st, 0, sizeof(*st));
	w.fm = calloc(1, sizeof(struct fiemap) + EXTENTS_PER_CALL * sizeof(struct fiemap_extent));
	w.bmx = calloc(EXTENTS_PER_CALL + 1, sizeof(*w.bmx));
	paths[0] = strdup(o->dir);
	if (!w.fm || !w.bmx || !paths[0]) {
		ss_errf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	w.rootfd = open(o->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (w.rootfd < 0) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", o->dir, strerror(errno));
		goto out;
	}
	/* sorted by name: the same tree maps to the same numbers every time */
	fts = fts_open(paths, FTS_PHYSICAL | FTS_XDEV | FTS_NOCHDIR, by_name);
	if (!fts) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", o->dir, strerror(errno));
		goto out;
	}
	while (!ret) {
		errno = 0;
		ent = fts_read(fts);
		if (!ent) {
			/* NULL with errno 0 at the end of the tree */
			if (errno) {
				ret = -errno;
				ss_errf(err, errlen, "walking %s: %s", o->dir, strerror(errno));
			}
			break;
		}
		switch (ent->fts_info) {
		case FTS_D:
			if (ent->fts_level == 0) {
				root_dev = ent->fts_statp->st_dev;
				w.root_len = ent->fts_pathlen;
			} else if (ent->fts_statp->st_dev != root_dev) {
				/* a mount point: another filesystem, another disk */
				fts_set(fts, ent, FTS_SKIP);
				st->skipped++;
				break;
			}
			ret = visit(&w, ent, true);
			if (ret == 1 && ent->fts_level == 0) {
				ret = -errno;
				ss_errf(err, errlen, "%s: %s", o->dir, strerror(errno));
			} else if (ret == 1) {
				fts_set(fts, ent, FTS_SKIP);   /* not the directory fts listed */
				ret = 0;
			}
			break;
		case FTS_F:
			if (S_ISREG(ent->fts_statp->st_mode))
				ret = visit(&w, ent, false);
			else
				st->skipped++;
			break;
		case FTS_DP:
		case FTS_DC:
			break;
		case FTS_DNR:
		case FTS_ERR:
		case FTS_NS:
			if (ent->fts_level == 0) {
				ret = -(ent->fts_errno ? ent->fts_errno : EIO);
				ss_errf(err, errlen, "%s: %s", o->dir, strerror(-ret));
				break;
			}
			note_error(st, ent->fts_path, ent->fts_errno ? ent->fts_errno : EIO);
			break;
		default:        /* symbolic links, devices, fifos, sockets */
			if (ent->fts_level == 0) {
				ret = -ENOTDIR;
				ss_errf(err, errlen, "%s: not a directory", o->dir);
				break;
			}
			st->skipped++;
			break;
		}
	}
	if (ret && errlen && !err[0])
		ss_errf(err, errlen, "mapping %s: %s", o->dir, strerror(-ret));
out:
	if (fts)
		fts_close(fts);
	if (w.rootfd >= 0)
		close(w.rootfd);
	free(paths[0]);
	free(w.fm);
	free(w.bmx);
	free(w.dirs);
	st->elapsed_ns = now_ns() - t0;
	return ret;
}
