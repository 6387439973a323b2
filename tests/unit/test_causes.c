// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request classes and seek causes on constructed traces: every step of the class rule
 * (classes.h) with and without a file-map verdict; the io panel's colour of each class; the
 * seek-cause matrix of a two-device trace (an XFS-like disk with four AGs and a log, an
 * ext4-like one with an inode table and a journal) counted by hand — each pair, how many are
 * across zones, per device and in total, the zone pairs — summing to the statistics' seeks,
 * also in a time window; and the causes panel drawing both its colours.
 */
#include <stdlib.h>

#include "tap.h"
#include "testdir.h"
#include "classes.h"
#include "report_fmt.h"
#include "palette.h"
#include "seekcause.h"
#include "stats.h"
#include "zones.h"
#include "render_util.h"

#define DA SS_MKDEV(7, 0)
#define DB SS_MKDEV(7, 1)
#define MS 1000000ull
#define AG 1048576ull                      /* sectors per AG */
#define FS0 2048ull
#define LOG0 (FS0 + 2 * AG + 1000)         /* the log, inside AG2 */
#define ITAB 1024ull                       /* dev B: group 0's inode table */
#define JRNL (65536ull + 2048)             /* dev B: the journal, in group 1 */

static struct ss_event ev_of(uint64_t sector, uint32_t nr, uint16_t flags)
{
	return (struct ss_event){ .sector = sector, .nr_sector = nr, .bytes = nr * 512u,
				  .dev = DA, .type = SS_EV_ISSUE, .flags = flags };
}

