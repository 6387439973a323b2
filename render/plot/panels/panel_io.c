// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sector-over-time panel, seekwatcher's picture: every data I/O at its issue time spanning
 * its sectors, coloured by class (data write, data read, metadata, journal/log) — or by the
 * process whose request it is (ctx->procs: owner.h, procgroups.h) — with flush and FUA marks
 * along the top and the filesystem's zones (AGs, log, journal, groups, inode tables) drawn
 * underneath.
 *
 * Events are not kept: each one increments a counter in a per-class grid of CELL x CELL pixel
 * cells, and drawing turns the grid into one image.  So the cost of drawing and the size of an
 * SVG or PDF depend on the picture, not on the number of I/Os.  ISSUE events are plotted, the
 * same events the seek definition uses (seek.h): the order the device was asked to go.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seekscope/model.h"
#include "owner.h"
#include "palette.h"
#include "panel.h"
#include "text.h"
#include "zones.h"

#define CELL 2          /* pixels per grid cell: a lone I/O is a visible 2x2 dot */
#define FLAG_STRIP 6    /* height of the flush and FUA tick strips */
/* colour slots: the classes, or the process groups and "other" */
#define MAX_SLOTS (SS_PROC_GROUPS_MAX + 1 > SS_CLS_MAX ? SS_PROC_GROUPS_MAX + 1 : SS_CLS_MAX)
_Static_assert(SS_NR_PROC_COLOURS >= SS_PROC_GROUPS_MAX, "a colour per process group");

struct io_state {
	struct ss_panel_ctx ctx;
	int gw, gh;
	double sect_per_row, ns_per_col;
	int nr_slots;
	uint16_t *cnt[MAX_SLOTS];           /* gw * gh per slot, row 0 at the bottom */
	struct ss_owner *owner;             /* by process: whose request each issue is */
	struct ss_proc_slots *slots;        /* by process: owner -> colour slot */
	uint32_t *flush, *fua;              /* per grid column */
	struct ss_zone_bands zb;            /* log/journal ranges for classification */
	uint64_t drawn;                     /* data I/Os that landed in the window */
};

static void io_destroy(void *state)
{
	struct io_state *s = state;

	if (!s)
		return;
	for (int c = 0; c < MAX_SLOTS; c++)
		free(s->cnt[c]);
	ss_owner_free(s->owner);
	ss_proc_slots_free(s->slots);
	free(s->flush);
	free(s->fua);
	ss_zone_bands_fini(&s->zb);
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
	s->nr_slots = ctx->procs ? (int)ctx->procs->n + 1 : SS_CLS_MAX;
	for (int c = 0; c < s->nr_slots; c++)
		if (!(s->cnt[c] = calloc(cells, sizeof(uint16_t))))
			goto nomem;
	if (ctx->procs && (!(s->owner = ss_owner_new()) ||
			   !(s->slots = ss_proc_slots_new(ctx->procs, ctx->trace))))
		goto nomem;
	s->flush = calloc((size_t)s->gw, sizeof(uint32_t));
	s->fua = calloc((size_t)s->gw, sizeof(uint32_t));
	if (!s->flush || !s->fua || ss_zone_bands_init(&s->zb, ctx->trace))
		goto nomem;
	*state = s;
	return 0;
nomem:
	io_destroy(s);
	return -ENOMEM;
}

static enum ss_io_class classify(const struct io_state *s, const struct ss_event *ev)
{
	if (ss_zone_bands_is_log(&s->zb, ev->dev, ev->sector))
		return SS_CLS_JOURNAL;
	if (ev->flags & SS_RW_META)
		return SS_CLS_META;
	return (ev->flags & SS_RW_READ) ? SS_CLS_READ : SS_CLS_WRITE;
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
		uint16_t *col;
		size_t slot;

