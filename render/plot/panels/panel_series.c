// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The time-series panels: seeks/s, throughput, IOPS, latency and queue depth.  They draw the
 * time bins computed by the statistics module (stats.h / bins.h) — one definition of a seek,
 * of an I/O and of latency for the plot and for `seekscope report`.  Each panel is a small
 * descriptor (which metrics, how they look) behind the common ops table.
 *
 * Latency spans decades (50 us reads beside one 449 ms outlier), so its axis is logarithmic:
 * nothing is clipped and nothing flattens the rest.  The trace's p99 is drawn as a reference
 * and the slowest bins are marked with their value.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	/* optional: drawn over the lines, inside the clip */
	void (*marks)(cairo_t *cr, const struct ss_frame *f, const struct ss_panel_data *pd,
		      const struct ss_bins *b, const struct ss_label_boxes *taken);
	/* several devices drawn (no --device): instead of the lines, one per device of this
	 * metric (the statistics' device bins) */
	bool by_device;
	enum ss_bin_metric dev_metric;
};

/* A line as drawn in one column: which bins, how. */
struct drawn {
	const struct ss_bins *b;
	struct series_line l;
};
#define MAX_DRAWN (SS_GRAPH_MAX_PANELS > 4 ? SS_GRAPH_MAX_PANELS : 4)

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
	       false } }, 1, "", .by_device = true, .dev_metric = SS_BM_SEEKS_PER_S
};
/* per device: reads + writes (the classes that move data to or from the host) */
static const struct series_desc desc_tput = { 4, CLASS_LINES(SS_BM_OP_MB_S), 1, "",
					      .by_device = true, .dev_metric = SS_BM_MB_S };
static const struct series_desc desc_iops = { 4, CLASS_LINES(SS_BM_OP_IOPS), 1, "",
					      .by_device = true, .dev_metric = SS_BM_IOPS };
#define LAT_MAX_RGB 0xE69F00
static void lat_marks(cairo_t *cr, const struct ss_frame *f, const struct ss_panel_data *pd,
		      const struct ss_bins *b, const struct ss_label_boxes *under);
