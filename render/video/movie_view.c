// SPDX-License-Identifier: GPL-2.0-or-later
/* The animated area of a movie column: grid, spindle and scan (movie_view.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seekscope/model.h"
#include "movie_view.h"
#include "palette.h"
#include "text.h"
#include "ticks.h"
#include "zones.h"

#define SCAN_CELL 2             /* scan: the io panel's cells (render/plot/panels/panel_io.c) */
#define SCAN_MARK_W 12          /* scan: the current frame's requests, left of the cursor */
#define TRACE_ALPHA 0.22        /* grid/spindle: what stays of a cell once lit */
#define FADED_ALPHA 0.3         /* grid/spindle: a lit cell's last frame */

struct mv_view {
	enum ss_movie_style style;
	struct ss_frame f;
	int cell, fade;
	const struct ss_trace *t;
	uint64_t y_lo, y_hi;
	struct ss_io_classes ic;
	cairo_surface_t *bg;
	cairo_t *bg_cr;
	/* grid and spindle: cells in LBA order */
	uint32_t ncells;
	double spc;                 /* sectors per cell */
	int32_t *last;              /* 1 + the frame a cell was last lit in; 0: never */
	struct ss_rgb pal[MV_MAX_COLOURS];  /* the colours lit, by number */
	int npal;
	uint16_t *cls;              /* bits of the colours lit there in that frame */
	uint16_t *seen;             /* bits: the colour's faint trace is drawn */
	bool has_head;
	uint32_t head;              /* the cell where the last request ended */
	int cols, rows;             /* grid */
	double ox, oy;
	double cx, cy, r_out, ring_w, px_x, px_y;     /* spindle, px_*: the arm's pivot */
	int rings, segs;
	/* scan: the io panel's grid, revealed as the requests come */
	int gw, gh;
	double ns_per_col, sect_per_row;
	uint16_t *scls;             /* gw * gh: colour bits drawn there, row 0 at the bottom */
	int64_t *row_frame;         /* gh: 1 + the last frame a request touched the row */
	uint16_t *row_cls;          /* gh: colour bits of the row's requests in that frame */
};

_Static_assert(SS_CLS_NR_AREA <= MV_MAX_COLOURS && MV_MAX_COLOURS <= 16,
	       "a set of colours fits a uint16_t");
#define BIT(c) ((uint16_t)(1u << (c)))

/*
 * No colour hides another (as in the io panel): a cell lit in several colours in one frame
 * is shared among them.  The colours in MASK, in palette order, into OUT; how many.
 */
static int colours_of(const struct mv_view *v, unsigned mask, int out[MV_MAX_COLOURS])
{
	int n = 0;

	for (int c = 0; c < v->npal; c++)
		if (mask & BIT(c))
			out[n++] = c;
	return n;
}

void mv_view_free(struct mv_view *v)
{
	if (!v)
		return;
	free(v->last);
	free(v->cls);
	free(v->seen);
	free(v->scls);
	free(v->row_frame);
	free(v->row_cls);
	ss_io_classes_fini(&v->ic);
	if (v->bg_cr)
		cairo_destroy(v->bg_cr);
	free(v);
}

static void grid_geometry(struct mv_view *v)
{
	const struct ss_rect *r = &v->f.r;

	v->cols = (int)(r->w / v->cell);
	v->rows = (int)(r->h / v->cell);
	if (v->cols < 1)
		v->cols = 1;
	if (v->rows < 1)
		v->rows = 1;
	v->ox = round(r->x + (r->w - v->cols * v->cell) / 2);
	v->oy = round(r->y + (r->h - v->rows * v->cell) / 2);
	v->ncells = (uint32_t)v->cols * (uint32_t)v->rows;
}

/* A platter as large as the area's height allows, left of centre: the arm's pivot and the
 * caption go to its right. */
static void spindle_geometry(struct mv_view *v)
{
	const struct ss_rect *r = &v->f.r;
	double side = fmin(r->w * 0.7, r->h);
	double r_in;
	int segs;

	v->r_out = side / 2 - 4;
	r_in = v->r_out * 0.2;
	v->cx = r->x + r->w * 0.38;
	if (v->cx - v->r_out < r->x + 4)
		v->cx = r->x + 4 + v->r_out;
	v->cy = r->y + r->h / 2;
	v->rings = (int)((v->r_out - r_in) / v->cell);
	if (v->rings < 1)
		v->rings = 1;
	v->ring_w = (v->r_out - r_in) / v->rings;
	/* cells about `cell` long halfway out */
	segs = (int)lround(M_PI * (v->r_out + r_in) / v->cell);
	v->segs = segs < 8 ? 8 : segs > 4096 ? 4096 : segs;
	v->ncells = (uint32_t)v->rings * (uint32_t)v->segs;
	v->px_x = v->cx + v->r_out * 1.35;
	v->px_y = v->cy - v->r_out * 0.85;
}

