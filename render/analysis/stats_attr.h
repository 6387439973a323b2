// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The attribution half of the statistics pass (stats.c's internals, not for other callers):
 * per-process rows, per-directory rows, seek causes and per-zone counts.  They depend on the
 * events alone, so this half keeps its own filter, seek and pairing state and may count in a
 * thread of its own beside the rest of the pass (stats.h's figures are the same either way).
 * Nothing here prints.
 */
#ifndef SS_STATS_ATTR_H
#define SS_STATS_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats.h"
#include "zone_index.h"

struct ss_stats_attr;

/*
 * New attribution for T (may be NULL: then no procs, dirs or zones) with O's options (procs,
 * dirs, causes, only, window, one_device, seek_threshold, max_inflight).  ZI and ZONES[NR_ZONES]
 * (the per-zone counts it fills) are borrowed.  THREAD: count in a thread of its own (events
 * are copied to it; else the pass hands it its judgement with ss_stats_attr_count).  NULL +
 * errno.
 */
struct ss_stats_attr *ss_stats_attr_new(const struct ss_trace *t, const struct ss_stats_opts *o,
					const struct ss_zone_index *zi,
					struct ss_zone_stats *zones, size_t nr_zones, bool thread);
/* Stops the thread if it runs; accepts NULL. */
void ss_stats_attr_free(struct ss_stats_attr *a);
/* With the thread: queue events for it, in time order.  0, or a negative errno (the first
 * error of the thread's counting, maybe of events fed before).  Without: nothing. */
int ss_stats_attr_feed(struct ss_stats_attr *a, const struct ss_event *ev, size_t n);
bool ss_stats_attr_threaded(const struct ss_stats_attr *a);
/*
 * Without the thread: count EV as the pass judged it — KEEP (opts.only), IN (the window),
 * VERDICT (ss_seek_feed), PAIRED and IO (ss_pair_feed's result and io).  0 or -ENOMEM.
 * (The thread calls it too, with its own judgement.)
 */
int ss_stats_attr_count(struct ss_stats_attr *a, const struct ss_event *ev, bool keep, bool in,
			int verdict, int paired, const struct ss_io *io);
/* Count what is queued, stop the thread and finish the rows.  0 or the first error. */
int ss_stats_attr_finish(struct ss_stats_attr *a);

/* Results, valid after ss_stats_attr_finish (NULL when not asked for). */
const struct ss_procs *ss_stats_attr_procs(const struct ss_stats_attr *a);
const struct ss_group_stats *ss_stats_attr_dirs(const struct ss_stats_attr *a);
const struct ss_seek_causes *ss_stats_attr_causes(const struct ss_stats_attr *a);
uint64_t ss_stats_attr_unzoned(const struct ss_stats_attr *a);

#endif
