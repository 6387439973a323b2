// SPDX-License-Identifier: GPL-2.0-or-later
/* Seek causes (seekcause.h): the previous request per device, the matrices, the zone pairs in
 * an open-addressing table of twice their bound, allocated at the first far seek (a trace
 * without one, or a statistics pass over a few events, pays for no 256 KiB table). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "seek.h"
#include "seekcause.h"

#define SLOTS (2 * SS_CAUSE_ZONE_PAIRS)

struct cause_dev {
	uint32_t dev;
	bool has_prev;
	uint8_t prev;              /* class of the previous evaluated request */
	long prev_zone;
	struct ss_cause_matrix m;
};

struct ss_seek_causes {
	struct ss_cause_matrix total;
	struct cause_dev *devs;    /* few devices: a linear scan, the last hit first */
	size_t nr_devs, cap_devs, last;
	struct ss_cause_zone_pair *slot;  /* SLOTS entries; seeks == 0: free; NULL: no pair yet */
	struct ss_cause_zone_pair *last_pair;  /* the last one counted (runs of one pair) */
	size_t nr_pairs;
	uint64_t dropped;
	struct ss_cause_zone_pair *sorted; /* nr_pairs entries once sorted */
	bool is_sorted;
};

static const struct ss_cause_matrix empty_matrix;

struct ss_seek_causes *ss_seek_causes_new(void)
{
	/* it may be fed in another thread than the objects allocated around it (lines.h) */
	return ss_lines_alloc(sizeof(struct ss_seek_causes));
}

/* The zone pairs' table and their sorted copy, at the first pair: 0 or -ENOMEM. */
static int alloc_pairs(struct ss_seek_causes *sc)
{
	sc->slot = calloc(SLOTS, sizeof(*sc->slot));
	sc->sorted = malloc(SS_CAUSE_ZONE_PAIRS * sizeof(*sc->sorted));
	if (sc->slot && sc->sorted)
		return 0;
	free(sc->slot);
	free(sc->sorted);
	sc->slot = sc->sorted = NULL;
	return -ENOMEM;
}

void ss_seek_causes_free(struct ss_seek_causes *sc)
{
	if (!sc)
		return;
	free(sc->devs);
	free(sc->slot);
	free(sc->sorted);
	free(sc);
}

static struct cause_dev *find_dev(struct ss_seek_causes *sc, uint32_t dev, bool create)
{
	if (sc->last < sc->nr_devs && sc->devs[sc->last].dev == dev)
		return &sc->devs[sc->last];
	for (size_t i = 0; i < sc->nr_devs; i++)
		if (sc->devs[i].dev == dev) {
			sc->last = i;
			return &sc->devs[i];
		}
	if (!create)
		return NULL;
	if (sc->nr_devs == sc->cap_devs) {
		size_t cap = sc->cap_devs ? 2 * sc->cap_devs : 4;
		struct cause_dev *d = realloc(sc->devs, cap * sizeof(*d));

		if (!d)
			return NULL;
		sc->devs = d;
		sc->cap_devs = cap;
	}
	memset(&sc->devs[sc->nr_devs], 0, sizeof(sc->devs[0]));
	sc->devs[sc->nr_devs].dev = dev;
	sc->last = sc->nr_devs++;
	return &sc->devs[sc->last];
}

static void add_cell(struct ss_cause_matrix *m, unsigned from, unsigned to, bool across)
{
	m->seeks++;
	m->n[from][to]++;
	m->across[from][to] += across;
}

