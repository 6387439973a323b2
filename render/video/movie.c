// SPDX-License-Identifier: GPL-2.0-or-later
/* Movies of traces: the figure once, the animation per frame, the encoder (movie.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seekscope/model.h"
#include "encoder.h"
#include "errbuf.h"
#include "movie.h"
#include "movie_clock.h"
#include "movie_view.h"
#include "palette.h"
#include "seek.h"
#include "panel.h"
#include "stats.h"
#include "text.h"
#include "timeline.h"
#include "zones.h"

#define MAX_FRAMES (240ll * 86400)      /* a day at the highest rate */

static const char *const style_names[SS_MOVIE_NR_STYLES] = {
	[SS_MOVIE_GRID] = "grid", [SS_MOVIE_SPINDLE] = "spindle", [SS_MOVIE_SCAN] = "scan",
};

const char *ss_movie_style_name(enum ss_movie_style s)
{
	return (unsigned)s < SS_MOVIE_NR_STYLES ? style_names[s] : NULL;
}

int ss_movie_style_parse(const char *s, enum ss_movie_style *out)
{
	for (int i = 0; i < SS_MOVIE_NR_STYLES; i++)
		if (!strcmp(s, style_names[i])) {
			*out = (enum ss_movie_style)i;
			return 0;
		}
	return -EINVAL;
}

/* ---- the animation's place in the figure: a panel that reserves the area ---------------- */

/* It draws nothing of the requests (the frames do), but sees them once, to tell the legend
 * which classes the movie will light: the area classes only, since flushes and FUA writes
 * are the lamps beside the clock (named there), not the io panel's strips. */
struct anim_state {
	struct ss_panel_ctx ctx;
	struct ss_io_classes ic;
	unsigned classes;                   /* SS_CLS_BIT()s */
};

static void anim_destroy(void *state)
{
	struct anim_state *s = state;

	if (!s)
		return;
	ss_io_classes_fini(&s->ic);
	free(s);
}

static int anim_create(void **state, const struct ss_panel_ctx *ctx)
{
	struct anim_state *s = calloc(1, sizeof(*s));

	if (!s)
		return -ENOMEM;
	s->ctx = *ctx;
	if (ss_io_classes_init(&s->ic, ctx->trace)) {
		free(s);
		return -ENOMEM;
	}
	*state = s;
	return 0;
}

/* What mv_view_feed() will light: issued requests with sectors in the filmed window. */
static void anim_feed(void *state, const struct ss_event *evs, size_t n)
{
	struct anim_state *s = state;
	const uint64_t lo = s->ctx.t0 + s->ctx.x_lo, hi = s->ctx.t0 + s->ctx.x_hi;

	for (size_t i = 0; i < n; i++) {
		const struct ss_event *ev = &evs[i];

		if (ev->type != SS_EV_ISSUE || ev->ts_ns < lo || ev->ts_ns > hi ||
		    !ss_event_has_data(ev) || ev->sector + ev->nr_sector <= s->ctx.y_lo ||
		    ev->sector >= s->ctx.y_hi || (s->ctx.one_dev && ev->dev != s->ctx.dev))
			continue;
		s->classes |= SS_CLS_BIT(ss_io_class_of(&s->ic, ev));
	}
}

static unsigned anim_classes(void *state)
{
	return ((const struct anim_state *)state)->classes;
}

static void anim_extent(void *state, const struct ss_panel_data *d, double *lo, double *hi)
{
	const struct anim_state *s = state;

	(void)d;
	*lo = (double)s->ctx.y_lo;
	*hi = (double)s->ctx.y_hi;
}

/* scan: the io panel's frame without its requests (they come as the movie plays); the phase
 * labels below the clock where it is drawn over the animation (IDLE: --skip-idle's clock) */
