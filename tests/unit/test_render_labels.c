// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The render tests of labels and narrow layouts, on whole pictures read back from PNG: the
 * latency panel's p99 and value labels keep clear of each other, of the panel's top and of
 * the "events lost" label; a narrow picture's title, legend and column headings stay inside
 * it; a low panel's phase labels are whole; panel titles are cut to what still says something.
 */
#include <math.h>
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

#define WARN_RGB 0xB03000u             /* palette.h: ss_col_warn */
#define AXIS_RGB 0x555555u             /* palette.h: ss_col_axis, the p99 line and label */
#define TEXT_RGB 0x1a1a1au             /* palette.h: ss_col_text, the value labels */

/* A trace NAME.sst made with O, its latency panel alone drawn W x H into NAME.png: the
 * picture and the panel's rectangle *R, NULL on failure. */
static cairo_surface_t *render_lat(struct rendered *rd, const char *name, const struct tr_opts *o,
				   int w, int h, struct ss_rect *r)
{
	char tn[64], pn[64], err[128] = "";
	const char *tr, *png;
	struct ss_graph_opts go;

	snprintf(tn, sizeof(tn), "%s.sst", name);
	snprintf(pn, sizeof(pn), "%s.png", name);
	tr = tr_path(tn);
	png = tr_path(pn);
	tr_make(tr, o);
	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "lat", err, sizeof(err)), 0, "latency panel alone");
	if (!render_into(rd, &tr, 1, png, w, h, &go))
		return NULL;
	is_int(ss_graph_panel_rect(rd->g, 0, 0, r), 0, "latency panel present");
	return cairo_image_surface_create_from_png(png);
}

/*
 * The latency panel labels its p99 line above the line, or below it when the line is so near
 * the panel's top that the label would be cut: a read of 10 us, then writes of 5 ms each, on
 * a log axis from 1 us to 10 ms, put the line a few pixels under the top.
 */
static void test_p99_label(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 1, .nr_ios = 400, .lead_ns = 1000000,
			     .lat_ns = 5000000, .lead_lat_ns = 10000 };
	struct ss_rect r;
	cairo_surface_t *img = render_lat(&rd, "p99", &o, 900, 300, &r);
	double y99, x0, x1;

	if (!img)
		return;
	/* the dotted p99 line: the row under the panel's top darkest across its right half */
	y99 = r.y + 1;
	for (double y = r.y + 1, best = -1; y < r.y + r.h / 2; y++) {
		long n = dark_px(img, r.x + r.w / 2, r.x + r.w - 2, y, y + 1, 100);

		if (n > best) {
			best = (double)n;
			y99 = y + 0.5;
		}
	}
	/* "p99 5 ms" starts 4 px right of the panel's left edge, or (where the phase's label
	 * is there) ends 4 px left of its right edge; the frame is the row above r.y */
	x0 = r.x + 2;
	x1 = r.x + 50;
	ok(y99 - r.y < 12 && fabs(y99 - (r.y + r.h * (1 - log10(5.0)) / 4)) < 1.5,
	   "the p99 line is %.1f px under the panel's top, at 5 ms on the 1 us - 10 ms axis",
	   y99 - r.y);
	is_int(dark_px(img, x0, x1, r.y + 1, y99 - 1, 100) +
	       dark_px(img, r.x + r.w - 50, r.x + r.w - 2, r.y + 1, y99 - 1, 100), 0,
	       "nothing of the p99 label between the panel's top and the line (it is not cut)");
	ok(dark_px(img, x0, x1, y99 + 1, y99 + 16, 100) > 20 ||
	   dark_px(img, r.x + r.w - 50, r.x + r.w - 2, y99 + 1, y99 + 16, 100) > 20,
	   "the p99 label is under the line");
	cairo_surface_destroy(img);
	release(&rd);
}

/*
 * An outlier at the start, 2.5 x the p99 (a read of 2.5 ms before writes of 1 ms each): its
 * value's label sits at the left end just above the p99 line, so the p99 label goes to the
 * line's right end instead of under it.  Text is found by colour: the value in the text's
 * near-black, the p99 label in the axis grey.
 */
