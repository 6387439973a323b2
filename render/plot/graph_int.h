// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The insides of the figure shared by graph.c (the columns, the streaming, the scales),
 * graph_draw.c (the drawing) and graph_devices.c (one sector panel per device of a trace): not
 * an interface for anything else in render/plot.
 */
#ifndef SS_GRAPH_INT_H
#define SS_GRAPH_INT_H

#include "graph.h"
#include "table.h"

struct ss_graph_col {
	struct ss_trace *t;
	char *label;
	uint64_t t0, t_end;                 /* the trace's period (stats.h) */
	struct ss_stats *stats;
	struct ss_disk_replay *disk;        /* --disk, fed by the statistics pass */
	void *state[SS_GRAPH_MAX_PANELS];
	uint32_t devs[SS_GRAPH_MAX_PANELS]; /* the devices of its sector panels' rows, in order */
	int nr_devs;                        /* 0: the trace names none (all its I/O in one) */
	char note[160];                     /* big note over the panels ("no I/O") */
	char warn[300];                     /* header warning (truncated, lost events) */
	bool outside;                       /* the x range misses the trace: note says so */
};

struct ss_graph {
	struct ss_graph_opts o;
	const struct ss_panel_ops *ops[SS_GRAPH_MAX_PANELS];   /* per row, once expanded */
	int slot[SS_GRAPH_MAX_PANELS];      /* a sector row's device (index into col.devs), or -1 */
	int nr_panels;                      /* rows */
	int first_time_row, last_time_row;  /* rows with time on x (-1: none); the first
					     * names the phases, the last the time axis */
	struct ss_graph_col col[SS_GRAPH_MAX_TRACES];
	int nr;
	bool ran;
	struct ss_layout lay;
	uint64_t x_lo, x_hi;                /* ns after each column's t0 */
	uint64_t ylo[SS_GRAPH_MAX_PANELS], yhi[SS_GRAPH_MAX_PANELS];  /* sector rows' ranges */
	double vlo[SS_GRAPH_MAX_PANELS], vhi[SS_GRAPH_MAX_PANELS];
	struct ss_table table;
	struct ss_table_plan table_plan;        /* made with the layout */
	char title[256];
	char panel_title[SS_GRAPH_MAX_PANELS][160];   /* of the panels with a title_fmt */
	struct ss_groups groups;            /* colour by group: the groups (color_by_group) */
	struct ss_event *kept;              /* one batch's events of the filtered processes */
	size_t cap_kept;
};

/* What a first pass over a trace looks at to find where the data I/O went: its issues in
 * [from, to], each in the slot of its device among DEVS (NR_DEVS 0: all in slot 0). */
struct ss_graph_busy {
	struct ss_trace *t;
	uint64_t from, to;
	const uint32_t *devs;
	int nr_devs;
};
/* The extent of that I/O per slot, with a little air, into lo[k], hi[k] (0..2048 for a slot
 * without I/O).  0, or -errno with a message in err (rewinds the traces). */
int ss_graph_busy_ranges(const struct ss_graph_busy *src, int nr, int slots, uint64_t *lo,
			 uint64_t *hi, char *err, size_t errlen);
/* Device slots (rows per sector panel) for columns with these many devices. */
int ss_graph_device_slots(const struct ss_graph_opts *o, const size_t *nr_devices, int n);
/* Repeat each sector panel once per slot (g->ops, g->slot, g->nr_panels); -E2BIG. */
int ss_graph_expand_rows(struct ss_graph *g, int slots, char *err, size_t errlen);
/* Column C's device in row P; *one false when the row shows all of the trace. */
void ss_graph_row_device(const struct ss_graph *g, const struct ss_graph_col *c, int p,
			 bool *one, uint32_t *dev);
/* The column header's device text; the device a row's title names ("loop1 xfs 2.0 GiB, 4
 * AGs"; "" where the column has one device or the row shows all of them). */
void ss_graph_devices_text(const struct ss_graph_col *c, char *buf, size_t len);
void ss_graph_row_device_text(const struct ss_graph *g, const struct ss_graph_col *c, int p,
			      char *buf, size_t len);

#endif
