// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trace reader: opens a trace, loads its metadata (devices, zones, phases, statistics,
 * key/value meta) in one pass, then streams the events in batches, in time order.  The format
 * is recognised from the content: seekscope traces, blktrace binary traces (per-CPU files
 * NAME.blktrace.N, named by prefix, one of the files, or their directory) and trace-cmd .dat
 * files; the last two are imported on the fly (trace_backend.h).  Memory is bounded by
 * the metadata and one batch, never by the number of events.  Nothing here prints: errors come
 * back as NULL/-errno plus a one-line message.
 */
#ifndef SS_TRACE_READ_H
#define SS_TRACE_READ_H

#include <stdbool.h>
#include <stdio.h>
#include "seekscope/format.h"

struct ss_tasks;                        /* collector/core/tasks.h */
struct ss_fmap_data;                    /* fmapdata.h */

/* A lost-event period: the union of the LOST records (format.h) of every CPU. */
struct ss_lost_period {
	uint64_t from_ns, to_ns;            /* trace clock, from_ns <= to_ns */
	uint64_t count;                     /* events lost in it, over every CPU */
};

struct ss_meta {
	char *key;
	char *value;
};

/* Where one device's data I/O went: the first sector and the end of the last of its issues
 * that carry data (ss_event_has_data). */
struct ss_extent {
	uint32_t dev;
	uint64_t lo, hi;
};

/* Everything but the events, in host byte order.  Owned by the ss_trace; read-only for users. */
struct ss_trace {
	char *path;
	const char *format;                 /* "seekscope", "blktrace" or "trace-cmd" */
	struct ss_file_header header;       /* seekscope traces only; zero for imports */
	struct ss_rec_device *devices;
	size_t nr_devices;
	struct ss_rec_zone *zones;
	size_t nr_zones;
	struct ss_rec_phase *phases;        /* in file order (= time order) */
	size_t nr_phases;
	struct ss_rec_cpu_stats *cpu_stats;
	size_t nr_cpu_stats;
	/* where events were lost: disjoint, in time order, none when the trace places no loss
	 * (older traces, blktrace imports); a span starting at 0 starts at the trace's start */
	struct ss_lost_period *lost;
	size_t nr_lost;
	struct ss_meta *meta;
	size_t nr_meta;
	/* pid -> process name over time (tasks.h: ss_tasks_find, ss_task_name); never NULL
	 * after open, empty for traces that name no process (then every pid is "unknown") */
	const struct ss_tasks *tasks;
	/* the file maps (fmapdata.h; indexed by render/analysis/filemap.h); never NULL after
	 * open, empty (nr_maps 0) for traces without one: files are then unknown */
	const struct ss_fmap_data *files;
	struct ss_rec_capture capture;      /* the last capture record; zero if none */
	bool has_capture;
	uint64_t nr_events;                 /* imports: the events that map to struct ss_event */
	uint64_t first_ts, last_ts;         /* of the events; 0 when there are none */
	/* importers, whose open reads every event: the extent of each device's data issues,
	 * in the order the devices first issued (has_extents false for seekscope traces) */
	struct ss_extent *extents;
	size_t nr_extents;
	bool has_extents;
	bool truncated;                     /* no END record, or a record cut short */
	char warning[200];                  /* why it is truncated, "" otherwise */
	struct ss_trace_priv *priv;
};

/*
 * Open PATH.  On failure returns NULL, sets errno and writes a one-line reason into err
 * (if errlen > 0).  A truncated file opens successfully with ->truncated set.  Imported traces
 * have meta "source" ("blktrace", "trace-cmd") and devices known only by number (size 0).
 */
struct ss_trace *ss_trace_open(const char *path, char *err, size_t errlen);
void ss_trace_close(struct ss_trace *t);   /* accepts NULL */

/*
 * A trace-cmd reader process kept between opens, for callers that open many small .dat files
 * one after another (the fuzz target): ss_trace_open_with() reads a .dat in it, when it is not
 * reading another open trace, instead of forking a reader process of its own (which costs the
 * fork and the exit of the caller's whole address space).  It is started at the first such
 * open and replaced when it dies on a file (that file is refused) or has grown too much; the
 * files it reads share its libtracecmd, so commands keep one process per file.  Free it after
 * closing its traces (accepts NULL); NULL from new with errno set.
 */
struct ss_tracecmd_server;
struct ss_tracecmd_server *ss_tracecmd_server_new(void);
void ss_tracecmd_server_free(struct ss_tracecmd_server *srv);
/*
 * ss_trace_open() for a caller that streams the events once before it needs the rest of the
 * metadata (a report): a backend that can (blktrace's) then finds the metadata as the events
 * stream instead of in a pass of its own when opening, and the files are read once.  Until a
 * pass has streamed to its end (ss_trace_next_batch() returned 0), ss_trace_meta_pending() is
 * true and only path, format and ss_trace_events_hint() may be used; from then on the
 * metadata is what ss_trace_open() gives, field for field.  Errors the opening would have
 * found come from the pass instead (an opening that fails is done again the usual way, for
 * its message).  Other formats open as with ss_trace_open().
 */
