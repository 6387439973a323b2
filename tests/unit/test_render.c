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
#include "render_trace.h"

#define WRITE_RGB 0x0072B2u            /* palette.h: data write */

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

/*
 * ss_image_surface_create: a big surface (on memory advised for huge pages) and a small one
 * (cairo's own) alike: the asked size and format, cairo's stride, zeroed pixels, drawn on,
 * freed with the surface (ASan and valgrind say the rest); a bad size gives cairo's error
 * surface, not a crash.
 */
static void test_image_surface(void)
{
	static const int size[][2] = { { 1600, 1200 }, { 300, 200 }, { 4000, 150 }, { 800, 400 } };

	for (size_t k = 0; k < sizeof(size) / sizeof(size[0]); k++) {
		int w = size[k][0], h = size[k][1];
		cairo_surface_t *img = ss_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
		const uint32_t *px;
		bool zero = true;
		cairo_t *cr;
		int stride;

		if (!ok(cairo_surface_status(img) == CAIRO_STATUS_SUCCESS &&
			cairo_image_surface_get_width(img) == w &&
			cairo_image_surface_get_height(img) == h &&
			cairo_image_surface_get_format(img) == CAIRO_FORMAT_ARGB32,
			"image surface %dx%d made", w, h)) {
			cairo_surface_destroy(img);
			continue;
		}
		stride = cairo_image_surface_get_stride(img);
		px = (const uint32_t *)(const void *)cairo_image_surface_get_data(img);
		for (int y = 0; y < h && zero; y++)
			for (int x = 0; x < w && zero; x++)
				zero = px[(size_t)y * (size_t)stride / 4 + (size_t)x] == 0;
		cr = cairo_create(img);
		cairo_set_source_rgb(cr, 1, 0, 0);
		cairo_rectangle(cr, 0, 0, 1, 1);
		cairo_fill(cr);
		cairo_destroy(cr);
		cairo_surface_flush(img);
		ok(zero && stride == cairo_format_stride_for_width(CAIRO_FORMAT_ARGB32, w) &&
		   px[0] == 0xffff0000u && (w < 2 || px[1] == 0),
		   "... zeroed, cairo's stride (%d), drawn on (first pixel %#x)", stride, px[0]);
		cairo_surface_destroy(img);
	}
	cairo_surface_t *bad = ss_image_surface_create(CAIRO_FORMAT_RGB24, 40000, 40000);

	ok(cairo_surface_status(bad) != CAIRO_STATUS_SUCCESS,
	   "40000x40000: cairo's error surface (%s)", cairo_status_to_string(cairo_surface_status(bad)));
	cairo_surface_destroy(bad);
}

/* A row of marks and names (the legend, a panel's key) and its split into two even rows. */
static void test_rows(void)
{
	const double mark[] = { 10, 10, 10, 10 }, name[] = { 20, 50, 40, 60 };
	double w;

	ok(ss_row_width(mark, name, 0, 4, 5) == 30 + 5 + 60 + 5 + 50 + 5 + 70,
	   "a row is its marks, names and gaps");
	ok(ss_row_width(mark, name, 1, 3, 5) == 60 + 5 + 50, "entries 1 and 2: one gap");
	ok(ss_row_width(mark, name, 2, 2, 5) == 0, "no entries: nothing");
	/* splits: after 1: 30 | 190; after 2: 95 | 125; after 3: 150 | 70 */
	is_int(ss_row_split(mark, name, 4, 5, &w), 2, "two rows split where the wider is least");
	ok(w == 125, "... and that row's width is the key's (got %g)", w);
	is_int(ss_row_split(mark, name, 1, 5, &w), 1, "one entry: no split");
	ok(w == 30, "... its width is the row's");
	is_int(ss_row_split(mark, (const double[]){ 30, 30, 30, 30 }, 4, 0, &w), 2,
	       "even entries split in the middle");
	is_int(ss_row_split(mark, (const double[]){ 30, 10, 30, 30 }, 3, 0, &w), 1,
	       "a tie goes to the first split");
	/* the legend's one call for one row or two */
	is_int(ss_row_layout(mark, name, 4, 5, 1, &w), 4, "one row: no split");
	ok(w == 225, "... its width is the whole row's (got %g)", w);
	is_int(ss_row_layout(mark, name, 4, 5, 2, &w), 2, "two rows: ss_row_split's");
	ok(w == 125, "... and its wider row's width (got %g)", w);
}

/* ---- synthetic traces ---- */

