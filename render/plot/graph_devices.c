// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One sector panel per device: a trace recorded on several devices (record -d A -d B, an
 * import of several) gets an io panel for each, with its own offset axis, its own zones and
 * labels and a title naming it; --device keeps one.  The seeks, throughput and IOPS series
 * draw a line per device (panel_series.c); latency and queue depth combine them.
 * See graph_int.h.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "graph_int.h"
#include "panel.h"
#include "zones.h"

/* Index of DEV among DEVS; 0 when there are none (all I/O in one slot); -1. */
static int slot_of(const uint32_t *devs, int nr_devs, uint32_t dev)
{
	if (!nr_devs)
		return 0;
	for (int k = 0; k < nr_devs; k++)
		if (devs[k] == dev)
			return k;
	return -1;
}

int ss_graph_busy_ranges(const struct ss_graph_busy *src, int nr, int slots, uint64_t *lo,
			 uint64_t *hi, char *err, size_t errlen)
{
	uint64_t a[SS_GRAPH_MAX_PANELS], b[SS_GRAPH_MAX_PANELS];

	for (int k = 0; k < slots; k++) {
		a[k] = UINT64_MAX;
		b[k] = 0;
	}
	for (int i = 0; i < nr; i++) {
		const struct ss_graph_busy *s = &src[i];
		const struct ss_event *ev;
		size_t n;
		int ret, k;

		if (s->t->has_extents && s->from <= s->t->first_ts && s->to >= s->t->last_ts) {
			/* every event is in the window: what the reader found on opening */
			for (size_t x = 0; x < s->t->nr_extents; x++) {
				const struct ss_extent *e = &s->t->extents[x];

				if ((k = slot_of(s->devs, s->nr_devs, e->dev)) < 0 || k >= slots)
					continue;
				if (e->lo < a[k])
					a[k] = e->lo;
				if (e->hi > b[k])
					b[k] = e->hi;
			}
			continue;
		}
		ss_trace_rewind(s->t);
		while ((ret = ss_trace_next_batch(s->t, &ev, &n)) > 0) {
			for (size_t e = 0; e < n; e++) {
				if (ev[e].type != SS_EV_ISSUE || !ss_event_has_data(&ev[e]) ||
				    ev[e].ts_ns < s->from || ev[e].ts_ns > s->to ||
				    (k = slot_of(s->devs, s->nr_devs, ev[e].dev)) < 0 || k >= slots)
					continue;
				if (ev[e].sector < a[k])
					a[k] = ev[e].sector;
				if (ev[e].sector + ev[e].nr_sector > b[k])
					b[k] = ev[e].sector + ev[e].nr_sector;
			}
		}
		if (ret < 0) {
			ss_errf(err, errlen, "%s: %s", s->t->path, ss_trace_error(s->t));
			return ret;
		}
	}
	for (int k = 0; k < slots; k++) {
		/* a little air above and below so the extreme I/Os do not sit on the frame */
		uint64_t pad = a[k] < b[k] ? (b[k] - a[k]) / 40 + 8 : 0;

		lo[k] = a[k] >= b[k] ? 0 : a[k] > pad ? a[k] - pad : 0;
		hi[k] = a[k] >= b[k] ? 2048 : b[k] + pad;
	}
	return 0;
}

/* Device slots (rows per sector panel) for traces with these many devices. */
int ss_graph_device_slots(const struct ss_graph_opts *o, const size_t *nr_devices, int n)
{
	size_t slots = 1;

	for (int i = 0; i < n && !o->device; i++)
		if (nr_devices[i] > slots)
			slots = nr_devices[i];
	return slots > SS_GRAPH_MAX_PANELS ? SS_GRAPH_MAX_PANELS : (int)slots;
}

int ss_graph_rows_for(const struct ss_graph_opts *o, struct ss_trace *const *t, int n)
{
	size_t nd[SS_GRAPH_MAX_TRACES];
	int rows = 0, slots;

	for (int i = 0; i < n && i < SS_GRAPH_MAX_TRACES; i++)
		nd[i] = t[i]->nr_devices;
	slots = ss_graph_device_slots(o, nd, n < SS_GRAPH_MAX_TRACES ? n : SS_GRAPH_MAX_TRACES);

	for (int p = 0; p < o->nr_panels; p++)
		rows += o->panels[p] && o->panels[p]->sector_y ? slots : 1;
	return rows;
}

