// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Render tests: tick marks, layout and surfaces as units, then whole pictures checked for
 * content — synthetic traces written with the trace writer, drawn, and the PNG read back:
 * writes only in AG2 colour AG2's band and leave AG0's empty, flushes never appear at sector 0,
 * sizes are as asked, SVG parses as XML, PDF is framed, empty traces say "no I/O".
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cairo.h>

#include "tap.h"
#include "testdir.h"
#include "graph.h"
#include "layout.h"
#include "panel_registry.h"
#include "plot_args.h"
#include "surface.h"
#include "text.h"
#include "ticks.h"
#include "trace_read.h"
#include "trace_write.h"
#include "render_util.h"

#define DEV SS_MKDEV(7, 0)
#define AG_SECTORS 4194304ull          /* 2 GiB */
#define FS_START 2048ull
#define WRITE_RGB 0x0072B2u            /* palette.h: data write */
#define WARN_RGB 0xB03000u             /* palette.h: ss_col_warn */
#define FLUSH_T0 1000000000ull

static const char *path_in(const char *name)
{
	return tpath("%s", name);
}

/* ---- units ---- */

static void expect_ticks(double lo, double hi, int max, const double *want, int n)
{
	struct ss_ticks t;
	int ok_all;

	is_int(ss_ticks_compute(lo, hi, max, &t), 0, "ticks %g..%g computed", lo, hi);
	ok_all = t.count == n;
	for (int i = 0; ok_all && i < n; i++)
		ok_all = fabs(ss_ticks_value(&t, i) - want[i]) < 1e-9 * (fabs(want[i]) + 1);
	ok(ok_all, "ticks %g..%g (max %d): %d ticks from %g step %g", lo, hi, max, t.count,
	   t.first, t.step);
}

static void test_ticks(void)
{
	struct ss_ticks t;
	char buf[32];

	expect_ticks(0, 6906, 5, (const double[]){ 0, 2000, 4000, 6000 }, 4);
	expect_ticks(0, 13812, 8, (const double[]){ 0, 2000, 4000, 6000, 8000, 10000, 12000 }, 7);
	expect_ticks(0, 1, 6, (const double[]){ 0, 0.2, 0.4, 0.6, 0.8, 1.0 }, 6);
	expect_ticks(3.3, 27.1, 6, (const double[]){ 5, 10, 15, 20, 25 }, 5);
	expect_ticks(-12, 12, 5, (const double[]){ -10, -5, 0, 5, 10 }, 5);
	expect_ticks(-12, 12, 4, (const double[]){ -10, 0, 10 }, 3);
	expect_ticks(0, 8, 10, (const double[]){ 0, 1, 2, 3, 4, 5, 6, 7, 8 }, 9);
	ok(ss_ticks_compute(5, 5, 5, &t) == -EINVAL, "empty range refused");
	ok(ss_ticks_compute(0, NAN, 5, &t) == -EINVAL, "NaN refused");
	ok(ss_ticks_compute(0, 1, 1, &t) == -EINVAL, "fewer than two ticks refused");
	ss_ticks_compute(0, 1, 6, &t);
	ss_ticks_format(&t, ss_ticks_value(&t, 1), buf, sizeof(buf));
	is_str(buf, "0.2", "fraction labelled with one decimal");
	ss_ticks_compute(0, 60000, 4, &t);
	ss_ticks_format(&t, ss_ticks_value(&t, 1), buf, sizeof(buf));
	is_str(buf, "20k", "thousands get a k suffix");
	ss_ticks_format(&t, 0, buf, sizeof(buf));
	is_str(buf, "0", "zero has no suffix");
	ok(ss_nice_ceil(3.1) == 5 && ss_nice_ceil(0.011) == 0.02 && ss_nice_ceil(7) == 10,
	   "1-2-5 ceiling");
	is_str(ss_unit_time(27e9).name, "s", "27 s in seconds");
	is_str(ss_unit_time(150e6).name, "ms", "150 ms in milliseconds");
	is_str(ss_unit_offset(SS_UNITS_AUTO, 16777216).name, "GiB", "8 GiB device in GiB");
	is_str(ss_unit_offset(SS_UNITS_AUTO, 204800).name, "MiB", "100 MiB range in MiB");
	is_str(ss_unit_offset(SS_UNITS_SECTORS, 16777216).name, "sectors", "--units sectors");
}

