// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Axes of one plot frame: background, grid lines, 1-2-5 tick labels with units, the rotated
 * y-axis title.  Shared by every panel so all panels look alike.
 */
#ifndef SS_AXES_H
#define SS_AXES_H

#include <cairo.h>
#include "layout.h"
#include "ticks.h"

/* One plot frame as a panel sees it at draw time. */
struct ss_frame {
	struct ss_rect r;           /* data area */
	struct ss_axis x, y;        /* raw data values -> pixels */
	struct ss_unit xu, yu;      /* display units (tick value = raw / div) */
	const char *y_title;        /* rotated title left of the tick labels, or NULL */
	bool x_unit_on_last;        /* write the x unit after the last tick label */
};

/* White data area with a thin border. */
void ss_axes_background(cairo_t *cr, const struct ss_frame *f);
/* Vertical grid lines and tick labels below the frame. */
void ss_axes_x(cairo_t *cr, const struct ss_frame *f);
/* Horizontal grid lines, tick labels left of the frame and the rotated title. */
void ss_axes_y(cairo_t *cr, const struct ss_frame *f);
/* Border on top of the data. */
void ss_axes_border(cairo_t *cr, const struct ss_frame *f);

#endif