static void draw_scan(cairo_t *cr, const struct ss_panel_data *d, const struct ss_frame *f,
		      bool idle)
{
	double below = mv_clock_room(cr, d->trace, d->x_lo, d->x_hi, f->r.w, idle) > 0 ? 0 :
		       mv_clock_over_h(cr, f->r.w);

	ss_axes_background(cr, f);
	ss_zones_draw_bands(cr, f, d->trace);
	ss_lost_draw(cr, f, d->trace, d->t0, d->label_phases, NULL);
	ss_axes_x(cr, f);
	ss_axes_y(cr, f);
	ss_zones_draw_lines(cr, f, d->trace);
	ss_zones_draw_labels(cr, f, d->trace);
	ss_phases_draw(cr, f, d->trace, d->t0, d->label_phases, below, NULL);
	ss_axes_border(cr, f);
}

static void anim_draw_scan(void *state, cairo_t *cr, const struct ss_panel_data *d,
			   const struct ss_frame *f)
{
	(void)state;
	draw_scan(cr, d, f, false);
}

static void anim_draw_scan_idle(void *state, cairo_t *cr, const struct ss_panel_data *d,
				const struct ss_frame *f)
{
	(void)state;
	draw_scan(cr, d, f, true);
}

/* grid, spindle: the view draws the area (mv_view_draw_static) */
static void anim_draw_none(void *state, cairo_t *cr, const struct ss_panel_data *d,
			   const struct ss_frame *f)
{
	(void)state, (void)cr, (void)d, (void)f;
}

static double anim_key(void *state, cairo_t *cr, const struct ss_panel_data *d,
		       const struct ss_frame *f, bool draw);
static double anim_key_idle(void *state, cairo_t *cr, const struct ss_panel_data *d,
			    const struct ss_frame *f, bool draw);

/* [0][style]: the animation panels; [1][style]: the same with --skip-idle (its clock is longer) */
#define ANIM_OPS(idle_, style_, title_, short_, time_x_, draw_)                           \
	[style_] = { .name = "movie", .title = title_, .short_title = short_,               \
		     .y_title = "offset", .weight = 4.5,                                    \
		     .time_x = time_x_, .sector_y = true, .class_legend = true,             \
		     .classes = anim_classes, .create = anim_create, .feed = anim_feed,     \
		     .extent = anim_extent, .draw = draw_,                                  \
		     .key = idle_ ? anim_key_idle : anim_key, .key_fixed = true,            \
		     .destroy = anim_destroy }
#define ANIM_STYLES(idle_)                                                                 \
	{ ANIM_OPS(idle_, SS_MOVIE_GRID, "The device in LBA order: cells lit by requests",    \
		   "LBA grid", false, anim_draw_none),                                        \
	  ANIM_OPS(idle_, SS_MOVIE_SPINDLE, "The device as a platter, outer ring first",      \
		   "Platter", false, anim_draw_none),                                         \
	  ANIM_OPS(idle_, SS_MOVIE_SCAN, "Device offset of each request over time",           \
		   "Offset over time", true, idle_ ? anim_draw_scan_idle : anim_draw_scan) }
static const struct ss_panel_ops anim_ops[2][SS_MOVIE_NR_STYLES] = {
	ANIM_STYLES(0), ANIM_STYLES(1)
};

/* ---- the movie ------------------------------------------------------------------------------ */

struct column {
	struct ss_trace *t;
	char *label;
	uint64_t t0, t_end;
	struct mv_view *view;
	struct ss_rect anim;
	const struct ss_event *ev;          /* the batch being streamed */
	size_t n, i;
	bool done;
	int64_t flush_frame, fua_frame;     /* 1 + the last frame with one issued; 0: none yet */
	bool one_dev;                       /* film only device `dev` (--device) */
	uint32_t dev;
	struct ss_trace dev_view;           /* the trace's metadata as seen by that device */
	struct ss_rec_zone *dev_zones;      /* its zones (owned) */
	struct ss_owner *own;               /* --color-by: whose request (owner.h) */
	struct ss_group_slots *slots;       /* --color-by: a request's colour */
	struct mv_clock clock;
};