static void test_ag2(void)
{
	struct rendered rd = { 0 };
	struct tr_opts o = { .nr_ags = 4, .write_ag = 2, .nr_ios = 2000 };
	const char *tr = tr_path("ag2.sst"), *png = tr_path("ag2.png");
	struct ss_graph *g;
	cairo_surface_t *img;
	struct ss_rect r;
	double y_ag0, y_ag1, y_ag2, y_ag3, x0, x1;

	tr_make(tr, &o);
	g = render_into(&rd, &tr, 1, png, 1400, 900, NULL);
	if (!g)
		return;
	img = cairo_image_surface_create_from_png(png);
	is_int(cairo_surface_status(img), CAIRO_STATUS_SUCCESS, "PNG reads back");
	is_int(cairo_image_surface_get_width(img), 1400, "PNG width as asked");
	is_int(cairo_image_surface_get_height(img), 900, "PNG height as asked");
	is_int(ss_graph_io_rect(g, 0, &r), 0, "sector panel present");
	ss_graph_sector_y(g, 0, TR_FS_START, &y_ag0);
	ss_graph_sector_y(g, 0, TR_FS_START + TR_AG_SECTORS, &y_ag1);
	ss_graph_sector_y(g, 0, TR_FS_START + 2 * TR_AG_SECTORS, &y_ag2);
	ss_graph_sector_y(g, 0, TR_FS_START + 3 * TR_AG_SECTORS, &y_ag3);
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
	const char *tr = tr_path("flush.sst"), *png = tr_path("flush.png");
	struct ss_graph_opts go;
	struct ss_graph *g;
	cairo_surface_t *img;
	struct ss_rect r;
	double y0, y1;

	tr_make(tr, &o);
	ss_graph_opts_init(&go);
	ss_panels_set_default(&go);
	go.has_y_range = true;          /* show sector 0 and the data */
	go.y_lo = 0;
	go.y_hi = TR_FS_START + 2 * TR_AG_SECTORS;
	g = render_into(&rd, &tr, 1, png, 1200, 800, &go);
	if (!g)
		return;
	img = cairo_image_surface_create_from_png(png);
	ss_graph_io_rect(g, 0, &r);
	ss_graph_sector_y(g, 0, 0, &y0);
	ss_graph_sector_y(g, 0, TR_AG_SECTORS / 2, &y1);
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

	/* copies: tr_path()'s rotating buffers are reused by the calls below */
	snprintf(tr_buf, sizeof(tr_buf), "%s", tr_path("vec.sst"));
	snprintf(svg, sizeof(svg), "%s", tr_path("vec.svg"));
	snprintf(pdf, sizeof(pdf), "%s", tr_path("vec.pdf"));

	tr_make(tr, &o);
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

static void test_empty(size_t n_ios)
{
	struct rendered rd = { 0 };
	const char *tr = tr_path(n_ios ? "one.sst" : "zero.sst");
	const char *png = tr_path(n_ios ? "one.png" : "zero.png");
	const char *svg = tr_path(n_ios ? "one.svg" : "zero.svg");
	struct ss_writer *w = ss_writer_open(tr, SS_OUT_INPLACE, NULL, 0);
	struct ss_graph *g;
	cairo_surface_t *img;

	if (n_ios) {
		struct ss_event e = { .ts_ns = 5000000000ull, .sector = 4096, .nr_sector = 8,
				      .bytes = 4096, .dev = TR_DEV, .type = SS_EV_ISSUE,
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
	const char *tr[2] = { tr_path("cmp-a.sst"), tr_path("cmp-b.sst") };
	const char *png = tr_path("cmp.png");
	struct ss_graph *g;
	struct ss_rect r0, r1;
	double ya, yb, xa, xb;

	tr_make(tr[0], &a);
	tr_make(tr[1], &b);
	g = render_into(&rd, tr, 2, png, 2200, 1200, NULL);
	if (!g)
		return;
	ok(!ss_graph_io_rect(g, 0, &r0) && !ss_graph_io_rect(g, 1, &r1) && r0.x + r0.w < r1.x,
	   "two columns side by side");
	ss_graph_sector_y(g, 0, TR_FS_START + TR_AG_SECTORS, &ya);
	ss_graph_sector_y(g, 1, TR_FS_START + TR_AG_SECTORS, &yb);
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
	const char *tr[2] = { tr_path("al-a.sst"), tr_path("al-b.sst") };
	const char *png[2] = { tr_path("al-off.png"), tr_path("al-on.png") };
	struct ss_graph_opts go;
	double xa[2], xb[2];

	tr_make(tr[0], &a);
	tr_make(tr[1], &b);
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
	const char *tr = tr_path("small.sst");
	struct ss_graph_opts go;
	struct ss_trace *t;
	struct ss_graph *g;
	char err[256] = "";

	tr_make(tr, &o);
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
	const char *tr = tr_path("fake.sst");
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
	tr_make(tr, &o);
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
	test_image_surface();
	test_rows();
	test_ag2();
	test_flush_not_at_zero();
	test_vector();
	test_empty(0);
	test_empty(1);
	test_compare();
	test_align();
	test_bad_size();
	test_registry();
	test_text_not_utf8();
	return done_testing();
}
