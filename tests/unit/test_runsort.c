// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ss_sort_runs(): arrays of runs in order (the recorder's pending events: leftovers, then each
 * CPU's batch) come out in the order a stable sort gives — checked against a sort by the keys and
 * the items' first places —
 * for one run, two, many, more than SS_SORT_RUNS_MAX (qsort's way: the scratch space shows which
 * way a sort went), ties across runs, and elements of the recorder's size; the scratch space is
 * grown and reused.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "runsort.h"

struct item {
	uint64_t key;
	uint32_t sub;        /* a second key, as the recorder's event type */
	uint32_t seq;        /* where it stood before: shows stability */
	char pad[48];        /* the recorder's pending entries are 64 bytes */
};

static int cmp_item(const void *a, const void *b)
{
	const struct item *x = a, *y = b;

	if (x->key != y->key)
		return x->key < y->key ? -1 : 1;
	return (int)x->sub - (int)y->sub;
}

/* The stable order by definition: by the keys, then by where each item stood. */
static int cmp_stable(const void *a, const void *b)
{
	const struct item *x = a, *y = b;
	int c = cmp_item(a, b);

	return c ? c : (x->seq > y->seq) - (x->seq < y->seq);
}

static void reference(struct item *v, size_t n)
{
	qsort(v, n, sizeof(*v), cmp_stable);
}

static uint64_t rng = 88172645463325252ull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* N items in RUNS runs, each in order and each starting below the one before (so that the runs
 * are RUNS exactly) but overlapping it; keys spread over about SPAN (small: many ties). */
static void fill(struct item *v, size_t n, size_t runs, uint64_t span)
{
	size_t per = n ? (n + runs - 1) / runs : 1;
	uint64_t step = 1 + span / runs, inc = 1 + 2 * span / per;

	for (size_t r = 0, i = 0; i < n; r++) {
		uint64_t key = (runs - r) * step;
		uint32_t sub = 0;

		for (size_t k = 0; k < per && i < n; k++, i++) {
			uint64_t was = key;

			/* a run covers about SPAN: it overlaps every run after it */
			if (k && span >= per)
				key += next() % inc;
			else if (k && next() % per < 2 * span)
				key++;
			if (key > was)
				sub = (uint32_t)(next() % 2);
			else if (k && next() % 4 == 0)
				sub = 1;                          /* the same key, the later type */
			v[i] = (struct item){ .key = key, .sub = sub, .seq = (uint32_t)i };
			memset(v[i].pad, (int)(i & 0xff), sizeof(v[i].pad));
		}
	}
}

static size_t count_runs(const struct item *v, size_t n)
{
	size_t runs = n ? 1 : 0;

	for (size_t i = 1; i < n; i++)
		runs += cmp_item(&v[i - 1], &v[i]) > 0;
	return runs;
}

static int same(const struct item *a, const struct item *b, size_t n)
{
	return !memcmp(a, b, n * sizeof(*a));
}

int main(void)
{
	static const struct { size_t n, runs; uint64_t span; const char *what; } cases[] = {
		{ 0, 1, 10, "no element" },
		{ 1, 1, 10, "one element" },
		{ 1000, 1, 1000000, "one run: left as it is" },
		{ 1000, 2, 1000000, "two runs (two CPUs)" },
		{ 1001, 3, 1000000, "three runs (leftovers and two CPUs)" },
		{ 5000, 3, 20, "three runs, many ties across them" },
		{ 4096, 7, 1000000, "seven runs: an odd one carried over" },
		{ 10000, SS_SORT_RUNS_MAX, 1000000, "as many runs as merged at most" },
		{ 10000, SS_SORT_RUNS_MAX + 1, 1000000, "one run more: qsort" },
		{ 3000, 3000, 1000000, "no order at all: qsort" },
	};
	void *tmp = NULL;
	size_t tmp_cap = 0;

	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		size_t n = cases[c].n;
		struct item *v = calloc(n + 1, sizeof(*v)), *want = calloc(n + 1, sizeof(*v));

		if (!v || !want) {
			ok(0, "%s: memory for %zu items", cases[c].what, n);
			free(v);
			free(want);
			continue;
		}
		fill(v, n, cases[c].runs, cases[c].span);
		if (count_runs(v, n) != (n ? cases[c].runs : 0))
			ok(0, "%s: made %zu runs", cases[c].what, count_runs(v, n));
		memcpy(want, v, n * sizeof(*v));
		reference(want, n);
		if (n >= 10000) {
			/* which way it went: merging grows the scratch space, qsort leaves it */
			free(tmp);
			tmp = NULL;
			tmp_cap = 0;
		}
		ss_sort_runs(v, n, sizeof(*v), cmp_item, &tmp, &tmp_cap);
		if (n >= 10000)
			ok(tmp_cap == (cases[c].runs > SS_SORT_RUNS_MAX ? 0 : n),
			   "%s: %s (scratch space for %zu)", cases[c].what,
			   cases[c].runs > SS_SORT_RUNS_MAX ? "qsort" : "merged", tmp_cap);
		if (cases[c].runs > SS_SORT_RUNS_MAX) {
			/* qsort need not be stable: the order of the keys is what counts */
			int in_order = 1;

			for (size_t i = 1; i < n; i++)
				in_order &= cmp_item(&v[i - 1], &v[i]) <= 0;
			ok(in_order, "%s: %zu items in order", cases[c].what, n);
		} else {
			ok(same(v, want, n), "%s: %zu items as a stable sort puts them", cases[c].what, n);
		}
		free(v);
		free(want);
	}
	{
		/* the recorder's case many times over: reused scratch space, two CPUs' batches */
		struct item *v = calloc(2000, sizeof(*v)), *want = calloc(2000, sizeof(*v));
		int all = 1;
		size_t most = 0;            /* the longest array that needed merging */

		if (!v || !want) {
			ok(0, "memory for 2000 items");
			free(v);
			free(want);
			free(tmp);
			return done_testing();
		}
		for (int round = 0; round < 200; round++) {
			size_t n = 500 + next() % 1500, runs = 1 + next() % 4;

			fill(v, n, runs, 50 + next() % 100000);
			if (runs > 1 && n > most)
				most = n;
			memcpy(want, v, n * sizeof(*v));
			reference(want, n);
			ss_sort_runs(v, n, sizeof(*v), cmp_item, &tmp, &tmp_cap);
			all &= same(v, want, n);
		}
		ok(all, "200 arrays of 1 to 4 runs: each as a stable sort puts it");
		ok(tmp_cap == most, "... in one scratch space, grown to the longest merged (%zu of %zu)",
		   tmp_cap, most);
		free(v);
		free(want);
	}
	free(tmp);
	return done_testing();
}