struct ss_movie {
	struct ss_movie_opts o;
	struct column col[SS_GRAPH_MAX_TRACES];
	int nr;
	struct ss_graph *g;
	struct ss_timeline tl;
	bool has_tl, prepared, written;
	uint64_t lo, hi;                    /* filmed: ns after each trace's start */
	int64_t frames;
	cairo_surface_t *bg, *frame;
	int64_t jump_frame;                 /* the last frame that skipped idle time, -1 */
	struct ss_rgb colours[MV_MAX_COLOURS];   /* --color-by: the groups' colours, by slot */
	int nr_colours;
	uint64_t jump_ns;
};

void ss_movie_opts_init(struct ss_movie_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->style = SS_MOVIE_GRID;
	o->width = 1920;
	o->height = 1080;
	o->fps = 30;
	o->length_s = 30;
	o->cell = 8;
	o->fade = 10;
	o->seek_threshold = SS_SEEK_THRESHOLD_DEFAULT;
}

struct ss_movie *ss_movie_new(const struct ss_movie_opts *o)
{
	struct ss_movie *m;

	if ((unsigned)o->style >= SS_MOVIE_NR_STYLES || o->fps < 1 || o->cell < 2 ||
	    o->fade < 1 || o->nr_panels < 0 || o->nr_panels > SS_MOVIE_MAX_PANELS ||
	    !(o->length_s > 0 || o->speed > 0) ||
	    (o->has_x_range && !(o->x_hi_s > o->x_lo_s && o->x_lo_s >= 0))) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->o = *o;
	m->jump_frame = -1;
	return m;
}

void ss_movie_free(struct ss_movie *m)
{
	if (!m)
		return;
	for (int i = 0; i < m->nr; i++) {
		mv_view_free(m->col[i].view);
		free(m->col[i].label);
		free(m->col[i].dev_zones);
		ss_owner_free(m->col[i].own);
		ss_group_slots_free(m->col[i].slots);
	}
	ss_graph_free(m->g);
	if (m->has_tl)
		ss_timeline_fini(&m->tl);
	if (m->bg)
		cairo_surface_destroy(m->bg);
	if (m->frame)
		cairo_surface_destroy(m->frame);
	free(m);
}

int ss_movie_add_trace(struct ss_movie *m, struct ss_trace *t, const char *label)
{
	struct column *c;

	if (m->prepared || !t)
		return -EINVAL;
	if (m->nr >= SS_GRAPH_MAX_TRACES)
		return -E2BIG;
	c = &m->col[m->nr];
	memset(c, 0, sizeof(*c));
	c->t = t;
	c->label = strdup(label ? label : t->path);
	if (!c->label)
		return -ENOMEM;
	m->nr++;
	return 0;
}

/* The device each column films: --device's, else the trace's only one (a trace naming none
 * films all of its I/O); several without --device is a misuse — a movie shows one device's
 * offsets, its zones and its head. */