/* A sector of the y axis as an integer: 0 below, UINT64_MAX from 2^64 up (a y range read
 * from options or a damaged trace may reach past what converts). */
static uint64_t sector_of(double y)
{
	if (!(y > 0))
		return 0;
	return y >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)y;
}

struct mv_view *mv_view_new(const struct mv_view_init *in)
{
	struct mv_view *v = calloc(1, sizeof(*v));

	if (!v)
		return NULL;
	v->style = in->style;
	v->f = *in->f;
	v->cell = in->cell;
	v->fade = in->fade > 0 ? in->fade : 1;
	v->t = in->trace;
	v->bg = in->bg;
	v->npal = in->colours ? in->nr_colours : SS_CLS_NR_AREA;
	if (v->npal > MV_MAX_COLOURS)
		v->npal = MV_MAX_COLOURS;
	for (int c = 0; c < v->npal; c++)
		v->pal[c] = in->colours ? in->colours[c] : ss_classes[c].rgb;
	v->y_lo = sector_of(v->f.y.lo);
	v->y_hi = sector_of(v->f.y.hi);
	if (v->y_hi <= v->y_lo) {
		if (v->y_lo == UINT64_MAX)
			v->y_lo--;
		v->y_hi = v->y_lo + 1;
	}
	v->bg_cr = cairo_create(in->bg);
	if (cairo_status(v->bg_cr) || ss_io_classes_init(&v->ic, v->t))
		goto nomem;
	if (v->style == SS_MOVIE_SCAN) {
		v->gw = (int)(v->f.r.w / SCAN_CELL);
		v->gh = (int)(v->f.r.h / SCAN_CELL);
		if (v->gw < 1)
			v->gw = 1;
		if (v->gh < 1)
			v->gh = 1;
		v->ns_per_col = (v->f.x.hi - v->f.x.lo) / v->gw;
		v->sect_per_row = (double)(v->y_hi - v->y_lo) / v->gh;
		v->scls = calloc((size_t)v->gw * (size_t)v->gh, sizeof(*v->scls));
		v->row_frame = calloc((size_t)v->gh, sizeof(*v->row_frame));
		v->row_cls = calloc((size_t)v->gh, sizeof(*v->row_cls));
		if (!v->scls || !v->row_frame || !v->row_cls)
			goto nomem;
		return v;
	}
	if (v->style == SS_MOVIE_GRID)
		grid_geometry(v);
	else
		spindle_geometry(v);
	v->spc = (double)(v->y_hi - v->y_lo) / v->ncells;
	v->last = calloc(v->ncells, sizeof(*v->last));
	v->cls = calloc(v->ncells, sizeof(*v->cls));
	v->seen = calloc(v->ncells, sizeof(*v->seen));
	if (!v->last || !v->cls || !v->seen)
		goto nomem;
	return v;
nomem:
	mv_view_free(v);
	errno = ENOMEM;
	return NULL;
}

/* ---- grid and spindle: cells ------------------------------------------------------------- */

static uint32_t cell_of(const struct mv_view *v, uint64_t sector)
{
	double c = sector <= v->y_lo ? 0 : (double)(sector - v->y_lo) / v->spc;

	return c >= v->ncells ? v->ncells - 1 : (uint32_t)c;
}

/* Cells I..J (inclusive, one row or ring) as one shape; GAP: leave grid cells 1 px apart.
 * Part K of N of the cells' height (grid, top first) or width (spindle, outside first). */
