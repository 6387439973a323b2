// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trace writer: creates a seekscope trace file and appends records as the capture goes.
 * Every call writes through to the file descriptor, so whatever was appended before a crash
 * is in the file (see include/seekscope/format.h for the truncation rules).
 * All functions return 0 or -errno; none prints or exits.
 */
#ifndef SS_TRACE_WRITE_H
#define SS_TRACE_WRITE_H

#include <stddef.h>
#include "seekscope/format.h"
#include "outfile.h"

struct ss_writer;

/*
 * Create PATH and write the file header.  SS_OUT_INPLACE writes the file as it grows, so a
 * capture killed at any moment leaves a readable (truncated) trace (record); SS_OUT_REPLACE
 * writes a temporary file that close renames over PATH, so PATH never holds half a result and
 * abort leaves it untouched (convert).  Neither follows a symbolic link or overwrites another
 * user's file in a shared directory (outfile.h).  NULL with errno and a reason in err.
 */
struct ss_writer *ss_writer_open(const char *path, enum ss_out_mode mode, char *err,
				 size_t errlen);
int ss_writer_device(struct ss_writer *w, const struct ss_rec_device *dev);
int ss_writer_zone(struct ss_writer *w, const struct ss_rec_zone *zone);
int ss_writer_meta(struct ss_writer *w, const char *key, const char *value);
/* Events must come in non-decreasing ts order across calls; batches are split as needed. */
int ss_writer_events(struct ss_writer *w, const struct ss_event *ev, size_t n);
/* Task table entries (format.h, SS_REC_TASKS); batches are split as needed. */
int ss_writer_tasks(struct ss_writer *w, const struct ss_rec_task *t, size_t n);
/*
 * File map (format.h): the map's header, then its files and extents in batches.  FILES gives
 * N entries numbered FIRST.. with NAMES[i] (NUL-terminated, at most UINT16_MAX bytes);
 * both split batches into records as needed.
 */
int ss_writer_filemap(struct ss_writer *w, const struct ss_rec_filemap *m);
int ss_writer_files(struct ss_writer *w, uint32_t map, uint32_t first,
		    const struct ss_rec_file *f, const char *const *names, size_t n);
int ss_writer_extents(struct ss_writer *w, uint32_t map, const struct ss_rec_extent *e,
		      size_t n);
int ss_writer_phase(struct ss_writer *w, uint64_t ts_ns, uint32_t kind, const char *name);
int ss_writer_cpu_stats(struct ss_writer *w, const struct ss_rec_cpu_stats *st);
/* Where one CPU lost events (format.h, SS_REC_LOST). */
int ss_writer_lost(struct ss_writer *w, const struct ss_rec_lost *lost);
int ss_writer_capture(struct ss_writer *w, const struct ss_rec_capture *cap);
/* Push written data to stable storage (fdatasync). */
int ss_writer_sync(struct ss_writer *w);
uint64_t ss_writer_nr_events(const struct ss_writer *w);
/* Write SS_REC_END, commit the file, free.  Returns the first error seen by any call, if any
 * (then a REPLACE file is discarded). */
int ss_writer_close(struct ss_writer *w);
/* Commit the file without SS_REC_END, so that it reads as truncated (a copy of a cut trace
 * stays cut), and free.  As ss_writer_close otherwise. */
int ss_writer_close_truncated(struct ss_writer *w);
/* Give up and free: an INPLACE file keeps what was written (it reads as truncated); a REPLACE
 * file is removed and PATH left as it was.  Accepts NULL. */
void ss_writer_abort(struct ss_writer *w);

#endif