static void add_zone_pair(struct ss_seek_causes *sc, uint8_t from, long fz, uint8_t to, long tz)
{
	struct ss_cause_zone_pair *p = sc->last_pair;
	uint64_t h;
	size_t i;

	sc->is_sorted = false;
	if (p && p->from == from && p->to == to && p->from_zone == fz && p->to_zone == tz) {
		p->seeks++;
		return;
	}
	h = ((uint64_t)(uint32_t)fz * 0x9E3779B97F4A7C15ull) ^
	    ((uint64_t)(uint32_t)tz * 0xC2B2AE3D27D4EB4Full) ^ ((uint64_t)from << 8 | to);
	i = (size_t)((h ^ h >> 29) % SLOTS);
	for (;; i = (i + 1) % SLOTS) {
		p = &sc->slot[i];
		if (!p->seeks) {
			if (sc->nr_pairs >= SS_CAUSE_ZONE_PAIRS) {
				sc->dropped++;
				return;
			}
			*p = (struct ss_cause_zone_pair){ from, to, fz, tz, 1 };
			sc->nr_pairs++;
			sc->last_pair = p;
			return;
		}
		if (p->from == from && p->to == to && p->from_zone == fz && p->to_zone == tz) {
			p->seeks++;
			sc->last_pair = p;
			return;
		}
	}
}

int ss_seek_causes_feed(struct ss_seek_causes *sc, const struct ss_event *ev, enum ss_class cls,
			long zone, int verdict, bool count)
{
	struct cause_dev *d;

	if (verdict == SS_SEEK_IGNORED || verdict < 0)
		return 0;
	if (!(d = find_dev(sc, ev->dev, true)))
		return -ENOMEM;
	if (verdict == SS_SEEK_FAR && count && d->has_prev) {
		bool across = d->prev_zone != zone;

		if (!sc->slot && alloc_pairs(sc))
			return -ENOMEM;

		add_cell(&d->m, d->prev, cls, across);
		add_cell(&sc->total, d->prev, cls, across);
		add_zone_pair(sc, d->prev, d->prev_zone, (uint8_t)cls, zone);
	}
	d->has_prev = true;
	d->prev = (uint8_t)cls;
	d->prev_zone = zone;
	return 0;
}

const struct ss_cause_matrix *ss_seek_causes_total(const struct ss_seek_causes *sc)
{
	return &sc->total;
}

const struct ss_cause_matrix *ss_seek_causes_device(const struct ss_seek_causes *sc, uint32_t dev)
{
	for (size_t i = 0; i < sc->nr_devs; i++)
		if (sc->devs[i].dev == dev)
			return &sc->devs[i].m;
	return &empty_matrix;
}

static int cmp_pair(const void *a, const void *b)
{
	const struct ss_cause_zone_pair *x = a, *y = b;

	if (x->seeks != y->seeks)
		return x->seeks > y->seeks ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	if (x->from_zone != y->from_zone)
		return x->from_zone < y->from_zone ? -1 : 1;
	return (x->to_zone > y->to_zone) - (x->to_zone < y->to_zone);
}

void ss_seek_causes_finish(struct ss_seek_causes *sc)
{
	size_t k = 0;

	for (size_t i = 0; sc->slot && i < SLOTS && k < sc->nr_pairs; i++)
		if (sc->slot[i].seeks)
			sc->sorted[k++] = sc->slot[i];
	if (k)
		qsort(sc->sorted, k, sizeof(*sc->sorted), cmp_pair);
	sc->is_sorted = true;
}

const struct ss_cause_zone_pair *ss_seek_causes_zone_pairs(const struct ss_seek_causes *sc,
							   size_t *n)
{
	*n = sc->is_sorted ? sc->nr_pairs : 0;
	return sc->sorted;
}

uint64_t ss_seek_causes_zone_pairs_dropped(const struct ss_seek_causes *sc)
{
	return sc->dropped;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct ss_cause_cell *x = a, *y = b;

	if (x->seeks != y->seeks)
		return x->seeks > y->seeks ? -1 : 1;
	if (x->from != y->from)
		return x->from < y->from ? -1 : 1;
	return (x->to > y->to) - (x->to < y->to);
}

size_t ss_cause_cells(const struct ss_cause_matrix *m, struct ss_cause_cell *out, size_t max)
{
	size_t k = 0;

	for (unsigned f = 0; f < SS_NR_CLASSES; f++)
		for (unsigned t = 0; t < SS_NR_CLASSES; t++)
			if (m->n[f][t] && k < max)
				out[k++] = (struct ss_cause_cell){ (uint8_t)f, (uint8_t)t, m->n[f][t],
								   m->across[f][t] };
	qsort(out, k, sizeof(*out), cmp_cell);
	return k;
}
