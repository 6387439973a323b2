// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seek causes (seekcause.h, from the statistics pass): one horizontal bar per (from, to) class
 * pair — the class of the request before and after each seek — as a share of the column's
 * seeks, most first, so "agcount=4 seeks more" reads as which moves they are.  The dark part
 * of a bar is the seeks between two zones (AG to AG, group to group, data to log); the light
 * part stays in one zone.  The scale is 0-100 % in every column, so columns compare; pairs
 * beyond the rows the panel has room for are summed in a last "other pairs" row, so the bars
 * always add up to 100 %.  The pairs' labels stand left of the bars inside the frame; in a
 * frame too narrow for their shortest forms there, left of the frame, in the gutter that the
 * time panels' tick labels take.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "palette.h"
#include "panel.h"
#include "seekcause.h"
#include "text.h"

#define CELLS (SS_NR_CLASSES * SS_NR_CLASSES)
#define ROW_PX 17.0          /* a bar and its label */
#define LABEL_PAD 8.0
#define BARS_MIN 60.0        /* px the bars keep where the labels take more than 45 % */
/* px of the gutter left of the frame (the time panels' tick labels and y title) the labels
 * may take, less a pad: up to where ss_axes_y starts the y title */
#define OUTSIDE_ROOM (ss_metrics.gutter_left - 8 - LABEL_PAD)

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static const struct ss_cause_matrix *matrix_of(const struct ss_panel_data *d)
{
	const struct ss_seek_causes *sc = ss_stats_causes(d->stats);

	return sc ? ss_seek_causes_total(sc) : NULL;
}

static void causes_extent(void *state, const struct ss_panel_data *d, double *lo, double *hi)
{
	(void)state;
	(void)d;
	*lo = 0;                /* the bars have their own fixed scale: 0-100 % of the seeks */
	*hi = 100;
}

/* The rows the panel shows: the biggest pairs, the rest summed into the last row. */
static size_t rows_of(const struct ss_cause_matrix *m, struct ss_cause_cell *c, size_t max_rows,
		      bool *other)
{
	size_t n = ss_cause_cells(m, c, CELLS);

	*other = false;
	if (n <= max_rows || max_rows < 2)
		return n < max_rows ? n : max_rows;
	for (size_t i = max_rows; i < n; i++) {
		c[max_rows - 1].seeks += c[i].seeks;
		c[max_rows - 1].across += c[i].across;
	}
	*other = true;          /* the last row: the pair that would be there and the rest */
	return max_rows;
}

/* Class C's name cut to its first N letters and ".", but to no fewer than LEAST, which tell it
 * from the other classes (ss_class_unique_len), and whole where the cut would make it no
 * shorter ("dat." for "data"). */
static void cut_name(enum ss_class c, int least, int n, char *buf, size_t len)
{
	const char *name = ss_class_table[c].name;
	const int full = (int)strlen(name);
	int k = n > least ? n : least;

	if (k + 1 >= full) {
		snprintf(buf, len, "%s", name);
		return;
	}
	while (k > least && name[k - 1] == '-')
		k--;            /* "file." rather than "file-." */
	snprintf(buf, len, "%.*s.", k, name);
}

/* Row C's label in full ("metadata -> journal", "other pairs") into BUF. */
static void full_label(const struct ss_cause_cell *c, bool other, char *buf, size_t len)
{
	if (other)
		snprintf(buf, len, "other pairs");
	else
		snprintf(buf, len, "%s \u2192 %s", ss_class_table[c->from].name,
			 ss_class_table[c->to].name);
}

/*
 * Row C's label into BUF, at most AVAIL px wide; FULL_W is its full form's width (measured once
 * per row, by the caller).  The last row of the rest: "other pairs", else "others", else cut.
 * Where the full form is wider, both class names cut to the same
 * number of their first letters, as many as fit ("meta. -> jour."), each keeping what tells it
 * from the other classes ("da." data, "dis." discard, never "d.": UNIQUE[class], each class's
 * ss_class_unique_len); nothing where not even that fits.
 */
