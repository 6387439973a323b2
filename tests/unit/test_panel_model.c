// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model panel (plot --disk) drawn: two traces of random 256 KiB writes side by side, one
 * over the whole device (long seeks), one within its first 64th (short seeks, so seek,
 * rotation and transfer stand in other proportions), replayed through hdd7200.  The stacks are
 * there (seek, rotation and transfer pixels in the panel), their heights at the right edge
 * stand in the ratio of the totals the disk model gives when fed the same requests here, and
 * with the ssd model there is no seek band at all.  In a narrow picture the key stays within
 * each frame's title band (two rows of small type) and the title keeps its start.
 */
#include <math.h>

#include "tap.h"
#include "testdir.h"
#include "diskmodel.h"
#include "graph.h"
#include "panel_registry.h"
#include "trace_write.h"

#define DEV SS_MKDEV(7, 3)
#define SECTORS 4194304ull

/* 400 random aligned 256 KiB writes in the first SECTORS/DIV sectors, one every 2 ms; their
 * modelled total under P into *TOTAL. */
static int make_trace(const char *path, uint64_t div, const struct ss_disk_params *p,
		      double *total)
{
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = DEV, .major = 7, .minor = 3, .nr_sectors = SECTORS,
				   .logical_block_size = 512, .physical_block_size = 4096 };
	struct ss_disk_model *m = ss_disk_model_new(p, SECTORS);
	struct ss_disk_result r;
	uint64_t rng = 88172645463325252ull;
	int ret = 0;

	if (!w || !m)
		return -1;
	strcpy(d.name, "loop3");
	ret |= ss_writer_device(w, &d);
	for (int i = 0; i < 400; i++) {
		struct ss_event ev[2] = { { 0 } };

		rng ^= rng << 13;
		rng ^= rng >> 7;
		rng ^= rng << 17;
		ev[0] = (struct ss_event){ .ts_ns = 1000000000ull + (uint64_t)i * 2000000,
					   .sector = rng % (SECTORS / div / 512) * 512, .nr_sector = 512,
					   .bytes = 262144, .dev = DEV, .type = SS_EV_ISSUE,
					   .flags = SS_RW_WRITE };
		ev[1] = ev[0];
		ev[1].ts_ns += 1000000;
		ev[1].type = SS_EV_COMPLETE;
		ss_disk_model_feed(m, &ev[0], NULL);
		ret |= ss_writer_events(w, ev, 2);
	}
	ret |= ss_writer_close(w);
	ss_disk_model_result(m, &r);
	*total = r.time.total_s;
	ss_disk_model_free(m);
	return ret;
}

/* Pixels P of R for which IS(P, ARG). */
static long count_if(cairo_surface_t *img, const struct ss_rect *r, bool (*is)(uint32_t, unsigned),
		     unsigned arg)
{
	unsigned char *data = cairo_image_surface_get_data(img);
	int stride = cairo_image_surface_get_stride(img);
	long n = 0;

	for (int y = (int)ceil(r->y); y < (int)(r->y + r->h); y++)
		for (int x = (int)ceil(r->x); x < (int)(r->x + r->w); x++)
			n += is(*(uint32_t *)(data + (size_t)y * (size_t)stride + (size_t)x * 4), arg);
	return n;
}

/* P is the part colour RGB drawn at 75 % over white. */
static bool is_part(uint32_t p, unsigned rgb)
{
	for (int k = 0; k < 3; k++) {
		double want = 0.75 * (rgb >> (8 * k) & 0xff) + 0.25 * 255;

		if (fabs((double)(p >> (8 * k) & 0xff) - want) > 3)
			return false;
	}
	return true;
}

/* P is dark (text). */
static bool is_dark(uint32_t p, unsigned unused)
{
	(void)unused;
	return (p >> 16 & 0xff) < 100 && (p >> 8 & 0xff) < 100 && (p & 0xff) < 100;
}

static long count_part(cairo_surface_t *img, const struct ss_rect *r, unsigned rgb)
{
	return count_if(img, r, is_part, rgb);
}

static long dark(cairo_surface_t *img, const struct ss_rect *r)
{
	return count_if(img, r, is_dark, 0);
}

/* Height in pixels of the stack at the right edge of R: from the frame's bottom to the first
 * dark pixel from the top (the total's line). */
static double stack_height(cairo_surface_t *img, const struct ss_rect *r)
{
	unsigned char *data = cairo_image_surface_get_data(img);
	int stride = cairo_image_surface_get_stride(img), x = (int)(r->x + r->w) - 3;

	for (int y = (int)ceil(r->y) + 1; y < (int)(r->y + r->h); y++) {
		uint32_t p = *(uint32_t *)(data + (size_t)y * (size_t)stride + (size_t)x * 4);

		if ((p >> 16 & 0xff) < 200 || (p >> 8 & 0xff) < 200 || (p & 0xff) < 200)
			return r->y + r->h - y;
	}
	return 0;
}

