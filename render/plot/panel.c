// SPDX-License-Identifier: GPL-2.0-or-later
/* What every panel shares: the time frame, lost-event periods, phase markers and the key's
 * layout; see panel.h. */
#include <math.h>
#include <string.h>

#include "palette.h"
#include "panel.h"
#include "text.h"

#define LOST_MIN_PX 3.0

/* Keep box B in TAKEN, if there is one and it has room. */
static void take(struct ss_label_boxes *taken, struct ss_box b)
{
	if (taken && taken->nr < SS_LABEL_BOXES_MAX)
		taken->box[taken->nr++] = b;
}

void ss_lost_draw(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t, uint64_t t0,
		  bool label, struct ss_label_boxes *taken)
{
	static const char text[] = "events lost";
	double tw, th, x_end = f->r.x + f->r.w;

	ss_text_measure(cr, ss_metrics.font_small, false, text, &tw, &th);
	cairo_save(cr);
	cairo_rectangle(cr, f->r.x, f->r.y, f->r.w, f->r.h);
	cairo_clip(cr);
	for (size_t i = 0; i < t->nr_lost; i++) {
		const struct ss_lost_period *p = &t->lost[i];
		double x0, x1;

		if (p->to_ns < t0)
			continue;
		x0 = ss_axis_map(&f->x, p->from_ns > t0 ? (double)(p->from_ns - t0) : 0.0);
		x1 = ss_axis_map(&f->x, (double)(p->to_ns - t0));
		if (x1 < f->r.x - LOST_MIN_PX || x0 > x_end + LOST_MIN_PX)
			continue;
		if (x1 - x0 < LOST_MIN_PX) {
			double mid = (x0 + x1) / 2;

			x0 = mid - LOST_MIN_PX / 2;
			x1 = mid + LOST_MIN_PX / 2;
		}
		ss_set_rgb(cr, ss_col_lost);
		cairo_rectangle(cr, x0, f->r.y, x1 - x0, f->r.h);
		cairo_fill(cr);
		if (label && x1 - x0 >= tw + 4) {
			ss_set_rgb(cr, ss_col_warn);
			ss_text_draw(cr, x0 + 2, f->r.y + f->r.h - 2, SS_LEFT, SS_BOTTOM,
				     ss_metrics.font_small, false, text, NULL);
			take(taken, (struct ss_box){ x0 + 2, f->r.y + f->r.h - 2 - th, tw, th });
		}
	}
	cairo_restore(cr);
}

void ss_phases_draw(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t,
		    uint64_t t0, bool labels, double below, struct ss_label_boxes *taken)
{
	static const double dashed[] = { 5, 3 }, dotted[] = { 1.5, 2.5 };
	struct ss_text_lanes lanes;
	double top = f->r.y + fmax(16, below), lh;   /* below the flush/FUA strips */
	int nr_lanes;

	/* as many lanes of labels as the panel holds whole: in a low one, one at its top, in
	 * one lower still none */
	ss_text_measure(cr, ss_metrics.font_small, true, "phase", NULL, &lh);
	nr_lanes = (int)((f->r.y + f->r.h - 2 - top) / (lh + 2));
	if (nr_lanes < 1 && below > 16) {
		nr_lanes = 0;           /* no room below what is drawn over the top */
	} else if (nr_lanes < 1) {
		top = f->r.y + 2;
		nr_lanes = f->r.h - 4 >= lh ? 1 : 0;
	}
	if (!nr_lanes)
		labels = false;
	ss_text_lanes_init(&lanes, nr_lanes > 3 ? 3 : nr_lanes);
	cairo_save(cr);
	cairo_rectangle(cr, f->r.x, f->r.y, f->r.w, f->r.h);
	cairo_clip(cr);
	for (size_t i = 0; i < t->nr_phases; i++) {
		const struct ss_rec_phase *ph = &t->phases[i];
		double x, w, h;
		int lane;

		if (ph->ts_ns < t0)
			continue;
		x = ss_axis_map(&f->x, (double)(ph->ts_ns - t0));
		if (x < f->r.x - 0.5 || x > f->r.x + f->r.w + 0.5)
			continue;
		x = (double)(long)x + 0.5;
		ss_set_rgba(cr, ss_col_phase, 0.85);
		cairo_set_line_width(cr, ph->kind == SS_PHASE_BEGIN ? 1.6 : 1.2);
		if (ph->kind == SS_PHASE_END)
			cairo_set_dash(cr, dashed, 2, 0);
		else if (ph->kind == SS_PHASE_MARK)
			cairo_set_dash(cr, dotted, 2, 0);
		else
			cairo_set_dash(cr, NULL, 0, 0);
		cairo_move_to(cr, x, f->r.y);
		cairo_line_to(cr, x, f->r.y + f->r.h);
		cairo_stroke(cr);
		if (!labels || ph->kind == SS_PHASE_END)
			continue;
		ss_text_measure(cr, ss_metrics.font_small, true, ph->name, &w, &h);
		/* right of the line, or left of it near the right edge */
		double lx = x + 3;
		if (lx + w > f->r.x + f->r.w - 2)
			lx = x - 3 - w;
		if (lx < f->r.x + 2)
			continue;       /* fits on neither side of its line: not cut by the frame */
		lane = ss_text_lanes_claim(&lanes, lx, lx + w, 3);
		if (lane < 0)
			continue;
		take(taken, (struct ss_box){ lx, top + lane * (h + 2), w, h });
		ss_set_rgb(cr, ss_col_phase);
		ss_text_draw_plated(cr, lx, top + lane * (h + 2), SS_LEFT, SS_TOP,
				    ss_metrics.font_small, true, ph->name, NULL);
	}
	cairo_restore(cr);
}

