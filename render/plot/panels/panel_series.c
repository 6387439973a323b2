// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The time-series panels: seeks/s, throughput, IOPS, latency and queue depth.  They draw the
 * time bins computed by the statistics module (stats.h / bins.h) — one definition of a seek,
 * of an I/O and of latency for the plot and for `seekscope report`.  Each panel is a small
 * descriptor (which metrics, how they look) behind the common ops table.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "palette.h"
#include "panel.h"
#include "text.h"

enum line_style { SOLID, DASHED, DOTTED };

struct series_line {
	enum ss_bin_metric metric;
	const char *name;
	int cls;                 /* colour of request class cls (palette.h), or -1: `colour` */
	struct ss_rgb colour;
	double width;
	enum line_style style;
	bool fill;               /* shade the area under the line */
	bool gaps;               /* latency: a bin without completions is a gap, not zero */
	bool if_any;             /* drawn and keyed only when some bin of the column has it */
};

struct series_desc {
	int nr;
	struct series_line line[4];
	double scale;            /* raw metric value -> plotted value (us -> ms) */
	const char *unit;        /* for the y axis unit name */
};

/* One line per request class that covers sectors; those a trace rarely has only if present. */
#define CLASS_LINES(metric_of)                                                              \
	{ { metric_of(SS_OP_WRITE), "write", SS_CLS_WRITE, { 0 }, 1.8, SOLID, false, false, false }, \
	  { metric_of(SS_OP_READ), "read", SS_CLS_READ, { 0 }, 1.8, DASHED, false, false, false },   \
	  { metric_of(SS_OP_DISCARD), "discard", SS_CLS_DISCARD, { 0 }, 1.8, SOLID, false, false,    \
	    true },                                                                         \
	  { metric_of(SS_OP_OTHER), "write-zeroes/other", SS_CLS_OTHER, { 0 }, 1.8, DOTTED, false,   \
	    false, true } }

static const struct series_desc desc_seeks = {
	1, { { SS_BM_SEEKS_PER_S, "seeks/s", -1, SS_RGB(0x000000), 1.4, SOLID, true, false,
	       false } }, 1, ""
};
static const struct series_desc desc_tput = { 4, CLASS_LINES(SS_BM_OP_MB_S), 1, "" };
static const struct series_desc desc_iops = { 4, CLASS_LINES(SS_BM_OP_IOPS), 1, "" };
static const struct series_desc desc_lat = {
	2, { { SS_BM_LAT_MAX_US, "max", -1, SS_RGB(0xE69F00), 1.0, DASHED, false, true, false },
	     { SS_BM_LAT_MEAN_US, "mean", -1, SS_RGB(0x0072B2), 1.8, SOLID, false, true, false } },
	1e-3, ""
};
static const struct series_desc desc_qd = {
	1, { { SS_BM_QUEUE_DEPTH, "mean in flight", -1, SS_RGB(0x009E73), 1.4, SOLID, true, false,
	       false } }, 1, ""
};

static struct ss_rgb line_colour(const struct series_line *l)
{
	return l->cls >= 0 ? ss_classes[l->cls].rgb : l->colour;
}

static void set_style(cairo_t *cr, enum line_style st)
{
	static const double dash[] = { 6, 3 }, dot[] = { 1.5, 2.5 };

	if (st == DASHED)
		cairo_set_dash(cr, dash, 2, 0);
	else if (st == DOTTED)
		cairo_set_dash(cr, dot, 2, 0);
	else
		cairo_set_dash(cr, NULL, 0, 0);
}

/* Whether line l is drawn for this column: always, or (if_any) when some bin has it. */
static bool line_shown(const struct ss_bins *b, const struct series_line *l)
{
	if (!l->if_any)
		return true;
	for (size_t i = 0; b && i < b->n; i++)
		if (ss_bins_value(b, i, l->metric) > 0)
			return true;
	return false;
}

static bool bin_empty_lat(const struct ss_bins *b, size_t i)
{
	return b->bin[i].lat_count == 0;
}

/* Fill out (b->n doubles) with line l, plotted units. */
static void series_values(const struct ss_bins *b, const struct series_desc *d,
			  const struct series_line *l, unsigned rolling, double *out)
{
	ss_bins_series(b, l->metric, rolling, out);
	for (size_t i = 0; i < b->n; i++)
		out[i] *= d->scale;
}

static void series_extent(const struct series_desc *d, const struct ss_panel_data *pd,
			  double *lo, double *hi)
{
	const struct ss_bins *b = ss_stats_bins(pd->stats);
	double *v;

	*lo = 0;
	if (!b || !b->n || !(v = malloc(b->n * sizeof(*v))))
		return;
	for (int k = 0; k < d->nr; k++) {
		series_values(b, d, &d->line[k], pd->opts->rolling, v);
		for (size_t i = 0; i < b->n; i++)
			if (v[i] > *hi)
				*hi = v[i];
	}
	free(v);
}

static double bin_mid_x(const struct ss_frame *f, const struct ss_bins *b, size_t i, uint64_t t0)
{
	double mid = (double)ss_bins_bin_start(b, i) + ss_bins_bin_width(b, i) / 2.0 - (double)t0;

	return ss_axis_map(&f->x, mid);
}