static void test_p99_beside_outlier(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 1, .nr_ios = 400, .lead_ns = 1000000,
			     .lat_ns = 1000000, .lead_lat_ns = 2500000 };
	struct ss_rect r;
	cairo_surface_t *img = render_lat(&rd, "p99-outlier", &o, 700, 280, &r);
	double y99 = 0;
	long value_left, p99_left, p99_right;

	if (!img)
		return;
	for (double y = r.y + 1, best = -1; y < r.y + r.h - 1; y++) {
		long n = count_px(img, r.x + r.w / 3, r.x + r.w * 2 / 3, y, y + 1, AXIS_RGB);

		if (n > best) {
			best = (double)n;
			y99 = y;
		}
	}
	value_left = count_px(img, r.x + 2, r.x + 80, y99 - 30, y99, TEXT_RGB);
	p99_left = count_px(img, r.x + 2, r.x + 80, y99 - 14, y99 - 1, AXIS_RGB);
	p99_right = count_px(img, r.x + r.w - 80, r.x + r.w - 2, y99 - 14, y99 - 1,
			      AXIS_RGB);
	ok(value_left > 10, "the outlier's value is labelled at the left end (%ld px)", value_left);
	ok(p99_right > 10 && p99_left == 0,
	   "the p99 label at the line's right end (%ld px), not under the value (%ld px)",
	   p99_right, p99_left);
	cairo_surface_destroy(img);
	release(&rd);
}

/* A pixel within 60 of the phase colour (0x6a3d9a) in every channel. */
static bool near_phase(uint32_t p)
{
	return abs((int)(p >> 16 & 0xff) - 0x6a) < 60 && abs((int)(p >> 8 & 0xff) - 0x3d) < 60 &&
	       abs((int)(p & 0xff) - 0x9a) < 60;
}

/*
 * A narrow picture: the title and the legend (every mark: writes, reads, flushes, zones,
 * phases) stay inside the picture, closer together and smaller rather than cut at its edges.
 */
static void test_narrow_legend(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 4, .write_ag = 1, .nr_ios = 400, .flushes = true,
			     .lead_ns = 1000000 };
	const char *tr = tr_path("narrow.sst"), *png = tr_path("narrow.png");
	cairo_surface_t *img;
	struct ss_rect r;

	tr_make(tr, &o);
	if (!render_into(&rd, &tr, 1, png, 560, 900, NULL))
		return;
	is_int(ss_graph_io_rect(rd.g, 0, &r), 0, "sector panel present");
	img = cairo_image_surface_create_from_png(png);
	/* above the column's header: the title and the legend rows */
	is_int(count_px(img, 0, 6, 0, r.y - 40, PX_ANY) + count_px(img, 554, 560, 0, r.y - 40,
								      PX_ANY), 0,
	       "560 px wide: nothing of the title or legend at the picture's edges");
	ok(count_px(img, 6, 554, 40, r.y - 40, PX_ANY) > 300, "... and the legend is drawn");
	cairo_surface_destroy(img);
	release(&rd);

	/* narrower: two rows, the last entry (the phase line) still there */
	if (!render_into(&rd, &tr, 1, png, 440, 900, NULL))
		return;
	is_int(ss_graph_io_rect(rd.g, 0, &r), 0, "sector panel present");
	img = cairo_image_surface_create_from_png(png);
	{
		long phase = 0;

		for (int y = 36; y < (int)r.y - 40; y++)
			for (int x = 0; x < 440; x++) {
				uint32_t p = px(img, x, y);

				/* the phase colour itself, not the grey of the AG boundary's */
				phase += abs((int)(p >> 16 & 0xff) - 0x6a) < 24 &&
					 abs((int)(p >> 8 & 0xff) - 0x3d) < 24 &&
					 abs((int)(p & 0xff) - 0x9a) < 24;
			}
		ok(phase > 5, "440 px: the legend keeps the phase line's entry (%ld px)", phase);
	}
	is_int(count_px(img, 0, 4, 0, r.y - 40, PX_ANY) + count_px(img, 436, 440, 0, r.y - 40,
								    PX_ANY), 0,
	       "... and nothing at the picture's edges");
	cairo_surface_destroy(img);
	release(&rd);
}

/*
 * Two columns in a narrow picture, a long file name each and the second trace with lost events:
 * each column's heading stays over its own column (the name cut from the front, the devices
 * cut or left out), and the warning about the lost events keeps room beside the name.
 */
