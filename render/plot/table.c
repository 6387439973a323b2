// SPDX-License-Identifier: GPL-2.0-or-later
/* Summary table drawing with the better value per column highlighted; see table.h. */
#include <math.h>
#include <stdio.h>

#include "palette.h"
#include "table.h"
#include "text.h"

struct column {
	const char *head;
	int better;                 /* +1 higher is better, -1 lower is better */
	bool (*get)(const struct ss_table_row *r, double *v);
	const char *fmt;
	bool optional;              /* drawn only when some row has a value */
};

static bool get_dur(const struct ss_table_row *r, double *v) { *v = r->s->duration_s; return true; }
static bool get_rmb(const struct ss_table_row *r, double *v) { *v = r->s->read_mb_s; return true; }
static bool get_wmb(const struct ss_table_row *r, double *v) { *v = r->s->write_mb_s; return true; }
static bool get_iops(const struct ss_table_row *r, double *v) { *v = r->s->iops; return true; }
static bool get_seeks(const struct ss_table_row *r, double *v)
{
	*v = r->s->seeks_per_s;
	return true;
}
static bool get_p50(const struct ss_table_row *r, double *v)
{
	*v = (double)r->s->lat_p50_ns / 1e6;
	return r->s->lat.count > 0;
}
static bool get_p99(const struct ss_table_row *r, double *v)
{
	*v = (double)r->s->lat_p99_ns / 1e6;
	return r->s->lat.count > 0;
}
static bool get_files(const struct ss_table_row *r, double *v)
{
	*v = r->files_per_s;
	return r->has_files;
}
static bool get_lost(const struct ss_table_row *r, double *v)
{
	*v = (double)r->lost;
	return r->has_lost;
}

static bool get_model(const struct ss_table_row *r, double *v)
{
	*v = r->model_s;
	return r->has_model;
}

static const struct column columns[] = {
	{ "duration s", -1, get_dur, "%.2f" },
	{ "read MB/s", +1, get_rmb, "%.2f" },
	{ "write MB/s", +1, get_wmb, "%.2f" },
	{ "IOPS", +1, get_iops, "%.0f" },
	{ "seeks/s", -1, get_seeks, "%.0f" },
	{ "modelled s", -1, get_model, "%.2f", true },
	{ "lat p50 ms", -1, get_p50, "%.2f" },
	{ "lat p99 ms", -1, get_p99, "%.2f" },
	{ "files/s", +1, get_files, "%.0f" },
	{ "lost events", -1, get_lost, "%.0f" },
};
#define NR_COLS (int)(sizeof(columns) / sizeof(columns[0]))

int ss_table_rows(const size_t *nr_phases, int n, int max_rows)
{
	int rows = 0;

	for (int i = 0; i < n; i++)
		rows += 1 + (int)nr_phases[i];
	return rows > max_rows ? max_rows : rows;
}

/* Is row i's value in column c the best of its group (and the group not all equal)? */
static bool is_best(const struct ss_table_row *rows, int n, int i, const struct column *c)
{
	double mine, best = NAN, worst = NAN, v;
	int members = 0;

	if (!c->get(&rows[i], &mine))
		return false;
	for (int j = 0; j < n; j++) {
		if (rows[j].group != rows[i].group || !c->get(&rows[j], &v))
			continue;
		members++;
		if (isnan(best) || v * c->better > best * c->better)
			best = v;
		if (isnan(worst) || v * c->better < worst * c->better)
			worst = v;
	}
	/* compare at display precision: 1.234 and 1.2341 are a tie */
	return members > 1 && fabs(best - worst) > 1e-9 * fabs(best) + 0.005 &&
	       fabs(mine - best) <= 1e-9 * fabs(best);
}

/* Does column C appear: always, or for an optional one when some row has a value? */
static bool shown(const struct column *c, const struct ss_table_row *rows, int n)
{
	double v;

	for (int i = 0; c->optional && i < n; i++)
		if (c->get(&rows[i], &v))
			return true;
	return !c->optional;
}

void ss_table_draw(cairo_t *cr, const struct ss_rect *r, const struct ss_table_row *rows, int n)
{
	const double rh = ss_metrics.row_h, fs = ss_metrics.font_small;
	const double run_w = fmin(260, r->w * 0.18), phase_w = fmin(120, r->w * 0.09);
	const struct column *cols[NR_COLS];
	int nc = 0;
	double cw, y = r->y;
	char buf[64];

	if (n <= 0)
		return;
	for (int c = 0; c < NR_COLS; c++)
		if (shown(&columns[c], rows, n))
			cols[nc++] = &columns[c];
	cw = (r->w - run_w - phase_w) / nc;
	cairo_save(cr);
	ss_set_rgb(cr, ss_col_text);
	ss_text_draw(cr, r->x + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, true, "run", NULL);
	ss_text_draw(cr, r->x + run_w + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, true, "phase", NULL);
	for (int c = 0; c < nc; c++)
		ss_text_draw(cr, r->x + run_w + phase_w + (c + 1) * cw - 6, y + rh / 2, SS_RIGHT,
			     SS_MIDDLE, fs, true, cols[c]->head, NULL);
	ss_set_rgb(cr, ss_col_axis);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, r->x, y + rh + 0.5);
	cairo_line_to(cr, r->x + r->w, y + rh + 0.5);
	cairo_stroke(cr);
	for (int i = 0; i < n; i++) {
		const struct ss_table_row *row = &rows[i];

		y += rh;
		if (i > 0 && row->group != rows[i - 1].group) {
			cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
			cairo_move_to(cr, r->x, y + 0.5);
			cairo_line_to(cr, r->x + r->w, y + 0.5);
			cairo_stroke(cr);
		}
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, r->x + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, false, row->run, NULL);
		ss_text_draw(cr, r->x + run_w + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, row->group == 0,
			     row->phase, NULL);
		for (int c = 0; c < nc; c++) {
			double v, x1 = r->x + run_w + phase_w + (c + 1) * cw;
			bool best = is_best(rows, n, i, cols[c]);

			if (!cols[c]->get(row, &v)) {
				snprintf(buf, sizeof(buf), "-");
			} else {
				snprintf(buf, sizeof(buf), cols[c]->fmt, v);
			}
			if (best) {
				ss_set_rgb(cr, ss_col_best);
				cairo_rectangle(cr, x1 - cw + 2, y + 1, cw - 3, rh - 2);
				cairo_fill(cr);
			}
			ss_set_rgb(cr, ss_col_text);
			ss_text_draw(cr, x1 - 6, y + rh / 2, SS_RIGHT, SS_MIDDLE, fs, best, buf, NULL);
		}
	}
	cairo_restore(cr);
}
