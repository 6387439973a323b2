// SPDX-License-Identifier: GPL-2.0-or-later
/* The seekscope figure: columns of panels over shared scales; see graph.h. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "seekscope/model.h"
#include "graph_int.h"
#include "panel.h"
#include "table.h"
#include "zones.h"

void ss_graph_opts_init(struct ss_graph_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->width = 1600;
	o->height = 1100;
	o->units = SS_UNITS_AUTO;
	o->seek_threshold = SS_SEEK_THRESHOLD_DEFAULT;
}

void ss_graph_default_size(int nr_traces, int nr_panels, int *w, int *h)
{
	if (nr_panels < 1)
		nr_panels = 1;
	*w = nr_traces <= 1 ? 1600 : nr_traces * 1100 + 100;
	if (*w > 4400)
		*w = 4400;
	*h = 560 + 150 * (nr_panels - 1) + 19 * (nr_traces > 1 ? 2 * nr_traces : 2);
}

struct ss_graph *ss_graph_new(const struct ss_graph_opts *o)
{
	struct ss_graph *g;
	int n = o->nr_panels;

	if (o->width <= 0 || o->height <= 0 || n < 1 || n > SS_GRAPH_MAX_PANELS ||
	    (o->has_x_range && !(o->x_hi_s > o->x_lo_s && o->x_lo_s >= 0)) ||
	    (o->has_y_range && o->y_hi <= o->y_lo)) {
		errno = EINVAL;
		return NULL;
	}
	for (int i = 0; i < n; i++) {
		const struct ss_panel_ops *ops = o->panels[i];

		if (!ops || !ops->extent || !ops->draw || !(ops->title || ops->title_fmt) ||
		    !(ops->weight > 0)) {
			errno = EINVAL;
			return NULL;
		}
	}
	g = calloc(1, sizeof(*g));
	if (!g)
		return NULL;
	g->o = *o;
	for (int i = 0; i < n; i++) {
		g->ops[i] = o->panels[i];
		g->slot[i] = g->ops[i]->sector_y ? 0 : -1;
	}
	g->nr_panels = n;
	g->o.title = NULL;       /* copied into g->title below: the caller's string may go */
	if (o->title)
		snprintf(g->title, sizeof(g->title), "%s", o->title);
	return g;
}

void ss_graph_free(struct ss_graph *g)
{
	if (!g)
		return;
	for (int c = 0; c < g->nr; c++) {
		for (int p = 0; p < g->nr_panels; p++)
			if (g->ops[p]->destroy)
				g->ops[p]->destroy(g->col[c].state[p]);
		ss_stats_free(g->col[c].stats);
		ss_disk_replay_free(g->col[c].disk);
		free(g->col[c].label);
	}
	free(g->kept);
	free(g);
}

int ss_graph_add_trace(struct ss_graph *g, struct ss_trace *t, const char *label)
{
	struct ss_graph_col *c;

	if (g->ran || !t)
		return -EINVAL;
	if (g->nr >= SS_GRAPH_MAX_TRACES)
		return -E2BIG;
	c = &g->col[g->nr];
	memset(c, 0, sizeof(*c));
	c->t = t;
	c->label = strdup(label ? label : t->path);
	if (!c->label)
		return -ENOMEM;
	g->nr++;
	return 0;
}

/* The first panel whose y axis is the device offset, or -1. */
static int sector_row(const struct ss_graph *g)
{
	for (int p = 0; p < g->nr_panels; p++)
		if (g->ops[p]->sector_y)
			return p;
	return -1;
}

