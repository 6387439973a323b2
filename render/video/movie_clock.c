// SPDX-License-Identifier: GPL-2.0-or-later
/* A movie column's clock and lamps (movie_clock.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "movie_clock.h"
#include "palette.h"
#include "text.h"
#include "trace_read.h"

#define LAMP_R 6
#define CLOCK_GAP 14            /* between the clock's line and the lamps */
/* the title keeps at least this much beside the clock, else the clock replaces it */
#define CLOCK_TITLE_MIN 120

static void fmt_seconds(char *buf, size_t len, double s, double span_s)
{
	snprintf(buf, len, span_s < 10 ? "%.3f s" : span_s < 1000 ? "%.2f s" : "%.1f s", s);
}

const char *mv_clock_phase_at(const struct ss_trace *t, uint64_t t0, uint64_t t_ns)
{
	const char *name = NULL;

	for (size_t p = 0; p < t->nr_phases; p++) {
		const struct ss_rec_phase *ph = &t->phases[p];

		if (ph->ts_ns > t0 + t_ns)
			break;
		if (ph->kind == SS_PHASE_BEGIN)
			name = ph->name;
		else if (ph->kind == SS_PHASE_END && name && !strcmp(name, ph->name))
			name = NULL;
	}
	return name;
}

/* A lamp and its name at X (left edge), Y (middle); returns the x after it. */
static double lamp(cairo_t *cr, double x, double y, const char *name, struct ss_rgb col, bool on)
{
	struct ss_box b;

	cairo_arc(cr, x + LAMP_R, y, LAMP_R, 0, 2 * M_PI);
	if (on)
		ss_set_rgb(cr, col);
	else
		cairo_set_source_rgb(cr, 0.88, 0.88, 0.88);
	cairo_fill_preserve(cr);
	ss_set_rgb(cr, ss_col_axis);
	cairo_set_line_width(cr, 1);
	cairo_stroke(cr);
	ss_set_rgb(cr, on ? ss_col_text : ss_col_axis);
	ss_text_draw(cr, x + 2 * LAMP_R + 4, y, SS_LEFT, SS_MIDDLE, ss_metrics.font_small, on, name,
		     &b);
	return b.x + b.w;
}

/* The width of the flush and FUA lamps (lit: bold). */
static double lamps_width(cairo_t *cr)
{
	double w;

	ss_text_measure(cr, ss_metrics.font_small, true, "flushFUA", &w, NULL);
	return w + 4 * LAMP_R + 8 + 12;
}

/* The longest phase name of T ("" without phases). */
static const char *longest_phase(const struct ss_trace *t)
{
	const char *longest = "";

	for (size_t p = 0; p < t->nr_phases; p++)
		if (strlen(t->phases[p].name) > strlen(longest))
			longest = t->phases[p].name;
	return longest;
}

/* How much the clock's line says, from all to the least, as room allows. */
enum detail { ALL, NO_PHASE, NO_SPEED, NO_IDLE, NOW_ONLY, NR_DETAILS };

/* The clock's line at DETAIL: PHASE (NULL or "": none), NOW / END, the speed, with IDLE the
 * idle time skipped so far; each level drops one more part: the phase, the speed, the idle
 * time, the end. */
static void clock_line(char *line, size_t len, enum detail detail, const char *phase,
		       const char *now, const char *end, double speed, bool idle, double skipped_s)
{
	bool show_phase = detail == ALL && phase && *phase;
	size_t n = (size_t)snprintf(line, len, "%s%s%s", show_phase ? phase : "",
				    show_phase ? "  " : "", now);

	if (detail < NOW_ONLY && n < len)
		n += (size_t)snprintf(line + n, len - n, " / %s", end);
	if (detail < NO_SPEED && n < len)
		n += (size_t)snprintf(line + n, len - n, "  (%.3g x)", speed);
	if (idle && detail < NO_IDLE && n < len)
		snprintf(line + n, len - n, "  idle skipped %.1f s", skipped_s);
}

