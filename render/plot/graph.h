// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The seekscope figure (after fio's graph.c): a small opaque object that takes one or more
 * traces, streams their events once through the statistics and the panels' per-pixel
 * accumulators, and draws the picture into a cairo_t it is handed — the caller picks PNG, SVG
 * or PDF (see surface.h).  Several traces become columns on shared time and value scales.
 *
 *   g = ss_graph_new(&opts);  ss_graph_add_trace(g, t, "agcount=4") ...;
 *   ss_graph_run(g, err, sizeof(err));  ss_graph_draw(g, cr);  ss_graph_free(g);
 *
 * Memory is bounded by the picture (one pixel grid per sector panel) and the time bins, never
 * by the number of events.  Nothing here prints: errors are -errno plus a one-line message.
 */
#ifndef SS_GRAPH_H
#define SS_GRAPH_H

#include <stdbool.h>
#include <stdint.h>
#include <cairo.h>

#include "diskmodel.h"
#include "layout.h"
#include "groups.h"
#include "taskfilter.h"
#include "ticks.h"
#include "trace_read.h"

#define SS_GRAPH_MAX_TRACES SS_LAYOUT_MAX_COLS
/* Panels one figure can stack (the layout's rows); the registry checks at compile time that
 * it holds no more panels than this. */
#define SS_GRAPH_MAX_PANELS SS_LAYOUT_MAX_ROWS

struct ss_panel_ops;                   /* panel.h */
struct ss_table;                       /* table.h */

struct ss_graph_opts {
	int width, height;                 /* pixels (points for PDF) */
	const char *title;                 /* NULL: built from the trace labels */
	/* The panels in drawing order, 1..SS_GRAPH_MAX_PANELS: the graph knows no panel by
	 * name; callers resolve names through the registry (panel_registry.h:
	 * ss_panels_set_default, ss_panels_parse).  Borrowed: static ops. */
	const struct ss_panel_ops *panels[SS_GRAPH_MAX_PANELS];
	int nr_panels;
	/* Each column's time starts at the begin of this phase (plot --align), NULL: at the
	 * trace's start.  Every trace must have it (ss_trace_phase_begin). */
	const char *align;
	/* Only this device of each trace (--device: ss_trace_find_device's NAME or MAJ:MIN), NULL:
	 * every device, each sector panel repeated once per device of the trace. */
	const char *device;
	/* Show [x_lo_s, x_hi_s] seconds after each start: the time panels, and the figures of
	 * the table and the seek distances, cover only that window (stats.h). */
	bool has_x_range;
	double x_lo_s, x_hi_s;
	bool has_y_range;                  /* sector panel: absolute sectors [y_lo, y_hi) */
	uint64_t y_lo, y_hi;
	enum ss_offset_units units;
	uint64_t seek_threshold;           /* sectors (0: every I/O not contiguous) */
	unsigned rolling;                  /* moving average over this many bins (0/1: none) */
	/* What the sector panel's colours say: the I/O class, or the group of the request
	 * (groups.h: its process, directory or file; the top_groups groups over all traces,
	 * the same colour in every column, the rest "other"). */
	bool color_by_group;
	struct ss_group_spec group;
	unsigned top_groups;               /* 1..SS_GROUPS_MAX; 0: 8 */
	/* Draw and count only these processes' requests (taskfilter.h; empty: all).  The
	 * names are borrowed. */
	struct ss_task_spec only;
	/* plot --disk: replay each trace's issues through this disk model (diskreplay.h); the
	 * panels with needs_disk draw it and the table gets a "modelled s" column. */
	bool has_disk;
	struct ss_disk_params disk;
};

/* Defaults: 1600x1100, auto units, threshold 128, no smoothing, and no panels yet (the
 * caller picks them: ss_panels_set_default()). */
void ss_graph_opts_init(struct ss_graph_opts *o);
/* Default width/height for n traces side by side with nr_panels panels. */
void ss_graph_default_size(int nr_traces, int nr_panels, int *w, int *h);
/* Rows O's panels take for these traces: each sector panel once per device (the most any
 * trace has; one with o->device), the others once. */
int ss_graph_rows_for(const struct ss_graph_opts *o, struct ss_trace *const *t, int n);

struct ss_graph;

/* NULL + errno (ENOMEM, EINVAL for bad options: no panel, or a panel without extent, draw,
 * title or a positive weight). */
struct ss_graph *ss_graph_new(const struct ss_graph_opts *o);
void ss_graph_free(struct ss_graph *g);        /* accepts NULL */
/* Add a trace as the next column.  T is borrowed (must outlive the graph); LABEL is copied. */
int ss_graph_add_trace(struct ss_graph *g, struct ss_trace *t, const char *label);
/* Lay out, stream every trace (one pass, two when the sector range must be found first) and
 * compute shared scales.  0, or -errno with a message in err. */
int ss_graph_run(struct ss_graph *g, char *err, size_t errlen);
/* Draw the figure at (0,0)-(width,height) of CR.  Call after ss_graph_run. */
void ss_graph_draw(struct ss_graph *g, cairo_t *cr);

