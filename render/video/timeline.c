// SPDX-License-Identifier: GPL-2.0-or-later
/* A movie's clock: frames → slices of trace time, idle runs shortened (timeline.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

typedef unsigned __int128 u128;

/* Start of bin I of NBINS over [lo, hi]: lo + ceil(span * i / nbins), so that bin_of's floor
 * puts every t in [bin_lo(i), bin_lo(i + 1)) into bin i. */
static uint64_t bin_lo(uint64_t lo, uint64_t hi, uint32_t nbins, uint32_t i)
{
	u128 x = (u128)(hi - lo) * i;

	return lo + (uint64_t)((x + nbins - 1) / nbins);
}

uint32_t ss_timeline_bin_of(uint64_t lo, uint64_t hi, uint32_t nbins, uint64_t t)
{
	u128 b;

	if (t <= lo || hi <= lo)
		return 0;
	b = (u128)(t - lo) * nbins / (hi - lo);
	return b >= nbins ? nbins - 1 : (uint32_t)b;
}

int ss_timeline_init(struct ss_timeline *tl, uint64_t lo, uint64_t hi, const uint8_t *busy,
		     uint32_t nbins)
{
	uint32_t i = 0;

	memset(tl, 0, sizeof(*tl));
	tl->lo = lo;
	tl->hi = hi > lo ? hi : lo + 1;
	tl->frames = 1;
	tl->nbins = busy && nbins ? nbins : 1;
	tl->kept = calloc(tl->nbins, sizeof(*tl->kept));
	tl->cum = calloc((size_t)tl->nbins + 1, sizeof(*tl->cum));
	if (!tl->kept || !tl->cum) {
		ss_timeline_fini(tl);
		return -ENOMEM;
	}
	while (i < tl->nbins) {
		uint32_t end = i + 1, keep;
		uint64_t run, kept_ns = 0;

		if (!busy || busy[i]) {
			tl->kept[tl->nkept++] = i++;
			continue;
		}
		while (end < tl->nbins && !busy[end])
			end++;
		run = bin_lo(tl->lo, tl->hi, tl->nbins, end) - bin_lo(tl->lo, tl->hi, tl->nbins, i);
		/* an idle run keeps its first SS_IDLE_KEEP_NS (whole bins, one at least) */
		for (keep = 0; i + keep < end && (keep == 0 || kept_ns < SS_IDLE_KEEP_NS); keep++)
			kept_ns += bin_lo(tl->lo, tl->hi, tl->nbins, i + keep + 1) -
				   bin_lo(tl->lo, tl->hi, tl->nbins, i + keep);
		if (run <= SS_IDLE_MIN_NS)
			keep = end - i;
		for (uint32_t k = 0; k < keep; k++)
			tl->kept[tl->nkept++] = i + k;
		i = end;
	}
	for (uint32_t j = 0; j < tl->nkept; j++)
		tl->cum[j + 1] = tl->cum[j] + bin_lo(tl->lo, tl->hi, tl->nbins, tl->kept[j] + 1) -
				 bin_lo(tl->lo, tl->hi, tl->nbins, tl->kept[j]);
	return 0;
}

void ss_timeline_fini(struct ss_timeline *tl)
{
	free(tl->kept);
	free(tl->cum);
	tl->kept = NULL;
	tl->cum = NULL;
	tl->nkept = 0;
}

uint64_t ss_timeline_shown(const struct ss_timeline *tl)
{
	return tl->cum[tl->nkept];
}

void ss_timeline_set_frames(struct ss_timeline *tl, int64_t frames)
{
	tl->frames = frames > 0 ? frames : 1;
}

/* Shown time before frame K (0 <= k <= frames). */
static uint64_t shown_before(const struct ss_timeline *tl, int64_t k)
{
	return (uint64_t)((u128)ss_timeline_shown(tl) * (uint64_t)k / (uint64_t)tl->frames);
}

uint64_t ss_timeline_at(const struct ss_timeline *tl, int64_t k)
{
	uint64_t u;
	uint32_t a = 0, b = tl->nkept;

	if (k <= 0)
		return tl->lo;
	if (k >= tl->frames)
		return tl->hi;
	u = shown_before(tl, k);
	/* the last kept bin j with cum[j] <= u */
	while (b - a > 1) {
		uint32_t mid = a + (b - a) / 2;

		if (tl->cum[mid] <= u)
			a = mid;
		else
			b = mid;
	}
	return bin_lo(tl->lo, tl->hi, tl->nbins, tl->kept[a]) + (u - tl->cum[a]);
}

uint64_t ss_timeline_skipped_before(const struct ss_timeline *tl, int64_t k)
{
	if (k > tl->frames)
		k = tl->frames;
	return ss_timeline_at(tl, k) - tl->lo - shown_before(tl, k < 0 ? 0 : k);
}