/* The most the widest line of trace T's movie (its longest phase, the end time for both
 * times, all the idle time skipped: SKIPPED_S) can say in AVAIL at size FS. */
static int widest_detail(cairo_t *cr, const struct mv_clock *clk, const struct ss_trace *t,
			 double skipped_s, double fs, double avail)
{
	char line[200];
	double w;

	for (int d = 0; d < NR_DETAILS; d++) {
		clock_line(line, sizeof(line), (enum detail)d, longest_phase(t), clk->end, clk->end,
			   clk->speed, clk->idle, skipped_s);
		ss_text_measure(cr, fs, true, line, &w, NULL);
		if (w <= avail)
			return d;
	}
	return NOW_ONLY;
}

/* The width of one lamp and its name (lit: bold), the wider of the two. */
static double lamp_width(cairo_t *cr)
{
	double a, b;

	ss_text_measure(cr, ss_metrics.font_small, true, "flush", &a, NULL);
	ss_text_measure(cr, ss_metrics.font_small, true, "FUA", &b, NULL);
	return fmax(a, b) + 2 * LAMP_R + 4;
}

/* Over an animation WIDTH wide, how many rows the lamps take: 1 beside each other, 2 one
 * above the other, 0 (left out) where even one is wider. */
static int lamp_rows(cairo_t *cr, double width)
{
	return lamps_width(cr) <= width - 8 ? 1 : lamp_width(cr) <= width - 8 ? 2 : 0;
}

/*
 * At its widest, the clock takes the longest phase name, the end time for both times, a wide
 * speed.  Where the title would keep less than CLOCK_TITLE_MIN beside it, the whole band (the
 * clock replaces the title, in smaller type and without the phase if need be; the caption
 * under the animation still says what it shows, and the time panels name the phases).
 */
double mv_clock_room(cairo_t *cr, const struct ss_trace *t, uint64_t x_lo, uint64_t x_hi,
		     double width, bool idle)
{
	char end[32], line[200];
	double w, room;

	fmt_seconds(end, sizeof(end), (double)x_hi / 1e9, (double)(x_hi - x_lo) / 1e9);
	/* a speed as wide as "%.3g" writes them (0.000123, 1.23e+04), idle time in four digits */
	snprintf(line, sizeof(line), "%s  %s / %s  (%.3g x)%s", longest_phase(t), end, end,
		 0.000888, idle ? "  idle skipped 8888.8 s" : "");
	ss_text_measure(cr, ss_metrics.font_label, true, line, &w, NULL);
	room = w + CLOCK_GAP + lamps_width(cr);
	if (width - room >= CLOCK_TITLE_MIN)
		return room;
	snprintf(line, sizeof(line), "%s / %s  (%.3g x)%s", end, end, 0.000888,
		 idle ? "  idle skipped 8888.8 s" : "");
	ss_text_measure(cr, ss_metrics.font_small, true, line, &w, NULL);
	return width >= w + CLOCK_GAP + lamps_width(cr) ? width : 0;
}

/* mv_clock_draw's narrow layout: the line's middle half a row down, under it the lamps' rows
 * on a plate reaching 10 px below the last */
double mv_clock_over_h(cairo_t *cr, double width)
{
	int rows = lamp_rows(cr, width);

	return ss_metrics.row_h / 2 + 2 + (rows ? rows * ss_metrics.row_h + 10 : ss_metrics.row_h / 2) +
	       2;
}

