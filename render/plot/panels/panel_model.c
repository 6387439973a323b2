// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model panel (plot --disk): the time the modelled disk would have been busy serving the
 * trace's issued requests, cumulative against trace time, stacked as seek, rotation, transfer
 * and command overhead (stats.h: each request counted at its issue time).  The top of the
 * stack at the right edge is the modelled total of `report --disk` for the time shown; its
 * slope says where the cost accrues.  The dashed diagonal is elapsed trace time: where the
 * stack climbs above it, the modelled disk could not have kept up with the recorded pace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "palette.h"
#include "panel.h"
#include "text.h"

/* The parts, bottom to top (palette.h). */
#define NR_PARTS SS_NR_MODEL_PARTS

static void cost_parts(const struct ss_disk_cost *c, double v[NR_PARTS])
{
	v[0] = c->seek_s;
	v[1] = c->rotation_s;
	v[2] = c->transfer_s;
	v[3] = c->overhead_s;
}

static void model_title(char *buf, size_t len, const struct ss_graph_opts *o)
{
	snprintf(buf, len, "Modelled disk busy time, cumulative (%s)",
		 o->has_disk ? o->disk.name : "no --disk");
}

static void model_extent(void *state, const struct ss_panel_data *d, double *lo, double *hi)
{
	const struct ss_bins *b = ss_stats_bins(d->stats);
	double sum = 0;

	(void)state;
	*lo = 0;
	for (size_t i = 0; b && i < b->n; i++)
		sum += b->bin[i].model.total_s;
	if (sum > *hi)
		*hi = sum;
}

static const double dash[] = { 5, 4 };

#define KEY_BOX 16      /* a part's colour box and the air before its name */
#define NR_KEY (NR_PARTS + 1)   /* the parts, then the elapsed line */

/* The key at the right end of the title band above the frame, in one or two rows
 * (ss_key_plan) that start at the same x; its width, 0 for none. */
static double model_key(void *state, cairo_t *cr, const struct ss_panel_data *d,
			const struct ss_frame *f, bool draw)
{
	const char *names[NR_KEY];
	double sample[NR_KEY];
	struct ss_key_plan kp;

	(void)state;
	(void)d;
	for (int k = 0; k < NR_KEY; k++) {
		names[k] = k < NR_PARTS ? ss_model_parts[k].name : "elapsed";
		sample[k] = k < NR_PARTS ? KEY_BOX : SS_KEY_SAMPLE;
	}
	ss_key_plan(cr, names, sample, NR_KEY, f->r.w, &kp);
	for (int k = 0; k < NR_KEY && kp.rows && draw; k++) {
		double x, y;

		ss_key_place(&kp, f, k, &x, &y);
		if (k < NR_PARTS) {
			ss_set_rgba(cr, ss_model_parts[k].rgb, 0.75);
			cairo_rectangle(cr, x, y - 5 * kp.scale, 12 * kp.scale, 10 * kp.scale);
			cairo_fill(cr);
		} else {
			ss_set_rgb(cr, ss_col_axis);
			cairo_set_line_width(cr, 1.0);
			cairo_set_dash(cr, dash, 2, 0);
			cairo_move_to(cr, x, y);
			cairo_line_to(cr, x + 22 * kp.scale, y);
			cairo_stroke(cr);
			cairo_set_dash(cr, NULL, 0, 0);
		}
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, x + sample[k] * kp.scale, y, SS_LEFT, SS_MIDDLE,
			     ss_metrics.font_small * kp.scale, false, names[k], NULL);
	}
	return kp.width;
}

/* The stack's edges: top[k * n + i] = the sum of parts 0..k accumulated to the end of bin i.
 * NULL when out of memory (the panel is then drawn empty). */
static double *stack_edges(const struct ss_bins *b)
{
	double *top = malloc(NR_PARTS * b->n * sizeof(*top)), cum[NR_PARTS] = { 0 };

	for (size_t i = 0; top && i < b->n; i++) {
		double v[NR_PARTS], below = 0;

		cost_parts(&b->bin[i].model, v);
		for (size_t k = 0; k < NR_PARTS; k++) {
			cum[k] += v[k];
			below += cum[k];
			top[k * b->n + i] = below;
		}
	}
	return top;
}

