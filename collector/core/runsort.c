// SPDX-License-Identifier: GPL-2.0-or-later
/* A stable merge of the runs already in order (see runsort.h). */
#include <stdlib.h>
#include <string.h>

#include "runsort.h"

/* A (NA elements) and B (NB), each in order, into OUT; on a tie A's element first. */
static void merge(const char *a, size_t na, const char *b, size_t nb, char *out, size_t size,
		  int (*cmp)(const void *, const void *))
{
	while (na && nb) {
		if (cmp(b, a) < 0) {
			memcpy(out, b, size);
			b += size;
			nb--;
		} else {
			memcpy(out, a, size);
			a += size;
			na--;
		}
		out += size;
	}
	memcpy(out, a, na * size);
	memcpy(out + na * size, b, nb * size);
}

void ss_sort_runs(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *),
		  void **tmp, size_t *tmp_cap)
{
	size_t start[SS_SORT_RUNS_MAX + 1], runs = 1;
	char *src = base, *dst;

	if (n < 2)
		return;
	start[0] = 0;
	for (size_t i = 1; i < n; i++) {
		if (cmp(src + (i - 1) * size, src + i * size) <= 0)
			continue;
		if (runs == SS_SORT_RUNS_MAX) {
			qsort(base, n, size, cmp);
			return;
		}
		start[runs++] = i;
	}
	if (runs == 1)
		return;
	if (*tmp_cap < n) {
		void *p = reallocarray(*tmp, n, size);

		if (!p) {
			qsort(base, n, size, cmp);
			return;
		}
		*tmp = p;
		*tmp_cap = n;
	}
	dst = *tmp;
	start[runs] = n;
	while (runs > 1) {
		size_t k = 0, i;
		char *t;

		for (i = 0; i + 1 < runs; i += 2, k++) {
			merge(src + start[i] * size, start[i + 1] - start[i], src + start[i + 1] * size,
			      start[i + 2] - start[i + 1], dst + start[i] * size, size, cmp);
			start[k] = start[i];
		}
		if (i < runs) {           /* an odd run out: carried over as it is */
			memcpy(dst + start[i] * size, src + start[i] * size,
			       (start[i + 1] - start[i]) * size);
			start[k++] = start[i];
		}
		start[k] = n;
		runs = k;
		t = src;
		src = dst;
		dst = t;
	}
	if (src != base)
		memcpy(base, src, n * size);
}
