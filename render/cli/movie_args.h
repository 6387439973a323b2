// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line of `seekscope movie`, parsed without reading or encoding anything, and the
 * parsers of its option values, so that tests and the fuzzer can call them directly.  Nothing
 * here prints or exits.  Whether this FFmpeg can write the output's format is the encoder's
 * question (ss_video_check_path), asked by the command before any work.
 */
#ifndef SS_MOVIE_ARGS_H
#define SS_MOVIE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "graph.h"
#include "movie.h"
#include "optable.h"

#define SS_MOVIE_MIN_WIDTH 320
#define SS_MOVIE_MIN_HEIGHT 240
#define SS_MOVIE_MAX_SIDE 8192               /* the encoder's limit */
#define SS_MOVIE_MAX_FPS 240
#define SS_MOVIE_MAX_LENGTH_S 86400.0        /* --length: a day */
#define SS_MOVIE_MIN_CELL 2
#define SS_MOVIE_MAX_CELL 256
#define SS_MOVIE_MAX_FADE 10000

struct ss_movie_args {
	struct ss_movie_opts m;
	const char *out;                         /* -o, required */
	const char *labels[SS_GRAPH_MAX_TRACES];
	int nr_labels;
	bool quiet;
	char **traces;                           /* the TRACE operands, into argv */
	int nr_traces;                           /* 1..SS_GRAPH_MAX_TRACES after a parse */
};

/*
 * Parse movie's ARGV (argv[0] = "movie") into *A (reset first, movie options at their
 * defaults: ss_movie_opts_init, panels seeks,tput).  Returns 0, SS_PARSE_HELP for --help, or
 * -EINVAL with the reason in ERR.
 */
int ss_movie_parse(int argc, char **argv, struct ss_movie_args *a, char *err, size_t errlen);

/* --help (ss_help_print()). */
extern const struct ss_help ss_movie_help;

/* The value parsers; 0 or -EINVAL (the outputs untouched on error). */
/* --size WxH: even, SS_MOVIE_MIN_WIDTH x SS_MOVIE_MIN_HEIGHT to SS_MOVIE_MAX_SIDE. */
int ss_movie_parse_size(const char *s, int *w, int *h);
/* --length SECONDS (0 < s <= SS_MOVIE_MAX_LENGTH_S) and --speed X (0 < x <= 1e9): decimals. */
int ss_movie_parse_length(const char *s, double *seconds);
int ss_movie_parse_speed(const char *s, double *x);
/* --panels LIST: time panels of the registry only (no sector panel), at most
 * SS_MOVIE_MAX_PANELS, into O. */
int ss_movie_parse_panels(const char *list, struct ss_movie_opts *o, char *err, size_t errlen);

#endif