static void cells_part_path(const struct mv_view *v, cairo_t *cr, uint32_t i, uint32_t j,
			    bool gap, int k, int n)
{
	if (v->style == SS_MOVIE_GRID) {
		double g = gap && v->cell >= 5 ? 1 : 0, h = (v->cell - g) / n;
		double x = v->ox + (double)(i % (uint32_t)v->cols) * v->cell;
		double y = v->oy + (double)(i / (uint32_t)v->cols) * v->cell;

		cairo_rectangle(cr, x, y + k * h, (double)(j - i + 1) * v->cell - g, h);
	} else {
		uint32_t ring = i / (uint32_t)v->segs;
		double ro = v->r_out - ring * v->ring_w - k * v->ring_w / n, ri = ro - v->ring_w / n;
		double a0 = -M_PI / 2 + 2 * M_PI * (i % (uint32_t)v->segs) / v->segs;
		double a1 = -M_PI / 2 + 2 * M_PI * (j % (uint32_t)v->segs + 1) / v->segs;

		cairo_new_sub_path(cr);
		cairo_arc(cr, v->cx, v->cy, ro, a0, a1);
		cairo_arc_negative(cr, v->cx, v->cy, ri, a1, a0);
		cairo_close_path(cr);
	}
}

static void cells_path(const struct mv_view *v, cairo_t *cr, uint32_t i, uint32_t j, bool gap)
{
	cells_part_path(v, cr, i, j, gap, 0, 1);
}

static uint32_t line_len(const struct mv_view *v)
{
	return v->style == SS_MOVIE_GRID ? (uint32_t)v->cols : (uint32_t)v->segs;
}

static void cell_centre(const struct mv_view *v, uint32_t i, double *x, double *y)
{
	if (v->style == SS_MOVIE_GRID) {
		*x = v->ox + (i % (uint32_t)v->cols + 0.5) * v->cell;
		*y = v->oy + (i / (uint32_t)v->cols + 0.5) * v->cell;
	} else {
		double r = v->r_out - (i / (uint32_t)v->segs + 0.5) * v->ring_w;
		double a = -M_PI / 2 + 2 * M_PI * (i % (uint32_t)v->segs + 0.5) / v->segs;

		*x = v->cx + r * cos(a);
		*y = v->cy + r * sin(a);
	}
}

/* The zone a cell shows: the most specific one at its middle sector. */
static const struct ss_rec_zone *cell_zone(const struct mv_view *v, uint32_t i)
{
	uint64_t s = v->y_lo + (uint64_t)((i + 0.5) * v->spc);

	return v->t->nr_zones ? ss_trace_zone_at(v->t, v->t->zones[0].dev, s) : NULL;
}

/* The plot's zone shading (zones.c): every other AG or group grey, the log yellow. */
static void zone_colour(const struct ss_rec_zone *z, double rgb[3])
{
	double grey = 0.955;

	if (z && (z->kind == SS_ZONE_AG || z->kind == SS_ZONE_GROUP))
		grey = z->index & 1 ? 0.9 : 0.955;
	rgb[0] = rgb[1] = rgb[2] = grey;
	if (z && (z->kind == SS_ZONE_LOG || z->kind == SS_ZONE_JOURNAL)) {
		rgb[0] = 1 - 0.5 * (1 - ss_col_logband.r);
		rgb[1] = 1 - 0.5 * (1 - ss_col_logband.g);
		rgb[2] = 1 - 0.5 * (1 - ss_col_logband.b);
	} else if (z && z->kind == SS_ZONE_INODE_TABLE) {
		rgb[0] = 1 - 0.3 * (1 - ss_col_itable.r);
		rgb[1] = 1 - 0.3 * (1 - ss_col_itable.g);
		rgb[2] = 1 - 0.3 * (1 - ss_col_itable.b);
	}
}

/* Lines where the zone changes between neighbouring cells: zone outlines. */
static void zone_outlines(const struct mv_view *v, cairo_t *cr, const struct ss_rec_zone **zone)
{
	uint32_t n = line_len(v);

	cairo_save(cr);
	cairo_set_source_rgba(cr, 0.25, 0.25, 0.25, 0.8);
	cairo_set_line_width(cr, 1.5);
	for (uint32_t i = 0; i < v->ncells; i++) {
		bool right = i % n + 1 < n && zone[i + 1] != zone[i];
		bool below = i + n < v->ncells && zone[i + n] != zone[i];

		if (v->style == SS_MOVIE_GRID) {
			double x = v->ox + (i % n) * v->cell, y = v->oy + (i / n) * v->cell;

			if (right) {
				cairo_move_to(cr, x + v->cell - 0.5, y);
				cairo_line_to(cr, x + v->cell - 0.5, y + v->cell);
			}
			if (below) {
				cairo_move_to(cr, x, y + v->cell - 0.5);
				cairo_line_to(cr, x + v->cell, y + v->cell - 0.5);
			}
		} else {
			double ro = v->r_out - (i / n) * v->ring_w, ri = ro - v->ring_w;
			double a0 = -M_PI / 2 + 2 * M_PI * (i % n) / n, a1 = a0 + 2 * M_PI / n;

			if (right) {
				cairo_move_to(cr, v->cx + ro * cos(a1), v->cy + ro * sin(a1));
				cairo_line_to(cr, v->cx + ri * cos(a1), v->cy + ri * sin(a1));
			}
			if (below) {
				cairo_new_sub_path(cr);
				cairo_arc(cr, v->cx, v->cy, ri, a0, a1);
			}
		}
	}
	cairo_stroke(cr);
	cairo_restore(cr);
}