/* Draw A and B side by side with panels io,model and disk P; 0 and the image, or -1. */
static int draw(const char *a, const char *b, const struct ss_disk_params *p, int width,
		int height, cairo_surface_t **img, struct ss_rect r[2])
{
	struct ss_trace *t[2] = { ss_trace_open(a, NULL, 0), ss_trace_open(b, NULL, 0) };
	struct ss_graph_opts go;
	struct ss_graph *g = NULL;
	char err[256];
	int ret = -1;

	ss_graph_opts_init(&go);
	go.width = width;
	go.height = height;
	go.has_disk = true;
	go.disk = *p;
	if (ss_panels_parse(&go, "io,model", err, sizeof(err)) || !t[0] || !t[1] ||
	    !(g = ss_graph_new(&go)) || ss_graph_add_trace(g, t[0], "a") ||
	    ss_graph_add_trace(g, t[1], "b") || ss_graph_run(g, err, sizeof(err)))
		goto out;
	*img = cairo_image_surface_create(CAIRO_FORMAT_RGB24, go.width, go.height);
	cairo_t *cr = cairo_create(*img);
	ss_graph_draw(g, cr);
	cairo_destroy(cr);
	cairo_surface_flush(*img);
	ret = ss_graph_panel_rect(g, 1, 0, &r[0]) || ss_graph_panel_rect(g, 1, 1, &r[1]) ? -1 : 0;
out:
	ss_graph_free(g);
	ss_trace_close(t[0]);
	ss_trace_close(t[1]);
	return ret;
}

int main(void)
{
	struct ss_disk_params hdd, ssd;
	double ta, tb, sa, sb, ha, hb;
	cairo_surface_t *img = NULL;
	struct ss_rect r[2];

	plan(17);
	if (testdir_make("panel_model"))
		return done_testing();
	ss_disk_params_preset("hdd7200", &hdd);
	ss_disk_params_preset("ssd", &ssd);
	is_int(make_trace(tpath("a.sst"), 1, &hdd, &ta) | make_trace(tpath("b.sst"), 64, &hdd, &tb),
	       0, "two traces of random writes, modelled directly: %.3f s and %.3f s", ta, tb);
	is_int(draw(tpath("a.sst"), tpath("b.sst"), &hdd, 1600, 900, &img, r), 0,
	       "drawn with --disk hdd7200");
	if (!img)
		return done_testing();
	ok(count_part(img, &r[0], 0xD55E00) > 2000 && count_part(img, &r[1], 0xD55E00) > 100,
	   "the seek band is there (%ld, %ld pixels)", count_part(img, &r[0], 0xD55E00),
	   count_part(img, &r[1], 0xD55E00));
	ok(count_part(img, &r[0], 0xE69F00) > 1000, "the rotation band is there (%ld pixels)",
	   count_part(img, &r[0], 0xE69F00));
	ok(count_part(img, &r[0], 0x0072B2) > 0, "the transfer band is there (%ld pixels)",
	   count_part(img, &r[0], 0x0072B2));
	ha = stack_height(img, &r[0]);
	hb = stack_height(img, &r[1]);
	ok(ha > r[0].h * 0.5 && ha < r[0].h, "the taller stack fills most of the shared scale "
	   "(%.0f of %.0f px)", ha, r[0].h);
	ok(fabs(ha / hb - ta / tb) < 0.04 * ta / tb, "stack heights %.0f / %.0f px = %.3f, totals %.3f / %.3f s "
	   "= %.3f", ha, hb, ha / hb, ta, tb, ta / tb);
	cairo_surface_destroy(img);
	img = NULL;

	make_trace(tpath("a.sst"), 1, &ssd, &sa);
	make_trace(tpath("b.sst"), 64, &ssd, &sb);
	is_int(draw(tpath("a.sst"), tpath("b.sst"), &ssd, 1600, 900, &img, r), 0,
	       "drawn with --disk ssd");
	if (!img)
		return done_testing();
	is_int((int)count_part(img, &r[0], 0xD55E00), 0, "an SSD does not seek: no seek band");
	/* a thin band over the transfer wedge: at least 0.5 % of the panel */
	ok(count_part(img, &r[0], 0x999999) > r[0].w * r[0].h / 200,
	   "its latency is booked as overhead (%ld pixels of %.0f)",
	   count_part(img, &r[0], 0x999999), r[0].w * r[0].h);
	cairo_surface_destroy(img);
	img = NULL;

	/* 800 px for two columns: the key in two rows of small type, within each frame's
	 * width, the title cut short of it */
	is_int(draw(tpath("a.sst"), tpath("b.sst"), &hdd, 800, 700, &img, r), 0,
	       "drawn 800 px wide");
	if (!img)
		return done_testing();
	for (int c = 0; c < 2; c++) {
		struct ss_rect band = { r[c].x, r[c].y - 22, r[c].w, 22 };
		struct ss_rect left = { c ? r[0].x + r[0].w + 1 : 0, r[c].y - 22,
					(c ? r[1].x - (r[0].x + r[0].w) : r[0].x) - 1, 22 };
		struct ss_rect title = { r[c].x, r[c].y - 22, 60, 22 };

		ok(count_part(img, &band, 0xD55E00) > 10 && count_part(img, &band, 0xE69F00) > 10,
		   "column %d: the key's seek and rotation boxes in the title band (%ld, %ld px)",
		   c, count_part(img, &band, 0xD55E00), count_part(img, &band, 0xE69F00));
		is_int((int)count_part(img, &left, 0xD55E00) + (int)count_part(img, &left, 0xE69F00),
		       0, "column %d: nothing of the key left of the frame", c);
		ok(dark(img, &title) > 30, "column %d: the title's start is kept (%ld dark px)", c,
		   dark(img, &title));
	}
	cairo_surface_destroy(img);
	return done_testing();
}
