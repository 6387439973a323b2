// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Traces of several devices: one io panel per device, each on its own offset axis with its
 * own zones (a device's I/O never lands on another's AG bands), --device keeping one (in the
 * panels and the statistics), ss_trace_find_device's names, and the rows a figure needs.
 */
#include <math.h>
#include <cairo.h>

#include "tap.h"
#include "testdir.h"
#include "graph.h"
#include "stats.h"
#include "table.h"
#include "trace_write.h"
#include "render_util.h"

#define DEV_A SS_MKDEV(7, 0)           /* XFS, four 1 GiB AGs, writes only in AG2 */
#define DEV_B SS_MKDEV(7, 1)           /* no zones, 64 MiB, writes at its start */
#define AG (1ull << 21)                /* sectors in 1 GiB */
#define WRITE_RGB 0x0072B2u            /* palette.h: data write */
#define MS 1000000ull

static void put_io(struct ss_writer *w, uint32_t dev, uint64_t ts, uint64_t sector)
{
	rt_put_io(w, dev, ts, sector, 64, SS_RW_WRITE, 100000);
}

static const char *make_two(void)
{
	const char *path = tpath("two.sst");
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device a = { .dev = DEV_A, .major = 7, .minor = 0, .logical_block_size = 512,
				   .nr_sectors = 4 * AG, .part_nr_sectors = 4 * AG };
	struct ss_rec_device b = { .dev = DEV_B, .major = 7, .minor = 1, .logical_block_size = 512,
				   .nr_sectors = 131072, .part_nr_sectors = 131072 };
	struct ss_rec_capture cap = { .start_ns = 1 * MS, .nr_cpus = 1 };

	strcpy(a.name, "loop0");
	strcpy(a.fstype, "xfs");
	strcpy(a.path, "/mnt/a");
	strcpy(b.name, "loop1");
	ss_writer_device(w, &a);
	ss_writer_device(w, &b);
	for (unsigned i = 0; i < 4; i++) {
		struct ss_rec_zone z = { .dev = DEV_A, .kind = SS_ZONE_AG, .index = i,
					 .start_sector = i * AG, .nr_sectors = AG };

		snprintf(z.label, sizeof(z.label), "AG%u", i);
		ss_writer_zone(w, &z);
	}
	ss_writer_capture(w, &cap);
	/* 300 writes on each: A in AG2, B in its first 20 MiB (which on A's axis is AG0) */
	for (int i = 0; i < 300; i++) {
		put_io(w, DEV_A, 10 * MS + (uint64_t)i * 2 * MS, 2 * AG + 4096 + (uint64_t)i * 1024);
		put_io(w, DEV_B, 11 * MS + (uint64_t)i * 2 * MS, 2048 + (uint64_t)i * 128);
	}
	cap.end_ns = 700 * MS;
	ss_writer_capture(w, &cap);
	ss_writer_close(w);
	return path;
}

static struct ss_graph *draw(struct rendered *rd, const char *tr, const char *device,
			     const char *png)
{
	struct ss_graph_opts go;
	char err[128];

	ss_graph_opts_init(&go);
	ss_panels_parse(&go, "io,seeks", err, sizeof(err));
	go.device = device;
	return render_into(rd, &tr, 1, png, 1400, 1000, &go);
}

/* Write-coloured pixels of row ROW between sectors LO and HI on that row's axis. */
static long writes_in(struct ss_graph *g, const char *png, int row, double lo_frac, double hi_frac)
{
	cairo_surface_t *img = cairo_image_surface_create_from_png(png);
	struct ss_rect r;
	long n = -1;

	if (!ss_graph_panel_rect(g, row, 0, &r))
		n = count_px(img, r.x + 1, r.x + r.w - 1, r.y + r.h * (1 - hi_frac),
			     r.y + r.h * (1 - lo_frac), WRITE_RGB);
	cairo_surface_destroy(img);
	return n;
}