static void test_narrow_headers(void)
{
	struct rendered rd = { 0 };
	struct tr_opts a = { .nr_ags = 4, .nr_ios = 400 };
	struct tr_opts b = { .nr_ags = 4, .nr_ios = 400, .lost = 12 };
	const char *tr[2] = { tr_path("a-rather-long-file-name-for-the-first-run.sst"),
			      tr_path("and-another-long-one-for-the-second-run.sst") };
	const char *png = tr_path("headers.png");
	cairo_surface_t *img;
	struct ss_rect r0, r1;
	double top, bottom;

	tr_make(tr[0], &a);
	tr_make(tr[1], &b);
	if (!render_into(&rd, tr, 2, png, 900, 1000, NULL))
		return;
	ok(!ss_graph_io_rect(rd.g, 0, &r0) && !ss_graph_io_rect(rd.g, 1, &r1), "two io panels");
	img = cairo_image_surface_create_from_png(png);
	/* the heading's band: above the io panel's title band */
	bottom = r0.y - ss_metrics.panel_title_h;
	top = bottom - 24;
	is_int(count_px(img, r0.x + r0.w + ss_metrics.gutter_right + 1, r1.x - 1, top, bottom,
			PX_ANY), 0, "nothing of the first heading past its column");
	is_int(count_px(img, r1.x + r1.w + ss_metrics.gutter_right + 1, 900, top, bottom, PX_ANY),
	       0, "nothing of the second heading past the picture's edge");
	ok(count_px(img, r0.x, r0.x + r0.w / 2, top, bottom, PX_ANY) > 100 &&
	   count_px(img, r1.x, r1.x + r1.w / 2, top, bottom, PX_ANY) > 100,
	   "both headings drawn");
	ok(count_px(img, r1.x + r1.w / 2, r1.x + r1.w + ss_metrics.gutter_right, top, bottom,
		    WARN_RGB) > 20, "the second column's lost-events warning is drawn");
	cairo_surface_destroy(img);
	release(&rd);
}


/* In a low time panel the phase labels are drawn whole, not cut by its bottom edge. */
static void test_low_panel_phases(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 1, .nr_ios = 400, .lead_ns = 1000000 };
	const char *tr = tr_path("low.sst"), *png = tr_path("low.png");
	struct ss_graph_opts go;
	char err[128] = "";
	cairo_surface_t *img;
	struct ss_rect r;

	tr_make(tr, &o);
	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "seeks", err, sizeof(err)), 0, "seeks panel alone");
	if (!render_into(&rd, &tr, 1, png, 700, 240, &go))
		return;
	is_int(ss_graph_panel_rect(rd.g, 0, 0, &r), 0, "seeks panel present");
	ok(r.h < 28, "a low panel (%.0f px)", r.h);
	img = cairo_image_surface_create_from_png(png);
	/* the label's glyphs are the phase colour; the phase's line crosses the panel's first
	 * row, which the label (at the top of a low panel) leaves free */
	{
		long label = 0, cut = 0;

		for (int x = (int)r.x + 1; x < (int)(r.x + r.w) - 1; x++) {
			if (near_phase(px(img, x, (int)r.y + 1)))
				continue;       /* the line */
			for (int y = (int)r.y + 2; y < (int)(r.y + r.h); y++) {
				label += near_phase(px(img, x, y));
				cut += y >= (int)(r.y + r.h) - 2 && near_phase(px(img, x, y));
			}
		}
		ok(label > 30, "the phase is labelled (%ld pixels)", label);
		is_int(cut, 0, "nothing of the label at the panel's bottom edge (it is whole)");
	}
	cairo_surface_destroy(img);
	release(&rd);
}

/* A pixel within 40 of the warning colour in every channel (its text on the lost period's
 * shade). */
static bool near_warn(uint32_t p)
{
	return abs((int)(p >> 16 & 0xff) - 0xB0) < 40 && abs((int)(p >> 8 & 0xff) - 0x30) < 40 &&
	       abs((int)(p & 0xff) - 0x00) < 40;
}

