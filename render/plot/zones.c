// SPDX-License-Identifier: GPL-2.0-or-later
/* Zone overlays and log/journal classification for the sector panel; see zones.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "palette.h"
#include "text.h"
#include "ticks.h"
#include "zones.h"

#define MIN_LOG_BAND_PX 4.0     /* a 10 MiB log on an 8 GiB disk must still show */

static int band_cmp(const void *a, const void *b)
{
	const struct ss_zone_band *x = a, *y = b;

	if (x->dev != y->dev)
		return x->dev < y->dev ? -1 : 1;
	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static bool is_log_kind(uint32_t kind)
{
	return kind == SS_ZONE_LOG || kind == SS_ZONE_JOURNAL;
}

int ss_zone_bands_init(struct ss_zone_bands *zb, const struct ss_trace *t)
{
	size_t n = 0;

	zb->n = 0;
	zb->b = NULL;
	for (size_t i = 0; i < t->nr_zones; i++)
		n += is_log_kind(t->zones[i].kind);
	if (!n)
		return 0;
	zb->b = calloc(n, sizeof(*zb->b));
	if (!zb->b)
		return -ENOMEM;
	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		if (is_log_kind(z->kind))
			zb->b[zb->n++] = (struct ss_zone_band){ z->dev, z->start_sector,
								 z->start_sector + z->nr_sectors };
	}
	qsort(zb->b, zb->n, sizeof(*zb->b), band_cmp);
	return 0;
}

void ss_zone_bands_fini(struct ss_zone_bands *zb)
{
	free(zb->b);
	zb->b = NULL;
	zb->n = 0;
}

bool ss_zone_bands_is_log(const struct ss_zone_bands *zb, uint32_t dev, uint64_t sector)
{
	size_t lo = 0, hi = zb->n;

	/* last band starting at or before (dev, sector) */
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const struct ss_zone_band *b = &zb->b[mid];

		if (b->dev < dev || (b->dev == dev && b->lo <= sector))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && zb->b[lo - 1].dev == dev && sector < zb->b[lo - 1].hi;
}

bool ss_zones_range(const struct ss_trace *t, uint64_t *lo, uint64_t *hi)
{
	uint64_t a = UINT64_MAX, b = 0;

	if (!t->nr_zones)
		return false;
	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		if (z->start_sector < a)
			a = z->start_sector;
		if (z->start_sector + z->nr_sectors > b)
			b = z->start_sector + z->nr_sectors;
	}
	/* the whole filesystem when the partition is known, so every AG shows */
	for (size_t i = 0; i < t->nr_devices; i++) {
		const struct ss_rec_device *d = &t->devices[i];

		if (d->part_nr_sectors && d->part_start <= a &&
		    d->part_start + d->part_nr_sectors >= b) {
			a = d->part_start;
			b = d->part_start + d->part_nr_sectors;
		}
	}
	*lo = a;
	*hi = b > a ? b : a + 1;
	return true;
}

/* Pixel band [top, bottom] of a zone clipped to the frame; false if outside. */
static bool zone_band(const struct ss_frame *f, const struct ss_rec_zone *z, double *top,
		      double *bottom)
{
	double y0 = ss_axis_map(&f->y, (double)z->start_sector);
	double y1 = ss_axis_map(&f->y, (double)(z->start_sector + z->nr_sectors));
	double ymin = f->r.y, ymax = f->r.y + f->r.h;

	if (y1 > y0) {
		double tmp = y0;
		y0 = y1;
		y1 = tmp;
	}
	if (y0 < ymin || y1 > ymax)
		return false;
	*bottom = y0 > ymax ? ymax : y0;
	*top = y1 < ymin ? ymin : y1;
	return true;
}

void ss_zones_draw_bands(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t)
{
	double top, bot;

	cairo_save(cr);
	cairo_rectangle(cr, f->r.x, f->r.y, f->r.w, f->r.h);
	cairo_clip(cr);
	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		if (z->kind != SS_ZONE_AG || !(z->index & 1) || !zone_band(f, z, &top, &bot))
			continue;
		cairo_set_source_rgb(cr, 0.945, 0.945, 0.945);
		cairo_rectangle(cr, f->r.x, top, f->r.w, bot - top);
		cairo_fill(cr);
	}
	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		if (!is_log_kind(z->kind) || !zone_band(f, z, &top, &bot))
			continue;
		if (bot - top < MIN_LOG_BAND_PX) {
			double mid = (top + bot) / 2;

			top = mid - MIN_LOG_BAND_PX / 2;
			bot = mid + MIN_LOG_BAND_PX / 2;
		}
		ss_set_rgba(cr, ss_col_logband, 0.45);
		cairo_rectangle(cr, f->r.x, top, f->r.w, bot - top);
		cairo_fill(cr);
	}
	cairo_restore(cr);
}

/* Label every k-th of n zones so that labels spaced `px` apart do not collide. */
static unsigned label_every(size_t n, double px_per_zone, double label_h)
{
	if (n == 0 || px_per_zone >= label_h + 2)
		return 1;
	return (unsigned)ss_nice_ceil((label_h + 2) / px_per_zone);
}

