// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the plot pipeline (render/plot/graph.c, graph_draw.c and the panels: layout,
 * scales, ticks, bins, per-pixel accumulators, zone bands, phase markers, the summary table) on
 * untrusted traces and option values, drawn into a cairo recording surface (every drawing call
 * made, no pixels).
 *
 * Input: FUZZ_PLOT_HDR bytes of options, then a seekscope trace (record CRCs recomputed as in
 * fuzz_trace.c); fuzz_graph.h says what the option bytes set.
 * Invariants: ss_graph_run fails only with a message; after success the io panel's rectangle
 * lies inside the picture and the row of any sector in the y-range lies inside that rectangle.
 */
#include <cairo.h>

#include "fuzz.h"
#include "fuzz_consume.h"
#include "fuzz_graph.h"

#define FUZZ_PLOT_HDR FUZZ_GRAPH_HDR

static int memfd = -1;

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
	int cols, ret;

	if (size < FUZZ_PLOT_HDR || size > (1u << 20))
		return 0;
	cols = fuzz_graph_opts(data, &o);
	if (fuzz_sst_memfile(&memfd, data + FUZZ_PLOT_HDR, size - FUZZ_PLOT_HDR, path, sizeof(path)))
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
