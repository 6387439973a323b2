// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * Names and helpers for the event model shared by collector and renderer: zone kinds, event
 * types and rwbs flags as text, the zone rule.  Implemented in collector/core/model.c (pure
 * functions, no state).
 */
#ifndef SEEKSCOPE_MODEL_H
#define SEEKSCOPE_MODEL_H

#include <stdbool.h>
#include "seekscope/format.h"

/* "ag", "log", "journal", "group", "inode_table"; "unknown" for anything else. */
const char *ss_zone_kind_name(uint32_t kind);
/*
 * Which of two zones that both hold a sector names it: a zone of a specific kind (log,
 * journal, inode table) wins over a container (AG, group) whatever their sizes — an ext4
 * journal can be exactly one block group long — then the smaller zone wins.  True when A wins
 * strictly, so that among equals the first one met keeps the sector.
 */
bool ss_zone_wins(const struct ss_rec_zone *a, const struct ss_rec_zone *b);
/* "issue", "complete", "requeue", "insert", "queue"; "unknown" otherwise. */
const char *ss_event_type_name(uint32_t type);
/* Parse the kernel's rwbs string ("FWFS", "RA", "WM", "FF", "D", "N") into SS_RW_* flags. */
uint16_t ss_rwbs_parse(const char *rwbs, size_t len);
/* Format SS_RW_* flags back to rwbs text into buf (at least 10 bytes); returns buf. */
char *ss_rwbs_format(uint16_t flags, char *buf, size_t len);
/*
 * True for an event that covers sectors: a read, write, discard or other op with a length.
 * False for flushes (no sector, or sector 0 with no length on issue) and for requests without
 * sectors (zone open/close/reset, driver commands).
 */
static inline bool ss_event_has_data(const struct ss_event *ev)
{
	/* inline: every pass over a trace asks it of every event */
	if (ev->nr_sector == 0 || ev->sector == SS_SECTOR_NONE)
		return false;
	return !(ev->flags & SS_RW_FLUSH);
}

/*
 * Whether C's exit_status is the workload's: the recorder writes the capture record with
 * end_ns 0 when tracing starts and again with end_ns and the status when it ends, so a trace
 * whose end was never recorded (recorder killed, output full) still holds the start's
 * placeholder 0, which is no exit status.
 */
bool ss_capture_exit_known(const struct ss_rec_capture *c);

/*
 * Request classes by operation: the one rule that every count, seek and picture follows,
 * decided by the op letter of the kernel's rwbs string (blk_fill_rwbs):
 *
 *   R               read
 *   W               write
 *   D               discard: the device may forget the sectors (TRIM, UNMAP; a loop device
 *                   punches a hole in its file)
 *   N, DE, unknown  other: write-zeroes, secure erase, zone append, any op the kernel prints
 *                   as N; they make the device write (or erase) the sectors
 *   F (the op)      flush: no sectors; a request with the preflush F and no data is one too
 *
 * The order is that of the per-op counters (struct ss_summary) and of the report's keys.
 */
enum ss_op { SS_OP_READ, SS_OP_WRITE, SS_OP_DISCARD, SS_OP_OTHER, SS_OP_FLUSH, SS_NR_OPS };
#define SS_NR_DATA_OPS SS_OP_FLUSH     /* ops whose requests cover sectors: read .. other */

struct ss_op_info {
	const char *name;        /* "read", "write", "discard", "other", "flush" */
	const char *rwbs;        /* the rwbs op letters it stands for, for help texts */
	/* Its requests are evaluated for seeks (and set the position the next one is measured
	 * from).  Discards are not: they move no head — SSDs, thin provisioning and loop devices
	 * are what receive them — and an rm -rf's trims would otherwise count as seeks. */
	bool seeks;
};
/* The table, indexed by enum ss_op. */
extern const struct ss_op_info ss_ops[SS_NR_OPS];
/* The class of a request with these SS_RW_* flags that covers sectors (HAS_DATA) or not. */
enum ss_op ss_op_of(uint16_t flags, bool has_data);

#endif /* SEEKSCOPE_MODEL_H */
