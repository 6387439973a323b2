// SPDX-License-Identifier: GPL-2.0-or-later
/* Axis drawing for one frame; see axes.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "axes.h"
#include "palette.h"
#include "text.h"

void ss_axes_background(cairo_t *cr, const struct ss_frame *f)
{
	cairo_save(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_rectangle(cr, f->r.x, f->r.y, f->r.w, f->r.h);
	cairo_fill(cr);
	cairo_restore(cr);
}

void ss_axes_border(cairo_t *cr, const struct ss_frame *f)
{
	cairo_save(cr);
	ss_set_rgb(cr, ss_col_axis);
	cairo_set_line_width(cr, 1);
	cairo_rectangle(cr, f->r.x + 0.5, f->r.y + 0.5, f->r.w - 1, f->r.h - 1);
	cairo_stroke(cr);
	cairo_restore(cr);
}

static int max_ticks_for(double pixels, double spacing)
{
	int n = (int)(pixels / spacing);

	return n < 2 ? 2 : n > 12 ? 12 : n;
}

void ss_axes_x(cairo_t *cr, const struct ss_frame *f)
{
	struct ss_ticks t;
	double lo = f->x.lo / f->xu.div, hi = f->x.hi / f->xu.div;
	double last_right = -1e9;

	if (ss_ticks_compute(lo, hi, max_ticks_for(f->r.w, 90), &t))
		return;
	cairo_save(cr);
	cairo_set_line_width(cr, 1);
	for (int i = 0; i < t.count; i++) {
		double v = ss_ticks_value(&t, i), px = round(ss_axis_map(&f->x, v * f->xu.div)) + 0.5;
		char buf[48];
		struct ss_box b;
		double w;

		ss_set_rgb(cr, ss_col_grid);
		cairo_move_to(cr, px, f->r.y);
		cairo_line_to(cr, px, f->r.y + f->r.h);
		cairo_stroke(cr);
		ss_ticks_format(&t, v, buf, sizeof(buf));
		if (f->x_unit_on_last && i == t.count - 1)
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), " %s", f->xu.name);
		ss_text_measure(cr, ss_metrics.font_tick, false, buf, &w, NULL);
		/* keep labels inside the frame's width and off each other */
		double x = px - w / 2;
		if (x + w > f->r.x + f->r.w + ss_metrics.gutter_right - 4)
			x = f->r.x + f->r.w + ss_metrics.gutter_right - 4 - w;
		if (x < last_right + 6)
			continue;
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, x, f->r.y + f->r.h + 3, SS_LEFT, SS_TOP, ss_metrics.font_tick, false,
			     buf, &b);
		last_right = b.x + b.w;
	}
	cairo_restore(cr);
}

/* One horizontal grid line at raw value v, labelled LABEL (or not, if NULL); its width. */
static double y_tick(cairo_t *cr, const struct ss_frame *f, double v, const char *label)
{
	double py = round(ss_axis_map(&f->y, v)) + 0.5;
	struct ss_box b = { 0 };

	ss_set_rgb(cr, ss_col_grid);
	cairo_move_to(cr, f->r.x, py);
	cairo_line_to(cr, f->r.x + f->r.w, py);
	cairo_stroke(cr);
	if (!label)
		return 0;
	ss_set_rgb(cr, ss_col_text);
	ss_text_draw(cr, f->r.x - 5, py, SS_RIGHT, SS_MIDDLE, ss_metrics.font_tick, false, label,
		     &b);
	return b.w;
}

/* Log axis: a labelled line per decade, and at 2 and 5 when a decade is tall enough. */
static double y_ticks_log(cairo_t *cr, const struct ss_frame *f)
{
	double lo = f->y.lo / f->yu.div, hi = f->y.hi / f->yu.div, maxw = 0;
	double decades = log10(hi) - log10(lo), per = decades > 0 ? f->r.h / decades : 0;
	double last_py = 1e9;

	if (!(lo > 0) || !(hi > lo))
		return 0;
	for (double d = pow(10, floor(log10(lo) + 1e-9)); d <= hi * 1.0001; d *= 10)
		for (int m = 1; m <= 5; m += m == 1 ? 1 : 3) {   /* 1, 2, 5 */
			double v = d * m, w, py = ss_axis_map(&f->y, v * f->yu.div);
			bool room = last_py - py >= 14;    /* labels never overlap */
			char buf[32];

			if (v < lo * 0.9999 || v > hi * 1.0001 || (m > 1 && per < 28 * 3))
				continue;
			snprintf(buf, sizeof(buf), "%g", v);
			w = y_tick(cr, f, v * f->yu.div, room ? buf : NULL);
			if (room)
				last_py = py;
			if (w > maxw)
				maxw = w;
		}
	return maxw;
}

void ss_axes_y(cairo_t *cr, const struct ss_frame *f)
{
	struct ss_ticks t;
	double lo = f->y.lo / f->yu.div, hi = f->y.hi / f->yu.div, maxw = 0;

	cairo_save(cr);
	cairo_set_line_width(cr, 1);
	/* at least a labelled zero and one value above it, even in a short panel */
	int want = max_ticks_for(f->r.h, 28);

	if (f->y.log) {
		maxw = y_ticks_log(cr, f);
	} else if (!ss_ticks_compute(lo, hi, want < 3 ? 3 : want, &t)) {
		for (int i = 0; i < t.count; i++) {
			double v = ss_ticks_value(&t, i), w;
			char buf[32];

			ss_ticks_format(&t, v, buf, sizeof(buf));
			w = y_tick(cr, f, v * f->yu.div, buf);
			if (w > maxw)
				maxw = w;
		}
	}
	if (f->y_title) {
		double x = f->r.x - 5 - maxw - 12;
		double minx = f->r.x - ss_metrics.gutter_left + 8;

		ss_set_rgb(cr, ss_col_text);
		ss_text_draw_vertical(cr, x < minx ? minx : x, f->r.y + f->r.h / 2,
				      ss_metrics.font_small, false, f->y_title);
	}
	cairo_restore(cr);
}