static void test_panels(const char *tr)
{
	struct rendered rd = { 0 };
	const char *png = tpath("two.png"), *one = tpath("one.png");
	struct ss_graph *g = draw(&rd, tr, NULL, png);
	struct ss_rect r0, r1, r2;
	const struct ss_table *tb;

	if (!g)
		return;
	ok(!ss_graph_panel_rect(g, 0, 0, &r0) && !ss_graph_panel_rect(g, 1, 0, &r1) &&
	   !ss_graph_panel_rect(g, 2, 0, &r2) && r0.y < r1.y && r1.y < r2.y &&
	   ss_graph_panel_rect(g, 3, 0, &r2) == -ENOENT,
	   "io,seeks on two devices: three rows (io loop0, io loop1, seeks)");
	/* loop0's axis is its filesystem (4 AGs): its writes in AG2, none in AG0 */
	ok(writes_in(g, png, 0, 0.52, 0.73) > 100, "loop0's panel: its writes in AG2");
	is_int(writes_in(g, png, 0, 0.0, 0.24), 0,
	       "loop0's panel: nothing in AG0 (loop1's low sectors are not drawn there)");
	/* loop1's axis is where its I/O was: the writes fill it */
	ok(writes_in(g, png, 1, 0.05, 0.95) > 100, "loop1's panel: its own writes");
	tb = ss_graph_table(g);
	is_int(tb->rows[0].s->ios, 600, "the table counts both devices");
	release(&rd);

	g = draw(&rd, tr, "loop1", one);
	if (!g)
		return;
	ok(!ss_graph_panel_rect(g, 1, 0, &r1) && ss_graph_panel_rect(g, 2, 0, &r1) == -ENOENT,
	   "--device loop1: one io panel and the seeks");
	ok(writes_in(g, one, 0, 0.05, 0.95) > 100, "--device loop1: loop1's writes drawn");
	tb = ss_graph_table(g);
	is_int(tb->rows[0].s->ios, 300, "--device loop1: the table counts loop1 only");
	release(&rd);
}

/* Per-device bins: each device's own counts, summing to the total's in every bin. */
static void test_device_bins(const char *tr)
{
	char err[128];
	struct ss_trace *t = ss_trace_open(tr, err, sizeof(err));
	struct ss_stats_opts o;
	struct ss_stats *st;
	uint64_t w[2] = { 0 }, sk[2] = { 0 };
	bool sums = true;

	if (!t)
		return;
	ss_stats_opts_init(&o);
	o.bins = o.device_bins = true;
	st = ss_stats_new(t, &o);
	if (ok(st && !ss_stats_run(st, t) && ss_stats_device_bins(st, 1) &&
	       !ss_stats_device_bins(st, 2), "statistics with a set of bins per device")) {
		const struct ss_bins *b = ss_stats_bins(st);

		for (size_t i = 0; i < b->n; i++) {
			const struct ss_bin *d0 = &ss_stats_device_bins(st, 0)->bin[i];
			const struct ss_bin *d1 = &ss_stats_device_bins(st, 1)->bin[i];

			w[0] += d0->writes;
			w[1] += d1->writes;
			sk[0] += d0->seeks;
			sk[1] += d1->seeks;
			sums &= d0->writes + d1->writes == b->bin[i].writes &&
				d0->write_bytes + d1->write_bytes == b->bin[i].write_bytes &&
				d0->seeks + d1->seeks == b->bin[i].seeks;
		}
		ok(w[0] == 300 && w[1] == 300, "300 writes in each device's bins");
		ok(sk[0] == 299 && sk[1] == 0,
		   "loop0's 1024-sector strides are 299 seeks, loop1's contiguous writes none");
		ok(sums, "in every bin the devices add up to the total");
	}
	ss_stats_free(st);
	ss_trace_close(t);
}

/*
 * A trace whose table names one device (its summary is the total's, counted once: stats.c's
 * dev_mirror), in a phase: with only its own events, and with 10 events of a device the table
 * does not name from the 50th write on (the device's summary then counted apart).  Each in a
 * window too.  The device's figures must be its own events' either way.
 */
