// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The plot's zoomed (--x-range, --y-range) and automatic ranges, checked pixel by pixel: every
 * request of a zoomed window lands where the graph's own mapping puts it, to within one cell of
 * the io panel, and nothing outside the window is drawn; the automatic offset range is worked
 * out by hand (the extent of the data I/O plus the graph's air), without flushes or requests
 * outside the time shown.  A wrong offset in either path fails here.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <cairo.h>

#include "tap.h"
#include "testdir.h"
#include "graph.h"
#include "trace_read.h"
#include "trace_write.h"
#include "render_util.h"

#define DEV SS_MKDEV(7, 0)
#define WRITE_RGB 0x0072B2u            /* palette.h: data write */
#define FLUSH_T0 1000000000ull

struct io_spec {
	uint64_t ts;           /* ns, trace clock */
	uint64_t sector;
	uint32_t nr;
	uint16_t flags;
};

static int by_ts(const void *a, const void *b)
{
	const struct io_spec *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* A trace of exactly these requests (sorted here), no zones: t0 is the first one's time. */
static void make_io_trace(const char *path, struct io_spec *io, size_t n)
{
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = DEV, .major = 7, .logical_block_size = 512,
				   .nr_sectors = 1ull << 30 };

	strcpy(d.name, "loop0");
	ss_writer_device(w, &d);
	qsort(io, n, sizeof(*io), by_ts);
	for (size_t i = 0; i < n; i++)
		rt_put_io(w, DEV, io[i].ts, io[i].sector, io[i].nr, io[i].flags, 200000);
	ss_writer_close(w);
}

/* The run of pixels of colour RGB nearest to pixel (x, y) along its row (ALONG_X) or its
 * column, within RADIUS pixels: its first and last pixel.  false if there is none. */
static bool run_at(cairo_surface_t *img, int x, int y, bool along_x, int radius, uint32_t rgb,
		   int *first, int *last)
{
	int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
	int lim = along_x ? w : h, at = along_x ? x : y, hit = -1;

#define PX_AT(i) (along_x ? px(img, (i), y) : px(img, x, (i)))
	for (int d = 0; d <= radius && hit < 0; d++)
		for (int sgn = -1; sgn <= 1 && hit < 0; sgn += 2)
			if (at + sgn * d >= 0 && at + sgn * d < lim && PX_AT(at + sgn * d) == rgb)
				hit = at + sgn * d;
	if (hit < 0)
		return false;
	for (*first = hit; *first > 0 && PX_AT(*first - 1) == rgb; )
		--*first;
	for (*last = hit; *last < lim - 1 && PX_AT(*last + 1) == rgb; )
		++*last;
#undef PX_AT
	return true;
}

/* The write-coloured block of a request near pixel (x, y): its columns x0..x1 (the run along
 * row y) and rows y0..y1 (the run down its middle column).  false if there is none. */
static bool block_at(cairo_surface_t *img, double x, double y, int *x0, int *x1, int *y0,
		     int *y1)
{
	return run_at(img, (int)x, (int)y, true, 5, WRITE_RGB, x0, x1) &&
	       run_at(img, (*x0 + *x1) / 2, (int)y, false, 2, WRITE_RGB, y0, y1);
}

#define ZOOM_T0 FLUSH_T0
#define ZOOM_LO 1000000ull      /* --y-range ZOOM_LO:ZOOM_LO+ZOOM_SECTORS */
#define ZOOM_SECTORS 120ull
#define ZOOM_N 26               /* requests inside the window, two of them across its edges */

/* Request I of the zoom window: 7.3 ms apart from 1.004 s, 8 sectors each. */
static void zoom_request(int i, uint64_t *ts, uint64_t *sector)
{
	*ts = ZOOM_T0 + 1004000000ull + (uint64_t)i * 7300000;
	if (i == 0)
		*sector = ZOOM_LO - 4;                       /* across the bottom edge */
	else if (i == ZOOM_N - 1)
		*sector = ZOOM_LO + ZOOM_SECTORS - 4;        /* across the top edge */
	else
		*sector = ZOOM_LO + 6 + (uint64_t)(i * 29 % 100);
}

/*
 * The io panel zoomed in on 120 sectors and 200 ms (--y-range, --x-range), finer than a pixel
 * per sector: each request must be drawn where the graph's own mapping puts it, to the cell
 * (the panel counts in cells of up to 2 px), and nothing else; the same requests outside the
 * window in time, and requests inside it in time but outside in sectors, must not show.  So a
 * wrong offset of a few sectors, one cell or one pixel, or a lost range start, fails.
 */
static void test_zoom_io(void)
{
	struct io_spec io[4 * ZOOM_N];
	struct rendered rd = { 0 };
	const char *tr = tpath("%s", "zoom.sst"), *png = tpath("%s", "zoom.png");
	struct ss_graph_opts go;
	struct ss_graph *g;
	cairo_surface_t *img;
	struct ss_rect r, box[ZOOM_N];
	char err[256];
	double sector_px;
	size_t n = 0;
	int bad_x = 0, bad_top = 0, bad_bottom = 0, missing = 0;
	long stray = 0;

	io[n++] = (struct io_spec){ ZOOM_T0, 50000000, 8, SS_RW_WRITE };   /* t0, far off */
	for (int i = 0; i < ZOOM_N; i++) {
		uint64_t ts, sector;

		zoom_request(i, &ts, &sector);
		io[n++] = (struct io_spec){ ts, sector, 8, SS_RW_WRITE };
		if (i % 3 == 0)      /* in the time window, wholly outside the sector window */
			io[n++] = (struct io_spec){ ts + 3000000, i % 2 ? ZOOM_LO + 500 : ZOOM_LO - 300,
						    8, SS_RW_WRITE };
		if (i < 12) {        /* in the sector window, before and after the time window */
			io[n++] = (struct io_spec){ ts - 400000000, sector, 8, SS_RW_WRITE };
			io[n++] = (struct io_spec){ ts + 300000000, sector, 8, SS_RW_WRITE };
		}
	}
	io[n++] = (struct io_spec){ ZOOM_T0 + 2000000000ull, 50000000, 8, SS_RW_WRITE };
	make_io_trace(tr, io, n);

	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "io", err, sizeof(err)), 0, "io panel alone");
	go.has_x_range = true;
	go.x_lo_s = 1.0;
	go.x_hi_s = 1.2;
	go.has_y_range = true;
	go.y_lo = ZOOM_LO;
	go.y_hi = ZOOM_LO + ZOOM_SECTORS;
	g = render_into(&rd, &tr, 1, png, 1400, 900, &go);
	if (!g)
		return;
	img = cairo_image_surface_create_from_png(png);
	ss_graph_io_rect(g, 0, &r);
	sector_px = r.h / (double)ZOOM_SECTORS;
	ok(sector_px > 4, "zoomed finer than a pixel per sector (%.2f px per sector)", sector_px);
	for (int i = 0; i < ZOOM_N; i++) {
		uint64_t ts, a, b;
		double x, y_top, y_last, y_bot;
		int x0, x1, y0, y1;

		zoom_request(i, &ts, &a);
		b = a + 8;
		a = a < ZOOM_LO ? ZOOM_LO : a;                  /* what the window shows */
		b = b > ZOOM_LO + ZOOM_SECTORS ? ZOOM_LO + ZOOM_SECTORS : b;
		ss_graph_time_x(g, 0, (double)(ts - ZOOM_T0) / 1e9, &x);
		ss_graph_sector_y(g, 0, b, &y_top);
		ss_graph_sector_y(g, 0, b - 1, &y_last);
		ss_graph_sector_y(g, 0, a, &y_bot);
		box[i] = (struct ss_rect){ x - 3, y_top - 3, 6, y_bot - y_top + 6 };
		if (!block_at(img, x, (y_top + y_bot) / 2, &x0, &x1, &y0, &y1)) {
			missing++;
			printf("# request %d (t %.4f s, sectors %llu..%llu): not drawn near %.1f,%.1f\n",
			       i, (double)(ts - ZOOM_T0) / 1e9, (unsigned long long)a,
			       (unsigned long long)b, x, (y_top + y_bot) / 2);
			continue;
		}
		/*
		 * Pixel p shows the cell (up to 2 px) holding p + 0.5, so: x lies in its request's
		 * cell; the block's bottom is the edge of the cell holding the first sector; its
		 * top the upper edge of the cell where the last sector starts (a sector wider than
		 * a cell colours one row of cells).  The frame's border covers the bottom pixel.
		 */
		if (!(x >= x0 - 0.5 && x < x1 + 1.5)) {
			bad_x++;
			printf("# request %d at x %.2f drawn at %d..%d\n", i, x, x0, x1);
		}
		if (!(y0 >= y_last - 2.5 && y0 <= y_last + 0.5)) {
			bad_top++;
			printf("# request %d top %.2f drawn from %d\n", i, y_last, y0);
		}
		if (!(y1 + 1 >= y_bot - (a == ZOOM_LO ? 1.5 : 0.5) && y1 + 1 <= y_bot + 2.5)) {
			bad_bottom++;
			printf("# request %d bottom %.2f drawn to %d\n", i, y_bot, y1 + 1);
		}
	}
	is_int(missing, 0, "every request in the zoom window drawn");
	is_int(bad_x, 0, "... at its time, to the cell");
	is_int(bad_top, 0, "... its top at its last sector, to the cell");
	is_int(bad_bottom, 0, "... its bottom at its first sector, to the cell");
	/* the plot area inside the frame (no flushes: the strips along the top stay empty) */
	for (int y = (int)ceil(r.y + 1); y < (int)floor(r.y + r.h - 1); y++)
		for (int x = (int)ceil(r.x + 1); x < (int)floor(r.x + r.w - 1); x++) {
			bool in = false;

			for (int i = 0; i < ZOOM_N && !in; i++)
				in = x + 0.5 >= box[i].x && x + 0.5 <= box[i].x + box[i].w &&
				     y + 0.5 >= box[i].y && y + 0.5 <= box[i].y + box[i].h;
			stray += !in && px(img, x, y) == WRITE_RGB;
		}
	is_int(stray, 0, "no write pixel elsewhere: requests outside the window stay out");
	cairo_surface_destroy(img);
	release(&rd);
}

