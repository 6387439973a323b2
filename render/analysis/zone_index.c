// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Sector -> zone index (see zone_index.h).  Per device, the zone starts and ends cut the sector
 * axis into elementary intervals; inside one interval the set of containing zones is constant,
 * so the most specific zone is computed once per interval and a lookup is a binary search.
 */
#include <errno.h>
#include <stdlib.h>

#include "seekscope/model.h"
#include "zone_index.h"

struct zi_dev {
	uint32_t dev;
	size_t nb;             /* boundaries; intervals are [bound[k], bound[k+1]) */
	uint64_t *bound;
	long *best;            /* nb - 1 entries: zone index or -1 */
};

struct ss_zone_index {
	const struct ss_rec_zone *zones;
	struct zi_dev *devs;
	size_t nr_devs;
};

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static uint64_t zone_end(const struct ss_rec_zone *z)
{
	return z->start_sector + z->nr_sectors < z->start_sector ? UINT64_MAX
								  : z->start_sector + z->nr_sectors;
}

/* Largest k with bound[k] <= s, or -1. */
static long find_bound(const uint64_t *bound, size_t nb, uint64_t s)
{
	size_t lo = 0, hi = nb;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (bound[mid] <= s)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (long)lo - 1;
}

static int build_dev(struct ss_zone_index *zi, struct zi_dev *d, size_t n)
{
	size_t nb = 0;

	d->bound = malloc(2 * n * sizeof(*d->bound));
	if (!d->bound)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		const struct ss_rec_zone *z = &zi->zones[i];

		if (z->dev != d->dev || !z->nr_sectors)
			continue;
		d->bound[nb++] = z->start_sector;
		d->bound[nb++] = zone_end(z);
	}
	qsort(d->bound, nb, sizeof(*d->bound), cmp_u64);
	d->nb = 0;
	for (size_t i = 0; i < nb; i++)
		if (!d->nb || d->bound[d->nb - 1] != d->bound[i])
			d->bound[d->nb++] = d->bound[i];
	d->best = malloc((d->nb ? d->nb : 1) * sizeof(*d->best));
	if (!d->best)
		return -ENOMEM;
	for (size_t k = 0; k < d->nb; k++)
		d->best[k] = -1;
	for (size_t i = 0; i < n; i++) {
		const struct ss_rec_zone *z = &zi->zones[i];
		uint64_t end;
		long k;

		if (z->dev != d->dev || !z->nr_sectors)
			continue;
		end = zone_end(z);
		k = find_bound(d->bound, d->nb, z->start_sector);
		for (; k >= 0 && (size_t)k + 1 < d->nb && d->bound[k] < end; k++) {
			long b = d->best[k];

			/* model.h's rule; it wins strictly, so the first in file order keeps ties */
			if (b < 0 || ss_zone_wins(z, &zi->zones[b]))
				d->best[k] = (long)i;
		}
	}
	return 0;
}

struct ss_zone_index *ss_zone_index_new(const struct ss_rec_zone *zones, size_t n)
{
	struct ss_zone_index *zi = calloc(1, sizeof(*zi));
	int err = 0;

	if (!zi)
		return NULL;
	zi->zones = zones;
	if (n) {
		zi->devs = calloc(n, sizeof(*zi->devs));
		if (!zi->devs) {
			err = ENOMEM;
			goto error;
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t j;

		for (j = 0; j < zi->nr_devs && zi->devs[j].dev != zones[i].dev; j++)
			;
		if (j < zi->nr_devs)
			continue;
		zi->devs[zi->nr_devs].dev = zones[i].dev;
		if (build_dev(zi, &zi->devs[zi->nr_devs++], n)) {
			err = ENOMEM;
			goto error;
		}
	}
	return zi;
error:
	ss_zone_index_free(zi);
	errno = err;
	return NULL;
}

void ss_zone_index_free(struct ss_zone_index *zi)
{
	if (!zi)
		return;
	for (size_t i = 0; i < zi->nr_devs; i++) {
		free(zi->devs[i].bound);
		free(zi->devs[i].best);
	}
	free(zi->devs);
	free(zi);
}

/* The zone of SECTOR on DEV, and the interval [*LO, *HI) of sectors with the same answer. */
static long find(const struct ss_zone_index *zi, uint32_t dev, uint64_t sector, uint64_t *lo,
		 uint64_t *hi)
{
	*lo = 0;
	*hi = UINT64_MAX;
	for (size_t i = 0; i < zi->nr_devs; i++) {
		const struct zi_dev *d = &zi->devs[i];
		long k;

		if (d->dev != dev)
			continue;
		k = find_bound(d->bound, d->nb, sector);
		if (k >= 0)
			*lo = d->bound[k];
		if ((size_t)(k + 1) < d->nb)
			*hi = d->bound[k + 1];
		if (k < 0 || (size_t)k + 1 >= d->nb)
			return -1;
		return d->best[k];
	}
	return -1;
}

long ss_zone_index_find(const struct ss_zone_index *zi, uint32_t dev, uint64_t sector)
{
	uint64_t lo, hi;

	return find(zi, dev, sector, &lo, &hi);
}

long ss_zone_index_find_hint(const struct ss_zone_index *zi, uint32_t dev, uint64_t sector,
			     struct ss_zone_hint *h)
{
	if (h->dev == dev && h->lo <= sector && sector < h->hi)
		return h->zone;
	h->dev = dev;
	h->zone = find(zi, dev, sector, &h->lo, &h->hi);
	return h->zone;
}