static void label_of(cairo_t *cr, const int *unique, const struct ss_cause_cell *c, bool other,
		     double full_w, double avail, char *buf, size_t len)
{
	int n = (int)fmax(strlen(ss_class_table[c->from].name), strlen(ss_class_table[c->to].name));
	char from[24], to[24], last[64];
	double w;

	full_label(c, other, buf, len);
	if (other) {
		static const char *const forms[] = { "other pairs", "others" };

		ss_text_first_fit(cr, ss_metrics.font_tick, false, forms, 2, avail, buf, len);
		return;
	}
	/* the room may be this width, plus and minus the pads */
	if (full_w <= avail + SS_FIT_EPS)
		return;
	/* the first cuts are the full form again: skipped below as no shorter */
	snprintf(last, sizeof(last), "%s", buf);
	for (; n >= 1; n--) {
		cut_name(c->from, unique[c->from], n, from, sizeof(from));
		cut_name(c->to, unique[c->to], n, to, sizeof(to));
		snprintf(buf, len, "%s \u2192 %s", from, to);
		if (!strcmp(buf, last))
			continue;       /* no shorter than the last try */
		ss_text_measure(cr, ss_metrics.font_tick, false, buf, &w, NULL);
		if (w <= avail + SS_FIT_EPS)
			return;
		snprintf(last, sizeof(last), "%s", buf);
	}
	buf[0] = '\0';
}

/* The width of row C's label in its shortest form ("m. \u2192 dir"), UNIQUE as for label_of;
 * 0 for "other pairs". */
static double least_width(cairo_t *cr, const int *unique, const struct ss_cause_cell *c,
			  bool other)
{
	char from[24], to[24], buf[64];
	double w;

	if (other)
		return 0;
	cut_name(c->from, unique[c->from], 1, from, sizeof(from));
	cut_name(c->to, unique[c->to], 1, to, sizeof(to));
	snprintf(buf, sizeof(buf), "%s \u2192 %s", from, to);
	ss_text_measure(cr, ss_metrics.font_tick, false, buf, &w, NULL);
	return w;
}

/* A row's value: its share of the seeks and, unless BRIEF, the part across zones. */
static void value_of(const struct ss_cause_cell *c, double share, double across, bool brief,
		     char *buf, size_t len)
{
	if (c->across && c->across < c->seeks && !brief)
		snprintf(buf, len, "%.1f%% (%.1f%% across zones)", share, across);
	else if (c->across && !brief)
		snprintf(buf, len, "%.1f%% (all across zones)", share);
	else
		snprintf(buf, len, "%.1f%%", share);
}