static void test_one_device(void)
{
	for (int stray = 0; stray < 2; stray++)
		for (int win = 0; win < 2; win++) {
			const char *path = tpath("one.sst");
			struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
			struct ss_rec_device a = { .dev = DEV_A, .major = 7, .minor = 0,
						   .logical_block_size = 512, .nr_sectors = 4 * AG,
						   .part_nr_sectors = 4 * AG };
			struct ss_rec_capture cap = { .start_ns = 1 * MS, .nr_cpus = 1 };
			const struct ss_summary *d, *tot;
			struct ss_stats_opts o;
			struct ss_stats *st;
			struct ss_trace *t;
			char err[128];
			int in = 0, issued = 0;
			/* its queue-depth integral: its own requests' time in flight within the
			 * period (the window, or the capture), the stray device's not included */
			const uint64_t p0 = win ? 60 * MS : 1 * MS, p1 = win ? 160 * MS : 400 * MS;
			double depth = 0;

			strcpy(a.name, "loop0");
			ss_writer_device(w, &a);
			ss_writer_capture(w, &cap);
			ss_writer_phase(w, 5 * MS, SS_PHASE_BEGIN, "extract");
			for (int i = 0; i < 100; i++) {
				uint64_t ts = 10 * MS + (uint64_t)i * 2 * MS;

				put_io(w, DEV_A, ts, 4096 + (uint64_t)i * (i % 3 ? 64 : 4096));
				/* in the window: the issues at [60, 160] ms, the completions 0.1 ms later */
				issued += !win || (ts >= 60 * MS && ts <= 160 * MS);
				in += !win || (ts + 100000 >= 60 * MS && ts + 100000 <= 160 * MS);
				{
					uint64_t lo = ts > p0 ? ts : p0;
					uint64_t hi = ts + 100000 < p1 ? ts + 100000 : p1;

					depth += hi > lo ? (double)(hi - lo) : 0;
				}
				if (stray && i >= 50 && i < 60)
					put_io(w, DEV_B, ts + MS, 8 * AG + (uint64_t)i * 64);
			}
			ss_writer_phase(w, 300 * MS, SS_PHASE_END, "extract");
			cap.end_ns = 400 * MS;
			ss_writer_capture(w, &cap);
			ss_writer_close(w);
			if (!(t = ss_trace_open(path, err, sizeof(err))))
				continue;
			ss_stats_opts_init(&o);
			o.window = win;
			o.window_start_ns = 60 * MS;
			o.window_end_ns = 160 * MS;
			st = ss_stats_new(t, &o);
			if (!ok(st && !ss_stats_run(st, t) && ss_stats_nr_devices(st) == 1,
				"one device%s%s: a pass", stray ? ", stray events" : "",
				win ? ", a window" : "")) {
				ss_stats_free(st);
				ss_trace_close(t);
				continue;
			}
			d = &ss_stats_device(st, 0)->s;
			tot = ss_stats_total(st);
			ok(d->ios == (uint64_t)in && d->writes == (uint64_t)in &&
			   d->write_bytes == (uint64_t)in * 64 * 512 &&
			   d->events == (uint64_t)(in + issued) &&
			   d->lat.count == (uint64_t)in && d->issues == (uint64_t)issued,
			   "  its own %d writes: %llu I/Os, %llu events, %llu latencies", in,
			   (unsigned long long)d->ios, (unsigned long long)d->events,
			   (unsigned long long)d->lat.count);
			ok(tot->ios == d->ios + (stray ? 10 : 0),
			   "  the total: %llu I/Os (its and the stray device's)",
			   (unsigned long long)tot->ios);
			ok(fabs(d->depth_ns - depth) <= 1e-9 * depth,
			   "  its depth integral: %.0f ns (want %.0f)", d->depth_ns, depth);
			ok(d->max_depth >= 1 && d->max_depth <= tot->max_depth && d->seeks <= d->issues &&
			   d->seeks > 0, "  its depth and seeks (%llu of %llu)",
			   (unsigned long long)d->seeks, (unsigned long long)d->issues);
			if (!stray)
				ok(d->seeks == tot->seeks && d->max_depth == tot->max_depth &&
				   d->lat.sum_ns == tot->lat.sum_ns &&
				   fabs(d->depth_ns - tot->depth_ns) <= 1e-9 * tot->depth_ns,
				   "  alone on the device: its figures are the total's");
			ss_stats_free(st);
			ss_trace_close(t);
		}
}

