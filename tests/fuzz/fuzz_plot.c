// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the plot pipeline (render/graph.c and the panels: layout, scales, ticks, bins,
 * per-pixel accumulators, zone bands, phase markers, the summary table) on untrusted traces and
 * option values, drawn into a cairo recording surface (every drawing call made, no pixels).
 *
 * Input: FUZZ_PLOT_HDR bytes of options, then a seekscope trace (record CRCs recomputed as in
 * fuzz_trace.c).  Options: panel set (7 bits, the registry's first seven panels; none = the
 * default set), one or two columns (the same trace twice, as `plot a.sst b.sst` would), width
 * and height (small: the accumulators are a pixel grid each), x-range and y-range (raw values,
 * so inverted, empty, NaN-free extreme and huge ranges all come through as ss_graph_opts can
 * express them), offset units, rolling average, seek threshold, colours by class or by
 * group (process, directory, file: the file map's index and the groups' ranking).
 * Invariants: ss_graph_run fails only with a message; after success the io panel's rectangle
 * lies inside the picture and the row of any sector in the y-range lies inside that rectangle.
 */
#include <cairo.h>

#include "fuzz.h"
#include "fuzz_consume.h"
#include "graph.h"
#include "panel_registry.h"

#define FUZZ_PLOT_HDR 32

static int memfd = -1;

static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* Options from the header bytes; the number of columns is returned. */
static int make_opts(const uint8_t *h, struct ss_graph_opts *o)
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
		o->y_lo = get64(h + 14);
		o->y_hi = get64(h + 22);
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

static void check_geometry(const struct ss_graph *g, const struct ss_graph_opts *o, int cols)
{
	for (int c = 0; c < cols; c++) {
		struct ss_rect r;
		double y;

		if (ss_graph_io_rect(g, c, &r))
			continue;
		FUZZ_ASSERT(r.x >= 0 && r.y >= 0 && r.w >= 0 && r.h >= 0 &&
			    r.x + r.w <= o->width + 0.5 && r.y + r.h <= o->height + 0.5,
			    "io panel %g,%g %gx%g outside %dx%d", r.x, r.y, r.w, r.h, o->width,
			    o->height);
		if (o->has_y_range && o->y_lo < o->y_hi &&
		    ss_graph_sector_y(g, c, o->y_lo + (o->y_hi - o->y_lo) / 2, &y) == 0)
			FUZZ_ASSERT(y >= r.y - 0.5 && y <= r.y + r.h + 0.5,
				    "mid-range sector at y=%g outside the panel %g..%g", y, r.y,
				    r.y + r.h);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_graph_opts o;
	struct ss_graph *g = NULL;
	struct ss_trace *t = NULL;
	cairo_surface_t *surf;
	char path[64], err[256] = "";
	uint8_t *copy;
	int cols, ret;

	if (size < FUZZ_PLOT_HDR || size > (1u << 20))
		return 0;
	cols = make_opts(data, &o);
	copy = malloc(size - FUZZ_PLOT_HDR + 1);
	if (!copy)
		return 0;
	memcpy(copy, data + FUZZ_PLOT_HDR, size - FUZZ_PLOT_HDR);
	fuzz_fix_sst_crcs(copy, size - FUZZ_PLOT_HDR);
	ret = fuzz_memfile(&memfd, copy, size - FUZZ_PLOT_HDR, 0, path, sizeof(path));
	free(copy);
	if (ret < 0)
		return 0;

	t = ss_trace_open(path, err, sizeof(err));
	if (!t)
		return 0;
	g = ss_graph_new(&o);
	if (!g)
		goto out;
	for (int c = 0; c < cols; c++)
		if (ss_graph_add_trace(g, t, c ? "second" : "first"))
			goto out;
	ret = ss_graph_run(g, err, sizeof(err));
	if (ret) {
		FUZZ_ASSERT(ret < 0 && err[0], "graph run failed (%d) without a message", ret);
		goto out;
	}
	check_geometry(g, &o, cols);
	surf = cairo_recording_surface_create(CAIRO_CONTENT_COLOR_ALPHA, NULL);
	if (cairo_surface_status(surf) == CAIRO_STATUS_SUCCESS) {
		cairo_t *cr = cairo_create(surf);

		ss_graph_draw(g, cr);
		FUZZ_ASSERT(cairo_status(cr) == CAIRO_STATUS_SUCCESS, "cairo: %s",
			    cairo_status_to_string(cairo_status(cr)));
		cairo_destroy(cr);
	}
	cairo_surface_destroy(surf);
out:
	ss_graph_free(g);
	ss_trace_close(t);
	return 0;
}
