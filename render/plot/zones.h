// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filesystem zones on the sector panel: the io class of a request (its zone decides journal and
 * inode-table metadata), the range the zones cover (the default y range), and drawing of the
 * overlays: AG bands and
 * boundaries labelled AG0..AGn, the shaded log/journal band, ext4 group lines labelled every
 * k-th group, inode tables as thin lines.  Labels go in the right gutter and never overlap.
 */
#ifndef SS_ZONES_H
#define SS_ZONES_H

#include <stdbool.h>
#include <stdint.h>
#include <cairo.h>

#include "axes.h"
#include "classes.h"
#include "palette.h"
#include "trace_read.h"

/*
 * The io class of requests (palette.h's colours): their class by the one rule (classes.h,
 * over the trace's zones), data split by op into data read and data write.
 */
struct ss_io_classes {
	const struct ss_rec_zone *zones;
	struct ss_zone_index *zi;           /* NULL: the trace has no zones */
	struct ss_filemap *fm;              /* the trace's file map (empty without one) */
	struct ss_zone_hint hint;           /* the last lookup's zone interval */
};
int ss_io_classes_init(struct ss_io_classes *ic, const struct ss_trace *t);  /* 0 / -ENOMEM */
void ss_io_classes_fini(struct ss_io_classes *ic);
/* The io class of a request with sectors. */
enum ss_io_class ss_io_class_of(struct ss_io_classes *ic, const struct ss_event *ev);
/* The io class of a request of class C (data: read or write by EV's op). */
enum ss_io_class ss_io_class_from(enum ss_class c, const struct ss_event *ev);

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
