// SPDX-License-Identifier: GPL-2.0-or-later
/* Figure layout arithmetic; see layout.h. */
#include <errno.h>
#include <math.h>

#include "layout.h"

const struct ss_metrics ss_metrics = {
	.font_title = 20, .font_label = 13.5, .font_tick = 12, .font_small = 11,
	.row_h = 19, .panel_title_h = 22, .tick_label_h = 20,
	.gutter_left = 78, .gutter_right = 60,
};

/* Fixed bands, top to bottom. */
static const double margin = 12, title_h = 34, legend_h = 26, header_h = 24, col_gap = 18,
		    xtitle_h = 18, table_gap = 14, min_plot_w = 40, min_plot_h = 24;

double ss_axis_map(const struct ss_axis *a, double v)
{
	double lo = a->lo, hi = a->hi;

	if (a->log) {
		lo = log10(lo);
		hi = log10(hi);
		v = v > 0 ? log10(v) : lo - 1;
	}
	if (hi == lo)
		return (a->p0 + a->p1) / 2;
	return a->p0 + (v - lo) / (hi - lo) * (a->p1 - a->p0);
}

double ss_axis_unmap(const struct ss_axis *a, double p)
{
	double lo = a->lo, hi = a->hi, v;

	if (a->log) {
		lo = log10(lo);
		hi = log10(hi);
	}
	if (a->p1 == a->p0)
		return lo;
	v = lo + (p - a->p0) / (a->p1 - a->p0) * (hi - lo);
	return a->log ? pow(10, v) : v;
}

static double table_height(const struct ss_layout_spec *s)
{
	return s->table_rows ? table_gap + ss_metrics.row_h * (s->table_rows + 1) : 0;
}

static double fixed_height(const struct ss_layout_spec *s)
{
	return 2 * margin + title_h + (s->legend ? legend_h : 0) + header_h + xtitle_h +
	       table_height(s) +
	       s->nr_rows * (ss_metrics.panel_title_h + ss_metrics.tick_label_h);
}

double ss_layout_table_w(int width)
{
	return width - 2 * margin;
}

int ss_layout_min_height(const struct ss_layout_spec *s)
{
	double wsum = 0;

	/* what ss_layout_compute needs: every row at least min_plot_h after weighting */
	for (int r = 0; r < s->nr_rows; r++)
		wsum += s->row_weight[r];
	return (int)ceil(fixed_height(s) + fmax(s->nr_rows * 60, wsum * min_plot_h));
}

int ss_layout_compute(const struct ss_layout_spec *s, struct ss_layout *l)
{
	double y, avail, wsum = 0, col_w, plot_w;

	if (s->nr_cols < 1 || s->nr_cols > SS_LAYOUT_MAX_COLS || s->nr_rows < 1 ||
	    s->nr_rows > SS_LAYOUT_MAX_ROWS || s->width <= 0 || s->height <= 0)
		return -EINVAL;
	for (int r = 0; r < s->nr_rows; r++) {
		if (!(s->row_weight[r] > 0))
			return -EINVAL;
		wsum += s->row_weight[r];
	}
	avail = s->height - fixed_height(s);
	col_w = (s->width - 2 * margin - (s->nr_cols - 1) * col_gap) / s->nr_cols;
	plot_w = col_w - ss_metrics.gutter_left - ss_metrics.gutter_right;
	if (plot_w < min_plot_w || avail / wsum * 0.5 < min_plot_h * 0.5)
		return -EINVAL;

	l->nr_rows = s->nr_rows;
	l->nr_cols = s->nr_cols;
	y = margin;
	l->title = (struct ss_rect){ margin, y, s->width - 2 * margin, title_h };
	y += title_h;
	if (s->legend) {
		l->legend = (struct ss_rect){ margin, y, s->width - 2 * margin, legend_h };
		y += legend_h;
	} else {
		l->legend = (struct ss_rect){ margin, y, s->width - 2 * margin, 0 };
	}
	for (int c = 0; c < s->nr_cols; c++) {
		double x = margin + c * (col_w + col_gap);

		/* over the plots and the zone labels right of them */
		l->col_header[c] = (struct ss_rect){ x + ss_metrics.gutter_left, y,
						     plot_w + ss_metrics.gutter_right, header_h };
	}
	y += header_h;
	for (int r = 0; r < s->nr_rows; r++) {
		double h = floor(avail * s->row_weight[r] / wsum);

		if (h < min_plot_h)
			return -EINVAL;
		y += ss_metrics.panel_title_h;
		for (int c = 0; c < s->nr_cols; c++) {
			double x = margin + c * (col_w + col_gap) + ss_metrics.gutter_left;

			/* whole pixels keep the per-pixel grids crisp */
			l->plot[r][c] = (struct ss_rect){ round(x), round(y), floor(plot_w), h };
		}
		y += h + ss_metrics.tick_label_h;
	}
	y += xtitle_h;
	l->table = (struct ss_rect){ margin, y + (s->table_rows ? table_gap : 0),
				     ss_layout_table_w(s->width),
				     s->table_rows ? ss_metrics.row_h * (s->table_rows + 1) : 0 };
	return 0;
}

double ss_row_width(const double *mark, const double *name, int a, int b, double gap)
{
	double sum = 0;

	for (int i = a; i < b; i++)
		sum += (i > a ? gap : 0) + mark[i] + name[i];
	return sum;
}

int ss_row_split(const double *mark, const double *name, int n, double gap, double *width)
{
	int split = n;

	*width = ss_row_width(mark, name, 0, n, gap);
	for (int s = 1; s < n; s++) {
		double wide = fmax(ss_row_width(mark, name, 0, s, gap),
				   ss_row_width(mark, name, s, n, gap));

		if (s == 1 || wide < *width) {
			*width = wide;
			split = s;
		}
	}
	return split;
}

int ss_row_layout(const double *mark, const double *name, int n, double gap, int rows,
		  double *width)
{
	if (rows == 2)
		return ss_row_split(mark, name, n, gap, width);
	*width = ss_row_width(mark, name, 0, n, gap);
	return n;
}
