// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The comparison table's honesty (table.h): highlights only between runs of the same work
 * (same archive, --fsync, --repeat and phase), only in duration and seeks, never for the whole
 * capture's duration, never on negligible phases or traces that lost events; totals beside
 * rates; the time-to-durable row (extract+sync, stats.h) with hand-computed figures; and the
 * highlight and the rule line found in the picture's pixels; with plot --disk, the "modelled s"
 * column ranked like seeks.
 */
#include <errno.h>
#include <math.h>
#include <cairo.h>

#include "tap.h"
#include "testdir.h"
#include "graph.h"
#include "table.h"
#include "text.h"
#include "trace_write.h"
#include "render_util.h"

#define DEV SS_MKDEV(7, 0)
#define MS 1000000ull
#define BEST_RGB 0xd9f0d3u             /* palette.h: ss_col_best */

/* One recorded extraction as the table sees it:
 *   drop-caches [1, 50) ms    1 read at 992+8 (the first I/O: never a seek)
 *   extract     [100, 300) ms 200 sequential writes from 1000, +8 each: no seek
 *   sync        [400, 400 + sync_ms) ms  sync_ios writes of 8 sectors, the first sync_seeks
 *               of them 100000 sectors apart (each a seek), the rest sequential
 *   capture     [1, 500 + sync_ms] ms */
struct run {
	const char *workload;      /* "untar", or NULL: a command */
	const char *archive_bytes;
	const char *fsync;
	uint64_t sync_ms;
	int sync_ios, sync_seeks;
	uint64_t lost;
};

static void put_io(struct ss_writer *w, uint64_t ts, uint64_t sector, uint16_t flags)
{
	rt_put_io(w, DEV, ts, sector, 8, flags, 100000);
}

static const char *make_run(const char *name, const struct run *r)
{
	const char *path = tpath("%s.sst", name);
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = DEV, .major = 7, .logical_block_size = 512,
				   .nr_sectors = 1ull << 26 };
	struct ss_rec_capture cap = { .start_ns = 1 * MS, .nr_cpus = 1 };
	struct ss_rec_cpu_stats cs = { .cpu = 0, .missed = r->lost };
	uint64_t sector = 1000, sync0 = 400 * MS;

	strcpy(d.name, "loop0");
	ss_writer_device(w, &d);
	if (r->workload) {
		ss_writer_meta(w, "workload", r->workload);
		ss_writer_meta(w, "fsync", r->fsync);
		ss_writer_meta(w, "repeat", "1");
		ss_writer_meta(w, "archive", "/tmp/tree.tar");
		ss_writer_meta(w, "archive.bytes", r->archive_bytes);
		ss_writer_meta(w, "archive.entries", "6400");
		ss_writer_meta(w, "archive.data_bytes", "777");
		ss_writer_meta(w, "phase.extract.files", "6000");
	} else {
		ss_writer_meta(w, "cmdline", "fio job.fio");
	}
	ss_writer_capture(w, &cap);
	ss_writer_phase(w, 1 * MS, SS_PHASE_BEGIN, "drop-caches");
	put_io(w, 10 * MS, 992, SS_RW_READ);
	ss_writer_phase(w, 50 * MS, SS_PHASE_END, "drop-caches");
	ss_writer_phase(w, 100 * MS, SS_PHASE_BEGIN, "extract");
	for (int i = 0; i < 200; i++, sector += 8)
		put_io(w, 100 * MS + (uint64_t)i * MS, sector, SS_RW_WRITE);
	ss_writer_phase(w, 300 * MS, SS_PHASE_END, "extract");
	ss_writer_phase(w, sync0, SS_PHASE_BEGIN, "sync");
	for (int i = 0; i < r->sync_ios; i++) {
		if (i < r->sync_seeks)
			sector = 10000000 + (uint64_t)i * 100000;
		put_io(w, sync0 + (uint64_t)i * r->sync_ms * MS / (uint64_t)r->sync_ios, sector,
		       SS_RW_WRITE);
		sector += 8;
	}
	ss_writer_phase(w, sync0 + r->sync_ms * MS, SS_PHASE_END, "sync");
	if (r->lost)
		ss_writer_cpu_stats(w, &cs);
	cap.end_ns = 500 * MS + r->sync_ms * MS;
	ss_writer_capture(w, &cap);
	ss_writer_close(w);
	return path;
}

