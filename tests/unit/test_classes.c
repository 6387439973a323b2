// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request classes end to end on synthetic events: the rwbs rule (model.h), their counts and
 * seeks in the statistics (discards are not seeks, write-zeroes are), and their pixels in the
 * io panel — each class in its colour where its requests are, the legend listing only the
 * classes drawn, a 50/50 read/write mix not drawn all in one colour, a lone request visible,
 * every AG label beside a log band, a log band at the edge still a few pixels tall, and no
 * process colour (plot --color-by process) that of the flush or FUA strips.
 * (Their report and JSON figures are checked in test_report.c.)
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "tap.h"
#include "testdir.h"
#include "seekscope/model.h"
#include "stats.h"
#include "palette.h"
#include "trace_write.h"
#include "render_util.h"

#define DEV SS_MKDEV(7, 0)
#define MS 1000000ull
#define S  1000000000ull
#define GIB_SECT 2097152ull

/* Shortened class names keep what tells them apart: "d." is data, dir or discard. */
static void test_unique_len(void)
{
	static const struct { enum ss_class c; int len; } cases[] = {
		{ SS_CLASS_FILE_DATA, 2 }, { SS_CLASS_DATA, 2 }, { SS_CLASS_DIR, 3 },
		{ SS_CLASS_META, 1 }, { SS_CLASS_JOURNAL, 1 }, { SS_CLASS_FLUSH, 2 },
		{ SS_CLASS_DISCARD, 3 }, { SS_CLASS_OTHER, 1 },
	};

	is_int((int)(sizeof(cases) / sizeof(cases[0])), SS_NR_CLASSES, "every class is tried");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_int(ss_class_unique_len(cases[i].c), cases[i].len, "%s: its first %d letters",
		       ss_class_table[cases[i].c].name, cases[i].len);
	for (int a = 0; a < SS_NR_CLASSES; a++)
		for (int b = 0; b < SS_NR_CLASSES; b++)
			if (a != b && !strncmp(ss_class_table[a].name, ss_class_table[b].name,
					       (size_t)ss_class_unique_len(a)))
				ok(0, "%s cut to %d letters reads as %s", ss_class_table[a].name,
				   ss_class_unique_len(a), ss_class_table[b].name);
}

/* ---- the rule ---- */

static void test_rule(void)
{
	static const struct { const char *rwbs; bool data; enum ss_op op; } cases[] = {
		{ "R", true, SS_OP_READ }, { "RA", true, SS_OP_READ }, { "RM", true, SS_OP_READ },
		{ "WS", true, SS_OP_WRITE }, { "WFS", true, SS_OP_WRITE },
		{ "FWS", true, SS_OP_WRITE },          /* preflush + data: a write */
		{ "FWS", false, SS_OP_FLUSH },         /* preflush, no data: a flush */
		{ "F", false, SS_OP_FLUSH }, { "FF", false, SS_OP_FLUSH },
		{ "D", true, SS_OP_DISCARD }, { "DS", true, SS_OP_DISCARD },
		{ "DE", true, SS_OP_OTHER },           /* secure erase: the device must erase */
		{ "N", true, SS_OP_OTHER }, { "NS", true, SS_OP_OTHER },
		{ "", true, SS_OP_OTHER },             /* an op we cannot read is not a read */
	};
	struct ss_event wz = { .sector = 4096, .nr_sector = 2048, .flags = SS_RW_NONE | SS_RW_SYNC };
	struct ss_event reset = { .sector = 4096, .nr_sector = 0, .flags = SS_RW_NONE };

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		is_int(ss_op_of(ss_rwbs_parse(cases[i].rwbs, 8), cases[i].data), cases[i].op,
		       "rwbs '%s'%s is %s", cases[i].rwbs, cases[i].data ? "" : " without data",
		       ss_ops[cases[i].op].name);
	ok(ss_event_has_data(&wz), "a write-zeroes request covers sectors");
	ok(!ss_event_has_data(&reset), "a zone reset (N, no length) does not");
	ok(ss_ops[SS_OP_READ].seeks && ss_ops[SS_OP_WRITE].seeks && ss_ops[SS_OP_OTHER].seeks,
	   "reads, writes and other ops are evaluated for seeks");
	ok(!ss_ops[SS_OP_DISCARD].seeks && !ss_ops[SS_OP_FLUSH].seeks,
	   "discards and flushes are not");
}