/* The throughput panel (row 2 under two io rows, or row 1 under one) with --device or not. */
static void test_series(const char *tr)
{
	struct rendered rd = { 0 };
	const char *png = tpath("series.png"), *one = tpath("series1.png");
	struct ss_graph_opts go;
	struct ss_graph *g;
	cairo_surface_t *img;
	struct ss_rect r;
	char err[128];

	ss_graph_opts_init(&go);
	ss_panels_parse(&go, "io,tput", err, sizeof(err));
	if (!(g = render_into(&rd, &tr, 1, png, 1200, 900, &go)))
		return;
	img = cairo_image_surface_create_from_png(png);
	if (!ss_graph_panel_rect(g, 2, 0, &r)) {
		/* both devices write 16.4 MB/s: the two lines near the top of the scale */
		ok(count_px(img, r.x + r.w * 0.1, r.x + r.w * 0.8, r.y, r.y + r.h * 0.5, 0x0072B2) > 50,
		   "throughput: loop0's line (first device colour)");
		ok(count_px(img, r.x + r.w * 0.1, r.x + r.w * 0.8, r.y, r.y + r.h * 0.5, 0xE69F00) > 50,
		   "throughput: loop1's line (second device colour)");
	}
	cairo_surface_destroy(img);
	release(&rd);
	go.device = "loop1";
	if (!(g = render_into(&rd, &tr, 1, one, 1200, 900, &go)))
		return;
	img = cairo_image_surface_create_from_png(one);
	if (!ss_graph_panel_rect(g, 1, 0, &r))
		ok(count_px(img, r.x + r.w * 0.1, r.x + r.w * 0.8, r.y, r.y + r.h * 0.5, 0x0072B2) > 50 &&
		   count_px(img, r.x + r.w * 0.1, r.x + r.w * 0.8, r.y, r.y + r.h * 0.8, 0xE69F00) == 0,
		   "--device loop1: the class lines of loop1 (its writes; no second device)");
	cairo_surface_destroy(img);
	release(&rd);
}

static void test_names(const char *tr)
{
	char err[128], list[200];
	struct ss_trace *t = ss_trace_open(tr, err, sizeof(err));
	struct ss_graph_opts go;
	struct ss_trace *ts[1] = { t };

	if (!t)
		return;
	ok(ss_trace_find_device(t, "loop1") == &t->devices[1], "found by kernel name");
	ok(ss_trace_find_device(t, "7:0") == &t->devices[0], "found by MAJ:MIN");
	ok(ss_trace_find_device(t, "/mnt/a") == &t->devices[0], "found by recorded path");
	ok(ss_trace_find_device(t, "7:2") == NULL && ss_trace_find_device(t, "sda") == NULL,
	   "an unknown device is not found");
	ss_trace_devices_list(t, list, sizeof(list));
	is_str(list, "its devices: loop0 7:0, loop1 7:1", "devices listed for messages");
	ss_graph_opts_init(&go);
	ss_panels_parse(&go, "io,seeks,dist", err, sizeof(err));
	is_int(ss_graph_rows_for(&go, ts, 1), 4, "rows: an io panel per device and two more");
	go.device = "loop0";
	is_int(ss_graph_rows_for(&go, ts, 1), 3, "rows with --device: one io panel");
	ss_trace_close(t);
}

/*
 * The io rows' titles name their devices, whole where there is room, and in a narrow picture
 * the device keeps its place before the title does ("I/O  [loop0 ...]").
 */
static void test_row_titles(const char *tr)
{
	static const int width[2] = { 1400, 360 };
	struct rendered rd = { 0 };
	struct ss_graph_opts go;
	char err[128] = "", t[2][400];

	ss_graph_opts_init(&go);
	is_int(ss_panels_parse(&go, "io,seeks", err, sizeof(err)), 0, "io,seeks (%s)", err);
	for (int k = 0; k < 2; k++) {
		cairo_surface_t *s;
		cairo_t *cr;
		bool got;

		if (!render_into(&rd, &tr, 1, tpath("titles-%d.png", width[k]), width[k], 700, &go))
			return;
		s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width[k], 700);
		cr = cairo_create(s);
		got = !ss_graph_panel_title(rd.g, cr, 0, 0, t[0], sizeof(t[0])) &&
		      !ss_graph_panel_title(rd.g, cr, 1, 0, t[1], sizeof(t[1]));
		cairo_destroy(cr);
		cairo_surface_destroy(s);
		release(&rd);
		if (!ok(got, "%d px: the io rows' titles", width[k]))
			continue;
		if (k == 0) {
			ok(strstr(t[0], "[loop0 ") && strstr(t[0], "4 AGs]") &&
			   !strncmp(t[0], "Where the I/O went", 18),
			   "1400 px: '%s' (the device whole)", t[0]);
			ok(strstr(t[1], "[loop1 ") != NULL, "... '%s'", t[1]);
		} else {
			ok(!strncmp(t[0], "I/O  [loop0", 11), "360 px: '%s' (the device first)",
			   t[0]);
			ok(!strncmp(t[1], "I/O  [loop1", 11), "... '%s'", t[1]);
		}
	}
}

int main(void)
{
	const char *tr;

	if (testdir_make("devices"))
		return done_testing();
	tr = make_two();
	test_panels(tr);
	test_device_bins(tr);
	test_series(tr);
	test_names(tr);
	test_row_titles(tr);
	test_one_device();
	return done_testing();
}
