// SPDX-License-Identifier: GPL-2.0-or-later
/* Zone overlays and the io classes of requests for the sector panel; see zones.h. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "palette.h"
#include "text.h"
#include "ticks.h"
#include "zones.h"

#define MIN_LOG_BAND_PX 6.0     /* a 10 MiB log on an 8 GiB disk must still show */
#define MIN_TABLE_PX 2.0        /* inode tables drawn across the panel */

static bool is_log_kind(uint32_t kind)
{
	return kind == SS_ZONE_LOG || kind == SS_ZONE_JOURNAL;
}

int ss_io_classes_init(struct ss_io_classes *ic, const struct ss_trace *t)
{
	ic->zones = t->zones;
	ic->zi = NULL;
	ic->hint = (struct ss_zone_hint){ 0 };
	if ((t->nr_zones && !(ic->zi = ss_zone_index_new(t->zones, t->nr_zones))) ||
	    !(ic->fm = ss_filemap_new(t))) {
		ss_zone_index_free(ic->zi);
		ic->zi = NULL;
		return -ENOMEM;
	}
	return 0;
}

void ss_io_classes_fini(struct ss_io_classes *ic)
{
	ss_zone_index_free(ic->zi);
	ss_filemap_free(ic->fm);
	ic->zi = NULL;
	ic->fm = NULL;
}

enum ss_io_class ss_io_class_from(enum ss_class c, const struct ss_event *ev)
{
	switch (c) {
	case SS_CLASS_FILE_DATA:
	case SS_CLASS_DATA:
		return ss_op_of(ev->flags, true) == SS_OP_READ ? SS_CLS_READ : SS_CLS_WRITE;
	case SS_CLASS_DIR:
		return SS_CLS_DIR;
	case SS_CLASS_META:
		return SS_CLS_META;
	case SS_CLASS_JOURNAL:
		return SS_CLS_JOURNAL;
	case SS_CLASS_DISCARD:
		return SS_CLS_DISCARD;
	case SS_CLASS_FLUSH:
		return SS_CLS_FLUSH;
	default:
		return SS_CLS_OTHER;
	}
}

enum ss_io_class ss_io_class_of(struct ss_io_classes *ic, const struct ss_event *ev)
{
	enum ss_fm_kind fk = ss_filemap_lookup(ic->fm, ev->dev, ev->sector, ev->nr_sector, NULL);