int ss_graph_window(const struct ss_graph_opts *o, struct ss_trace *const *tr,
		    const char *const *labels, int nr, bool sector_y, struct ss_graph_window *w,
		    char *err, size_t errlen)
{
	uint64_t dur = 0;

	memset(w, 0, sizeof(*w));
	if (nr < 1 || nr > SS_GRAPH_MAX_TRACES) {
		ss_errf(err, errlen, "no trace to plot");
		return -EINVAL;
	}
	for (int i = 0; i < nr; i++) {
		ss_stats_trace_period(tr[i], &w->t0[i], &w->t_end[i]);
		if (o->align) {
			const struct ss_rec_phase *ph = ss_trace_phase_begin(tr[i], o->align);

			if (!ph) {
				ss_errf(err, errlen, "%s has no phase \"%s\" to align on",
					labels ? labels[i] : tr[i]->path, o->align);
				return -ENOENT;
			}
			/* what came before the phase is left of the axis, out of view */
			w->t0[i] = ph->ts_ns;
			if (w->t_end[i] < w->t0[i])
				w->t_end[i] = w->t0[i];
		}
		if (w->t_end[i] - w->t0[i] > dur)
			dur = w->t_end[i] - w->t0[i];
	}
	if (o->has_x_range) {
		w->x_lo = (uint64_t)llround(o->x_lo_s * 1e9);
		w->x_hi = (uint64_t)llround(o->x_hi_s * 1e9);
	} else {
		w->x_lo = 0;
		w->x_hi = dur ? dur : 1000000000ull;    /* nothing happened: show one second */
	}
	if (w->x_hi <= w->x_lo)
		w->x_hi = w->x_lo + 1000;

	/* sector range: asked for, else every zone (all AGs show), else where the I/O was */
	if (o->has_y_range) {
		w->y_lo = o->y_lo;
		w->y_hi = o->y_hi;
	} else if (sector_y) {
		struct ss_graph_busy src[SS_GRAPH_MAX_TRACES];
		bool any = false;

		for (int i = 0; i < nr; i++) {
			uint64_t a, b;

			if (!ss_zones_range(tr[i], &a, &b))
				continue;
			if (!any || a < w->y_lo)
				w->y_lo = a;
			if (!any || b > w->y_hi)
				w->y_hi = b;
			any = true;
		}
		if (any)
			return 0;
		/* every device of a trace in one range */
		for (int i = 0; i < nr; i++)
			src[i] = (struct ss_graph_busy){ tr[i], w->t0[i] + w->x_lo, w->t0[i] + w->x_hi,
							 NULL, 0 };
		return ss_graph_busy_ranges(src, nr, 1, &w->y_lo, &w->y_hi, err, errlen);
	} else {
		w->y_lo = 0;
		w->y_hi = 1;
	}
	return 0;
}

/* Whole decades around [lo, hi] (positive values) with room at both ends; 1..10 without
 * data; at least 2 decades. */
static void log_range(double *lo, double *hi)
{
	if (*hi <= 0) {
		*lo = 1;
		*hi = 10;
		return;
	}
	if (*lo <= 0 || *lo > *hi)
		*lo = *hi;
	*lo = pow(10, floor(log10(*lo * 0.8)));           /* the lowest line off the frame */
	*hi = pow(10, ceil(log10(*hi * 1.2)));      /* headroom for the top mark */
	if (*hi < *lo * 100)
		*hi = *lo * 100;
}

static void describe_columns(struct ss_graph *g)
{
	size_t len = 0;

	for (int i = 0; i < g->nr; i++) {
		struct ss_graph_col *c = &g->col[i];
		const struct ss_summary *s = ss_stats_total(c->stats);
		uint64_t lost = ss_trace_lost_events(c->t);
		size_t wl = 0;

		c->outside = g->o.has_x_range && c->t0 + g->x_lo > c->t_end;
		if (c->outside)
			snprintf(c->note, sizeof(c->note), "nothing to show: %g-%g s is past the end of "
				 "this trace (%.3g s)", g->o.x_lo_s, g->o.x_hi_s,
				 (double)(c->t_end - c->t0) / 1e9);
		else if (s->ios == 0 && s->clipped)
			snprintf(c->note, sizeof(c->note), "no I/O between %g and %g s",
				 (double)g->x_lo / 1e9, (double)g->x_hi / 1e9);
		else if (s->ios == 0)
			snprintf(c->note, sizeof(c->note), c->t->nr_events
				 ? "no I/O: %" PRIu64 " event(s), no completed request"
				 : "no I/O: the trace has no events", c->t->nr_events);
		if (c->t->truncated) {
			const char *why = c->t->warning;

			if (!strncmp(why, "truncated: ", 11))
				why += 11;
			wl += (size_t)snprintf(c->warn, sizeof(c->warn), "TRUNCATED: %s", why);
		}
		if (lost && wl < sizeof(c->warn))
			wl += (size_t)snprintf(c->warn + wl, sizeof(c->warn) - wl,
					       "%s%" PRIu64 " events LOST", wl ? "; " : "", lost);
		if (c->t->nr_lost && wl < sizeof(c->warn))
			snprintf(c->warn + wl, sizeof(c->warn) - wl, " in %zu period%s (shaded; %"
				 PRIu64 " request%s in flight there: no latency)", c->t->nr_lost,
				 c->t->nr_lost == 1 ? "" : "s", s->lat_lost, s->lat_lost == 1 ? "" : "s");
	}
	if (g->title[0])
		return;
	for (int i = 0; i < g->nr && len < sizeof(g->title); i++)
		len += (size_t)snprintf(g->title + len, sizeof(g->title) - len, "%s%s",
					i ? " vs " : "seekscope: ", g->col[i].label);
	/* the time axes count from the phase, not from the traces' start: say so */
	if (g->o.align && len < sizeof(g->title))
		len += (size_t)snprintf(g->title + len, sizeof(g->title) - len,
					", aligned on the start of %.*s",
					ss_text_prefix(g->o.align, 32), g->o.align);
	if (ss_task_spec_active(&g->o.only) && len < sizeof(g->title)) {
		char only[160];

		ss_task_spec_describe(&g->o.only, only, sizeof(only));
		snprintf(g->title + len, sizeof(g->title) - len, " (only %s)", only);
	}
}

