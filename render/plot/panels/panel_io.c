// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sector-over-time panel, seekwatcher's picture: every request with sectors at its issue
 * time spanning its sectors, coloured by class (palette.h: data write, data read, metadata,
 * journal/log, discard, write-zeroes/other) — or by its group (ctx->groups, groups.h: the
 * process whose request it is, owner.h, or the directory or file it holds) — with flush and
 * FUA marks along the top and the filesystem's zones (AGs, log, journal, groups, inode
 * tables) drawn underneath.
 *
 * Events are not kept: each one increments a counter in a per-class (per-group) grid of
 * CELL x CELL pixel cells, and drawing turns the grid into one image.  So the cost of drawing and the size of an
 * SVG or PDF depend on the picture, not on the number of I/Os.  ISSUE events are plotted, the
 * same events the seek definition uses (seek.h): the order the device was asked to go.
 *
 * Two rules keep the picture honest on real traces:
 *  - No class hides another: the pixels of a cell that holds several classes are shared among
 *    them in proportion to their requests, each at least one, the diagonal first — a 50/50
 *    read/write mix is a blue and orange checkerboard, not the colour drawn last.  Coloured
 *    by group, the groups of a cell share it the same way.
 *  - A lone request stays visible: a cell with no other occupied cell within LONE cells gets
 *    a translucent halo of its colour HALO cells wide around it, so a single 4 KiB request is
 *    a 6 px mark with its exact cell solid at the centre; dense areas are left as they are.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seekscope/model.h"
#include "owner.h"
#include "palette.h"
#include "surface.h"
#include "panel.h"
#include "text.h"
#include "zones.h"

#define CELL 2          /* pixels per grid cell */
#define CELL_PX (CELL * CELL)
#define FLAG_STRIP 6    /* height of the flush and FUA tick strips */
#define HALO 1          /* cells around a lone request that its halo covers */
#define LONE 2          /* ... lone: no other request within this many cells */
#define HALO_ALPHA 0.4  /* the halo's opacity */
/* colour slots: the classes drawn as areas, or the groups, "other" and "unknown" */
#define MAX_SLOTS \
	(SS_GROUPS_MAX + 2 > SS_CLS_NR_AREA ? SS_GROUPS_MAX + 2 : SS_CLS_NR_AREA)
_Static_assert(SS_NR_GROUP_COLOURS >= SS_GROUPS_MAX, "a colour per group");
_Static_assert(MAX_SLOTS < 255, "occ and halo hold a slot + 1 in a byte");

/* The pixels {x, y} of a cell in the order classes receive them: the diagonal first, so that
 * two classes sharing a cell make a checkerboard rather than stripes. */
static const int cell_px[CELL_PX][2] = { { 0, 0 }, { 1, 1 }, { 1, 0 }, { 0, 1 } };
_Static_assert(CELL == 2, "cell_px lists the pixels of a 2x2 cell");

struct io_state {
	struct ss_panel_ctx ctx;
	int gw, gh;
	double sect_per_row, ns_per_col;
	int nr_slots;
	uint16_t *cnt[MAX_SLOTS];           /* gw * gh per slot, row 0 at the bottom */
	struct ss_owner *owner;             /* by group: whose request each issue is */
	struct ss_group_slots *slots;       /* by group: request -> colour slot */
	uint8_t *occ, *halo;                /* gw * gh scratch for the image: see grid_image */
	uint8_t *row_used;                  /* gh: a request touched a cell of the row */
	uint32_t *flush, *fua;              /* per grid column */
	struct ss_io_classes ic;            /* the class of each request (zones.h) */
	struct ss_trace view;               /* the trace's metadata, its device's zones only */
	struct ss_rec_zone *view_zones;     /* owned by view */
	uint64_t drawn;                     /* requests with sectors that landed in the window */
	unsigned classes;                   /* SS_CLS_BIT()s of what was drawn */
};

static void io_destroy(void *state)
{
	struct io_state *s = state;

	if (!s)
		return;
	for (int c = 0; c < MAX_SLOTS; c++)
		free(s->cnt[c]);
	ss_owner_free(s->owner);
	ss_group_slots_free(s->slots);
	free(s->occ);
	free(s->halo);
	free(s->row_used);
	free(s->flush);
	free(s->fua);
	ss_io_classes_fini(&s->ic);
	free(s->view_zones);
	free(s);
}

