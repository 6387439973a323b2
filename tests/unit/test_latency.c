// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Latency that tells the truth: a lost-event period (SS_REC_LOST) read back, merged, shaded
 * on the time panels and kept out of the latency figures (the requests in flight across it
 * counted apart); discards timed apart from reads and writes; a 449 ms outlier beside 0.2 ms
 * reads drawn on the log axis without flattening them, and marked.
 */
#include <math.h>
#include <stdio.h>
#include <cairo.h>

#include "tap.h"
#include "testdir.h"
#include "graph.h"
#include "stats.h"
#include "trace_write.h"
#include "render_util.h"

#define DEV SS_MKDEV(7, 0)
#define MS 1000000ull
#define US 1000ull
#define LOST_RGB 0xF4D6CCu             /* palette.h: ss_col_lost */
#define MAX_RGB 0xE69F00u              /* panel_series.c: the latency max line and marks */
#define MEAN_RGB 0x0072B2u
/* reads every 2 ms from 10 to 990 ms, 200 us each; requests issued 800..840 ms are in flight
 * across the lost period 800..840 ms (issue <= 840, completion >= 800): 21 of them */
#define LOST_FROM (800 * MS)
#define LOST_TO (840 * MS)
#define NR_READS 491
#define NR_IN_LOST 21

static const char *make_trace(void)
{
	const char *path = tpath("lat.sst");
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = DEV, .major = 7, .minor = 0, .logical_block_size = 512,
				   .nr_sectors = 1 << 21, .part_nr_sectors = 1 << 21 };
	struct ss_rec_capture cap = { .start_ns = 1 * MS, .nr_cpus = 2 };
	/* two CPUs lost events over overlapping spans: one period 800..840 ms */
	struct ss_rec_lost l1 = { .from_ns = LOST_FROM, .to_ns = 830 * MS, .count = 30, .cpu = 0 };
	struct ss_rec_lost l2 = { .from_ns = 820 * MS, .to_ns = LOST_TO, .count = 12, .cpu = 1 };
	/* and a third at the very start of CPU 1 (from 0: since the capture began) */
	struct ss_rec_lost l3 = { .from_ns = 0, .to_ns = 2 * MS, .count = 1, .cpu = 1 };

	strcpy(d.name, "loop0");
	ss_writer_device(w, &d);
	ss_writer_capture(w, &cap);
	ss_writer_lost(w, &l2);      /* out of order: the reader sorts them */
	ss_writer_lost(w, &l1);
	ss_writer_lost(w, &l3);
	for (int i = 0; i < NR_READS; i++) {
		uint64_t ts = 10 * MS + (uint64_t)i * 2 * MS;

		if (i == 145)        /* 300 ms: the outlier, completes at 749 ms */
			rt_put_io(w, DEV, ts, 1 << 20, 8, SS_RW_READ, 449 * MS);
		else
			rt_put_io(w, DEV, ts, 8 * (uint64_t)i, 8, SS_RW_READ, 200 * US);
	}
	/* a 1 GiB discard of 50 ms at 101 ms: timed apart from reads and writes */
	rt_put_io(w, DEV, 101 * MS, 1 << 20, 1 << 21, SS_RW_DISCARD, 50 * MS);
	cap.end_ns = 1000 * MS;
	ss_writer_capture(w, &cap);
	ss_writer_close(w);
	return path;
}

static void test_reader(const char *tr)
{
	char err[128];
	struct ss_trace *t = ss_trace_open(tr, err, sizeof(err));
	uint64_t span, placed;

	ok(t != NULL, "trace opens (%s)", t ? "" : err);
	if (!t)
		return;
	is_int(t->nr_lost, 2, "three LOST records, two overlapping: two periods");
	ok(t->nr_lost == 2 && t->lost[0].from_ns == 1 * MS && t->lost[0].to_ns == 2 * MS,
	   "a span 'since the start' begins at the capture start");
	ok(t->nr_lost == 2 && t->lost[1].from_ns == LOST_FROM && t->lost[1].to_ns == LOST_TO &&
	   t->lost[1].count == 42, "the overlapping spans merged: 800..840 ms, 42 events");
	placed = ss_trace_lost_placed(t, &span);
	ok(placed == 43 && span == 41 * MS, "43 events placed over 41 ms");
	ok(ss_trace_lost_overlaps(t, 790 * MS, 800 * MS) && ss_trace_lost_overlaps(t, 810 * MS, 811 * MS) &&
	   ss_trace_lost_overlaps(t, 700 * MS, 900 * MS) && !ss_trace_lost_overlaps(t, 841 * MS, 900 * MS) &&
	   !ss_trace_lost_overlaps(t, 3 * MS, 799 * MS), "overlap: both ends count, outside does not");
	ss_trace_close(t);
}

