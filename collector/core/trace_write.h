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

struct ss_writer;

/* Create (truncate) PATH and write the file header.  NULL with errno set on failure. */
struct ss_writer *ss_writer_open(const char *path);
int ss_writer_device(struct ss_writer *w, const struct ss_rec_device *dev);
int ss_writer_zone(struct ss_writer *w, const struct ss_rec_zone *zone);
int ss_writer_meta(struct ss_writer *w, const char *key, const char *value);
/* Events must come in non-decreasing ts order across calls; batches are split as needed. */
int ss_writer_events(struct ss_writer *w, const struct ss_event *ev, size_t n);
int ss_writer_phase(struct ss_writer *w, uint64_t ts_ns, uint32_t kind, const char *name);
int ss_writer_cpu_stats(struct ss_writer *w, const struct ss_rec_cpu_stats *st);
int ss_writer_capture(struct ss_writer *w, const struct ss_rec_capture *cap);
/* Push written data to stable storage (fdatasync). */
int ss_writer_sync(struct ss_writer *w);
uint64_t ss_writer_nr_events(const struct ss_writer *w);
/* Write SS_REC_END, close and free.  Returns the first error seen by any call, if any. */
int ss_writer_close(struct ss_writer *w);
/* Close and free without SS_REC_END (the file reads as truncated).  Accepts NULL. */
void ss_writer_abort(struct ss_writer *w);

#endif