static int io_create(void **state, const struct ss_panel_ctx *ctx)
{
	struct io_state *s = calloc(1, sizeof(*s));
	size_t cells;

	if (!s)
		return -ENOMEM;
	s->ctx = *ctx;
	s->gw = (int)(ctx->rect.w / CELL);
	s->gh = (int)(ctx->rect.h / CELL);
	if (s->gw < 1)
		s->gw = 1;
	if (s->gh < 1)
		s->gh = 1;
	cells = (size_t)s->gw * (size_t)s->gh;
	s->sect_per_row = (double)(ctx->y_hi - ctx->y_lo) / s->gh;
	s->ns_per_col = (double)(ctx->x_hi - ctx->x_lo) / s->gw;
	s->nr_slots = ctx->groups ? (int)ss_groups_nr_slots(ctx->groups) : SS_CLS_NR_AREA;
	for (int c = 0; c < s->nr_slots; c++)
		if (!(s->cnt[c] = calloc(cells, sizeof(uint16_t))))
			goto nomem;
	if (ctx->groups && (!(s->owner = ss_owner_new()) ||
			    !(s->slots = ss_group_slots_new(ctx->groups, ctx->trace))))
		goto nomem;
	s->occ = malloc(cells);
	s->halo = malloc(cells);
	s->row_used = calloc((size_t)s->gh, 1);
	if (!s->occ || !s->halo || !s->row_used)
		goto nomem;
	s->flush = calloc((size_t)s->gw, sizeof(uint32_t));
	s->fua = calloc((size_t)s->gw, sizeof(uint32_t));
	if (!s->flush || !s->fua || ss_io_classes_init(&s->ic, ctx->trace))
		goto nomem;
	if (!ctx->one_dev)
		s->view = *ctx->trace;
	else if (ss_zones_device_view(ctx->trace, ctx->dev, &s->view, &s->view_zones))
		goto nomem;
	*state = s;
	return 0;
nomem:
	io_destroy(s);
	return -ENOMEM;
}


static void io_feed(void *state, const struct ss_event *evs, size_t n)
{
	struct io_state *s = state;
	const uint64_t lo = s->ctx.t0 + s->ctx.x_lo, hi = s->ctx.t0 + s->ctx.x_hi;

	for (size_t i = 0; i < n; i++) {
		const struct ss_event *ev = &evs[i];
		struct ss_req_owner who;
		uint64_t a, b;
		long gx, r0, r1;
		enum ss_io_class cls;
		uint16_t *col;
		size_t slot;

		/* the owner of an issue may be the task of an earlier queue or insert event */
		if (s->owner && ev->type != SS_EV_COMPLETE &&
		    ss_owner_feed(s->owner, ev, &who) < 0)
			who = (struct ss_req_owner){ .pid = ev->pid, .ts = ev->ts_ns };
		if (ev->type != SS_EV_ISSUE || ev->ts_ns < lo || ev->ts_ns > hi ||
		    (s->ctx.one_dev && ev->dev != s->ctx.dev))
			continue;
		gx = (long)((double)(ev->ts_ns - lo) / s->ns_per_col);
		if (gx >= s->gw)
			gx = s->gw - 1;
		if (ev->flags & (SS_RW_FLUSH | SS_RW_PREFLUSH)) {
			s->flush[gx]++;
			s->classes |= SS_CLS_BIT(SS_CLS_FLUSH);
		}
		if (ev->flags & SS_RW_FUA) {
			s->fua[gx]++;
			s->classes |= SS_CLS_BIT(SS_CLS_FUA);
		}
		/* flushes issue at sector 0 with no length: never a point at sector 0 */
		if (!ss_event_has_data(ev))
			continue;
		a = ev->sector;
		b = ev->sector + ev->nr_sector;     /* exclusive */
		if (b <= s->ctx.y_lo || a >= s->ctx.y_hi)
			continue;
		if (a < s->ctx.y_lo)
			a = s->ctx.y_lo;
		if (b > s->ctx.y_hi)
			b = s->ctx.y_hi;
		r0 = (long)((double)(a - s->ctx.y_lo) / s->sect_per_row);
		r1 = (long)((double)(b - 1 - s->ctx.y_lo) / s->sect_per_row);
		if (r1 >= s->gh)
			r1 = s->gh - 1;
		if (r0 > r1)
			r0 = r1;
		cls = ss_io_class_of(&s->ic, ev);
		s->classes |= SS_CLS_BIT(cls);
		slot = s->slots ? ss_group_slots_get(s->slots, ev, &who) : (size_t)cls;
		col = s->cnt[slot] + gx;
		memset(s->row_used + r0, 1, (size_t)(r1 - r0 + 1));
		for (long r = r0; r <= r1; r++) {
			uint16_t *c = col + (size_t)r * (size_t)s->gw;

			if (*c != UINT16_MAX)
				(*c)++;
		}
		s->drawn++;
	}
}

static void io_extent(void *state, const struct ss_panel_data *d, double *lo, double *hi)
{
	struct io_state *s = state;

	(void)d;
	*lo = (double)s->ctx.y_lo;
	*hi = (double)s->ctx.y_hi;
}