/* A pixel of dark grey text: its channels within 30 of each other, all under 0xa0. */
static bool near_grey(uint32_t p)
{
	int r = p >> 16 & 0xff, g = p >> 8 & 0xff, b = p & 0xff;

	return r < 0xa0 && g < 0xa0 && b < 0xa0 && abs(r - g) < 30 && abs(g - b) < 30 &&
	       abs(r - b) < 30;
}

/*
 * Events lost during the first 100 ms of 200 ms of writes: the shaded period's "events lost"
 * label sits at the panel's bottom left, where the p99 label would go first when the p99 line
 * lies near the bottom of a low panel (all writes 20 us, one 0.5 ms read before them).  The
 * p99 label goes elsewhere; both are drawn.
 */
static void test_p99_beside_lost(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 1, .nr_ios = 200, .lead_ns = 1000000, .lost = 7,
			     .lost_ns = 100000000, .lat_ns = 20000, .lead_lat_ns = 500000 };
	struct ss_rect r;
	cairo_surface_t *img = render_lat(&rd, "p99-lost", &o, 900, 300, &r);
	double y99 = 0, lx0 = INFINITY, lx1 = -INFINITY, ly0 = INFINITY, ly1 = -INFINITY;
	double px0 = INFINITY, px1 = -INFINITY, py0 = INFINITY, py1 = -INFINITY;
	long warn = 0, p99_text = 0;

	if (!img)
		return;
	/* the p99 line: the row darkest in the axis grey across the panel's right half */
	for (double y = r.y + 1, best = -1; y < r.y + r.h - 1; y++) {
		long n = count_px(img, r.x + r.w / 2, r.x + r.w - 2, y, y + 1, AXIS_RGB);

		if (n > best) {
			best = (double)n;
			y99 = y;
		}
	}
	/* the lost label: its pixels in the warning colour, within the panel */
	for (int y = (int)r.y; y < (int)(r.y + r.h); y++)
		for (int x = (int)r.x; x < (int)(r.x + r.w); x++)
			if (near_warn(px(img, x, y))) {
				warn++;
				lx0 = fmin(lx0, x);
				lx1 = fmax(lx1, x);
				ly0 = fmin(ly0, y);
				ly1 = fmax(ly1, y);
			}
	ok(warn > 20 && lx0 < r.x + 20 && ly1 > r.y + r.h - 8,
	   "\"events lost\" is labelled at the panel's bottom left (%ld px)", warn);
	ok(y99 > r.y + r.h - 12, "the p99 line is near the bottom (%.0f px above it)",
	   r.y + r.h - y99);
	/* the p99 label's glyphs: grey (the axis grey blended into the white or the shade) off
	 * the line's own rows, within a label's height of it */
	for (int y = (int)fmax(r.y + 1, y99 - 16); y < (int)fmin(r.y + r.h - 1, y99 + 16); y++)
		for (int x = (int)r.x + 1; x < (int)(r.x + r.w) - 1; x++)
			if (near_grey(px(img, x, y)) && fabs(y - y99) > 1) {
				p99_text++;
				px0 = fmin(px0, x);
				px1 = fmax(px1, x);
				py0 = fmin(py0, y);
				py1 = fmax(py1, y);
			}
	ok(p99_text > 20, "the p99 label is drawn (%ld px)", p99_text);
	ok(px1 < lx0 - 3 || px0 > lx1 + 3 || py1 < ly0 - 3 || py0 > ly1 + 3,
	   "its place (%.0f..%.0f, %.0f..%.0f) is clear of the \"events lost\" label's "
	   "(%.0f..%.0f, %.0f..%.0f)", px0, px1, py0, py1, lx0, lx1, ly0, ly1);
	cairo_surface_destroy(img);
	release(&rd);
}

/* The titles of rows "io,seeks,lat,tput,iops" of both columns of traces TR drawn W x 1000
 * into NAME, into T[row][col]. */
static bool panel_titles(const char **tr, int w, const char *name, char t[5][2][400])
{
	struct rendered rd = { 0 };
	struct ss_graph_opts go;
	char err[128] = "";
	cairo_surface_t *s;
	cairo_t *cr;
	bool all = true;

	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "io,seeks,lat,tput,iops", err, sizeof(err)), 0,
	       "five panels (%s)", err);
	if (!render_into(&rd, tr, 2, tr_path(name), w, 1000, &go))
		return false;
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, 1000);
	cr = cairo_create(s);
	for (int p = 0; p < 5; p++)
		for (int c = 0; c < 2; c++)
			all &= !ss_graph_panel_title(rd.g, cr, p, c, t[p][c], sizeof(t[p][c]));
	ok(all, "the titles of %d x 1000 read back", w);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	release(&rd);
	return all;
}

