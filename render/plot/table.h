// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The summary table under the plots: per trace, per phase and for the time to durable
 * (extract+sync, stats.h), the totals (duration, I/Os, bytes per class, seeks and, with
 * plot --disk, the modelled disk busy time "modelled s") beside the rates (MB/s, IOPS,
 * seeks/s), latency, files/s and lost events — the figures of `seekscope report` (stats.h).
 *
 * A highlight is a judgement, so it is made only where it is honest (the rule, drawn under
 * the table when several runs are shown):
 *  - only between runs of the same work: record --untar of the same archive (its size,
 *    entries and data bytes) with the same --fsync and --repeat, in the same phase (the whole
 *    trace: the same sequence of phases).  Other workloads (a command, an import) say nothing
 *    about how much work they did: never highlighted;
 *  - only in the columns where "better" means something for a fixed amount of work: lower
 *    duration of a phase or of extract+sync (not of the whole capture, which also holds
 *    start-up, drop-caches and the linger after the workload), fewer seeks and less modelled
 *    disk time (one --disk model for every run).  Rates (MB/s, IOPS, seeks/s, files/s) of
 *    fixed work only restate the duration, bytes differ by design, latency depends on
 *    request sizes: shown, not ranked;
 *  - only where the work is not negligible: every compared row moved at least
 *    SS_TABLE_MIN_IOS I/Os or SS_TABLE_MIN_BYTES bytes (drop-caches, an extract that stayed
 *    in the page cache are not compared), and its trace lost no events (its seeks are short);
 *  - ties at display precision highlight nothing.
 * Each column is one entry of a table in table.c: a new figure is one line there.
 */
#ifndef SS_TABLE_H
#define SS_TABLE_H

#include <stdbool.h>
#include <cairo.h>
#include "layout.h"
#include "stats.h"

#define SS_TABLE_MAX_ROWS 16
#define SS_TABLE_MAX_RUNS SS_LAYOUT_MAX_COLS
#define SS_TABLE_MAX_COLS 24
#define SS_TABLE_MIN_IOS 100
#define SS_TABLE_MIN_BYTES 1000000ull

/* How the table is set (ss_table_plan). */
struct ss_table_plan {
	int head_lines;             /* 1 or 2 (0: 1) */
	int rule_lines;             /* 1 .. 3 (0: 1) */
};

/* One trace as the table sees it (all borrowed). */
struct ss_table_run {
	const char *label;
	const struct ss_trace *t;
	const struct ss_stats *st;
};

struct ss_table_row {
	const char *run;            /* trace label */
	const char *phase;          /* phase name, "all" for the whole trace, or SS_DURABLE_PHASE */
	const struct ss_summary *s;
	bool has_files;
	double files_per_s;
	bool has_lost;              /* lost events apply to whole traces only */
	uint64_t lost;
	int group;                  /* rows with the same group show the same phase */
	const char *work;           /* what was done ("" unknown: never ranked) */
	bool judged;                /* enough work and no lost events: may be ranked */
	bool timed;                 /* its duration is the work's: a phase or extract+sync (the
				     * whole capture also holds start-up, drop-caches, linger) */
	bool has_model;             /* plot --disk: s->model holds the modelled busy time */
};

struct ss_table {
	struct ss_table_row rows[SS_TABLE_MAX_ROWS];
	int nr_rows;
	int nr_runs;
	int cols[SS_TABLE_MAX_COLS];         /* the columns shown (indexes into table.c's list) */
	int nr_cols;
	bool best[SS_TABLE_MAX_ROWS][SS_TABLE_MAX_COLS];
	char work[SS_TABLE_MAX_RUNS][2][192]; /* per run: the work of a phase, of the whole trace */
	/* geometry of the last ss_table_draw (for ss_table_cell): column c spans
	 * [col_x[c], col_x[c + 1]), the phase names [phase_x, col_x[0]); the heading takes
	 * head_lines rows; the type's size */
	double x0, y0, row_h, col_x[SS_TABLE_MAX_COLS + 1], phase_x, font;
	int head_lines;
	bool hidden[SS_TABLE_MAX_COLS];      /* left out: the picture is too narrow for it */
	struct ss_table_plan plan;           /* set by the caller (ss_table_plan) */
};

/* Lines the table needs under the heading for these traces (body rows, capped at
 * SS_TABLE_MAX_ROWS, plus the rule line when n > 1); known before the statistics run. */
int ss_table_lines(const struct ss_trace *const *t, int n);
/*
 * How a table WIDTH wide (ss_layout_table_w) is set, decided before the layout (before the
 * statistics: from every column the table may have, "modelled s" only with DISK, figures of
 * a sample width, the run and phase columns as wide as the N traces T's labels (LABELS[i],
 * NULL: the path) and phase names make them; text measured without hinting: the same in PNG,
 * SVG and PDF): the headings on two lines (split at their last space) when they would not
 * fit on one, and with N > 1 the rule over as many lines as it takes (at most three).
 * Returns the lines this needs beyond ss_table_lines.  Set the plan into the table (its
 * `plan`) after ss_table_build; ss_table_draw follows it, with smaller type and then fewer
 * columns where the table's figures still do not fit.
 */
int ss_table_plan(double width, const char *const *labels, struct ss_trace *const *t, int n,
		  bool disk, struct ss_table_plan *plan);
/* Fill TB from the runs' statistics: rows (every trace's totals, then each phase, in order of
 * first appearance, for every trace that has it; the time to durable after "sync"), the
 * columns that apply (bytes of a class only when some row has them) and the highlights. */
void ss_table_build(struct ss_table *tb, const struct ss_table_run *runs, int n);
/* Shown column with this heading, or -1. */
int ss_table_column(const struct ss_table *tb, const char *head);
/* Heading of shown column COL (0 <= COL < nr_cols). */
const char *ss_table_head(const struct ss_table *tb, int col);
/* The text of body cell (ROW, COL) as drawn ("-" when the row has no such figure), with
 * *WARN true when it is drawn as a warning (lost events not 0); COL -1: ROW's phase cell
 * ("window" for a trace the time range cut, "(part)" after a phase it cut). */
void ss_table_text(const struct ss_table *tb, int row, int col, char *buf, size_t len,
		   bool *warn);
/* Row of RUN's PHASE, or -1. */
int ss_table_row(const struct ss_table *tb, const char *run, const char *phase);
/* The one-line rule drawn under a table of several runs (naming the columns it ranks). */
const char *ss_table_rule(const struct ss_table *tb);
void ss_table_draw(cairo_t *cr, const struct ss_rect *r, struct ss_table *tb);
/* Rectangle of body cell (ROW, COL) as last drawn.  0, or -ENOENT (also for a column left
 * out of a picture too narrow for every column: the least needed go first, type having
 * shrunk to 3/4 of its size). */
int ss_table_cell(const struct ss_table *tb, int row, int col, struct ss_rect *out);

#endif