static void test_layout_surface(void)
{
	struct ss_layout_spec s = { .width = 1600, .height = 1000, .nr_cols = 2, .nr_rows = 3,
				    .row_weight = { 3, 1, 1 }, .table_rows = 4, .legend = true };
	struct ss_layout l;
	struct ss_axis a = { 0, 100, 500, 100, false };

	is_int(ss_layout_compute(&s, &l), 0, "layout of 2 columns x 3 rows");
	ok(l.plot[0][0].h > 2 * l.plot[1][0].h, "the sector panel gets the most height");
	ok(l.plot[0][0].x + l.plot[0][0].w < l.plot[0][1].x, "columns do not overlap");
	ok(l.plot[2][0].y + l.plot[2][0].h < l.table.y, "table below the last panel");
	ok(l.table.y + l.table.h <= 1000, "table inside the picture");
	s.height = 200;
	is_int(ss_layout_compute(&s, &l), -EINVAL, "too small a picture is refused");
	ok(ss_axis_map(&a, 25) == 400 && ss_axis_unmap(&a, 400) == 25, "axis map and inverse");
	is_int(ss_out_format_from_path("a/b.PNG"), SS_OUT_PNG, ".PNG is PNG");
	is_int(ss_out_format_from_path("x.svg"), SS_OUT_SVG, ".svg is SVG");
	is_int(ss_out_format_from_path("x.pdf"), SS_OUT_PDF, ".pdf is PDF");
	is_int(ss_out_format_from_path("x.jpg"), -EINVAL, ".jpg refused");
	is_int(ss_out_format_from_path("dir.png/x"), -EINVAL, "extension of a directory ignored");
}

/* ---- synthetic traces ---- */

struct tr_opts {
	int nr_ags;            /* 0: no zones */
	int write_ag;          /* AG that receives the writes */
	size_t nr_ios;
	bool flushes;
	bool truncate;
	uint64_t lost;         /* events lost on CPU 0 during the first 10 ms of the writes */
	uint64_t lead_ns;      /* one read at FLUSH_T0, the phase and the writes this much later */
	uint64_t lat_ns;       /* each request's latency; 0: 200 us */
	uint64_t lead_lat_ns;  /* the lead read's; 0: lat_ns */
};

static void put_io(struct ss_writer *w, uint64_t ts, uint64_t sector, uint32_t nr, uint16_t flags,
		   uint64_t lat_ns)
{
	rt_put_io(w, DEV, ts, sector, nr, flags, lat_ns ? lat_ns : 200000);
}

static void make_trace(const char *path, const struct tr_opts *o)
{
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = DEV, .major = 7, .logical_block_size = 512,
				   .nr_sectors = FS_START + 4 * AG_SECTORS, .part_start = FS_START,
				   .part_nr_sectors = 4 * AG_SECTORS, .flags = SS_DEV_PARTITION };

	strcpy(d.name, "loop0");
	strcpy(d.fstype, "xfs");
	ss_writer_device(w, &d);
	for (int i = 0; i < o->nr_ags; i++) {
		struct ss_rec_zone z = { .dev = DEV, .kind = SS_ZONE_AG, .index = (uint32_t)i,
					 .start_sector = FS_START + (uint64_t)i * AG_SECTORS,
					 .nr_sectors = AG_SECTORS };

		snprintf(z.label, sizeof(z.label), "AG%d", i);
		ss_writer_zone(w, &z);
	}
	if (o->lead_ns)
		put_io(w, FLUSH_T0, FS_START, 8, SS_RW_READ,
		       o->lead_lat_ns ? o->lead_lat_ns : o->lat_ns);
	if (o->lost) {
		struct ss_rec_lost l = { .from_ns = FLUSH_T0 + o->lead_ns,
					 .to_ns = FLUSH_T0 + o->lead_ns + 10000000, .count = o->lost };

		ss_writer_lost(w, &l);
	}
	if (o->nr_ios)
		ss_writer_phase(w, FLUSH_T0 + o->lead_ns, SS_PHASE_BEGIN, "extract");
	for (size_t i = 0; i < o->nr_ios; i++) {
		uint64_t ts = FLUSH_T0 + o->lead_ns + i * 1000000;
		uint64_t sector = FS_START + (uint64_t)o->write_ag * AG_SECTORS + i * 2048;

		if (o->flushes && i % 10 == 5)
			put_io(w, ts, 0, 0, SS_RW_FLUSH, o->lat_ns);
		else
			put_io(w, ts, sector, 64, SS_RW_WRITE, o->lat_ns);
	}
	if (o->nr_ios)
		ss_writer_phase(w, FLUSH_T0 + o->lead_ns + o->nr_ios * 1000000, SS_PHASE_END,
				"extract");
	if (o->truncate)
		ss_writer_abort(w);
	else
		ss_writer_close(w);
}