/*
 * Panel titles in two columns: whole where there is room; cut only where that keeps more than
 * their head (up to the first ':', ',' or '('); else the head alone ("Where the I/O went",
 * "Throughput") or a short title ("Latency", "IOPS", "MB/s") — never a bare "..." nor a cut
 * right after a ':' or '('.
 */
static void test_narrow_titles(void)
{
	struct tr_opts o = { .nr_ags = 4, .write_ag = 1, .nr_ios = 400, .lead_ns = 1000000 };
	const char *tr[2] = { tr_path("titles-a.sst"), tr_path("titles-b.sst") };
	static const char *const narrow[5] = { "Where the I/O went", NULL, "Latency",
					       "Throughput", "IOPS" };
	static char t[5][2][400];

	tr_make(tr[0], &o);
	tr_make(tr[1], &o);
	if (panel_titles(tr, 2600, "titles-wide.png", t)) {
		is_str(t[0][0], "Where the I/O went: device offset of each request over time",
		       "2600 px: the io panel's title whole");
		ok(!strncmp(t[2][1], "Read and write latency, issue to completion (ms per bin, log "
			    "scale; slowest bins marked)", 400), "... and the latency panel's");
	}
	if (!panel_titles(tr, 660, "titles-narrow.png", t))
		return;
	for (int p = 0; p < 5; p++)
		for (int c = 0; c < 2; c++) {
			size_t n = strlen(t[p][c]);

			if (narrow[p])
				is_str(t[p][c], narrow[p], "660 px: row %d column %d", p, c);
			ok(n > 3 && !(t[p][c][n - 1] == '.' && strchr(" :,;(=", t[p][c][n - 4])),
			   "row %d column %d: '%s' (not bare, not cut after punctuation)", p, c,
			   t[p][c]);
		}
	ok(!strncmp(t[1][0], "Seeks per second", 16), "the seeks title keeps its head: '%s'",
	   t[1][0]);
	/* beside its key in 440 px the throughput panel's head does not fit: its short title,
	 * not "Throu..." */
	if (!panel_titles(tr, 440, "titles-440.png", t))
		return;
	for (int c = 0; c < 2; c++)
		ok(!strcmp(t[3][c], "Throughput") || !strcmp(t[3][c], "MB/s"),
		   "440 px: the throughput panel's title in column %d: '%s'", c, t[3][c]);
}

/* TEXT fitted by ss_text_fit_words into the width of FIT (bold, the panel titles' size). */
static const char *fit_words(cairo_t *cr, const char *text, const char *shorter, const char *fit)
{
	static char buf[256];
	double w;

	ss_text_measure(cr, ss_metrics.font_label, true, fit, &w, NULL);
	ss_text_fit_words(cr, ss_metrics.font_label, true, text, shorter, w + 0.01, buf,
			  sizeof(buf));
	return buf;
}

/* Whether a pixel is of a line's colour: saturated, not text's black or the axes' grey. */
static bool saturated(uint32_t p)
{
	int r = p >> 16 & 0xff, g = p >> 8 & 0xff, b = p & 0xff;
	int hi = r > g ? (r > b ? r : b) : (g > b ? g : b), lo = r < g ? (r < b ? r : b) : (g < b ? g : b);

	return hi - lo > 80;
}

/*
 * Two columns in 440 px, frames of about 60 px: a panel whose key leaves its title no room
 * over the frame draws the key at the end of the title band, over the gutter right of the
 * frame, with air between the two (the latency panel: "Latency" and its key, mean and max);
 * every panel keeps a title; the time axis' caption keeps its unit rather than being cut
 * before it.
 */