static const struct run fast = { "untar", "82438144", "end", 1000, 400, 40, 0 };
/* slower, more seeks, but fewer seeks per second: seeks/s would call it better */
static const struct run slow = { "untar", "82438144", "end", 2000, 400, 60, 0 };

static int nr_best(const struct ss_table *tb)
{
	int n = 0;

	for (int r = 0; r < tb->nr_rows; r++)
		for (int c = 0; c < tb->nr_cols; c++)
			n += tb->best[r][c];
	return n;
}

static bool best_at(const struct ss_table *tb, const char *run, const char *phase,
		    const char *col)
{
	int r = ss_table_row(tb, run, phase), c = ss_table_column(tb, col);

	return r >= 0 && c >= 0 && tb->best[r][c];
}

/* Draw A and B side by side; the graph stays in *rd for the caller. */
static const struct ss_table *draw_pair(struct rendered *rd, const char *a, const char *b,
					const char *png)
{
	const char *tr[2] = { a, b };
	struct ss_graph *g = render_into(rd, tr, 2, png, 2300, 1300, NULL);

	return g ? ss_graph_table(g) : NULL;
}

static void test_same_work(void)
{
	struct rendered rd = { 0 };
	const char *a = make_run("slow", &slow), *b = make_run("fast", &fast);
	const char *png = tpath("same.png");
	const struct ss_table *tb = draw_pair(&rd, a, b, png);
	const char *shown_only[] = { "I/Os", "write MB", "write MB/s", "IOPS", "seeks/s",
				     "lat p50 ms", "lat p99 ms", "files/s", "lost events" };
	const struct ss_summary *s;
	bool none = true;
	int r;

	if (!tb)
		return;
	ok(best_at(tb, b, "sync", "duration s"), "the faster sync's duration is highlighted");
	ok(best_at(tb, b, "sync", "seeks"), "the sync with fewer seeks (40 vs 60) is highlighted");
	ok(!best_at(tb, a, "sync", "seeks/s"),
	   "fewer seeks/s (30 vs 40) over a longer run is not called better");
	ok(best_at(tb, b, "all", "seeks"), "whole traces of the same work: fewer seeks");
	ok(!best_at(tb, b, "all", "duration s"),
	   "the whole capture's duration (start-up, drop-caches, linger) is not ranked");
	ok(best_at(tb, b, SS_DURABLE_PHASE, "duration s") &&
	   best_at(tb, b, SS_DURABLE_PHASE, "seeks"), "time to durable: faster, fewer seeks");
	for (size_t i = 0; i < sizeof(shown_only) / sizeof(shown_only[0]); i++) {
		int c = ss_table_column(tb, shown_only[i]);

		ok(c >= 0, "column %s shown", shown_only[i]);
		for (int k = 0; c >= 0 && k < tb->nr_rows; k++)
			none &= !tb->best[k][c];
	}
	ok(none, "rates, bytes, latency, files/s and lost events are never highlighted");
	ok(!best_at(tb, b, "drop-caches", "duration s") && !best_at(tb, b, "drop-caches", "seeks"),
	   "drop-caches (1 I/O) is negligible: no highlight");
	is_int(nr_best(tb), 5, "five highlights: all/seeks, sync and extract+sync duration+seeks");
	ok(ss_table_column(tb, "discard MB") < 0 && ss_table_column(tb, "other MB") < 0,
	   "no discard or other-op column when no run has them");
	ok(ss_table_column(tb, "modelled s") < 0 && !strstr(ss_table_rule(tb), "modelled"),
	   "no modelled s column without --disk, and the rule does not name it");

	/* extract+sync by hand for the fast run: 100 ms .. 1400 ms, 200 + 400 I/Os, 40 seeks */
	r = ss_table_row(tb, b, SS_DURABLE_PHASE);
	s = r >= 0 ? tb->rows[r].s : NULL;
	ok(s && fabs(s->duration_s - 1.3) < 1e-9, "extract+sync lasts 1.3 s (%g)",
	   s ? s->duration_s : -1);
	ok(s && s->ios == 600 && s->seeks == 40 && s->write_bytes == 600 * 4096,
	   "extract+sync: 600 I/Os, 40 seeks, 2457600 bytes");
	ok(r > ss_table_row(tb, b, "sync") && r > ss_table_row(tb, a, "sync"),
	   "extract+sync comes after the sync rows");
	ok(tb->rows[r].has_files && fabs(tb->rows[r].files_per_s - 6000 / 1.3) < 1e-6,
	   "extract+sync files/s = 6000 files / 1.3 s");

	/* the picture: the cell is green, a rate cell is not, and the rule is written below */
	{
		cairo_surface_t *img = cairo_image_surface_create_from_png(png);
		struct ss_rect cell, rate, last;
		int rr = ss_table_row(tb, b, "sync");

		ss_table_cell(tb, rr, ss_table_column(tb, "duration s"), &cell);
		ss_table_cell(tb, rr, ss_table_column(tb, "IOPS"), &rate);
		ss_table_cell(tb, tb->nr_rows - 1, 0, &last);
		ok(count_px(img, cell.x, cell.x + cell.w, cell.y, cell.y + cell.h, BEST_RGB) >
		   cell.w * cell.h / 3, "the highlighted cell is green in the PNG");
		is_int(count_px(img, rate.x, rate.x + rate.w, rate.y, rate.y + rate.h, BEST_RGB), 0,
		       "the faster run's IOPS cell is not green");
		ok(count_px(img, 0, 2300, last.y + last.h + 2, last.y + 2 * last.h, PX_ANY) > 200,
		   "the rule line is written under the table");
		cairo_surface_destroy(img);
	}
	release(&rd);
}