static void test_ag2(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 4, .write_ag = 2, .nr_ios = 2000 };
	const char *tr = path_in("ag2.sst"), *png = path_in("ag2.png");
	struct ss_graph *g;
	cairo_surface_t *img;
	struct ss_rect r;
	double y_ag0, y_ag1, y_ag2, y_ag3, x0, x1;

	make_trace(tr, &o);
	g = render_into(&rd, &tr, 1, png, 1400, 900, NULL);
	if (!g)
		return;
	img = cairo_image_surface_create_from_png(png);
	is_int(cairo_surface_status(img), CAIRO_STATUS_SUCCESS, "PNG reads back");
	is_int(cairo_image_surface_get_width(img), 1400, "PNG width as asked");
	is_int(cairo_image_surface_get_height(img), 900, "PNG height as asked");
	is_int(ss_graph_io_rect(g, 0, &r), 0, "sector panel present");
	ss_graph_sector_y(g, 0, FS_START, &y_ag0);
	ss_graph_sector_y(g, 0, FS_START + AG_SECTORS, &y_ag1);
	ss_graph_sector_y(g, 0, FS_START + 2 * AG_SECTORS, &y_ag2);
	ss_graph_sector_y(g, 0, FS_START + 3 * AG_SECTORS, &y_ag3);
	ok(y_ag0 > y_ag1 && y_ag1 > y_ag2 && y_ag2 > y_ag3, "sectors grow upwards");
	ok(fabs(y_ag0 - (r.y + r.h)) < 1.5, "the filesystem starts at the bottom of the panel");
	ss_graph_time_x(g, 0, 0.0, &x0);
	ss_graph_time_x(g, 0, 2.0, &x1);
	ok(x0 >= r.x && x1 <= r.x + r.w + 1 && x1 - x0 > r.w * 0.9, "time axis spans the writes");
	/* stay 3 px inside band edges: boundary lines are not data */
	ok(count_px(img, x0 + 3, x1 - 3, y_ag2 - 3, y_ag3 + 3, WRITE_RGB) > 200,
	   "AG2's band has write-coloured pixels");
	ok(count_px(img, r.x + 1, r.x + r.w - 1, y_ag2 - 3, y_ag3 + 3, PX_ANY) > 200,
	   "AG2's band differs from the background");
	is_int(count_px(img, r.x + 1, r.x + r.w - 1, y_ag0 - 3, y_ag1 + 3, WRITE_RGB), 0,
	       "AG0's band has no write pixels");
	is_int(count_px(img, r.x + 1, r.x + r.w - 1, y_ag0 - 3, y_ag1 + 3, PX_ANY), 0,
	       "AG0's band is empty (only background and grid)");
	is_int(count_px(img, r.x + 1, r.x + r.w - 1, y_ag1 - 3, y_ag2 + 3, WRITE_RGB), 0,
	       "AG1's band has no write pixels");
	ok(ss_graph_note(g, 0) == NULL, "no note on a trace with I/O");
	cairo_surface_destroy(img);
	release(&rd);
}

static void test_flush_not_at_zero(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 0, .write_ag = 1, .nr_ios = 400, .flushes = true };
	const char *tr = path_in("flush.sst"), *png = path_in("flush.png");
	struct ss_graph_opts go;
	struct ss_graph *g;
	cairo_surface_t *img;
	struct ss_rect r;
	double y0, y1;

	make_trace(tr, &o);
	ss_graph_opts_init(&go);
	ss_panels_set_default(&go);
	go.has_y_range = true;          /* show sector 0 and the data */
	go.y_lo = 0;
	go.y_hi = FS_START + 2 * AG_SECTORS;
	g = render_into(&rd, &tr, 1, png, 1200, 800, &go);
	if (!g)
		return;
	img = cairo_image_surface_create_from_png(png);
	ss_graph_io_rect(g, 0, &r);
	ss_graph_sector_y(g, 0, 0, &y0);
	ss_graph_sector_y(g, 0, AG_SECTORS / 2, &y1);
	is_int(count_px(img, r.x + 2, r.x + r.w - 2, y1, y0 - 2, PX_ANY), 0,
	       "nothing drawn near sector 0 although 40 flushes were issued there");
	ok(count_px(img, r.x + 2, r.x + r.w - 2, r.y + 1, r.y + 7, 0xD55E00) > 20,
	   "flushes marked in the strip at the top");
	cairo_surface_destroy(img);
	release(&rd);
}

