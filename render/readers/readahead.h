// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Read-ahead of a trace's events (trace_read.c): a thread of its own calls the backend's
 * next_batch and copies the events into a ring of slots, while the caller counts the slot
 * before.  Decoding (and, for an import, merging the per-CPU files) then runs beside the
 * statistics instead of before them.  The caller sees the same events in the same batches
 * order, the same errors and the same end; only the batch boundaries differ.
 *
 * The backend is called from the read-ahead thread only while it runs: between a first
 * next_batch and the next rewind or close, the caller must not touch the backend's state
 * (trace_read.c stops the thread first).  The backends leave the trace's metadata alone
 * while streaming (task names and loss are taken at open), so the caller may read it.
 */
#ifndef SS_READAHEAD_H
#define SS_READAHEAD_H

#include <stddef.h>
#include <stdint.h>
#include "seekscope/format.h"

struct ss_trace;
struct ss_readahead;

/* Events per slot: the caller gets batches of exactly this many, the last one excepted. */
#define SS_READAHEAD_SLOT_EVENTS 4096
/* Slots in the ring, the one the caller holds included: the thread is never more than this
 * many slots (and one backend batch) ahead of the slot the caller was given last. */
#define SS_READAHEAD_SLOTS 8u

/* The next batch as the backend would give it: *ev, *n.  1: events; 0: the end; -errno: an
 * error already described in the trace (ss_trace_set_error). */
typedef int (*ss_readahead_next_fn)(struct ss_trace *t, const struct ss_event **ev, size_t *n);


/* What the thread does with each slot's events before it hands the slot over, NOTES its
 * notes of them, one of the hook's size per event (trace_read.h: ss_trace_set_batch_hook). */
typedef void (*ss_readahead_hook_fn)(void *arg, const struct ss_event *ev, void *notes,
				     size_t n);

/* Start reading T ahead through NEXT (from where the backend stands), HOOK (may be NULL)
 * called with ARG on every slot's events, in order, in the thread, with NOTE_SIZE bytes of
 * notes per event (0: none, the hook's NOTES NULL).  NULL (errno set) when the thread or its
 * memory cannot be had: the caller then reads directly. */
struct ss_readahead *ss_readahead_start(struct ss_trace *t, ss_readahead_next_fn next,
					ss_readahead_hook_fn hook, void *arg, size_t note_size);

/* The next slot of events, as NEXT's contract; the slot stays valid until the next call. */
int ss_readahead_next(struct ss_readahead *ra, const struct ss_event **ev, size_t *n);
/* The caller's: the slots ss_readahead_next() gave so far (the end's included), and of them
 * those the thread had not published yet when asked for (the caller waited). */
void ss_readahead_waits(const struct ss_readahead *ra, unsigned *taken, unsigned *waited);
/* The hook's notes of the events the last ss_readahead_next() gave (NULL without them). */
const void *ss_readahead_notes(const struct ss_readahead *ra);

/* Stop the thread (it finishes the backend call it is in, and makes no other) and free
 * everything; NULL is fine. */
void ss_readahead_stop(struct ss_readahead *ra);

#endif
