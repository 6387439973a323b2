// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoding of block request events from raw ring-buffer records into struct ss_event.
 * Fields are looked up by name once per event type, because their layout differs between
 * kernels: rwbs is char[8] or char[10] (or a dynamic string), completion status is `error`
 * or `errors`, `bytes` exists on issue/insert events only, `comm`/`cmd` come and go.
 */
#ifndef SS_DECODE_H
#define SS_DECODE_H

#include <stddef.h>
#include <stdint.h>
#include "seekscope/format.h"

struct tep_handle;
struct ss_decoder;

/* Block events recorded only on request (bits of ss_block_event.opt_in). */
#define SS_BLOCK_OPT_INSERT  0x1u   /* block:block_rq_insert */
#define SS_BLOCK_OPT_QUEUE   0x2u   /* block:block_bio_queue */

/*
 * The block request events seekscope decodes, shared by the recorder (which enables those
 * whose opt_in bit it was asked for, and all with opt_in 0) and the trace-cmd importer.
 */
struct ss_block_event {
	const char *name;       /* block:NAME */
	uint16_t type;          /* SS_EV_* */
	unsigned opt_in;        /* 0: always recorded; else an SS_BLOCK_OPT_* bit */
};
extern const struct ss_block_event ss_block_events[];
extern const size_t ss_nr_block_events;

/*
 * Flush requests carry no sector: the kernel reports the flush op at sector 0 on issue and at
 * (sector_t)-1 on completion.  Store SS_SECTOR_NONE in such an event (flush flag, no length,
 * sector 0 or all ones); any other event is left alone.  Every decoder and importer applies it.
 */
static inline void ss_event_flush_sector(struct ss_event *ev)
{
	if ((ev->flags & SS_RW_FLUSH) && ev->nr_sector == 0 &&
	    (ev->sector == 0 || ev->sector == UINT64_MAX))
		ev->sector = SS_SECTOR_NONE;
}

struct ss_decoder *ss_decoder_new(struct tep_handle *tep);   /* NULL on ENOMEM */
void ss_decoder_free(struct ss_decoder *d);                  /* accepts NULL */
/*
 * Register block:NAME (already parsed into the tep handle) as event TYPE (SS_EV_*).
 * -ENOENT if the tep does not know the event, -EPROTO if it lacks dev/sector/nr_sector/rwbs,
 * -ENOSPC if too many types are registered.  The decoder takes the trace's byte order from the
 * tep handle as it is then.
 */
int ss_decoder_add(struct ss_decoder *d, const char *name, uint16_t type);
/* Room for a task name as block events carry it (TASK_COMM_LEN), terminated. */
#define SS_COMM_LEN 16
/*
 * Decode one raw record of SIZE bytes (starting with common_type).  Returns 1 and fills EV, 0
 * for an event type that was not registered, or -1 for a record too short for the fields its
 * format places in it (a damaged trace-cmd file: its formats and records are the file's word;
 * nothing is read past SIZE).  COMM (SS_COMM_LEN bytes, may be NULL) receives the task name of
 * the event's context when the event has a `comm` field (issue, insert, queue), else "",
 * padded with NULs to its end.
 */
int ss_decoder_decode(const struct ss_decoder *d, const void *data, size_t size, uint64_t ts,
		      unsigned cpu, struct ss_event *ev, char *comm);

#endif
