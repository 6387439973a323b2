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
		struct dev_clock *clk;

		if (d)
			st->devs = d;
		r = d ? reallocarray(st->dev_recs, n, sizeof(*r)) : NULL;
		if (r) {                /* the records moved: the devices follow them now */
			st->dev_recs = r;
			for (size_t k = 0; k < i; k++)
				st->devs[k].device = &st->dev_recs[k];
		}
		clk = r ? reallocarray(st->dev_clk, n, sizeof(*clk)) : NULL;
		if (!clk) {
			st->deferred_err = -ENOMEM;
			return NULL;
		}
		st->dev_clk = clk;
		st->cap_devs = n;
	}
	memset(&st->dev_recs[i], 0, sizeof(st->dev_recs[i]));
	st->dev_recs[i].dev = dev;
	st->devs[i].device = &st->dev_recs[i];
	summary_init(&st->devs[i].s, 0, 0);
	st->dev_clk[i] = (struct dev_clock){ .now = st->now };
	st->nr_devs = i + 1;
	st->dev_mirror = i == 0;
	st->last_dev = i;
	st->last_dev_no = dev;
	return &st->devs[i];
}

int ss_stats_bind_devices(struct ss_stats *st)
{
	const struct ss_trace *t = st->t;
	struct ss_device_stats *devs;
	struct dev_clock *clk;
	uint64_t start, end;

	if (st->deferred_err)
		return st->deferred_err;
	if (ss_trace_meta_pending(t) || st->nr_devs != t->nr_devices)
		return -EAGAIN;
	ss_stats_trace_period(t, &start, &end);
	st->total.start_ns = start;
	st->total.end_ns = end;
	devs = calloc(st->nr_devs ? st->nr_devs : 1, sizeof(*devs));
	clk = calloc(st->nr_devs ? st->nr_devs : 1, sizeof(*clk));
	if (!devs || !clk) {
		free(devs);
		free(clk);
		return -ENOMEM;
	}
	for (size_t i = 0; i < t->nr_devices; i++) {
		size_t j = 0;

		while (j < st->nr_devs && st->dev_recs[j].dev != t->devices[i].dev)
			j++;
		if (j == st->nr_devs) {
			free(devs);
			free(clk);
			return -EAGAIN;
		}
		devs[i] = st->devs[j];
		devs[i].device = &t->devices[i];
		devs[i].s.start_ns = start;
		devs[i].s.end_ns = end;
		clk[i] = st->dev_clk[j];
	}
	free(st->devs);
	free(st->dev_clk);
	free(st->dev_recs);
	st->devs = devs;
	st->dev_clk = clk;
	st->dev_recs = NULL;
	st->last_dev = 0;
	st->last_dev_no = st->nr_devs ? devs[0].device->dev : 0;
	st->deferred = false;
	return 0;
}

