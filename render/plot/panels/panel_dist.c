// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seek-distance distribution: how far the head moves between consecutive I/Os, not just how
 * often.  Bars over signed log2 buckets of the distance (seek.h's ss_seek_hist, from the
 * statistics pass): backward moves left of zero, forward moves right, as a share of all moves
 * so runs with different I/O counts compare.  Moves within the seek threshold are grey; seeks
 * are in colour.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "palette.h"
#include "panel.h"
#include "text.h"

/* Widest bucket that the shown device range can produce (at least the threshold's). */
static int max_bucket(const struct ss_panel_data *d)
{
	const struct ss_summary *s = ss_stats_total(d->stats);
	int m = (int)ss_seek_hist_bucket((int64_t)d->opts->seek_threshold) + 2;

	if (m > SS_SEEK_HIST_BUCKETS - 1)
		m = SS_SEEK_HIST_BUCKETS - 1;   /* a threshold past the buckets (a library caller's) */
	for (int b = SS_SEEK_HIST_BUCKETS - 1; b > m; b--)
		if (s->seek_dist.pos[b] || s->seek_dist.neg[b]) {
			m = b;
			break;
		}
	return m;
}

static void dist_extent(void *state, const struct ss_panel_data *d, double *lo, double *hi)
{
	const struct ss_summary *s = ss_stats_total(d->stats);

	(void)state;
	*lo = 0;
	if (!s->seek_dist.count)
		return;
	for (int b = 0; b < SS_SEEK_HIST_BUCKETS; b++) {
		double p = 100.0 * (double)s->seek_dist.pos[b] / (double)s->seek_dist.count;
		double n = 100.0 * (double)s->seek_dist.neg[b] / (double)s->seek_dist.count;

		if (p > *hi)
			*hi = p;
		if (n > *hi)
			*hi = n;
	}
}

/* "64K", "1M", "4G": bucket b's lower bound, 2^(b-1) sectors, in bytes. */
static void bucket_label(int b, char *buf, size_t len)
{
	static const char sfx[] = "KMGTPE";
	double bytes = ldexp(512.0, abs(b) - 1);
	int k = -1;

	while (bytes >= 1024 && k < 5) {
		bytes /= 1024;
		k++;
	}
	char unit[2] = { k >= 0 ? sfx[k] : 'B', 0 };

	snprintf(buf, len, "%s%.0f%s", b < 0 ? "-" : "", bytes, unit);
}

/* A bar's columns and its top (pixels), for keeping the direction words off the bars. */
struct bar_span {
	double x0, x1, top;
};

/*
 * Where a label W wide whose plate reaches down to BOTTOM can start, searching from X in
 * direction DIR (+1: rightwards, -1: leftwards) past every bar that reaches above BOTTOM,
 * its start staying within [LO, HI]; false if no such place.
 */
static bool free_x(const struct bar_span *bars, int n, double bottom, double w, double x,
		   int dir, double lo, double hi, double *out)
{
	for (int moved = 1; moved && x >= lo && x <= hi;) {
		moved = 0;
		for (int i = 0; i < n; i++) {
			if (bars[i].top > bottom + 1 || bars[i].x1 < x - 4 || bars[i].x0 > x + w + 4)
				continue;
			x = dir > 0 ? bars[i].x1 + 5 : bars[i].x0 - 5 - w;
			moved = 1;
			break;
		}
	}
	if (!(x >= lo && x <= hi))      /* NaN too */
		return false;
	*out = x;
	return true;
}

/* "<- backward" and "forward ->" in the top corners, or as near them as they can be without
 * covering a bar's top; "<-" and "->" where the words do not fit; nothing where not even
 * those do (the ticks' signs still say the direction). */
static void draw_directions(cairo_t *cr, const struct ss_frame *f, const struct bar_span *bars,
			    int n)
{
	static const char *const text[2][2] = { { "<- backward", "forward ->" }, { "<-", "->" } };
	double mid = f->r.x + f->r.w / 2, y = f->r.y + 4;

	for (int k = 0; k < 2; k++) {
		double wl, wr, h, xl, xr;

		ss_text_measure(cr, ss_metrics.font_small, false, text[k][0], &wl, &h);
		ss_text_measure(cr, ss_metrics.font_small, false, text[k][1], &wr, NULL);
		if (6 + wl + 12 + wr + 6 > f->r.w || y + h > f->r.y + f->r.h ||
		    !free_x(bars, n, y + h, wl, f->r.x + 6, 1, f->r.x + 6, mid - 6 - wl, &xl) ||
		    !free_x(bars, n, y + h, wr, f->r.x + f->r.w - 6 - wr, -1, mid + 6,
			    f->r.x + f->r.w - 6 - wr, &xr))
			continue;
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw_plated(cr, xl, y, SS_LEFT, SS_TOP, ss_metrics.font_small, false,
				    text[k][0], NULL);
		ss_text_draw_plated(cr, xr, y, SS_LEFT, SS_TOP, ss_metrics.font_small, false,
				    text[k][1], NULL);
		return;
	}
}

