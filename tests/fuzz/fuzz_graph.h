// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Plot options from FUZZ_GRAPH_HDR input bytes, for the targets that draw (fuzz_plot.c) or
 * encode (fuzz_html.c) a trace: panel set (7 bits, the registry's first seven panels; none =
 * the default set), one or two columns (the same trace twice, as `plot a.sst b.sst` would),
 * width and height (small: the accumulators are a pixel grid each), x-range and y-range (raw
 * values, so inverted, empty, NaN-free extreme and huge ranges all come through as
 * ss_graph_opts can express them), offset units, rolling average, seek threshold, colours by
 * class or by group (process, directory, file: the file map's index and the groups' ranking).
 * Include after fuzz.h.
 */
#ifndef SS_FUZZ_GRAPH_H
#define SS_FUZZ_GRAPH_H

#include "graph.h"
#include "panel_registry.h"

#define FUZZ_GRAPH_HDR 32

static inline uint64_t fuzz_get_le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Options from the FUZZ_GRAPH_HDR bytes at H; the number of columns is returned. */
static inline int fuzz_graph_opts(const uint8_t *h, struct ss_graph_opts *o)
{
	uint8_t panels = h[0] & 0x7f;

	ss_graph_opts_init(o);
	/* bit i: the registry's panel i (the first seven) */
	for (size_t i = 0; i < 7 && i < ss_panels_count(); i++)
		if (panels & (1u << i))
			o->panels[o->nr_panels++] = ss_panels_at(i);
	if (!o->nr_panels)
		ss_panels_set_default(o);
	o->width = 120 + (h[1] | (h[2] & 3) << 8);          /* 120 .. 1143 */
	o->height = 120 + (h[3] | (h[4] & 3) << 8);
	if (h[5] & 1) {
		/* seconds: signed 16.16 fixed point, so negative, empty and inverted ranges too */
		o->has_x_range = true;
		o->x_lo_s = (int32_t)(h[6] | h[7] << 8 | h[8] << 16 | (uint32_t)h[9] << 24) / 65536.0;
		o->x_hi_s = (int32_t)(h[10] | h[11] << 8 | h[12] << 16 | (uint32_t)h[13] << 24) / 65536.0;
	}
	if (h[5] & 2) {
		o->has_y_range = true;
		o->y_lo = fuzz_get_le64(h + 14);
		o->y_hi = fuzz_get_le64(h + 22);
	}
	o->units = (enum ss_offset_units)((h[5] >> 2) & 3);
	o->rolling = h[30] & 15;
	/* colour by group: process, dir (depth 1 or 2) or file, the top 1..8 */
	if (h[30] & 0x10) {
		o->color_by_group = true;
		o->group.by = (enum ss_group_by)((h[30] >> 5 & 3) % 3);
		o->group.depth = 1 + (h[30] >> 7);
		o->top_groups = 1 + (h[2] >> 2 & 7);
	}
	o->seek_threshold = (uint64_t)h[31] << ((h[5] >> 4) & 7) * 4;
	return h[0] & 0x80 ? 2 : 1;
}

#endif
