// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Drawing the figure that ss_graph_run() laid out and filled (graph.c): the title, each
 * column's heading, each panel's frame, key and title, the panels themselves, the legend and
 * the table.  See graph_int.h.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "graph_int.h"
#include "legend.h"
#include "palette.h"
#include "panel.h"
#include "table.h"
#include "text.h"

static void frame_for(const struct ss_graph *g, int p, int c, struct ss_frame *f, char *ybuf,
		      size_t ylen)
{
	const struct ss_rect *r = &g->lay.plot[p][c];

	memset(f, 0, sizeof(*f));
	f->r = *r;
	f->x = (struct ss_axis){ (double)g->x_lo, (double)g->x_hi, r->x, r->x + r->w, false };
	f->y = (struct ss_axis){ g->vlo[p], g->vhi[p], r->y + r->h, r->y, g->ops[p]->log_y };
	f->xu = ss_unit_time((double)(g->x_hi - g->x_lo));
	f->yu = (struct ss_unit){ "", 1 };
	f->y_title = g->ops[p]->y_title;
	f->x_unit_on_last = true;
	if (g->ops[p]->sector_y) {
		f->yu = ss_unit_offset(g->o.units, (double)(g->yhi[p] - g->ylo[p]));
		snprintf(ybuf, ylen, "device offset (%s)", f->yu.name);
		f->y_title = ybuf;
	}
}

/* The title, smaller where it is too wide (down to the panel titles' size), then cut. */
static void draw_title(struct ss_graph *g, cairo_t *cr)
{
	double fs = ss_metrics.font_title, w;
	char buf[sizeof(g->title)];

	snprintf(buf, sizeof(buf), "%s", g->title);
	ss_text_measure(cr, fs, true, buf, &w, NULL);
	if (w > g->lay.title.w)
		fs = fmax(ss_metrics.font_label, fs * g->lay.title.w / w);
	ss_text_fit(cr, fs, true, buf, g->lay.title.w);
	ss_set_rgb(cr, ss_col_text);
	ss_text_draw(cr, g->lay.title.x + g->lay.title.w / 2, g->lay.title.y + g->lay.title.h / 2,
		     SS_CENTER, SS_MIDDLE, fs, true, buf, NULL);
}

/*
 * Column I's heading: its label (bold; a long one cut from the front, keeping the file name),
 * the devices in small type, and right-aligned in the warning colour what is wrong with the
 * trace (truncated, events lost).  In a narrow column the warning keeps at least half of the
 * width beside the label, the devices take what is left between them, each cut short or
 * left out: nothing runs into the next column.
 */
static void draw_header(struct ss_graph *g, cairo_t *cr, int i)
{
	const struct ss_rect *r = &g->lay.col_header[i];
	const struct ss_graph_col *c = &g->col[i];
	const double y = r->y + r->h / 2, right = r->x + r->w;
	char label[512], dev[160], warn[sizeof(c->warn)];
	double label_max = r->w, label_end, warn_x = right, w;
	struct ss_box b;

	if (c->warn[0]) {
		snprintf(warn, sizeof(warn), "%s", c->warn);
		ss_text_measure(cr, ss_metrics.font_small, true, warn, &w, NULL);
		label_max = fmax(r->w / 2, r->w - w - 16);
	}
	/* the label's end (its file name) if it is longer than the buffer, from a character's
	 * first byte */
	{
		const char *tail = c->label;
		size_t len = strlen(tail);

		if (len >= sizeof(label)) {
			tail += len - (sizeof(label) - 1);
			while ((*tail & 0xC0) == 0x80)
				tail++;
		}
		snprintf(label, sizeof(label), "%s", tail);
	}
	ss_text_fit_start(cr, ss_metrics.font_label, true, label, label_max);
	ss_set_rgb(cr, ss_col_text);
	ss_text_draw(cr, r->x, y, SS_LEFT, SS_MIDDLE, ss_metrics.font_label, true, label, &b);
	label_end = b.x + b.w;
	if (c->warn[0]) {
		ss_text_fit(cr, ss_metrics.font_small, true, warn, right - (label_end + 16));
		ss_text_measure(cr, ss_metrics.font_small, true, warn, &w, NULL);
		if (warn[0]) {
			ss_set_rgb(cr, ss_col_warn);
			ss_text_draw(cr, right, y, SS_RIGHT, SS_MIDDLE, ss_metrics.font_small, true,
				     warn, NULL);
			warn_x = right - w - 16;
		}
	}
	ss_graph_devices_text(c, dev, sizeof(dev));
	ss_text_fit(cr, ss_metrics.font_small, false, dev, warn_x - (label_end + 10));
	ss_set_rgb(cr, ss_col_axis);
	ss_text_draw(cr, label_end + 10, y, SS_LEFT, SS_MIDDLE, ss_metrics.font_small, false, dev,
		     NULL);
}