		/* the owner of an issue may be the task of an earlier queue or insert event */
		if (s->owner && ev->type != SS_EV_COMPLETE &&
		    ss_owner_feed(s->owner, ev, NULL, &who) < 0)
			who = (struct ss_req_owner){ .pid = ev->pid, .ts = ev->ts_ns };
		if (ev->type != SS_EV_ISSUE || ev->ts_ns < lo || ev->ts_ns > hi)
			continue;
		gx = (long)((double)(ev->ts_ns - lo) / s->ns_per_col);
		if (gx >= s->gw)
			gx = s->gw - 1;
		if (ev->flags & (SS_RW_FLUSH | SS_RW_PREFLUSH))
			s->flush[gx]++;
		if (ev->flags & SS_RW_FUA)
			s->fua[gx]++;
		/* flushes issue at sector 0 with no length: never a point at sector 0 */
		if (!ss_event_has_data(ev) || (ev->flags & SS_RW_DISCARD))
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
		slot = s->slots ? ss_proc_slots_get(s->slots, &who) : (size_t)classify(s, ev);
		col = s->cnt[slot] + gx;
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

static uint32_t pack(struct ss_rgb c)
{
	return 0xff000000u | (uint32_t)lround(c.r * 255) << 16 | (uint32_t)lround(c.g * 255) << 8 |
	       (uint32_t)lround(c.b * 255);
}

/*
 * The grid as an ARGB image, one pixel per cell.  By class, later classes win a shared cell
 * (metadata and journal writes stay visible among data); by process, the process with most
 * requests in the cell wins it (ties: the bigger process).
 */
static cairo_surface_t *grid_image(const struct io_state *s)
{
	cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, s->gw, s->gh);
	uint32_t colour[MAX_SLOTS];
	bool by_count = s->slots != NULL;
	unsigned char *data;
	int stride;

	if (cairo_surface_status(img))
		return img;
	for (int c = 0; c < s->nr_slots; c++)
		colour[c] = pack(!by_count ? ss_col_class[c] :
				 ss_proc_colour(c < (int)s->ctx.procs->n ? (size_t)c :
						SS_PROC_GROUPS_MAX));
	cairo_surface_flush(img);
	data = cairo_image_surface_get_data(img);
	stride = cairo_image_surface_get_stride(img);
	for (int r = 0; r < s->gh; r++) {
		uint32_t *row = (uint32_t *)(data + (size_t)(s->gh - 1 - r) * (size_t)stride);
		size_t base = (size_t)r * (size_t)s->gw;

		for (int x = 0; x < s->gw; x++) {
			uint32_t px = 0;
			uint16_t most = 0;

			for (int c = 0; c < s->nr_slots; c++) {
				uint16_t k = s->cnt[c][base + (size_t)x];

				if (k && (!by_count || k > most)) {
					px = colour[c];
					most = k;
				}
			}
			row[x] = px;
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

static void io_draw(void *state, cairo_t *cr, const struct ss_panel_data *d,
		    const struct ss_frame *f)
{
	struct io_state *s = state;
	cairo_surface_t *img;

	ss_axes_background(cr, f);
	ss_zones_draw_bands(cr, f, d->trace);
	ss_axes_x(cr, f);
	ss_axes_y(cr, f);
	ss_zones_draw_lines(cr, f, d->trace);
	img = grid_image(s);
	if (!cairo_surface_status(img)) {
		cairo_save(cr);
		cairo_rectangle(cr, f->r.x, f->r.y, f->r.w, f->r.h);
		cairo_clip(cr);
		cairo_translate(cr, f->r.x, f->r.y);
		cairo_scale(cr, f->r.w / s->gw, f->r.h / s->gh);
		cairo_set_source_surface(cr, img, 0, 0);
		cairo_pattern_set_filter(cairo_get_source(cr), CAIRO_FILTER_NEAREST);
		cairo_paint(cr);
		cairo_restore(cr);
	}
	cairo_surface_destroy(img);
	cairo_save(cr);
	draw_flag_strip(cr, s, f, s->flush, f->r.y + 1, ss_col_flush);
	draw_flag_strip(cr, s, f, s->fua, f->r.y + 2 + FLAG_STRIP, ss_col_fua);
	cairo_restore(cr);
	ss_zones_draw_labels(cr, f, d->trace);
	ss_phases_draw(cr, f, d->trace, d->t0, d->label_phases);
	ss_axes_border(cr, f);
}

const struct ss_panel_ops ss_panel_io = {
	.name = "io",
	.help = "device offset over time, zones, phases",
	.title = "Where the I/O went: device offset of each request over time",
	.y_title = "offset",
	.weight = 3.2,
	.time_x = true,
	.sector_y = true,
	.class_legend = true,
	.create = io_create,
	.feed = io_feed,
	.extent = io_extent,
	.draw = io_draw,
	.destroy = io_destroy,
};