/* Each sector panel once per device slot: one io panel per device, its own offset axis. */
int ss_graph_expand_rows(struct ss_graph *g, int slots, char *err, size_t errlen)
{
	const struct ss_panel_ops *ops[SS_GRAPH_MAX_PANELS];
	int slot[SS_GRAPH_MAX_PANELS], n = 0;

	for (int p = 0; p < g->nr_panels; p++)
		for (int k = 0; k < (g->ops[p]->sector_y ? slots : 1); k++) {
			if (n >= SS_GRAPH_MAX_PANELS) {
				ss_errf(err, errlen, "a panel per device of %d devices and the other "
					"panels make more than %d rows: pick a device with --device or "
					"fewer --panels", slots, SS_GRAPH_MAX_PANELS);
				return -E2BIG;
			}
			ops[n] = g->ops[p];
			slot[n++] = g->ops[p]->sector_y ? k : -1;
		}
	memcpy(g->ops, ops, sizeof(ops[0]) * (size_t)n);
	memcpy(g->slot, slot, sizeof(slot[0]) * (size_t)n);
	g->nr_panels = n;
	return 0;
}

/* Column C's device in row P: *one false when the row shows all of it (no device named). */
void ss_graph_row_device(const struct ss_graph *g, const struct ss_graph_col *c, int p,
			 bool *one, uint32_t *dev)
{
	int k = g->slot[p];

	*one = k >= 0 && c->nr_devs > 0;
	*dev = k >= 0 && k < c->nr_devs ? c->devs[k] : UINT32_MAX;   /* none: nothing drawn */
}

/* The devices of trace T's io panels: the --device one (-ENODEV when T lacks it), or each of
 * the trace's (none: all of its I/O in one panel). */
static int trace_devices(const struct ss_graph_opts *o, const struct ss_trace *t,
			 const char *label, uint32_t *devs, int *nr, char *err, size_t errlen)
{
	*nr = 0;
	if (o->device) {
		const struct ss_rec_device *d = ss_trace_find_device(t, o->device);

		if (!d) {
			ss_errf(err, errlen, "%s has no device \"%s\"", label, o->device);
			return -ENODEV;
		}
		devs[(*nr)++] = d->dev;
		return 0;
	}
	for (size_t i = 0; i < t->nr_devices && *nr < SS_GRAPH_MAX_PANELS; i++)
		devs[(*nr)++] = t->devices[i].dev;
	return 0;
}

/* Sectors [lo, hi) of slot K's zones in every trace (a trace without devices: all of its
 * zones); false when none has any.  -ENOMEM. */
static int slot_zones(const struct ss_graph_devplan *p, struct ss_trace *const *tr, int nr,
		      int k, uint64_t *lo, uint64_t *hi)
{
	bool any = false;

	for (int i = 0; i < nr; i++) {
		bool one = p->nr_devs[i] > 0, have;
		struct ss_rec_zone *owned = NULL;
		struct ss_trace view;
		uint64_t a, b;

		if (one && k >= p->nr_devs[i])
			continue;          /* no device K in this trace: nothing of it shows */
		if (one && ss_zones_device_view(tr[i], p->devs[i][k], &view, &owned))
			return -ENOMEM;
		have = ss_zones_range(one ? &view : tr[i], &a, &b);
		free(owned);
		if (!have)
			continue;
		if (!any || a < *lo)
			*lo = a;
		if (!any || b > *hi)
			*hi = b;
		any = true;
	}
	return any;
}

int ss_graph_devplan(const struct ss_graph_opts *o, struct ss_trace *const *tr,
		     const char *const *labels, int nr, const struct ss_graph_window *w,
		     struct ss_graph_devplan *p, char *err, size_t errlen)
{
	size_t nd[SS_GRAPH_MAX_TRACES];
	uint64_t blo[SS_GRAPH_MAX_PANELS], bhi[SS_GRAPH_MAX_PANELS];
	bool busy_done = false;
	int ret;

