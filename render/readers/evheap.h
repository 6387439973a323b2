// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Time-ordered merge of several event sources (per-CPU files, ring buffers): a min-heap of
 * source indices keyed on each source's pending event, ties broken by index so the merge is
 * stable.  Used by the importers; the caller owns the index array and the sources.
 */
#ifndef SS_EVHEAP_H
#define SS_EVHEAP_H

#include <stddef.h>
#include "seekscope/format.h"

/* The pending event of source I. */
typedef const struct ss_event *(*ss_evheap_key)(const void *ctx, size_t i);

/* Restore the heap property below position POS of HEAP[0..N). */
void ss_evheap_down(size_t *heap, size_t n, size_t pos, ss_evheap_key key, const void *ctx);
/* Make HEAP[0..N) a heap. */
void ss_evheap_build(size_t *heap, size_t n, ss_evheap_key key, const void *ctx);

#endif