static bool file_framed(const char *path, const char *head, const char *tail)
{
	FILE *f = fopen(path, "rb");
	char buf[64] = "";
	long size;
	bool good;

	if (!f)
		return false;
	good = fread(buf, 1, strlen(head), f) == strlen(head) && !memcmp(buf, head, strlen(head));
	fseek(f, 0, SEEK_END);
	size = ftell(f);
	fseek(f, size > 16 ? size - 16 : 0, SEEK_SET);
	memset(buf, 0, sizeof(buf));
	if (fread(buf, 1, 16, f) == 0)
		good = false;
	fclose(f);
	return good && strstr(buf, tail);
}

static void test_vector(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 4, .write_ag = 1, .nr_ios = 3000, .flushes = true };
	char tr_buf[256], svg[256], pdf[256], cmd[600];
	const char *tr = tr_buf;
	struct stat st = { 0 };

	/* copies: path_in()'s rotating buffers are reused by the calls below */
	snprintf(tr_buf, sizeof(tr_buf), "%s", path_in("vec.sst"));
	snprintf(svg, sizeof(svg), "%s", path_in("vec.svg"));
	snprintf(pdf, sizeof(pdf), "%s", path_in("vec.pdf"));

	make_trace(tr, &o);
	render_into(&rd, &tr, 1, svg, 1600, 1100, NULL);
	release(&rd);
	render_into(&rd, &tr, 1, pdf, 1600, 1100, NULL);
	release(&rd);
	ok(file_framed(svg, "<?xml", "</svg>"), "SVG starts with <?xml and ends with </svg>");
	ok(file_framed(pdf, "%PDF", "%%EOF"), "PDF starts with %%PDF and ends with %%EOF");
	if (have(NEED_PYTHON3, NULL)) {
		snprintf(cmd, sizeof(cmd),
			 "python3 -c 'import xml.dom.minidom,sys; xml.dom.minidom.parse(sys.argv[1])' %s",
			 svg);
		is_int(system(cmd), 0, "SVG parses as XML");
	} else {
		skip_need(1, NEED_PYTHON3, NULL);
	}
	ok(stat(svg, &st) == 0, "SVG exists");
	ok(st.st_size > 0 && st.st_size < 2000000, "SVG stays small (%lld bytes)",
	   (long long)st.st_size);
}

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
	tr = path_in(tn);
	png = path_in(pn);
	make_trace(tr, o);
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
		long n = count_px(img, r.x + r.w / 3, r.x + r.w * 2 / 3, y, y + 1, 0x555555);

		if (n > best) {
			best = (double)n;
			y99 = y;
		}
	}
	value_left = count_px(img, r.x + 2, r.x + 80, y99 - 30, y99, 0x1a1a1a);
	p99_left = count_px(img, r.x + 2, r.x + 80, y99 - 14, y99 - 1, 0x555555);
	p99_right = count_px(img, r.x + r.w - 80, r.x + r.w - 2, y99 - 14, y99 - 1, 0x555555);
	ok(value_left > 10, "the outlier's value is labelled at the left end (%ld px)", value_left);
	ok(p99_right > 10 && p99_left == 0,
	   "the p99 label at the line's right end (%ld px), not under the value (%ld px)",
	   p99_right, p99_left);
	cairo_surface_destroy(img);
	release(&rd);
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
	const char *tr = path_in("narrow.sst"), *png = path_in("narrow.png");
	cairo_surface_t *img;
	struct ss_rect r;

	make_trace(tr, &o);
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
	const char *tr[2] = { path_in("a-rather-long-file-name-for-the-first-run.sst"),
			      path_in("and-another-long-one-for-the-second-run.sst") };
	const char *png = path_in("headers.png");
	cairo_surface_t *img;
	struct ss_rect r0, r1;
	double top, bottom;

	make_trace(tr[0], &a);
	make_trace(tr[1], &b);
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

/* A pixel within 60 of the phase colour (0x6a3d9a) in every channel. */
static bool near_phase(uint32_t p)
{
	return abs((int)(p >> 16 & 0xff) - 0x6a) < 60 && abs((int)(p >> 8 & 0xff) - 0x3d) < 60 &&
	       abs((int)(p & 0xff) - 0x9a) < 60;
}

/* In a low time panel the phase labels are drawn whole, not cut by its bottom edge. */
static void test_low_panel_phases(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 1, .nr_ios = 400, .lead_ns = 1000000 };
	const char *tr = path_in("low.sst"), *png = path_in("low.png");
	struct ss_graph_opts go;
	char err[128] = "";
	cairo_surface_t *img;
	struct ss_rect r;

	make_trace(tr, &o);
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

