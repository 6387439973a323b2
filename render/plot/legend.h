// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The legend above the plots: the request classes the panels drew (a set of SS_CLS_BIT()s,
 * palette.h) or, coloured by process, the process groups and "other" (and of the classes
 * only the flush and FUA strips), and — only when some trace has them — the log/journal band,
 * AG and group boundaries, inode tables and phase lines.  Drawn centred in one row (closer
 * together and in smaller type if need be), else in two rows of small type; when even those
 * are too narrow, the process entries stay and the others go.
 */
#ifndef SS_LEGEND_H
#define SS_LEGEND_H

#include <cairo.h>
#include "layout.h"
#include "groups.h"
#include "trace_read.h"

/* PROCS: the process groups when the sector panel is coloured by process, else NULL. */
void ss_legend_draw(cairo_t *cr, const struct ss_rect *r, const struct ss_trace *const *t,
		    int nr, unsigned classes, const struct ss_groups *groups);

#endif