static void test_narrow_key_titles(void)
{
	struct tr_opts o = { .nr_ags = 4, .write_ag = 1, .nr_ios = 400, .lead_ns = 1000000 };
	const char *tr[2] = { tr_path("keytitles-a.sst"), tr_path("keytitles-b.sst") };
	const char *png = tr_path("keytitles.png");
	struct rendered rd = { 0 };
	struct ss_graph_opts go;
	char err[128] = "", t[5][2][400], xt[96] = "";
	cairo_surface_t *s, *img;
	cairo_t *cr;
	struct ss_rect r = { 0 };
	bool got = true;

	tr_make(tr[0], &o);
	tr_make(tr[1], &o);
	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "io,seeks,lat,tput,iops", err, sizeof(err)), 0,
	       "five panels (%s)", err);
	if (!render_into(&rd, tr, 2, png, 440, 1000, &go))
		return;
	s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 440, 1000);
	cr = cairo_create(s);
	for (int p = 0; p < 5; p++)
		for (int c = 0; c < 2; c++)
			got &= !ss_graph_panel_title(rd.g, cr, p, c, t[p][c], sizeof(t[p][c]));
	got &= !ss_graph_x_title(rd.g, cr, 0, xt, sizeof(xt));
	got &= !ss_graph_panel_rect(rd.g, 2, 0, &r);
	cairo_destroy(cr);
	cairo_surface_destroy(s);
	release(&rd);
	if (!ok(got, "440 px: the titles, the caption and the latency panel read back"))
		return;
	for (int p = 0; p < 5; p++)
		for (int c = 0; c < 2; c++)
			ok(strlen(t[p][c]) >= 3 && strcmp(t[p][c], "..."),
			   "440 px: row %d column %d has a title: '%s'", p, c, t[p][c]);
	is_str(t[2][0], "Latency", "the latency panel's title whole beside its key");
	ok(!strncmp(xt, "time", 4) && strchr(xt, '(') && xt[strlen(xt) - 1] == ')',
	   "the caption keeps its unit: '%s'", xt);
	img = cairo_image_surface_create_from_png(png);
	{
		const double band_top = r.y - ss_metrics.panel_title_h, right = r.x + r.w;
		double key_left = 1e9;

		/* the key's line samples: saturated pixels in the title band */
		for (int x = (int)r.x; x < (int)right + 60; x++)
			for (int y = (int)band_top; y < (int)r.y; y++)
				if (saturated(px(img, x, y)) && x < key_left)
					key_left = x;
		if (ok(count_px(img, right + 1, right + 56, band_top, r.y - 1, PX_ANY) > 20 &&
		       key_left < right + 56, "the key is drawn over the gutter right of the frame")) {
			ok(key_left > r.x + 20, "... right of the title (its left end at %.0f, the "
			   "frame's at %.0f)", key_left, r.x);
			is_int(dark_px(img, key_left - 8, key_left, band_top, r.y - 1, 0x90), 0,
			       "... with air between the title and the key");
		}
	}
	cairo_surface_destroy(img);
}

/*
 * Phase labels in a frame 60 px wide: a label that fits on neither side of its line is left
 * out, not drawn across the frame's edge (where the clip cut "extract" to "act").
 */
static void test_phase_labels_inside(void)
{
	struct ss_rec_phase ph[4] = {
		{ .ts_ns = 0, .kind = SS_PHASE_MARK, .name = "start" },
		{ .ts_ns = 1000, .kind = SS_PHASE_BEGIN, .name = "drop-caches" },
		{ .ts_ns = 330000000, .kind = SS_PHASE_BEGIN, .name = "extract" },
		{ .ts_ns = 800000000, .kind = SS_PHASE_BEGIN, .name = "sync" },
	};
	struct ss_trace t = { .phases = ph, .nr_phases = 4 };
	struct ss_frame f = { .r = { 90, 40, 61, 200 },
			      .x = { .lo = 0, .hi = 1e9, .p0 = 90, .p1 = 151 } };
	struct ss_label_boxes taken = { 0 };
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 300, 300);
	cairo_t *cr = cairo_create(s);
	int inside = 0;

	ss_phases_draw(cr, &f, &t, 0, true, 0, &taken);
	for (int i = 0; i < taken.nr; i++)
		inside += taken.box[i].x >= f.r.x && taken.box[i].x + taken.box[i].w <= f.r.x + f.r.w;
	ok(taken.nr >= 1, "some phases are labelled (%d)", taken.nr);
	is_int(inside, taken.nr, "every label drawn lies inside the frame");
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

