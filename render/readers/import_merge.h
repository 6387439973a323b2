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
#include "seekscope/model.h"
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
 * The same pass, one event at a time, for an importer that reads a source faster on its own
 * than through ss_merge_next_fn (blktrace: without building the events it only counts):
 * ss_merge_scan_begin(), ss_merge_scan_event() for each of the source's events in order,
 * then ss_merge_scan_end().  The figures are kept here and go to the trace at the end.
 */
/* A process's name taken from a source's notes (deferred scans keep them in order). */
struct ss_merge_note {
	uint64_t ts;
	uint32_t pid;
	uint16_t len;
	char comm[16];
};

struct ss_merge_scanner {
	struct ss_trace *t;     /* NULL while deferred */
	uint64_t events, backwards;
	uint64_t last;          /* the previous event's time */
	uint64_t min, max;      /* of the times */
	uint32_t last_dev;      /* of the previous event ... */
	bool has_dev;           /* ... when there was one (device 0:0 is a device too) */
	bool has_ext;           /* ext: the extent of data issues on ext.dev, not yet in t */
	struct ss_extent ext;
	/* deferred: what would have gone into t, in order (devices and extents as t would hold
	 * them: each device once, each extent widened), until ss_merge_scan_replay() */
	uint32_t *devs;
	size_t nr_devs, cap_devs;
	struct ss_extent *exts;
	size_t nr_exts, cap_exts;
	struct ss_merge_note *notes;
	size_t nr_notes, cap_notes;
};

void ss_merge_scan_begin(struct ss_merge_scanner *sc, struct ss_trace *t);
/*
 * The same, deferred: nothing goes into a trace until ss_merge_scan_replay(), so that sources
 * can be scanned at the same time in threads of their own and replayed in their order, with
 * the same result as scanned one after the other.  ss_merge_scan_free() if never replayed.
 */
void ss_merge_scan_begin_deferred(struct ss_merge_scanner *sc);
/* Notes a deferred scanner keeps at most: past them it gives up (-EOVERFLOW), and the source
 * is to be scanned again straight into the trace, whose task table bounds them (SS_TASKS_MAX
 * entries; repeated names take none). */
#define SS_MERGE_DEFERRED_NOTES 65536u
/* A process name from the source's notes: into the task table, or kept (deferred).  0 or
 * -errno; -EOVERFLOW: deferred, and SS_MERGE_DEFERRED_NOTES are kept already. */
int ss_merge_scan_task_name(struct ss_merge_scanner *sc, uint64_t ts, uint32_t pid,
			    const char *comm, size_t len);
/* What a deferred scan kept, into T as a direct scan would have put it; the scanner is T's
 * from then on (ss_merge_scan_end() next).  0 or -errno (*IN_NOTES true when the task table
 * refused a name, as a direct scan's ss_merge_scan_task_name() would have); frees what was
 * kept either way. */
int ss_merge_scan_replay(struct ss_merge_scanner *sc, struct ss_trace *t, bool *in_notes);
void ss_merge_scan_free(struct ss_merge_scanner *sc);
/* The out-of-line part of ss_merge_scan_event(): 0 or -ENOMEM. */
int ss_merge_scan_device(struct ss_merge_scanner *sc, uint32_t dev);
int ss_merge_scan_extent(struct ss_merge_scanner *sc, uint32_t dev, uint64_t lo, uint64_t hi);
/* Add the figures to the trace, the counts to *C: 0 or -ENOMEM. */
int ss_merge_scan_end(struct ss_merge_scanner *sc, struct ss_merge_count *c);

/*
 * Of the event only ts_ns, dev and type are read, and of an issue also sector, nr_sector and
 * flags.  0 or -ENOMEM (then the pass is over).
 */
static inline __attribute__((always_inline)) int
ss_merge_scan_event(struct ss_merge_scanner *sc, const struct ss_event *ev)
{
	int ret;

	if (ev->ts_ns < sc->last)
		sc->backwards++;
	sc->last = ev->ts_ns;
	if (ev->ts_ns < sc->min)
		sc->min = ev->ts_ns;
	if (ev->ts_ns > sc->max)
		sc->max = ev->ts_ns;
	sc->events++;
	if ((ev->dev != sc->last_dev || !sc->has_dev) &&
	    (ret = ss_merge_scan_device(sc, ev->dev)))
		return ret;
	/* where the data went, so that a plot need not read the trace to find out */
	if (ev->type == SS_EV_ISSUE && ss_event_has_data(ev)) {
		uint64_t lo = ev->sector, hi = ev->sector + ev->nr_sector;

		if (!sc->has_ext || ev->dev != sc->ext.dev)
			return ss_merge_scan_extent(sc, ev->dev, lo, hi);
		if (lo < sc->ext.lo)
			sc->ext.lo = lo;
		if (hi > sc->ext.hi)
			sc->ext.hi = hi;
	}
	return 0;
}

/*
 * End of the importer's open, after the metadata pass: sort T's devices by number and rewind.
 * 0 or -errno with the reason in err.
 */
int ss_merge_start(struct ss_merge *m, struct ss_trace *t, char *err, size_t errlen);

/*
 * For a trace opened lazily (trace_backend.h: open_lazy), whose metadata the streaming finds:
 * END(CTX, T) completes it when the stream first reaches its end, before the count of events
 * streamed is checked against it (0, or -errno described with ss_trace_set_error()); NULL
 * for none.  The merge is then started with ss_merge_rewind(), its devices not sorted yet.
 */
void ss_merge_set_end(struct ss_merge *m, int (*end)(void *ctx, struct ss_trace *t));
/* T's devices by number, as ss_merge_start() leaves them (for END). */
void ss_merge_sort_devices(struct ss_trace *t);
/* The backend's rewind and next_batch (errors described with ss_trace_set_error()). */
int ss_merge_rewind(struct ss_merge *m, struct ss_trace *t);
/*
 * Streamed events never step back in time (an event earlier than the last one delivered gets
 * its time), and a stream that ends with a count other than the metadata pass's is an error.
 */
int ss_merge_next_batch(struct ss_merge *m, struct ss_trace *t, const struct ss_event **ev,
			size_t *n);

#endif
