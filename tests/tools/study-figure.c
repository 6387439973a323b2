// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * study-figure: the figure of samples/agcount-study.sh, drawn with seekscope's own cairo
 * modules (surface, text, axes, ticks).  It reads the study's table (study.tsv, written by
 * samples/agcount-study.py from `seekscope report --json --disk`) and draws, for each phase
 * (a row), three bar charts over the configurations: the modelled disk time stacked as seek,
 * rotation, transfer and overhead; the seeks; and the time measured on the capture's device.
 * With several runs the mean is the bar and a whisker spans min-max.  It computes nothing
 * itself: every value it draws is in the table next to the figure.
 *
 *   study-figure -o OUT.png|.svg|.pdf STUDY.tsv
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "axes.h"
#include "palette.h"
#include "surface.h"
#include "text.h"
#include "ticks.h"

#define MAX_ROWS 64
#define MAX_CONFIGS 16
#define MAX_PHASES 4
#define NR_METRICS 8

/* The TSV's metric columns, each as mean, min, max (agcount-study.py's METRICS). */
enum { M_SEEKS, M_SEEKS_PER_S, M_MEASURED, M_MODEL, M_SEEK, M_ROT, M_XFER, M_OVH };

struct row {
	char config[32], label[48], phase[32];
	int runs;
	double v[NR_METRICS][3];
};

struct study {
	char title[256], model[32];
	struct row rows[MAX_ROWS];
	int nr;
	char configs[MAX_CONFIGS][48];      /* labels, first-seen order */
	int nr_configs;
	char phases[MAX_PHASES][32];
	int nr_phases;
	int max_runs;
	bool others;                        /* configurations that are not XFS agcount=N */
};

static int index_of(char (*list)[48], int *n, int max, const char *s)
{
	for (int i = 0; i < *n; i++)
		if (!strcmp(list[i], s))
			return i;
	if (*n >= max)
		return -1;
	snprintf(list[*n], 48, "%s", s);
	return (*n)++;
}

/* 0, or -1 with a message on stderr. */
static int read_study(const char *path, struct study *s)
{
	char line[2048], phases[MAX_PHASES][48];
	FILE *f = fopen(path, "r");
	int lineno = 0;

	if (!f) {
		fprintf(stderr, "study-figure: %s: %s\n", path, strerror(errno));
		return -1;
	}
	memset(s, 0, sizeof(*s));
	while (fgets(line, sizeof(line), f)) {
		struct row *r = &s->rows[s->nr];
		char *tok, *save = NULL;
		int col = 0;

		lineno++;
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "# title: ", 9)) {
			snprintf(s->title, sizeof(s->title), "%.255s", line + 9);
			continue;
		}
		if (!strncmp(line, "# model: ", 9)) {
			snprintf(s->model, sizeof(s->model), "%.31s", line + 9);
			continue;
		}
		if (line[0] == '#' || !line[0] || !strncmp(line, "config\t", 7))
			continue;
		if (s->nr >= MAX_ROWS)
			break;
		memset(r, 0, sizeof(*r));
		for (tok = strtok_r(line, "\t", &save); tok; tok = strtok_r(NULL, "\t", &save), col++) {
			if (col == 0)
				snprintf(r->config, sizeof(r->config), "%s", tok);
			else if (col == 1)
				snprintf(r->label, sizeof(r->label), "%s", tok);
			else if (col == 2)
				snprintf(r->phase, sizeof(r->phase), "%s", tok);
			else if (col == 3)
				r->runs = atoi(tok);
			else if (col < 4 + 3 * NR_METRICS)
				r->v[(col - 4) / 3][(col - 4) % 3] = strtod(tok, NULL);
		}
		if (col != 4 + 3 * NR_METRICS || r->runs < 1) {
			fprintf(stderr, "study-figure: %s: line %d: not a study row (%d columns)\n",
				path, lineno, col);
			fclose(f);
			return -1;
		}
		if (index_of(s->configs, &s->nr_configs, MAX_CONFIGS, r->label) < 0 ||
		    index_of(phases, &s->nr_phases, MAX_PHASES, r->phase) < 0) {
			fprintf(stderr, "study-figure: %s: too many configurations or phases\n", path);
			fclose(f);
			return -1;
		}
		if (r->runs > s->max_runs)
			s->max_runs = r->runs;
		s->others |= strncmp(r->label, "XFS agcount=", 12) != 0;
		s->nr++;
	}
	fclose(f);
	for (int i = 0; i < s->nr_phases; i++)
		snprintf(s->phases[i], sizeof(s->phases[i]), "%s", phases[i]);
	if (!s->nr) {
		fprintf(stderr, "study-figure: %s: no rows\n", path);
		return -1;
	}
	return 0;
}

