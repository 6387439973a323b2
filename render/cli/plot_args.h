// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line of `seekscope plot`, parsed without drawing anything, and the parsers of
 * its option values (ranges, sizes, thresholds), exposed so that tests and the fuzzer can call
 * them directly.  Nothing here prints or exits.
 */
#ifndef SS_PLOT_ARGS_H
#define SS_PLOT_ARGS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "graph.h"
#include "optable.h"

#define SS_PLOT_MIN_WIDTH 200
#define SS_PLOT_MIN_HEIGHT 150
#define SS_PLOT_MAX_SIDE 16000             /* pixels (points), either side */
#define SS_PLOT_MAX_X_S 1e9                /* --x-range: seconds */
#define SS_PLOT_MAX_SEEK_THRESHOLD (1ull << 40)
#define SS_PLOT_MAX_ROLLING 10000
#define SS_PLOT_MAX_FRACTION_DIGITS 9      /* --y-range 1.5G: digits after the point */

struct ss_plot_args {
	struct ss_graph_opts g;
	const char *out;                       /* NULL: the default (first trace's name .png) */
	const char *labels[SS_GRAPH_MAX_TRACES];
	int nr_labels;
	bool size_given;
	bool html;                             /* -o *.html: the interactive page (html.h) */
	size_t html_max_bytes;                 /* --html-max; 0: the default budget */
	char **traces;                         /* the TRACE operands, into argv */
	int nr_traces;                         /* 1..SS_GRAPH_MAX_TRACES after a parse */
};

/*
 * Parse plot's ARGV (argv[0] = "plot") into *A (reset first, graph options at their defaults).
 * Returns 0, SS_PARSE_HELP for --help, or -EINVAL with the reason in ERR.
 */
int ss_plot_parse(int argc, char **argv, struct ss_plot_args *a, char *err, size_t errlen);

/* --help (ss_help_print()). */
extern const struct ss_help ss_plot_help;

/* The value parsers; 0 or -EINVAL (the outputs untouched on error). */
/* --x-range A:B: seconds, 0 <= A < B <= SS_PLOT_MAX_X_S. */
int ss_plot_parse_x_range(const char *s, double *lo, double *hi);
/*
 * A device offset: a sector count, or bytes with a binary suffix K, M, G or T (also KB, KiB,
 * any case), DIGITS[.DIGITS] with at most SS_PLOT_MAX_FRACTION_DIGITS after the point.
 * Rounded to the nearest sector (halves up), exactly; -EINVAL past UINT64_MAX sectors.
 */
int ss_plot_parse_offset(const char *s, uint64_t *sectors);
/* --y-range A:B: two offsets, A < B. */
int ss_plot_parse_y_range(const char *s, uint64_t *lo, uint64_t *hi);
/* --size WxH: whole pixels, SS_PLOT_MIN_WIDTH x SS_PLOT_MIN_HEIGHT to SS_PLOT_MAX_SIDE. */
int ss_plot_parse_size(const char *s, int *w, int *h);
/* --seek-threshold N: sectors, 1..SS_PLOT_MAX_SEEK_THRESHOLD. */
int ss_plot_parse_seek_threshold(const char *s, uint64_t *sectors);
/* Is PATH an HTML page (.html or .htm, any case)? */
bool ss_plot_output_is_html(const char *path);
/* --rolling N: bins, 0..SS_PLOT_MAX_ROLLING. */
int ss_plot_parse_rolling(const char *s, unsigned *bins);
/* --panels and --units are ss_panels_parse() (panel_registry.h) and ss_offset_units_parse()
 * (ticks.h). */

#endif
