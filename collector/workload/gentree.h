// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deterministic generator of a source-tree-like archive: the stand-in for "a kernel tarball"
 * when a real one is not at hand or results must be reproducible across machines.  One
 * top-level directory, a nested tree 3-5 levels deep with kernel-like names
 * (srctree/drivers/..., Makefile, Kconfig, *.c, *.h), file sizes log-normal around 8 KiB
 * plus a few 0.5-4 MiB files, text-like compressible content.  Same options and seed ->
 * byte-identical archive (zip only on machines with the same TZ: libarchive stores the zip
 * DOS time in local time).  Library code: returns 0/-errno, prints nothing.
 */
#ifndef SS_GENTREE_H
#define SS_GENTREE_H

#include <stddef.h>
#include <stdint.h>

#define SS_GENTREE_DEFAULT_FILES 6000u
#define SS_GENTREE_DEFAULT_DIRS  400u
#define SS_GENTREE_MAX_FILES     10000000u
#define SS_GENTREE_MAX_DIRS      1000000u
#define SS_GENTREE_MAX_SCALE     1000.0

struct ss_gentree_opts {
	/* Output file; the format follows the name: .tar, .tar.gz/.tgz, .tar.xz/.txz,
	 * .tar.bz2/.tbz2, .tar.zst/.tzst, .zip, .cpio.  Written in place; removed on failure. */
	const char *path;
	uint64_t seed;
	unsigned files;         /* regular files, 0 -> SS_GENTREE_DEFAULT_FILES (~75 MB of data) */
	unsigned dirs;          /* directories including the top one, 0 -> ss_gentree_default_dirs() */
	double scale;           /* multiplies every file size, 0 -> 1.0; at most SS_GENTREE_MAX_SCALE */
	const char *top;        /* name of the top-level directory, NULL -> "srctree" */
	/* Optional: called after each file written with the files written so far and the total
	 * (for a progress line; it must not print into the archive's descriptor). */
	void (*progress)(void *ctx, uint64_t files_done, uint64_t files_total);
	void *progress_ctx;
};

/* Directories when --dirs is not given: as many per file as the default tree has
 * (SS_GENTREE_DEFAULT_DIRS per SS_GENTREE_DEFAULT_FILES, rounded), at least the top one. */
unsigned ss_gentree_default_dirs(unsigned files);

struct ss_gentree_stats {
	uint64_t files, dirs;   /* entries written */
	uint64_t data_bytes;    /* sum of file sizes */
	uint64_t archive_bytes; /* size of the archive file */
	unsigned max_depth;     /* deepest directory level below the top one */
};

/* Write the archive.  -EINVAL (bad options or unknown extension, see err) or -errno. */
int ss_gentree_write(const struct ss_gentree_opts *o, char *err, size_t errlen);
/* Same, and fill *st (may be NULL). */
int ss_gentree_write_stats(const struct ss_gentree_opts *o, struct ss_gentree_stats *st,
			   char *err, size_t errlen);

#endif