static void build_table(struct ss_graph *g)
{
	struct ss_table_run runs[SS_GRAPH_MAX_TRACES];

	for (int i = 0; i < g->nr; i++)
		runs[i] = (struct ss_table_run){ g->col[i].label, g->col[i].t, g->col[i].stats };
	ss_table_build(&g->table, runs, g->nr);
	g->table.plan = g->table_plan;
}

/* The events of *EV[0..*N) that FILTER keeps, into g->kept; *EV and *N then describe them. */
static int keep_filtered(struct ss_graph *g, struct ss_evfilter *filter,
			 const struct ss_event **ev, size_t *n)
{
	size_t k = 0;

	if (*n > g->cap_kept) {
		struct ss_event *p = reallocarray(g->kept, *n, sizeof(*p));

		if (!p)
			return -ENOMEM;
		g->kept = p;
		g->cap_kept = *n;
	}
	for (size_t i = 0; i < *n; i++) {
		int keep = ss_evfilter_keep(filter, &(*ev)[i]);

		if (keep < 0)
			return keep;
		if (keep)
			g->kept[k++] = (*ev)[i];
	}
	*ev = g->kept;
	*n = k;
	return 0;
}

/* A column's panels that see the events (struct ss_panel_ops.feed), fed a batch. */
struct feed_ctx {
	const struct ss_graph *g;
	struct ss_graph_col *c;
	bool panels, notes;            /* what the batch hook does: feed the panels, note */
};

static void feed_panels(const struct feed_ctx *f, const struct ss_event *ev, size_t n)
{
	for (int p = 0; p < f->g->nr_panels; p++)
		if (f->g->ops[p]->feed)
			f->g->ops[p]->feed(f->c->state[p], ev, n);
}

/* The pass's work on the events alone (trace_read.h: ss_trace_set_batch_hook). */
static void batch_hook(void *arg, const struct ss_event *ev, void *notes, size_t n)
{
	const struct feed_ctx *f = arg;

	if (f->notes)
		ss_stats_note(f->c->stats, ev, notes, n);
	if (f->panels)
		feed_panels(f, ev, n);
}

