// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One module per plot behind a small ops table.  The graph owns the layout and the event
 * stream; a panel optionally keeps state (accumulated while events stream), reports the extent
 * of its values so columns can share a scale, and draws into the frame it is given.  What the
 * graph does differently for a panel comes from the panel's properties here, never from which
 * panel it is: the panels themselves (render/plot/panels) and their registry
 * (panel_registry.h) sit above the graph, which knows them only by the ops it is handed.
 */
#ifndef SS_PANEL_H
#define SS_PANEL_H

#include <cairo.h>
#include "axes.h"
#include "graph.h"
#include "stats.h"
#include "text.h"

/* What a panel knows when it is created, before events stream (one column). */
struct ss_panel_ctx {
	const struct ss_trace *trace;
	const struct ss_graph_opts *opts;
	uint64_t t0;                 /* trace clock at x = 0 */
	uint64_t x_lo, x_hi;         /* shown time range, ns after t0 */
	struct ss_rect rect;         /* the data area it will draw into */
	uint64_t y_lo, y_hi;         /* sector range shown (sector panel), shared by columns */
	bool one_dev;                /* a sector panel shows only device `dev` (its zones, its */
	uint32_t dev;                /* I/O): one panel per device of a multi-device trace */
	/* Colour by group (process, directory, file): the groups and their order (NULL:
	 * colour by class). */
	const struct ss_groups *groups;
};

/* What a panel gets at draw time. */
struct ss_panel_data {
	const struct ss_trace *trace;
	const struct ss_stats *stats;    /* finished */
	const struct ss_graph_opts *opts;
	uint64_t t0, x_lo, x_hi;
	bool label_phases;               /* the column's top time panel names the phases */
};

struct ss_panel_ops {
	const char *name;            /* --panels keyword */
	const char *help;            /* one line for --help: what the panel shows */
	const char *title;           /* shown above the plot; carries the unit */
	/* Optional, instead of `title`: a title that depends on the options (the seek
	 * threshold, say), written into BUF. */
	void (*title_fmt)(char *buf, size_t len, const struct ss_graph_opts *o);
	/* Optional: a word or two shown where the title is cut to less than its head (up to its
	 * first ':', ',' or '(') and even the head does not fit ("Latency") */
	const char *short_title;
	const char *y_title;         /* short rotated axis title */
	double weight;               /* relative height */
	bool time_x;                 /* x is time (shares the time axis and phase lines) */
	/* y is logarithmic: extent reports the smallest and largest positive values (lo 0: no
	 * data); the graph widens them to whole decades */
	bool log_y;
	/* y is the device offset: the graph's sector range (--y-range, else every zone, else
	 * where the I/O was; shared by the columns, no headroom), labelled in the offset units.
	 * The graph's introspection (ss_graph_io_rect, ...) refers to the first such panel. */
	bool sector_y;
	bool class_legend;           /* coloured by I/O class: the figure shows their legend */
	/* Optional, with class_legend: the request classes it drew (SS_CLS_BIT()s, palette.h),
	 * once the events have streamed; the legend lists only those. */
	unsigned (*classes)(void *state);
	/* draws the disk model's figures (plot --disk, ss_graph_opts.disk): refused without
	 * --disk, added to the default set with it */
	bool needs_disk;
	/* draws the seek causes (ss_stats_causes): the statistics pass counts them only when a
	 * panel shown needs them */
	bool needs_causes;
	/* the .html viewer does not draw it: plot -o x.html refuses it rather than leave it out */
	bool no_html;
	/* Optional: allocate state.  0 or -errno. */
	int (*create)(void **state, const struct ss_panel_ctx *ctx);
	/* Optional: see a batch of events (time order).  A plot's pass may call it in the
	 * read-ahead thread, beside the statistics (ss_trace_set_batch_hook): it touches its
	 * state and what nobody writes during the pass (the trace's metadata, zones, groups). */
	void (*feed)(void *state, const struct ss_event *ev, size_t n);
	/* Value range of the data (for scales shared by columns); lo/hi already hold a default. */
	void (*extent)(void *state, const struct ss_panel_data *d, double *lo, double *hi);
	/* Draw: f->y spans the shared range.  Axes are drawn by the panel (it knows its units). */
	void (*draw)(void *state, cairo_t *cr, const struct ss_panel_data *d,
		     const struct ss_frame *f);
	/* Optional: the panel's key at the right end of the title band above frame F (before
	 * the title and the panel; drawn only with DRAW, else only measured): the room it takes
	 * there, or the room kept for what the panel draws there later (the movie's clock, with
	 * key_fixed): the title is cut short of it; f->r.w or more: no title; 0: no key.  The
	 * frame it is given may be wider than the panel's (reaching over the gutter right of
	 * it, where a narrow frame leaves the title too little room beside the key). */
	double (*key)(void *state, cairo_t *cr, const struct ss_panel_data *d,
		      const struct ss_frame *f, bool draw);
	/* the key's room is for something the panel draws at its frame's right end later (the
	 * movie's clock): it stays there, and the title over the frame */
	bool key_fixed;
	void (*destroy)(void *state);
};

