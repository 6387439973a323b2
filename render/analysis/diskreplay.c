// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One disk model per traced device, fed a whole trace's events (diskreplay.h).  The devices of
 * a trace are few (a disk, the members of an array), so the device of an event is found by a
 * scan that starts at the last one used.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "diskreplay.h"
#include "errbuf.h"
#include "seekscope/model.h"

struct replay_dev {
	uint32_t dev;
	uint64_t sectors;
	struct ss_disk_model *m;
};

struct ss_disk_replay {
	struct ss_disk_params p;
	struct replay_dev *devs;
	size_t nr, last;
	uint64_t ignored;          /* events of devices outside the trace's table */
};

/* The span to lay onto the platter: the recorded size, else the end of the last zone. */
static uint64_t device_span(const struct ss_trace *t, const struct ss_rec_device *d)
{
	uint64_t end = 0;

	if (d->nr_sectors)
		return d->nr_sectors;
	for (size_t i = 0; i < t->nr_zones; i++)
		if (t->zones[i].dev == d->dev &&
		    t->zones[i].start_sector + t->zones[i].nr_sectors > end)
			end = t->zones[i].start_sector + t->zones[i].nr_sectors;
	return end;
}

struct ss_disk_replay *ss_disk_replay_new(const struct ss_disk_params *p,
					  const struct ss_trace *t, char *err, size_t errlen)
{
	struct ss_disk_replay *r = calloc(1, sizeof(*r));
	int e = ENOMEM;

	if (!r)
		goto fail;
	r->p = *p;
	r->devs = calloc(t->nr_devices ? t->nr_devices : 1, sizeof(*r->devs));
	if (!r->devs)
		goto fail;
	for (size_t i = 0; i < t->nr_devices; i++) {
		const struct ss_rec_device *d = &t->devices[i];
		struct replay_dev *rd = &r->devs[r->nr];

		rd->dev = d->dev;
		rd->sectors = device_span(t, d);
		if (!rd->sectors) {
			ss_errf(err, errlen, "the size of device %u:%u is unknown (an imported trace), "
				"and the disk model lays the device onto the platter: add its "
				"filesystem's zones with 'seekscope convert IN -o OUT --fs DEV'",
				d->major, d->minor);
			e = EINVAL;
			goto fail;
		}
		rd->m = ss_disk_model_new(p, rd->sectors);
		if (!rd->m) {
			e = errno;
			if (e == EINVAL)
				ss_disk_params_check(p, err, errlen);
			else
				ss_errf(err, errlen, "%s", strerror(e));
			goto fail;
		}
		r->nr++;
	}
	return r;
fail:
	if (e == ENOMEM)
		ss_errf(err, errlen, "%s", strerror(e));
	ss_disk_replay_free(r);
	errno = e;
	return NULL;
}

void ss_disk_replay_free(struct ss_disk_replay *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr; i++)
		ss_disk_model_free(r->devs[i].m);
	free(r->devs);
	free(r);
}

static struct replay_dev *find(struct ss_disk_replay *r, uint32_t dev)
{
	if (r->last < r->nr && r->devs[r->last].dev == dev)
		return &r->devs[r->last];
	for (size_t i = 0; i < r->nr; i++)
		if (r->devs[i].dev == dev) {
			r->last = i;
			return &r->devs[i];
		}
	return NULL;
}

int ss_disk_replay_feed(struct ss_disk_replay *r, const struct ss_event *ev,
			struct ss_disk_cost *cost)
{
	struct replay_dev *d;

	if (cost)
		memset(cost, 0, sizeof(*cost));
	if (ev->type != SS_EV_ISSUE || !ss_event_has_data(ev))
		return 0;
	d = find(r, ev->dev);
	if (!d) {
		r->ignored++;
		return 0;
	}
	/* one model per device: -EXDEV cannot happen */
	return ss_disk_model_feed(d->m, ev, cost) == 1;
}

const struct ss_disk_params *ss_disk_replay_params(const struct ss_disk_replay *r)
{
	return &r->p;
}

void ss_disk_replay_result(const struct ss_disk_replay *r, struct ss_disk_result *res)
{
	memset(res, 0, sizeof(*res));
	for (size_t i = 0; i < r->nr; i++) {
		struct ss_disk_result d;

		ss_disk_model_result(r->devs[i].m, &d);
		ss_disk_cost_add(&res->time, &d.time);
		res->requests += d.requests;
		res->seeks += d.seeks;
		res->bytes += d.bytes;
		/* events of other types were filtered before the model saw them */
	}
	res->ignored = r->ignored;
}

uint64_t ss_disk_replay_device_sectors(const struct ss_disk_replay *r, uint32_t dev)
{
	for (size_t i = 0; i < r->nr; i++)
		if (r->devs[i].dev == dev)
			return r->devs[i].sectors;
	return 0;
}