static void test_empty(size_t n_ios)
{
	struct rendered rd = { 0 };
	const char *tr = path_in(n_ios ? "one.sst" : "zero.sst");
	const char *png = path_in(n_ios ? "one.png" : "zero.png");
	const char *svg = path_in(n_ios ? "one.svg" : "zero.svg");
	struct ss_writer *w = ss_writer_open(tr, SS_OUT_INPLACE, NULL, 0);
	struct ss_graph *g;
	cairo_surface_t *img;

	if (n_ios) {
		struct ss_event e = { .ts_ns = 5000000000ull, .sector = 4096, .nr_sector = 8,
				      .bytes = 4096, .dev = DEV, .type = SS_EV_ISSUE,
				      .flags = SS_RW_WRITE };

		ss_writer_events(w, &e, 1);
	}
	ss_writer_close(w);
	g = render_into(&rd, &tr, 1, png, 1000, 800, NULL);
	if (!g)
		return;
	ok(ss_graph_note(g, 0) && strstr(ss_graph_note(g, 0), "no I/O"),
	   "%zu-event trace carries the 'no I/O' note (%s)", n_ios,
	   ss_graph_note(g, 0) ? ss_graph_note(g, 0) : "none");
	img = cairo_image_surface_create_from_png(png);
	ok(cairo_surface_status(img) == CAIRO_STATUS_SUCCESS &&
	   cairo_image_surface_get_width(img) == 1000, "%zu-event PNG is a 1000 px picture", n_ios);
	cairo_surface_destroy(img);
	release(&rd);
	render_into(&rd, &tr, 1, svg, 1000, 800, NULL);
	release(&rd);
}

static void test_compare(void)
{
	struct rendered rd = { 0 };
	struct tr_opts a = { .nr_ags = 4, .write_ag = 0, .nr_ios = 1000 };
	struct tr_opts b = { .nr_ags = 4, .write_ag = 3, .nr_ios = 3000, .truncate = true };
	const char *tr[2] = { path_in("cmp-a.sst"), path_in("cmp-b.sst") };
	const char *png = path_in("cmp.png");
	struct ss_graph *g;
	struct ss_rect r0, r1;
	double ya, yb, xa, xb;

	make_trace(tr[0], &a);
	make_trace(tr[1], &b);
	g = render_into(&rd, tr, 2, png, 2200, 1200, NULL);
	if (!g)
		return;
	ok(!ss_graph_io_rect(g, 0, &r0) && !ss_graph_io_rect(g, 1, &r1) && r0.x + r0.w < r1.x,
	   "two columns side by side");
	ss_graph_sector_y(g, 0, FS_START + AG_SECTORS, &ya);
	ss_graph_sector_y(g, 1, FS_START + AG_SECTORS, &yb);
	ok(fabs(ya - yb) < 0.01, "same sector, same height in both columns");
	ss_graph_time_x(g, 0, 2.0, &xa);
	ss_graph_time_x(g, 1, 2.0, &xb);
	ok(fabs((xa - r0.x) - (xb - r1.x)) < 0.01, "shared time scale");
	ok(xa < r0.x + r0.w * 0.75, "the shorter run ends early on the shared scale");
	release(&rd);
}

/* Leftmost column of write pixels in COL's io panel, relative to the panel's left edge. */
static double first_write_x(struct ss_graph *g, cairo_surface_t *img, int col)
{
	struct ss_rect r;

	if (ss_graph_io_rect(g, col, &r))
		return -1;
	for (int x = (int)ceil(r.x) + 1; x < (int)(r.x + r.w) - 1; x++)
		if (count_px(img, x, x + 1, r.y + 2, r.y + r.h - 2, WRITE_RGB))
			return x - r.x;
	return -1;
}

/* plot --align: the same work started 0.3 s and 2.7 s after the capture lines up on its
 * phase; without it, it does not; a trace without the phase is refused. */