#define AUTO_LO 1000000ull      /* the requests span AUTO_LO .. AUTO_HI */
#define AUTO_HI 1004000ull
#define AUTO_PAD ((AUTO_HI - AUTO_LO) / 40 + 8)     /* graph.c: air above and below */

/*
 * No zones and no --y-range: the sector axis is where the data I/O was (issued requests with
 * data, in the time shown), with a little air.  Worked out by hand: requests from 1000000 to
 * 1004000 give 1000000 - 108 .. 1004000 + 108.  Flushes at sector 0 and requests outside
 * --x-range do not count.  Checked through the graph's mapping and, independently of it, in
 * the pixels of the lowest and the highest request.
 */
static void test_auto_range(bool zoom_x)
{
	const uint64_t lo = AUTO_LO - AUTO_PAD, hi = AUTO_HI + AUTO_PAD;
	struct io_spec io[64];
	struct rendered rd = { 0 };
	const char *tr = tpath("%s", zoom_x ? "auto-x.sst" : "auto.sst");
	const char *png = tpath("%s", zoom_x ? "auto-x.png" : "auto.png");
	struct ss_graph_opts go;
	struct ss_graph *g;
	cairo_surface_t *img;
	struct ss_rect r;
	char err[256];
	double y_lo, y_hi, x0, x1, want, air;
	size_t n = 0;
	int bx0, bx1, top, bottom;
	bool found;

	/* the lowest request first, the highest (ending at AUTO_HI) last; t0 = 1 s */
	for (int i = 0; i < 40; i++)
		io[n++] = (struct io_spec){ FLUSH_T0 + 1000000000ull + (uint64_t)i * 25000000,
					    AUTO_LO + (uint64_t)i * 100, i == 39 ? 100 : 64,
					    SS_RW_WRITE };
	for (int i = 0; i < 5; i++)
		io[n++] = (struct io_spec){ FLUSH_T0 + 1000000000ull + (uint64_t)i * 25000000 +
					    10000000, 0, 0, SS_RW_FLUSH };
	/* with --x-range 1:2 these are outside the time shown: at t 0 and t 3 */
	io[n++] = (struct io_spec){ FLUSH_T0, zoom_x ? 200 : AUTO_LO + 500, 8, SS_RW_READ };
	io[n++] = (struct io_spec){ FLUSH_T0 + 3000000000ull, zoom_x ? 90000000 : AUTO_LO + 600,
				    8, SS_RW_READ };
	make_io_trace(tr, io, n);

	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "io,seeks", err, sizeof(err)), 0, "io and seeks panels");
	if (zoom_x) {
		go.has_x_range = true;
		go.x_lo_s = 1.0;
		go.x_hi_s = 2.0;
	}
	g = render_into(&rd, &tr, 1, png, 1200, 900, &go);
	if (!g)
		return;
	img = cairo_image_surface_create_from_png(png);
	ss_graph_io_rect(g, 0, &r);
	ss_graph_sector_y(g, 0, lo, &y_lo);
	ss_graph_sector_y(g, 0, hi, &y_hi);
	ok(fabs(y_lo - (r.y + r.h)) < 1e-6 && fabs(y_hi - r.y) < 1e-6,
	   "%s: sectors %llu..%llu span the panel (%.3f..%.3f in %.3f..%.3f)",
	   zoom_x ? "--x-range 1:2" : "whole trace", (unsigned long long)lo,
	   (unsigned long long)hi, y_hi, y_lo, r.y, r.y + r.h);
	ss_graph_time_x(g, 0, zoom_x ? 1.0 : 0.0, &x0);
	ss_graph_time_x(g, 0, zoom_x ? 2.0 : 3.0002, &x1);   /* the last completion */
	ok(fabs(x0 - r.x) < 1e-6 && fabs(x1 - (r.x + r.w)) < 1e-6,
	   "... %s span the time axis", zoom_x ? "seconds 1 to 2" : "the trace's 3.0002 seconds");

	/* pixels, from the hand-made range (the cell rules of test_zoom_io): the lowest
	 * request's bottom edge ... */
	air = (double)AUTO_PAD / (double)(hi - lo) * r.h;
	ss_graph_time_x(g, 0, 1.0, &x0);
	want = r.y + r.h - air;
	found = block_at(img, x0, want - 3, &bx0, &bx1, &top, &bottom);
	ok(found && bottom + 1 >= want - 0.5 && bottom + 1 <= want + 2.5,
	   "... the lowest request drawn %.1f px above the bottom (to %d, want %.1f)", air,
	   found ? bottom + 1 : -1, want);
	/* ... and the highest one's top edge */
	ss_graph_time_x(g, 0, 1.0 + 39 * 0.025, &x1);
	want = r.y + air;
	found = block_at(img, x1, want + 3, &bx0, &bx1, &top, &bottom);
	ok(found && top >= want - 2.5 && top <= want + 0.5,
	   "... the highest request drawn %.1f px below the top (from %d, want %.1f)", air,
	   found ? top : -1, want);
	cairo_surface_destroy(img);
	release(&rd);
}

int main(void)
{
	if (testdir_make("render-range"))
		return done_testing();
	test_zoom_io();
	test_auto_range(false);
	test_auto_range(true);
	return done_testing();
}