/* AGs, the log or journal, and groups when there are few, named at their middle cell. */
static void zone_labels(const struct mv_view *v, cairo_t *cr)
{
	size_t groups = 0;

	for (size_t i = 0; i < v->t->nr_zones; i++)
		groups += v->t->zones[i].kind == SS_ZONE_GROUP;
	for (size_t i = 0; i < v->t->nr_zones; i++) {
		const struct ss_rec_zone *z = &v->t->zones[i];
		uint64_t a = z->start_sector, b = z->start_sector + z->nr_sectors;
		bool log = z->kind == SS_ZONE_LOG || z->kind == SS_ZONE_JOURNAL;
		double x, y;

		if (!(z->kind == SS_ZONE_AG || log || (z->kind == SS_ZONE_GROUP && groups <= 16)) ||
		    b <= v->y_lo || a >= v->y_hi)
			continue;
		/* containers named a quarter in: a log often sits in the middle of its AG */
		cell_centre(v, cell_of(v, log ? a / 2 + b / 2 : a + (b - a) / 4), &x, &y);
		ss_set_rgb(cr, log ? ss_col_text : ss_col_axis);
		ss_text_draw_plated(cr, x, y, SS_CENTER, SS_MIDDLE, ss_metrics.font_small, log,
				    z->label, NULL);
	}
}

/* VALUE (in a unit) with as many decimals as labels STEP apart need. */
static void fmt_offset(char *buf, size_t len, double value, double step)
{
	int d = step >= 10 ? 0 : step >= 1 ? 1 : step >= 0.1 ? 2 : 3;

	snprintf(buf, len, "%.*f", d, value);
}

/* Where the offsets are: grid rows labelled in the left gutter, spindle a caption. */
static void offset_labels(const struct mv_view *v, cairo_t *cr)
{
	struct ss_unit u = ss_unit_offset(SS_UNITS_AUTO, (double)(v->y_hi - v->y_lo));
	char buf[160], lo[32], hi[32], inner[64];
	const char *lines[3] = { buf, inner, "clockwise from 12 o'clock" };
	double x, y, widest = 1, fs;

	ss_set_rgb(cr, ss_col_text);
	if (v->style == SS_MOVIE_GRID) {
		int every = (int)ceil(22.0 / v->cell);

		for (int row = 0; row < v->rows; row += every) {
			double s = v->y_lo + (double)row * v->cols * v->spc;

			fmt_offset(buf, sizeof(buf), s / u.div, every * v->cols * v->spc / u.div);
			ss_text_draw(cr, v->ox - 6, v->oy + (row + 0.5) * v->cell, SS_RIGHT, SS_MIDDLE,
				     ss_metrics.font_tick, false, buf, NULL);
		}
		char full[160], mid[64], bare[32];
		const char *forms[3] = { full, mid, bare };

		snprintf(full, sizeof(full), "offset of the row's first cell (%s); cells in LBA "
			 "order, left to right, top to bottom", u.name);
		snprintf(mid, sizeof(mid), "offset of the row's first cell (%s)", u.name);
		snprintf(bare, sizeof(bare), "row offset (%s)", u.name);
		ss_text_draw_vertical(cr, v->f.r.x - 52, v->f.r.y + v->f.r.h / 2,
				      ss_metrics.font_small, false, "row offset");
		ss_set_rgb(cr, ss_col_axis);
		/* never into the next column: within the animation's width, keeping the unit */
		ss_text_first_fit(cr, ss_metrics.font_small, false, forms, 3, v->f.r.w, buf,
				  sizeof(buf));
		ss_text_draw(cr, v->f.r.x, v->f.r.y + v->f.r.h + 4, SS_LEFT, SS_TOP,
			     ss_metrics.font_small, false, buf, NULL);
		return;
	}
	fmt_offset(lo, sizeof(lo), v->y_lo / u.div, (v->y_hi - v->y_lo) / u.div / 100);
	fmt_offset(hi, sizeof(hi), v->y_hi / u.div, (v->y_hi - v->y_lo) / u.div / 100);
	snprintf(buf, sizeof(buf), "outer ring: %s %s", lo, u.name);
	snprintf(inner, sizeof(inner), "inner ring: %s %s", hi, u.name);
	/* right of the platter, never over it: smaller type where the column is narrow, none
	 * where it would be unreadable */
	x = v->cx + v->r_out + 12;
	y = v->f.r.y + v->f.r.h - 3 * 18;
	for (int i = 0; i < 3; i++) {
		double w;

		ss_text_measure(cr, ss_metrics.font_small, false, lines[i], &w, NULL);
		widest = fmax(widest, w);
	}
	fs = ss_metrics.font_small * fmin(1, (v->f.r.x + v->f.r.w - 2 - x) / widest);
	if (fs < ss_metrics.font_small * 0.7)
		return;
	for (int i = 0; i < 3; i++)
		ss_text_draw(cr, x, y + i * 18, SS_LEFT, SS_TOP, fs, false, lines[i], NULL);
}