static void test_align(void)
{
	struct rendered rd = { 0 };
	struct tr_opts a = { .nr_ags = 4, .write_ag = 1, .nr_ios = 1000, .lead_ns = 300000000 };
	struct tr_opts b = { .nr_ags = 4, .write_ag = 1, .nr_ios = 1000, .lead_ns = 2700000000 };
	const char *tr[2] = { path_in("al-a.sst"), path_in("al-b.sst") };
	const char *png[2] = { path_in("al-off.png"), path_in("al-on.png") };
	struct ss_graph_opts go;
	double xa[2], xb[2];

	make_trace(tr[0], &a);
	make_trace(tr[1], &b);
	for (int on = 0; on < 2; on++) {
		struct ss_graph *g;
		cairo_surface_t *img;

		ss_graph_opts_init(&go);
		ss_panels_set_default(&go);
		go.align = on ? "extract" : NULL;
		g = render_into(&rd, tr, 2, png[on], 2200, 1200, &go);
		if (!g)
			return;
		img = cairo_image_surface_create_from_png(png[on]);
		xa[on] = first_write_x(g, img, 0);
		xb[on] = first_write_x(g, img, 1);
		cairo_surface_destroy(img);
		release(&rd);
	}
	ok(xa[0] >= 0 && xb[0] - xa[0] > 100, "from the capture start, the phases are apart "
	   "(first write at %.0f and %.0f px)", xa[0], xb[0]);
	ok(xa[1] >= 0 && fabs(xa[1] - xb[1]) <= 1 && xa[1] < 5,
	   "--align extract: both first writes at the left edge (%.0f and %.0f px)", xa[1], xb[1]);

	{
		char err[256] = "";
		struct ss_trace *t = ss_trace_open(tr[0], err, sizeof(err));
		struct ss_graph *g;

		go.align = "delete";
		g = ss_graph_new(&go);
		if (t && g)
			ss_graph_add_trace(g, t, "al-a");
		is_int(g && t ? ss_graph_run(g, err, sizeof(err)) : -1, -ENOENT,
		       "--align a phase the trace lacks: -ENOENT");
		ok(strstr(err, "al-a has no phase \"delete\"") != NULL, "... saying so: %s", err);
		ss_graph_free(g);
		ss_trace_close(t);
	}
}

static void test_bad_size(void)
{
	struct tr_opts o = { .nr_ags = 4, .write_ag = 1, .nr_ios = 10 };
	const char *tr = path_in("small.sst");
	struct ss_graph_opts go;
	struct ss_trace *t;
	struct ss_graph *g;
	char err[256] = "";

	make_trace(tr, &o);
	ss_graph_opts_init(&go);
	ss_panels_set_default(&go);
	go.width = 300;
	go.height = 200;
	t = ss_trace_open(tr, err, sizeof(err));
	g = ss_graph_new(&go);
	ss_graph_add_trace(g, t, "x");
	is_int(ss_graph_run(g, err, sizeof(err)), -EINVAL, "a too small picture is an error");
	ok(strstr(err, "too small") != NULL, "... saying so: %s", err);
	ss_graph_free(g);
	ss_trace_close(t);
	ok(ss_panels_parse(&go, "io,bogus", err, sizeof(err)) == -EINVAL &&
	   strstr(err, "bogus"), "unknown panel named: %s", err);
	ok(ss_panels_parse(&go, "tput,io", err, sizeof(err)) == 0 && go.nr_panels == 2 &&
	   !strcmp(go.panels[0]->name, "tput"), "panel list keeps the order");
}

/* ---- the panel registry: names, counts, defaults and help come from one table ---- */

static int fake_titles;
static uint64_t fake_threshold;

static void fake_title(char *buf, size_t len, const struct ss_graph_opts *o)
{
	fake_titles++;
	fake_threshold = o->seek_threshold;
	snprintf(buf, len, "threshold %llu", (unsigned long long)o->seek_threshold);
}

static void fake_extent(void *s, const struct ss_panel_data *d, double *lo, double *hi)
{
	(void)s, (void)d;
	*lo = 0;
	*hi = 10;
}

static void fake_draw(void *s, cairo_t *cr, const struct ss_panel_data *d,
		      const struct ss_frame *f)
{
	(void)s, (void)cr, (void)d, (void)f;
}