static int stream_column(struct ss_graph *g, struct ss_graph_col *c, uint64_t bin_w, char *err,
			 size_t errlen)
{
	struct feed_ctx fc = { g, c };
	struct ss_evfilter *filter = NULL;
	struct ss_stats_opts so;
	const struct ss_event *ev;
	size_t n, note_size;
	int ret;

	ss_stats_opts_init(&so);
	so.seek_threshold = g->o.seek_threshold;
	so.bins = true;
	so.bin_start_ns = c->t0 + g->x_lo;
	so.bin_end_ns = c->t0 + g->x_hi;
	so.bin_width_ns = bin_w;
	/* the table and the distribution summarise what the time panels show */
	so.window = true;
	so.window_start_ns = c->t0 + g->x_lo;
	so.window_end_ns = c->t0 + g->x_hi;
	so.one_device = g->o.device != NULL;
	/* several devices drawn: the time series show each (panel_series.c) */
	so.device_bins = !so.one_device && c->t->nr_devices > 1;
	so.device = c->nr_devs ? c->devs[0] : 0;
	so.only = &g->o.only;
	/* the seek causes only for a panel that draws them; no per-zone rows (a report's) */
	for (int p = 0; p < g->nr_panels; p++)
		so.causes |= g->ops[p]->needs_causes;
	if (g->o.has_disk) {
		char why[300];

		if (!(so.disk = c->disk = ss_disk_replay_new(&g->o.disk, c->t, why, sizeof(why)))) {
			ret = -errno;
			ss_errf(err, errlen, "%s: --disk: %s", c->t->path, why);
			return ret;
		}
	}
	c->stats = ss_stats_new(c->t, &so);
	if (!c->stats) {
		ret = -errno;
		ss_errf(err, errlen, "%s: %s", c->t->path, strerror(errno));
		return ret;
	}
	for (int p = 0; p < g->nr_panels; p++) {
		struct ss_panel_ctx ctx = {
			.trace = c->t, .opts = &g->o, .t0 = c->t0, .x_lo = g->x_lo, .x_hi = g->x_hi,
			.rect = g->lay.plot[p][c - g->col], .y_lo = g->ylo[p], .y_hi = g->yhi[p],
			.groups = g->o.color_by_group ? &g->groups : NULL,
		};

		ss_graph_row_device(g, c, p, &ctx.one_dev, &ctx.dev);

		if (g->ops[p]->create && (ret = g->ops[p]->create(&c->state[p], &ctx))) {
			ss_errf(err, errlen, "%s: %s", c->t->path, strerror(-ret));
			return ret;
		}
	}
	if (ss_task_spec_active(&g->o.only) && !(filter = ss_evfilter_new(&g->o.only, c->t))) {
		ss_errf(err, errlen, "%s: out of memory", c->t->path);
		return -ENOMEM;
	}
	ss_trace_rewind(c->t);
	/* without a process filter the panels see every event: in the read-ahead thread, when
	 * the pass has one, beside the statistics (the io panel's cells are a tenth of a plot's
	 * pass); with one, the events it keeps, here.  The statistics judge every event there
	 * too (stats.h: ss_stats_notes), leaving the counting to this thread. */
	fc.panels = !filter;
	note_size = ss_stats_notes(c->stats, true);
	fc.notes = note_size != 0;
	if (fc.panels || fc.notes)
		ss_trace_set_batch_hook(c->t, batch_hook, &fc, note_size);
	while ((ret = ss_trace_next_batch(c->t, &ev, &n)) > 0) {
		/* the statistics filter on their own (the others still move the head) */
		if ((ret = ss_stats_feed_noted(c->stats, ev, ss_trace_batch_notes(c->t), n)) ||
		    (filter && (ret = keep_filtered(g, filter, &ev, &n)))) {
			ss_errf(err, errlen, "%s: %s", c->t->path, strerror(-ret));
			ss_evfilter_free(filter);
			ss_trace_rewind(c->t);  /* the read-ahead thread stopped, the hook unset */
			return ret;
		}
		if (filter)
			feed_panels(&fc, ev, n);
	}
	ss_trace_set_batch_hook(c->t, NULL, NULL, 0);
	ss_evfilter_free(filter);
	if (ret < 0) {
		ss_errf(err, errlen, "%s: %s", c->t->path, ss_trace_error(c->t));
		return ret;
	}
	if ((ret = ss_stats_finish(c->stats)))
		ss_errf(err, errlen, "%s: %s", c->t->path, strerror(-ret));
	return ret;
}