/* Mean pixel spacing of the visible zones of one kind (infinite if fewer than two). */
static double kind_spacing(const struct ss_frame *f, const struct ss_trace *t, uint32_t kind)
{
	size_t n = 0;

	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		n += z->kind == kind && (double)z->start_sector >= f->y.lo &&
		     (double)z->start_sector < f->y.hi;
	}
	return n > 1 ? f->r.h / (double)n : INFINITY;
}

void ss_zones_draw_lines(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t)
{
	static const double dash[] = { 4, 3 };
	double top, bot, group_gap = kind_spacing(f, t, SS_ZONE_GROUP);
	double table_gap = kind_spacing(f, t, SS_ZONE_INODE_TABLE);
	/* hundreds of ext4 groups: every k-th line, inode tables as ticks on the edges */
	unsigned every = group_gap >= 4 ? 1 : (unsigned)ss_nice_ceil(4 / group_gap);

	cairo_save(cr);
	cairo_rectangle(cr, f->r.x, f->r.y, f->r.w, f->r.h);
	cairo_clip(cr);
	cairo_set_line_width(cr, 1);
	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];
		double y;

		if (!zone_band(f, z, &top, &bot))
			continue;
		switch (z->kind) {
		case SS_ZONE_AG:
		case SS_ZONE_GROUP:
			if (z->kind == SS_ZONE_GROUP && z->index % every)
				continue;
			y = round(ss_axis_map(&f->y, (double)z->start_sector)) + 0.5;
			if (y >= f->r.y + f->r.h - 1)
				continue;
			if (z->kind == SS_ZONE_AG) {
				cairo_set_dash(cr, dash, 2, 0);
				cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
			} else {
				cairo_set_dash(cr, NULL, 0, 0);
				cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.35);
			}
			cairo_move_to(cr, f->r.x, y);
			cairo_line_to(cr, f->r.x + f->r.w, y);
			cairo_stroke(cr);
			break;
		case SS_ZONE_INODE_TABLE: {
			double h = bot - top < 1 ? 1 : bot - top;

			cairo_set_dash(cr, NULL, 0, 0);
			ss_set_rgba(cr, ss_col_itable, 0.55);
			if (table_gap >= 8) {
				cairo_rectangle(cr, f->r.x, top, f->r.w, h);
			} else {
				cairo_rectangle(cr, f->r.x, top, 6, h);
				cairo_rectangle(cr, f->r.x + f->r.w - 6, top, 6, h);
			}
			cairo_fill(cr);
			break;
		}
		default:
			break;
		}
	}
	cairo_restore(cr);
}

static void gutter_label(cairo_t *cr, const struct ss_frame *f, struct ss_text_lanes *lanes,
			 double y, const char *s, bool bold)
{
	double w, h, x = f->r.x + f->r.w + 5;

	ss_text_measure(cr, ss_metrics.font_small, bold, s, &w, &h);
	if (y - h / 2 < f->r.y)
		y = f->r.y + h / 2;
	if (y + h / 2 > f->r.y + f->r.h)
		y = f->r.y + f->r.h - h / 2;
	if (ss_text_lanes_claim(lanes, y - h / 2, y + h / 2, 1) < 0)
		return;
	ss_text_draw(cr, x, y, SS_LEFT, SS_MIDDLE, ss_metrics.font_small, bold, s, NULL);
}

void ss_zones_draw_labels(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t)
{
	struct ss_text_lanes lanes;
	size_t nr_groups = 0;
	double top, bot, lh;
	unsigned every;
	char buf[40];

	ss_text_lanes_init(&lanes, 1);
	ss_text_measure(cr, ss_metrics.font_small, false, "AG0", NULL, &lh);
	cairo_save(cr);
	/* the log first: it is the one band that must always be named */
	ss_set_rgb(cr, ss_col_text);
	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		if (is_log_kind(z->kind) && zone_band(f, z, &top, &bot))
			gutter_label(cr, f, &lanes, (top + bot) / 2,
				     z->kind == SS_ZONE_LOG ? "log" : "journal", true);
	}
	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		if (z->kind != SS_ZONE_AG || !zone_band(f, z, &top, &bot))
			continue;
		snprintf(buf, sizeof(buf), "AG%u", z->index);
		gutter_label(cr, f, &lanes, (top + bot) / 2, buf, false);
	}
	for (size_t i = 0; i < t->nr_zones; i++)
		nr_groups += t->zones[i].kind == SS_ZONE_GROUP;
	if (nr_groups) {
		every = label_every(nr_groups, f->r.h / (double)nr_groups, lh);
		ss_set_rgb(cr, ss_col_axis);
		for (size_t i = 0; i < t->nr_zones; i++) {
			const struct ss_rec_zone *z = &t->zones[i];

			if (z->kind != SS_ZONE_GROUP || z->index % every ||
			    !zone_band(f, z, &top, &bot))
				continue;
			snprintf(buf, sizeof(buf), "g%u", z->index);
			gutter_label(cr, f, &lanes, (top + bot) / 2, buf, false);
		}
	}
	cairo_restore(cr);
}