static void test_registry(void)
{
	const struct ss_panel_ops fake = { .name = "fake", .title_fmt = fake_title,
					   .weight = 1, .sector_y = true,
					   .extent = fake_extent, .draw = fake_draw };
	struct tr_opts o = { .nr_ags = 0, .write_ag = 1, .nr_ios = 10 };
	const char *tr = path_in("fake.sst");
	char names[256], want[256] = "", help[8192] = "", line[128], err[256];
	struct ss_graph_opts go;
	size_t n = ss_panels_count(), len = 0, wellformed = 0, in_help = 0;
	struct ss_graph *g;
	struct ss_trace *t;
	struct ss_rect r;
	FILE *f;

	ok(n >= 7 && n <= SS_GRAPH_MAX_PANELS && ss_panels_at(n) == NULL,
	   "%zu panels registered, no more than a figure stacks", n);
	f = fmemopen(help, sizeof(help) - 1, "w");
	if (f) {
		ss_help_print(f, &ss_plot_help);
		fclose(f);
	}
	for (size_t i = 0; i < n; i++) {
		const struct ss_panel_ops *ops = ss_panels_at(i);

		len += (size_t)snprintf(want + len, sizeof(want) - len, "%s%s", i ? "," : "",
					ops->name);
		wellformed += ss_panels_find(ops->name) == ops && ops->help && ops->extent &&
			      ops->draw && (ops->title || ops->title_fmt);
		/* the name, padded to the longest name, then its help */
		snprintf(line, sizeof(line), " %s ", ops->name);
		for (const char *at = strstr(help, line); at; at = strstr(at + 1, line)) {
			const char *h = at + strlen(line);

			h += strspn(h, " ");
			if (!strncmp(h, ops->help, strlen(ops->help)) && h[strlen(ops->help)] == '\n') {
				in_help++;
				break;
			}
		}
	}
	is_int((long long)wellformed, (long long)n,
	       "every panel found by its name, with help, extent, draw and a title");
	is_int((long long)in_help, (long long)n, "plot --help describes every registered panel");
	is_int(ss_panels_names(names, sizeof(names), false), (int)strlen(want),
	       "names' length as snprintf's");
	is_str(names, want, "names in registry order");
	ss_panels_names(names, sizeof(names), true);
	is_str(names, "io,seeks,tput,lat,dist", "the default set");
	ok(strstr(help, "(default io,seeks,tput,lat,dist)") != NULL, "... named in --help");
	is_int(ss_panels_names(names, 4, false), (int)strlen(want), "a short buffer: full length");
	is_str(names, "io,", "... and the list cut");
	ok(ss_panels_find("bogus") == NULL, "unknown name: no panel");
	ss_graph_opts_init(&go);
	ss_panels_set_default(&go);
	ok(go.nr_panels == 5 && go.panels[0] == ss_panels_find("io") &&
	   go.panels[4] == ss_panels_find("dist"), "default set in drawing order");
	is_int(ss_panels_parse(&go, "io,io", err, sizeof(err)), -EINVAL, "a panel twice");
	is_int(ss_panels_parse(&go, "io,,lat", err, sizeof(err)), -EINVAL, "an empty item");
	ss_graph_opts_init(&go);
	errno = 0;
	ok(ss_graph_new(&go) == NULL && errno == EINVAL, "a graph without panels is refused");
	go.panels[go.nr_panels++] = &(const struct ss_panel_ops){ .name = "x", .title = "x",
								   .weight = 1,
								   .extent = fake_extent };
	ok(ss_graph_new(&go) == NULL && errno == EINVAL, "a panel without draw is refused");
	go.panels[0] = &(const struct ss_panel_ops){ .name = "x", .title = "x",
						     .extent = fake_extent, .draw = fake_draw };
	ok(ss_graph_new(&go) == NULL && errno == EINVAL, "a panel without height is refused");

	/* a panel the registry does not know: the graph goes by its properties alone */
	make_trace(tr, &o);
	ss_graph_opts_init(&go);
	go.panels[0] = &fake;
	go.nr_panels = 1;
	go.seek_threshold = 77;
	go.width = 600;
	go.height = 400;
	t = ss_trace_open(tr, err, sizeof(err));
	g = ss_graph_new(&go);
	ok(t && g && !ss_graph_add_trace(g, t, "x") && !ss_graph_run(g, err, sizeof(err)),
	   "a graph of one unregistered panel runs (%s)", err);
	ok(g && !ss_graph_io_rect(g, 0, &r), "... its sector_y makes it the sector panel");
	ok(fake_titles == 1 && fake_threshold == 77,
	   "... its title formatted once, with the options (%d, %llu)", fake_titles,
	   (unsigned long long)fake_threshold);
	ss_graph_free(g);
	ss_trace_close(t);
}

/* Whether S is whole UTF-8 sequences (lead byte and the continuations it announces). */
static int utf8_ok(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; ) {
		int n = *p < 0x80 ? 0 : (*p & 0xE0) == 0xC0 ? 1 : (*p & 0xF0) == 0xE0 ? 2 :
			(*p & 0xF8) == 0xF0 ? 3 : -1;

		if (n < 0)
			return 0;
		for (p++; n > 0; n--, p++)
			if ((*p & 0xC0) != 0x80)
				return 0;
	}
	return 1;
}