/* A premultiplied ARGB pixel of colour c at opacity a. */
static uint32_t pack(struct ss_rgb c, double a)
{
	return (uint32_t)lround(a * 255) << 24 | (uint32_t)lround(c.r * a * 255) << 16 |
	       (uint32_t)lround(c.g * a * 255) << 8 | (uint32_t)lround(c.b * a * 255);
}

/*
 * Share the CELL_PX pixels of a cell among the slots (classes or groups) in it: out[i] is
 * the slot of pixel cell_px[i].  Each slot present gets one pixel (the most numerous ones, if
 * there are more slots than pixels), the rest go by largest shortfall from its share of the
 * requests.  Returns the slot with the most pixels.
 */
static int share_cell(const struct io_state *s, size_t cell, uint8_t out[CELL_PX])
{
	int npx[MAX_SLOTS] = { 0 }, kept = 0, top = 0, i = 0;
	double share[MAX_SLOTS], total = 0;
	uint32_t n[MAX_SLOTS];

	for (int c = 0; c < s->nr_slots; c++)
		total += n[c] = s->cnt[c][cell];
	for (; kept < CELL_PX; kept++) {       /* one pixel each, most numerous first */
		int best = -1;

		for (int c = 0; c < s->nr_slots; c++)
			if (n[c] && !npx[c] && (best < 0 || n[c] > n[best]))
				best = c;
		if (best < 0)
			break;
		npx[best] = 1;
	}
	for (int c = 0; c < s->nr_slots; c++)
		share[c] = npx[c] ? n[c] / total * CELL_PX : 0;
	for (int left = CELL_PX - kept; left > 0; left--) {
		int best = -1;

		for (int c = 0; c < s->nr_slots; c++)
			if (npx[c] && (best < 0 || share[c] - npx[c] > share[best] - npx[best]))
				best = c;
		npx[best]++;
	}
	for (int c = 0; c < s->nr_slots; c++) {
		if (npx[c] > npx[top])
			top = c;
		for (int k = 0; k < npx[c]; k++)
			out[i++] = (uint8_t)c;
	}
	return top;
}

/* Mark in s->halo (slot + 1) the cells around lone occupied cells; s->occ is set. */
static void find_halos(struct io_state *s)
{
	memset(s->halo, 0, (size_t)s->gw * (size_t)s->gh);
	for (int r = 0; r < s->gh; r++)
		for (int x = 0; x < s->gw && s->row_used[r]; x++) {
			size_t cell = (size_t)r * (size_t)s->gw + (size_t)x;
			int near = 0;

			if (!s->occ[cell])
				continue;
			for (int dy = -LONE; dy <= LONE; dy++)
				for (int dx = -LONE; dx <= LONE; dx++) {
					int rr = r + dy, xx = x + dx;

					if (rr >= 0 && rr < s->gh && xx >= 0 && xx < s->gw)
						near += s->occ[(size_t)rr * (size_t)s->gw + (size_t)xx] != 0;
				}
			if (near > 1)       /* not alone */
				continue;
			for (int dy = -HALO; dy <= HALO; dy++)
				for (int dx = -HALO; dx <= HALO; dx++) {
					int rr = r + dy, xx = x + dx;
					size_t c2;

					if (rr < 0 || rr >= s->gh || xx < 0 || xx >= s->gw)
						continue;
					c2 = (size_t)rr * (size_t)s->gw + (size_t)xx;
					if (!s->occ[c2] && !s->halo[c2])
						s->halo[c2] = s->occ[cell];
				}
		}
}