int ss_graph_run(struct ss_graph *g, char *err, size_t errlen)
{
	struct ss_layout_spec spec = { .width = g->o.width, .height = g->o.height };
	struct ss_trace *tr[SS_GRAPH_MAX_TRACES];
	const struct ss_trace *traces[SS_GRAPH_MAX_TRACES];
	const char *labels[SS_GRAPH_MAX_TRACES];
	struct ss_graph_window w;
	double weight[SS_GRAPH_MAX_PANELS];
	struct ss_graph_devplan plan;
	uint64_t bin_w;
	int ret, slots;

	if (g->ran || g->nr == 0) {
		ss_errf(err, errlen, "no trace to plot");
		return -EINVAL;
	}
	g->ran = true;
	for (int i = 0; i < g->nr; i++) {
		tr[i] = g->col[i].t;
		traces[i] = g->col[i].t;
		labels[i] = g->col[i].label;
	}
	/* the time window; each sector row's range follows, per device (graph_devices.c) */
	if ((ret = ss_graph_window(&g->o, tr, labels, g->nr, false, &w, err, errlen)))
		return ret;
	g->x_lo = w.x_lo;
	g->x_hi = w.x_hi;
	if ((ret = ss_graph_devplan(&g->o, tr, labels, g->nr, &w, &plan, err, errlen)))
		return ret;
	for (int i = 0; i < g->nr; i++) {
		g->col[i].t0 = w.t0[i];
		g->col[i].t_end = w.t_end[i];
		g->col[i].nr_devs = plan.nr_devs[i];
		memcpy(g->col[i].devs, plan.devs[i], sizeof(plan.devs[i]));
	}
	slots = plan.slots;
	if ((ret = ss_graph_expand_rows(g, slots, err, errlen)))
		return ret;
	g->first_time_row = g->last_time_row = -1;
	for (int p = 0; p < g->nr_panels; p++)
		if (g->ops[p]->time_x) {
			if (g->first_time_row < 0)
				g->first_time_row = p;
			g->last_time_row = p;
		}
	for (int p = 0; p < g->nr_panels; p++)
		if (g->slot[p] >= 0) {
			g->ylo[p] = plan.y_lo[g->slot[p]];
			g->yhi[p] = plan.y_hi[g->slot[p]];
		}
	if (slots > 1)      /* several io panels: each a little lower than one alone */
		for (int p = 0; p < g->nr_panels; p++)
			weight[p] = g->ops[p]->weight * (g->slot[p] >= 0 ? 0.6 : 1);

	spec.nr_cols = g->nr;
	spec.nr_rows = g->nr_panels;
	for (int p = 0; p < g->nr_panels; p++) {
		spec.row_weight[p] = slots > 1 ? weight[p] : g->ops[p]->weight;
		spec.legend |= g->ops[p]->class_legend;
	}
	spec.table_rows = ss_table_lines(traces, g->nr);
	if (spec.table_rows) {  /* headings and rule wrapped where they are too wide ... */
		int lines = spec.table_rows;

		spec.table_rows += ss_table_plan(ss_layout_table_w(g->o.width), labels, tr, g->nr,
						 g->o.has_disk, &g->table_plan);
		if (ss_layout_compute(&spec, &g->lay)) {        /* ... or in smaller type */
			spec.table_rows = lines;
			g->table_plan = (struct ss_table_plan){ 1, 1 };
		}
	}
	if (ss_layout_compute(&spec, &g->lay)) {
		ss_errf(err, errlen, "a %dx%d picture is too small for %d panel(s) and %d trace(s)"
			" (try --size %dx%d)", g->o.width, g->o.height, g->nr_panels, g->nr,
			g->o.width < 300 * g->nr ? 300 * g->nr : g->o.width,
			ss_layout_min_height(&spec));
		return -EINVAL;
	}
	if (g->o.color_by_group) {
		struct ss_group_scope scope[SS_GRAPH_MAX_TRACES];

		/* rank what is drawn: the shown time, the --device */
		for (int i = 0; i < g->nr; i++)
			scope[i] = (struct ss_group_scope){ g->col[i].t0 + g->x_lo, g->col[i].t0 + g->x_hi,
							    g->o.device != NULL, g->col[i].devs[0] };
		ret = ss_groups_rank(&g->o.group, tr, scope, g->nr, &g->o.only,
				     g->o.top_groups ? g->o.top_groups : 8, &g->groups, err, errlen);
		if (ret)
			return ret;
	}
	/* one bin per ~4 pixels: a 3-second untar gets ~300 points, not three */
	bin_w = ss_bins_choose_width(g->x_hi - g->x_lo, (unsigned)fmax(g->lay.plot[0][0].w / 4, 8));
	for (int i = 0; i < g->nr; i++)
		if ((ret = stream_column(g, &g->col[i], bin_w, err, errlen)))
			return ret;

	/* shared value scales: every column of a row on the same axis */
	for (int p = 0; p < g->nr_panels; p++) {
		double lo = 0, hi = 0;

		for (int i = 0; i < g->nr; i++) {
			struct ss_panel_data d = { g->col[i].t, g->col[i].stats, &g->o, g->col[i].t0,
						   g->x_lo, g->x_hi };
			double l = 0, h = 0;

			g->ops[p]->extent(g->col[i].state[p], &d, &l, &h);
			if (g->ops[p]->log_y && l <= 0)         /* a column without data */
				l = lo;
			if (i == 0 || l < lo || (g->ops[p]->log_y && lo <= 0))
				lo = l;
			if (i == 0 || h > hi)
				hi = h;
		}
		if (g->ops[p]->log_y) {
			log_range(&lo, &hi);
		} else if (!g->ops[p]->sector_y) {
			struct ss_ticks t;
			int want = (int)(g->lay.plot[p][0].h / 28);

			/* headroom, then up to a tick so the top of the scale is labelled */
			hi = hi > 0 ? hi * 1.05 : 1;
			if (!ss_ticks_compute(lo, hi, want < 3 ? 3 : want > 12 ? 12 : want, &t) &&
			    ss_ticks_value(&t, t.count - 1) < hi)
				hi = ss_ticks_value(&t, t.count - 1) + t.step;
		}
		if (hi <= lo)
			hi = lo + 1;
		g->vlo[p] = lo;
		g->vhi[p] = hi;
	}
	describe_columns(g);
	build_table(g);
	for (int p = 0; p < g->nr_panels; p++)
		if (g->ops[p]->title_fmt)
			g->ops[p]->title_fmt(g->panel_title[p], sizeof(g->panel_title[p]), &g->o);
	return 0;
}

