// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics pass over a trace whose metadata is pending (stats_priv.h: deferred; trace_read.h:
 * ss_trace_open_lazy): its devices found as their events come, then given the trace's order,
 * records and period once the pass has ended.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats_priv.h"

struct ss_device_stats *ss_stats_add_device(struct ss_stats *st, uint32_t dev)
{
	size_t i = st->nr_devs;

	if (i == st->cap_devs) {
		size_t n = i ? 2 * i : 4;
		struct ss_device_stats *d = reallocarray(st->devs, n, sizeof(*d));
		struct ss_rec_device *r;
		uint64_t *now;

		if (d)
			st->devs = d;
		r = d ? reallocarray(st->dev_recs, n, sizeof(*r)) : NULL;
		if (r) {                /* the records moved: the devices follow them now */
			st->dev_recs = r;
			for (size_t k = 0; k < i; k++)
				st->devs[k].device = &st->dev_recs[k];
		}
		now = r ? reallocarray(st->dev_now, n, sizeof(*now)) : NULL;
		if (!now) {
			st->deferred_err = -ENOMEM;
			return NULL;
		}
		st->dev_now = now;
		st->cap_devs = n;
	}
	memset(&st->dev_recs[i], 0, sizeof(st->dev_recs[i]));
	st->dev_recs[i].dev = dev;
	st->devs[i].device = &st->dev_recs[i];
	summary_init(&st->devs[i].s, 0, 0);
	st->dev_now[i] = st->now;
	st->nr_devs = i + 1;
	st->dev_mirror = i == 0;
	st->last_dev = i;
	return &st->devs[i];
}

int ss_stats_bind_devices(struct ss_stats *st)
{
	const struct ss_trace *t = st->t;
	struct ss_device_stats *devs;
	uint64_t start, end, *now;

	if (st->deferred_err)
		return st->deferred_err;
	if (ss_trace_meta_pending(t) || st->nr_devs != t->nr_devices)
		return -EAGAIN;
	ss_stats_trace_period(t, &start, &end);
	st->total.start_ns = start;
	st->total.end_ns = end;
	devs = calloc(st->nr_devs ? st->nr_devs : 1, sizeof(*devs));
	now = calloc(st->nr_devs ? st->nr_devs : 1, sizeof(*now));
	if (!devs || !now) {
		free(devs);
		free(now);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->nr_devices; i++) {
		size_t j = 0;

		while (j < st->nr_devs && st->dev_recs[j].dev != t->devices[i].dev)
			j++;
		if (j == st->nr_devs) {
			free(devs);
			free(now);
			return -EAGAIN;
		}
		devs[i] = st->devs[j];
		devs[i].device = &t->devices[i];
		devs[i].s.start_ns = start;
		devs[i].s.end_ns = end;
		now[i] = st->dev_now[j];
	}
	free(st->devs);
	free(st->dev_now);
	free(st->dev_recs);
	st->devs = devs;
	st->dev_now = now;
	st->dev_recs = NULL;
	st->last_dev = 0;
	st->deferred = false;
	return 0;
}

