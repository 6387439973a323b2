// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Text placement on a cairo_t (after fio's cairo_text_helpers.c): aligned and rotated labels,
 * measured boxes, and a small bookkeeper that refuses a label whose box would overlap one
 * already placed, so no two labels ever collide.  No allocation; nothing kept between calls
 * except in the caller's ss_text_lanes.
 */
#ifndef SS_TEXT_H
#define SS_TEXT_H

#include <stdbool.h>
#include <cairo.h>

#define SS_FONT_FACE "DejaVu Sans"

enum ss_halign { SS_LEFT, SS_CENTER, SS_RIGHT };
enum ss_valign { SS_TOP, SS_MIDDLE, SS_BOTTOM };

struct ss_box {
	double x, y, w, h;
};

/* Width and height of S at SIZE (bold or not), in user units. */
void ss_text_measure(cairo_t *cr, double size, bool bold, const char *s, double *w, double *h);
/*
 * Draw S so that (x, y) is at the given alignment of its box (the box is the font's ascent +
 * descent tall, so labels of one size line up).  Uses the current source colour.  Returns the
 * box in *box if not NULL.
 */
void ss_text_draw(cairo_t *cr, double x, double y, enum ss_halign ha, enum ss_valign va,
		  double size, bool bold, const char *s, struct ss_box *box);
/* The same rotated 90° counter-clockwise (for y-axis titles), centred on (x, y). */
void ss_text_draw_vertical(cairo_t *cr, double x, double y, double size, bool bold,
			   const char *s);
/* Shorten S in place, from the end, to "...", until it is at most AVAIL wide at SIZE (bold
 * or not); whole UTF-8 characters only.  Nothing is cut from what already fits; nothing is
 * left where not even "..." fits. */
void ss_text_fit(cairo_t *cr, double size, bool bold, char *s, double avail);
/* The same keeping the end of S ("..." in front): for paths, whose file name tells them
 * apart. */
void ss_text_fit_start(cairo_t *cr, double size, bool bold, char *s, double avail);
/* The length of TEXT's head: up to its first ':', ',' or '(', without the spaces before it
 * ("Seeks per second" of "Seeks per second (an issued I/O ...)"); all of TEXT without one. */
int ss_text_head(const char *text);
/* The bytes of TEXT's first at most MAX bytes that end at a character's end (a UTF-8
 * sequence left whole or out), for a name cut to its room with "%.*s". */
int ss_text_prefix(const char *text, int max);
/*
 * TEXT into BUF (LEN bytes), at most AVAIL wide at SIZE (bold or not), so that what is left
 * reads as words: TEXT whole; else cut after a whole word, with "...", where that keeps at
 * least SS_TEXT_FIT_MORE bytes beyond its head (a text without ':', ',' or '(' has none);
 * else its head alone, else SHORTER (may be NULL); else SHORTER (without it the head, without
 * that TEXT) cut after a whole word where one is left; nothing rather than a bare "...".
 * For titles: "Seeks per second (an issued I/O...", "Seeks per second", "Seeks...".
 */
#define SS_TEXT_FIT_MORE 10
void ss_text_fit_words(cairo_t *cr, double size, bool bold, const char *text, const char *shorter,
		       double avail, char *buf, size_t len);
/* The first of FORMS[0..n) that is at most AVAIL wide at SIZE (bold or not) into BUF (LEN
 * bytes), else the last one cut to fit (ss_text_fit): for captions whose shorter forms keep
 * what a cut would lose, their unit ("time since the start of the trace (ms)", "time (ms)").
 * Each form shorter than LEN. */
void ss_text_first_fit(cairo_t *cr, double size, bool bold, const char *const *forms, int n,
		       double avail, char *buf, size_t len);
/* Draw S on a translucent white plate so it reads over data. */
void ss_text_draw_plated(cairo_t *cr, double x, double y, enum ss_halign ha, enum ss_valign va,
			 double size, bool bold, const char *s, struct ss_box *box);

/*
 * Non-overlapping label placement in horizontal lanes: a label spans [x0, x1] and takes the
 * first lane where it overlaps nothing.  Fixed capacity; a full lane simply refuses.
 */
#define SS_LANES_MAX 4
#define SS_LANE_SPANS 96
struct ss_text_lanes {
	int nr_lanes;
	int n[SS_LANES_MAX];
	double x0[SS_LANES_MAX][SS_LANE_SPANS], x1[SS_LANES_MAX][SS_LANE_SPANS];
};
void ss_text_lanes_init(struct ss_text_lanes *l, int nr_lanes);
/* Lane index that now holds [x0, x1] (with gap added on both sides), or -1 if none fits. */
int ss_text_lanes_claim(struct ss_text_lanes *l, double x0, double x1, double gap);

#endif