/* The grid as an ARGB image, CELL x CELL pixels per cell (see the rules at the top). */
static cairo_surface_t *grid_image(struct io_state *s)
{
	cairo_surface_t *img = ss_image_surface_create(CAIRO_FORMAT_ARGB32, s->gw * CELL,
						       s->gh * CELL);
	uint32_t colour[MAX_SLOTS], tint[MAX_SLOTS];
	unsigned char *data;
	int stride;

	if (cairo_surface_status(img))
		return img;
	for (int c = 0; c < s->nr_slots; c++) {
		struct ss_rgb rgb = !s->slots ? ss_classes[c].rgb :
				    ss_group_colour((size_t)c, s->ctx.groups->n);

		colour[c] = pack(rgb, 1);
		tint[c] = pack(rgb, HALO_ALPHA);
	}
	/* occ: 0 empty, else 1 + the slot with the most pixels (the halo's colour); rows no
	 * request touched are empty (most of them in a sparse picture: no per-cell pass) */
	memset(s->occ, 0, (size_t)s->gw * (size_t)s->gh);
	for (int r = 0; r < s->gh; r++) {
		size_t base = (size_t)r * (size_t)s->gw;

		for (size_t cell = base; s->row_used[r] && cell < base + (size_t)s->gw; cell++) {
			uint8_t px[CELL_PX];
			bool any = false;

			for (int c = 0; c < s->nr_slots && !any; c++)
				any = s->cnt[c][cell] != 0;
			if (any)
				s->occ[cell] = (uint8_t)(share_cell(s, cell, px) + 1);
		}
	}
	find_halos(s);
	cairo_surface_flush(img);
	data = cairo_image_surface_get_data(img);
	stride = cairo_image_surface_get_stride(img);
	for (int r = 0; r < s->gh; r++) {
		size_t base = (size_t)r * (size_t)s->gw;
		bool near = false;

		/* only rows within HALO of a used row hold a pixel; the image starts cleared */
		for (int rr = r - HALO; rr <= r + HALO && !near; rr++)
			near = rr >= 0 && rr < s->gh && s->row_used[rr];
		for (int x = 0; x < s->gw && near; x++) {
			size_t cell = base + (size_t)x;
			uint32_t px[CELL_PX] = { 0 };
			uint8_t cls[CELL_PX];

			if (!s->occ[cell] && !s->halo[cell])
				continue;
			if (s->occ[cell]) {
				share_cell(s, cell, cls);
				for (int i = 0; i < CELL_PX; i++)
					px[i] = colour[cls[i]];
			} else if (s->halo[cell]) {
				for (int i = 0; i < CELL_PX; i++)
					px[i] = tint[s->halo[cell] - 1];
			}
			/* grid row 0 is the bottom, image row 0 the top */
			for (int i = 0; i < CELL_PX; i++) {
				int iy = (s->gh - 1 - r) * CELL + cell_px[i][1];
				uint32_t *row = (uint32_t *)(data + (size_t)iy * (size_t)stride);

				row[x * CELL + cell_px[i][0]] = px[i];
			}
		}
	}
	cairo_surface_mark_dirty(img);
	return img;
}

static void draw_flag_strip(cairo_t *cr, const struct io_state *s, const struct ss_frame *f,
			    const uint32_t *cnt, double y, struct ss_rgb col)
{
	double cw = f->r.w / s->gw;

	ss_set_rgb(cr, col);
	for (int x = 0; x < s->gw; x++)
		if (cnt[x])
			cairo_rectangle(cr, f->r.x + x * cw, y, cw > 1.5 ? cw : 1.5, FLAG_STRIP);
	cairo_fill(cr);
}

static unsigned io_classes(void *state)
{
	return ((const struct io_state *)state)->classes;
}

static void io_draw(void *state, cairo_t *cr, const struct ss_panel_data *d,
		    const struct ss_frame *f)
{
	struct io_state *s = state;
	cairo_surface_t *img;

	ss_axes_background(cr, f);
	ss_zones_draw_bands(cr, f, &s->view);
	ss_lost_draw(cr, f, d->trace, d->t0, d->label_phases, NULL);
	ss_axes_x(cr, f);
	ss_axes_y(cr, f);
	ss_zones_draw_lines(cr, f, &s->view);
	img = grid_image(s);
	if (!cairo_surface_status(img)) {
		cairo_save(cr);
		cairo_rectangle(cr, f->r.x, f->r.y, f->r.w, f->r.h);
		cairo_clip(cr);
		cairo_translate(cr, f->r.x, f->r.y);
		cairo_scale(cr, f->r.w / (s->gw * CELL), f->r.h / (s->gh * CELL));
		cairo_set_source_surface(cr, img, 0, 0);
		cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
		cairo_paint(cr);
		cairo_restore(cr);
	}
	cairo_surface_destroy(img);
	cairo_save(cr);
	draw_flag_strip(cr, s, f, s->flush, f->r.y + 1, ss_classes[SS_CLS_FLUSH].rgb);
	draw_flag_strip(cr, s, f, s->fua, f->r.y + 2 + FLAG_STRIP, ss_classes[SS_CLS_FUA].rgb);
	cairo_restore(cr);
	ss_zones_draw_labels(cr, f, &s->view);
	ss_phases_draw(cr, f, d->trace, d->t0, d->label_phases, 0, NULL);
	ss_axes_border(cr, f);
}

const struct ss_panel_ops ss_panel_io = {
	.name = "io",
	.help = "device offset over time, zones, phases",
	.title = "Where the I/O went: device offset of each request over time",
	.short_title = "I/O",
	.y_title = "offset",
	.weight = 3.2,
	.time_x = true,
	.sector_y = true,
	.class_legend = true,
	.classes = io_classes,
	.create = io_create,
	.feed = io_feed,
	.extent = io_extent,
	.draw = io_draw,
	.destroy = io_destroy,
};