static void causes_draw(void *state, cairo_t *cr, const struct ss_panel_data *d,
			const struct ss_frame *fin)
{
	const struct ss_cause_matrix *m = matrix_of(d);
	struct ss_cause_cell c[CELLS];
	struct ss_frame f = *fin;
	double full_w[CELLS];           /* each row's label in full: measured once, for label_of */
	int unique[SS_NR_CLASSES];      /* ss_class_unique_len: once, not for every cut name */
	double label_w = 0, least_w = 0, y0;
	size_t max_rows = (size_t)fmax(1, floor(fin->r.h / ROW_PX)), n;
	bool other = false, outside;

	(void)state;
	ss_axes_background(cr, fin);
	if (!m || !m->seeks) {
		ss_set_rgb(cr, ss_col_axis);
		ss_text_draw(cr, f.r.x + f.r.w / 2, f.r.y + f.r.h / 2, SS_CENTER, SS_MIDDLE,
			     ss_metrics.font_label, false, "no seeks", NULL);
		ss_axes_border(cr, fin);
		return;
	}
	n = rows_of(m, c, max_rows, &other);
	for (int k = 0; k < SS_NR_CLASSES; k++)
		unique[k] = ss_class_unique_len(k);
	for (size_t i = 0; i < n; i++) {
		char buf[64];

		full_label(&c[i], other && i == n - 1, buf, sizeof(buf));
		ss_text_measure(cr, ss_metrics.font_tick, false, buf, &full_w[i], NULL);
		label_w = fmax(label_w, full_w[i]);
		least_w = fmax(least_w, least_width(cr, unique, &c[i], other && i == n - 1));
	}
	/* up to 45 % of the frame for the labels; more where their shortest forms need it,
	 * rather than bars without names, as long as the bars keep room for a value */
	label_w = fmin(label_w + 2 * LABEL_PAD,
		       fmax(fin->r.w * 0.45, fmin(least_w + 2 * LABEL_PAD, fin->r.w - BARS_MIN)));
	/* a frame too narrow for even the shortest labels beside the bars: the labels go left
	 * of it, into the gutter the time panels' tick labels take (this panel has none), where
	 * they have more room, and the bars have the whole frame */
	outside = label_w - 2 * LABEL_PAD + SS_FIT_EPS < least_w &&
		  OUTSIDE_ROOM > label_w - 2 * LABEL_PAD;
	if (outside)
		label_w = 0;
	/* the bars' frame: x is the share of the column's seeks */
	f.r.x += label_w;
	f.r.w -= label_w;
	f.x = (struct ss_axis){ 0, 100, f.r.x, f.r.x + f.r.w, false };
	f.xu = (struct ss_unit){ "% of seeks", 1 };
	f.x_unit_on_last = true;
	ss_axes_x(cr, &f);
	cairo_save(cr);
	cairo_rectangle(cr, fin->r.x - (outside ? OUTSIDE_ROOM + LABEL_PAD : 0), fin->r.y,
			fin->r.w + (outside ? OUTSIDE_ROOM + LABEL_PAD : 0), fin->r.h);
	cairo_clip(cr);
	y0 = fin->r.y + (fin->r.h - (double)n * ROW_PX) / 2;
	for (size_t i = 0; i < n; i++) {
		double share = pct(c[i].seeks, m->seeks), across = pct(c[i].across, m->seeks);
		double yc = y0 + ((double)i + 0.5) * ROW_PX, bh = ROW_PX - 5;
		double x0 = f.r.x, x1 = ss_axis_map(&f.x, share), xa = ss_axis_map(&f.x, across);
		char buf[64], val[64];
		struct ss_box b;

		label_of(cr, unique, &c[i], other && i == n - 1, full_w[i],
			 outside ? OUTSIDE_ROOM : label_w - 2 * LABEL_PAD, buf, sizeof(buf));
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, f.r.x - LABEL_PAD, yc, SS_RIGHT, SS_MIDDLE, ss_metrics.font_tick,
			     false, buf, NULL);
		if (x1 - x0 < 1.5)
			x1 = x0 + 1.5;
		ss_set_rgb(cr, ss_col_cause_within);
		cairo_rectangle(cr, x0, yc - bh / 2, x1 - x0, bh);
		cairo_fill(cr);
		if (c[i].across) {
			ss_set_rgb(cr, ss_col_cause_across);
			cairo_rectangle(cr, x0, yc - bh / 2, fmax(xa - x0, 1.5), bh);
			cairo_fill(cr);
		}
		ss_set_rgb(cr, ss_col_text);
		/* after the bar, or inside its end on a plate when it reaches the edge; the
		 * share alone where the zones' part does not fit either way */
		for (int brief = 0; brief < 2; brief++) {
			value_of(&c[i], share, across, brief, val, sizeof(val));
			ss_text_measure(cr, ss_metrics.font_small, false, val, &b.w, NULL);
			if (x1 + 4 + b.w <= f.r.x + f.r.w - 2) {
				ss_text_draw(cr, x1 + 4, yc, SS_LEFT, SS_MIDDLE,
					     ss_metrics.font_small, false, val, NULL);
				break;
			}
			if (b.w <= f.r.w - 8 || brief) {
				ss_text_draw_plated(cr, f.r.x + f.r.w - 4, yc, SS_RIGHT, SS_MIDDLE,
						    ss_metrics.font_small, false, val, NULL);
				break;
			}
		}
	}
	cairo_restore(cr);
	ss_axes_border(cr, fin);
}

const struct ss_panel_ops ss_panel_causes = {
	.name = "causes",
	.help = "seek causes: class before -> after each seek",
	.title = "Seek causes: share of seeks by the class of the request before \u2192 after "
		 "(dark: between two zones, e.g. AG to AG)",
	.short_title = "Causes",        /* not "Seek...", as the distance panel may read */
	.y_title = NULL,
	.weight = 0.9,
	.time_x = false,
	.needs_causes = true,
	.no_html = true,
	.extent = causes_extent,
	.draw = causes_draw,
};