static void draw_line(cairo_t *cr, const struct ss_frame *f, const struct ss_bins *b,
		      const struct series_line *l, const double *v, uint64_t t0)
{
	double base = f->r.y + f->r.h;
	bool pen = false;

	if (l->fill) {
		cairo_move_to(cr, bin_mid_x(f, b, 0, t0), base);
		for (size_t i = 0; i < b->n; i++)
			cairo_line_to(cr, bin_mid_x(f, b, i, t0), ss_axis_map(&f->y, v[i]));
		cairo_line_to(cr, bin_mid_x(f, b, b->n - 1, t0), base);
		cairo_close_path(cr);
		ss_set_rgba(cr, line_colour(l), 0.18);
		cairo_fill(cr);
	}
	for (size_t i = 0; i < b->n; i++) {
		double x = bin_mid_x(f, b, i, t0), y = ss_axis_map(&f->y, v[i]);

		if (l->gaps && bin_empty_lat(b, i)) {
			pen = false;
			continue;
		}
		if (pen)
			cairo_line_to(cr, x, y);
		else
			cairo_move_to(cr, x, y);
		/* a lone point between gaps still shows */
		if (!pen && l->gaps && (i + 1 >= b->n || bin_empty_lat(b, i + 1)))
			cairo_line_to(cr, x + 1.5, y);
		pen = true;
	}
	ss_set_rgb(cr, line_colour(l));
	cairo_set_line_width(cr, l->width);
	cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
	set_style(cr, l->style);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
}

/* Key for multi-line panels, right-aligned in the title band above the frame: the lines
 * drawn for this column. */
static void draw_key(cairo_t *cr, const struct ss_frame *f, const struct series_desc *d,
		     const struct ss_bins *b)
{
	double x = f->r.x + f->r.w, y = f->r.y - ss_metrics.panel_title_h / 2 - 1;

	if (d->nr < 2)
		return;
	for (int k = d->nr - 1; k >= 0; k--) {
		const struct series_line *l = &d->line[k];
		double w;

		if (!line_shown(b, l))
			continue;
		ss_text_measure(cr, ss_metrics.font_small, false, l->name, &w, NULL);
		x -= w;
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, x, y, SS_LEFT, SS_MIDDLE, ss_metrics.font_small, false, l->name,
			     NULL);
		x -= 26;
		ss_set_rgb(cr, line_colour(l));
		cairo_set_line_width(cr, l->width + 0.4);
		set_style(cr, l->style);
		cairo_move_to(cr, x, y);
		cairo_line_to(cr, x + 22, y);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		x -= 14;
	}
}

static void series_draw(const struct series_desc *d, cairo_t *cr,
			const struct ss_panel_data *pd, const struct ss_frame *f)
{
	const struct ss_bins *b = ss_stats_bins(pd->stats);
	double *v = NULL;

	ss_time_panel_begin(cr, f, pd);
	if (b && b->n && (v = malloc(b->n * sizeof(*v)))) {
		for (int k = 0; k < d->nr; k++) {
			if (!line_shown(b, &d->line[k]))
				continue;
			series_values(b, d, &d->line[k], pd->opts->rolling, v);
			draw_line(cr, f, b, &d->line[k], v, pd->t0);
		}
	}
	free(v);
	cairo_restore(cr);
	draw_key(cr, f, d, b);
	ss_axes_border(cr, f);
}

/* The seeks panel's title names the threshold in force (--seek-threshold). */
static void seeks_title(char *buf, size_t len, const struct ss_graph_opts *o)
{
	snprintf(buf, len, "Seeks per second (an issued I/O starting > %" PRIu64
		 " sectors from where the previous one ended)", o->seek_threshold);
}

/* TTL or TTL_FMT: see struct ss_panel_ops' title and title_fmt. */
#define SERIES_PANEL(id, desc, nm, hlp, ttl, ttl_fmt, ytitle, w)                            \
	static void id##_extent(void *s, const struct ss_panel_data *d, double *lo, double *hi) \
	{                                                                                   \
		(void)s;                                                                    \
		series_extent(&desc, d, lo, hi);                                            \
	}                                                                                   \
	static void id##_draw(void *s, cairo_t *cr, const struct ss_panel_data *d,          \
			      const struct ss_frame *f)                                     \
	{                                                                                   \
		(void)s;                                                                    \
		series_draw(&desc, cr, d, f);                                               \
	}                                                                                   \
	const struct ss_panel_ops ss_panel_##id = {                                         \
		.name = nm, .help = hlp, .title = ttl, .title_fmt = ttl_fmt,                \
		.y_title = ytitle, .weight = w, .time_x = true,                             \
		.extent = id##_extent, .draw = id##_draw,                                   \
	}

SERIES_PANEL(seeks, desc_seeks, "seeks", "seeks per second", NULL, seeks_title, "seeks/s", 1.0);
SERIES_PANEL(tput, desc_tput, "tput", "MB/s per request class",
	     "Throughput (MB/s = 10^6 bytes/s, completed I/O)", NULL, "MB/s", 1.0);
SERIES_PANEL(iops, desc_iops, "iops", "completed requests per second, per class",
	     "I/O operations per second (completed requests)", NULL, "IOPS", 1.0);
SERIES_PANEL(lat, desc_lat, "lat", "latency issue -> complete (mean, max)",
	     "Latency, issue to completion (ms, per bin)", NULL, "ms", 1.0);
SERIES_PANEL(qd, desc_qd, "qd", "queue depth (requests in flight)",
	     "Queue depth (requests issued and not completed)", NULL, "in flight", 0.8);
