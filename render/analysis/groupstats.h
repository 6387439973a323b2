// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-group figures (groups.h: per directory under the mapped DIR, or per file): which part
 * of the tree the I/O went to and which part caused the seeks.  The rules are the
 * per-process table's (procstats.h), with the group found from the request's sectors
 * instead of its owner:
 *  - ios, bytes: completed data requests (stats.h's I/O), grouped by the sectors they
 *    completed;
 *  - issues, seeks: data requests issued, and those that were seeks (seek.h): a seek is
 *    caused by the request that seeks.
 * Requests the map does not cover are the row "unknown (not in the map)", those holding
 * only inodes of mapped entries the row "inodes", so the rows add up to the trace's I/Os,
 * bytes and seeks.  Memory: one row per group of the trace (ss_group_keys).  Nothing here
 * prints.
 */
#ifndef SS_GROUPSTATS_H
#define SS_GROUPSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "groups.h"

struct ss_group_row {
	const char *name;          /* the group (owned by the table) */
	size_t group;              /* its number in ss_group_keys: 0 unknown, 1 inodes */
	uint64_t ios, bytes;
	uint64_t issues, seeks;
};

struct ss_group_stats;

/* NULL with errno (ENOMEM).  SPEC: SS_GROUP_DIR or SS_GROUP_FILE. */
struct ss_group_stats *ss_group_stats_new(const struct ss_group_spec *spec,
					  const struct ss_trace *t);
void ss_group_stats_free(struct ss_group_stats *g);          /* accepts NULL */
/* An issued data request, and whether it was a seek. */
void ss_group_stats_issue(struct ss_group_stats *g, const struct ss_event *ev, bool seek);
/* A completed data request (its completion's sectors). */
void ss_group_stats_io(struct ss_group_stats *g, uint32_t dev, uint64_t sector,
		       uint32_t nr_sector);
/* Sort the rows that have anything: most I/Os first, then most seeks, then name. */
void ss_group_stats_finish(struct ss_group_stats *g);
size_t ss_group_stats_count(const struct ss_group_stats *g);
const struct ss_group_row *ss_group_stats_row(const struct ss_group_stats *g, size_t i);
/* Does the trace have a file map at all? */
bool ss_group_stats_mapped(const struct ss_group_stats *g);

#endif