void mv_view_draw_static(struct mv_view *v, cairo_t *cr)
{
	const struct ss_rec_zone **zone;

	if (v->style == SS_MOVIE_SCAN)
		return;       /* the figure's panel drew the axes, zones and phases */
	zone = calloc(v->ncells, sizeof(*zone));
	cairo_save(cr);
	cairo_set_source_rgb(cr, 1, 1, 1);      /* the area is the view's */
	cairo_rectangle(cr, v->f.r.x, v->f.r.y, v->f.r.w, v->f.r.h);
	cairo_fill(cr);
	for (uint32_t i = 0; i < v->ncells; i++) {
		double rgb[3];

		if (zone)
			zone[i] = cell_zone(v, i);
		zone_colour(zone ? zone[i] : NULL, rgb);
		cairo_set_source_rgb(cr, rgb[0], rgb[1], rgb[2]);
		cells_path(v, cr, i, i, true);
		cairo_fill(cr);
	}
	if (zone)
		zone_outlines(v, cr, zone);
	free(zone);
	if (v->style == SS_MOVIE_SPINDLE) {
		ss_set_rgb(cr, ss_col_axis);
		cairo_set_line_width(cr, 1);
		cairo_arc(cr, v->cx, v->cy, v->r_out + 1, 0, 2 * M_PI);
		cairo_stroke(cr);
		cairo_arc(cr, v->cx, v->cy, v->r_out - v->rings * v->ring_w - 1, 0, 2 * M_PI);
		cairo_stroke(cr);
	}
	zone_labels(v, cr);
	offset_labels(v, cr);
	cairo_restore(cr);
}

static void feed_cells(struct mv_view *v, int64_t frame, int c, uint64_t a,
		       uint64_t b)
{
	uint32_t c0 = cell_of(v, a), c1 = cell_of(v, b - 1);

	for (uint32_t i = c0; i <= c1; i++) {
		if (v->last[i] != frame + 1) {
			v->last[i] = (int32_t)(frame + 1);
			v->cls[i] = 0;
		}
		v->cls[i] |= BIT(c);
		if (!(v->seen[i] & BIT(c))) {
			/* the faint trace it leaves, once per class */
			v->seen[i] |= BIT(c);
			ss_set_rgba(v->bg_cr, v->pal[c], TRACE_ALPHA);
			cells_path(v, v->bg_cr, i, i, true);
			cairo_fill(v->bg_cr);
		}
	}
	v->head = c1;
	v->has_head = true;
}

/* ---- scan: the io panel revealed ----------------------------------------------------------- */

static uint32_t pack(struct ss_rgb c)
{
	return (uint32_t)lround(c.r * 255) << 16 | (uint32_t)lround(c.g * 255) << 8 |
	       (uint32_t)lround(c.b * 255);
}

