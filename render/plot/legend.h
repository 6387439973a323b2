// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The legend above the plots: the request classes the panels drew (a set of SS_CLS_BIT()s,
 * palette.h) and — only when some trace has them — the log/journal band, AG and group
 * boundaries, inode tables and phase lines.  Drawn centred in one row.
 */
#ifndef SS_LEGEND_H
#define SS_LEGEND_H

#include <cairo.h>
#include "layout.h"
#include "trace_read.h"

void ss_legend_draw(cairo_t *cr, const struct ss_rect *r, const struct ss_trace *const *t,
		    int nr, unsigned classes);

#endif
