// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The disk service-time model (diskmodel.h): the platter geometry derived from the parameters
 * and the device's size, the seek curve, and the cost of each issued request.  The reasoning
 * behind each rule is in docs/disk-model.md ("How a request is costed").
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "seekscope/model.h"
#include "diskmodel.h"

/* Fewer cylinders than this and the seek curve's points (1, a third, all) run together. */
#define MIN_FIT_CYLINDERS 4.0

struct zone_geo {
	double start;            /* first byte of the zone on the device */
	double cyl0;             /* its first cylinder (cylinders are counted from outside) */
	double track;            /* bytes per track */
	double raw;              /* bytes per second under the head (one track per revolution) */
	double sustained;        /* bytes per second over whole cylinders, switches included */
};

/* Where a byte of the device is on the platter. */
struct loc {
	const struct zone_geo *z;
	uint64_t cyl;
	unsigned head;
	double off;              /* bytes into its track */
};

struct ss_disk_model {
	struct ss_disk_params p;
	uint64_t sectors;
	double bytes;            /* of the device */
	double rev_s;            /* one revolution */
	double cyls;             /* cylinders the device covers (not a whole number) */
	double cyl_bytes_mean;
	double sa, sb, lc, le, d0;   /* seek curve: sa + sb*sqrt(d) up to d0, lc + le*d beyond */
	unsigned nz;
	struct zone_geo z[SS_DISK_MAX_ZONES];
	bool have_dev, have_pos;
	uint32_t dev;
	uint64_t end;            /* sector just past the last request that moved the head */
	struct ss_disk_result r;
};

static void geometry(struct ss_disk_model *m)
{
	const struct ss_disk_params *p = &m->p;
	double ms = 1e-3, sw, sum = 0, start = 0, fit, t2t = p->track_to_track_ms * ms;

	m->rev_s = 60.0 / p->rpm;
	/* Reading on through a cylinder switches heads heads-1 times, then seeks one cylinder.
	 * The datasheet's sustained rate includes those switches (with track skew each costs
	 * its duration, no more), so a track holds rate * (revolution + mean switch). */
	sw = ((p->heads - 1) * p->head_switch_ms * ms + t2t) / p->heads;
	m->nz = p->zones;
	for (unsigned i = 0; i < m->nz; i++) {
		struct zone_geo *z = &m->z[i];
		double f = m->nz > 1 ? (double)i / (m->nz - 1) : 0.5;

		z->sustained = (p->outer_mbs + (p->inner_mbs - p->outer_mbs) * f) * 1e6;
		z->track = z->sustained * (m->rev_s + sw);
		z->raw = z->track / m->rev_s;
		sum += z->track * p->heads;
	}
	m->cyl_bytes_mean = sum / m->nz;
	/* The device covers the whole stroke; every zone has the same number of cylinders. */
	m->cyls = m->bytes / m->cyl_bytes_mean;
	for (unsigned i = 0; i < m->nz; i++) {
		m->z[i].start = start;
		m->z[i].cyl0 = m->cyls * i / m->nz;
		start += m->cyls / m->nz * m->z[i].track * p->heads;
	}
	/* Two regimes meeting at a third of the stroke, where the average seek is measured:
	 * the square root through (1, track-to-track) and (d0, average), the line through
	 * (d0, average) and (stroke, full stroke); continuous at d0 by construction. */
	fit = m->cyls > MIN_FIT_CYLINDERS ? m->cyls : MIN_FIT_CYLINDERS;
	m->d0 = fit / 3;
	m->sb = (p->avg_seek_ms - p->track_to_track_ms) * ms / (sqrt(m->d0) - 1);
	m->sa = t2t - m->sb;
	m->le = (p->full_stroke_ms - p->avg_seek_ms) * ms / (fit - m->d0);
	m->lc = p->avg_seek_ms * ms - m->le * m->d0;
}

struct ss_disk_model *ss_disk_model_new(const struct ss_disk_params *p, uint64_t device_sectors)
{
	struct ss_disk_model *m;

	if (!device_sectors || ss_disk_params_check(p, NULL, 0)) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->p = *p;
	m->sectors = device_sectors;
	m->bytes = (double)device_sectors * 512;
	if (p->kind == SS_DISK_HDD)
		geometry(m);
	return m;
}

void ss_disk_model_free(struct ss_disk_model *m)
{
	free(m);
}

void ss_disk_model_reset(struct ss_disk_model *m)
{
	m->have_dev = m->have_pos = false;
	m->end = 0;
	memset(&m->r, 0, sizeof(m->r));
}

double ss_disk_model_cylinders(const struct ss_disk_model *m)
{
	return m->p.kind == SS_DISK_HDD ? m->cyls : 0;
}

double ss_disk_model_seek_s(const struct ss_disk_model *m, uint64_t d)
{
	if (m->p.kind != SS_DISK_HDD || !d)
		return 0;
	return (double)d <= m->d0 ? m->sa + m->sb * sqrt((double)d) : m->lc + m->le * (double)d;
}

static const struct zone_geo *zone_at(const struct ss_disk_model *m, double pos)
{
	unsigned lo = 0, hi = m->nz;     /* the last zone starting at or before pos */

	while (hi - lo > 1) {
		unsigned mid = lo + (hi - lo) / 2;

		if (m->z[mid].start <= pos)
			lo = mid;
		else
			hi = mid;
	}
	return &m->z[lo];
}

/* Sectors past the device's end count as its last one. */
static uint64_t clamp(const struct ss_disk_model *m, uint64_t sector)
{
	return sector < m->sectors ? sector : m->sectors - 1;
}