/* Scan cell (gx, row)'s pixels, row 0 at the bottom. */
static void scan_cell_box(const struct mv_view *v, long gx, long row, int *x0, int *x1, int *y0,
			  int *y1)
{
	double cw = v->f.r.w / v->gw, ch = v->f.r.h / v->gh;

	*x0 = (int)(v->f.r.x + gx * cw);
	*x1 = (int)(v->f.r.x + (gx + 1) * cw);
	*y0 = (int)(v->f.r.y + v->f.r.h - (row + 1) * ch);
	*y1 = (int)(v->f.r.y + v->f.r.h - row * ch);
}

/* Scan cell (gx, row) in the classes of MASK, its pixels shared among them along the
 * diagonals (two classes: a checkerboard, as in the io panel). */
static void scan_paint(struct mv_view *v, long gx, long row, unsigned mask)
{
	unsigned char *data = cairo_image_surface_get_data(v->bg);
	int stride = cairo_image_surface_get_stride(v->bg);
	int w = cairo_image_surface_get_width(v->bg), h = cairo_image_surface_get_height(v->bg);
	int cls[MV_MAX_COLOURS];
	uint32_t px[MV_MAX_COLOURS];
	int n = colours_of(v, mask, cls), x0, x1, y0, y1;

	for (int i = 0; i < n; i++)
		px[i] = pack(v->pal[cls[i]]);
	scan_cell_box(v, gx, row, &x0, &x1, &y0, &y1);
	for (int y = y0 < 0 ? 0 : y0; y < y1 && y < h; y++)
		for (int x = x0 < 0 ? 0 : x0; x < x1 && x < w; x++)
			((uint32_t *)(data + (size_t)y * (size_t)stride))[x] =
				px[(x - x0 + y - y0) % n];
}

static void feed_scan(struct mv_view *v, int64_t frame, int c, uint64_t t,
		      uint64_t a, uint64_t b)
{
	double fx = ((double)t - v->f.x.lo) / v->ns_per_col;
	long gx = fx < 0 ? 0 : fx >= v->gw ? v->gw - 1 : (long)fx;
	long r0 = (long)((double)(a - v->y_lo) / v->sect_per_row);
	long r1 = (long)((double)(b - 1 - v->y_lo) / v->sect_per_row);

	if (r1 >= v->gh)
		r1 = v->gh - 1;
	if (r0 > r1)
		r0 = r1;
	for (long r = r0; r <= r1; r++) {
		uint16_t *cell = &v->scls[(size_t)r * (size_t)v->gw + (size_t)gx];

		if (!(*cell & BIT(c))) {
			*cell |= BIT(c);
			scan_paint(v, gx, r, *cell);
		}
		if (v->row_frame[r] != frame + 1)
			v->row_cls[r] = 0;
		v->row_cls[r] |= BIT(c);
		v->row_frame[r] = frame + 1;
	}
}

void mv_view_feed(struct mv_view *v, int64_t frame, const struct ss_event *ev, uint64_t t,
		  int colour)
{
	int c = colour >= 0 && colour < v->npal ? colour
		: colour >= 0 ? v->npal - 1 : (int)ss_io_class_of(&v->ic, ev);
	uint64_t a = ev->sector, b = ev->sector + ev->nr_sector;

	if (b <= v->y_lo || a >= v->y_hi)
		return;
	if (a < v->y_lo)
		a = v->y_lo;
	if (b > v->y_hi)
		b = v->y_hi;
	if (v->style == SS_MOVIE_SCAN) {
		feed_scan(v, frame, c, t, a, b);     /* straight into the background's pixels */
	} else {
		feed_cells(v, frame, c, a, b);
	}
}

/* ---- what moves ----------------------------------------------------------------------------- */

static double cell_alpha(const struct mv_view *v, int64_t age)
{
	return 1 - (1 - FADED_ALPHA) * (double)age / (v->fade > 1 ? v->fade - 1 : 1);
}

