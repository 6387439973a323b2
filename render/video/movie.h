// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Movies of traces (seekscope movie): frames drawn with cairo by the plot's code — the figure
 * (render/plot/graph.h: title, legend, column headers, the time panels the caller picks, the
 * summary table) with the animation in place of the sector panel — and encoded in process
 * (encoder.h).  Several traces play side by side on one clock.
 *
 *   m = ss_movie_new(&opts);  ss_movie_add_trace(m, t, "agcount=4") ...;
 *   ss_movie_prepare(m, err, sizeof(err));      the figure, the clock, the still parts
 *   ss_movie_write(m, "out.mp4", err, sizeof(err));
 *   ss_movie_free(m);
 *
 * Styles of the animation:
 *   grid     seekwatcher's: the device as a raster of cells in LBA order (left to right, top
 *            to bottom); a request lights the cells it covers in its class's colour, fading
 *            over --fade frames and leaving a faint trace; the head's cell is outlined.
 *   spindle  iowatcher's: the device as a platter of concentric rings, the outer ring the
 *            lowest offset, each ring read clockwise from 12 o'clock; cells light and fade as
 *            in grid; the arm points at the head's position.
 *   scan     the sector-over-time panel of `plot`, revealed as the movie plays, with a
 *            cursor at the current time and the requests of the current frame marked.
 * Zones (AGs, log, journal, groups, inode tables) are drawn in every style, the time panels
 * carry a moving time line, and each column shows its clock, phase, and flush/FUA lamps.
 *
 * Frame-exact: the file has exactly ss_movie_frames() frames at opts.fps; frame k shows the
 * requests issued in its slice of trace time (timeline.h), lit at full strength in that frame.
 * Memory is bounded by the picture and the time bins: the graph streams each trace once for
 * its panels, the movie once more for the frames (a third pass for --skip-idle's bins),
 * nothing is kept per event.  Library code: -errno / NULL with one line in err; never prints.
 */
#ifndef SS_MOVIE_H
#define SS_MOVIE_H

#include <stdbool.h>
#include <stdint.h>

#include <cairo.h>

#include "graph.h"
#include "trace_read.h"

enum ss_movie_style { SS_MOVIE_GRID, SS_MOVIE_SPINDLE, SS_MOVIE_SCAN, SS_MOVIE_NR_STYLES };

/* "grid", "spindle", "scan"; NULL past the end. */
const char *ss_movie_style_name(enum ss_movie_style s);
/* By name; 0 or -EINVAL. */
int ss_movie_style_parse(const char *s, enum ss_movie_style *out);

#define SS_MOVIE_MAX_PANELS (SS_GRAPH_MAX_PANELS - 1)   /* under the animation */

struct ss_movie_opts {
	enum ss_movie_style style;
	int width, height;              /* even, 16..8192 (encoder.h) */
	int fps;                        /* 1..240 */
	/* The length: length_s seconds of movie, or (length_s 0) speed trace seconds per movie
	 * second: frames = round(length_s * fps), or ceil(shown trace time / speed * fps). */
	double length_s, speed;
	int cell;                       /* grid/spindle cell side, pixels (>= 2) */
	int fade;                       /* frames a request stays lit (>= 1) */
	bool skip_idle;
	bool has_x_range;               /* film [x_lo_s, x_hi_s] after each trace's start */
	double x_lo_s, x_hi_s;
	const char *title;              /* NULL: built from the labels */
	/* Time panels under the animation, top to bottom (the caller resolves them through the
	 * panel registry); borrowed.  0..SS_MOVIE_MAX_PANELS. */
	const struct ss_panel_ops *panels[SS_MOVIE_MAX_PANELS];
	int nr_panels;
	uint64_t seek_threshold;        /* sectors (0: every I/O not contiguous) */
	/* The device filmed (plot's --device: name, MAJ:MIN or path); NULL: the trace's only
	 * one — a trace of several devices is refused (EINVAL), a movie films one. */
	const char *device;
	const char *format;             /* container "mp4", "webm", "mkv"; NULL: the path's */
	/* plot's --color-by: requests lit in the colour of their group (groups.h: process,
	 * directory or file), the top_groups (0: 8) over every trace, as the legend names them;
	 * else in their class's. */
	bool color_by_group;
	struct ss_group_spec group;
	unsigned top_groups;
	/* Called after each frame is encoded; a nonzero return stops the movie (ss_movie_write
	 * then returns -EINTR and leaves no file).  Optional. */
	int (*progress)(void *ctx, int64_t done, int64_t total);
	void *progress_ctx;
	/* When set, ss_movie_write hands each finished frame (an image surface of width x
	 * height, valid during the call) to it instead of an encoder and opens no file (PATH
	 * is ignored): tests and fuzzing look at the frames.  A nonzero return stops the
	 * movie with that error.  Optional. */
	int (*frame_sink)(void *ctx, cairo_surface_t *frame, int64_t k);
	void *frame_ctx;
};

/* Defaults: grid, 1920x1080, 30 fps, 30 s, cell 8, fade 10, no panels. */
void ss_movie_opts_init(struct ss_movie_opts *o);

struct ss_movie;

/* NULL + errno (EINVAL for bad options, ENOMEM). */
struct ss_movie *ss_movie_new(const struct ss_movie_opts *o);
void ss_movie_free(struct ss_movie *m);      /* accepts NULL */
/* The next column.  T is borrowed (must outlive the movie); LABEL is copied. */
int ss_movie_add_trace(struct ss_movie *m, struct ss_trace *t, const char *label);
/* Lay the figure out, stream the traces for the panels (and --skip-idle's bins), set the
 * clock, draw the still parts.  0, or -errno with a message (EINVAL: the size cannot hold the
 * figure). */
int ss_movie_prepare(struct ss_movie *m, char *err, size_t errlen);
/* Stream the traces once more and encode every frame into PATH (.mp4, .webm, .mkv, or "-"
 * with o.format: standard output).  0, or
 * -errno with a message; -EINTR when the progress callback stopped it.  On any error PATH is
 * left as it was.  Once per movie. */
int ss_movie_write(struct ss_movie *m, const char *path, char *err, size_t errlen);

/* After ss_movie_prepare: the number of frames, and the shown and skipped trace time (ns). */
int64_t ss_movie_frames(const struct ss_movie *m);
uint64_t ss_movie_shown_ns(const struct ss_movie *m);
uint64_t ss_movie_skipped_ns(const struct ss_movie *m);
/* For tests, after ss_movie_prepare: frame K's slice [*a, *b) in ns after each trace's start,
 * and the pixel where a request at absolute SECTOR issued T_NS after column COL's start is
 * drawn (the centre of its cell; scan: of its mark at the cursor).  0 or -ENOENT. */
int ss_movie_frame_span(const struct ss_movie *m, int64_t k, uint64_t *a, uint64_t *b);
int ss_movie_pixel_of(const struct ss_movie *m, int col, uint64_t sector, uint64_t t_ns,
		      double *x, double *y);
/* For tests, after ss_movie_prepare: column COL's animated area in pixels (its title band,
 * with the clock, above it).  0 or -ENOENT. */
int ss_movie_anim_area(const struct ss_movie *m, int col, double *x, double *y, double *w,
		       double *h);

#endif