static void dist_draw(void *state, cairo_t *cr, const struct ss_panel_data *d,
		      const struct ss_frame *fin)
{
	const struct ss_summary *s = ss_stats_total(d->stats);
	unsigned thr_b = ss_seek_hist_bucket((int64_t)d->opts->seek_threshold);
	struct ss_frame f = *fin;
	struct ss_text_lanes lanes;
	struct bar_span bars[2 * SS_SEEK_HIST_BUCKETS + 1];
	int mb = max_bucket(d), nbars = 0;

	(void)state;
	/* x is the signed bucket index; the frame's time axis does not apply here */
	f.x = (struct ss_axis){ -mb - 0.7, mb + 0.7, f.r.x, f.r.x + f.r.w, false };
	ss_axes_background(cr, &f);
	ss_axes_y(cr, &f);
	cairo_save(cr);
	ss_text_lanes_init(&lanes, 1);
	for (int b = -mb; b <= mb; b++) {
		char buf[16];
		double px = round(ss_axis_map(&f.x, b)) + 0.5, w;

		if (b != 0 && (abs(b) - 4) % 4)
			continue;
		ss_set_rgb(cr, ss_col_grid);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, px, f.r.y);
		cairo_line_to(cr, px, f.r.y + f.r.h);
		cairo_stroke(cr);
		if (b == 0)
			snprintf(buf, sizeof(buf), "0");
		else
			bucket_label(b, buf, sizeof(buf));
		ss_text_measure(cr, ss_metrics.font_tick, false, buf, &w, NULL);
		/* at most 2 px left of the frame (the value axis's "0" is there) and 4 px right
		 * of it, off each other */
		if (px - w / 2 < f.r.x - 2 || px + w / 2 > f.r.x + f.r.w + 4 ||
		    ss_text_lanes_claim(&lanes, px - w / 2, px + w / 2, 4) < 0)
			continue;
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, px, f.r.y + f.r.h + 3, SS_CENTER, SS_TOP, ss_metrics.font_tick, false,
			     buf, NULL);
	}
	if (s->seek_dist.count) {
		double bw = (f.x.p1 - f.x.p0) / (2 * mb + 1.4) * 0.8;

		for (int b = -mb; b <= mb; b++) {
			uint64_t c = b < 0 ? s->seek_dist.neg[-b] : s->seek_dist.pos[b];
			double pct = 100.0 * (double)c / (double)s->seek_dist.count, x, y0, y1;

			if (!c)
				continue;
			x = ss_axis_map(&f.x, b);
			y0 = ss_axis_map(&f.y, 0);
			y1 = ss_axis_map(&f.y, pct);
			if (y0 - y1 < 1.5)
				y1 = y0 - 1.5;
			if ((unsigned)abs(b) > thr_b)
				ss_set_rgb(cr, ss_col_seek);
			else
				cairo_set_source_rgb(cr, 0.62, 0.62, 0.62);
			cairo_rectangle(cr, x - bw / 2, y1, bw, y0 - y1);
			cairo_fill(cr);
			bars[nbars++] = (struct bar_span){ x - bw / 2, x + bw / 2, y1 };
		}
	} else {
		ss_set_rgb(cr, ss_col_axis);
		ss_text_draw(cr, f.r.x + f.r.w / 2, f.r.y + f.r.h / 2, SS_CENTER, SS_MIDDLE,
			     ss_metrics.font_label, false, "no head movement recorded", NULL);
	}
	/* the threshold, both ways */
	for (int sgn = -1; sgn <= 1; sgn += 2) {
		double px = round(ss_axis_map(&f.x, sgn * (thr_b + 0.5))) + 0.5;
		static const double dash[] = { 3, 3 };

		cairo_set_dash(cr, dash, 2, 0);
		ss_set_rgb(cr, ss_col_threshold);
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, px, f.r.y);
		cairo_line_to(cr, px, f.r.y + f.r.h);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	draw_directions(cr, &f, bars, nbars);
	cairo_restore(cr);
	ss_axes_border(cr, &f);
}

const struct ss_panel_ops ss_panel_dist = {
	.name = "dist",
	.help = "seek distances (how far the head moves)",
	.title = "Seek distance: share of moves by distance (bytes, log2 buckets; grey = within "
		 "the threshold, dashed)",
	.short_title = "Distance",      /* not "Seek...", as the seek causes panel may read */
	.y_title = "% of moves",
	.weight = 1.0,
	.time_x = false,
	.extent = dist_extent,
	.draw = dist_draw,
};