static void test_rule(void)
{
	struct ss_rec_zone ag = { .dev = DA, .kind = SS_ZONE_AG, .nr_sectors = AG };
	struct ss_rec_zone log = { .dev = DA, .kind = SS_ZONE_LOG, .nr_sectors = 100 };
	struct ss_rec_zone jrnl = { .dev = DA, .kind = SS_ZONE_JOURNAL, .nr_sectors = 100 };
	struct ss_rec_zone itab = { .dev = DA, .kind = SS_ZONE_INODE_TABLE, .nr_sectors = 100 };
	struct ss_rec_zone grp = { .dev = DA, .kind = SS_ZONE_GROUP, .nr_sectors = AG };
	struct ss_event w = ev_of(100, 8, SS_RW_WRITE), r = ev_of(100, 8, SS_RW_READ | SS_RW_AHEAD);
	struct ss_event wm = ev_of(100, 8, SS_RW_WRITE | SS_RW_META);
	struct ss_event flush = ev_of(SS_SECTOR_NONE, 0, SS_RW_FLUSH);
	struct ss_event preflush = ev_of(0, 0, SS_RW_PREFLUSH | SS_RW_WRITE);
	struct ss_event fua = ev_of(100, 8, SS_RW_PREFLUSH | SS_RW_WRITE | SS_RW_FUA);
	struct ss_event disc = ev_of(100, 8, SS_RW_DISCARD);
	struct ss_event wz = ev_of(100, 8, SS_RW_NONE | SS_RW_SYNC);
	struct ss_event reset = ev_of(100, 0, SS_RW_NONE);
	static const enum ss_fm_kind all_fv[] = { SS_FM_NONE, SS_FM_FILE, SS_FM_DIR,
							   SS_FM_INODE };

	is_int(ss_class_of(&flush, NULL, SS_FM_NONE), SS_CLASS_FLUSH, "1: a flush");
	is_int(ss_class_of(&preflush, &ag, SS_FM_FILE), SS_CLASS_FLUSH, "1: preflush, no data");
	is_int(ss_class_of(&reset, &ag, SS_FM_NONE), SS_CLASS_OTHER, "1: no sectors, not a flush");
	for (size_t i = 0; i < 4; i++) {
		is_int(ss_class_of(&disc, &log, all_fv[i]), SS_CLASS_DISCARD,
		       "2: a discard, whatever zone and verdict (%zu)", i);
		is_int(ss_class_of(&wz, &log, all_fv[i]), SS_CLASS_OTHER,
		       "2: write-zeroes is other, whatever zone and verdict (%zu)", i);
		is_int(ss_class_of(&w, &log, all_fv[i]), SS_CLASS_JOURNAL,
		       "3: a write in the log is journal (verdict %zu)", i);
		is_int(ss_class_of(&wm, &jrnl, all_fv[i]), SS_CLASS_JOURNAL,
		       "3: a metadata write in the journal is journal (verdict %zu)", i);
	}
	is_int(ss_class_of(&fua, &log, SS_FM_NONE), SS_CLASS_JOURNAL, "3: a FUA log write");
	is_int(ss_class_of(&r, &log, SS_FM_NONE), SS_CLASS_JOURNAL, "3: a log read (recovery)");
	is_int(ss_class_of(&wm, &ag, SS_FM_DIR), SS_CLASS_DIR, "4: a directory, M or not");
	is_int(ss_class_of(&w, &ag, SS_FM_DIR), SS_CLASS_DIR, "4: a directory without M");
	is_int(ss_class_of(&w, &ag, SS_FM_INODE), SS_CLASS_META, "4: an inode chunk");
	is_int(ss_class_of(&w, &itab, SS_FM_NONE), SS_CLASS_META, "5: an inode table, no M");
	is_int(ss_class_of(&w, &itab, SS_FM_FILE), SS_CLASS_META, "5: an inode table beats the map's file");
	is_int(ss_class_of(&wm, &ag, SS_FM_NONE), SS_CLASS_META, "6: M");
	is_int(ss_class_of(&wm, NULL, SS_FM_FILE), SS_CLASS_META, "6: M beats the map's file");
	is_int(ss_class_of(&w, &grp, SS_FM_FILE), SS_CLASS_FILE_DATA, "7: a mapped file's data");
	is_int(ss_class_of(&r, &ag, SS_FM_FILE), SS_CLASS_FILE_DATA, "7: reads too");
	is_int(ss_class_of(&w, &ag, SS_FM_NONE), SS_CLASS_DATA, "8: data, file unknown");
	is_int(ss_class_of(&r, NULL, SS_FM_NONE), SS_CLASS_DATA, "8: no zones: data");
	for (int c = 0; c < SS_NR_CLASSES; c++)
		is_int(ss_class_from_name(ss_class_table[c].name), c, "name %s", ss_class_table[c].name);
	is_int(ss_class_from_name("read"), -1, "an op is no class");

	/* the io panel's colours: data by op, the others one colour each */
	is_int(ss_io_class_from(SS_CLASS_DATA, &r), SS_CLS_READ, "colour: data read");
	is_int(ss_io_class_from(SS_CLASS_FILE_DATA, &w), SS_CLS_WRITE, "colour: file data write");
	is_int(ss_io_class_from(SS_CLASS_DIR, &w), SS_CLS_DIR, "colour: directory");
	is_int(ss_io_class_from(SS_CLASS_META, &wm), SS_CLS_META, "colour: metadata");
	is_int(ss_io_class_from(SS_CLASS_JOURNAL, &w), SS_CLS_JOURNAL, "colour: journal");
	is_int(ss_io_class_from(SS_CLASS_DISCARD, &disc), SS_CLS_DISCARD, "colour: discard");
	is_int(ss_io_class_from(SS_CLASS_OTHER, &wz), SS_CLS_OTHER, "colour: other");
}

/* ---- the matrix ---- */

struct req {
	uint64_t ts;
	uint32_t dev;
	uint64_t sector;
	uint32_t nr;
	uint16_t flags;
};

/* Dev A: XFS-like, AG0..AG3 and a log inside AG2.  Dev B: ext4-like, groups 0 and 1, group
 * 0's inode table, a journal in group 1.  The comment says what each issue is. */