/* Runs that do not compare: no highlight at all. */
static void expect_none(const char *what, const struct run *ra, const struct run *rb)
{
	struct rendered rd = { 0 };
	const char *a = make_run("a", ra), *b = make_run("b", rb);
	const struct ss_table *tb = draw_pair(&rd, a, b, tpath("none.png"));

	if (tb)
		is_int(nr_best(tb), 0, "%s: nothing highlighted", what);
	release(&rd);
}

static void test_not_comparable(void)
{
	struct run other_archive = fast, other_fsync = fast, cmd_a = slow, cmd_b = fast,
		   lossy = slow;

	other_archive.archive_bytes = "82438145";
	other_fsync.fsync = "file";
	cmd_a.workload = cmd_b.workload = NULL;
	lossy.lost = 3;
	expect_none("another archive", &slow, &other_archive);
	expect_none("another --fsync", &slow, &other_fsync);
	expect_none("commands (the work is unknown)", &cmd_a, &cmd_b);
	expect_none("a run that lost events", &lossy, &fast);
	expect_none("identical runs (a tie)", &fast, &fast);
}

static void test_negligible(void)
{
	struct rendered rd = { 0 };
	struct run sa = slow, sb = fast;
	const char *a, *b;
	const struct ss_table *tb;

	/* 50 I/Os of 4 KiB: 0.2 MB, under both limits */
	sa.sync_ios = sb.sync_ios = 50;
	sa.sync_seeks = 30;
	sb.sync_seeks = 10;
	a = make_run("small-a", &sa);
	b = make_run("small-b", &sb);
	tb = draw_pair(&rd, a, b, tpath("small.png"));
	if (tb) {
		ok(!best_at(tb, b, "sync", "duration s") && !best_at(tb, b, "sync", "seeks"),
		   "a sync of 50 I/Os and 0.2 MB is negligible: not ranked");
		ok(best_at(tb, b, SS_DURABLE_PHASE, "seeks"),
		   "extract+sync (250 I/Os) is ranked");
	}
	release(&rd);
}

/* Draw TRACE with the io and dist panels, over [lo, hi] s when hi > 0. */
static struct ss_graph *draw_window(struct rendered *rd, const char **tr, int n, double lo,
				    double hi, const char *png)
{
	struct ss_graph_opts go;
	char err[128];

	ss_graph_opts_init(&go);
	ss_panels_parse(&go, "io,dist", err, sizeof(err));
	go.has_x_range = hi > 0;
	go.x_lo_s = lo;
	go.x_hi_s = hi;
	return render_into(rd, tr, n, png, 1600 * n, 900, &go);
}

