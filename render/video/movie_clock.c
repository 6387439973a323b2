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

/* The most the clock's line can say in AVAIL at size FS: into LINE, cut short only when
 * even the time alone is too wide. */
static void fit_line(cairo_t *cr, const struct mv_clock *clk, const struct mv_clock_now *now,
		     const char *nowbuf, double fs, double avail, char *line, size_t len)
{
	double w;

	for (int d = 0; d < NR_DETAILS; d++) {
		clock_line(line, len, (enum detail)d, now->phase, nowbuf, clk->end, clk->speed,
			   clk->idle, now->skipped_s);
		ss_text_measure(cr, fs, true, line, &w, NULL);
		if (w <= avail)
			return;
	}
	ss_text_fit(cr, fs, true, line, avail);
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

/* mv_clock_draw's narrow layout: the line's middle half a row down, the lamps a row below it
 * on a plate 20 px high */
double mv_clock_over_h(void)
{
	return ss_metrics.row_h / 2 + 2 + ss_metrics.row_h + 10 + 2;
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
	clk->fs = ss_metrics.font_label;
	room = mv_clock_room(cr, t, lo, hi, anim->w, idle);
	if (room <= 0)
		return;
	/* the widest line of the whole movie sets the type's size: the same in every frame */
	clock_line(line, sizeof(line), ALL, longest_phase(t), clk->end, clk->end, speed, idle,
		   skipped_s);
	ss_text_measure(cr, clk->fs, true, line, &w, NULL);
	clk->avail = room - CLOCK_GAP - clk->lamps_w;
	if (w > clk->avail)
		clk->fs = fmax(ss_metrics.font_small, clk->fs * clk->avail / w);
}

void mv_clock_draw(const struct mv_clock *clk, cairo_t *cr, const struct mv_clock_now *now)
{
	double y = clk->anim.y - ss_metrics.panel_title_h / 2 - 1, x, right;
	char nowbuf[32], line[200];

	fmt_seconds(nowbuf, sizeof(nowbuf), (double)now->t_ns / 1e9, clk->span_s);
	x = clk->anim.x + clk->anim.w - clk->lamps_w;
	if (clk->avail > 0) {
		/* right of the title (cut short of the room), then the lamps */
		fit_line(cr, clk, now, nowbuf, clk->fs, clk->avail, line, sizeof(line));
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw(cr, x - CLOCK_GAP, y, SS_RIGHT, SS_MIDDLE, clk->fs, true, line, NULL);
	} else {
		/* a narrow column: in the animation's top right corner on a plate, the line in
		 * small type above the lamps, both within the animation's width */
		right = clk->anim.x + clk->anim.w - 4;
		y = clk->anim.y + ss_metrics.row_h / 2 + 2;
		fit_line(cr, clk, now, nowbuf, ss_metrics.font_small, clk->anim.w - 8, line,
			 sizeof(line));
		ss_set_rgb(cr, ss_col_text);
		ss_text_draw_plated(cr, right, y, SS_RIGHT, SS_MIDDLE, ss_metrics.font_small, true,
				    line, NULL);
		y += ss_metrics.row_h;
		x = right - clk->lamps_w;
		cairo_set_source_rgba(cr, 1, 1, 1, 0.85);
		cairo_rectangle(cr, x - 4, y - 10, clk->lamps_w + 8, 20);
		cairo_fill(cr);
	}
	x = lamp(cr, x, y, "flush", ss_classes[SS_CLS_FLUSH].rgb, now->flush);
	lamp(cr, x + 12, y, "FUA", ss_classes[SS_CLS_FUA].rgb, now->fua);
}
