// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Log-bucket latency histogram (see lathist.h).  Layout: indexes 0..15 hold the values 0..15
 * exactly; above that, value v with e = floor(log2 v) >= 4 goes to 16 + (e-4)*16 + the four bits
 * below its leading one.  So a bucket's width is 1/16 of its lower bound.
 */
#include <math.h>
#include <string.h>

#include "lathist.h"

#define SUB_BITS 4u

void ss_lathist_init(struct ss_lathist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = UINT64_MAX;
}

unsigned ss_lathist_index(uint64_t v)
{
	unsigned e;

	if (v < SS_LATHIST_SUB)
		return (unsigned)v;
	e = 63u - (unsigned)__builtin_clzll(v);
	return SS_LATHIST_SUB + (e - SUB_BITS) * SS_LATHIST_SUB +
	       (unsigned)((v >> (e - SUB_BITS)) - SS_LATHIST_SUB);
}

uint64_t ss_lathist_bucket_low(unsigned idx)
{
	unsigned e, sub;

	if (idx < SS_LATHIST_SUB)
		return idx;
	if (idx >= SS_LATHIST_BUCKETS)
		idx = SS_LATHIST_BUCKETS - 1;
	e = (idx - SS_LATHIST_SUB) / SS_LATHIST_SUB + SUB_BITS;
	sub = (idx - SS_LATHIST_SUB) % SS_LATHIST_SUB;
	return (uint64_t)(SS_LATHIST_SUB + sub) << (e - SUB_BITS);
}

uint64_t ss_lathist_bucket_high(unsigned idx)
{
	unsigned e;

	if (idx < SS_LATHIST_SUB)
		return idx;
	if (idx >= SS_LATHIST_BUCKETS)
		idx = SS_LATHIST_BUCKETS - 1;
	e = (idx - SS_LATHIST_SUB) / SS_LATHIST_SUB + SUB_BITS;
	return ss_lathist_bucket_low(idx) + (((uint64_t)1 << (e - SUB_BITS)) - 1);
}

void ss_lathist_add(struct ss_lathist *h, uint64_t ns)
{
	h->bucket[ss_lathist_index(ns)]++;
	h->count++;
	h->sum_ns = h->sum_ns + ns < h->sum_ns ? UINT64_MAX : h->sum_ns + ns;
	if (ns < h->min_ns)
		h->min_ns = ns;
	if (ns > h->max_ns)
		h->max_ns = ns;
}

void ss_lathist_merge(struct ss_lathist *dst, const struct ss_lathist *src)
{
	if (!src->count)
		return;
	for (unsigned i = 0; i < SS_LATHIST_BUCKETS; i++)
		dst->bucket[i] += src->bucket[i];
	dst->count += src->count;
	dst->sum_ns = dst->sum_ns + src->sum_ns < dst->sum_ns ? UINT64_MAX
							       : dst->sum_ns + src->sum_ns;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
}

uint64_t ss_lathist_percentile(const struct ss_lathist *h, double p)
{
	uint64_t rank, seen = 0, lo, hi, mid;

	if (!h->count)
		return 0;
	if (!(p > 0))
		return h->min_ns;
	if (p >= 100)
		return h->max_ns;
	/* the epsilon keeps 99 % of 100 samples at rank 99 despite binary fractions */
	rank = (uint64_t)ceil(p * (double)h->count / 100.0 - 1e-9);
	if (rank < 1)
		rank = 1;
	if (rank > h->count)
		rank = h->count;
	for (unsigned i = 0; i < SS_LATHIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen < rank)
			continue;
		lo = ss_lathist_bucket_low(i);
		hi = ss_lathist_bucket_high(i);
		mid = lo + (hi - lo) / 2;
		if (mid < h->min_ns)
			mid = h->min_ns;
		if (mid > h->max_ns)
			mid = h->max_ns;
		return mid;
	}
	return h->max_ns;
}

double ss_lathist_mean(const struct ss_lathist *h)
{
	return h->count ? (double)h->sum_ns / (double)h->count : 0.0;
}