#define SEEK_RGB 0x000000u             /* palette.h: ss_col_seek, the dist panel's seek bars */
#define WARN_RGB 0xB03000u             /* palette.h: ss_col_warn, the note */

static long dist_px(struct ss_graph *g, const char *png, int col, uint32_t rgb)
{
	cairo_surface_t *img = cairo_image_surface_create_from_png(png);
	struct ss_rect r;
	long n = -1;

	if (!ss_graph_panel_rect(g, 1, col, &r))
		n = count_px(img, r.x + 1, r.x + r.w - 1, r.y + 1, r.y + r.h - 1, rgb);
	cairo_surface_destroy(img);
	return n;
}

/* --x-range: the table and the seek distances summarise the window only. */
static void test_window(void)
{
	struct rendered rd = { 0 };
	const char *tr[2] = { make_run("w-fast", &fast), make_run("w-slow", &slow) };
	const char *whole = tpath("whole.png"), *win = tpath("win.png"), *out = tpath("out.png");
	const struct ss_table *tb;
	struct ss_graph *g;
	struct ss_rect io;
	int r;

	g = draw_window(&rd, tr, 1, 0, 0, whole);
	if (g)
		ok(dist_px(g, whole, 0, SEEK_RGB) > 50, "whole trace: the dist panel has seek bars");
	release(&rd);

	/* 0.05 .. 0.35 s after the capture start (1 ms): the extraction's sequential writes */
	g = draw_window(&rd, tr, 2, 0.05, 0.35, win);
	if (g) {
		tb = ss_graph_table(g);
		is_int(dist_px(g, win, 0, SEEK_RGB), 0, "window: no seek bar in the dist panel");
		ok(dist_px(g, win, 0, PX_ANY) > 50, "window: the short moves are drawn");
		r = ss_table_row(tb, tr[0], "all");
		ok(r >= 0 && tb->rows[r].s->clipped && tb->rows[r].s->seeks == 0 &&
		   tb->rows[r].s->ios == 200 && fabs(tb->rows[r].s->duration_s - 0.3) < 1e-9,
		   "the table's first row is the window: 0.3 s, the 200 extract writes, no seek");
		ok(ss_table_row(tb, tr[0], "sync") < 0, "sync (after the window) has no row");
		r = ss_table_row(tb, tr[0], "extract");
		ok(r >= 0 && !tb->rows[r].s->clipped, "extract lies inside the window: whole");
		r = ss_table_row(tb, tr[0], SS_DURABLE_PHASE);
		ok(r >= 0 && tb->rows[r].s->clipped && !tb->rows[r].judged,
		   "extract+sync, cut by the window, is not ranked");
		is_int(nr_best(tb), 0, "nothing in the window to rank (extract: a tie)");
		ok(ss_graph_outside(g, 0) == NULL, "a window inside the trace is no warning");
	}
	release(&rd);

	/* 800 px, two runs: the figures leave room for "extract+sync (part)", which the phase
	 * column's share (12 % beside a run column) would cut to "extract+syn...": the column
	 * takes it */
	{
		struct ss_graph_opts go;
		char err[128];
		cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 8, 8);
		cairo_t *cr = cairo_create(s);
		double need, share;

		ss_graph_opts_init(&go);
		ss_panels_parse(&go, "io,dist", err, sizeof(err));
		go.has_x_range = true;
		go.x_lo_s = 0.05;
		go.x_hi_s = 0.35;
		g = render_into(&rd, tr, 2, tpath("win800.png"), 800, 900, &go);
		if (g) {
			tb = ss_graph_table(g);
			ss_text_measure(cr, tb->font, false, SS_DURABLE_PHASE " (part)", &need, NULL);
			share = 0.12 * 800;
			ok(share - 8 < need, "800 px: \"extract+sync (part)\" (%.0f px) is wider than "
			   "the phase column's share (%.0f px)", need, share - 8);
			ok(tb->col_x[0] - tb->phase_x - 8 >= need, "... and has its room (%.0f px)",
			   tb->col_x[0] - tb->phase_x - 8);
		}
		cairo_destroy(cr);
		cairo_surface_destroy(s);
	}
	release(&rd);

	/* 440 px, one run: no run column (the title names the trace), and the phase names whole
	 * (they were cut to "extract..." beside a column repeating the trace's name) */
	{
		struct ss_graph_opts go;
		char err[128];
		cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_RGB24, 8, 8);
		cairo_t *cr = cairo_create(s);
		double need;

		ss_graph_opts_init(&go);
		ss_panels_parse(&go, "io,dist", err, sizeof(err));
		g = render_into(&rd, tr, 1, tpath("one440.png"), 440, 900, &go);
		if (g) {
			tb = ss_graph_table(g);
			is_int(tb->nr_runs, 1, "440 px: a table of one run");
			ok(tb->phase_x == tb->x0, "... has no run column");
			ss_text_measure(cr, tb->font, true, SS_DURABLE_PHASE, &need, NULL);
			ok(tb->col_x[0] - tb->phase_x - 8 >= need,
			   "... and \"%s\" (%.0f px) has its room (%.0f px)", SS_DURABLE_PHASE, need,
			   tb->col_x[0] - tb->phase_x - 8);
		}
		cairo_destroy(cr);
		cairo_surface_destroy(s);
	}
	release(&rd);

	/* past the end (the trace lasts 1.5 s): a note in the picture and for the caller */
	g = draw_window(&rd, tr, 1, 5, 6, out);
	if (g) {
		cairo_surface_t *img = cairo_image_surface_create_from_png(out);

		ok(ss_graph_outside(g, 0) && strstr(ss_graph_outside(g, 0), "past the end"),
		   "a window past the end is reported: %s", ss_graph_outside(g, 0));
		ss_graph_io_rect(g, 0, &io);
		ok(count_px(img, io.x, io.x + io.w, io.y, io.y + io.h, WARN_RGB) > 100,
		   "... and written over the io panel");
		cairo_surface_destroy(img);
	}
	release(&rd);
}

