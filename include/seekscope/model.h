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
/* True for an event that moves data (read/write/discard with sectors), false for pure flushes. */
bool ss_event_has_data(const struct ss_event *ev);

/*
 * Whether C's exit_status is the workload's: the recorder writes the capture record with
 * end_ns 0 when tracing starts and again with end_ns and the status when it ends, so a trace
 * whose end was never recorded (recorder killed, output full) still holds the start's
 * placeholder 0, which is no exit status.
 */
bool ss_capture_exit_known(const struct ss_rec_capture *c);

#endif /* SEEKSCOPE_MODEL_H */