static const struct req reqs[] = {
	{ 1, DA, FS0 + 100, 8, SS_RW_WRITE },                   /* A first: no seek */
	{ 2, DB, 4096, 8, SS_RW_WRITE },                        /* B first */
	{ 3, DA, FS0 + AG + 100, 8, SS_RW_WRITE },              /* data AG0 -> data AG1: across */
	{ 4, DA, FS0 + AG + 108, 8, SS_RW_WRITE },              /* contiguous */
	{ 5, DB, ITAB, 8, SS_RW_WRITE },                        /* data g0 -> metadata itable */
	{ 6, DA, FS0 + AG + 5000, 8, SS_RW_WRITE },             /* data AG1 -> data AG1 */
	{ 7, DA, LOG0, 64, SS_RW_WRITE | SS_RW_FUA | SS_RW_PREFLUSH },  /* data -> journal */
	{ 8, DB, JRNL, 8, SS_RW_WRITE },                        /* metadata -> journal */
	{ 9, DA, FS0 + 3 * AG + 64, 8, SS_RW_WRITE | SS_RW_META },  /* journal -> metadata AG3 */
	{ 10, DA, FS0 + 100, 2048, SS_RW_DISCARD },             /* not evaluated */
	{ 11, DA, FS0 + 3 * AG + 72, 8, SS_RW_WRITE },          /* contiguous with 9's end */
	{ 12, DB, JRNL + 8, 8, SS_RW_WRITE },                   /* contiguous */
	{ 13, DA, FS0 + 500, 16, SS_RW_NONE | SS_RW_SYNC },     /* data AG3 -> other AG0 */
	{ 14, DA, SS_SECTOR_NONE, 0, SS_RW_FLUSH },             /* not evaluated */
	{ 15, DA, FS0 + 9000, 8, SS_RW_READ },                  /* other AG0 -> data AG0 */
};
#define NR_REQS (sizeof(reqs) / sizeof(reqs[0]))

static void zone(struct ss_writer *w, uint32_t dev, uint32_t kind, uint32_t index, uint64_t start,
		 uint64_t len, const char *label)
{
	struct ss_rec_zone z = { .dev = dev, .kind = kind, .index = index, .start_sector = start,
				 .nr_sectors = len };

	snprintf(z.label, sizeof(z.label), "%s", label);
	ss_writer_zone(w, &z);
}

static void write_trace(const char *path)
{
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device a = { .dev = DA, .major = 7, .minor = 0, .logical_block_size = 512,
				   .nr_sectors = FS0 + 4 * AG };
	struct ss_rec_device b = { .dev = DB, .major = 7, .minor = 1, .logical_block_size = 512,
				   .nr_sectors = 2 * 65536 };
	char label[32];

	strcpy(a.name, "loop0");
	strcpy(b.name, "loop1");
	ss_writer_device(w, &a);
	ss_writer_device(w, &b);
	for (uint32_t i = 0; i < 4; i++) {
		snprintf(label, sizeof(label), "AG%u", i);
		zone(w, DA, SS_ZONE_AG, i, FS0 + i * AG, AG, label);
	}
	zone(w, DA, SS_ZONE_LOG, 0, LOG0, 20000, "log");
	zone(w, DB, SS_ZONE_GROUP, 0, 0, 65536, "group 0");
	zone(w, DB, SS_ZONE_GROUP, 1, 65536, 65536, "group 1");
	zone(w, DB, SS_ZONE_INODE_TABLE, 0, ITAB, 512, "itable 0");
	zone(w, DB, SS_ZONE_JOURNAL, 0, JRNL, 8192, "journal");
	for (size_t i = 0; i < NR_REQS; i++)
		rt_put_io(w, reqs[i].dev, reqs[i].ts * MS, reqs[i].sector, reqs[i].nr,
			  reqs[i].flags, MS / 2);
	ss_writer_close(w);
}