static const struct row *find(const struct study *s, const char *label, const char *phase)
{
	for (int i = 0; i < s->nr; i++)
		if (!strcmp(s->rows[i].label, label) && !strcmp(s->rows[i].phase, phase))
			return &s->rows[i];
	return NULL;
}

/* The stacked parts of the modelled time, bottom to top (the model panel's colours). */
static const struct { int m; const char *name; struct ss_rgb c; } parts[] = {
	{ M_SEEK, "seek", SS_RGB(0xD55E00) },
	{ M_ROT, "rotation", SS_RGB(0xE69F00) },
	{ M_XFER, "transfer", SS_RGB(0x0072B2) },
	{ M_OVH, "overhead", SS_RGB(0x999999) },
};
#define NR_PARTS (int)(sizeof(parts) / sizeof(parts[0]))

struct chart {
	const char *title, *y_title;
	int metric;                 /* the bar (mean) and its whisker (min-max) */
	bool stacked;               /* split the bar into parts */
	const char *fmt;            /* value label */
	struct ss_rgb colour;
};

/* The top of chart C's scale: the largest max, with room for the labels, up to a tick. */
static double scale_top(const struct study *s, const struct chart *c)
{
	double hi = 0;
	struct ss_ticks t;

	for (int i = 0; i < s->nr; i++)
		hi = fmax(hi, s->rows[i].v[c->metric][2]);
	hi = hi > 0 ? hi * 1.12 : 1;
	if (!ss_ticks_compute(0, hi, 6, &t) && ss_ticks_value(&t, t.count - 1) < hi)
		hi = ss_ticks_value(&t, t.count - 1) + t.step;
	return hi;
}

static void draw_chart(cairo_t *cr, const struct study *s, const struct chart *c,
		       const char *phase, double top, struct ss_rect r)
{
	struct ss_frame f = {
		.r = r, .y = { 0, top, r.y + r.h, r.y, false }, .xu = { "", 1 }, .yu = { "", 1 },
		.y_title = c->y_title,
	};
	double slot = r.w / s->nr_configs, bw = slot * 0.6;
	char buf[64];

	ss_set_rgb(cr, ss_col_text);
	snprintf(buf, sizeof(buf), "%s: %s", phase, c->title);
	ss_text_draw(cr, r.x, r.y - 12, SS_LEFT, SS_MIDDLE, ss_metrics.font_label, true, buf, NULL);
	ss_axes_background(cr, &f);
	ss_axes_y(cr, &f);
	for (int k = 0; k < s->nr_configs; k++) {
		const struct row *row = find(s, s->configs[k], phase);
		double x = r.x + slot * k + (slot - bw) / 2, cx = x + bw / 2;
		const char *lab = s->configs[k];

		/* "XFS agcount=4" -> "4": the axis title says what the numbers are */
		if (!strncmp(lab, "XFS agcount=", 12))
			lab += 12;
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, cx, r.y + r.h + 4, SS_CENTER, SS_TOP, ss_metrics.font_tick, false,
			     lab, NULL);
		if (!row)
			continue;
		if (c->stacked) {
			double base = 0;

			for (int p = 0; p < NR_PARTS; p++) {
				double v = row->v[parts[p].m][0];
				double y0 = ss_axis_map(&f.y, base), y1 = ss_axis_map(&f.y, base + v);

				ss_set_rgba(cr, parts[p].c, 0.85);
				cairo_rectangle(cr, x, y1, bw, y0 - y1);
				cairo_fill(cr);
				base += v;
			}
		} else {
			double y1 = ss_axis_map(&f.y, row->v[c->metric][0]);

			ss_set_rgba(cr, c->colour, 0.85);
			cairo_rectangle(cr, x, y1, bw, ss_axis_map(&f.y, 0) - y1);
			cairo_fill(cr);
		}
		if (row->runs > 1) {      /* min-max over the runs */
			double lo = ss_axis_map(&f.y, row->v[c->metric][1]);
			double hi = ss_axis_map(&f.y, row->v[c->metric][2]);

			ss_set_rgb(cr, ss_col_text);
			cairo_set_line_width(cr, 1.2);
			cairo_move_to(cr, cx, lo);
			cairo_line_to(cr, cx, hi);
			cairo_move_to(cr, cx - bw / 5, lo);
			cairo_line_to(cr, cx + bw / 5, lo);
			cairo_move_to(cr, cx - bw / 5, hi);
			cairo_line_to(cr, cx + bw / 5, hi);
			cairo_stroke(cr);
		}
		snprintf(buf, sizeof(buf), c->fmt, row->v[c->metric][0]);
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, cx, ss_axis_map(&f.y, row->v[c->metric][row->runs > 1 ? 2 : 0]) - 3,
			     SS_CENTER, SS_BOTTOM, ss_metrics.font_small, true, buf, NULL);
	}
	ss_set_rgb(cr, ss_col_axis);
	ss_text_draw(cr, r.x + r.w / 2, r.y + r.h + 22, SS_CENTER, SS_TOP, ss_metrics.font_small,
		     false, s->others ? "XFS agcount (and the others)" : "XFS agcount", NULL);
	ss_axes_border(cr, &f);
}