/* plot --disk: "modelled s" is a total like seeks — lower is better between runs of the same
 * work, in every row the rule ranks, never in negligible ones. */
static void test_model(void)
{
	struct rendered rd = { 0 };
	const char *tr[2] = { make_run("m-slow", &slow), make_run("m-fast", &fast) };
	struct ss_graph_opts go;
	const struct ss_table *tb;
	struct ss_graph *g;
	char err[256];
	bool same = true;
	int c;

	ss_graph_opts_init(&go);
	ss_panels_set_default(&go);
	go.has_disk = !ss_disk_model_parse("hdd7200", &go.disk, err, sizeof(err));
	ok(go.has_disk, "the hdd7200 model (%s)", go.has_disk ? "" : err);
	g = render_into(&rd, tr, 2, tpath("model.png"), 2300, 1300, &go);
	if (!g)
		return;
	tb = ss_graph_table(g);
	c = ss_table_column(tb, "modelled s");
	ok(c > ss_table_column(tb, "seeks") && c < ss_table_column(tb, "read MB/s"),
	   "a modelled s column among the totals, after seeks");
	for (int r = 0; c >= 0 && r < tb->nr_rows; r++)
		same &= tb->rows[r].has_model && tb->rows[r].s->model.total_s >= 0;
	ok(same, "every row has its period's modelled time");
	ok(best_at(tb, tr[1], "sync", "modelled s") && best_at(tb, tr[1], "all", "modelled s") &&
	   best_at(tb, tr[1], SS_DURABLE_PHASE, "modelled s"),
	   "fewer seeks, less modelled time: highlighted in sync, all and extract+sync");
	ok(!best_at(tb, tr[1], "drop-caches", "modelled s") &&
	   !best_at(tb, tr[0], "drop-caches", "modelled s"), "... not in negligible drop-caches");
	ok(strstr(ss_table_rule(tb), "modelled s") != NULL, "the rule names it");
	release(&rd);
}

/*
 * The table in pictures of several widths, with every column (two runs, --disk): no text
 * runs over the left edge of its column (into the figures of the one before), the headings
 * split in two lines where one is too wide, one line where it fits.
 */
