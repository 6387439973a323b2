// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One producer, a few consumers, each in a thread of its own: the producer fills fixed-size
 * items into a ring of slots; every consumer sees every item, in the order they were pushed,
 * slot by slot.  A slot is reused when all consumers are done with it, so memory is bounded
 * (nr_slots * slot_items * item_size) and a slow consumer holds the producer back.
 *
 * The statistics pass uses it to count and attribute on other CPUs what the main thread has
 * judged (stats.c).  Items are read-only to the consumers; what a consumer writes is its own
 * until ss_fanout_finish() returns (the threads have been joined then).  Nothing here prints.
 */
#ifndef SS_FANOUT_H
#define SS_FANOUT_H

#include <stddef.h>

#define SS_FANOUT_MAX_CONSUMERS 4

/* A consumer: counts N items (contiguous, item_size apart).  0, or a negative errno: the
 * consumer is then given no more items and ss_fanout_finish() returns its error. */
typedef int (*ss_fanout_fn)(void *arg, const void *items, size_t n);

struct ss_fanout;

/*
 * Start NR consumers (1..SS_FANOUT_MAX_CONSUMERS): FN[i](ARG[i], ...) in thread i.  NULL +
 * errno (EINVAL, ENOMEM, or pthread_create's error; no thread is left running then).
 */
struct ss_fanout *ss_fanout_new(size_t item_size, size_t slot_items, size_t nr_slots,
				const ss_fanout_fn *fn, void *const *arg, size_t nr);

/*
 * Room for the next item, to be filled before the next call (the item counts from then
 * on; ss_fanout_unpush() takes the last one back).  Waits while every slot is still in use.
 * Never NULL.
 */
void *ss_fanout_push(struct ss_fanout *f);
void ss_fanout_unpush(struct ss_fanout *f);

/* The first consumer error so far (0 if none): a producer may stop early on it. */
int ss_fanout_error(struct ss_fanout *f);

/* Hand over what is pushed, wait until every consumer has counted it and end the threads.
 * 0 or the first consumer error.  Once only; pushing after it is a bug. */
int ss_fanout_finish(struct ss_fanout *f);

/* Ends the threads if ss_fanout_finish() was not called (the consumers stop early, what
 * they count is then incomplete) and frees everything.  Accepts NULL. */
void ss_fanout_free(struct ss_fanout *f);

#endif
