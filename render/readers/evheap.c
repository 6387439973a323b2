// SPDX-License-Identifier: GPL-2.0-or-later
/* Time-ordered merge heap shared by the importers (see evheap.h). */
#include <stdbool.h>

#include "evheap.h"

static bool less(size_t a, size_t b, ss_evheap_key key, const void *ctx)
{
	const struct ss_event *x = key(ctx, a), *y = key(ctx, b);

	return x->ts_ns < y->ts_ns || (x->ts_ns == y->ts_ns && a < b);
}

void ss_evheap_down(size_t *heap, size_t n, size_t pos, ss_evheap_key key, const void *ctx)
{
	for (;;) {
		size_t l = 2 * pos + 1, m = pos, tmp;

		if (l < n && less(heap[l], heap[m], key, ctx))
			m = l;
		if (l + 1 < n && less(heap[l + 1], heap[m], key, ctx))
			m = l + 1;
		if (m == pos)
			return;
		tmp = heap[pos];
		heap[pos] = heap[m];
		heap[m] = tmp;
		pos = m;
	}
}

void ss_evheap_build(size_t *heap, size_t n, ss_evheap_key key, const void *ctx)
{
	for (size_t i = n / 2; i-- > 0;)
		ss_evheap_down(heap, n, i, key, ctx);
}