/* The time window and offset range of a figure of traces TR[0..NR) under options O (the rule
 * ss_graph_run follows, for other renderers of the same figure): each trace's t0 (its start,
 * or the start of the --align phase) and end, the shown time [x_lo, x_hi] in ns after each t0
 * (--x-range, else the longest trace), and, when SECTOR_Y (a panel shows device offsets), the
 * sectors [y_lo, y_hi) (--y-range, else every zone, else where the I/O was: one pass over the
 * events), one range over every device of the traces (ss_graph_run, with SECTOR_Y false, then
 * finds one per device row by the same rule: graph_devices.c).  LABELS (NULL: the paths) name the traces in messages.  0, or -errno with a message
 * in err (ENOENT: a trace lacks the --align phase). */
struct ss_graph_window {
	uint64_t t0[SS_GRAPH_MAX_TRACES], t_end[SS_GRAPH_MAX_TRACES];
	uint64_t x_lo, x_hi, y_lo, y_hi;
};
int ss_graph_window(const struct ss_graph_opts *o, struct ss_trace *const *tr,
		    const char *const *labels, int nr, bool sector_y, struct ss_graph_window *w,
		    char *err, size_t errlen);

/* The io panels of that figure (ss_graph_run's rule, for other renderers): a panel per
 * device slot — slot k of trace i shows device devs[i][k], each device of the trace or the
 * --device one (a trace naming no device: all of its I/O in slot 0) — each slot with its
 * offset range [y_lo, y_hi): --y-range, else the zones of the slot's devices, else where
 * their I/O went in the window W (one pass).  0, or -errno with a message (ENODEV: a trace
 * lacks the --device). */
struct ss_graph_devplan {
	int slots;
	uint32_t devs[SS_GRAPH_MAX_TRACES][SS_GRAPH_MAX_PANELS];
	int nr_devs[SS_GRAPH_MAX_TRACES];
	uint64_t y_lo[SS_GRAPH_MAX_PANELS], y_hi[SS_GRAPH_MAX_PANELS];
};
int ss_graph_devplan(const struct ss_graph_opts *o, struct ss_trace *const *tr,
		     const char *const *labels, int nr, const struct ss_graph_window *w,
		     struct ss_graph_devplan *p, char *err, size_t errlen);

/* Introspection for tests and callers (after ss_graph_run). */
/* The groups the sector panels are coloured by (opts.color_by_group), NULL otherwise. */
const struct ss_groups *ss_graph_groups(const struct ss_graph *g);
/* The sector panel's (the first panel with ops->sector_y) data rectangle for column COL;
 * -ENOENT if there is no sector panel. */
int ss_graph_io_rect(const struct ss_graph *g, int col, struct ss_rect *r);
/* Pixel row (y) of absolute SECTOR, and pixel column (x) of T_S seconds after the column's
 * start, in the sector panel of column COL.  0 or -ENOENT. */
int ss_graph_sector_y(const struct ss_graph *g, int col, uint64_t sector, double *y);
int ss_graph_time_x(const struct ss_graph *g, int col, double t_s, double *x);
/* The data rectangle of row PANEL in column COL: its index in opts.panels, once each sector
 * panel is repeated per device (ss_graph_rows_for).  0, or -ENOENT outside the figure. */
int ss_graph_panel_rect(const struct ss_graph *g, int panel, int col, struct ss_rect *r);
/* The title row PANEL of column COL shows, fitted beside the panel's key as ss_graph_draw
 * does it (the key is drawn into CR: a scratch surface), into BUF ("" for none).  0, or
 * -ENOENT outside the figure. */
int ss_graph_panel_title(const struct ss_graph *g, cairo_t *cr, int panel, int col, char *buf,
			 size_t len);
/* The time axis' caption under column COL, fitted to its room as ss_graph_draw writes it
 * under the last panel, into BUF.  0, or -ENOENT outside the figure or where the last panel
 * has no time axis (no caption). */
int ss_graph_x_title(const struct ss_graph *g, cairo_t *cr, int col, char *buf, size_t len);
/* The sector range [*lo, *hi) of the first sector panel (--y-range, else every zone, else
 * where the I/O was; one row per device in a multi-device trace).  0, or -ENOENT before
 * ss_graph_run or without a sector panel. */
int ss_graph_sector_range(const struct ss_graph *g, uint64_t *lo, uint64_t *hi);
/* The summary table (its rows, highlights and, after ss_graph_draw, cells), or NULL. */
const struct ss_table *ss_graph_table(const struct ss_graph *g);
/* The note written over column COL ("no I/O ..."), or NULL. */
const char *ss_graph_note(const struct ss_graph *g, int col);
/* When the x range (--x-range) lies past the end of column COL's trace, the note saying so
 * (for the caller to warn with), else NULL. */
const char *ss_graph_outside(const struct ss_graph *g, int col);

#endif