#define D SS_CLASS_DATA
#define M SS_CLASS_META
#define J SS_CLASS_JOURNAL
#define O SS_CLASS_OTHER

static void check_cell(const struct ss_cause_matrix *m, int from, int to, uint64_t n,
		       uint64_t across, const char *where)
{
	is_int(m->n[from][to], n, "%s: %s -> %s: %llu seeks", where, ss_class_table[from].name,
	       ss_class_table[to].name, (unsigned long long)n);
	is_int(m->across[from][to], across, "%s: %s -> %s: %llu across zones", where,
	       ss_class_table[from].name, ss_class_table[to].name, (unsigned long long)across);
}

static struct ss_stats *run(struct ss_trace *t, bool window)
{
	struct ss_stats_opts o;
	struct ss_stats *st;

	ss_stats_opts_init(&o);
	o.causes = true;
	if (window) {          /* issues 3..8 only */
		o.window = true;
		o.window_start_ns = 3 * MS;
		o.window_end_ns = 8 * MS + MS / 4;
	}
	st = ss_stats_new(t, &o);
	if (!st || ss_stats_run(st, t)) {
		ok(0, "stats with causes");
		ss_stats_free(st);
		return NULL;
	}
	return st;
}

static uint64_t matrix_sum(const struct ss_cause_matrix *m)
{
	uint64_t s = 0;

	for (int f = 0; f < SS_NR_CLASSES; f++)
		for (int t = 0; t < SS_NR_CLASSES; t++)
			s += m->n[f][t];
	return s;
}

static void test_matrix(const char *path)
{
	char err[256];
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));
	const struct ss_cause_matrix *ma, *mb, *mt;
	const struct ss_cause_zone_pair *zp;
	const struct ss_seek_causes *sc;
	struct ss_cause_cell cells[SS_NR_CLASSES * SS_NR_CLASSES];
	struct ss_stats *st;
	size_t nz, nc;

	if (!ok(t != NULL, "open the two-device trace (%s)", t ? "" : err))
		return;
	if (!(st = run(t, false)))
		goto out;
	sc = ss_stats_causes(st);
	ma = ss_seek_causes_device(sc, DA);
	mb = ss_seek_causes_device(sc, DB);
	mt = ss_seek_causes_total(sc);
	check_cell(ma, D, D, 2, 1, "A");
	check_cell(ma, D, J, 1, 1, "A");
	check_cell(ma, J, M, 1, 1, "A");
	check_cell(ma, D, O, 1, 1, "A");
	check_cell(ma, O, D, 1, 0, "A");
	is_int(ma->seeks, 6, "A: 6 seeks");
	check_cell(mb, D, M, 1, 1, "B (group 0 -> its inode table: two zones)");
	check_cell(mb, M, J, 1, 1, "B");
	is_int(mb->seeks, 2, "B: 2 seeks");
	check_cell(mt, D, D, 2, 1, "total");
	check_cell(mt, D, M, 1, 1, "total");
	is_int(mt->seeks, 8, "total: 8 seeks");
	is_int(matrix_sum(mt), mt->seeks, "the matrix sums to its seeks");
	is_int(mt->seeks, ss_stats_total(st)->seeks, "= the statistics' seeks");
	is_int(ma->seeks, ss_stats_device(st, 0)->s.seeks, "A = its device's seeks");
	is_int(mb->seeks, ss_stats_device(st, 1)->s.seeks, "B = its device's seeks");
	is_int(ss_seek_causes_device(sc, SS_MKDEV(8, 0))->seeks, 0, "an unknown device: none");

	nc = ss_cause_cells(mt, cells, sizeof(cells) / sizeof(cells[0]));
	is_int(nc, 7, "7 distinct pairs");
	ok(nc && cells[0].from == D && cells[0].to == D && cells[0].seeks == 2,
	   "the biggest first: data -> data");
	for (size_t i = 1; i < nc; i++)
		if (!ok(cells[i].seeks == 1 && (cells[i - 1].seeks > 1 ||
						cells[i - 1].from < cells[i].from ||
						(cells[i - 1].from == cells[i].from &&
						 cells[i - 1].to < cells[i].to)),
			"cell %zu in order", i))
			break;

	zp = ss_seek_causes_zone_pairs(sc, &nz);
	is_int(nz, 8, "8 zone pairs (each seek its own)");
	is_int(ss_seek_causes_zone_pairs_dropped(sc), 0, "none dropped");
	for (size_t i = 0; i < nz; i++) {
		const char *f = zp[i].from_zone >= 0 ? t->zones[zp[i].from_zone].label : "-";
		const char *to = zp[i].to_zone >= 0 ? t->zones[zp[i].to_zone].label : "-";

		if (zp[i].from == D && zp[i].to == D && !strcmp(f, "AG0"))
			is_str(to, "AG1", "data AG0 -> data AG1");
		if (zp[i].from == D && zp[i].to == J)
			ok(!strcmp(f, "AG1") && !strcmp(to, "log"), "data AG1 -> journal log");
		if (zp[i].from == M && zp[i].to == J)
			ok(!strcmp(f, "itable 0") && !strcmp(to, "journal"),
			   "metadata itable 0 -> journal");
		if (zp[i].from == O)
			ok(!strcmp(f, "AG0") && !strcmp(to, "AG0"), "other AG0 -> data AG0");
	}
	ss_stats_free(st);

	/* a window: only the seeks in it count, positions still move outside it */
	if ((st = run(t, true))) {
		mt = ss_seek_causes_total(ss_stats_causes(st));
		is_int(mt->seeks, ss_stats_total(st)->seeks, "window: the matrix = the seeks");
		is_int(mt->seeks, 5, "window: issues 3, 5, 6, 7, 8 are seeks");
		check_cell(mt, D, D, 2, 1, "window");
		check_cell(mt, D, J, 1, 1, "window");
		check_cell(mt, M, J, 1, 1, "window");
		ss_stats_free(st);
	}