static const struct series_desc desc_lat = {
	2, { { SS_BM_LAT_MAX_US, "max", -1, SS_RGB(LAT_MAX_RGB), 1.0, DASHED, false, true, false },
	     { SS_BM_LAT_MEAN_US, "mean", -1, SS_RGB(0x0072B2), 1.8, SOLID, false, true, false } },
	1e-3, "", lat_marks
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

/*
 * The lines of one column into OUT (MAX_DRAWN): with several devices drawn and a by_device
 * panel, one per device, coloured and keyed by device; else the descriptor's lines that the
 * column has.
 */
static int lines_of(const struct series_desc *d, const struct ss_panel_data *pd,
		    struct drawn *out)
{
	const struct ss_bins *b = ss_stats_bins(pd->stats);
	int n = 0;

	if (!b || !b->n)
		return 0;
	if (d->by_device && ss_stats_device_bins(pd->stats, 0)) {
		for (size_t i = 0; i < ss_stats_nr_devices(pd->stats) && n < MAX_DRAWN; i++) {
			const struct ss_device_stats *ds = ss_stats_device(pd->stats, i);

			out[n].b = ss_stats_device_bins(pd->stats, i);
			out[n++].l = (struct series_line){ d->dev_metric, ds->device->name, -1,
				ss_group_colour(i, SS_NR_GROUP_COLOURS), 1.6, i % 2 ? DASHED : SOLID, false, false, false };
		}
		return n;
	}
	for (int k = 0; k < d->nr; k++)
		if (line_shown(b, &d->line[k]))
			out[n++] = (struct drawn){ b, d->line[k] };
	return n;
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

/* hi: the largest value drawn; lo: 0, or with LOG the smallest positive one (0: none). */
static void series_extent(const struct series_desc *d, const struct ss_panel_data *pd,
			  bool log, double *lo, double *hi)
{
	struct drawn dr[MAX_DRAWN];
	int nr = lines_of(d, pd, dr);
	double *v;

	*lo = 0;
	if (!nr || !(v = malloc(dr[0].b->n * sizeof(*v))))
		return;
	for (int k = 0; k < nr; k++) {
		const struct ss_bins *b = dr[k].b;

		series_values(b, d, &dr[k].l, pd->opts->rolling, v);
		for (size_t i = 0; i < b->n; i++) {
			if (v[i] > *hi)
				*hi = v[i];
			if (log && v[i] > 0 && (*lo == 0 || v[i] < *lo))
				*lo = v[i];
		}
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

/* Key for multi-line panels (one line: none), right-aligned in the title band above the
 * frame, in one or two rows (ss_key_plan): the lines drawn for this column; its width, 0 for
 * none. */
static double series_key(const struct series_desc *d, cairo_t *cr,
			 const struct ss_panel_data *pd, const struct ss_frame *f, bool draw)
{
	struct drawn dr[MAX_DRAWN];
	const char *names[MAX_DRAWN];
	double sample[MAX_DRAWN];
	struct ss_key_plan kp;
	int nr = lines_of(d, pd, dr);

	if (nr < 2)
		return 0;
	for (int k = 0; k < nr; k++) {
		names[k] = dr[k].l.name;
		sample[k] = SS_KEY_SAMPLE;
	}
	ss_key_plan(cr, names, sample, nr, f->r.w, &kp);
	for (int k = 0; k < kp.n && kp.rows && draw; k++) {
		const struct series_line *l = &dr[k].l;
		double x, y;

		ss_key_place(&kp, f, k, &x, &y);
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, x + SS_KEY_SAMPLE * kp.scale, y, SS_LEFT, SS_MIDDLE,
			     ss_metrics.font_small * kp.scale, false, l->name, NULL);
		ss_set_rgb(cr, line_colour(l));
		cairo_set_line_width(cr, l->width + 0.4);
		set_style(cr, l->style);
		cairo_move_to(cr, x, y);
		cairo_line_to(cr, x + 22 * kp.scale, y);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
	}
	return kp.width;
}

static void series_draw(const struct series_desc *d, cairo_t *cr,
			const struct ss_panel_data *pd, const struct ss_frame *f)
{
	struct drawn dr[MAX_DRAWN];
	int nr = lines_of(d, pd, dr);
	struct ss_label_boxes taken = { 0 };
	double *v = NULL;

	ss_time_panel_begin(cr, f, pd, &taken);
	if (nr && (v = malloc(dr[0].b->n * sizeof(*v)))) {
		for (int k = 0; k < nr; k++) {
			series_values(dr[k].b, d, &dr[k].l, pd->opts->rolling, v);
			draw_line(cr, f, dr[k].b, &dr[k].l, v, pd->t0);
		}
		if (d->marks)
			d->marks(cr, f, pd, ss_stats_bins(pd->stats), &taken);
	}
	free(v);
	cairo_restore(cr);
	ss_axes_border(cr, f);
}

/* "449 ms", "0.12 ms" */
static void fmt_ms(char *buf, size_t len, const char *pre, double ms)
{
	snprintf(buf, len, "%s%.3g ms", pre, ms);
}

struct lat_mark {
	double x, y;                /* the dot */
	double lx, ly, w;           /* its value's label (left end, middle, width); w 0: none */
	char text[24];
};

/* the labels under the data (phase names, "events lost") and those of lat_marks (3 values
 * and p99), kept clear of each other */
#define MAX_BOXES (SS_LABEL_BOXES_MAX + 4)

/* Does box B (GAP around it) meet any of BOXES[0..N)? */
static bool meets_any(const struct ss_box *b, const struct ss_box *boxes, int n, double gap)
{
	for (int i = 0; i < n; i++)
		if (b->x < boxes[i].x + boxes[i].w + gap && boxes[i].x < b->x + b->w + gap &&
		    b->y < boxes[i].y + boxes[i].h + gap && boxes[i].y < b->y + b->h + gap)
			return true;
	return false;
}

/*
 * Where mark M's value label (M->w wide, TH high) goes, clear of TAKEN[0..N) and inside frame
 * F: right of the dot (left of it at the right edge), a line lower, a line higher, the other
 * side; else slid along the dot's line past what is in the way.  Into M->lx, M->ly; false: no
 * place.
 */
static bool place_value(const struct ss_frame *f, const struct ss_box *taken, int n, double th,
			struct lat_mark *m)
{
	double side = m->x + 5 + m->w > f->r.x + f->r.w - 2 ? m->x - 5 - m->w : m->x + 5;
	double other = side > m->x ? m->x - 5 - m->w : m->x + 5;
	const double cand[6][2] = { { side, 0 }, { side, 12 }, { side, -12 }, { other, 0 },
				    { other, 12 }, { other, -12 } };
	struct ss_box bx = { 0, 0, m->w, th };

	for (int c = 0; c < 6; c++) {
		bx.x = cand[c][0];
		bx.y = m->y + cand[c][1] - th / 2;
		if (bx.x >= f->r.x && bx.x + bx.w <= f->r.x + f->r.w && bx.y >= f->r.y &&
		    bx.y + bx.h <= f->r.y + f->r.h && !meets_any(&bx, taken, n, 3)) {
			m->lx = bx.x;
			m->ly = m->y + cand[c][1];
			return true;
		}
	}
	/* along the dot's line, away from the edge it is near, past each box in the way */
	bx.x = side;
	bx.y = m->y - th / 2;
	if (bx.y < f->r.y || bx.y + bx.h > f->r.y + f->r.h)
		return false;
	for (int tries = 0; tries < n + 1; tries++) {
		int hit = -1;

		if (bx.x < f->r.x || bx.x + bx.w > f->r.x + f->r.w)
			return false;
		for (int i = 0; i < n && hit < 0; i++)
			if (meets_any(&bx, &taken[i], 1, 3))
				hit = i;
		if (hit < 0) {
			m->lx = bx.x;
			m->ly = m->y;
			return true;
		}
		bx.x = side > m->x ? taken[hit].x + taken[hit].w + 6 : taken[hit].x - 6 - bx.w;
	}
	return false;
}

/*
 * The p99 label's place (*B, set to the line's left end on the side the panel's top allows,
 * ABOVE or below the line at Y99) clear of TAKEN[0..N): that, the line's right end, then
 * along the line from the left; then along the line on its other side where that fits in
 * frame F.  False where nothing is free (a frame too narrow for it beside an outlier's value:
 * the table gives the p99 too).
 */
static bool p99_place(const struct ss_frame *f, const struct ss_box *taken, int n, double y99,
		      bool above, struct ss_box *b)
{
	struct ss_box t = *b;

	for (int side = 0; side < 2; side++) {
		bool up = side ? !above : above;

		t.y = up ? y99 - 1 - t.h : y99 + 1;
		if (t.y < f->r.y || t.y + t.h > f->r.y + f->r.h)
			continue;
		t.x = f->r.x + f->r.w - 4 - t.w;
		if (!meets_any(&t, taken, n, 2) && side == 0 && meets_any(b, taken, n, 2)) {
			*b = t;
			return true;
		}
		for (t.x = f->r.x + 4; t.x + t.w <= f->r.x + f->r.w - 4; t.x += 10)
			if (!meets_any(&t, taken, n, 2)) {
				*b = t;
				return true;
			}
	}
	return false;
}

/*
 * Over the latency lines: the trace's p99 as a dotted reference, and the slowest bins — the
 * slowest always, the next two when above 4 x p99 — marked with a dot, and with their value
 * when above 2 x p99, so an outlier is seen and read however far above the rest it lies.
 * Labels keep clear of each other and of the labels UNDER them (phase names, "events lost";
 * place_value, p99_place).
 */
static void lat_marks(cairo_t *cr, const struct ss_frame *f, const struct ss_panel_data *pd,
		      const struct ss_bins *b, const struct ss_label_boxes *under)
{
	static const double dot[] = { 1.5, 2.5 };
	const struct ss_summary *s = ss_stats_total(pd->stats);
	double p99 = (double)s->lat_p99_ns / 1e6, prev = INFINITY, y99, th, pw;
	struct ss_box taken[MAX_BOXES], p99_box;
	struct lat_mark mk[3];
	int nr = 0, nr_taken = 0;
	bool above, show_p99;
	char buf[48];

	if (!s->lat.count)
		return;
	memcpy(taken, under->box, (size_t)under->nr * sizeof(*taken));
	nr_taken = under->nr;
	y99 = round(ss_axis_map(&f->y, p99)) + 0.5;
	fmt_ms(buf, sizeof(buf), "p99 ", p99);
	ss_text_measure(cr, ss_metrics.font_small, false, buf, &pw, &th);
	/* above the line, or below it where the panel's top would cut the label */
	above = y99 - 1 - th >= f->r.y;
	for (int k = 0; k < 3; k++) {
		struct lat_mark *m = &mk[nr];
		size_t best = b->n;
		double ms;

		/* the next slowest bin below the previous mark */
		for (size_t i = 0; i < b->n; i++)
			if (b->bin[i].lat_count && (double)b->bin[i].lat_max_ns < prev &&
			    (best == b->n || b->bin[i].lat_max_ns > b->bin[best].lat_max_ns))
				best = i;
		if (best == b->n)
			break;
		ms = (double)b->bin[best].lat_max_ns / 1e6;
		prev = (double)b->bin[best].lat_max_ns;
		if (k && ms < 4 * p99)
			break;
		m->x = bin_mid_x(f, b, best, pd->t0);
		m->y = ss_axis_map(&f->y, ms);
		m->w = 0;
		nr++;
		if (ms < 2 * p99)       /* not an outlier: the p99 line says it */
			continue;
		fmt_ms(m->text, sizeof(m->text), "", ms);
		ss_text_measure(cr, ss_metrics.font_small, true, m->text, &m->w, NULL);
		if (place_value(f, taken, nr_taken, th, m))
			taken[nr_taken++] = (struct ss_box){ m->lx, m->ly - th / 2, m->w, th };
		else
			m->w = 0;
	}
	p99_box = (struct ss_box){ f->r.x + 4, above ? y99 - 1 - th : y99 + 1, pw, th };
	show_p99 = p99_place(f, taken, nr_taken, y99, above, &p99_box);
	above = p99_box.y < y99;
	ss_set_rgb(cr, ss_col_axis);
	cairo_set_line_width(cr, 1);
	cairo_set_dash(cr, dot, 2, 0);
	cairo_move_to(cr, f->r.x, y99);
	cairo_line_to(cr, f->r.x + f->r.w, y99);
	cairo_stroke(cr);
	cairo_set_dash(cr, NULL, 0, 0);
	if (show_p99)
		ss_text_draw_plated(cr, p99_box.x, above ? y99 - 1 : y99 + 1, SS_LEFT,
				    above ? SS_BOTTOM : SS_TOP, ss_metrics.font_small, false, buf,
				    NULL);
	for (int k = 0; k < nr; k++) {
		ss_set_rgb(cr, (struct ss_rgb)SS_RGB(LAT_MAX_RGB));
		cairo_arc(cr, mk[k].x, mk[k].y, 3, 0, 2 * M_PI);
		cairo_fill(cr);
		if (!mk[k].w)
			continue;
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw_plated(cr, mk[k].lx, mk[k].ly, SS_LEFT, SS_MIDDLE,
				    ss_metrics.font_small, true, mk[k].text, NULL);
	}
}

/* The seeks panel's title names the threshold in force (--seek-threshold). */
static void seeks_title(char *buf, size_t len, const struct ss_graph_opts *o)
{
	snprintf(buf, len, "Seeks per second (an issued I/O starting > %" PRIu64
		 " sectors from where the previous one ended)", o->seek_threshold);
}

/* TTL or TTL_FMT, SHORT: see struct ss_panel_ops' title, title_fmt and short_title. */
#define SERIES_PANEL(id, desc, nm, hlp, ttl, ttl_fmt, short_, ytitle, w, log)                \
	static void id##_extent(void *s, const struct ss_panel_data *d, double *lo, double *hi) \
	{                                                                                   \
		(void)s;                                                                    \
		series_extent(&desc, d, log, lo, hi);                                       \
	}                                                                                   \
	static void id##_draw(void *s, cairo_t *cr, const struct ss_panel_data *d,          \
			      const struct ss_frame *f)                                     \
	{                                                                                   \
		(void)s;                                                                    \
		series_draw(&desc, cr, d, f);                                               \
	}                                                                                   \
	static double id##_key(void *s, cairo_t *cr, const struct ss_panel_data *d,        \
			       const struct ss_frame *f, bool draw)                         \
	{                                                                                   \
		(void)s;                                                                    \
		return series_key(&desc, cr, d, f, draw);                                   \
	}                                                                                   \
	const struct ss_panel_ops ss_panel_##id = {                                         \
		.name = nm, .help = hlp, .title = ttl, .title_fmt = ttl_fmt,                \
		.short_title = short_, .y_title = ytitle, .weight = w, .time_x = true,       \
		.log_y = log,                                                               \
		.extent = id##_extent, .draw = id##_draw, .key = id##_key,                  \
	}

SERIES_PANEL(seeks, desc_seeks, "seeks", "seeks per second", NULL, seeks_title,
	     "Seeks", "seeks/s", 1.0, false);
SERIES_PANEL(tput, desc_tput, "tput", "MB/s per request class",
	     "Throughput (MB/s = 10^6 bytes/s, completed I/O)", NULL, "MB/s", "MB/s", 1.0,
	     false);
SERIES_PANEL(iops, desc_iops, "iops", "completed requests per second, per class",
	     "I/O operations per second (completed requests)", NULL, "IOPS", "IOPS", 1.0, false);
SERIES_PANEL(lat, desc_lat, "lat", "read/write latency issue -> complete (mean, max; log)",
	     "Read and write latency, issue to completion (ms per bin, log scale; slowest bins "
	     "marked)", NULL, "Latency", "ms", 1.0, true);
SERIES_PANEL(qd, desc_qd, "qd", "queue depth (requests in flight)",
	     "Queue depth (requests issued and not completed)", NULL, NULL, "in flight",
	     0.8, false);