int ss_graph_panel_rect(const struct ss_graph *g, int panel, int col, struct ss_rect *r)
{
	if (!g->ran || panel < 0 || panel >= g->nr_panels || col < 0 || col >= g->nr)
		return -ENOENT;
	*r = g->lay.plot[panel][col];
	return 0;
}

const struct ss_groups *ss_graph_groups(const struct ss_graph *g)
{
	return g->o.color_by_group ? &g->groups : NULL;
}

int ss_graph_io_rect(const struct ss_graph *g, int col, struct ss_rect *r)
{
	return ss_graph_panel_rect(g, sector_row(g), col, r);
}

int ss_graph_sector_y(const struct ss_graph *g, int col, uint64_t sector, double *y)
{
	struct ss_rect r;
	struct ss_axis a;

	if (ss_graph_io_rect(g, col, &r))
		return -ENOENT;
	a = (struct ss_axis){ (double)g->ylo[sector_row(g)], (double)g->yhi[sector_row(g)], r.y + r.h,
			      r.y, false };
	*y = ss_axis_map(&a, (double)sector);
	return 0;
}

int ss_graph_time_x(const struct ss_graph *g, int col, double t_s, double *x)
{
	struct ss_rect r;
	struct ss_axis a;

	if (ss_graph_io_rect(g, col, &r))
		return -ENOENT;
	a = (struct ss_axis){ (double)g->x_lo, (double)g->x_hi, r.x, r.x + r.w, false };
	*x = ss_axis_map(&a, t_s * 1e9);
	return 0;
}

const struct ss_table *ss_graph_table(const struct ss_graph *g)
{
	return g->ran ? &g->table : NULL;
}

const char *ss_graph_outside(const struct ss_graph *g, int col)
{
	if (col < 0 || col >= g->nr || !g->col[col].outside)
		return NULL;
	return g->col[col].note;
}

int ss_graph_sector_range(const struct ss_graph *g, uint64_t *lo, uint64_t *hi)
{
	if (!g->ran)
		return -ENOENT;
	/* the first sector row's (a trace with several devices has one row each) */
	for (int p = 0; p < g->nr_panels; p++)
		if (g->ops[p]->sector_y) {
			*lo = g->ylo[p];
			*hi = g->yhi[p];
			return 0;
		}
	return -ENOENT;
}

const char *ss_graph_note(const struct ss_graph *g, int col)
{
	if (col < 0 || col >= g->nr || !g->col[col].note[0])
		return NULL;
	return g->col[col].note;
}