static void draw_cells(struct mv_view *v, cairo_t *cr, int64_t frame)
{
	uint32_t n = line_len(v), i = 0;
	int cls[MV_MAX_COLOURS];
	int nc;

	while (i < v->ncells) {
		int64_t age = frame - (v->last[i] - 1);
		uint32_t j = i;

		if (!v->last[i] || age < 0 || age >= v->fade) {
			i++;
			continue;
		}
		/* a run along the row or ring lit in the same frame and classes: one shape each */
		while (j + 1 < v->ncells && (j + 1) % n && v->last[j + 1] == v->last[i] &&
		       v->cls[j + 1] == v->cls[i])
			j++;
		nc = colours_of(v, v->cls[i], cls);
		for (int k = 0; k < nc; k++) {
			ss_set_rgba(cr, v->pal[cls[k]], cell_alpha(v, age));
			cells_part_path(v, cr, i, j, true, k, nc);
			cairo_fill(cr);
		}
		i = j + 1;
	}
	if (!v->has_head)
		return;
	cairo_set_source_rgb(cr, 0, 0, 0);
	if (v->style == SS_MOVIE_GRID) {
		cairo_set_line_width(cr, 2);
		cairo_rectangle(cr, v->ox + (v->head % n) * v->cell - 1.5,
				v->oy + (v->head / n) * v->cell - 1.5, v->cell + 2, v->cell + 2);
		cairo_stroke(cr);
	} else {
		double x, y;

		cell_centre(v, v->head, &x, &y);
		cairo_set_line_width(cr, 3);
		cairo_set_source_rgba(cr, 0.2, 0.2, 0.2, 0.85);
		cairo_move_to(cr, v->px_x, v->px_y);
		cairo_line_to(cr, x, y);
		cairo_stroke(cr);
		cairo_arc(cr, v->px_x, v->px_y, 7, 0, 2 * M_PI);
		cairo_fill(cr);
		cairo_set_source_rgb(cr, 0, 0, 0);
		cairo_set_line_width(cr, 2);
		cairo_arc(cr, x, y, fmax(v->ring_w, 4), 0, 2 * M_PI);
		cairo_stroke(cr);
	}
}

static void draw_scan(struct mv_view *v, cairo_t *cr, int64_t frame, uint64_t cursor)
{
	double x = round(ss_axis_map(&v->f.x, (double)cursor));

	cairo_save(cr);
	cairo_rectangle(cr, v->f.r.x, v->f.r.y, v->f.r.w, v->f.r.h);
	cairo_clip(cr);
	cairo_set_source_rgb(cr, MV_CURSOR_RGB);
	cairo_rectangle(cr, x, v->f.r.y, 2, v->f.r.h);
	cairo_fill(cr);
	/* the frame's requests as marks at the cursor: where the head is being sent now */
	for (long r = 0; r < v->gh; r++) {
		int cls[MV_MAX_COLOURS];
		int x0, x1, y0, y1, nc;
		double w;

		if (v->row_frame[r] != frame + 1)
			continue;
		scan_cell_box(v, 0, r, &x0, &x1, &y0, &y1);
		nc = colours_of(v, v->row_cls[r], cls);
		w = (SCAN_MARK_W + 2.0) / nc;      /* side by side, in palette order */
		for (int k = 0; k < nc; k++) {
			ss_set_rgb(cr, v->pal[cls[k]]);
			cairo_rectangle(cr, x - SCAN_MARK_W + 2 + k * w, y0 - 1, w, y1 - y0 + 2);
			cairo_fill(cr);
		}
	}
	cairo_restore(cr);
}

void mv_view_draw(struct mv_view *v, cairo_t *cr, int64_t frame, uint64_t cursor)
{
	cairo_save(cr);
	if (v->style == SS_MOVIE_SCAN)
		draw_scan(v, cr, frame, cursor);
	else
		draw_cells(v, cr, frame);
	cairo_restore(cr);
}

int mv_view_pixel_of(const struct mv_view *v, uint64_t sector, uint64_t t, uint64_t cursor,
		     double *x, double *y)
{
	(void)t;
	if (sector < v->y_lo || sector >= v->y_hi)
		return -ENOENT;
	if (v->style == SS_MOVIE_SCAN) {
		/* the middle of the request's mark left of the cursor */
		long r = (long)((double)(sector - v->y_lo) / v->sect_per_row);
		int x0, x1, y0, y1;

		scan_cell_box(v, 0, r >= v->gh ? v->gh - 1 : r, &x0, &x1, &y0, &y1);
		*x = round(ss_axis_map(&v->f.x, (double)cursor)) - SCAN_MARK_W / 2 + 2;
		*y = (y0 + y1) / 2.0;
		return 0;
	}
	cell_centre(v, cell_of(v, sector), x, y);
	return 0;
}
