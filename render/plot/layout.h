// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Figure layout: where the title, legend, column headers, panels and the summary table go, and
 * the mapping from data values to device pixels.  Pure arithmetic on rectangles: the same
 * layout serves PNG, SVG and PDF, and tests use ss_axis_map() to find the pixel of a sector.
 * The metric constants (margins, font sizes) live in layout.c as const data.
 */
#ifndef SS_LAYOUT_H
#define SS_LAYOUT_H

#include <stdbool.h>

#define SS_LAYOUT_MAX_COLS 8
#define SS_LAYOUT_MAX_ROWS 12

struct ss_rect {
	double x, y, w, h;
};

/* A linear (or log10) map from a value range onto a pixel range; p0 may exceed p1 (y axes). */
struct ss_axis {
	double lo, hi;      /* data range */
	double p0, p1;      /* pixels of lo and hi */
	bool log;           /* log10 scale: lo must be > 0 */
};

/* Pixel of v (not clamped). */
double ss_axis_map(const struct ss_axis *a, double v);
/* Value at pixel p (inverse of ss_axis_map). */
double ss_axis_unmap(const struct ss_axis *a, double p);

struct ss_layout_spec {
	int width, height;
	int nr_cols;                            /* traces side by side, 1..SS_LAYOUT_MAX_COLS */
	int nr_rows;                            /* panels stacked, 1..SS_LAYOUT_MAX_ROWS */
	double row_weight[SS_LAYOUT_MAX_ROWS];  /* relative heights */
	int table_rows;                         /* summary table body rows (0: no table) */
	bool legend;
};

/* Font sizes and fixed heights shared by everything that draws. */
struct ss_metrics {
	double font_title, font_label, font_tick, font_small;
	double row_h;                           /* one summary-table row */
	double panel_title_h;                   /* space above each plot for its title */
	double tick_label_h;                    /* space below each plot for x tick labels */
	double gutter_left, gutter_right;       /* y tick labels + title; zone labels */
};
extern const struct ss_metrics ss_metrics;

struct ss_layout {
	struct ss_rect title;
	struct ss_rect legend;
	struct ss_rect col_header[SS_LAYOUT_MAX_COLS];
	struct ss_rect plot[SS_LAYOUT_MAX_ROWS][SS_LAYOUT_MAX_COLS];   /* the data area only */
	struct ss_rect table;
	int nr_rows, nr_cols;
};

/* Fill *l from *s.  Returns 0, or -EINVAL if counts are out of range or the picture is too
 * small to hold the panels (every plot must be at least 40 x 24 pixels). */
int ss_layout_compute(const struct ss_layout_spec *s, struct ss_layout *l);
/* The summary table's width in a picture WIDTH wide. */
double ss_layout_table_w(int width);
/* Smallest picture height that holds the spec's panels and table readably. */
int ss_layout_min_height(const struct ss_layout_spec *s);

/* A width that fits its room to the last bit counts as fitting: a width summed from parts (a
 * row's entries and gaps) or a room taken apart (a label's less its pads) may miss the other by
 * a rounding bit, which must not send a row to two rows or leave a label out. */
#define SS_FIT_EPS 1e-9

/*
 * A row of entries (the legend, a panel's key), entry I a mark MARK[I] wide (with the air
 * after it) and then a name NAME[I] wide, GAP between entries: the width of entries A..B-1.
 */
double ss_row_width(const double *mark, const double *name, int a, int b, double gap);
/* The even split of N such entries into two rows: the second row's first entry (the first
 * split whose wider row is narrowest), that row's width into *WIDTH; N < 2: N and the one
 * row's width. */
int ss_row_split(const double *mark, const double *name, int n, double gap, double *width);
/* N such entries in ROWS rows, 1 or 2 (2: ss_row_split): the second row's first entry, N for
 * one row, and the wider row's width into *WIDTH. */
int ss_row_layout(const double *mark, const double *name, int n, double gap, int rows,
		  double *width);

#endif