/* Names come from trace files: text that is not UTF-8 (or is very long) is drawn with
 * replacements instead of putting the cairo context into its error state. */
static void test_text_not_utf8(void)
{
	static const char *const bad[] = {
		"label\xff", "\xc3", "\xe2\x82", "\xed\xa0\x80 surrogate", "\xf4\x90\x80\x80 big",
		"\xc0\xaf overlong", "ok \xc3\xa9\xe2\x82\xac\xf0\x9f\x92\xbe",
	};
	cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 200, 100);
	cairo_t *cr = cairo_create(s);
	char longtext[2000];
	double w = 0, w2 = 0;
	int good = 1;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		ss_text_draw(cr, 10, 10, SS_LEFT, SS_TOP, 10, false, bad[i], NULL);
		ss_text_draw_plated(cr, 10, 50, SS_CENTER, SS_MIDDLE, 10, true, bad[i], NULL);
		ss_text_draw_vertical(cr, 5, 50, 9, false, bad[i]);
		if (cairo_status(cr) != CAIRO_STATUS_SUCCESS) {
			good = 0;
			printf("# after '%s': %s\n", bad[i], cairo_status_to_string(cairo_status(cr)));
			break;
		}
	}
	ok(good, "invalid UTF-8 drawn without a cairo error");
	ss_text_measure(cr, 10, false, "ab\xff", &w, NULL);
	ss_text_measure(cr, 10, false, "ab?", &w2, NULL);
	ok(w > 0 && w == w2, "an invalid byte is measured as the '?' it is drawn as (%g, %g)", w, w2);
	memset(longtext, 'x', sizeof(longtext) - 1);
	longtext[sizeof(longtext) - 1] = '\0';
	longtext[700] = '\xe2';   /* a cut sequence beyond the limit */
	ss_text_draw(cr, 0, 0, SS_LEFT, SS_TOP, 10, false, longtext, NULL);
	ok(cairo_status(cr) == CAIRO_STATUS_SUCCESS, "a 2000-byte text is drawn (cut)");
	{
		/* a title fitted into a narrow column: cut at a whole character, "..." at the end */
		char t[] = "Seek causes: before \xe2\x86\x92 after (dark: between two zones)";
		char same[] = "fits";
		size_t n;

		ss_text_fit(cr, 10, true, t, 95);
		ss_text_measure(cr, 10, true, t, &w, NULL);
		n = strlen(t);
		ok(w <= 95 && n > 3 && !strcmp(t + n - 3, "...") && utf8_ok(t) &&
		   t[n - 4] != ' ', "ss_text_fit: '%s' (%g px of 95), whole characters", t, w);
		ss_text_fit(cr, 10, true, same, 95);
		ok(!strcmp(same, "fits"), "... and what fits is left as it is");
		/* narrower than anything: never a byte past the string (ASan watches) */
		ss_text_fit(cr, 10, true, same, 1);
		ok(same[0] == '\0', "... and a string too wide for any room, even for \"...\", is "
		   "left empty ('%s')", same);
	}
	{
		/* a run's long path fitted from the front: the file name, whole characters, stays */
		char p[] = "/home/user/benchmarks/2026-12-06-untar/r\xc3\xa9sultats/xfs-agcount4-"
			   "nobarrier-repeat-3/very-long-name-trace-final.sst";
		size_t n;

		ss_text_fit_start(cr, 10, false, p, 150);
		ss_text_measure(cr, 10, false, p, &w, NULL);
		n = strlen(p);
		ok(w <= 150 && !strncmp(p, "...", 3) && n > 20 &&
		   !strcmp(p + n - 15, "trace-final.sst") && utf8_ok(p),
		   "ss_text_fit_start: '%s' (%g px of 150), the end kept", p, w);
		ss_text_fit_start(cr, 10, false, p, 1);
		ok(p[0] == '\0', "... and nothing where not even \"...\" fits");
	}
	cairo_destroy(cr);
	cairo_surface_destroy(s);
}

int main(void)
{
	if (testdir_make("render"))
		return done_testing();
	test_ticks();
	test_layout_surface();
	test_ag2();
	test_flush_not_at_zero();
	test_vector();
	test_p99_label();
	test_p99_beside_outlier();
	test_narrow_legend();
	test_narrow_headers();
	test_low_panel_phases();
	test_empty(0);
	test_empty(1);
	test_compare();
	test_align();
	test_bad_size();
	test_registry();
	test_text_not_utf8();
	return done_testing();
}