/* ---- counts and seeks ---- */

static void io(struct ss_event *ev, size_t *n, uint64_t ts, uint64_t sector, uint32_t nr,
	       uint16_t flags)
{
	struct ss_event e = { .ts_ns = ts, .sector = sector, .nr_sector = nr, .bytes = nr * 512,
			      .dev = DEV, .type = SS_EV_ISSUE, .flags = flags };

	ev[(*n)++] = e;
	e.ts_ns += MS / 2;
	e.type = SS_EV_COMPLETE;
	ev[(*n)++] = e;
}

static void test_counts(void)
{
	struct ss_event ev[16];
	struct ss_stats_opts o;
	const struct ss_summary *s;
	const struct ss_bins *b;
	struct ss_stats *st;
	size_t n = 0;

	io(ev, &n, 0 * MS, 1000, 8, SS_RW_WRITE);                   /* first: no seek */
	io(ev, &n, 1 * MS, 1008, 8, SS_RW_READ);                    /* contiguous */
	io(ev, &n, 2 * MS, 500000, 2048, SS_RW_DISCARD);            /* not evaluated */
	io(ev, &n, 3 * MS, 1016, 4096, SS_RW_NONE | SS_RW_SYNC);    /* write-zeroes, contiguous
								       with the read: no seek */
	io(ev, &n, 4 * MS, 900000, 8, SS_RW_NONE);                  /* seek */
	io(ev, &n, 5 * MS, 2000000, 16, SS_RW_DISCARD | SS_RW_SECURE);  /* seek */
	io(ev, &n, 6 * MS, 3000000, 0, SS_RW_NONE);                 /* zone reset: no sectors */
	ss_stats_opts_init(&o);
	o.bins = true;
	o.bin_start_ns = 0;
	o.bin_end_ns = 10 * MS;
	o.bin_width_ns = 10 * MS;
	st = ss_stats_new(NULL, &o);
	if (!ok(st != NULL, "stats over the classes' events"))
		return;
	is_int(ss_stats_feed(st, ev, n), 0, "fed");
	ss_stats_finish(st);
	s = ss_stats_total(st);
	is_int(s->reads, 1, "1 read");
	is_int(s->writes, 1, "1 write");
	is_int(s->discards, 1, "1 discard, not folded into writes");
	is_int(s->discard_bytes, 2048 * 512, "discard bytes");
	is_int(s->others, 3, "3 other: two write-zeroes-like N and a secure erase");
	is_int(s->other_bytes, (4096 + 8 + 16) * 512, "other bytes");
	is_int(s->read_bytes, 8 * 512, "read bytes: the read only");
	is_int(s->write_bytes, 8 * 512, "write bytes: the write only");
	is_int(s->ios, 6, "I/Os: every class with sectors");
	is_int(s->issues, 5, "seeks evaluated on the 5 requests that move a head");
	is_int(s->seeks, 2, "2 seeks: the discard neither counts nor moves the position");
	is_int(s->lat.count, 2, "read/write latency: the read and the write only");
	ok(s->discard_lat.count == 1 && s->other_lat.count == 3,
	   "discards and other ops timed apart (1 and 3)");
	ok(fabs(s->discard_mb_s - 2048 * 512 / 1e6 / 0.0065) < 1e-6, "discard MB/s");
	ok(fabs(s->other_mb_s - 4120 * 512 / 1e6 / 0.0065) < 1e-6, "other MB/s");
	b = ss_stats_bins(st);
	if (ok(b && b->n == 1, "one bin")) {
		is_int(b->bin[0].discards, 1, "bin: 1 discard");
		is_int(b->bin[0].others, 3, "bin: 3 other");
		ok(fabs(ss_bins_value(b, 0, SS_BM_OP_MB_S(SS_OP_DISCARD)) - 2048 * 512 / 1e6 / 0.01) <
		   1e-9, "bin: discard MB/s");
		ok(fabs(ss_bins_value(b, 0, SS_BM_OP_IOPS(SS_OP_OTHER)) - 300) < 1e-9,
		   "bin: other IOPS");
		ok(fabs(ss_bins_value(b, 0, SS_BM_IOPS) - 600) < 1e-9, "bin: IOPS of every class");
		ok(fabs(ss_bins_value(b, 0, SS_BM_MB_S) - 16 * 512 / 1e6 / 0.01) < 1e-9,
		   "bin: MB/s is reads + writes");
	}
	ss_stats_free(st);
}