	memset(p, 0, sizeof(*p));
	for (int i = 0; i < nr; i++) {
		if ((ret = trace_devices(o, tr[i], labels ? labels[i] : tr[i]->path, p->devs[i],
					 &p->nr_devs[i], err, errlen)))
			return ret;
		nd[i] = (size_t)p->nr_devs[i];
	}
	p->slots = ss_graph_device_slots(o, nd, nr);
	/* asked for, else every zone of the slot's devices (all AGs show), else where their I/O
	 * was in the shown time (one pass) */
	for (int k = 0; k < p->slots; k++) {
		if (o->has_y_range) {
			p->y_lo[k] = o->y_lo;
			p->y_hi[k] = o->y_hi;
			continue;
		}
		if ((ret = slot_zones(p, tr, nr, k, &p->y_lo[k], &p->y_hi[k])) < 0)
			return ret;
		if (ret)
			continue;
		if (!busy_done) {
			struct ss_graph_busy src[SS_GRAPH_MAX_TRACES];

			for (int i = 0; i < nr; i++)
				src[i] = (struct ss_graph_busy){ tr[i], w->t0[i] + w->x_lo,
								 w->t0[i] + w->x_hi, p->devs[i],
								 p->nr_devs[i] };
			if ((ret = ss_graph_busy_ranges(src, nr, p->slots, blo, bhi, err, errlen)))
				return ret;
			busy_done = true;
		}
		p->y_lo[k] = blo[k];
		p->y_hi[k] = bhi[k];
	}
	return 0;
}

static const struct ss_rec_device *dev_rec(const struct ss_trace *t, uint32_t dev)
{
	for (size_t i = 0; i < t->nr_devices; i++)
		if (t->devices[i].dev == dev)
			return &t->devices[i];
	return NULL;
}

/* "loop1 xfs 2.0 GiB, 4 AGs": device D (NULL: the trace names none) and its own zones. */
static void device_summary(const struct ss_trace *t, const struct ss_rec_device *d, char *buf,
			   size_t len)
{
	size_t ags = 0, groups = 0;
	int n = 0;

	buf[0] = 0;
	for (size_t i = 0; i < t->nr_zones; i++) {
		if (d && t->zones[i].dev != d->dev)
			continue;
		ags += t->zones[i].kind == SS_ZONE_AG;
		groups += t->zones[i].kind == SS_ZONE_GROUP;
	}
	if (d) {
		uint64_t size = d->part_nr_sectors ? d->part_nr_sectors : d->nr_sectors;

		/* imported traces know devices by number only: no size then */
		n = snprintf(buf, len, "%s%s%s", d->part_name[0] ? d->part_name : d->name,
			     d->fstype[0] ? " " : "", d->fstype);
		if (size && n >= 0 && (size_t)n < len)
			n += snprintf(buf + n, len - (size_t)n, " %.1f GiB",
				      (double)size / 2097152.0);
	}
	if (n >= 0 && (size_t)n < len && (ags || groups))
		snprintf(buf + n, len - (size_t)n, "%s%zu %s", n ? ", " : "", ags ? ags : groups,
			 ags ? "AGs" : "groups");
}

/* The column header's device text: its one device, or the list of its devices (each has
 * its own io panel, the time series combine them). */
void ss_graph_devices_text(const struct ss_graph_col *c, char *buf, size_t len)
{
	size_t n;

	if (c->nr_devs <= 1) {
		device_summary(c->t, c->nr_devs ? dev_rec(c->t, c->devs[0]) : NULL, buf, len);
		return;
	}
	n = (size_t)snprintf(buf, len, "%d devices:", c->nr_devs);
	for (int k = 0; k < c->nr_devs && n < len; k++) {
		const struct ss_rec_device *d = dev_rec(c->t, c->devs[k]);

		n += (size_t)snprintf(buf + n, len - n, "%s %s", k ? "," : "",
				      d->part_name[0] ? d->part_name : d->name);
	}
	if (n < len)
		snprintf(buf + n, len - n, " (series: one line per device)");
}

void ss_graph_row_device_text(const struct ss_graph *g, const struct ss_graph_col *c, int p,
			      char *buf, size_t len)
{
	bool one;
	uint32_t d;

	ss_graph_row_device(g, c, p, &one, &d);
	if (!one || (c->nr_devs <= 1 && d != UINT32_MAX))
		buf[0] = '\0';
	else if (d == UINT32_MAX)
		snprintf(buf, len, "no device %d in this trace", g->slot[p] + 1);
	else
		device_summary(c->t, dev_rec(c->t, d), buf, len);
}
