// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Extraction workload: extracts an archive with libarchive into a directory (safely: nothing is
 * ever written outside it), with selectable durability semantics, optional repeat and delete
 * phases, reporting phase boundaries and progress through callbacks so that the recorder can
 * store markers on the trace clock.  Library code: returns 0/-errno, prints nothing; a
 * one-line message naming the failing entry goes into the caller's buffer.
 */
#ifndef SS_UNTAR_H
#define SS_UNTAR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "rmtree.h"
#include "runas.h"

enum ss_fsync_mode {
	SS_FSYNC_END = 0,   /* default: one syncfs() of the target filesystem after extracting */
	SS_FSYNC_NONE,      /* no syncs at all */
	SS_FSYNC_FILE,      /* fsync() every regular file after writing it, then syncfs at end */
};

/* Per-phase figures, filled in as phases end. */
struct ss_untar_phase {
	char name[32];          /* "drop-caches", "extract", "extract.2", "sync", "delete", ... */
	uint64_t start_ns;      /* CLOCK_MONOTONIC */
	uint64_t end_ns;
	uint64_t files;         /* regular files written (extract) or removed (delete) */
	uint64_t entries;       /* all entries */
	uint64_t bytes;         /* file data bytes written */
};

struct ss_untar_stats {
	uint64_t archive_bytes;         /* size of the archive file */
	uint64_t entries, files, dirs, symlinks, hardlinks, others;
	uint64_t data_bytes;            /* regular-file bytes, per repetition */
	/* SS_FSYNC_FILE only: files that could not be reopened for fsync (mode 000 as non-root,
	 * path longer than PATH_MAX); they are made durable by the final syncfs instead. */
	uint64_t fsync_skipped;
	/* Times or modes libarchive could not restore (all repetitions); extraction goes on. */
	uint64_t warnings;
	struct ss_untar_phase phases[64];
	size_t nr_phases;
};

struct ss_untar_progress {
	const char *phase;
	uint64_t archive_read;          /* compressed bytes consumed so far */
	uint64_t archive_total;
	uint64_t entries;
	uint64_t bytes;
};

struct ss_untar_opts {
	const char *archive;            /* path of the archive */
	const char *dest;               /* existing directory, not "/" */
	enum ss_fsync_mode fsync_mode;
	unsigned repeat;                /* 1..SS_UNTAR_MAX_REPEAT (0 means 1): extract into dest/1, dest/2, ... */
	bool drop_caches;               /* sync + drop page cache before extracting (root only) */
	bool delete_after;              /* remove the extracted trees, then syncfs */
	/* Called with begin=true at the start and false at the end of each phase. */
	void (*phase_cb)(void *ctx, const char *name, bool begin, uint64_t mono_ns);
	/* Called now and then (at most ~10 times a second) while a phase runs. */
	void (*progress_cb)(void *ctx, const struct ss_untar_progress *p);
	/* Called once the extraction and its sync are done, before any delete phase (the moment
	 * the extracted files are all on the disk: the recorder maps them then).  Optional. */
	void (*extracted_cb)(void *ctx);
	void *ctx;
	/* Checked between entries: stop early (returns -EINTR) when *stop becomes non-zero. */
	volatile int *stop;
	/* NULL, or the user whose file-system identity the extraction, the sync and the delete
	 * take (runas.h), also for the checks; the drop-caches phase runs as the caller. */
	const struct ss_runas *as;
};

/*
 * Run the workload.  On failure returns -errno and puts a one-line reason in err:
 *   -EINVAL  bad options, dest missing / not a directory / "/" (message says which)
 *   -EEXIST  dest/N already exists (extraction never overwrites an earlier run)
 *   -EPERM   unsafe entry (absolute path, "..", through a symlink, hardlink outside), or
 *            drop_caches without root
 *   -ENAMETOOLONG  an entry deeper than SS_UNTAR_MAX_DEPTH directories
 *   -EILSEQ  corrupt, truncated or unrecognised archive
 *   -EINTR   *stop was set; the phase that was running has been ended (end_ns set)
 *   other    -errno from the filesystem (-ENOSPC, -EIO, ...)
 * Counters in st are valid on every return; the phase that failed is in st->phases with its
 * end time and phase_cb has seen its end.  Entries skipped on purpose (device nodes, fifos,
 * sockets) are counted in st->others; setuid/setgid bits are always cleared.
 * Phase order: [drop-caches] extract | extract.1..N  [sync] [delete [delete-sync]]
 * (sync and delete-sync are skipped for SS_FSYNC_NONE).
 */
int ss_untar_run(const struct ss_untar_opts *o, struct ss_untar_stats *st, char *err, size_t errlen);
/*
 * Everything ss_untar_run() would refuse before writing, without writing anything: the options,
 * the archive (a regular file libarchive opens and reads a first header from), DIR (an existing
 * writable directory, not "/"), DIR/1..N (none may exist), drop_caches (root).  0, or -errno
 * as ss_untar_run() would return it with the same one-line reason.
 */
int ss_untar_check(const struct ss_untar_opts *o, char *err, size_t errlen);
const char *ss_fsync_mode_name(enum ss_fsync_mode m);
int ss_fsync_mode_parse(const char *s, enum ss_fsync_mode *m);   /* 0 or -EINVAL */

/* Components an entry name may have at most (besides "" and "."): a deeper tree could be
 * extracted but not removed by the delete phase (rmtree.h). */
#define SS_UNTAR_MAX_DEPTH SS_RMTREE_MAX_DEPTH

/*
 * The path policy applied to every entry name and hardlink target before extraction:
 * 0 for a relative path without ".." components, -EPERM for an absolute path or one with a
 * ".." component, -ENAMETOOLONG for one of more than SS_UNTAR_MAX_DEPTH components (not
 * counting "" and "."), -EINVAL for NULL or "".  Exposed for tests and for callers that want
 * to vet an archive up front.
 */
int ss_untar_path_check(const char *path);

/*
 * Whether two relative entry names name the same path once "" and "." components are
 * dropped ("d/./l" and "d//l/" are "d/l").  A hardlink entry whose target is itself is
 * skipped with a warning (libarchive refuses it with a warning but leaves its writer
 * expecting a header, not data).
 */
bool ss_untar_same_path(const char *a, const char *b);

/* Most repetitions one run accepts: every phase must fit in ss_untar_stats.phases. */
#define SS_UNTAR_MAX_REPEAT 60

#endif
