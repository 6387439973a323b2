// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Trace statistics: one streaming pass over a trace's events computing the summary figures
 * (per trace, per phase, per device, per zone) and, optionally, time bins for the plots.
 * Memory is bounded by the metadata, the bins and the requests in flight — never by the number
 * of events.  Nothing here prints; `report` and `plot` format the results.
 *
 * Definitions (also in `seekscope report --help`):
 *  - I/O: a completed request that covers sectors (ss_event_has_data()), counted at its
 *    COMPLETE event in its class (model.h: read, write, discard or other — never folded into
 *    one another); requests without sectors count as events only, flushes apart.  Bytes,
 *    per-class counts, IOPS and MB/s all come from completions, so a request counts once even
 *    if it was requeued, and only once it happened.  Completions whose issue was not captured
 *    still count as I/Os (no latency for them).
 *  - Seek: see seek.h — evaluated on ISSUE events, per device, threshold 128 sectors by default,
 *    for the classes that move a head (model.h: not discards).
 *  - Latency: ISSUE -> COMPLETE (blktrace D -> C, the time the device took).  `lat` is reads
 *    and writes; discards, write-zeroes/other ops and flushes have their own histograms (a
 *    discard of a gigabyte is not a slow write).  Percentiles from a log histogram (lathist.h,
 *    < 6.25 %).  A request in flight across a lost-event period (trace_read.h: its issue,
 *    completion or the time between meets one) has no latency: it is counted in `lat_lost`,
 *    as its pairing cannot be trusted; the bins leave it out too.
 *  - Flush: a completed data-less request with the flush op or preflush flag.  FUA: any
 *    completion carrying the FUA flag.
 *  - Queue depth: requests issued and not yet completed (pair.h), time-weighted mean.
 *  - Period: a trace runs from the capture start (capture.start_ns; else the first event) to
 *    the capture end (capture.end_ns; else the last event), whichever is wider.  A phase runs
 *    from its BEGIN marker to the matching END marker (the next END of the same name), or to the
 *    end of the trace if it never ended.  An event belongs to a period when begin <= ts < end
 *    (the trace's own period also includes ts == end).  MARK markers are points, not phases.
 *  - Window (ss_stats_opts.window, plot --x-range): the figures summarise only
 *    [window_start_ns, window_end_ns] — the trace's period, each phase's and the time to
 *    durable are cut to it (a period cut short has `clipped` set; a phase wholly outside it is
 *    left out) and devices count only the events in it.  Events outside still position the
 *    head for the next seek and pair issues with completions, so a request issued before the
 *    window and completed in it has its true latency.
 *  - Rates are per second of the period; MB = 10^6 bytes, KB = 10^3 bytes.
 *  - Modelled time (opts.disk, diskreplay.h): each data ISSUE's service time on the modelled
 *    disk, counted by issue time (phases, bins) and issue sector (zones), like seeks.
 *  - Workload figures: a meta key "phase.<name>.files" / "phase.<name>.bytes" (decimal) gives a
 *    phase's files/s and KB/s; absent keys leave has_files/has_bytes false.
 *  - Time to durable ("extract+sync", record --untar with --fsync=end or file): from the BEGIN
 *    of the first extract phase ("extract", or "extract.1" with --repeat) to the END of the
 *    first "sync" phase after it — extraction plus the sync that makes it durable.  Its files
 *    and bytes are the sums over the phases inside it.  No such span without an ended sync.

 *
 * Typical use (a plot comparing traces passes the same bin width and span to each):
 *
 *	struct ss_stats_opts o;
 *	ss_stats_opts_init(&o);
 *	o.bins = true;                        // optional: o.bin_width_ns, bin_start/end_ns
 *	o.on_io = draw_io; o.arg = ctx;       // optional: every completion, paired
 *	struct ss_stats *st = ss_stats_new(t, &o);
 *	if (!st || ss_stats_run(st, t) < 0) ...
 *	const struct ss_bins *b = ss_stats_bins(st);
 *	ss_bins_series(b, SS_BM_SEEKS_PER_S, rolling, values);   // values[b->n]
 *	printf("%.1f seeks/s\n", ss_stats_total(st)->seeks_per_s);
 *	ss_stats_free(st);
 */
#ifndef SS_STATS_H
#define SS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "seekscope/format.h"
#include "seekscope/model.h"
#include "trace_read.h"
#include "seek.h"
#include "pair.h"
#include "bins.h"
#include "lathist.h"
#include "groupstats.h"
#include "procstats.h"
#include "taskfilter.h"
#include "diskreplay.h"
#include "seekcause.h"

/* Figures for one period (the whole trace, a phase, or one device over the whole trace). */
struct ss_summary {
	uint64_t start_ns, end_ns;       /* the period, trace clock */
	uint64_t events;                 /* events of any type in the period */
	uint64_t ios;                    /* completed I/Os: reads + writes + discards + others */
	union {                          /* completed I/Os per class (model.h: enum ss_op) */
		struct { uint64_t reads, writes, discards, others; };
		uint64_t op_ios[SS_NR_DATA_OPS];
	};
	union {
		struct { uint64_t read_bytes, write_bytes, discard_bytes, other_bytes; };
		uint64_t op_bytes[SS_NR_DATA_OPS];
	};
	uint64_t flushes, fua;
	uint64_t issues;                 /* I/Os issued that seeks are evaluated on (seek.h) */
	uint64_t seeks;                  /* issues that were seeks */
	uint64_t unmatched;              /* completions without an issue (no latency) */
	uint64_t lat_lost;               /* paired, but in flight across lost events: no latency */
	uint64_t errors;                 /* completions with a non-zero error */
	uint64_t max_depth;              /* most requests in flight at once */
	double   depth_ns;               /* integral of requests in flight over the period */
	struct ss_lathist lat;           /* read and write latency */
	struct ss_lathist discard_lat;   /* discard latency */
	struct ss_lathist other_lat;     /* write-zeroes and other ops' latency */
	struct ss_lathist flush_lat;     /* flush latency */
	struct ss_seek_hist seek_dist;   /* every evaluated seek distance (near ones too) */
	struct ss_disk_cost model;       /* modelled service time of its issues (opts.disk) */

	bool     clipped;                /* the window cut this period short (stats_opts.window) */
	/* Derived by ss_stats_finish(); 0 when the period has zero length or no samples. */
	double   duration_s;
	double   iops, seeks_per_s, read_mb_s, write_mb_s, discard_mb_s, other_mb_s, mean_depth;
	uint64_t lat_p50_ns, lat_p99_ns, lat_max_ns;
};

struct ss_phase_stats {
	char     name[32];
	bool     ended;                  /* an END marker was found (else it runs to trace end) */
	bool     has_files, has_bytes;   /* workload meta was present */
	uint64_t files, bytes;           /* from meta phase.<name>.files / .bytes */
	double   files_per_s, kb_per_s;  /* derived; 0 unless has_files / has_bytes */
	struct ss_summary s;
};

struct ss_zone_stats {
	const struct ss_rec_zone *zone;  /* points into the trace's zone table */
	union {                          /* completions whose start sector is in the zone */
		struct { uint64_t read_ios, write_ios, discard_ios, other_ios; };
		uint64_t op_ios[SS_NR_DATA_OPS];
	};
	union {
		struct { uint64_t read_bytes, write_bytes, discard_bytes, other_bytes; };
		uint64_t op_bytes[SS_NR_DATA_OPS];
	};
	uint64_t bytes;                  /* bytes of every class */
	uint64_t seeks;                  /* seeks that landed in the zone (by issue sector) */
	struct ss_disk_cost model;       /* modelled time of the issues starting in it (opts.disk) */
};

struct ss_device_stats {
	const struct ss_rec_device *device;  /* points into the trace's device table */
	struct ss_summary s;
};

struct ss_stats_opts {
	uint64_t seek_threshold;         /* sectors; ss_stats_opts_init(): 128 */
	size_t   max_inflight;           /* 0: SS_PAIR_MAX_INFLIGHT_DEFAULT */
	bool     bins;                   /* accumulate time bins */
	bool     device_bins;            /* with bins: also per device (ss_stats_device_bins) */
	uint64_t bin_start_ns, bin_end_ns; /* both 0: the trace period (share them to compare) */
	uint64_t bin_width_ns;           /* 0: ss_bins_choose_width(span, max_bins) */
	unsigned max_bins;               /* 0: SS_BINS_TARGET_DEFAULT */
	bool     one_device;             /* only the events of `device` (--device): the others */
	uint32_t device;                 /* are skipped as if never recorded */
	bool     window;                 /* summarise only [window_start_ns, window_end_ns] */
	uint64_t window_start_ns, window_end_ns;
	/* Optional hooks, called during ss_stats_feed() (may be NULL). */
	void   (*on_io)(const struct ss_io *io, void *arg);     /* every completion */
	void   (*on_seek)(const struct ss_event *ev, int verdict, int64_t distance, void *arg);
	void    *arg;
	bool     procs;                  /* per-process rows (procstats.h): ss_stats_procs() */
	bool     dirs;                   /* per-directory rows (groupstats.h; the directories
					  * right under the mapped DIR): ss_stats_dirs() */
	/* The class before and after every seek (seekcause.h): ss_stats_causes().  Counted
	 * like the seeks: in the window, of the kept processes. */
	bool     causes;
	/* Per-zone rows (ss_stats_zone, ss_stats_nr_zones): the I/Os, bytes, seeks and modelled
	 * cost of each zone of the trace; else ss_stats_nr_zones() is 0. */
	bool     zones;
	/* Count only the requests of these processes (taskfilter.h; NULL or empty: all).  The
	 * others still move the head and fill the queue: seeks are judged and queue depth
	 * measured on every request, and the kept ones counted.  Borrowed. */
	const struct ss_task_spec *only;
	/* Optional: replay the issues through this disk model (borrowed, fed by the pass;
	 * one per trace) and count their cost in every summary, zone and bin.  With `only`,
	 * the model's arm follows every request, and the kept ones' cost is counted. */
	struct ss_disk_replay *disk;
	/* 1: one thread.  0: the feeding thread only judges the events (filter, window, seek,
	 * pairing); the counting and the per-process, per-directory, seek-cause and per-zone
	 * attribution run in threads of their own on a machine of 4 CPUs or more with one free
	 * (cpus.h) when T has 100000 events or more (the counting stays in the feeding thread when on_io or on_seek
	 * is set: the hooks are called from it); 2: so whatever the trace.  The figures are the
	 * same either way. */
	unsigned threads;
};

struct ss_stats;

/* Defaults: threshold 128, no bins, no hooks. */
void ss_stats_opts_init(struct ss_stats_opts *o);

/* The period of a trace as defined above. */
void ss_stats_trace_period(const struct ss_trace *t, uint64_t *start_ns, uint64_t *end_ns);
/* The time-to-durable span of T as defined above: true and its bounds, or false. */
bool ss_stats_durable_span(const struct ss_trace *t, uint64_t *start_ns, uint64_t *end_ns);
#define SS_DURABLE_PHASE "extract+sync"

/*
 * New accumulator for trace T (metadata only is used: devices, zones, phases, meta, capture;
 * T must outlive the stats).  T may be NULL for a bare event list: then there are no phases,
 * devices or zones, the period is first..last event fed, and bins need bin_start/bin_end.
 * opts may be NULL (defaults).  NULL + errno (EINVAL, E2BIG, ENOMEM).
 */
struct ss_stats *ss_stats_new(const struct ss_trace *t, const struct ss_stats_opts *opts);
void ss_stats_free(struct ss_stats *st);     /* accepts NULL */

/* Feed events in time order (any batch size).  0, or -ENOMEM. */
int ss_stats_feed(struct ss_stats *st, const struct ss_event *ev, size_t n);
/*
 * The part of the pass that needs the events alone may run beside it, in a batch hook
 * (trace_read.h: ss_trace_set_batch_hook; in the read-ahead thread when the pass reads
 * ahead): whose request each one is, from the submitters a trace's QUEUE and INSERT events
 * name (owner.h), and the attribution's seek half (the classes around each seek and the zone
 * it landed in); with JUDGE, the judgement of every event too (the seek and pairing rules,
 * the process filter, the window), leaving the pass's thread to count.  ss_stats_notes(),
 * called in the pass's thread before its first batch, returns the size of a note per event
 * (0: no hook is needed); then ss_stats_note() is called on every batch of the pass, in
 * order, writing NOTES for EV, and each batch is fed with ss_stats_feed_noted() and those notes
 * (ss_trace_batch_notes).  The seek half runs in the hook only when it runs in another thread
 * than the pass's; the pass takes it back, and then the owners' notes, when it finds itself
 * waiting for that thread (ss_stats_hand_over).  The figures are those of ss_stats_feed(); a
 * pass feeds one way or the other throughout.  ss_stats_run() does so, judging in the hook.
 * ss_stats_note touches nothing the pass's thread does until the pass has ended; its error
 * (-ENOMEM), if any, is ss_stats_finish's.
 */
size_t ss_stats_notes(struct ss_stats *st, bool judge);
void ss_stats_note(struct ss_stats *st, const struct ss_event *ev, void *notes, size_t n);
int ss_stats_feed_noted(struct ss_stats *st, const struct ss_event *ev, const void *notes,
			size_t n);
/* From the hook's next batch on, one more part of its work runs in the pass's thread: the
 * attribution's seek half, then (called again) whose request each event is; the figures stay
 * the same.  ss_stats_feed_noted decides this by itself when the pass waits for the
 * read-ahead thread; called in the pass's thread. */
void ss_stats_hand_over(struct ss_stats *st);
/* Close the periods (queue depth to the end) and compute derived figures.  Call once.  0, or
 * -ENOMEM (of events fed before: the attribution may count behind ss_stats_feed). */
int ss_stats_finish(struct ss_stats *st);
/*
 * Convenience: rewind T, feed every batch, finish.  0, or the negative errno of a read error
 * (message in ss_trace_error(t)) or -ENOMEM.
 */
int ss_stats_run(struct ss_stats *st, struct ss_trace *t);

/* Results (owned by st; valid until ss_stats_free). */
const struct ss_summary *ss_stats_total(const struct ss_stats *st);
size_t ss_stats_nr_phases(const struct ss_stats *st);            /* BEGIN markers, time order */
const struct ss_phase_stats *ss_stats_phase(const struct ss_stats *st, size_t i);
/* The time-to-durable span (name SS_DURABLE_PHASE), not one of the phases; NULL if the trace
 * has none. */
const struct ss_phase_stats *ss_stats_durable(const struct ss_stats *st);
size_t ss_stats_nr_devices(const struct ss_stats *st);           /* = t->nr_devices */
const struct ss_device_stats *ss_stats_device(const struct ss_stats *st, size_t i);
size_t ss_stats_nr_zones(const struct ss_stats *st);             /* = t->nr_zones, same order */
const struct ss_zone_stats *ss_stats_zone(const struct ss_stats *st, size_t i);
/* Completions outside every zone (when the trace has zones). */
uint64_t ss_stats_unzoned_ios(const struct ss_stats *st);
const struct ss_bins *ss_stats_bins(const struct ss_stats *st);  /* NULL unless opts.bins */
/* Device I's own bins, the same span and width (NULL unless opts.device_bins). */
const struct ss_bins *ss_stats_device_bins(const struct ss_stats *st, size_t i);
const struct ss_pair_stats *ss_stats_pairing(const struct ss_stats *st);
/* Per-directory rows, sorted (NULL unless opts.dirs and a trace). */
const struct ss_group_stats *ss_stats_dirs(const struct ss_stats *st);
/* Per-process rows, sorted (NULL unless opts.procs and a trace). */
const struct ss_procs *ss_stats_procs(const struct ss_stats *st);
/* The seek causes (NULL unless opts.causes). */
const struct ss_seek_causes *ss_stats_causes(const struct ss_stats *st);
/* Whether opts.only keeps some requests out of the figures. */
bool ss_stats_filtered(const struct ss_stats *st);
/* Requests issued and never completed by the last event fed: still in flight when the capture
 * ended (pair.h's rule; issues beyond its table are in ss_pair_stats.overflow instead). */
uint64_t ss_stats_incomplete_ios(const struct ss_stats *st);

/* The disk model of opts.disk, or NULL. */
const struct ss_disk_replay *ss_stats_disk(const struct ss_stats *st);

/* Recompute the derived fields of one summary (used by ss_stats_finish). */
void ss_summary_derive(struct ss_summary *s);

#endif
