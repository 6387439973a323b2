// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seek causes: for every seek (seek.h's definition: an issue more than the threshold away from
 * where the previous request on its device ended), the class (classes.h) of the request the
 * head came from — the previous request evaluated for seeks on the device, the one whose end
 * the distance is measured from — and of the request it went to, and the zones (AG, group,
 * log, inode table: the trace's zone table) both lie in.  So "agcount=4 seeks five times
 * more" becomes "N % of the seeks are data -> data across AGs, M % data -> journal".
 *
 * Counted per device and for the whole trace: a matrix of seeks by (from class, to class),
 * of which `across` are between two zones (a sector outside every zone counts as a zone of its
 * own); and the zone pairs (from class and zone, to class and zone) for the whole trace, at
 * most SS_CAUSE_ZONE_PAIRS distinct ones — the seeks of pairs beyond are counted apart
 * (zone_pairs_dropped), never lost from the matrix.  Memory: a few matrices per device and the
 * bounded pair table.  Nothing here prints.
 */
#ifndef SS_SEEKCAUSE_H
#define SS_SEEKCAUSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "classes.h"
#include "seekscope/format.h"

#define SS_CAUSE_ZONE_PAIRS 4096

struct ss_cause_matrix {
	uint64_t seeks;                                    /* sum of n[][] */
	uint64_t n[SS_NR_CLASSES][SS_NR_CLASSES];          /* [from][to] */
	uint64_t across[SS_NR_CLASSES][SS_NR_CLASSES];     /* of n: the two in different zones */
};

struct ss_cause_zone_pair {
	uint8_t from, to;                /* enum ss_class */
	long from_zone, to_zone;         /* indexes into the trace's zones; -1: no zone */
	uint64_t seeks;
};

struct ss_seek_causes;

struct ss_seek_causes *ss_seek_causes_new(void);       /* NULL on ENOMEM */
void ss_seek_causes_free(struct ss_seek_causes *sc);   /* accepts NULL */

/*
 * Feed the issue EV whose seek verdict (ss_seek_feed) is VERDICT, of class CLS, its start in
 * zone ZONE (-1: none).  Every evaluated request (verdict not SS_SEEK_IGNORED) becomes its
 * device's "previous" request; a seek (SS_SEEK_FAR) is counted when COUNT (the caller's
 * window and process filter keep it).  0, or -ENOMEM.
 */
int ss_seek_causes_feed(struct ss_seek_causes *sc, const struct ss_event *ev, enum ss_class cls,
			long zone, int verdict, bool count);

/* The whole trace's matrix. */
const struct ss_cause_matrix *ss_seek_causes_total(const struct ss_seek_causes *sc);
/* Device DEV's matrix (an empty one if DEV had no seek). */
const struct ss_cause_matrix *ss_seek_causes_device(const struct ss_seek_causes *sc,
						    uint32_t dev);
/* Sort the zone pairs: call once the events are fed (ss_stats_finish does). */
void ss_seek_causes_finish(struct ss_seek_causes *sc);
/* The zone pairs, most seeks first (ties: from, to, zones): *N of them (0 before
 * ss_seek_causes_finish).  Owned by SC. */
const struct ss_cause_zone_pair *ss_seek_causes_zone_pairs(const struct ss_seek_causes *sc,
							   size_t *n);
/* Seeks whose zone pair did not fit the table. */
uint64_t ss_seek_causes_zone_pairs_dropped(const struct ss_seek_causes *sc);

/* A (from, to) cell of a matrix, for listing the pairs biggest first. */
struct ss_cause_cell {
	uint8_t from, to;
	uint64_t seeks, across;
};
/* The non-empty cells of M, most seeks first (ties: from, then to): how many were written
 * into OUT (room for SS_NR_CLASSES * SS_NR_CLASSES is enough). */
size_t ss_cause_cells(const struct ss_cause_matrix *m, struct ss_cause_cell *out, size_t max);

#endif