void mv_clock_init(struct mv_clock *clk, cairo_t *cr, const struct ss_rect *anim,
		   const struct ss_trace *t, uint64_t lo, uint64_t hi, double speed, bool idle,
		   double skipped_s)
{
	char line[200];
	double w, room;

	memset(clk, 0, sizeof(*clk));
	clk->anim = *anim;
	clk->span_s = (double)(hi - lo) / 1e9;
	clk->speed = speed;
	clk->idle = idle;
	fmt_seconds(clk->end, sizeof(clk->end), (double)hi / 1e9, clk->span_s);
	clk->lamps_w = lamps_width(cr);
	room = mv_clock_room(cr, t, lo, hi, anim->w, idle);
	if (room <= 0) {
		/* over the animation: small type, within its width */
		clk->fs = ss_metrics.font_small;
		clk->lamp_rows = lamp_rows(cr, anim->w);
		clk->plate_w = clk->lamp_rows == 1 ? clk->lamps_w : lamp_width(cr);
		clk->detail = widest_detail(cr, clk, t, skipped_s, clk->fs, anim->w - 8);
		return;
	}
	/* the widest line of the whole movie sets the type's size and what the line says: the
	 * same in every frame */
	clk->fs = ss_metrics.font_label;
	clk->lamp_rows = 1;
	clock_line(line, sizeof(line), ALL, longest_phase(t), clk->end, clk->end, speed, idle,
		   skipped_s);
	ss_text_measure(cr, clk->fs, true, line, &w, NULL);
	clk->avail = room - CLOCK_GAP - clk->lamps_w;
	if (w > clk->avail)
		clk->fs = fmax(ss_metrics.font_small, clk->fs * clk->avail / w);
	clk->detail = widest_detail(cr, clk, t, skipped_s, clk->fs, clk->avail);
}

void mv_clock_draw(const struct mv_clock *clk, cairo_t *cr, const struct mv_clock_now *now)
{
	double y = clk->anim.y - ss_metrics.panel_title_h / 2 - 1, x, right;
	char nowbuf[32], line[200];

	fmt_seconds(nowbuf, sizeof(nowbuf), (double)now->t_ns / 1e9, clk->span_s);
	clock_line(line, sizeof(line), (enum detail)clk->detail, now->phase, nowbuf, clk->end,
		   clk->speed, clk->idle, now->skipped_s);
	x = clk->anim.x + clk->anim.w - clk->lamps_w;
	if (clk->avail > 0) {
		/* right of the title (cut short of the room), then the lamps */
		ss_text_fit(cr, clk->fs, true, line, clk->avail);
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, x - CLOCK_GAP, y, SS_RIGHT, SS_MIDDLE, clk->fs, true, line, NULL);
		x = lamp(cr, x, y, "flush", ss_classes[SS_CLS_FLUSH].rgb, now->flush);
		lamp(cr, x + 12, y, "FUA", ss_classes[SS_CLS_FUA].rgb, now->fua);
		return;
	}
	/* a narrow column: in the animation's top right corner on a plate, the line in small
	 * type above the lamps (side by side, or one above the other), all within the
	 * animation's width */
	right = clk->anim.x + clk->anim.w - 4;
	y = clk->anim.y + ss_metrics.row_h / 2 + 2;
	ss_text_fit(cr, clk->fs, true, line, clk->anim.w - 8);
	ss_set_rgb(cr, ss_col_text);
	ss_text_draw_plated(cr, right, y, SS_RIGHT, SS_MIDDLE, clk->fs, true, line, NULL);
	if (!clk->lamp_rows)
		return;
	y += ss_metrics.row_h;
	x = right - clk->plate_w;
	cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
	cairo_rectangle(cr, x - 4, y - 10, clk->plate_w + 8,
			20 + (clk->lamp_rows - 1) * ss_metrics.row_h);
	cairo_fill(cr);
	if (clk->lamp_rows == 1) {
		x = lamp(cr, x, y, "flush", ss_classes[SS_CLS_FLUSH].rgb, now->flush);
		lamp(cr, x + 12, y, "FUA", ss_classes[SS_CLS_FUA].rgb, now->fua);
		return;
	}
	lamp(cr, x, y, "flush", ss_classes[SS_CLS_FLUSH].rgb, now->flush);
	lamp(cr, x, y + ss_metrics.row_h, "FUA", ss_classes[SS_CLS_FUA].rgb, now->fua);
}