static double bin_end_x(const struct ss_frame *f, const struct ss_bins *b, size_t i, uint64_t t0)
{
	return ss_axis_map(&f->x, (double)(ss_bins_bin_start(b, i) + ss_bins_bin_width(b, i)) -
				  (double)t0);
}

/* Band k between edge k-1 (0 for the first) and edge k, from the start of the bins. */
static void draw_stack(cairo_t *cr, const struct ss_frame *f, const struct ss_bins *b,
		       const double *top, uint64_t t0)
{
	double x0 = ss_axis_map(&f->x, (double)b->start_ns - (double)t0), y0 = ss_axis_map(&f->y, 0);

	for (size_t k = 0; k < NR_PARTS; k++) {
		cairo_move_to(cr, x0, y0);
		for (size_t i = 0; i < b->n; i++)
			cairo_line_to(cr, bin_end_x(f, b, i, t0), ss_axis_map(&f->y, top[k * b->n + i]));
		for (size_t i = b->n; i-- > 0;)
			cairo_line_to(cr, bin_end_x(f, b, i, t0),
				      k ? ss_axis_map(&f->y, top[(k - 1) * b->n + i]) : y0);
		cairo_close_path(cr);
		ss_set_rgba(cr, ss_model_parts[k].rgb, 0.75);
		cairo_fill(cr);
	}
	/* the total as a line, so the top reads even where the upper bands are thin */
	cairo_move_to(cr, x0, y0);
	for (size_t i = 0; i < b->n; i++)
		cairo_line_to(cr, bin_end_x(f, b, i, t0),
			      ss_axis_map(&f->y, top[(NR_PARTS - 1) * b->n + i]));
	ss_set_rgb(cr, ss_col_text);
	cairo_set_line_width(cr, 1.2);
	cairo_stroke(cr);
}

/* Elapsed trace time from the left edge of the view (y = x - x_lo), dashed. */
static void draw_elapsed(cairo_t *cr, const struct ss_frame *f, const struct ss_panel_data *d)
{
	double span_s = (double)(d->x_hi - d->x_lo) / 1e9;

	cairo_move_to(cr, ss_axis_map(&f->x, (double)d->x_lo), ss_axis_map(&f->y, 0));
	cairo_line_to(cr, ss_axis_map(&f->x, (double)d->x_hi), ss_axis_map(&f->y, span_s));
	ss_set_rgb(cr, ss_col_axis);
	cairo_set_line_width(cr, 1.0);
	cairo_set_dash(cr, dash, 2, 0);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
}

#define TOTAL_INSET 8           /* the total's left end, in from the frame's */

static void model_draw(void *state, cairo_t *cr, const struct ss_panel_data *d,
		       const struct ss_frame *f)
{
	const struct ss_bins *b = ss_stats_bins(d->stats);
	double *top = b && b->n ? stack_edges(b) : NULL;
	char total[64];

	(void)state;
	ss_time_panel_begin(cr, f, d, NULL);
	if (top) {
		draw_stack(cr, f, b, top, d->t0);
		/* the figure the stack ends at, as report --disk and the table give it */
		double v = top[(NR_PARTS - 1) * b->n + b->n - 1], w;

		/* in full where it fits inside the frame, else the figure alone, else nothing:
		 * never cut by the frame's edge */
		snprintf(total, sizeof(total), "%.2f s modelled", v);
		ss_text_measure(cr, ss_metrics.font_small, true, total, &w, NULL);
		if (w > f->r.w - TOTAL_INSET - 2) {
			snprintf(total, sizeof(total), "%.2f s", v);
			ss_text_measure(cr, ss_metrics.font_small, true, total, &w, NULL);
		}
		ss_set_rgb(cr, ss_col_text);
		if (w <= f->r.w - TOTAL_INSET - 2)
			ss_text_draw_plated(cr, f->r.x + TOTAL_INSET, f->r.y + 6, SS_LEFT, SS_TOP,
					    ss_metrics.font_small, true, total, NULL);
	}
	draw_elapsed(cr, f, d);
	cairo_restore(cr);
	free(top);
	ss_axes_border(cr, f);
}

const struct ss_panel_ops ss_panel_model = {
	.name = "model", .help = "modelled disk busy time, cumulative (needs --disk)",
	.title_fmt = model_title, .short_title = "Modelled time", .y_title = "modelled s",
	.weight = 1.0, .time_x = true, .needs_disk = true, .extent = model_extent,
	.draw = model_draw, .key = model_key,
};