static struct loc locate(const struct ss_disk_model *m, uint64_t sector)
{
	double pos = (double)clamp(m, sector) * 512, cb, in, c;
	struct loc l;

	l.z = zone_at(m, pos);
	cb = l.z->track * m->p.heads;
	in = pos - l.z->start;
	c = floor(in / cb);
	l.cyl = (uint64_t)floor(l.z->cyl0) + (uint64_t)c;
	in -= c * cb;
	l.head = (unsigned)(in / l.z->track);
	if (l.head >= m->p.heads)        /* rounding at the cylinder's last byte */
		l.head = m->p.heads - 1;
	l.off = in - l.head * l.z->track;
	return l;
}

double ss_disk_model_media_rate(const struct ss_disk_model *m, uint64_t sector)
{
	if (m->p.kind == SS_DISK_SSD)
		return m->p.read_mbs * 1e6;
	return locate(m, sector).z->sustained;
}

/* Time for BYTES to pass under the head from L on: the revolution's share plus a head switch
 * at each track boundary crossed and a track-to-track seek at each cylinder boundary. */
static double stream_s(const struct ss_disk_model *m, const struct loc *l, double bytes)
{
	double tracks = (l->off + bytes) / l->z->track, cross = 0, cylx = 0;

	if (tracks > 1) {
		cross = ceil(tracks) - 1;
		cylx = ceil((l->head + tracks) / m->p.heads) - 1;
	}
	return bytes / l->z->raw + (cross - cylx) * m->p.head_switch_ms * 1e-3 +
	       cylx * m->p.track_to_track_ms * 1e-3;
}

/* A media access by a spinning disk: position from the previous request's end, then read or
 * write. */
static void media_access(struct ss_disk_model *m, const struct ss_event *ev, bool write,
			 double bytes, struct ss_disk_cost *c)
{
	const struct ss_disk_params *p = &m->p;
	struct loc to = locate(m, ev->sector);

	if (!m->have_pos) {
		/* where the head was is unknown: no seek (as seek.h's first I/O), half a turn */
		c->rotation_s = m->rev_s / 2;
	} else {
		struct loc from = locate(m, m->end);
		double gap = ((double)clamp(m, ev->sector) - (double)clamp(m, m->end)) * 512;

		if (gap >= 0 && gap < from.z->track) {
			/* ahead by less than a track: the platter turns the gap past the head, the
			 * angle is known (0 for a sequential follow-on) */
			c->rotation_s = stream_s(m, &from, gap);
		} else if (to.cyl == from.cyl && to.head == from.head) {
			/* behind on the same track: almost a whole turn */
			c->rotation_s = m->rev_s - (-gap) / from.z->raw;
		} else {
			/* elsewhere: the angle on arrival is unknown, so the expected half turn */
			uint64_t d = to.cyl > from.cyl ? to.cyl - from.cyl : from.cyl - to.cyl;

			c->seek_s = d ? ss_disk_model_seek_s(m, d) : p->head_switch_ms * 1e-3;
			if (write)
				c->seek_s += p->write_settle_ms * 1e-3;
			c->rotation_s = m->rev_s / 2;
			m->r.seeks += d != 0;
		}
	}
	c->transfer_s = stream_s(m, &to, bytes);
	m->have_pos = true;
	m->end = ev->sector + ev->nr_sector >= ev->sector ? ev->sector + ev->nr_sector : UINT64_MAX;
}

int ss_disk_model_feed(struct ss_disk_model *m, const struct ss_event *ev,
		       struct ss_disk_cost *cost)
{
	const struct ss_disk_params *p = &m->p;
	struct ss_disk_cost c = { 0 };
	bool write = ev->flags & SS_RW_WRITE, discard = ev->flags & SS_RW_DISCARD;
	double bytes = discard ? 0 : (double)ev->nr_sector * 512;

	if (cost)
		*cost = c;
	if (ev->type != SS_EV_ISSUE || !ss_event_has_data(ev)) {
		m->r.ignored++;
		return 0;
	}
	if (m->have_dev && ev->dev != m->dev)
		return -EXDEV;
	m->have_dev = true;
	m->dev = ev->dev;
	if (p->kind == SS_DISK_SSD) {
		c.overhead_s = (write ? p->write_latency_ms : p->read_latency_ms) * 1e-3;
		c.transfer_s = bytes / ((write ? p->write_mbs : p->read_mbs) * 1e6);
	} else if (discard) {
		/* a disk has nothing to do for a discard but take the command */
		c.overhead_s = p->overhead_ms * 1e-3;
	} else if (write && p->wcache && !(ev->flags & SS_RW_FUA)) {
		/* into the cache over the bus; writing it back later is not modelled */
		c.overhead_s = p->overhead_ms * 1e-3;
		c.transfer_s = bytes / (p->bus_mbs * 1e6);
	} else {
		c.overhead_s = p->overhead_ms * 1e-3;
		media_access(m, ev, write, bytes, &c);
	}
	c.total_s = c.seek_s + c.rotation_s + c.transfer_s + c.overhead_s;
	ss_disk_cost_add(&m->r.time, &c);
	m->r.requests++;
	m->r.bytes += (uint64_t)bytes;
	if (cost)
		*cost = c;
	return 1;
}

void ss_disk_model_result(const struct ss_disk_model *m, struct ss_disk_result *r)
{
	*r = m->r;
}

void ss_disk_cost_add(struct ss_disk_cost *dst, const struct ss_disk_cost *src)
{
	dst->total_s += src->total_s;
	dst->seek_s += src->seek_s;
	dst->rotation_s += src->rotation_s;
	dst->transfer_s += src->transfer_s;
	dst->overhead_s += src->overhead_s;
}
