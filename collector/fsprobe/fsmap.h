// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * File mapper: walks a directory tree (fts: no symbolic link followed, never leaving the
 * directory's filesystem) and asks the kernel where each regular file's and directory's data
 * lie (FIEMAP with FIEMAP_FLAG_SYNC; XFS directories, which FIEMAP refuses, with
 * XFS_IOC_GETBMAPX), turning byte offsets into absolute sectors of the whole
 * disk.  Entries and extents go to callbacks as they are found (format.h's file map records),
 * so memory is bounded by the depth of the tree, never by its size.
 * Library code: 0/-errno and one-line reasons; never prints.
 */
#ifndef SS_FSMAP_H
#define SS_FSMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "fsprobe.h"

struct ss_fsmap_opts {
	const char *dir;                     /* the tree to map; entry 0 */
	uint64_t part_start;                 /* sector of the filesystem on the whole disk */
	const struct ss_inode_geom *inodes;  /* where inodes lie, or NULL (inode_sector unknown) */
	bool no_sync;                        /* no FIEMAP_FLAG_SYNC: dirty data is not written
					      * first (it has no place yet: no_location) */
	/* Called for every entry in walk order, numbered 0, 1, ... (parents before children;
	 * f->name_len is set).  Non-zero stops the walk and is returned. */
	int (*file)(void *ctx, const struct ss_rec_file *f, const char *name);
	/* Called for each extent of the entry last passed to file(). */
	int (*extent)(void *ctx, const struct ss_rec_extent *e);
	void *ctx;
};

struct ss_fsmap_stats {
	uint64_t files;              /* regular files mapped */
	uint64_t dirs;               /* directories (DIR included) */
	uint64_t extents;            /* extents passed on (after splitting) */
	uint64_t no_location;        /* extents without a known place (delalloc, inline data) */
	uint64_t dirs_unmapped;      /* directories neither FIEMAP nor (XFS) GETBMAPX maps */
	uint64_t skipped;            /* symbolic links, devices, fifos, sockets: no data to map */
	uint64_t errors;             /* entries that could not be read or mapped */
	uint64_t changed;            /* entries replaced or removed while the walk ran (e.g. by a
					symlink: never followed): left out */
	uint64_t elapsed_ns;
	char first_error[160];       /* the first of them, "" if none */
};

/*
 * Map O->dir.  0 when the walk finished (entries that failed are counted in st->errors and
 * left out of the map or kept without extents), -errno with a reason in err when DIR itself
 * cannot be walked or a callback failed.
 */
int ss_fsmap_walk(const struct ss_fsmap_opts *o, struct ss_fsmap_stats *st, char *err,
		  size_t errlen);

#endif