struct ss_trace *ss_trace_open_lazy(const char *path, char *err, size_t errlen);
bool ss_trace_meta_pending(const struct ss_trace *t);
/* nr_events, or while the metadata is pending an estimate from the files' sizes. */
uint64_t ss_trace_events_hint(const struct ss_trace *t);
/* ss_trace_open() that reads a trace-cmd file in SRV (NULL: as ss_trace_open()). */
struct ss_trace *ss_trace_open_with(const char *path, struct ss_tracecmd_server *srv, char *err,
				    size_t errlen);

/* Value of meta KEY (the last one written), or NULL. */
const char *ss_trace_meta(const struct ss_trace *t, const char *key);
/* The first BEGIN marker of phase NAME (the start of the phase), or NULL. */
const struct ss_rec_phase *ss_trace_phase_begin(const struct ss_trace *t, const char *name);
/* The device SPEC names: "MAJ:MIN" (of the whole disk, as block events carry it), its kernel
 * name ("loop0"), its partition's ("sda2") or the path it was recorded as; NULL if none. */
const struct ss_rec_device *ss_trace_find_device(const struct ss_trace *t, const char *spec);
/* "its devices: loop0 7:0, loop1 7:1" (or "it has no devices") into BUF, for messages. */
void ss_trace_devices_list(const struct ss_trace *t, char *buf, size_t len);
/* Total lost events according to the capture statistics (missed + overrun + dropped), or
 * those placed in lost-event periods if more (a trace cut before its statistics). */
uint64_t ss_trace_lost_events(const struct ss_trace *t);
/* Whether [from_ns, to_ns] meets a lost-event period (both ends included): a request in
 * flight over that time may have lost its issue or completion. */
bool ss_trace_lost_overlaps(const struct ss_trace *t, uint64_t from_ns, uint64_t to_ns);
/* Events placed in lost-event periods, and their total length in ns. */
uint64_t ss_trace_lost_placed(const struct ss_trace *t, uint64_t *span_ns);
/* Zone containing absolute SECTOR on DEV, preferring the most specific kind; NULL if none. */
const struct ss_rec_zone *ss_trace_zone_at(const struct ss_trace *t, uint32_t dev, uint64_t sector);

/* The name of PID at TS into BUF ("tar", "kworker/u8:3-flush-254:0"); false (BUF "unknown")
 * when the trace does not name that pid. */
bool ss_trace_task_name(const struct ss_trace *t, uint32_t pid, uint64_t ts, char *buf,
			size_t len);

/* Start streaming events from the beginning (also done implicitly by open). */
int ss_trace_rewind(struct ss_trace *t);
/*
 * Next batch of events: returns 1 and sets *ev and *n (valid until the next call), 0 at the end,
 * or -errno on a read error or corrupt record (message in ss_trace_error()).
 */
int ss_trace_next_batch(struct ss_trace *t, const struct ss_event **ev, size_t *n);

/*
 * Whether the passes from the next rewind on decode the events in a thread of their own, ahead
 * of the caller (readahead.h): 1 always (if the thread can start), -1 never, 0 (the default)
 * for a trace of SS_READAHEAD_MIN_EVENTS or more when another CPU is idle at the pass's first
 * batch.  The events, errors and end are the same either way.  The default comes from the
 * environment variable SEEKSCOPE_READAHEAD at open: "always", "never" or "auto" (anything else),
 * which also rules the threads a backend may start while it opens (a blktrace set's files
 * scanned two at a time): those are over before this can be called.
 */
#define SS_READAHEAD_MIN_EVENTS 100000
void ss_trace_set_readahead(struct ss_trace *t, int mode);
/* Whether decoding T's events costs about what counting them does (blktrace's and trace-cmd's
 * per-CPU files merged), so that a batch hook in the read-ahead thread had better be light. */
bool ss_trace_costly_decode(const struct ss_trace *t);
/*
 * FN(ARG, events, notes, n) on every batch of one pass, in order, before ss_trace_next_batch
 * hands the batch over: in the read-ahead thread when the pass reads ahead, beside the
 * caller — so FN must touch nothing the caller uses during the pass — else in the caller's
 * thread.  Set it after a rewind, before the pass's first batch; the next rewind (or the
 * close) stops the read-ahead and unsets it.  What FN did is visible to the caller once the
 * pass has ended (ss_trace_next_batch returned 0); a pass left before its end may have been
 * hooked a few batches further, until that rewind.  For work on the events alone (plot's io
 * panel; the statistics' judgement of each event, stats.h), off the thread that counts them.
 * NOTES, NOTE_SIZE bytes per event that FN writes (NULL when NOTE_SIZE is 0), go with the
 * events to the caller (ss_trace_batch_notes): per-event results travel in the batch, not in
 * shared state.  FN NULL: none.
 */
typedef void (*ss_trace_batch_hook)(void *arg, const struct ss_event *ev, void *notes,
				    size_t n);
void ss_trace_set_batch_hook(struct ss_trace *t, ss_trace_batch_hook fn, void *arg,
			     size_t note_size);
/* The hook's notes of the batch ss_trace_next_batch gave last, valid as long as its events;
 * NULL when the pass has no hook or its hook no notes. */
const void *ss_trace_batch_notes(const struct ss_trace *t);
/* Whether this pass reads ahead; if so, the batches it has given so far and how many of them
 * the read-ahead thread had not made yet when asked for (the caller waited for its thread). */
bool ss_trace_readahead_waits(const struct ss_trace *t, unsigned *taken, unsigned *waited);
const char *ss_trace_error(const struct ss_trace *t);

#endif
