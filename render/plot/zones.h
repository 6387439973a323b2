// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filesystem zones on the sector panel: which sectors are log/journal (for classifying I/O),
 * the range the zones cover (the default y range), and drawing of the overlays: AG bands and
 * boundaries labelled AG0..AGn, the shaded log/journal band, ext4 group lines labelled every
 * k-th group, inode tables as thin lines.  Labels go in the right gutter and never overlap.
 */
#ifndef SS_ZONES_H
#define SS_ZONES_H

#include <stdbool.h>
#include <stdint.h>
#include <cairo.h>

#include "axes.h"
#include "palette.h"
#include "trace_read.h"

/* Sorted log/journal extents of a trace, for a fast "is this sector journal?" test. */
struct ss_zone_bands {
	size_t n;
	struct ss_zone_band { uint32_t dev; uint64_t lo, hi; } *b;
};
int ss_zone_bands_init(struct ss_zone_bands *zb, const struct ss_trace *t);   /* 0 / -ENOMEM */
void ss_zone_bands_fini(struct ss_zone_bands *zb);
bool ss_zone_bands_is_log(const struct ss_zone_bands *zb, uint32_t dev, uint64_t sector);
/* The io class (palette.h's rule) of a request with sectors: its op, and for reads and writes
 * journal/log (its start in a log or journal zone) before metadata (M) before data. */
enum ss_io_class ss_zone_bands_class(const struct ss_zone_bands *zb, const struct ss_event *ev);

/* Sectors [lo, hi) covered by the trace's zones and filesystem partition; false if no zones. */
bool ss_zones_range(const struct ss_trace *t, uint64_t *lo, uint64_t *hi);

/*
 * A shallow copy of T's metadata that shows only device DEV — its zones and its device entry —
 * for the functions here, so that a device's panel draws and ranges over its own zones only.
 * *OWNED is the view's zone array (free() it after the view).  0 or -ENOMEM.
 */
int ss_zones_device_view(const struct ss_trace *t, uint32_t dev, struct ss_trace *view,
			 struct ss_rec_zone **owned);

/* Underneath the data: alternating AG shading and the log/journal band. */
void ss_zones_draw_bands(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t);
/* Boundaries of AGs and groups, inode tables (drawn under the data, over the bands). */
void ss_zones_draw_lines(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t);
/* Zone labels in the right gutter. */
void ss_zones_draw_labels(cairo_t *cr, const struct ss_frame *f, const struct ss_trace *t);

#endif