/* Where the labels drawn under a panel's data went (phase names, "events lost"), for the
 * panel's own labels to keep clear of them; those past SS_LABEL_BOXES_MAX are not kept. */
#define SS_LABEL_BOXES_MAX 60
struct ss_label_boxes {
	int nr;
	struct ss_box box[SS_LABEL_BOXES_MAX];
};

/*
 * The start of a time panel's draw: background, lost-event periods, both axes and the phase
 * lines (labelled when d->label_phases), then cairo_save() and a clip to the data area.  The
 * panel draws its data and ends with cairo_restore().  The boxes of the labels drawn go into
 * TAKEN when it is not NULL.
 */
void ss_time_panel_begin(cairo_t *cr, const struct ss_frame *f, const struct ss_panel_data *d,
			 struct ss_label_boxes *taken);

/* Lost-event periods of a trace (trace_read.h) shaded over a time frame, at least 3 px wide so
 * a short one shows; with `label`, each period wide enough says "events lost" (their boxes
 * added to TAKEN if not NULL).  Drawn under the data. */
void ss_lost_draw(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t, uint64_t t0,
		  bool label, struct ss_label_boxes *taken);

/* A panel's key, at the right end of its title band: a line sample or colour box, then the
 * name, SS_KEY_GAP between entries (ss_key_plan). */
#define SS_KEY_SAMPLE 26        /* a line sample and the air before its name */
#define SS_KEY_GAP 14
#define SS_KEY_TITLE_MIN 130
#define SS_KEY_MIN_SCALE 0.75
#define SS_KEY_MAX 12

struct ss_key_plan {
	int n;
	double scale;               /* of the full size: type, samples, gaps */
	int rows;                   /* 1 or 2; 0: no key */
	int split;                  /* the second row's first entry */
	double sample[SS_KEY_MAX];  /* each entry's sample and the air after it, full size */
	double w[SS_KEY_MAX];       /* each entry's name's width at the plan's size */
	double row_w[2];
	double width;               /* the wider row's: the room the key takes; 0: none */
};

/*
 * The layout of a key of N entries (at most SS_KEY_MAX), NAMES[k] after a sample SAMPLE[k]
 * px wide at full size, in a frame WIDTH wide: one row at full size where the title keeps
 * SS_KEY_TITLE_MIN beside it; else whichever of one row in smaller type (down to
 * SS_KEY_MIN_SCALE) and two rows at that size leaves the title more room; none where even
 * that is wider than the frame.
 */
void ss_key_plan(cairo_t *cr, const char *const *names, const double *sample, int n,
		 double width, struct ss_key_plan *kp);
/* Where entry K of the key over frame F starts (its sample's left end, the middle of its
 * row); its name starts kp->sample[k] * kp->scale to the right, ss_metrics.font_small *
 * kp->scale in size. */
void ss_key_place(const struct ss_key_plan *kp, const struct ss_frame *f, int k, double *x,
		  double *y);

/* Phase markers of a trace as vertical lines over a time frame; labelled when `labels`, the
 * labels under the flush/FUA strips or, when `below` is more, that many px under the frame's
 * top (where something else is drawn over it); the labels' boxes added to TAKEN if not NULL. */
void ss_phases_draw(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t,
		    uint64_t t0, bool labels, double below, struct ss_label_boxes *taken);

#endif