/* ---- pictures ---- */

#define AG_SECT (2 * GIB_SECT)
#define FS0 2048ull
#define T0 S

struct zone_spec {
	int nr_ags;
	uint64_t ag_sectors;
	uint64_t log_start, log_sectors;     /* log_sectors 0: no log */
};

struct req {
	uint64_t ts, sector;
	uint32_t nr;
	uint16_t flags;
};

static int by_ts(const void *a, const void *b)
{
	const struct req *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static void write_trace(const char *path, const struct zone_spec *z, struct req *r, size_t n)
{
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	uint64_t size = FS0 + (uint64_t)z->nr_ags * z->ag_sectors;
	struct ss_rec_device d = { .dev = DEV, .major = 7, .logical_block_size = 512,
				   .nr_sectors = size, .part_start = FS0,
				   .part_nr_sectors = size - FS0, .flags = SS_DEV_PARTITION };
	struct ss_event e[2048];
	size_t k = 0;

	strcpy(d.name, "loop0");
	strcpy(d.fstype, "xfs");
	ss_writer_device(w, &d);
	for (int i = 0; i < z->nr_ags; i++) {
		struct ss_rec_zone zone = { .dev = DEV, .kind = SS_ZONE_AG, .index = (uint32_t)i,
					    .start_sector = FS0 + (uint64_t)i * z->ag_sectors,
					    .nr_sectors = z->ag_sectors };

		snprintf(zone.label, sizeof(zone.label), "AG%d", i);
		ss_writer_zone(w, &zone);
	}
	if (z->log_sectors) {
		struct ss_rec_zone log = { .dev = DEV, .kind = SS_ZONE_LOG,
					   .start_sector = z->log_start, .nr_sectors = z->log_sectors };

		strcpy(log.label, "log");
		ss_writer_zone(w, &log);
	}
	qsort(r, n, sizeof(*r), by_ts);
	for (size_t i = 0; i < n; i++) {
		size_t k0 = k;

		io(e, &k, r[i].ts, r[i].sector, r[i].nr, r[i].flags);
		e[k0 + 1].ts_ns = r[i].ts + 50000;       /* completes before the next issue */
		if (k + 2 > sizeof(e) / sizeof(e[0])) {
			ss_writer_events(w, e, k);
			k = 0;
		}
	}
	ss_writer_events(w, e, k);
	ss_writer_close(w);
}

static uint32_t rgb_of(enum ss_io_class c)
{
	struct ss_rgb v = ss_classes[c].rgb;

	return (uint32_t)lround(v.r * 255) << 16 | (uint32_t)lround(v.g * 255) << 8 |
	       (uint32_t)lround(v.b * 255);
}

/* Pixels of class C's colour in x0..x1 x y0..y1. */
static long class_px(cairo_surface_t *img, double x0, double x1, double y0, double y1,
		     enum ss_io_class c)
{
	return count_px(img, x0, x1, y0, y1, rgb_of(c));
}

/* Pixels of class C's colour above the io panel: the legend's swatch (text is not pure). */
static long legend_px(cairo_surface_t *img, const struct ss_rect *r, enum ss_io_class c)
{
	return class_px(img, 0, cairo_image_surface_get_width(img), 0, r->y - 2, c);
}

/* Write and draw a trace (PANELS NULL: the default set) and read the picture back. */
static struct ss_graph *draw(struct rendered *rd, const char *name, const struct zone_spec *z,
			     struct req *r, size_t n, cairo_surface_t **img, const char *panels)
{
	const char *tr = tpath("%s.sst", name), *png = tpath("%s.png", name);
	struct ss_graph_opts go;
	struct ss_graph *g;
	char err[256];

	write_trace(tr, z, r, n);
	ss_graph_opts_init(&go);
	ss_panels_set_default(&go);
	if (panels && ss_panels_parse(&go, panels, err, sizeof(err)))
		return NULL;
	g = render_into(rd, &tr, 1, png, 1400, 900, &go);
	*img = g ? cairo_image_surface_create_from_png(png) : NULL;
	return g;
}

/*
 * One class per region of the device and of time: each colour must show in its region and
 * nowhere else in the panel, and the legend must list exactly the classes drawn.
 */
static void test_each_class(void)
{
	static const struct { enum ss_io_class cls; uint16_t flags; } classes[] = {
		{ SS_CLS_WRITE, SS_RW_WRITE }, { SS_CLS_READ, SS_RW_READ },
		{ SS_CLS_META, SS_RW_WRITE | SS_RW_META }, { SS_CLS_JOURNAL, SS_RW_WRITE },
		{ SS_CLS_DISCARD, SS_RW_DISCARD }, { SS_CLS_OTHER, SS_RW_NONE | SS_RW_SYNC },
	};
	const int nc = (int)(sizeof(classes) / sizeof(classes[0]));
	/* 6 classes in 6 bands of 1 GiB; the journal band is the log zone */
	struct zone_spec z = { 4, AG_SECT, FS0 + 3 * GIB_SECT, GIB_SECT };
	struct req r[6 * 100], w_only[100];
	struct rendered rd = { 0 };
	cairo_surface_t *img;
	struct ss_graph *g;
	struct ss_rect rect;
	size_t n = 0;

	for (int c = 0; c < nc; c++)
		for (int i = 0; i < 100; i++)
			r[n++] = (struct req){ T0 + (uint64_t)c * 300 * MS + (uint64_t)i * MS,
					       FS0 + (uint64_t)c * GIB_SECT + (uint64_t)i * 8192, 2048,
					       classes[c].flags };
	if (!(g = draw(&rd, "classes", &z, r, n, &img, NULL)))
		return;
	ss_graph_io_rect(g, 0, &rect);
	for (int c = 0; c < nc; c++) {
		double x0, x1, y_lo, y_hi;
		long in, out;

		ss_graph_time_x(g, 0, (double)c * 0.3, &x0);
		ss_graph_time_x(g, 0, (double)c * 0.3 + 0.1, &x1);
		ss_graph_sector_y(g, 0, FS0 + (uint64_t)c * GIB_SECT, &y_lo);
		ss_graph_sector_y(g, 0, FS0 + (uint64_t)(c + 1) * GIB_SECT, &y_hi);
		in = class_px(img, x0 - 3, x1 + 3, y_hi - 3, y_lo + 3, classes[c].cls);
		out = class_px(img, rect.x, rect.x + rect.w, rect.y, rect.y + rect.h,
			       classes[c].cls) - in;
		ok(in > 100, "%s: %ld pixels of its colour where its requests are",
		   ss_classes[classes[c].cls].name, in);
		is_int(out, 0, "%s: none elsewhere in the panel", ss_classes[classes[c].cls].name);
		ok(legend_px(img, &rect, classes[c].cls) > 50, "%s: in the legend",
		   ss_classes[classes[c].cls].name);
	}
	ok(legend_px(img, &rect, SS_CLS_FLUSH) == 0 && legend_px(img, &rect, SS_CLS_FUA) == 0,
	   "no flush or FUA in the legend of a trace without them");
	cairo_surface_destroy(img);
	release(&rd);

	for (int i = 0; i < 100; i++)
		w_only[i] = (struct req){ T0 + (uint64_t)i * MS, FS0 + (uint64_t)i * 8192, 8,
					  SS_RW_WRITE };
	z.log_sectors = 0;
	if (!(g = draw(&rd, "writes", &z, w_only, 100, &img, NULL)))
		return;
	ss_graph_io_rect(g, 0, &rect);
	ok(legend_px(img, &rect, SS_CLS_WRITE) > 50, "write-only trace: writes in the legend");
	for (int c = 0; c < SS_CLS_MAX; c++)
		if (c != SS_CLS_WRITE)
			is_int(legend_px(img, &rect, (enum ss_io_class)c), 0,
			       "write-only trace: no '%s' in the legend", ss_classes[c].name);
	cairo_surface_destroy(img);
	release(&rd);
}

/* A 50/50 random read/write mix over the same sectors, dense enough that most cells hold both
 * classes: both colours, in about equal parts. */
static void test_mix(void)
{
	struct zone_spec z = { 1, 2 * GIB_SECT, 0, 0 };
	static struct req r[100000];
	struct rendered rd = { 0 };
	cairo_surface_t *img;
	struct ss_graph *g;
	struct ss_rect rect;
	uint64_t x = 88172645463325252ull;
	long wr, rdpx;

	for (int i = 0; i < 100000; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		r[i] = (struct req){ T0 + (uint64_t)i * 20000, FS0 + x % (2 * GIB_SECT - 8), 8,
				     (i & 1) ? SS_RW_READ : SS_RW_WRITE };
	}
	if (!(g = draw(&rd, "mix", &z, r, 100000, &img, NULL)))
		return;
	ss_graph_io_rect(g, 0, &rect);
	wr = class_px(img, rect.x, rect.x + rect.w, rect.y, rect.y + rect.h, SS_CLS_WRITE);
	rdpx = class_px(img, rect.x, rect.x + rect.w, rect.y, rect.y + rect.h, SS_CLS_READ);
	ok(wr > 10000 && rdpx > 10000, "both classes drawn (%ld write, %ld read pixels)", wr, rdpx);
	ok(wr > 0.85 * rdpx && rdpx > 0.85 * wr,
	   "in about equal parts: neither hides the other (%ld vs %ld)", wr, rdpx);
	cairo_surface_destroy(img);
	release(&rd);
}

/* One 4 KiB write alone in the panel: its exact cell plus a visible halo around it. */
static void test_lone(void)
{
	struct zone_spec z = { 1, 2 * GIB_SECT, 0, 0 };
	struct req r[] = { { T0, FS0 + 100, 8, SS_RW_READ },
			   { T0 + S, FS0 + GIB_SECT, 8, SS_RW_WRITE },
			   { T0 + 2 * S, FS0 + 100, 8, SS_RW_READ } };
	struct rendered rd = { 0 };
	cairo_surface_t *img;
	struct ss_graph *g;
	double x, y;
	long core, halo = 0;

	if (!(g = draw(&rd, "lone", &z, r, 3, &img, NULL)))
		return;
	ss_graph_time_x(g, 0, 1.0, &x);
	ss_graph_sector_y(g, 0, FS0 + GIB_SECT, &y);
	core = class_px(img, x - 6, x + 6, y - 6, y + 6, SS_CLS_WRITE);
	for (int py = (int)y - 6; py < (int)y + 6; py++)
		for (int px_ = (int)x - 6; px_ < (int)x + 6; px_++) {
			uint32_t p = px(img, px_, py);
			int pr = p >> 16 & 0xff, pb = p & 0xff;

			halo += p != rgb_of(SS_CLS_WRITE) && pb - pr > 40;   /* a tint of the blue */
		}
	ok(core >= 2 && core <= 8, "the request's own cell in its colour (%ld px)", core);
	ok(halo >= 20, "a halo of its colour around it: %ld px", halo);
	ok(core + halo >= 30, "a mark of at least ~6x6 px (%ld)", core + halo);
	cairo_surface_destroy(img);
	release(&rd);
}

/* Dark (text) pixels in the gutter right of the frame, columns dx0..dx1, rows y-4..y+4. */
static long gutter_ink(cairo_surface_t *img, const struct ss_rect *r, double dx0, double dx1,
		       double y)
{
	long n = 0;

	for (int py = (int)y - 4; py <= (int)y + 4; py++)
		for (int x = (int)(r->x + r->w + dx0); x < (int)(r->x + r->w + dx1); x++)
			n += (px(img, x, py) & 0xff) < 110;
	return n;
}

/*
 * 16 AGs with the log just inside AG8, as mkfs.xfs places it, in a panel tall enough for all
 * their labels: every AG keeps its label (AG7 and AG8 used to yield to "log"), and "log" is
 * there too, beside them.
 */
static void test_ag_labels(void)
{
	const uint64_t ag = GIB_SECT / 2;
	struct zone_spec z = { 16, ag, FS0 + 8 * ag + 64, 131072 };
	struct req r[] = { { T0, FS0 + 8, 8, SS_RW_WRITE } };
	struct rendered rd = { 0 };
	cairo_surface_t *img;
	struct ss_graph *g;
	struct ss_rect rect;
	double y;
	int missing = 0;

	if (!(g = draw(&rd, "ag16", &z, r, 1, &img, "io,seeks")))
		return;
	ss_graph_io_rect(g, 0, &rect);
	for (int i = 0; i < 16; i++) {
		ss_graph_sector_y(g, 0, FS0 + (uint64_t)i * ag + ag / 2, &y);
		if (gutter_ink(img, &rect, 4, 30, y) < 10) {
			missing++;
			printf("# no label AG%d at y %.1f\n", i, y);
		}
	}
	is_int(missing, 0, "all 16 AG labels drawn");
	ss_graph_sector_y(g, 0, z.log_start + z.log_sectors / 2, &y);
	ok(gutter_ink(img, &rect, 36, 62, y) >= 10, "the log label beside them");
	cairo_surface_destroy(img);
	release(&rd);
}

/* One 8 GiB AG with a 64 MiB log at its very start: the band is still >= 5 px tall. */
static void test_thin_log(void)
{
	struct zone_spec z = { 1, 8 * GIB_SECT, FS0, 131072 };
	struct req r[] = { { T0, FS0 + GIB_SECT, 8, SS_RW_WRITE } };
	struct rendered rd = { 0 };
	cairo_surface_t *img;
	struct ss_graph *g;
	struct ss_rect rect;
	int rows = 0, x;

	if (!(g = draw(&rd, "ag1", &z, r, 1, &img, NULL)))
		return;
	ss_graph_io_rect(g, 0, &rect);
	x = (int)(rect.x + rect.w * 0.77);       /* away from grid lines and the one request */
	for (int y = (int)rect.y; y < (int)(rect.y + rect.h); y++) {
		uint32_t p = px(img, x, y);
		int pr = p >> 16 & 0xff, pb = p & 0xff;

		rows += pr > 200 && pr - pb > 40;     /* the light yellow of the log band */
	}
	ok(rows >= 5, "the log band is %d px tall (at least 5)", rows);
	cairo_surface_destroy(img);
	release(&rd);
}

/* Coloured by process, the flush and FUA strips keep their class colours: no process may
 * share them. */
static void test_proc_colours(void)
{
	int same = 0;

	for (size_t i = 0; i <= SS_NR_GROUP_COLOURS + 1; i++)
		for (int c = SS_CLS_NR_AREA; c < SS_CLS_MAX; c++) {
			struct ss_rgb p = ss_group_colour(i, SS_NR_GROUP_COLOURS), k = ss_classes[c].rgb;

			same += p.r == k.r && p.g == k.g && p.b == k.b;
		}
	is_int(same, 0, "no group colour (nor 'other', 'unknown') is the flush's or the FUA's");
}

int main(void)
{
	test_rule();
	test_unique_len();
	test_counts();
	test_proc_colours();
	if (testdir_make("classes"))
		return done_testing();
	test_each_class();
	test_mix();
	test_lone();
	test_ag_labels();
	test_thin_log();
	return done_testing();
}