/* A title cut to fit reads as words: after a whole word, or its head, or its short form. */
static void test_fit_words(void)
{
	static const char seeks[] = "Seeks per second (an issued I/O starting > 128 sectors "
				    "from where the last one ended)";
	cairo_surface_t *img = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 8, 8);
	cairo_t *cr = cairo_create(img);

	is_int(ss_text_head(seeks), 16, "a title's head ends before its '('");
	is_int(ss_text_head("Throughput: MB/s"), 10, "... or its ':'");
	is_int(ss_text_head("Latency"), 7, "a title without either is all head");
	/* a name cut to a number of bytes ends at a character's end */
	is_int(ss_text_prefix("extract", 32), 7, "a short name whole");
	is_int(ss_text_prefix("extract", 4), 4, "... ASCII cut at the byte");
	is_int(ss_text_prefix("h\u00e9llo", 2), 1, "'\u00e9' (2 bytes) left out, not halved");
	is_int(ss_text_prefix("h\u00e9llo", 3), 3, "... or whole");
	is_int(ss_text_prefix("\U0001F4BEdisk", 3), 0, "a 4-byte character is not split either");
	is_int(ss_text_prefix("a\xff\xfe" "b", 3), 3, "invalid bytes count one each ('?' drawn)");
	is_str(fit_words(cr, seeks, "Seeks", seeks), seeks, "a title that fits stays whole");
	is_str(fit_words(cr, seeks, "Seeks", "Seeks per second (an issued I/O starting > 12..."),
	       "Seeks per second (an issued I/O starting...",
	       "cut after a whole word, not after the '>' before the number");
	is_str(fit_words(cr, seeks, "Seeks", "Seeks per second (an iss..."), "Seeks per second",
	       "too little beyond the head: the head alone");
	is_str(fit_words(cr, seeks, "Seeks", "Seeks per sec"), "Seeks",
	       "no room for the head: the short form");
	is_str(fit_words(cr, seeks, NULL, "Seeks per sec"), "Seeks...",
	       "without a short form the head is cut after a whole word (not after 'per')");
	is_str(fit_words(cr, "Offset over time", NULL, "Offset ov..."), "Offset...",
	       "a title without a head is cut at any whole word");
	is_str(fit_words(cr, "Device offset of each request over time", "Offset over time",
			 "Device offset of ea..."), "Device offset...",
	       "... not after a small word ('Device offset of...')");
	is_str(fit_words(cr, seeks, "Seeks", "Seeks per second (an is..."), "Seeks per second",
	       "... and not after one at the head's end ('(an...')");
	is_str(fit_words(cr, seeks, "Seeks", "Se"), "", "nothing rather than a bare \"...\"");
	{
		static const char *const forms[3] = { "time since the start of the trace (ms)",
						      "time since the start (ms)", "gamma (ms)" };
		char buf[64];
		double w;

		ss_text_measure(cr, ss_metrics.font_small, false, forms[1], &w, NULL);
		ss_text_first_fit(cr, ss_metrics.font_small, false, forms, 3, w + 0.01, buf,
				  sizeof(buf));
		is_str(buf, forms[1], "a caption's first form that fits");
		ss_text_first_fit(cr, ss_metrics.font_small, false, forms, 3, 1000, buf,
				  sizeof(buf));
		is_str(buf, forms[0], "... the whole one where it fits");
		ss_text_measure(cr, ss_metrics.font_small, false, "gam...", &w, NULL);
		ss_text_first_fit(cr, ss_metrics.font_small, false, forms, 3, w + 0.01, buf,
				  sizeof(buf));
		is_str(buf, "gam...", "... the last one cut where none fits");
	}
	cairo_destroy(cr);
	cairo_surface_destroy(img);
}

int main(void)
{
	if (testdir_make("render-labels"))
		return done_testing();
	test_p99_label();
	test_p99_beside_outlier();
	test_p99_beside_lost();
	test_narrow_legend();
	test_narrow_headers();
	test_low_panel_phases();
	test_narrow_titles();
	test_fit_words();
	test_narrow_key_titles();
	test_phase_labels_inside();
	return done_testing();
}
