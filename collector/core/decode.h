// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Decoding of block request events from raw ring-buffer records into struct ss_event.
 * Fields are looked up by name once per event type, because their layout differs between
 * kernels: rwbs is char[8] or char[10] (or a dynamic string), completion status is `error`
 * or `errors`, `bytes` exists on issue/insert events only, `comm`/`cmd` come and go.
 */
#ifndef SS_DECODE_H
#define SS_DECODE_H

#include <stdint.h>
#include "seekscope/format.h"

struct tep_handle;
struct ss_decoder;

struct ss_decoder *ss_decoder_new(struct tep_handle *tep);   /* NULL on ENOMEM */
void ss_decoder_free(struct ss_decoder *d);                  /* accepts NULL */
/*
 * Register block:NAME (already parsed into the tep handle) as event TYPE (SS_EV_*).
 * -ENOENT if the tep does not know the event, -EPROTO if it lacks dev/sector/nr_sector/rwbs,
 * -ENOSPC if too many types are registered.
 */
int ss_decoder_add(struct ss_decoder *d, const char *name, uint16_t type);
/*
 * Decode one raw record (starting with common_type).  Returns 1 and fills EV, or 0 for an
 * event type that was not registered.
 */
int ss_decoder_decode(const struct ss_decoder *d, const void *data, uint64_t ts, unsigned cpu,
		      struct ss_event *ev);

#endif
