// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The render tests of the seek panels' labels, on whole pictures read back from PNG: the seek
 * causes panel's pair labels cut to their column or put left of a frame too narrow for them,
 * the seek distance panel's direction words kept off its bars, and the two panels' titles
 * reading differently when cut short.
 */
#include <stdlib.h>
#include <string.h>
#include <cairo.h>

#include "tap.h"
#include "testdir.h"
#include "graph.h"
#include "layout.h"
#include "panel.h"
#include "panel_registry.h"
#include "text.h"
#include "trace_read.h"
#include "trace_write.h"
#include "render_util.h"
#include "render_trace.h"

/* N generated traces (NAME-a.sst, ...) drawn W px wide with the io and causes panels into
 * RD and NAME.png: the picture, or NULL (a TAP failure said why). */
static cairo_surface_t *render_causes(struct rendered *rd, int n, int w, const char *name)
{
	struct tr_opts o = { .nr_ags = 4, .write_ag = 1, .nr_ios = 400 };
	char paths[3][256], png[256];
	const char *tr[3];
	struct ss_graph_opts go;
	char err[128] = "";

	for (int i = 0; i < n && i < 3; i++) {
		snprintf(paths[i], sizeof(paths[i]), "%s", tpath("%s-%c.sst", name, 'a' + i));
		tr[i] = paths[i];
		tr_make(tr[i], &o);
	}
	snprintf(png, sizeof(png), "%s", tpath("%s.png", name));
	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "io,causes", err, sizeof(err)), 0, "io and causes (%s)", err);
	if (!render_into(rd, tr, n, png, w, 700, &go))
		return NULL;
	return cairo_image_surface_create_from_png(png);
}

/* Column C's causes frame (render_causes) into *R; false after a TAP failure. */
static bool causes_rect(struct rendered *rd, int c, struct ss_rect *r)
{
	if (!ss_graph_panel_rect(rd->g, 1, c, r))
		return true;
	ok(0, "column %d: no causes panel", c);
	return false;
}

/*
 * Three columns in 900 px: the seek causes panel's pair labels ("data -> data") are cut to fit
 * their column ("da. -> da."), not drawn past the frame's left edge, and its value labels stay
 * inside the frame.
 */
static void test_narrow_causes(void)
{
	struct rendered rd = { 0 };
	cairo_surface_t *img = render_causes(&rd, 3, 900, "causes");

	for (int c = 0; img && c < 3; c++) {
		struct ss_rect r;

		if (!causes_rect(&rd, c, &r))
			continue;
		is_int(dark_px(img, r.x + 1, r.x + 4, r.y + 1, r.y + r.h - 1, 100), 0,
		       "column %d: nothing of a label at the frame's left edge", c);
		ok(dark_px(img, r.x + 4, r.x + r.w * 0.45, r.y + 1, r.y + r.h - 1, 100) > 10,
		   "column %d: ... and the pair is labelled", c);
		is_int(dark_px(img, r.x + r.w - 3, r.x + r.w - 1, r.y + 1, r.y + r.h - 1, 100), 0,
		       "column %d: nothing at its right edge", c);
	}
	if (img)
		cairo_surface_destroy(img);
	release(&rd);
}

/*
 * Two columns in 440 px: a causes frame too narrow for even "da. -> da." beside its bars
 * (once: bare shares, "90.0%" naming nothing) puts the pair labels left of the frame, in the
 * gutter where the time panels' tick labels go, and gives the bars the whole frame.
 */
static void test_causes_outside(void)
{
	struct rendered rd = { 0 };
	cairo_surface_t *img = render_causes(&rd, 2, 440, "causes-out");

	for (int c = 0; img && c < 2; c++) {
		struct ss_rect r;

		if (!causes_rect(&rd, c, &r))
			continue;
		ok(r.w < 100, "column %d: a narrow frame (%.0f px)", c, r.w);
		ok(dark_px(img, r.x - ss_metrics.gutter_left + 8, r.x - 2, r.y + 1, r.y + r.h - 1,
			   100) > 30, "column %d: the pairs are labelled left of the frame", c);
		/* the labels' room reaches that far: "da. -> da." (about 50 px) is not clipped */
		ok(dark_px(img, r.x - ss_metrics.gutter_left + 8, r.x - 44, r.y + 1, r.y + r.h - 1,
			   100) > 5, "column %d: ... whole, the widest reaching past 44 px", c);
		/* the first bar (the most seeks) starts at the frame's left edge */
		ok(dark_px(img, r.x + 1, r.x + 6, r.y + 1, r.y + r.h - 1, 250) > 10,
		   "column %d: ... and a bar starts at the frame's edge", c);
		is_int(dark_px(img, r.x + r.w - 3, r.x + r.w - 1, r.y + 1, r.y + r.h - 1, 100), 0,
		       "column %d: nothing at its right edge", c);
	}
	if (img)
		cairo_surface_destroy(img);
	release(&rd);
}

/* PIXEL is dark in every channel (a black bar, not the orange threshold line). */
static bool black(uint32_t p)
{
	return (p >> 16 & 0xff) < 100 && (p >> 8 & 0xff) < 100 && (p & 0xff) < 100;
}

