// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Helpers of the render tests (test_render*.c, test_classes.c, test_devices.c, test_table.c):
 * write requests, draw traces into a PNG through the graph and read its pixels back.  Include after tap.h and the render headers.
 */
#ifndef SS_TEST_RENDER_UTIL_H
#define SS_TEST_RENDER_UTIL_H

#include <math.h>
#include <string.h>
#include <cairo.h>

#include "graph.h"
#include "panel_registry.h"
#include "surface.h"
#include "trace_read.h"
#include "trace_write.h"

/*
 * One request into W: its issue at TS and its completion LAT_NS later, NR sectors at SECTOR on
 * DEV; a flush (no sectors) completes at SS_SECTOR_NONE, as the kernel reports it.
 */
__attribute__((unused))
static void rt_put_io(struct ss_writer *w, uint32_t dev, uint64_t ts, uint64_t sector,
		      uint32_t nr, uint16_t flags, uint64_t lat_ns)
{
	struct ss_event e[2] = { 0 };

	for (int i = 0; i < 2; i++)
		e[i] = (struct ss_event){ .ts_ns = ts + (uint64_t)i * lat_ns, .sector = sector,
					  .nr_sector = nr, .bytes = nr * 512ull, .dev = dev,
					  .type = i ? SS_EV_COMPLETE : SS_EV_ISSUE, .flags = flags };
	if (!nr && (flags & SS_RW_FLUSH))
		e[1].sector = SS_SECTOR_NONE;
	ss_writer_events(w, e, 2);
}

/* Traces borrowed by the last graph: closed by release() after the graph is freed. */
struct rendered {
	struct ss_graph *g;
	struct ss_trace *t[SS_GRAPH_MAX_TRACES];
	int n;
};

__attribute__((unused))
static void release(struct rendered *r)
{
	ss_graph_free(r->g);
	for (int i = 0; i < r->n; i++)
		ss_trace_close(r->t[i]);
	memset(r, 0, sizeof(*r));
}

__attribute__((unused))
static struct ss_graph *render_into(struct rendered *rd, const char **traces, int n,
				    const char *out, int w, int h, const struct ss_graph_opts *base)
{
	struct ss_graph_opts go;
	struct ss_trace **t = rd->t;
	struct ss_graph *g;
	struct ss_surface *s;
	char err[256] = "";
	int ret;

	if (base) {
		go = *base;
	} else {
		ss_graph_opts_init(&go);
		ss_panels_set_default(&go);
	}
	go.width = w;
	go.height = h;
	g = rd->g = ss_graph_new(&go);
	for (int i = 0; i < n; i++) {
		t[i] = ss_trace_open(traces[i], err, sizeof(err));
		rd->n = i + 1;
		if (!t[i]) {
			ok(0, "open %s: %s", traces[i], err);
			release(rd);
			return NULL;
		}
		ss_graph_add_trace(g, t[i], NULL);
	}
	ret = ss_graph_run(g, err, sizeof(err));
	is_int(ret, 0, "graph runs for %s (%s)", out, err);
	s = ss_surface_new(out, (enum ss_out_format)ss_out_format_from_path(out), w, h, NULL, 0);
	ok(s != NULL, "surface for %s", out);
	if (s) {
		ss_graph_draw(g, ss_surface_cairo(s));
		is_int(ss_surface_finish(s, NULL, 0), 0, "%s written", out);
		ss_surface_free(s);
	}
	return g;
}

__attribute__((unused))
static uint32_t px(cairo_surface_t *img, int x, int y)
{
	unsigned char *data = cairo_image_surface_get_data(img);
	int stride = cairo_image_surface_get_stride(img);

	return *(uint32_t *)(data + (size_t)y * (size_t)stride + (size_t)x * 4) & 0xffffffu;
}

/* count_px()'s colour for any pixel that is neither white nor light grey. */
#define PX_ANY 0x1000000u

/* Pixels of colour rgb (0xRRGGBB, or PX_ANY) in the rectangle x0..x1 x y0..y1. */
__attribute__((unused))
static long count_px(cairo_surface_t *img, double x0, double x1, double y0, double y1,
		     uint32_t rgb)
{
	long n = 0;

	if (y0 > y1) {
		double t = y0;
		y0 = y1;
		y1 = t;
	}
	for (int y = (int)ceil(y0); y < (int)floor(y1); y++)
		for (int x = (int)ceil(x0); x < (int)floor(x1); x++) {
			uint32_t p = px(img, x, y);
			int r = p >> 16 & 0xff, g = p >> 8 & 0xff, b = p & 0xff;

			if (rgb != PX_ANY ? p == rgb : (r < 200 || g < 200 || b < 200))
				n++;
		}
	return n;
}

/* Pixels in the rectangle x0..x1 x y0..y1 darker than MAX in every channel: text and the
 * axes' grey (0x55), not the data's colours. */
__attribute__((unused))
static long dark_px(cairo_surface_t *img, double x0, double x1, double y0, double y1,
		   unsigned max)
{
	long n = 0;

	for (int y = (int)ceil(y0); y < (int)floor(y1); y++)
		for (int x = (int)ceil(x0); x < (int)floor(x1); x++) {
			uint32_t p = px(img, x, y);

			n += (p >> 16 & 0xff) < max && (p >> 8 & 0xff) < max && (p & 0xff) < max;
		}
	return n;
}

#endif