	return ss_io_class_from(ss_class_lookup(ic->zi, ic->zones, ev, fk, &ic->hint, NULL), ev);
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

int ss_zones_device_view(const struct ss_trace *t, uint32_t dev, struct ss_trace *view,
			 struct ss_rec_zone **owned)
{
	*view = *t;
	view->nr_zones = 0;
	view->nr_devices = 0;
	*owned = calloc(t->nr_zones ? t->nr_zones : 1, sizeof(**owned));
	if (!*owned)
		return -ENOMEM;
	view->zones = *owned;
	for (size_t i = 0; i < t->nr_zones; i++)
		if (t->zones[i].dev == dev)
			(*owned)[view->nr_zones++] = t->zones[i];
	for (size_t i = 0; i < t->nr_devices && !view->nr_devices; i++)
		if (t->devices[i].dev == dev) {
			view->devices = &t->devices[i];
			view->nr_devices = 1;
		}
	return 0;
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

/* Widen the band [*top, *bot] to at least MIN pixels about its middle, inside the frame. */
static void widen(const struct ss_frame *f, double *top, double *bot, double min)
{
	double mid = (*top + *bot) / 2;

	if (*bot - *top >= min)
		return;
	if (mid - min / 2 < f->r.y)
		mid = f->r.y + min / 2;
	if (mid + min / 2 > f->r.y + f->r.h)
		mid = f->r.y + f->r.h - min / 2;
	*top = mid - min / 2;
	*bot = mid + min / 2;
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
		widen(f, &top, &bot, MIN_LOG_BAND_PX);
		ss_set_rgba(cr, ss_col_logband, 0.45);
		cairo_rectangle(cr, f->r.x, top, f->r.w, bot - top);
		cairo_fill(cr);
	}
	cairo_restore(cr);
}

/* Label every k-th of n zones so that labels spaced `px` apart do not collide. */
static unsigned label_every(size_t n, double px_per_zone, double label_h)
{
	double k;

	if (n == 0 || px_per_zone >= label_h + 2)
		return 1;
	/* thousands of zones in a few pixels: every k-th beyond what an unsigned holds is the
	 * first label alone */
	k = ss_nice_ceil((label_h + 2) / px_per_zone);
	return k < (double)UINT_MAX ? (unsigned)k : UINT_MAX;
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
			double h;

			widen(f, &top, &bot, table_gap >= 8 ? MIN_TABLE_PX : 1);
			h = bot - top;
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

/*
 * A label in the right gutter at x, vertically centred on y but kept inside the frame; refused
 * (false) when it would overlap one already placed in LANES.  *w (may be NULL) gets its width.
 */
static bool gutter_label(cairo_t *cr, const struct ss_frame *f, struct ss_text_lanes *lanes,
			 double x, double y, const char *s, bool bold, double *w)
{
	double tw, h;

	ss_text_measure(cr, ss_metrics.font_small, bold, s, &tw, &h);
	if (y - h / 2 < f->r.y)
		y = f->r.y + h / 2;
	if (y + h / 2 > f->r.y + f->r.h)
		y = f->r.y + f->r.h - h / 2;
	if (ss_text_lanes_claim(lanes, y - h / 2, y + h / 2, 1) < 0)
		return false;
	ss_text_draw(cr, x, y, SS_LEFT, SS_MIDDLE, ss_metrics.font_small, bold, s, NULL);
	if (w)
		*w = tw;
	return true;
}

/* How many of the visible zones of KIND there are, and their mean height in pixels. */
static size_t visible_kind(const struct ss_frame *f, const struct ss_trace *t, uint32_t kind,
			   double *px_each)
{
	double top, bot, sum = 0;
	size_t n = 0;

	for (size_t i = 0; i < t->nr_zones; i++)
		if (t->zones[i].kind == kind && zone_band(f, &t->zones[i], &top, &bot)) {
			sum += bot - top;
			n++;
		}
	*px_each = n ? sum / (double)n : 0;
	return n;
}

/* The names of the log/journal band: in full, and short for a narrow gutter. */
static const char *log_name(uint32_t kind, bool shrt)
{
	return kind == SS_ZONE_LOG ? "log" : shrt ? "jnl" : "journal";
}

/*
 * Zone labels in the right gutter.  AG and group labels go in a first column at their zones'
 * centres, every k-th of them (k = 1, 2, 5, 10, ...) so that they never collide.  The log or
 * journal, the one band that must always be named, goes into that column too when it fits
 * between them, else into a second column right of them where it collides with nothing (in
 * full if that fits in the gutter, else shortened): it never pushes an AG label out.
 */
void ss_zones_draw_labels(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t)
{
	static const uint32_t containers[] = { SS_ZONE_AG, SS_ZONE_GROUP };
	struct ss_text_lanes col_a, col_b;
	const double xa = f->r.x + f->r.w + 5;
	const double right = f->r.x + f->r.w + ss_metrics.gutter_right + 6;   /* space to use */
	double top, bot, lh, wa = 0;
	char buf[40];

	ss_text_lanes_init(&col_a, 1);
	ss_text_lanes_init(&col_b, 1);
	ss_text_measure(cr, ss_metrics.font_small, false, "AG0", NULL, &lh);
	cairo_save(cr);
	for (size_t k = 0; k < sizeof(containers) / sizeof(containers[0]); k++) {
		double px_each, w;
		size_t n = visible_kind(f, t, containers[k], &px_each);
		unsigned every = label_every(n, px_each, lh);

		ss_set_rgb(cr, containers[k] == SS_ZONE_AG ? ss_col_text : ss_col_axis);
		for (size_t i = 0; i < t->nr_zones; i++) {
			const struct ss_rec_zone *z = &t->zones[i];

			if (z->kind != containers[k] || z->index % every || !zone_band(f, z, &top, &bot))
				continue;
			snprintf(buf, sizeof(buf), "%s%u", z->kind == SS_ZONE_AG ? "AG" : "g", z->index);
			if (gutter_label(cr, f, &col_a, xa, (top + bot) / 2, buf, false, &w) && w > wa)
				wa = w;
		}
	}
	ss_set_rgb(cr, ss_col_text);
	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];
		double xb = wa > 0 ? xa + wa + 5 : xa, w, y;

		if (!is_log_kind(z->kind) || !zone_band(f, z, &top, &bot))
			continue;
		y = (top + bot) / 2;
		if (gutter_label(cr, f, &col_a, xa, y, log_name(z->kind, false), true, NULL))
			continue;
		ss_text_measure(cr, ss_metrics.font_small, true, log_name(z->kind, false), &w, NULL);
		gutter_label(cr, f, &col_b, xb, y, log_name(z->kind, xb + w > right), true, NULL);
	}
	cairo_restore(cr);
}
