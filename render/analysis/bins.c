// SPDX-License-Identifier: GPL-2.0-or-later
/* Time bins for the time-series panels (see bins.h). */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

#include "bins.h"

_Static_assert(SS_BM_OP_MB_S(SS_NR_DATA_OPS) == SS_BM_MB_S &&
	       SS_BM_OP_IOPS(SS_NR_DATA_OPS) == SS_BM_IOPS, "one metric per class, in enum ss_op order");
_Static_assert(offsetof(struct ss_bin, others) ==
	       offsetof(struct ss_bin, op_ios) + SS_OP_OTHER * sizeof(uint64_t) &&
	       offsetof(struct ss_bin, other_bytes) ==
	       offsetof(struct ss_bin, op_bytes) + SS_OP_OTHER * sizeof(uint64_t),
	       "the named counters follow enum ss_op");

uint64_t ss_bins_choose_width(uint64_t duration_ns, unsigned max_bins)
{
	static const uint64_t steps[] = { 1, 2, 5 };
	uint64_t decade = 1000;     /* 1 us */

	if (!max_bins)
		max_bins = SS_BINS_TARGET_DEFAULT;
	if (!duration_ns)
		return 1000000;     /* 1 ms: one bin, and a sane rate unit */
	for (;;) {
		for (size_t i = 0; i < 3; i++) {
			uint64_t w = decade * steps[i];

			/* ceil(duration / w) <= max_bins */
			if ((duration_ns - 1) / w + 1 <= max_bins)
				return w;
		}
		if (decade > UINT64_MAX / 50)
			return decade * 10;
		decade *= 10;
	}
}

struct ss_bins *ss_bins_new(uint64_t start_ns, uint64_t end_ns, uint64_t width_ns)
{
	struct ss_bins *b;
	uint64_t n;

	if (end_ns < start_ns) {
		errno = EINVAL;
		return NULL;
	}
	if (!width_ns)
		width_ns = ss_bins_choose_width(end_ns - start_ns, 0);
	n = end_ns > start_ns ? (end_ns - start_ns - 1) / width_ns + 1 : 1;
	if (n > SS_BINS_MAX) {
		errno = E2BIG;
		return NULL;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return NULL;
	b->bin = calloc((size_t)n, sizeof(*b->bin));
	if (!b->bin) {
		free(b);
		return NULL;
	}
	b->start_ns = start_ns;
	b->end_ns = end_ns;
	b->width_ns = width_ns;
	b->n = (size_t)n;
	return b;
}

void ss_bins_free(struct ss_bins *b)
{
	if (!b)
		return;
	free(b->bin);
	free(b);
}

long ss_bins_index(const struct ss_bins *b, uint64_t ts)
{
	uint64_t i;

	if (ts < b->start_ns || ts > b->end_ns)
		return -1;
	i = (ts - b->start_ns) / b->width_ns;
	return i >= b->n ? (long)b->n - 1 : (long)i;
}

uint64_t ss_bins_bin_start(const struct ss_bins *b, size_t i)
{
	return b->start_ns + (uint64_t)i * b->width_ns;
}

uint64_t ss_bins_bin_width(const struct ss_bins *b, size_t i)
{
	uint64_t s = ss_bins_bin_start(b, i);

	if (i + 1 < b->n || b->width_ns <= b->end_ns - s)    /* s <= end_ns: no wrap-around */
		return b->width_ns;
	/* the last bin ends at end_ns; a zero-length span keeps the nominal width */
	return b->end_ns > s ? b->end_ns - s : b->width_ns;
}

void ss_bins_add_depth(struct ss_bins *b, uint64_t from, uint64_t to, uint64_t depth)
{
	if (!depth || to <= from)
		return;
	if (from < b->start_ns)
		from = b->start_ns;
	if (to > b->end_ns)
		to = b->end_ns;
	while (from < to) {
		size_t i = (size_t)((from - b->start_ns) / b->width_ns);
		uint64_t stop = to;

		if (i >= b->n)
			break;
		/* Only bins before the last end at the next bin's start; the last one ends at
		 * end_ns, and start + n * width may not even fit in 64 bits (that wrapped and
		 * looped forever on a trace spanning ~2^64 ns). */
		if (i + 1 < b->n && ss_bins_bin_start(b, i + 1) < to)
			stop = ss_bins_bin_start(b, i + 1);
		b->bin[i].depth_ns += (double)depth * (double)(stop - from);
		from = stop;
	}
}

double ss_bins_value(const struct ss_bins *b, size_t i, enum ss_bin_metric m)
{
	const struct ss_bin *x = &b->bin[i];
	double w = (double)ss_bins_bin_width(b, i) / 1e9;   /* seconds */

	if (m >= SS_BM_OP_MB_S(0) && m < SS_BM_OP_MB_S(SS_NR_DATA_OPS))
		return (double)x->op_bytes[m - SS_BM_OP_MB_S(0)] / 1e6 / w;
	if (m >= SS_BM_OP_IOPS(0) && m < SS_BM_OP_IOPS(SS_NR_DATA_OPS))
		return (double)x->op_ios[m - SS_BM_OP_IOPS(0)] / w;
	switch (m) {
	case SS_BM_MB_S: return (double)(x->read_bytes + x->write_bytes) / 1e6 / w;
	case SS_BM_IOPS: return (double)(x->reads + x->writes + x->discards + x->others) / w;
	case SS_BM_SEEKS_PER_S: return (double)x->seeks / w;
	case SS_BM_QUEUE_DEPTH: return x->depth_ns / (w * 1e9);
	case SS_BM_LAT_MEAN_US:
		return x->lat_count ? (double)x->lat_sum_ns / (double)x->lat_count / 1e3 : 0.0;
	case SS_BM_LAT_MAX_US: return (double)x->lat_max_ns / 1e3;
	case SS_BM_FLUSHES_PER_S: return (double)x->flushes / w;
	default: return 0.0;
	}
}

void ss_series_rolling(const double *in, double *out, size_t n, unsigned window)
{
	size_t left = window > 1 ? (window - 1) / 2 : 0, right = window > 1 ? window / 2 : 0;

	/* Each window summed afresh: series are short (hundreds of bins) and a running sum would
	 * leave -1e-17 residues where the signal drops to zero. */
	for (size_t i = 0; i < n; i++) {
		size_t lo = i > left ? i - left : 0;
		size_t hi = i + right + 1 < n ? i + right + 1 : n;
		double sum = 0;

		for (size_t j = lo; j < hi; j++)
			sum += in[j];
		out[i] = sum / (double)(hi - lo);
	}
}

void ss_bins_series(const struct ss_bins *b, enum ss_bin_metric m, unsigned rolling, double *out)
{
	size_t left, right;

	if (rolling <= 1) {
		for (size_t i = 0; i < b->n; i++)
			out[i] = ss_bins_value(b, i, m);
		return;
	}
	/* Recompute each window from the bins: no scratch array, no drift of a running sum. */
	left = (rolling - 1) / 2;
	right = rolling / 2;
	for (size_t i = 0; i < b->n; i++) {
		size_t lo = i > left ? i - left : 0;
		size_t hi = i + right + 1 < b->n ? i + right + 1 : b->n;
		double sum = 0;

		for (size_t j = lo; j < hi; j++)
			sum += ss_bins_value(b, j, m);
		out[i] = sum / (double)(hi - lo);
	}
}
