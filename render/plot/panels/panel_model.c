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

/* The key's layout in a frame's title band: one row right of the title, smaller if need be,
 * or, where even that leaves the title too little room, two rows of small type (the title
 * cut short of them, or left out). */
struct key_plan {
	double scale;           /* of the full size: type, boxes, samples, gaps */
	int rows;               /* 1 or 2 */
	int split;              /* the second row's first entry */
	double w[NR_KEY];       /* each entry's name's width at the plan's type size */
	double row_w[2];
};

static const char *key_name(int k)
{
	return k < NR_PARTS ? ss_model_parts[k].name : "elapsed";
}

/* The width of entries A..B-1 in one row at SCALE (W: their names' widths). */
static double row_width(const double *w, int a, int b, double scale)
{
	double sum = 0;

	for (int k = a; k < b; k++)
		sum += (k > a ? SS_KEY_GAP * scale : 0) +
		       (k < NR_PARTS ? KEY_BOX : SS_KEY_SAMPLE) * scale + w[k];
	return sum;
}

static void measure(cairo_t *cr, double scale, double *w)
{
	for (int k = 0; k < NR_KEY; k++)
		ss_text_measure(cr, ss_metrics.font_small * scale, false, key_name(k), &w[k], NULL);
}

/* The two-row layout at the smallest size, the rows as even as the entries allow. */
static void two_rows(cairo_t *cr, struct key_plan *kp)
{
	*kp = (struct key_plan){ .scale = SS_KEY_MIN_SCALE, .rows = 2, .split = 1 };
	measure(cr, kp->scale, kp->w);
	for (int s = 1; s < NR_KEY; s++) {
		double a = row_width(kp->w, 0, s, kp->scale), b = row_width(kp->w, s, NR_KEY,
									      kp->scale);

		if (s == 1 || fmax(a, b) < fmax(kp->row_w[0], kp->row_w[1])) {
			kp->split = s;
			kp->row_w[0] = a;
			kp->row_w[1] = b;
		}
	}
}

/*
 * The key's layout in a frame WIDTH wide: one row at full size where the title keeps
 * SS_KEY_TITLE_MIN beside it; else whichever of one smaller row (down to SS_KEY_MIN_SCALE)
 * and two rows at that size leaves the title more room; none (rows 0) where even that is
 * wider than the frame.
 */
static void key_plan(cairo_t *cr, double width, struct key_plan *kp)
{
	struct key_plan two;
	double full;

	*kp = (struct key_plan){ .scale = 1, .rows = 1, .split = NR_KEY };
	measure(cr, 1, kp->w);
	full = row_width(kp->w, 0, NR_KEY, 1);
	kp->row_w[0] = full;
	if (full <= width - SS_KEY_TITLE_MIN)
		return;
	kp->scale = fmax(SS_KEY_MIN_SCALE, (width - SS_KEY_TITLE_MIN) / full);
	measure(cr, kp->scale, kp->w);
	kp->row_w[0] = row_width(kp->w, 0, NR_KEY, kp->scale);
	two_rows(cr, &two);
	if (fmax(two.row_w[0], two.row_w[1]) < kp->row_w[0])
		*kp = two;
	if (fmax(kp->row_w[0], kp->row_w[1]) > width)
		kp->rows = 0;
}

/* The key at the right end of the title band above the frame, in one or two rows (key_plan)
 * that start at the same x; its width, 0 for none. */
static double model_key(void *state, cairo_t *cr, const struct ss_panel_data *d,
			const struct ss_frame *f)
{
	const double band = ss_metrics.panel_title_h;
	struct key_plan kp;

	(void)state;
	(void)d;
	key_plan(cr, f->r.w, &kp);
	for (int r = 0; r < kp.rows; r++) {
		int a = r ? kp.split : 0, b = kp.rows == 2 && !r ? kp.split : NR_KEY;
		double x = f->r.x + f->r.w - fmax(kp.row_w[0], kp.row_w[1]);
		double fs = ss_metrics.font_small * kp.scale;
		double y = kp.rows == 1 ? f->r.y - band / 2 - 1 : f->r.y - band + band * (r + 0.5) / 2;
		double box = 12 * kp.scale, bh = 10 * kp.scale;

		for (int k = a; k < b; k++) {
			if (k > a)
				x += SS_KEY_GAP * kp.scale;
			if (k < NR_PARTS) {
				ss_set_rgba(cr, ss_model_parts[k].rgb, 0.75);
				cairo_rectangle(cr, x, y - bh / 2, box, bh);
				cairo_fill(cr);
				x += KEY_BOX * kp.scale;
			} else {
				ss_set_rgb(cr, ss_col_axis);
				cairo_set_line_width(cr, 1.0);
				cairo_set_dash(cr, dash, 2, 0);
				cairo_move_to(cr, x, y);
				cairo_line_to(cr, x + 22 * kp.scale, y);
				cairo_stroke(cr);
				cairo_set_dash(cr, NULL, 0, 0);
				x += SS_KEY_SAMPLE * kp.scale;
			}
			ss_set_rgb(cr, ss_col_text);
			ss_text_draw(cr, x, y, SS_LEFT, SS_MIDDLE, fs, false, key_name(k), NULL);
			x += kp.w[k];
		}
	}
	return kp.rows ? fmax(kp.row_w[0], kp.row_w[1]) : 0;
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
		snprintf(total, sizeof(total), "%.2f s modelled", top[(NR_PARTS - 1) * b->n + b->n - 1]);
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw_plated(cr, f->r.x + 8, f->r.y + 6, SS_LEFT, SS_TOP,
				    ss_metrics.font_small, true, total, NULL);
	}
	draw_elapsed(cr, f, d);
	cairo_restore(cr);
	free(top);
	ss_axes_border(cr, f);
}

const struct ss_panel_ops ss_panel_model = {
	.name = "model", .help = "modelled disk busy time, cumulative (needs --disk)",
	.title_fmt = model_title, .y_title = "modelled s", .weight = 1.0, .time_x = true,
	.needs_disk = true, .extent = model_extent, .draw = model_draw, .key = model_key,
};