static void draw_legend(cairo_t *cr, double x, double y, const struct study *s)
{
	char buf[200];
	struct ss_box b;

	for (int p = 0; p < NR_PARTS; p++) {
		ss_set_rgba(cr, parts[p].c, 0.85);
		cairo_rectangle(cr, x, y - 6, 14, 12);
		cairo_fill(cr);
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, x + 19, y, SS_LEFT, SS_MIDDLE, ss_metrics.font_small, false,
			     parts[p].name, &b);
		x = b.x + b.w + 18;
	}
	snprintf(buf, sizeof(buf), "bars: mean of %d run%s%s", s->max_runs,
		 s->max_runs > 1 ? "s" : "", s->max_runs > 1 ? "; whiskers: min-max" : "");
	ss_set_rgb(cr, ss_col_axis);
	ss_text_draw(cr, x + 10, y, SS_LEFT, SS_MIDDLE, ss_metrics.font_small, false, buf, NULL);
}

int main(int argc, char **argv)
{
	static struct study s;
	const int w = 1500, col_w = w / 3, row_h = 330, top = 96;
	char model_title[64], model_y[48], err[256], title[400];
	struct ss_surface *surf;
	cairo_t *cr;
	int h, fmt;

	if (argc != 4 || strcmp(argv[1], "-o")) {
		fprintf(stderr, "usage: study-figure -o OUT.png|.svg|.pdf STUDY.tsv\n");
		return 2;
	}
	if ((fmt = ss_out_format_from_path(argv[2])) < 0) {
		fprintf(stderr, "study-figure: %s: the name must end in .png, .svg or .pdf\n", argv[2]);
		return 2;
	}
	if (read_study(argv[3], &s))
		return 1;
	snprintf(model_title, sizeof(model_title), "modelled %s time", s.model);
	snprintf(model_y, sizeof(model_y), "%s s", s.model);
	const struct chart charts[] = {
		{ model_title, model_y, M_MODEL, true, "%.1f", SS_RGB(0x000000) },
		{ "seeks", "seeks", M_SEEKS, false, "%.0f", SS_RGB(0x555555) },
		{ "measured time (this machine)", "s", M_MEASURED, false, "%.2f", SS_RGB(0x009E73) },
	};
	h = top + row_h * s.nr_phases + 10;
	surf = ss_surface_new(argv[2], (enum ss_out_format)fmt, w, h, err, sizeof(err));
	if (!surf) {
		fprintf(stderr, "study-figure: %s\n", err);
		return 1;
	}
	cr = ss_surface_cairo(surf);
	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	snprintf(title, sizeof(title), "What XFS's allocation groups cost on a %s disk: %s",
		 s.model, s.title);
	ss_set_rgb(cr, ss_col_text);
	ss_text_draw(cr, w / 2.0, 24, SS_CENTER, SS_MIDDLE, ss_metrics.font_title, true, title, NULL);
	draw_legend(cr, ss_metrics.gutter_left, 58, &s);
	for (int p = 0; p < s.nr_phases; p++)
		for (int c = 0; c < 3; c++) {
			struct ss_rect r = { c * col_w + ss_metrics.gutter_left, top + p * row_h + 30,
					     col_w - ss_metrics.gutter_left - 24, row_h - 30 - 52 };

			draw_chart(cr, &s, &charts[c], s.phases[p], scale_top(&s, &charts[c]), r);
		}
	if (ss_surface_finish(surf, err, sizeof(err))) {
		fprintf(stderr, "study-figure: %s: %s\n", argv[2], err);
		ss_surface_free(surf);
		return 1;
	}
	ss_surface_free(surf);
	return 0;
}