static void test_stats(const char *tr)
{
	char err[128];
	struct ss_trace *t = ss_trace_open(tr, err, sizeof(err));
	struct ss_stats_opts o;
	struct ss_stats *st;
	const struct ss_summary *s;
	const struct ss_bins *b;
	long in_lost;

	if (!t)
		return;
	ss_stats_opts_init(&o);
	o.bins = true;
	o.bin_width_ns = 10 * MS;
	st = ss_stats_new(t, &o);
	ok(st && !ss_stats_run(st, t), "statistics run");
	if (!st) {
		ss_trace_close(t);
		return;
	}
	s = ss_stats_total(st);
	is_int(s->reads, NR_READS, "every read counts as an I/O, lost period or not");
	is_int(s->lat_lost, NR_IN_LOST, "the reads in flight across the lost period have no latency");
	is_int(s->lat.count, NR_READS - NR_IN_LOST, "the others are timed");
	is_int(s->lat.max_ns, 449 * MS, "the outlier is the read/write max");
	is_int(s->discard_lat.count, 1, "the discard is timed apart");
	is_int(s->discard_lat.max_ns, 50 * MS, "its latency is its own");
	ok(s->lat_p50_ns >= 190 * US && s->lat_p50_ns <= 210 * US, "p50 of reads is 200 us");
	b = ss_stats_bins(st);
	in_lost = ss_bins_index(b, 820 * MS);
	ok(in_lost >= 0 && b->bin[in_lost].lat_count == 0 && b->bin[in_lost].reads == 5,
	   "a bin inside the period: its reads counted, none timed");
	ok(b->bin[ss_bins_index(b, 105 * MS)].lat_max_ns < MS,
	   "the discard's 50 ms is not in the read/write bins");
	ss_stats_free(st);
	ss_trace_close(t);
}

/* Pixels of RGB in panel ROW between fractions LO and HI of its height (0: bottom), and x
 * between times X0 and X1 (ms on the panel's axis: the trace starts at 1 ms). */
static long panel_px(struct ss_graph *g, cairo_surface_t *img, int row, double x0_ms,
		     double x1_ms, double lo, double hi, uint32_t rgb)
{
	struct ss_rect r;
	double span = 999;   /* ms: capture 1..1000 */

	if (ss_graph_panel_rect(g, row, 0, &r))
		return -1;
	return count_px(img, r.x + r.w * (x0_ms - 1) / span, r.x + r.w * (x1_ms - 1) / span,
			r.y + r.h * (1 - hi), r.y + r.h * (1 - lo), rgb);
}

static void test_plot(const char *tr)
{
	struct rendered rd = { 0 };
	const char *png = tpath("lat.png");
	struct ss_graph_opts go;
	struct ss_graph *g;
	cairo_surface_t *img;
	char err[128];

	ss_graph_opts_init(&go);
	ok(!ss_panels_parse(&go, "io,seeks,lat", err, sizeof(err)), "panels io,seeks,lat");
	g = render_into(&rd, &tr, 1, png, 1200, 900, &go);
	if (!g)
		return;
	img = cairo_image_surface_create_from_png(png);
	for (int row = 0; row < 3; row++) {
		ok(panel_px(g, img, row, 805, 835, 0.1, 0.9, LOST_RGB) > 100,
		   "panel %d: the lost period is shaded", row);
		is_int(panel_px(g, img, row, 400, 700, 0.1, 0.9, LOST_RGB), 0,
		       "panel %d: nothing shaded where nothing was lost", row);
	}
	/* the log axis: 0.1 .. 1000 ms; the 449 ms outlier near the top, marked; the 0.2 ms
	 * reads well above the bottom edge instead of squashed onto it */
	ok(panel_px(g, img, 2, 740, 760, 0.75, 1.0, MAX_RGB) > 10,
	   "the outlier's mark is drawn, near the top of the latency panel");
	ok(panel_px(g, img, 2, 400, 700, 0.03, 0.25, MEAN_RGB) > 50,
	   "the 0.2 ms reads are drawn clear of the bottom (not flattened by the outlier)");
	is_int(panel_px(g, img, 2, 812, 828, 0.03, 1.0, MEAN_RGB), 0,
	       "no latency drawn inside the lost period");
	cairo_surface_destroy(img);
	release(&rd);
}

int main(void)
{
	const char *tr;

	if (testdir_make("latency"))
		return done_testing();
	tr = make_trace();
	test_reader(tr);
	test_stats(tr);
	test_plot(tr);
	return done_testing();
}