out:
	ss_trace_close(t);
}

/* The report prints the matrix: JSON (total, each device, the zone pairs) and text. */
static void test_report(const char *path)
{
	char err[256], *buf = NULL;
	size_t len = 0;
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));
	struct report_opts ro = { .seek_threshold = SS_SEEK_THRESHOLD_DEFAULT };
	struct ss_stats *st;
	FILE *f;

	if (!ok(t != NULL, "open for the report") || !(st = run(t, false)))
		goto out;
	f = open_memstream(&buf, &len);
	is_int(report_print_json(f, t, st, &ro), 0, "report --json");
	fclose(f);
	ok(strstr(buf, "\"seek_causes\":[{\"from\":\"data\",\"to\":\"data\",\"seeks\":2,"
		       "\"share\":25,\"across_zones\":1}") != NULL,
	   "JSON: data -> data first, 2 seeks, 25 %%, 1 across zones");
	ok(strstr(buf, "{\"from\":\"metadata\",\"to\":\"journal\",\"seeks\":1,\"share\":12.5,"
		       "\"across_zones\":1}") != NULL, "JSON: metadata -> journal 12.5 %%");
	ok(strstr(buf, "\"seek_causes\":[{\"from\":\"data\",\"to\":\"metadata\",\"seeks\":1,"
		       "\"share\":50,") != NULL, "JSON: device B's own matrix (data -> metadata 50 %%)");
	ok(strstr(buf, "{\"from\":\"data\",\"from_zone\":\"AG0\",\"to\":\"data\",\"to_zone\":"
		       "\"AG1\",\"seeks\":1}") != NULL, "JSON: the zone pair AG0 -> AG1");
	ok(strstr(buf, "\"seek_zone_pairs_other\":0") != NULL, "JSON: every pair listed");
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	is_int(report_print_text(f, t, st, &ro), 0, "report as text");
	fclose(f);
	ok(strstr(buf, "seek causes: the class of the request before and after each seek (8 seeks)")
	   && strstr(buf, "seek causes on loop0: the class") && strstr(buf, "seek causes on loop1"),
	   "text: the total and each device");
	ok(strstr(buf, "  data       data                2   25.0%              1\n") != NULL,
	   "text: data -> data, 2 seeks, 25.0 %%, 1 across zones");
	ok(strstr(buf, "  metadata   itable 0       journal    journal                 1   12.5%\n")
	   != NULL, "text: the zone pair itable 0 -> journal");
	free(buf);
	ss_stats_free(st);
