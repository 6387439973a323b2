// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Memory on whole cache lines of its own, for state that one thread writes while another
 * thread writes the objects allocated around it (a pass's read-ahead thread judging events,
 * its own thread counting them): a line they shared would travel between the two CPUs at
 * every write.  Freed with free().
 */
#ifndef SS_LINES_H
#define SS_LINES_H

#include <stdlib.h>
#include <string.h>

#define SS_CACHE_LINE 64

/* SIZE bytes (at least one line), zeroed, on whole cache lines; NULL on ENOMEM. */
static inline void *ss_lines_alloc(size_t size)
{
	size_t sz = size ? (size + SS_CACHE_LINE - 1) / SS_CACHE_LINE * SS_CACHE_LINE
			 : SS_CACHE_LINE;
	void *p = aligned_alloc(SS_CACHE_LINE, sz);

	if (p)
		memset(p, 0, sz);
	return p;
}

/* OLD (ss_lines_alloc'd, OLD_SIZE bytes of it used, or NULL) moved into SIZE bytes of lines
 * of their own, the rest zeroed; OLD freed.  NULL on ENOMEM (OLD kept). */
static inline void *ss_lines_grow(void *old, size_t old_size, size_t size)
{
	void *p = ss_lines_alloc(size);

	if (p && old) {
		memcpy(p, old, old_size < size ? old_size : size);
		free(old);
	}
	return p;
}

#endif
