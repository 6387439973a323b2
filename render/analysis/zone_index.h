// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fast sector -> zone lookup.  Gives exactly the answer of ss_trace_zone_at() (the zone that
 * wins by ss_zone_wins() among those containing the sector; the first in file order on ties) but in
 * O(log zones) instead of a scan of every zone, which matters with thousands of ext4 groups and
 * millions of I/Os.  Built once from the trace's zone table.  Nothing here prints.
 */
#ifndef SS_ZONE_INDEX_H
#define SS_ZONE_INDEX_H

#include <stddef.h>
#include <stdint.h>
#include "seekscope/format.h"

struct ss_zone_index;

/*
 * Build an index over zones[0..n) (the array must outlive the index; typically t->zones).
 * NULL + errno on failure.  n == 0 gives an index that finds nothing.
 */
struct ss_zone_index *ss_zone_index_new(const struct ss_rec_zone *zones, size_t n);
void ss_zone_index_free(struct ss_zone_index *zi);      /* accepts NULL */
/* Index into the zones array of the zone holding SECTOR on DEV, or -1. */
long ss_zone_index_find(const struct ss_zone_index *zi, uint32_t dev, uint64_t sector);

/* The interval of the caller's last answer: consecutive requests mostly land in the same
 * zone, and a sector inside it needs no search.  Zeroed (= {0}) before the first use; one
 * per caller (and per index). */
struct ss_zone_hint {
	uint32_t dev;
	uint64_t lo, hi;        /* [lo, hi): the answer below holds; lo == hi: none yet */
	long zone;
};
/* ss_zone_index_find(), remembering the answer's interval in *HINT. */
long ss_zone_index_find_hint(const struct ss_zone_index *zi, uint32_t dev, uint64_t sector,
			     struct ss_zone_hint *hint);

#endif