void ss_time_panel_begin(cairo_t *cr, const struct ss_frame *f, const struct ss_panel_data *d,
			 struct ss_label_boxes *taken)
{
	ss_axes_background(cr, f);
	ss_lost_draw(cr, f, d->trace, d->t0, d->label_phases, taken);
	ss_axes_x(cr, f);
	ss_axes_y(cr, f);
	ss_phases_draw(cr, f, d->trace, d->t0, d->label_phases, 0, taken);
	cairo_save(cr);
	cairo_rectangle(cr, f->r.x, f->r.y, f->r.w, f->r.h);
	cairo_clip(cr);
}

/* The names' widths into W and the samples' into MARK, at SCALE of the full size. */
static void measure(cairo_t *cr, const char *const *names, const double *sample, int n,
		    double scale, double *w, double *mark)
{
	for (int k = 0; k < n; k++) {
		ss_text_measure(cr, ss_metrics.font_small * scale, false, names[k], &w[k], NULL);
		mark[k] = sample[k] * scale;
	}
}

void ss_key_plan(cairo_t *cr, const char *const *names, const double *sample, int n,
		 double width, struct ss_key_plan *kp)
{
	double full, mark[SS_KEY_MAX] = { 0 };

	*kp = (struct ss_key_plan){ .n = n < SS_KEY_MAX ? n : SS_KEY_MAX, .scale = 1, .rows = 1 };
	n = kp->n;
	kp->split = n;
	memcpy(kp->sample, sample, (size_t)n * sizeof(*sample));
	if (!n) {
		kp->rows = 0;
		return;
	}
	measure(cr, names, kp->sample, n, 1, kp->w, mark);
	full = ss_row_width(mark, kp->w, 0, n, SS_KEY_GAP);
	kp->row_w[0] = kp->width = full;
	if (full <= width - SS_KEY_TITLE_MIN + SS_FIT_EPS)
		return;
	kp->scale = fmax(SS_KEY_MIN_SCALE, (width - SS_KEY_TITLE_MIN) / full);
	measure(cr, names, kp->sample, n, kp->scale, kp->w, mark);
	kp->row_w[0] = kp->width = ss_row_width(mark, kp->w, 0, n, SS_KEY_GAP * kp->scale);
	/* two rows at the smallest size, as even as the entries allow */
	if (n > 1) {
		const double gap = SS_KEY_GAP * SS_KEY_MIN_SCALE;
		double w[SS_KEY_MAX], wide;
		int split;

		measure(cr, names, kp->sample, n, SS_KEY_MIN_SCALE, w, mark);
		split = ss_row_split(mark, w, n, gap, &wide);
		if (wide < kp->width) {
			kp->scale = SS_KEY_MIN_SCALE;
			kp->rows = 2;
			kp->split = split;
			memcpy(kp->w, w, sizeof(w));
			kp->row_w[0] = ss_row_width(mark, w, 0, split, gap);
			kp->row_w[1] = ss_row_width(mark, w, split, n, gap);
			kp->width = wide;
		}
	}
	if (kp->width > width + SS_FIT_EPS) {
		kp->rows = 0;
		kp->width = 0;
	}
}

void ss_key_place(const struct ss_key_plan *kp, const struct ss_frame *f, int k, double *x,
		  double *y)
{
	const double band = ss_metrics.panel_title_h;
	int r = kp->rows == 2 && k >= kp->split, a = r ? kp->split : 0;

	*x = f->r.x + f->r.w - kp->width;
	for (int j = a; j < k; j++) {
		if (j > a)
			*x += SS_KEY_GAP * kp->scale;
		*x += kp->sample[j] * kp->scale;
		*x += kp->w[j];
	}
	if (k > a)
		*x += SS_KEY_GAP * kp->scale;
	*y = kp->rows == 2 ? f->r.y - band + band * (r + 0.5) / 2 : f->r.y - band / 2 - 1;
}