out:
	ss_trace_close(t);
}

/* The bound on zone pairs: the seeks beyond it are counted apart, never lost from the matrix. */
static void test_bound(void)
{
	struct ss_seek_causes *sc = ss_seek_causes_new();
	struct ss_event e = ev_of(0, 8, SS_RW_WRITE);
	const struct ss_cause_zone_pair *zp;
	uint64_t sum = 0;
	size_t n;
	int bad = 0;

	if (!ok(sc != NULL, "seek causes"))
		return;
	bad |= ss_seek_causes_feed(sc, &e, D, 0, 1 /* SS_SEEK_FIRST */, true);
	for (long i = 1; i <= SS_CAUSE_ZONE_PAIRS + 10; i++)
		bad |= ss_seek_causes_feed(sc, &e, D, i, 3 /* SS_SEEK_FAR */, true);
	ok(!bad, "fed");
	ss_seek_causes_finish(sc);
	zp = ss_seek_causes_zone_pairs(sc, &n);
	is_int(n, SS_CAUSE_ZONE_PAIRS, "the pair table stops at its bound");
	is_int(ss_seek_causes_zone_pairs_dropped(sc), 10, "10 seeks beyond it counted apart");
	for (size_t i = 0; i < n; i++)
		sum += zp[i].seeks;
	is_int(sum + ss_seek_causes_zone_pairs_dropped(sc), SS_CAUSE_ZONE_PAIRS + 10,
	       "pairs + dropped = every seek");
	is_int(ss_seek_causes_total(sc)->seeks, SS_CAUSE_ZONE_PAIRS + 10, "the matrix has them all");
	is_int(ss_seek_causes_total(sc)->across[D][D], SS_CAUSE_ZONE_PAIRS + 10, "all across");
	ss_seek_causes_free(sc);
}

/* The panel draws both parts of a bar: within one zone light, across zones dark. */
static void test_panel(const char *path)
{
	struct ss_graph_opts go;
	struct rendered rd = { 0 };
	const char *traces[] = { path };
	const char *png = tpath("causes.png");
	struct ss_rect r;
	cairo_surface_t *img;

	ss_graph_opts_init(&go);
	go.panels[0] = ss_panels_find("causes");
	go.nr_panels = 1;
	if (!ok(go.panels[0] != NULL, "the causes panel is registered"))
		return;
	if (!render_into(&rd, traces, 1, png, 900, 400, &go))
		return;
	img = cairo_image_surface_create_from_png(png);
	if (ok(!ss_graph_panel_rect(rd.g, 0, 0, &r), "its rectangle")) {
		long dark = count_px(img, r.x, r.x + r.w, r.y, r.y + r.h, 0x08519C);
		long light = count_px(img, r.x, r.x + r.w, r.y, r.y + r.h, 0x9ECAE1);

		ok(dark > 100, "seeks across zones drawn dark (%ld px)", dark);
		ok(light > 20, "seeks within a zone drawn light (%ld px)", light);
	}
	cairo_surface_destroy(img);
	release(&rd);
}

int main(void)
{
	const char *path;

	test_rule();
	test_bound();
	if (testdir_make("causes"))
		return done_testing();
	path = strdup(tpath("two.sst"));
	write_trace(path);
	test_matrix(path);
	test_report(path);
	test_panel(path);
	free((void *)path);
	return done_testing();
}