static void test_widths(void)
{
	static const int widths[] = { 640, 900, 920, 928, 1000, 1300, 1860, 2300 };
	char a[256], b[256], png[256];
	const char *tr[2] = { a, b };

	/* copies: tpath()'s rotating buffers are reused below */
	snprintf(a, sizeof(a), "%s", make_run("w-slow", &slow));
	snprintf(b, sizeof(b), "%s", make_run("w-fast", &fast));

	for (size_t k = 0; k < sizeof(widths) / sizeof(widths[0]); k++) {
		struct rendered rd = { 0 };
		struct ss_graph_opts go;
		const struct ss_table *tb;
		cairo_surface_t *img;
		struct ss_rect cell;
		struct ss_graph *g;
		char err[256];
		long over = 0;
		int w = widths[k];

		ss_graph_opts_init(&go);
		ss_panels_set_default(&go);
		go.has_disk = !ss_disk_model_parse("hdd7200", &go.disk, err, sizeof(err));
		snprintf(png, sizeof(png), "%s", tpath("w%d.png", w));
		g = render_into(&rd, tr, 2, png, w, 1500, &go);
		if (!g)
			continue;
		tb = ss_graph_table(g);
		img = cairo_image_surface_create_from_png(png);
		for (int c = 0; c < tb->nr_cols; c++) {
			double x = tb->col_x[c];

			if (tb->hidden[c])
				continue;
			over += dark_px(img, x, x + 3, tb->y0 + 2, tb->y0 + tb->head_lines * tb->row_h - 2,
					120);
			for (int r = 0; r < tb->nr_rows; r++) {
				ss_table_cell(tb, r, c, &cell);
				over += dark_px(img, x, x + 3, cell.y + 2, cell.y + cell.h - 2, 120);
			}
		}
		is_int(over, 0, "%d px wide: %d columns, no text over a column's left edge", w,
		       tb->nr_cols);
		ss_table_cell(tb, tb->nr_rows - 1, 0, &cell);
		ok(cell.y + cell.h * (1 + tb->plan.rule_lines) <= 1500 - 12,
		   "%d px wide: the table and its rule (%d line(s)) end inside the picture", w,
		   tb->plan.rule_lines);
		is_int(tb->head_lines, tb->plan.head_lines, "%d px wide: headings on %d line(s), as "
		       "planned with the layout", w, tb->head_lines);
		if (w <= 1000 || w >= 2300)
			is_int(tb->head_lines, w <= 1000 ? 2 : 1, "... %s", w <= 1000 ?
			       "two where one is too narrow" : "one where it fits");
		if (w == 640) {
			static const char *kept[] = { "duration s", "seeks", "lost events" };
			int hidden = 0, c;

			for (c = 0; c < tb->nr_cols; c++)
				hidden += tb->hidden[c];
			ok(hidden > 0 && hidden < tb->nr_cols / 2, "640 px wide: %d of %d columns left "
			   "out", hidden, tb->nr_cols);
			c = ss_table_column(tb, "files/s");
			ok(c >= 0 && tb->hidden[c] && ss_table_cell(tb, 0, c, &cell) == -ENOENT,
			   "... files/s first, which has no cell");
			for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
				c = ss_table_column(tb, kept[i]);
				ok(c >= 0 && !tb->hidden[c], "... %s kept", kept[i]);
			}
		} else {
			bool none = true;

			for (int c = 0; c < tb->nr_cols; c++)
				none &= !tb->hidden[c];
			ok(none, "%d px wide: every column shown", w);
		}
		cairo_surface_destroy(img);
		release(&rd);
	}
}

static void test_lines(void)
{
	char err[128];
	struct ss_trace *t = ss_trace_open(make_run("one", &fast), err, sizeof(err));
	const struct ss_trace *two[2] = { t, t };

	/* all, drop-caches, extract, sync, extract+sync */
	is_int(ss_table_lines(two, 1), 5, "one trace: five rows, no rule line");
	is_int(ss_table_lines(two, 2), 11, "two traces: ten rows and the rule line");
	ss_trace_close(t);
}

int main(void)
{
	if (testdir_make("table"))
		return done_testing();
	test_same_work();
	test_not_comparable();
	test_negligible();
	test_window();
	test_model();
	test_widths();
	test_lines();
	return done_testing();
}