/* The width of TITLE's least form in a panel title's type: its short form, else its head. */
static double title_least(const struct ss_panel_ops *ops, cairo_t *cr, const char *title)
{
	char head[400];
	double w;

	snprintf(head, sizeof(head), "%.*s", ss_text_head(title), title);
	ss_text_measure(cr, ss_metrics.font_label, true, ops->short_title ? ops->short_title : head,
			&w, NULL);
	return w;
}

/*
 * Panel P's title over column C into BUF, at most ROOM px wide (ss_text_fit_words), followed,
 * in a row of one device of several, by that device in brackets: the device is what tells the
 * rows apart, so it keeps its room and is cut only where the title would otherwise keep less
 * than its short form (or its head).
 */
static void fit_title(const struct ss_graph *g, cairo_t *cr, const struct ss_graph_col *c,
		      int p, const char *title, double room, char *buf, size_t len)
{
	const char *short_title = g->ops[p]->short_title;
	char name[160], dev[200], t[400];
	double dw, tw, bw;

	ss_graph_row_device_text(g, c, p, name, sizeof(name));
	if (!name[0]) {
		ss_text_fit_words(cr, ss_metrics.font_label, true, title, short_title, room, buf,
				  len);
		return;
	}
	/* the title's least, at most 40 % of the room */
	tw = fmin(title_least(g->ops[p], cr, title), 0.4 * room);
	ss_text_measure(cr, ss_metrics.font_label, true, "  []", &bw, NULL);
	ss_text_fit(cr, ss_metrics.font_label, true, name, room - tw - bw);
	snprintf(dev, sizeof(dev), "  [%s]", name);
	if (!name[0] || !strcmp(name, "..."))
		dev[0] = '\0';     /* not even a bare "[...]" */
	ss_text_measure(cr, ss_metrics.font_label, true, dev, &dw, NULL);
	ss_text_fit_words(cr, ss_metrics.font_label, true, title, short_title, room - dw, t,
			  sizeof(t));
	snprintf(buf, len, "%s%s", t, t[0] || !dev[0] ? dev : dev + 2);
}

/* What column I's panel P is drawn from; the first time panel labels the phases. */
static struct ss_panel_data panel_data(const struct ss_graph *g, int i, int p)
{
	const struct ss_graph_col *c = &g->col[i];

	return (struct ss_panel_data){ c->t, c->stats, &g->o, c->t0, g->x_lo, g->x_hi,
				       p == g->first_time_row };
}

/* Panel P's key over column I, drawn on frame F (cairo state kept); its room. */
static double key_draw(const struct ss_graph *g, cairo_t *cr, int i, int p,
		       const struct ss_panel_data *d, const struct ss_frame *f, bool draw)
{
	double room;

	cairo_save(cr);        /* what a panel sets in CR stays with it */
	room = g->ops[p]->key(g->col[i].state[p], cr, d, f, draw);
	cairo_restore(cr);
	return room;
}

/*
 * Above column I's panel P (frame F): the panel's key, drawn, and its title fitted beside it
 * (never into the key nor the next column), into BUF.  The title band reaches over the
 * gutter right of the frame (the zone labels' room, empty at its height) to BAND_PAD short of
 * the column's end.  The key stands at the frame's right end where the title keeps its least
 * form (its short form or head) beside it, else where the title keeps more: at the band's
 * end.  A key that fits neither place is left out, and the title has the whole band.
 */
#define BAND_PAD 4
#define KEY_AIR 12             /* between the title and the key */
static void panel_heading(const struct ss_graph *g, cairo_t *cr, int i, int p,
			  const struct ss_panel_data *d, const struct ss_frame *f, char *buf,
			  size_t len)
{
	const struct ss_panel_ops *ops = g->ops[p];
	const char *title = ops->title_fmt ? g->panel_title[p] : ops->title;
	struct ss_frame band = *f;
	double room;

	if (ops->key_fixed) {
		double key = key_draw(g, cr, i, p, d, f, true);
		fit_title(g, cr, &g->col[i], p, title,
			  fmax(0, f->r.w - (key > 0 ? key + KEY_AIR : 0)), buf, len);
		return;
	}
	band.r.w += ss_metrics.gutter_right - BAND_PAD;
	room = band.r.w;
	if (ops->key) {
		const double at_frame = key_draw(g, cr, i, p, d, f, false);
		const double at_band = key_draw(g, cr, i, p, d, &band, false);
		/* the title's room beside the key at either place; -1: the key fits none */
		const double r_frame = at_frame > 0 ? f->r.w - at_frame - KEY_AIR : -1;
		const double r_band = at_band > 0 ? band.r.w - at_band - KEY_AIR : -1;
		const bool by_frame = at_frame > 0 && (at_band <= 0 || r_frame >= r_band ||
						       r_frame >= title_least(ops, cr, title));

		if (at_frame > 0 || at_band > 0) {
			key_draw(g, cr, i, p, d, by_frame ? f : &band, true);
			room = fmax(0, by_frame ? r_frame : r_band);
		}
	}
	fit_title(g, cr, &g->col[i], p, title, room, buf, len);
}

