// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Latency histogram with logarithmic buckets (HDR-style): exact below 16 ns, then 16 linear
 * sub-buckets per power of two, so any percentile is within 1/16 (6.25 %) of the true value
 * while memory stays fixed (SS_LATHIST_BUCKETS counters) however many latencies are added.
 * Count, sum, min and max are exact.  Values are nanoseconds.  Nothing here allocates.
 */
#ifndef SS_LATHIST_H
#define SS_LATHIST_H

#include <stdint.h>

#define SS_LATHIST_SUB      16u                       /* sub-buckets per power of two */
#define SS_LATHIST_BUCKETS  (SS_LATHIST_SUB * 61u)    /* covers 0 .. 2^64-1 ns */

struct ss_lathist {
	uint64_t count;
	uint64_t sum_ns;       /* saturates at UINT64_MAX */
	uint64_t min_ns;       /* UINT64_MAX while empty */
	uint64_t max_ns;
	uint64_t bucket[SS_LATHIST_BUCKETS];
};

void ss_lathist_init(struct ss_lathist *h);
void ss_lathist_add(struct ss_lathist *h, uint64_t ns);
/* Add every sample of src into dst. */
void ss_lathist_merge(struct ss_lathist *dst, const struct ss_lathist *src);
/*
 * Percentile p in [0, 100] by nearest rank (the smallest value with at least p % of the samples
 * at or below it), reported as the middle of its bucket clamped to [min, max]; p = 100 gives
 * the exact max, p = 0 the exact min.  0 when empty.
 */
uint64_t ss_lathist_percentile(const struct ss_lathist *h, double p);
/* Mean in ns (0 when empty). */
double ss_lathist_mean(const struct ss_lathist *h);

/* Bucket layout, for plotting the distribution: index of a value and a bucket's [low, high]. */
unsigned ss_lathist_index(uint64_t ns);
uint64_t ss_lathist_bucket_low(unsigned idx);
uint64_t ss_lathist_bucket_high(unsigned idx);

#endif
