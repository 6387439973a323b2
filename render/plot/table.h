// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The summary table under the plots: per trace, and per phase where the trace has phases,
 * duration, MB/s, IOPS, seeks/s, latency, files/s and lost events — the figures of
 * `seekscope report` (stats.h) — and with plot --disk the modelled disk time ("modelled s",
 * a column shown only when a row has it).  Among rows that compare (the totals of several traces, or the
 * same phase in several traces) the better value of each column is highlighted.
 */
#ifndef SS_TABLE_H
#define SS_TABLE_H

#include <cairo.h>
#include "layout.h"
#include "stats.h"

struct ss_table_row {
	const char *run;            /* trace label */
	const char *phase;          /* phase name, or "all" for the whole trace */
	const struct ss_summary *s;
	bool has_files;
	double files_per_s;
	bool has_lost;              /* lost events apply to whole traces only */
	uint64_t lost;
	int group;                  /* rows with the same group compete for "best" */
	bool has_model;             /* plot --disk: the modelled busy time of the period */
	double model_s;
};

/* Body rows needed for n traces with the given phase counts, capped at max_rows. */
int ss_table_rows(const size_t *nr_phases, int n, int max_rows);
void ss_table_draw(cairo_t *cr, const struct ss_rect *r, const struct ss_table_row *rows, int n);

#endif