static int pick_devices(struct ss_movie *m, char *err, size_t errlen)
{
	for (int i = 0; i < m->nr; i++) {
		struct column *c = &m->col[i];
		const struct ss_rec_device *d = NULL;

		if (m->o.device && !(d = ss_trace_find_device(c->t, m->o.device))) {
			ss_errf(err, errlen, "%s has no device \"%s\"", c->label, m->o.device);
			return -ENODEV;
		}
		if (!d && c->t->nr_devices > 1) {
			size_t n = (size_t)snprintf(err, errlen, "%s has %zu devices (", c->label,
						    c->t->nr_devices);

			for (size_t k = 0; k < c->t->nr_devices && n < errlen; k++) {
				const struct ss_rec_device *x = &c->t->devices[k];

				n += (size_t)snprintf(err + n, errlen - n, "%s%s", k ? ", " : "",
						      x->part_name[0] ? x->part_name : x->name);
			}
			if (n < errlen)
				snprintf(err + n, errlen - n, "): a movie films one, name it with "
					 "--device");
			return -EINVAL;
		}
		if (!d && c->t->nr_devices == 1)
			d = &c->t->devices[0];
		if (!d)
			continue;
		c->one_dev = true;
		c->dev = d->dev;
		if (ss_zones_device_view(c->t, d->dev, &c->dev_view, &c->dev_zones)) {
			ss_errf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

/* --color-by: the colours of the graph's groups (its legend's), and per column the lookup
 * from a request to its group's slot. */
static int group_colours(struct ss_movie *m, char *err, size_t errlen)
{
	const struct ss_groups *g = ss_graph_groups(m->g);
	size_t n;

	if (!g)
		return 0;
	n = ss_groups_nr_slots(g);
	m->nr_colours = n < MV_MAX_COLOURS ? (int)n : MV_MAX_COLOURS;
	for (int k = 0; k < m->nr_colours; k++)
		m->colours[k] = ss_group_colour((size_t)k, g->n);
	for (int i = 0; i < m->nr; i++) {
		struct column *c = &m->col[i];

		if (!(c->own = ss_owner_new()) || !(c->slots = ss_group_slots_new(g, c->t))) {
			ss_errf(err, errlen, "out of memory");
			return -ENOMEM;
		}
	}
	return 0;
}

/* The figure: the animation's panel on top of the caller's time panels. */
static int run_graph(struct ss_movie *m, char *err, size_t errlen)
{
	struct ss_graph_opts go;
	int ret;

	ss_graph_opts_init(&go);
	go.width = m->o.width;
	go.height = m->o.height;
	go.title = m->o.title;
	go.panels[0] = &anim_ops[m->o.skip_idle][m->o.style];
	for (int p = 0; p < m->o.nr_panels; p++)
		go.panels[1 + p] = m->o.panels[p];
	go.nr_panels = 1 + m->o.nr_panels;
	go.has_x_range = true;
	go.x_lo_s = (double)m->lo / 1e9;
	go.x_hi_s = (double)m->hi / 1e9;
	go.seek_threshold = m->o.seek_threshold;
	go.device = m->o.device;
	go.color_by_group = m->o.color_by_group;
	go.group = m->o.group;
	go.top_groups = m->o.top_groups;
	m->g = ss_graph_new(&go);
	if (!m->g) {
		ss_errf(err, errlen, "%s", strerror(errno));
		return -errno;
	}
	for (int i = 0; i < m->nr; i++)
		if ((ret = ss_graph_add_trace(m->g, m->col[i].t, m->col[i].label))) {
			ss_errf(err, errlen, "%s", strerror(-ret));
			return ret;
		}
	return ss_graph_run(m->g, err, errlen);
}

/* --skip-idle: which bins of the filmed window hold an event of any trace. */
static int idle_bins(struct ss_movie *m, uint8_t *busy, uint32_t nbins, char *err,
		     size_t errlen)
{
	for (int i = 0; i < m->nr; i++) {
		struct column *c = &m->col[i];
		const struct ss_event *ev;
		size_t n;
		int ret;

		ss_trace_rewind(c->t);
		while ((ret = ss_trace_next_batch(c->t, &ev, &n)) > 0)
			for (size_t k = 0; k < n; k++) {
				uint64_t ts = ev[k].ts_ns;

				if (ts >= c->t0 + m->lo && ts <= c->t0 + m->hi)
					busy[ss_timeline_bin_of(m->lo, m->hi, nbins, ts - c->t0)] = 1;
			}
		if (ret < 0) {
			ss_errf(err, errlen, "%s: %s", c->t->path, ss_trace_error(c->t));
			return ret;
		}
	}
	return 0;
}

static int make_timeline(struct ss_movie *m, char *err, size_t errlen)
{
	uint8_t *busy = NULL;
	uint32_t nbins = 0;
	double frames;
	int ret;

	if (m->o.skip_idle) {
		nbins = m->hi - m->lo < SS_TIMELINE_BINS ? (uint32_t)(m->hi - m->lo)
							  : SS_TIMELINE_BINS;
		busy = calloc(nbins, 1);
		if (!busy) {
			ss_errf(err, errlen, "out of memory");
			return -ENOMEM;
		}
		if ((ret = idle_bins(m, busy, nbins, err, errlen))) {
			free(busy);
			return ret;
		}
	}
	ret = ss_timeline_init(&m->tl, m->lo, m->hi, busy, nbins);
	free(busy);
	if (ret) {
		ss_errf(err, errlen, "out of memory");
		return ret;
	}
	m->has_tl = true;
	if (m->o.length_s > 0)
		frames = round(m->o.length_s * m->o.fps);
	else
		frames = ceil((double)ss_timeline_shown(&m->tl) / 1e9 / m->o.speed * m->o.fps);
	if (!(frames <= MAX_FRAMES)) {
		ss_errf(err, errlen, "the movie would have %.0f frames, more than a day's at %d fps",
			frames, m->o.fps);
		return -EINVAL;
	}
	m->frames = frames < 1 ? 1 : (int64_t)frames;
	ss_timeline_set_frames(&m->tl, m->frames);
	return 0;
}

/* The graph's "(try --size WxH)" for a figure that does not fit: a movie's sides are even. */
static void even_size_hint(char *err, size_t errlen)
{
	char *p = strstr(err, "(try --size "), tail[64];
	int w, h, n = 0;

	if (!p || sscanf(p, "(try --size %dx%d%n", &w, &h, &n) != 2 || !n)
		return;
	snprintf(tail, sizeof(tail), "%s", p + n);
	snprintf(p, errlen - (size_t)(p - err), "(try --size %dx%d%s", w + w % 2, h + h % 2, tail);
}

int ss_movie_prepare(struct ss_movie *m, char *err, size_t errlen)
{
	cairo_t *cr;
	uint64_t dur = 0, y_lo = 0, y_hi = 1;
	double speed;
	int ret;

	if (m->prepared || !m->nr) {
		ss_errf(err, errlen, "no trace to film");
		return -EINVAL;
	}
	m->prepared = true;
	/* the window: the plot's (every trace from its own start, as long as the longest) */
	for (int i = 0; i < m->nr; i++) {
		ss_stats_trace_period(m->col[i].t, &m->col[i].t0, &m->col[i].t_end);
		if (m->col[i].t_end - m->col[i].t0 > dur)
			dur = m->col[i].t_end - m->col[i].t0;
	}
	if (m->o.has_x_range) {
		m->lo = (uint64_t)llround(m->o.x_lo_s * 1e9);
		m->hi = (uint64_t)llround(m->o.x_hi_s * 1e9);
	} else {
		m->lo = 0;
		m->hi = dur ? dur : 1000000000ull;
	}
	if (m->hi <= m->lo)
		m->hi = m->lo + 1000;
	if ((ret = pick_devices(m, err, errlen)))
		return ret;
	if ((ret = run_graph(m, err, errlen))) {
		even_size_hint(err, errlen);
		return ret;
	}
	if ((ret = make_timeline(m, err, errlen)))
		return ret;

	m->bg = cairo_image_surface_create(CAIRO_FORMAT_RGB24, m->o.width, m->o.height);
	m->frame = cairo_image_surface_create(CAIRO_FORMAT_RGB24, m->o.width, m->o.height);
	if (cairo_surface_status(m->bg) || cairo_surface_status(m->frame)) {
		ss_errf(err, errlen, "out of memory for %dx%d frames", m->o.width, m->o.height);
		return -ENOMEM;
	}
	if ((ret = group_colours(m, err, errlen)))
		return ret;
	speed = (double)ss_timeline_shown(&m->tl) / 1e9 / ((double)m->frames / m->o.fps);
	cr = cairo_create(m->bg);
	ss_graph_draw(m->g, cr);
	ss_graph_sector_range(m->g, &y_lo, &y_hi);
	for (int i = 0; i < m->nr && !ret; i++) {
		struct column *c = &m->col[i];
		struct ss_frame f = { 0 };
		struct mv_view_init in = { m->o.style, &f, m->o.cell, m->o.fade,
					   c->one_dev ? &c->dev_view : c->t, m->bg,
					   m->nr_colours ? m->colours : NULL, m->nr_colours };

		ss_graph_io_rect(m->g, i, &c->anim);
		f.r = c->anim;
		f.x = (struct ss_axis){ (double)m->lo, (double)m->hi, f.r.x, f.r.x + f.r.w, false };
		f.y = (struct ss_axis){ (double)y_lo, (double)y_hi, f.r.y + f.r.h, f.r.y, false };
		c->view = mv_view_new(&in);
		if (!c->view) {
			ss_errf(err, errlen, "out of memory");
			ret = -ENOMEM;
			break;
		}
		mv_view_draw_static(c->view, cr);
		mv_clock_init(&c->clock, cr, &c->anim, c->t, m->lo, m->hi, speed, m->o.skip_idle,
			      (double)ss_timeline_skipped_before(&m->tl, m->frames) / 1e9);
		if (ss_graph_note(m->g, i)) {   /* "no I/O ...": the view drew over the figure's */
			ss_set_rgb(cr, ss_col_warn);
			ss_text_draw_plated(cr, c->anim.x + c->anim.w / 2, c->anim.y + c->anim.h / 2,
					    SS_CENTER, SS_MIDDLE, ss_metrics.font_title, true,
					    ss_graph_note(m->g, i), NULL);
		}
	}
	cairo_destroy(cr);
	cairo_surface_flush(m->bg);
	return ret;
}

/* ---- frames --------------------------------------------------------------------------------- */

/* Hand the requests of column C issued before B (ns after its start; all up to the window's
 * end in the last frame) to its view. */
static int stream_until(struct ss_movie *m, struct column *c, int64_t k, uint64_t b, bool last,
			char *err, size_t errlen)
{
	while (!c->done) {
		const struct ss_event *ev;
		struct ss_req_owner who;
		uint64_t t;
		int ret, own = 0;

		if (c->i == c->n) {
			ret = ss_trace_next_batch(c->t, &c->ev, &c->n);
			if (ret < 0) {
				ss_errf(err, errlen, "%s: %s", c->t->path, ss_trace_error(c->t));
				return ret;
			}
			c->i = 0;
			if (ret == 0) {
				c->done = true;
				break;
			}
			continue;
		}
		ev = &c->ev[c->i];
		/* whose request: the queue and insert events before it tell (owner.h) */
		if (c->own && (own = ss_owner_feed(c->own, ev, &who)) < 0) {
			ss_errf(err, errlen, "%s", strerror(-own));
			return own;
		}
		if (ev->ts_ns < c->t0 + m->lo) {
			c->i++;
			continue;
		}
		t = ev->ts_ns - c->t0;
		if (t > m->hi) {
			c->done = true;
			break;
		}
		if (t >= b && !last)
			break;
		c->i++;
		if (ev->type != SS_EV_ISSUE || (c->one_dev && ev->dev != c->dev))
			continue;
		if (ev->flags & (SS_RW_FLUSH | SS_RW_PREFLUSH))
			c->flush_frame = k + 1;
		if (ev->flags & SS_RW_FUA)
			c->fua_frame = k + 1;
		/* flushes issue at sector 0 with no length: never a request at sector 0 */
		if (ss_event_has_data(ev))
			mv_view_feed(c->view, k, ev, t, c->slots && own > 0 ?
				     (int)ss_group_slots_get(c->slots, ev, &who) : -1);
	}
	return 0;
}

/* Nothing drawn: the graph cuts the animation's title short of the room the clock, drawn in
 * every frame, takes. */
static double anim_key(void *state, cairo_t *cr, const struct ss_panel_data *d,
		       const struct ss_frame *f, bool draw)
{
	const struct anim_state *s = state;

	(void)draw;             /* the room is the clock's, drawn with each frame */
	return mv_clock_room(cr, d->trace, s->ctx.x_lo, s->ctx.x_hi, f->r.w, false);
}

static double anim_key_idle(void *state, cairo_t *cr, const struct ss_panel_data *d,
			    const struct ss_frame *f, bool draw)
{
	const struct anim_state *s = state;

	(void)draw;
	return mv_clock_room(cr, d->trace, s->ctx.x_lo, s->ctx.x_hi, f->r.w, true);
}

/* The banner over column C's animation for a second after idle time was skipped. */
static void draw_jump(struct ss_movie *m, cairo_t *cr, const struct column *c, int64_t k)
{
	char line[80];

	if (m->jump_frame < 0 || k - m->jump_frame >= m->o.fps)
		return;
	snprintf(line, sizeof(line), ">> %.1f s without I/O skipped", (double)m->jump_ns / 1e9);
	ss_set_rgb(cr, ss_col_warn);
	ss_text_draw_plated(cr, c->anim.x + c->anim.w / 2, c->anim.y + c->anim.h / 2, SS_CENTER,
			    SS_MIDDLE, ss_metrics.font_title, true, line, NULL);
}

/* Column C's clock and lamps at frame K, showing up to B ns after the trace's start. */
static void draw_clock(struct ss_movie *m, cairo_t *cr, const struct column *c, int64_t k,
		       uint64_t b)
{
	struct mv_clock_now now = {
		.phase = mv_clock_phase_at(c->t, c->t0, b),
		.t_ns = b,
		.skipped_s = m->o.skip_idle ?
			(double)ss_timeline_skipped_before(&m->tl, k + 1) / 1e9 : 0,
		.flush = c->flush_frame && k - (c->flush_frame - 1) < m->o.fade,
		.fua = c->fua_frame && k - (c->fua_frame - 1) < m->o.fade,
	};

	mv_clock_draw(&c->clock, cr, &now);
}

/* The moving time line over each time panel of column I. */
static void draw_time_lines(struct ss_movie *m, cairo_t *cr, int i, uint64_t t)
{
	double x;

	if (ss_graph_time_x(m->g, i, (double)t / 1e9, &x))
		return;
	x = round(x);
	cairo_set_source_rgb(cr, MV_CURSOR_RGB);
	for (int p = 0; p < m->o.nr_panels; p++) {
		struct ss_rect r;

		if (!m->o.panels[p]->time_x || ss_graph_panel_rect(m->g, 1 + p, i, &r))
			continue;
		cairo_rectangle(cr, x - 1, r.y, 2, r.h);
	}
	cairo_fill(cr);
}

static void draw_frame(struct ss_movie *m, int64_t k, uint64_t b)
{
	unsigned char *dst = cairo_image_surface_get_data(m->frame);
	cairo_t *cr;

	cairo_surface_flush(m->bg);
	cairo_surface_flush(m->frame);
	memcpy(dst, cairo_image_surface_get_data(m->bg),
	       (size_t)cairo_image_surface_get_stride(m->bg) * (size_t)m->o.height);
	cairo_surface_mark_dirty(m->frame);
	cr = cairo_create(m->frame);
	for (int i = 0; i < m->nr; i++) {
		mv_view_draw(m->col[i].view, cr, k, b);
		draw_time_lines(m, cr, i, b);
		draw_clock(m, cr, &m->col[i], k, b);
		draw_jump(m, cr, &m->col[i], k);
	}
	cairo_destroy(cr);
}

int ss_movie_write(struct ss_movie *m, const char *path, char *err, size_t errlen)
{
	struct ss_video *v = NULL;
	int ret = 0;

	if (!m->prepared || m->written || !m->bg) {
		ss_errf(err, errlen, "the movie is not ready to be written");
		return -EINVAL;
	}
	m->written = true;
	if (!m->o.frame_sink &&
	    !(v = ss_video_open(path, m->o.format, m->o.width, m->o.height, m->o.fps, err, errlen)))
		return -errno;
	for (int i = 0; i < m->nr; i++) {
		ss_trace_rewind(m->col[i].t);
		m->col[i].n = m->col[i].i = 0;
	}
	for (int64_t k = 0; k < m->frames && !ret; k++) {
		uint64_t b = ss_timeline_at(&m->tl, k + 1);
		uint64_t jumped = ss_timeline_skipped_before(&m->tl, k + 1) -
				  ss_timeline_skipped_before(&m->tl, k);

		if (jumped) {
			m->jump_frame = k;
			m->jump_ns = jumped;
		}
		for (int i = 0; i < m->nr && !ret; i++)
			ret = stream_until(m, &m->col[i], k, b, k == m->frames - 1, err, errlen);
		if (ret)
			break;
		draw_frame(m, k, b);
		if (!m->o.frame_sink)
			ret = ss_video_write_frame(v, m->frame, err, errlen);
		else if ((ret = m->o.frame_sink(m->o.frame_ctx, m->frame, k)))
			ss_errf(err, errlen, "the frame sink refused frame %" PRId64, k);
		if (!ret && m->o.progress && m->o.progress(m->o.progress_ctx, k + 1, m->frames)) {
			ss_errf(err, errlen, "interrupted");
			ret = -EINTR;
		}
	}
	if (m->o.frame_sink)
		return ret;
	if (ret) {
		ss_video_abort(v);
		return ret;
	}
	return ss_video_close(v, err, errlen);
}

int64_t ss_movie_frames(const struct ss_movie *m)
{
	return m->frames;
}

uint64_t ss_movie_shown_ns(const struct ss_movie *m)
{
	return m->has_tl ? ss_timeline_shown(&m->tl) : 0;
}

uint64_t ss_movie_skipped_ns(const struct ss_movie *m)
{
	return m->has_tl ? ss_timeline_skipped_before(&m->tl, m->frames) : 0;
}

int ss_movie_frame_span(const struct ss_movie *m, int64_t k, uint64_t *a, uint64_t *b)
{
	if (!m->has_tl || k < 0 || k >= m->frames)
		return -ENOENT;
	*a = ss_timeline_at(&m->tl, k);
	*b = ss_timeline_at(&m->tl, k + 1);
	return 0;
}

int ss_movie_pixel_of(const struct ss_movie *m, int col, uint64_t sector, uint64_t t_ns,
		      double *x, double *y)
{
	int64_t a = 0, b = m->frames;

	if (col < 0 || col >= m->nr || !m->col[col].view || t_ns < m->lo || t_ns > m->hi)
		return -ENOENT;
	/* the frame whose slice holds t: the last k with at(k) <= t */
	while (b - a > 1) {
		int64_t mid = a + (b - a) / 2;

		if (ss_timeline_at(&m->tl, mid) <= t_ns)
			a = mid;
		else
			b = mid;
	}
	return mv_view_pixel_of(m->col[col].view, sector, t_ns, ss_timeline_at(&m->tl, a + 1),
				x, y);
}

int ss_movie_anim_area(const struct ss_movie *m, int col, double *x, double *y, double *w,
		       double *h)
{
	if (col < 0 || col >= m->nr || !m->col[col].view)
		return -ENOENT;
	*x = m->col[col].anim.x;
	*y = m->col[col].anim.y;
	*w = m->col[col].anim.w;
	*h = m->col[col].anim.h;
	return 0;
}