static void draw_note(cairo_t *cr, const struct ss_rect *r, const char *note)
{
	double w, h, x, y;

	ss_text_measure(cr, ss_metrics.font_title, true, note, &w, &h);
	x = r->x + r->w / 2;
	y = r->y + r->h / 2;
	cairo_save(cr);
	cairo_set_source_rgba(cr, 1, 1, 1, 0.9);
	cairo_rectangle(cr, x - w / 2 - 12, y - h / 2 - 8, w + 24, h + 16);
	cairo_fill_preserve(cr);
	ss_set_rgb(cr, ss_col_warn);
	cairo_set_line_width(cr, 1.5);
	cairo_stroke(cr);
	ss_text_draw(cr, x, y, SS_CENTER, SS_MIDDLE, ss_metrics.font_title, true, note, NULL);
	cairo_restore(cr);
}

/* The x axis' title under frame F into BUF, as wide as the frame and the gutter right of it:
 * whole, else a shorter form that keeps the unit. */
static void x_title(cairo_t *cr, const struct ss_graph *g, const struct ss_frame *f, char *buf,
		    size_t len)
{
	const char *a = g->o.align, *unit = f->xu.name;
	char full[96], since[96], bare[32];
	const char *forms[3] = { full, since, bare };

	snprintf(full, sizeof(full), "time since the start of %s%.*s (%s)", a ? "" : "the trace",
		 a ? ss_text_prefix(a, 32) : 0, a ? a : "", unit);
	snprintf(since, sizeof(since), "time since %.*s (%s)", a ? ss_text_prefix(a, 32) : 9,
		 a ? a : "the start", unit);
	snprintf(bare, sizeof(bare), "time (%s)", unit);
	ss_text_first_fit(cr, ss_metrics.font_small, false, forms, 3,
			  f->r.w + ss_metrics.gutter_right, buf, len);
}

void ss_graph_draw(struct ss_graph *g, cairo_t *cr)
{
	if (!g->ran)
		return;
	cairo_save(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	draw_title(g, cr);
	{
		const struct ss_trace *tr[SS_GRAPH_MAX_TRACES];
		unsigned classes = 0;

		for (int i = 0; i < g->nr; i++) {
			tr[i] = g->col[i].t;
			for (int p = 0; p < g->nr_panels; p++)
				if (g->ops[p]->classes)
					classes |= g->ops[p]->classes(g->col[i].state[p]);
		}
		ss_legend_draw(cr, &g->lay.legend, tr, g->nr, classes,
			       g->o.color_by_group ? &g->groups : NULL);
	}
	for (int i = 0; i < g->nr; i++) {
		struct ss_graph_col *c = &g->col[i];

		draw_header(g, cr, i);
		for (int p = 0; p < g->nr_panels; p++) {
			struct ss_panel_data d = panel_data(g, i, p);
			struct ss_frame f;
			char ybuf[48], tbuf[400];

			frame_for(g, p, i, &f, ybuf, sizeof(ybuf));
			panel_heading(g, cr, i, p, &d, &f, tbuf, sizeof(tbuf));
			ss_set_rgb(cr, ss_col_text);
			ss_text_draw(cr, f.r.x, f.r.y - ss_metrics.panel_title_h / 2 - 1, SS_LEFT,
				     SS_MIDDLE, ss_metrics.font_label, true, tbuf, NULL);
			cairo_save(cr);        /* what a panel sets in CR stays with it */
			g->ops[p]->draw(c->state[p], cr, &d, &f);
			cairo_restore(cr);
			if (p == g->last_time_row && p == g->nr_panels - 1) {
				char xt[96];

				x_title(cr, g, &f, xt, sizeof(xt));
				ss_set_rgb(cr, ss_col_text);
				ss_text_draw(cr, f.r.x + f.r.w / 2,
					     f.r.y + f.r.h + ss_metrics.tick_label_h, SS_CENTER,
					     SS_TOP, ss_metrics.font_small, false, xt, NULL);
			}
		}
		if (c->note[0])
			draw_note(cr, &g->lay.plot[0][i], c->note);
	}
	ss_table_draw(cr, &g->lay.table, &g->table);
	cairo_restore(cr);
}

int ss_graph_panel_title(const struct ss_graph *g, cairo_t *cr, int panel, int col, char *buf,
			 size_t len)
{
	struct ss_panel_data d;
	struct ss_frame f;
	char ybuf[48];

	if (!g->ran || panel < 0 || panel >= g->nr_panels || col < 0 || col >= g->nr)
		return -ENOENT;
	d = panel_data(g, col, panel);
	frame_for(g, panel, col, &f, ybuf, sizeof(ybuf));
	panel_heading(g, cr, col, panel, &d, &f, buf, len);
	return 0;
}

int ss_graph_x_title(const struct ss_graph *g, cairo_t *cr, int col, char *buf, size_t len)
{
	struct ss_frame f;
	char ybuf[48];

	if (!g->ran || col < 0 || col >= g->nr || g->last_time_row != g->nr_panels - 1)
		return -ENOENT;
	frame_for(g, g->last_time_row, col, &f, ybuf, sizeof(ybuf));
	x_title(cr, g, &f, buf, len);
	return 0;
}