/* PIXEL is a black bar seen through a label's translucent white plate (0.8 white over it). */
static bool plated_bar(uint32_t p)
{
	for (int sh = 0; sh <= 16; sh += 8)
		if ((p >> sh & 0xff) < 0xc4 || (p >> sh & 0xff) > 0xd4)
			return false;
	return true;
}

/*
 * The seek distance panel's direction words ("<- backward", "forward ->") on their plates
 * keep off the bars: writes alternating between the device's two ends make every move the
 * farthest bucket, half of them each way, the two bars the panel's tallest and at its left and
 * right ends, where the words belong.  Each bar is seen whole (nothing of a plate over its
 * top), and the words are still drawn, moved off the bars towards the middle.
 */
static void test_dist_directions(void)
{
	struct tr_opts o = { .nr_ags = 4, .nr_ios = 200, .far_moves = true };
	struct rendered rd = { 0 };
	struct ss_graph_opts go;
	const char *tr = tr_path("far.sst"), *png = tr_path("far.png");
	cairo_surface_t *img;
	char err[128] = "";
	struct ss_rect r;
	int bars = 0;

	tr_make(tr, &o);
	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "io,seeks,tput,dist", err, sizeof(err)), 0,
	       "three time panels and the distance panel (%s)", err);
	if (!render_into(&rd, &tr, 1, png, 600, 640, &go))
		return;
	img = cairo_image_surface_create_from_png(png);
	if (!ss_graph_panel_rect(rd.g, 3, 0, &r)) {
		int base = (int)(r.y + r.h) - 2;

		for (int x = (int)r.x + 2; x < (int)(r.x + r.w) - 2; x++) {
			int x0 = x, top, plated = 0;

			if (!black(px(img, x, base)))
				continue;
			while (x < (int)(r.x + r.w) - 2 && black(px(img, x + 1, base)))
				x++;
			bars++;
			top = base;
			while (top > (int)r.y && black(px(img, (x0 + x) / 2, top - 1)))
				top--;
			/* every column of the bar, above its top */
			for (int y = (int)r.y + 1; y < top; y++)
				for (int bx = x0; bx <= x; bx++)
					plated += plated_bar(px(img, bx, y));
			ok(top < base - r.h * 0.7, "bar %d at x %d..%d: tall (top %d, base %d)", bars,
			   x0, x, top, base);
			is_int(plated, 0, "bar %d: no label's plate over its top", bars);
		}
		is_int(bars, 2, "two bars, the farthest bucket each way");
		ok(dark_px(img, r.x + r.w * 0.08, r.x + r.w * 0.45, r.y + 2, r.y + 20, 100) > 20,
		   "'<- backward' drawn in the left half");
		ok(dark_px(img, r.x + r.w * 0.55, r.x + r.w * 0.92, r.y + 2, r.y + 20, 100) > 20,
		   "'forward ->' drawn in the right half");
	} else {
		ok(0, "no distance panel");
	}
	cairo_surface_destroy(img);
	release(&rd);
}

/*
 * Three columns in 760 px: the seek distance and seek causes panels' titles, too wide even as
 * their heads, become their short forms, not both "Seek...".
 */
static void test_narrow_seek_titles(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 4, .write_ag = 1, .nr_ios = 400 };
	const char *tr[3] = { tr_path("seektitles-a.sst"), tr_path("seektitles-b.sst"),
			      tr_path("seektitles-c.sst") };
	struct ss_graph_opts go;
	char err[128] = "", dist[400], causes[400], seeks[400];
	cairo_surface_t *s;
	cairo_t *cr;

	for (int i = 0; i < 3; i++)
		tr_make(tr[i], &o);
	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "seeks,dist,causes", err, sizeof(err)), 0,
	       "seeks, dist and causes (%s)", err);
	if (!render_into(&rd, tr, 3, tr_path("seektitles.png"), 760, 600, &go))
		return;
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 760, 600);
	cr = cairo_create(s);
	if (!ss_graph_panel_title(rd.g, cr, 0, 0, seeks, sizeof(seeks)) &&
	    !ss_graph_panel_title(rd.g, cr, 1, 0, dist, sizeof(dist)) &&
	    !ss_graph_panel_title(rd.g, cr, 2, 0, causes, sizeof(causes))) {
		ok(!strcmp(seeks, "Seeks") || !strncmp(seeks, "Seeks per", 9),
		   "the seeks panel: '%s'", seeks);
		ok(!strcmp(dist, "Distance") || !strcmp(dist, "Seek distance"),
		   "the distance panel: '%s'", dist);
		ok(!strcmp(causes, "Causes") || !strcmp(causes, "Seek causes"),
		   "the causes panel: '%s'", causes);
		ok(strcmp(dist, causes), "... the two read differently");
	} else {
		ok(0, "the titles of 760 x 600 read back");
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	release(&rd);
}

int main(void)
{
	if (testdir_make("render-seeks"))
		return done_testing();
	test_narrow_causes();
	test_causes_outside();
	test_dist_directions();
	test_narrow_seek_titles();
	return done_testing();
}
