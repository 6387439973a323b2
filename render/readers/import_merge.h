// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The part every importer shares (import_blktrace.c, import_tracecmd.c): a trace made of
 * several event sources (per-CPU files, ring buffers), each in time order on its own.  An
 * importer supplies one function that reads a source's next event; this module runs the
 * metadata pass over each source (event count, time range, devices) and streams the sources
 * merged by time in batches, with a min-heap over the sources' pending events (ties broken by
 * source index, so the merge is stable).  Sources are decoded a run of events at a time and the
 * merge copies out whole runs that come before every other source's next event, so that the
 * cost per event is a tight loop rather than a call and a heap step.  Memory: one small run per
 * source plus one batch.  Not for use outside the reader.
 */
#ifndef SS_IMPORT_MERGE_H
#define SS_IMPORT_MERGE_H

#include <stdbool.h>
#include <stddef.h>
#include "trace_backend.h"

/*
 * Read up to MAX (> 0) of source SRC's next events into EV[]; with FIRST, start the source over
 * and read from its first one.  The count (fewer than MAX only at the source's end, 0 there),
 * or -errno with a one-line reason in err.
 */
typedef long (*ss_merge_next_fn)(void *ctx, size_t src, bool first, struct ss_event *ev,
				 size_t max, char *err, size_t errlen);

struct ss_merge;

/* What the metadata pass found in one source. */
struct ss_merge_count {
	uint64_t events;
	uint64_t backwards;     /* events earlier than the one before them */
};

/* A merge of NR_SRC sources read through NEXT(CTX, ...).  NULL on ENOMEM. */
struct ss_merge *ss_merge_new(size_t nr_src, ss_merge_next_fn next, void *ctx);
void ss_merge_free(struct ss_merge *m);   /* accepts NULL */

/*
 * Metadata pass over source SRC, from its start to its end: adds its events to T's nr_events,
 * first_ts and last_ts, their devices with ss_trace_add_bare_device() and the extents of their
 * data issues with ss_trace_add_extent() (sets has_extents); counts into *C.
 * 0 or -errno (a reason in err when the source said one).
 */
int ss_merge_scan(struct ss_merge *m, size_t src, struct ss_trace *t, struct ss_merge_count *c,
		  char *err, size_t errlen);
/*
 * End of the importer's open, after the metadata pass: sort T's devices by number and rewind.
 * 0 or -errno with the reason in err.
 */
int ss_merge_start(struct ss_merge *m, struct ss_trace *t, char *err, size_t errlen);

/* The backend's rewind and next_batch (errors described with ss_trace_set_error()). */
int ss_merge_rewind(struct ss_merge *m, struct ss_trace *t);
/*
 * Streamed events never step back in time (an event earlier than the last one delivered gets
 * its time), and a stream that ends with a count other than the metadata pass's is an error.
 */
int ss_merge_next_batch(struct ss_merge *m, struct ss_trace *t, const struct ss_event **ev,
			size_t *n);

#endif
