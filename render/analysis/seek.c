// SPDX-License-Identifier: GPL-2.0-or-later
/* Seek detection per device (see seek.h for the definition) and the seek-distance histogram. */
#include <errno.h>
#include <stdlib.h>

#include "lines.h"
#include "seekscope/model.h"
#include "seek.h"

struct seek_dev {
	uint32_t dev;
	uint64_t end;          /* sector just past the previous I/O */
};

struct ss_seek {
	uint64_t threshold;
	struct seek_dev *devs; /* few devices (one, or the members of an array): a linear scan */
	size_t nr, cap;
	size_t last;           /* index of the last device hit: consecutive events share it */
};

struct ss_seek *ss_seek_new(uint64_t threshold)
{
	/* on lines of its own, as its devices: a read-ahead thread may judge seeks while another
	 * thread writes what is allocated around them (lines.h) */
	struct ss_seek *s = ss_lines_alloc(sizeof(*s));

	if (!s)
		return NULL;
	s->threshold = threshold;
	return s;
}

void ss_seek_free(struct ss_seek *s)
{
	if (!s)
		return;
	free(s->devs);
	free(s);
}

void ss_seek_reset(struct ss_seek *s)
{
	s->nr = 0;
	s->last = 0;
}

uint64_t ss_seek_threshold(const struct ss_seek *s)
{
	return s->threshold;
}

static struct seek_dev *find_dev(struct ss_seek *s, uint32_t dev, bool *is_new)
{
	*is_new = false;
	if (s->last < s->nr && s->devs[s->last].dev == dev)
		return &s->devs[s->last];
	for (size_t i = 0; i < s->nr; i++)
		if (s->devs[i].dev == dev) {
			s->last = i;
			return &s->devs[i];
		}
	if (s->nr == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 4;
		struct seek_dev *d = ss_lines_grow(s->devs, s->cap * sizeof(*d), cap * sizeof(*d));

		if (!d)
			return NULL;
		s->devs = d;
		s->cap = cap;
	}
	s->devs[s->nr].dev = dev;
	s->devs[s->nr].end = 0;
	s->last = s->nr++;
	*is_new = true;
	return &s->devs[s->last];
}

int ss_seek_feed(struct ss_seek *s, const struct ss_event *ev, int64_t *distance)
{
	struct seek_dev *d;
	bool is_new;
	int64_t dist;
	uint64_t mag;

	if (distance)
		*distance = 0;
	if (ev->type != SS_EV_ISSUE || !ss_event_has_data(ev) ||
	    !ss_ops[ss_op_of(ev->flags, true)].seeks)
		return SS_SEEK_IGNORED;
	d = find_dev(s, ev->dev, &is_new);
	if (!d)
		return -ENOMEM;
	/* two's-complement difference: exact for any pair of sectors below 2^63 */
	dist = (int64_t)(ev->sector - d->end);
	mag = ev->sector >= d->end ? ev->sector - d->end : d->end - ev->sector;
	d->end = ev->sector + ev->nr_sector;
	if (is_new)
		return SS_SEEK_FIRST;
	if (distance)
		*distance = dist;
	return mag > s->threshold ? SS_SEEK_FAR : SS_SEEK_NEAR;
}

unsigned ss_seek_hist_bucket(int64_t d)
{
	uint64_t m = d < 0 ? (uint64_t)0 - (uint64_t)d : (uint64_t)d;

	return m ? 64u - (unsigned)__builtin_clzll(m) : 0u;
}

void ss_seek_hist_add(struct ss_seek_hist *h, int64_t d)
{
	unsigned b = ss_seek_hist_bucket(d);

	if (d < 0)
		h->neg[b]++;
	else
		h->pos[b]++;
	h->count++;
}

uint64_t ss_seek_hist_bucket_low(unsigned b)
{
	if (b == 0)
		return 0;
	if (b > 64)
		b = 64;
	return (uint64_t)1 << (b - 1);
}
