// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * File attribution: an interval index over a trace's file maps (format.h; loaded by the reader
 * into fmapdata.h) answering "which file, directory or inode chunk does this sector range of
 * this device hold?" by binary search over sorted arrays (never a scan of the map per
 * request).  Built once per trace; memory is two arrays of 32-byte intervals (one per mapped
 * extent, one per mapped inode or inode chunk).  A trace without a map gives an empty index:
 * every lookup says SS_FM_NONE (shown as "unknown").  Nothing here prints.
 *
 * Groups ("directory under DIR"): the map's top is DIR, or the first directory below DIR with
 * more than one entry when DIR holds a single directory (record --untar extracts into DIR/1,
 * and an archive usually holds one top directory: "srctree/").  The group of an entry at
 * DEPTH (1 = the directories right under the top) is its ancestor at that depth, or its own
 * directory when it lies less deep; "." is the top itself.
 */
#ifndef SS_FILEMAP_H
#define SS_FILEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "trace_read.h"

struct ss_filemap;

enum ss_fm_kind {
	SS_FM_NONE = 0,     /* nothing mapped there (or no map) */
	SS_FM_FILE,         /* a regular file's data extents */
	SS_FM_DIR,          /* a directory's blocks */
	SS_FM_INODE,        /* inodes of mapped entries (XFS inode chunk, ext4 inode table) */
};

/* Index T's file maps; NULL with errno ENOMEM. */
struct ss_filemap *ss_filemap_new(const struct ss_trace *t);
void ss_filemap_free(struct ss_filemap *fm);            /* accepts NULL */
/* True when the trace has a file map at all. */
bool ss_filemap_known(const struct ss_filemap *fm);
/* True when no sector is mapped (no map, or maps without extents): every lookup says none. */
bool ss_filemap_empty(const struct ss_filemap *fm);

/* The answer of a lookup. */
struct ss_fm_hit {
	long entry;                 /* the entry, -1 for SS_FM_NONE */
	uint64_t sectors;           /* how many sectors of the range lie in its extents (or, for
				     * SS_FM_INODE, in its inode or inode chunk): a request the
				     * block layer merged across files has the rest elsewhere */
};
/*
 * What [SECTOR, SECTOR+NR) on DEV (absolute sectors, as events carry them; NR 0 counts as 1)
 * holds: the mapped entry with the most of its sectors (file data or directory blocks), or
 * the mapped inodes (the inode or XFS inode chunk with most sectors in the range: the first
 * entry whose own inode the range holds, else the first) when they hold more of the range than that entry, else SS_FM_NONE.  HIT may be NULL.  This is the
 * query request classes build on.
 */
enum ss_fm_kind ss_filemap_lookup(const struct ss_filemap *fm, uint32_t dev, uint64_t sector,
				  uint32_t nr, struct ss_fm_hit *hit);
/* Entries whose on-disk inodes lie in the range (up to MAX of them into OUT); the count. */
size_t ss_filemap_inodes_in(const struct ss_filemap *fm, uint32_t dev, uint64_t sector,
			    uint32_t nr, long *out, size_t max);

/* Path of ENTRY relative to its map's DIR into BUF ("" for DIR); its length. */
size_t ss_filemap_path(const struct ss_filemap *fm, long entry, char *buf, size_t len);
/* The group of ENTRY at DEPTH >= 1 (see above) into BUF; its length. */
size_t ss_filemap_group(const struct ss_filemap *fm, long entry, unsigned depth, char *buf,
			size_t len);
/* Path of ENTRY below its map's top (the groups' root, see above) into BUF ("." for the top
 * and above it); its length. */
size_t ss_filemap_path_below_top(const struct ss_filemap *fm, long entry, char *buf,
				 size_t len);
/* The entry's kind: SS_FILE_REG or SS_FILE_DIR. */
unsigned ss_filemap_kind(const struct ss_filemap *fm, long entry);

#endif
