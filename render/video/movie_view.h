// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The animated area of one movie column, in one of the styles (movie.h): what stays (zones,
 * the faint trace of past requests, scan's revealed picture) is drawn into the column's
 * background surface, what moves (lit cells, the head, the cursor) into each frame.  State is
 * per cell of the picture, never per event.  Internal to render/video.
 */
#ifndef SS_MOVIE_VIEW_H
#define SS_MOVIE_VIEW_H

#include <stdint.h>
#include <cairo.h>

#include "axes.h"
#include "movie.h"

/* The current time: scan's cursor and the time panels' line. */
#define MV_CURSOR_RGB 0.8, 0.1, 0.1

struct mv_view_init {
	enum ss_movie_style style;
	const struct ss_frame *f;       /* the area: x = ns after the trace's start, y = sectors */
	int cell, fade;
	const struct ss_trace *trace;
	cairo_surface_t *bg;            /* the background (RGB24), drawn into as requests come */
	/* The colours requests are lit in (movie --color-by: the groups' slots, palette.h), at
	 * most MV_MAX_COLOURS; NULL: the io panel's classes (palette.h ss_classes). */
	const struct ss_rgb *colours;
	int nr_colours;
};

#define MV_MAX_COLOURS 16

struct mv_view;

struct mv_view *mv_view_new(const struct mv_view_init *in);   /* NULL + errno */
void mv_view_free(struct mv_view *v);                          /* accepts NULL */
/* The still parts into the background (after the figure is drawn there). */
void mv_view_draw_static(struct mv_view *v, cairo_t *bg);
/* A request (an ISSUE event with data) T ns after the trace's start, shown in FRAME, lit in
 * colour COLOUR of the view's colours (-1: its class's). */
void mv_view_feed(struct mv_view *v, int64_t frame, const struct ss_event *ev, uint64_t t,
		  int colour);
/* What moves, into frame FRAME over its copy of the background; CURSOR: the slice's end. */
void mv_view_draw(struct mv_view *v, cairo_t *cr, int64_t frame, uint64_t cursor);
/* Pixel of a request at SECTOR, T ns after the start, in the frame whose slice ends at
 * CURSOR (movie.h ss_movie_pixel_of). */
int mv_view_pixel_of(const struct mv_view *v, uint64_t sector, uint64_t t, uint64_t cursor,
		     double *x, double *y);

#endif
