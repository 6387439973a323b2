// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Time binning: per-interval counters for the time-series panels (throughput, IOPS, seeks/s,
 * queue depth, latency) and helpers to turn them into per-second rates.
 *
 * Bins are [start + i*width, start + (i+1)*width), i = 0..n-1; the last one ends at `end_ns`
 * and may be shorter, and rates use each bin's real width so a short last bin is not a dip.
 * Units: MB = 10^6 bytes, the unit of the figures users quote (440 MB in 770 s = 571 KB/s);
 * note that iostat -m uses 2^20.  Nothing here prints.
 */
#ifndef SS_BINS_H
#define SS_BINS_H

#include <stddef.h>
#include <stdint.h>
#include "seekscope/model.h"

#include "diskmodel.h"

/* Default upper bound on the number of auto-chosen bins (the choice lands in ~160..400). */
#define SS_BINS_TARGET_DEFAULT 400u
/* Refuse to allocate more bins than this (a silly --bin-width on a long trace). */
#define SS_BINS_MAX            (1u << 22)

struct ss_bin {
	union {                                     /* completed I/Os per class (model.h), */
		struct { uint64_t reads, writes, discards, others; };   /* by completion time */
		uint64_t op_ios[SS_NR_DATA_OPS];
	};
	union {
		struct { uint64_t read_bytes, write_bytes, discard_bytes, other_bytes; };
		uint64_t op_bytes[SS_NR_DATA_OPS];
	};
	uint64_t flushes;                           /* completed data-less flushes */
	uint64_t fua;                               /* completions with the FUA flag */
	uint64_t issues;                            /* I/Os issued, evaluated for seeks (seek.h) */
	uint64_t seeks;                             /* issues that were seeks (see seek.h) */
	uint64_t lat_count, lat_sum_ns, lat_max_ns; /* reads and writes with a latency (stats.h), by completion time */
	double   depth_ns;                          /* integral of requests in flight over time */
	struct ss_disk_cost model;                  /* modelled time of its issues (stats.h) */
};

struct ss_bins {
	uint64_t start_ns, end_ns, width_ns;
	size_t n;
	struct ss_bin *bin;                         /* n entries, owned */
};

/*
 * What ss_bins_value() can compute for one bin.  The per-class metrics follow enum ss_op:
 * SS_BM_OP_MB_S(op) and SS_BM_OP_IOPS(op).
 */
enum ss_bin_metric {
	SS_BM_READ_MB_S,
	SS_BM_WRITE_MB_S,
	SS_BM_DISCARD_MB_S,     /* sectors discarded, as MB/s */
	SS_BM_OTHER_MB_S,       /* sectors of other ops (write-zeroes, ...) */
	SS_BM_MB_S,             /* read + write */
	SS_BM_READ_IOPS,
	SS_BM_WRITE_IOPS,
	SS_BM_DISCARD_IOPS,
	SS_BM_OTHER_IOPS,
	SS_BM_IOPS,             /* all completed I/Os (reads, writes, discards, others) */
	SS_BM_SEEKS_PER_S,
	SS_BM_QUEUE_DEPTH,      /* time-weighted mean requests in flight */
	SS_BM_LAT_MEAN_US,
	SS_BM_LAT_MAX_US,
	SS_BM_FLUSHES_PER_S,
	SS_BM_METRIC_MAX
};
#define SS_BM_OP_MB_S(op)  ((enum ss_bin_metric)(SS_BM_READ_MB_S + (op)))
#define SS_BM_OP_IOPS(op)  ((enum ss_bin_metric)(SS_BM_READ_IOPS + (op)))

/*
 * The bin width for a span of duration_ns: the smallest 1-2-5 step (1 us, 2 us, 5 us, 10 us,
 * ..., 1 ms, 2 ms, 5 ms, ..., 1 s, 2 s, 5 s, 10 s, ...) that yields at most max_bins bins
 * (0: SS_BINS_TARGET_DEFAULT).  3 s -> 10 ms (300 bins), 60 s -> 200 ms, 1 h -> 10 s.
 * A zero duration gives 1 ms.
 */
uint64_t ss_bins_choose_width(uint64_t duration_ns, unsigned max_bins);

/*
 * Bins covering [start_ns, end_ns) with the given width (0: ss_bins_choose_width()).  At least
 * one bin.  NULL + errno: EINVAL if end < start, E2BIG beyond SS_BINS_MAX, ENOMEM.
 */
struct ss_bins *ss_bins_new(uint64_t start_ns, uint64_t end_ns, uint64_t width_ns);
void ss_bins_free(struct ss_bins *b);       /* accepts NULL */

/* Bin holding ts, or -1 outside [start, end).  (ts == end falls in the last bin.) */
long ss_bins_index(const struct ss_bins *b, uint64_t ts);
/* Start time and real width of bin i. */
uint64_t ss_bins_bin_start(const struct ss_bins *b, size_t i);
uint64_t ss_bins_bin_width(const struct ss_bins *b, size_t i);
/* Spread `depth` requests in flight over [from, to) into depth_ns (clipped to the bins). */
void ss_bins_add_depth(struct ss_bins *b, uint64_t from_ns, uint64_t to_ns, uint64_t depth);

/* The value of metric m in bin i (0 for an empty latency bin). */
double ss_bins_value(const struct ss_bins *b, size_t i, enum ss_bin_metric m);
/* Fill out[0..n) with metric m, smoothed with ss_series_rolling(rolling). */
void ss_bins_series(const struct ss_bins *b, enum ss_bin_metric m, unsigned rolling, double *out);
/*
 * Centred moving average over `window` bins (window <= 1: copy): bins i - (window-1)/2 ..
 * i + window/2.  Near the edges the window shrinks to the bins that exist, so the series keeps
 * its length and is not shifted in time.  in and out must not overlap.  No allocation.
 */
void ss_series_rolling(const double *in, double *out, size_t n, unsigned window);

#endif
