// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The attribution half of the statistics pass (stats.c's internals, not for other callers):
 * per-process rows, per-directory rows, seek causes and per-zone counts.  They need the
 * pass's judgement of each event (filter, window, seek, pairing) and none of its other
 * counts, so the pass may hand them to a thread of its own (stats.h's figures are the same
 * either way).  Nothing here prints.
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
 * dirs, causes).  ZI and ZONES[NR_ZONES] (the per-zone counts it fills) are borrowed.  NULL +
 * errno.
 */
struct ss_stats_attr *ss_stats_attr_new(const struct ss_trace *t, const struct ss_stats_opts *o,
					const struct ss_zone_index *zi,
					struct ss_zone_stats *zones, size_t nr_zones);
void ss_stats_attr_free(struct ss_stats_attr *a);      /* accepts NULL */
/* Nothing asked for: ss_stats_attr_count() need not be called. */
bool ss_stats_attr_idle(const struct ss_stats_attr *a);
/*
 * Count EV, in time order, as the pass judged it: KEEP (opts.only), IN (the window), VERDICT
 * (ss_seek_feed), PAIRED and IO (ss_pair_feed_tag's result and io, each issue paired with its
 * note as tag), NOTE: its note by ss_owner_note() (owner.h: whose request it is), when the
 * attribution wants notes (ss_stats_attr_noted; else 0).  Only issues and completions count
 * here: other events need not be fed.  0 or -ENOMEM.
 */
int ss_stats_attr_count(struct ss_stats_attr *a, const struct ss_event *ev, bool keep, bool in,
			int verdict, int paired, const struct ss_io *io, uint64_t note,
			bool seek_done);
/*
 * Its seek half alone: the classes around a seek (seek causes) and the zone it landed in.  It
 * needs the event, KEEP, IN and VERDICT only, and touches nothing the rest does, so it may run
 * in another thread, over the same events in order, judged by a seek rule of its own; the
 * rest is then counted with SEEK_DONE.  0 or -ENOMEM.
 */
int ss_stats_attr_seek(struct ss_stats_attr *a, const struct ss_event *ev, bool keep, bool in,
		       int verdict);
/* Whether the events' notes (owner.h: ss_owner_note) are needed: the per-process rows'. */
bool ss_stats_attr_noted(const struct ss_stats_attr *a);
/* After the last event: finish the rows.  0, or -EAGAIN (ss_procs_resolve). */
int ss_stats_attr_finish(struct ss_stats_attr *a);

/* Results, valid after ss_stats_attr_finish (NULL when not asked for). */
const struct ss_procs *ss_stats_attr_procs(const struct ss_stats_attr *a);
const struct ss_group_stats *ss_stats_attr_dirs(const struct ss_stats_attr *a);
const struct ss_seek_causes *ss_stats_attr_causes(const struct ss_stats_attr *a);
uint64_t ss_stats_attr_unzoned(const struct ss_stats_attr *a);

#endif
