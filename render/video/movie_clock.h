// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A movie column's clock (movie.h): the phase running, the time shown out of the window's end,
 * the speed, with --skip-idle the idle time skipped so far, and the flush and FUA lamps.  It
 * stands right of the animation's title (cut short of it); in a column too narrow for both it
 * takes the title's place; narrower still, it is drawn in the animation's top right corner on
 * a plate, its line in small type above the lamps.  Its type size and what the line says
 * (phase, speed, idle time and end dropped in that order as room requires) are set once, by
 * the widest line of the whole movie, so the clock does not change from frame to frame but
 * in its figures.  Internal to render/video.
 */
#ifndef SS_MOVIE_CLOCK_H
#define SS_MOVIE_CLOCK_H

#include <stdbool.h>
#include <stdint.h>
#include <cairo.h>

#include "layout.h"

struct ss_trace;

struct mv_clock {
	struct ss_rect anim;        /* the animation's area; the clock is above it */
	double span_s;              /* the filmed window's length: how many decimals */
	double speed;               /* trace seconds per movie second */
	bool idle;                  /* --skip-idle: show the idle time skipped */
	char end[32];               /* the window's end, formatted */
	double fs;                  /* type size, set by the widest line of the movie */
	double avail;               /* room for the line in the title band; 0: over the animation */
	double lamps_w;             /* both lamps side by side */
	double plate_w;             /* over the animation: the lamps' width as laid out */
	int detail;                 /* how much the line says (movie_clock.c), the same throughout */
	int lamp_rows;              /* over the animation: 1 side by side, 2 stacked, 0 none */
};

/* The room right of a WIDTH wide column's animation title that the clock of trace T takes
 * at its widest (X_LO..X_HI ns filmed; IDLE: --skip-idle): the graph cuts the title short of
 * it (a panel's key op).  WIDTH itself when the clock replaces the title; 0 when it does not
 * fit in the title band at all. */
double mv_clock_room(cairo_t *cr, const struct ss_trace *t, uint64_t x_lo, uint64_t x_hi,
		     double width, bool idle);

/* How far down from the top of an animation WIDTH wide the clock reaches when it is drawn
 * over it (where mv_clock_room is 0): what else is drawn there keeps below. */
double mv_clock_over_h(cairo_t *cr, double width);

/* Set up the clock of a column: ANIM its animation's area, trace T filmed from LO to HI ns
 * after its start at SPEED, IDLE as above with SKIPPED_S seconds skipped in the whole movie.
 * CR measures as frames will be drawn. */
void mv_clock_init(struct mv_clock *clk, cairo_t *cr, const struct ss_rect *anim,
		   const struct ss_trace *t, uint64_t lo, uint64_t hi, double speed, bool idle,
		   double skipped_s);

/* What a frame's clock shows. */
struct mv_clock_now {
	const char *phase;          /* the phase running, NULL: none */
	uint64_t t_ns;              /* the time shown, after the trace's start */
	double skipped_s;           /* idle time skipped so far */
	bool flush, fua;            /* lamps lit */
};

void mv_clock_draw(const struct mv_clock *clk, cairo_t *cr, const struct mv_clock_now *now);

/* The phase of T running at T_NS ns after T0 (the trace's start), or NULL. */
const char *mv_clock_phase_at(const struct ss_trace *t, uint64_t t0, uint64_t t_ns);

#endif
