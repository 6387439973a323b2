// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A stable sort for arrays made of a few runs already in order, as the recorder's events are:
 * what the last write left, then each CPU's events in the order of its ring buffer.
 */
#ifndef SS_RUNSORT_H
#define SS_RUNSORT_H

#include <stddef.h>

/* More runs than this and ss_sort_runs() sorts with qsort() instead. */
#define SS_SORT_RUNS_MAX 64

/*
 * Sort BASE (N elements of SIZE bytes) by CMP, stably: the runs in order are found in one pass
 * and adjacent ones merged, a pass over the elements per halving of their number (with R runs,
 * about N log2(R) comparisons against qsort's N log2(N)).  *TMP (*TMP_CAP elements of SIZE
 * bytes: one scratch space per element size; NULL and 0 at first, free() it when done) is the
 * caller's scratch space, grown here as needed; with more than SS_SORT_RUNS_MAX runs, or without
 * memory for the scratch space, BASE is sorted by qsort().
 */
void ss_sort_runs(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *),
		  void **tmp, size_t *tmp_cap);

#endif
