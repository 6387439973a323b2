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
#include "surface.h"

#define SS_PLOT_MIN_WIDTH 200
#define SS_PLOT_MIN_HEIGHT 150
#define SS_PLOT_MAX_SIDE 16000             /* pixels (points), either side */
#define SS_PLOT_MAX_X_S 1e9                /* --x-range: seconds */
#define SS_PLOT_MAX_ROLLING 10000

struct ss_plot_args {
	struct ss_graph_opts g;
	const char *out;                       /* NULL: the default (ss_plot_default_output()) */
	const char *labels[SS_GRAPH_MAX_TRACES];
	int nr_labels;
	bool size_given;
	bool quiet;                            /* -q: no warnings */
	bool panels_given;                     /* --panels (else the default set, + model with --disk) */
	const char *format;                    /* --format as given, or NULL */
	/* after a parse: what to write, from --format or the extension of -o (default png) */
	bool html;                             /* the interactive page (html.h) */
	enum ss_out_format fmt;                /* else this picture format */
	const char *ext;                       /* "png", "svg", "pdf" or "html" */
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

/*
 * plot's default output in BUF: the base name of every TRACE without its extension, joined
 * by "-vs-" (standard input, "-", as "stdin"), with "." EXT (a.sst b.sst "png" ->
 * "a-vs-b.png"), so that a comparison never replaces the
 * picture of one of its traces.  0, or -ENAMETOOLONG past SS_PLOT_MAX_DEFAULT_NAME bytes (or
 * LEN).
 */
#define SS_PLOT_MAX_DEFAULT_NAME 240
int ss_plot_default_output(char *const *traces, int nr, const char *ext, char *buf, size_t len);

/* The value parsers; 0 or -EINVAL (the outputs untouched on error). */
/* --x-range A:B: seconds, 0 <= A < B <= SS_PLOT_MAX_X_S. */
int ss_plot_parse_x_range(const char *s, double *lo, double *hi);
/* --y-range A:B: two device offsets (ss_optarg_sectors()), A < B. */
int ss_plot_parse_y_range(const char *s, uint64_t *lo, uint64_t *hi);
/* --size WxH: whole pixels, SS_PLOT_MIN_WIDTH x SS_PLOT_MIN_HEIGHT to SS_PLOT_MAX_SIDE. */
int ss_plot_parse_size(const char *s, int *w, int *h);
/* Is PATH an HTML page (.html or .htm, any case)? */
bool ss_plot_output_is_html(const char *path);
/* --rolling N: bins, 0..SS_PLOT_MAX_ROLLING. */
int ss_plot_parse_rolling(const char *s, unsigned *bins);
/* --color-by class|process|dir|dir:DEPTH|file: *BY_GROUP false for class, else the group. */
#define SS_PLOT_MAX_DIR_DEPTH 64
int ss_plot_parse_color_by(const char *s, bool *by_group, struct ss_group_spec *spec);
/* Shared by the commands that draw traces side by side (plot, movie). */
/* -l LABEL: the next trace's label into LABELS[*NR]; -EINVAL past SS_GRAPH_MAX_TRACES. */
int ss_plot_add_label(const char **labels, int *nr, const char *arg, char *err, size_t errlen);
/* The TRACE operands from optind on: 1..SS_GRAPH_MAX_TRACES of them and no more than
 * NR_LABELS -l labels, into *TRACES, *NR; 0 or -EINVAL with the reason. */
int ss_plot_parse_traces(int argc, char **argv, int nr_labels, char ***traces, int *nr,
			 char *err, size_t errlen);
/* The label of trace I: its -l LABEL, else PATH's file name ("stdin" for -), copied into BUF. */
const char *ss_plot_label(const char *const *labels, int nr_labels, int i, const char *path,
			  char *buf, size_t len);
/* --seek-threshold is ss_parse_seek_threshold() (render_args.h); --panels and --units are
 * ss_panels_parse() (panel_registry.h) and ss_offset_units_parse() (ticks.h). */

#endif
