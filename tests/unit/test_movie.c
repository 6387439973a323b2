// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Movie tests: the clock (timeline.h) as pure arithmetic — slices that tile the window, idle
 * runs shortened and counted — and whole movies of a hand-made trace in every style, checked
 * with FFmpeg's own tools: ffprobe counts exactly fps x length frames of the right duration,
 * and ffmpeg's decoded frames show each request lit in its class's colour in the frame whose
 * slice holds its issue time, not in the frame before, and (grid, spindle) faded after --fade
 * frames; two traces with different start times light up in the same frame for the same time
 * after their start (one clock).  The clock's place: right of the animation's title in a wide
 * column, in place of the title in a narrower one, over the animation's top right corner within
 * the column in a narrow one (the lamps one above the other in a narrower one still); in the
 * same place in every frame, its line changing as it plays.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <libavutil/log.h>

#include "tap.h"
#include "runline.h"
#include "testdir.h"
#include "encoder.h"
#include "avprobe.h"
#include "groups.h"
#include "layout.h"
#include "movie.h"
#include "palette.h"
#include "panel_registry.h"
#include "timeline.h"
#include "trace_read.h"
#include "trace_write.h"

#define S 1000000000ull
#define MS 1000000ull
#define DEV SS_MKDEV(7, 0)
#define AG_SECTORS 4194304ull          /* 2 GiB */
#define FS_START 2048ull
#define W 960
#define H 720
#define FPS 10
#define LEN_S 2                        /* 20 frames of 0.5 s over the 10 s trace */
#define FADE 4

/* ---- the clock ------------------------------------------------------------------------------ */

static void test_timeline_plain(void)
{
	struct ss_timeline tl;
	uint64_t sum = 0;
	bool mono = true;

	ok(ss_timeline_init(&tl, 3 * S, 13 * S, NULL, 0) == 0, "timeline without skipping");
	ss_timeline_set_frames(&tl, 300);
	is_int((long long)ss_timeline_shown(&tl), (long long)(10 * S), "shows the whole window");
	is_int((long long)ss_timeline_at(&tl, 0), (long long)(3 * S), "frame 0 starts at lo");
	is_int((long long)ss_timeline_at(&tl, 150), (long long)(8 * S), "frame 150 of 300 at the middle");
	is_int((long long)ss_timeline_at(&tl, 300), (long long)(13 * S), "at(frames) is hi");
	for (int k = 0; k < 300; k++) {
		uint64_t a = ss_timeline_at(&tl, k), b = ss_timeline_at(&tl, k + 1);

		mono &= b > a;
		sum += b - a;
	}
	ok(mono && sum == 10 * S, "300 slices in order tile the window exactly");
	is_int((long long)ss_timeline_skipped_before(&tl, 300), 0, "nothing skipped");
	/* 7 frames over 1 ns-odd spans: integer slices still tile */
	ss_timeline_fini(&tl);
	ss_timeline_init(&tl, 0, 1000000007, NULL, 0);
	ss_timeline_set_frames(&tl, 7);
	sum = 0;
	for (int k = 0; k < 7; k++)
		sum += ss_timeline_at(&tl, k + 1) - ss_timeline_at(&tl, k);
	is_int((long long)sum, 1000000007, "7 slices of an odd span tile it");
	ss_timeline_fini(&tl);
}

static void test_timeline_idle(void)
{
	static uint8_t busy[1000];
	struct ss_timeline tl;

	/* 1000 bins of 0.1 s over 100 s: busy 0-5 s, idle 5-90 s, busy 90-100 s */
	memset(busy, 0, sizeof(busy));
	memset(busy, 1, 50);
	memset(busy + 900, 1, 100);
	is_int(ss_timeline_bin_of(0, 100 * S, 1000, 5 * S - 1), 49, "bin of 4.999999999 s");
	is_int(ss_timeline_bin_of(0, 100 * S, 1000, 5 * S), 50, "bin of 5 s");
	is_int(ss_timeline_bin_of(0, 100 * S, 1000, 100 * S), 999, "bin of hi: the last");
	ok(ss_timeline_init(&tl, 0, 100 * S, busy, 1000) == 0, "timeline with an idle run");
	/* the 85 s run keeps its first 0.3 s (3 whole bins for 0.25 s) */
	is_int((long long)ss_timeline_shown(&tl), (long long)(15 * S + 300 * MS),
	       "shown: 5 + 0.3 + 10 s");
	ss_timeline_set_frames(&tl, 153);               /* 0.1 s shown per frame */
	is_int((long long)ss_timeline_at(&tl, 52), (long long)(5200 * MS),
	       "frame 52 starts in the kept part of the run");
	is_int((long long)ss_timeline_at(&tl, 53), (long long)(90 * S),
	       "frame 53 starts after the skipped 84.7 s");
	is_int((long long)ss_timeline_skipped_before(&tl, 53), (long long)(84700 * MS),
	       "84.7 s skipped before frame 53");
	is_int((long long)ss_timeline_skipped_before(&tl, 52), 0, "none before frame 52");
	is_int((long long)ss_timeline_at(&tl, 153), (long long)(100 * S), "the last slice ends at hi");
	ss_timeline_fini(&tl);

	/* a run of exactly 1 s is not idle */
	memset(busy, 1, sizeof(busy));
	memset(busy + 10, 0, 10);
	ss_timeline_init(&tl, 0, 100 * S, busy, 1000);
	is_int((long long)ss_timeline_shown(&tl), (long long)(100 * S), "a 1 s gap is kept");
	ss_timeline_fini(&tl);
}

/* ---- whole movies ---------------------------------------------------------------------------- */

struct req {
	uint64_t t;            /* ns after the capture start */
	uint64_t sector;
	uint32_t nr;
	uint16_t flags;
	struct ss_rgb rgb;     /* the palette's colour, written out here */
	int half;              /* 0: the whole cell; grid: 1 its top half, 2 its bottom half */
	uint32_t pid;          /* whose request (the trace's task table names them) */
};

/* The processes of the requests below. */
static const struct { uint32_t pid; const char *comm; } tasks[] = {
	{ 10, "tar" }, { 20, "cat" }, { 30, "fstrim" }, { 40, "mkfs.xfs" },
};

/*
 * A tall write in AG1 at 2.05 s (frame 4), a discard in AG2 at 3.3 s (frame 6), a read in AG3
 * at 5.75 s (frame 11), a write and a read of the same cell at 6.6 s (frame 13): the cell is
 * shared, write on top, read below, neither hides the other; a write-zeroes (rwbs N) in AG0
 * at 8.2 s (frame 16).
 */
#define SHARED (FS_START + AG_SECTORS / 4)
static const struct req reqs[] = {
	{ 2050 * MS, FS_START + AG_SECTORS + AG_SECTORS / 4, 524288, SS_RW_WRITE, SS_RGB(0x0072B2), 0,
	  10 },
	{ 3300 * MS, FS_START + 2 * AG_SECTORS + AG_SECTORS / 2, 262144, SS_RW_DISCARD,
	  SS_RGB(0xCC79A7), 0, 30 },
	{ 5750 * MS, FS_START + 3 * AG_SECTORS + AG_SECTORS / 2, 262144, SS_RW_READ, SS_RGB(0xE69F00), 0,
	  20 },
	{ 6600 * MS, SHARED, 8, SS_RW_WRITE, SS_RGB(0x0072B2), 1, 10 },
	{ 6600 * MS, SHARED, 8, SS_RW_READ, SS_RGB(0xE69F00), 2, 20 },
	{ 8200 * MS, FS_START + AG_SECTORS / 2 + AG_SECTORS / 4, 262144, SS_RW_NONE,
	  SS_RGB(0x56B4E9), 0, 40 },
};
#define NR_REQS (sizeof(reqs) / sizeof(reqs[0]))

/* A 10 s trace of an XFS-like filesystem with four AGs starting at START_NS. */
static int make_trace(const char *path, uint64_t start_ns)
{
	struct ss_writer *w = ss_writer_open(path, SS_OUT_INPLACE, NULL, 0);
	struct ss_rec_device d = { .dev = DEV, .major = 7, .logical_block_size = 512,
				   .nr_sectors = FS_START + 4 * AG_SECTORS, .part_start = FS_START,
				   .part_nr_sectors = 4 * AG_SECTORS, .flags = SS_DEV_PARTITION };
	struct ss_rec_capture cap = { .start_ns = start_ns, .nr_cpus = 1 };
	int ret = 0;

	if (!w)
		return -errno;
	strcpy(d.name, "loop0");
	strcpy(d.fstype, "xfs");
	strcpy(cap.clock, "mono");
	ret |= ss_writer_device(w, &d);
	for (int i = 0; i < 4; i++) {
		struct ss_rec_zone z = { .dev = DEV, .kind = SS_ZONE_AG, .index = (uint32_t)i,
					 .start_sector = FS_START + (uint64_t)i * AG_SECTORS,
					 .nr_sectors = AG_SECTORS };

		snprintf(z.label, sizeof(z.label), "AG%d", i);
		ret |= ss_writer_zone(w, &z);
	}
	ret |= ss_writer_capture(w, &cap);
	for (size_t i = 0; i < sizeof(tasks) / sizeof(tasks[0]); i++) {
		struct ss_rec_task tk = { .ts_ns = start_ns, .pid = tasks[i].pid };

		snprintf(tk.comm, sizeof(tk.comm), "%s", tasks[i].comm);
		ret |= ss_writer_tasks(w, &tk, 1);
	}
	for (size_t i = 0; i < NR_REQS; i++) {
		struct ss_event e[2] = {
			{ .ts_ns = start_ns + reqs[i].t, .sector = reqs[i].sector, .nr_sector = reqs[i].nr,
			  .bytes = reqs[i].nr * 512, .dev = DEV, .type = SS_EV_ISSUE,
			  .flags = reqs[i].flags, .pid = reqs[i].pid },
		};

		e[1] = e[0];
		e[1].type = SS_EV_COMPLETE;
		e[1].ts_ns += 2 * MS;
		ret |= ss_writer_events(w, e, 2);
	}
	cap.end_ns = start_ns + 10 * S;
	ret |= ss_writer_capture(w, &cap);
	ret |= ss_writer_close(w);
	return ret ? -EIO : 0;
}

/* Distance of pixel PX (rgb24) from colour C, the largest channel difference. */
static int dist(const unsigned char *px, struct ss_rgb c)
{
	int d = 0, want[3] = { (int)lround(c.r * 255), (int)lround(c.g * 255), (int)lround(c.b * 255) };

	for (int i = 0; i < 3; i++)
		if (abs(px[i] - want[i]) > d)
			d = abs(px[i] - want[i]);
	return d;
}

struct probe {
	int x, y;              /* pixel */
	int64_t frame;         /* the frame whose slice holds the issue */
	struct ss_rgb rgb;
	int d[3];              /* distance from the colour in frame-1, frame, frame+FADE */
	int req, col;          /* its index in reqs[], its column */
};

/* Decode PATH with ffmpeg and measure each probe's pixel in its frames; the frame count. */
static int decode(const char *path, struct probe *p, int n)
{
	static unsigned char img[W * H * 3];
	char cmd[1200];
	FILE *f;
	int k = 0, st;

	snprintf(cmd, sizeof(cmd), "ffmpeg -nostdin -v error -i '%s' -f rawvideo -pix_fmt rgb24 "
		 "-fps_mode passthrough -", path);
	if (!(f = popen(cmd, "r")))
		return -1;
	for (; fread(img, 1, sizeof(img), f) == sizeof(img); k++)
		for (int i = 0; i < n; i++)
			for (int j = 0; j < 3; j++)
				if (k == p[i].frame - 1 + (j == 2 ? FADE : j))
					p[i].d[j] = dist(img + ((size_t)p[i].y * W + (size_t)p[i].x) * 3,
							 p[i].rgb);
	st = pclose(f);
	return WIFEXITED(st) && !WEXITSTATUS(st) ? k : -1;
}

static struct ss_movie *movie_of(enum ss_movie_style style, struct ss_trace **t, int nr,
				  bool by_process)
{
	struct ss_movie_opts o;
	struct ss_movie *m;
	char err[256];

	ss_movie_opts_init(&o);
	o.style = style;
	o.width = W;
	o.height = H;
	o.fps = FPS;
	o.length_s = LEN_S;
	o.fade = FADE;
	o.cell = 10;
	o.panels[0] = ss_panels_find("seeks");
	o.nr_panels = 1;
	o.color_by_group = by_process;
	o.group.by = SS_GROUP_PROCESS;
	m = ss_movie_new(&o);
	for (int i = 0; m && i < nr; i++)
		ss_movie_add_trace(m, t[i], NULL);
	if (m && ss_movie_prepare(m, err, sizeof(err))) {
		printf("# prepare: %s\n", err);
		ss_movie_free(m);
		return NULL;
	}
	return m;
}

/* The slot of REQ's process among the ranked groups G. */
static size_t slot_of(const struct ss_groups *g, size_t req)
{
	for (size_t k = 0; k < sizeof(tasks) / sizeof(tasks[0]); k++)
		if (tasks[k].pid == reqs[req].pid)
			return ss_groups_slot(g, tasks[k].comm);
	return SIZE_MAX;
}

/* Which half of the shared cell request REQ takes (1 top, 2 bottom): the first colour in
 * palette order on top — by class (HALF as written), or by group slot (G). */
static int half_of(int half, size_t req, const struct ss_groups *g)
{
	size_t other = req;

	if (!g)
		return half;
	for (size_t i = 0; i < NR_REQS; i++)
		if (i != req && reqs[i].half)
			other = i;
	return slot_of(g, req) < slot_of(g, other) ? 1 : 2;
}

/*
 * Film the traces in STYLE; BY_PROCESS: coloured by process (--color-by process), each
 * request expected in its process's colour as the groups rank them (groups.h), else in its
 * class's.
 */
static void film(enum ss_movie_style style, struct ss_trace **t, int nr, bool by_process)
{
	const char *name = by_process ? "by process" : ss_movie_style_name(style);
	TP(out, "%s%d%s.mp4", ss_movie_style_name(style), nr, by_process ? "-process" : "");
	struct probe p[SS_GRAPH_MAX_TRACES * NR_REQS];
	struct ss_movie *m = movie_of(style, t, nr, by_process);
	struct ss_groups g = { 0 };
	struct ss_group_spec spec = { .by = SS_GROUP_PROCESS };
	char err[256] = "", line[256], cmd[1200];
	int n = 0, frames;

	if (!ok(m != NULL, "%s, %d trace(s): prepared", name, nr))
		return;
	if (by_process && ss_groups_rank(&spec, t, NULL, nr, NULL, 8, &g, err, sizeof(err)))
		printf("# ranking the processes: %s\n", err);
	is_int(ss_movie_frames(m), FPS * LEN_S, "%s: fps x length frames", name);
	for (int c = 0; c < nr; c++)
		for (size_t i = 0; i < NR_REQS; i++) {
			double x, y;

			if (reqs[i].half && style != SS_MOVIE_GRID)
				continue;
			if (ss_movie_pixel_of(m, c, reqs[i].sector + reqs[i].nr / 2, reqs[i].t, &x, &y))
				continue;
			/* 10-pixel cells, 9 drawn: the top half's rows 0-3, the bottom's 5-8 */
			if (reqs[i].half)
				y += half_of(reqs[i].half, i, by_process ? &g : NULL) == 1 ? -3 : 2;
			/* worked out here, not asked of the movie: 0.5 s a frame */
			p[n] = (struct probe){ (int)x, (int)y, (int64_t)(reqs[i].t / (500 * MS)),
					       reqs[i].rgb, { -1, -1, -1 }, (int)i, c };
			if (by_process)
				p[n].rgb = ss_group_colour(slot_of(&g, i), g.n);
			n++;
		}
	is_int(n, (style == SS_MOVIE_GRID ? 6 : 4) * nr, "%s: every request has a pixel", name);
	ok(ss_movie_write(m, out, err, sizeof(err)) == 0, "%s: written%s%s", name, err[0] ? ": " : "", err);
	ss_movie_free(m);
	snprintf(cmd, sizeof(cmd), "ffprobe -v error -count_frames -select_streams v:0 -show_entries "
		 "stream=nb_read_frames,duration -of csv=p=0 '%s'", out);
	run_line(cmd, line, sizeof(line));
	is_str(line, "2.000000,20", "%s: ffprobe: 2 s, 20 frames", name);
	frames = decode(out, p, n);
	is_int(frames, 20, "%s: ffmpeg decodes 20 frames", name);
	/*
	 * Lit: within 40 of the colour (H.264's loss), 60 for half a cell (4-pixel bands, their
	 * colour subsampled 2x2); the other class of a shared cell is 230 away.  Faded: the faint
	 * trace keeps 22% of the colour, for the palest classes (discard, other) on the zone grey
	 * about 85 away, 70 after H.264; lit at full it would be within 40.
	 */
	for (int i = 0; i < n; i++) {
		char rwbs[16];

		ok(p[i].d[1] >= 0 && p[i].d[1] <= (reqs[p[i].req].half ? 60 : 40), "%s: request %d (%s%s) of column %d lit in "
		   "frame %lld (off by %d)", name, p[i].req,
		   ss_rwbs_format(reqs[p[i].req].flags, rwbs, sizeof(rwbs)),
		   reqs[p[i].req].half ? ", half of a shared cell" : "", p[i].col,
		   (long long)p[i].frame, p[i].d[1]);
		ok(p[i].d[0] >= 90, "%s: ... not in frame %lld (off by %d)", name,
		   (long long)p[i].frame - 1, p[i].d[0]);
		if (style != SS_MOVIE_SCAN)
			ok(p[i].d[2] >= 55, "%s: ... faded %d frames later (off by %d)", name, FADE,
			   p[i].d[2]);
	}
}

/* A size too small for the figure names one that fits, with even sides. */
static void test_size_hint(struct ss_trace **t)
{
	struct ss_movie_opts o;
	struct ss_movie *m;
	char err[256] = "";
	const char *p;
	int w = 0, h = 0, ret;

	ss_movie_opts_init(&o);
	o.width = 640;
	o.height = 300;
	o.panels[0] = ss_panels_find("seeks");
	o.nr_panels = 1;
	m = ss_movie_new(&o);
	ss_movie_add_trace(m, t[0], NULL);
	ss_movie_add_trace(m, t[1], NULL);
	ret = ss_movie_prepare(m, err, sizeof(err));
	ss_movie_free(m);
	p = strstr(err, "(try --size ");
	ok(ret == -EINVAL && p && sscanf(p, "(try --size %dx%d)", &w, &h) == 2 && !(w % 2) &&
	   !(h % 2), "640x300 is too small for two columns: %s", err);
	o.width = w;
	o.height = h;
	m = ss_movie_new(&o);
	ss_movie_add_trace(m, t[0], NULL);
	ss_movie_add_trace(m, t[1], NULL);
	ok(ss_movie_prepare(m, err, sizeof(err)) == 0, "... the size it names fits: %dx%d", w, h);
	ss_movie_free(m);
}

/* ---- the clock's place ---------------------------------------------------------------------- */

/* An unlit lamp: 0.88 grey (224 or 225, as the 16-bit colour is rounded). */
static bool is_lamp_grey(uint32_t p)
{
	int r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF;

	return r == g && g == b && r >= 223 && r <= 226;
}

/* where the clock is; STACKED: over the animation, the lamps one above the other */
enum clock_place { IN_BAND, REPLACES_TITLE, OVER_ANIMATION, STACKED };

struct clock_seen {
	int nr;
	enum clock_place want;
	double ax[2], ay[2], aw[2];     /* the columns' animated areas */
	int lamp_y[2], lamp_x[2];       /* frame 0's lamp row and first lamp's left edge, -1 none */
	int lamp2_y[2], lamp2_x[2];     /* STACKED: the second lamp's */
	bool lamps_moved[2];
	int dark[2];                    /* frame 0: dark pixels where the clock's line ends */
	uint64_t hash[2][2];            /* the clock's line, frames 0 and last */
	int title_dark[2];              /* frame 0: dark pixels at the title band's left end */
	int outside[2];                 /* frame 0, OVER_ANIMATION: dark pixels left of the column */
	int frames;
};

/* In rows Y0..Y1, columns X0..X1 of an RGB24 image: the middle of the first rows crossing
 * RUNS unlit lamps (exactly RUNS runs of 7-13 lamp-grey pixels), *LEFT the first run's start;
 * -1 none. */
static int find_lamps(const uint32_t *px, int stride, int x0, int x1, int y0, int y1,
		      int runs_want, int *left)
{
	int first = -1, last = -1;

	for (int y = y0; y <= y1; y++) {
		int runs = 0, len = 0, lx = -1, bad = 0;

		for (int x = x0; x <= x1 + 1; x++) {
			if (x <= x1 && is_lamp_grey(px[(size_t)y * stride + x])) {
				len++;
				continue;
			}
			if (len >= 7 && len <= 13) {
				if (!runs++)
					lx = x - len;
			} else if (len > 13) {
				bad = 1;
			}
			len = 0;
		}
		if (runs == runs_want && !bad) {
			if (first < 0) {
				first = y;
				*left = lx;
			}
			last = y;
		} else if (first >= 0) {
			break;
		}
	}
	return first < 0 ? -1 : (first + last) / 2;
}

static bool is_dark(uint32_t p)
{
	return ((p >> 16) & 0xFF) < 0x70 && ((p >> 8) & 0xFF) < 0x70 && (p & 0xFF) < 0x70;
}

static int clock_sink(void *ctx, cairo_surface_t *frame, int64_t k)
{
	struct clock_seen *s = ctx;
	const uint32_t *px;
	int stride, h;

	cairo_surface_flush(frame);
	px = (const uint32_t *)(const void *)cairo_image_surface_get_data(frame);
	stride = cairo_image_surface_get_stride(frame) / 4;
	h = cairo_image_surface_get_height(frame);
	for (int c = 0; c < s->nr; c++) {
		int x0 = (int)s->ax[c], x1 = (int)(s->ax[c] + s->aw[c]) - 1;
		int y0 = (int)(s->ay[c] - ss_metrics.panel_title_h) - 2, y1 = (int)s->ay[c] + 50;
		int runs = s->want == STACKED ? 1 : 2, left = -1, left2 = -1, y2 = -1;
		int y = find_lamps(px, stride, x0, x1, y0 < 0 ? 0 : y0, y1 >= h ? h - 1 : y1, runs,
				   &left);
		uint64_t hash = 1469598103934665603ull;
		bool over = s->want >= OVER_ANIMATION;

		if (s->want == STACKED && y >= 0)
			y2 = find_lamps(px, stride, x0, x1, y + 8, y1 + 30 >= h ? h - 1 : y1 + 30, 1,
					&left2);
		if (k == 0) {
			s->lamp_y[c] = y;
			s->lamp_x[c] = left;
			s->lamp2_y[c] = y2;
			s->lamp2_x[c] = left2;
		} else if (y != s->lamp_y[c] || left != s->lamp_x[c] || y2 != s->lamp2_y[c]) {
			s->lamps_moved[c] = true;
		}
		if (s->lamp_y[c] < 0)
			continue;
		/* the clock's line: right-aligned 14 pixels left of the lamps (a band of 13
		 * rows), or over the animation in the row above them; its dark pixels (the
		 * requests this trace lights are not dark) hashed to see it change */
		int ly = s->lamp_y[c], lx = s->lamp_x[c], ax = (int)s->ax[c];
		int ya = over ? (int)s->ay[c] : ly - 6;
		int yb = over ? ly - 7 : ly + 6;
		int xa = over ? ax : lx - 80;
		int xb = over ? ax + (int)s->aw[c] : lx;

		for (int yy = ya; yy <= yb; yy++)
			for (int x = ax; x < xb; x++) {
				bool d = is_dark(px[(size_t)yy * stride + x]);

				hash = (hash ^ (uint64_t)(d ? x + 1 : 0) ^ (uint64_t)yy << 32) *
				       1099511628211ull;
				s->dark[c] += k == 0 && x >= xa && d;
			}
		if (k == 0)
			for (int yy = ly - 6; yy <= ly + 6; yy++)
				for (int x = ax; x < ax + 60; x++)
					s->title_dark[c] += is_dark(px[(size_t)yy * stride + x]);
		/* nothing of the clock left of the column's axis labels */
		if (k == 0 && over)
			for (int yy = (int)s->ay[c]; yy <= (int)s->ay[c] + 40; yy++)
				for (int x = c ? (int)(s->ax[c - 1] + s->aw[c - 1]) + 2 : 0;
				     x < ax - 50; x++)
					s->outside[c] += is_dark(px[(size_t)yy * stride + x]);
		s->hash[c][k ? 1 : 0] = hash;
	}
	s->frames++;
	return 0;
}

/* A movie of NR traces at W x H drawn into clock_sink: where is each column's clock? */
static void clock_at(struct ss_trace **t, int nr, int w, int h, enum clock_place want)
{
	static const char *const where[] = { "right of the title", "in place of the title",
					     "over the animation", "over the animation, stacked" };
	struct ss_movie_opts o;
	struct ss_movie *m;
	struct clock_seen s = { .nr = nr, .want = want };
	char err[256] = "";
	double ah;

	ss_movie_opts_init(&o);
	o.width = w;
	o.height = h;
	o.fps = FPS;
	o.length_s = LEN_S;
	o.panels[0] = ss_panels_find("seeks");
	o.nr_panels = 1;
	o.frame_sink = clock_sink;
	o.frame_ctx = &s;
	m = ss_movie_new(&o);
	for (int i = 0; m && i < nr; i++)
		ss_movie_add_trace(m, t[i], NULL);
	if (!ok(m && ss_movie_prepare(m, err, sizeof(err)) == 0, "%dx%d, %d column(s): prepared%s%s",
		w, h, nr, err[0] ? ": " : "", err)) {
		ss_movie_free(m);
		return;
	}
	for (int c = 0; c < nr; c++)
		ss_movie_anim_area(m, c, &s.ax[c], &s.ay[c], &s.aw[c], &ah);
	ok(ss_movie_write(m, "unused", err, sizeof(err)) == 0 && s.frames == FPS * LEN_S,
	   "... %d frames drawn%s%s", s.frames, err[0] ? ": " : "", err);
	ss_movie_free(m);
	for (int c = 0; c < nr; c++) {
		double band = s.ay[c] - ss_metrics.panel_title_h;
		bool in_band = s.lamp_y[c] >= band && s.lamp_y[c] < s.ay[c];

		printf("# column %d: animation at %.0f,%.0f, %.0f wide; lamps at %d,%d\n", c, s.ax[c],
		       s.ay[c], s.aw[c], s.lamp_x[c], s.lamp_y[c]);
		bool over = want >= OVER_ANIMATION;

		if (want == STACKED)
			printf("# second lamp at %d,%d\n", s.lamp2_x[c], s.lamp2_y[c]);
		ok(over ? s.lamp_y[c] > s.ay[c] && s.lamp_y[c] < s.ay[c] + 50 &&
				  s.lamp_x[c] >= s.ax[c]
			: in_band,
		   "... column %d: the clock's lamps %s", c, where[want]);
		if (want == STACKED)
			ok(s.lamp2_y[c] - s.lamp_y[c] > 10 && s.lamp2_y[c] - s.lamp_y[c] < 30 &&
			   s.lamp2_x[c] == s.lamp_x[c] && s.lamp_x[c] + 50 <= s.ax[c] + s.aw[c],
			   "... one above the other, within the animation's width");
		ok(!s.lamps_moved[c], "... they stay in place in every frame");
		ok(s.dark[c] > 20, "... the clock's line %s them (%d dark pixels)",
		   over ? "above" : "ends left of", s.dark[c]);
		ok(s.hash[c][0] != s.hash[c][1], "... and it changes as the movie plays");
		if (want == IN_BAND)
			ok(s.title_dark[c] > 20, "... the title is kept at the band's left end");
		else if (over)
			ok(s.outside[c] == 0, "... nothing of it left of the column (%d dark pixels)",
			   s.outside[c]);
	}
}

static void test_clock(struct ss_trace **t)
{
	clock_at(t, 1, W, H, IN_BAND);
	clock_at(t, 2, W, H, REPLACES_TITLE);
	clock_at(t, 2, 600, 680, OVER_ANIMATION);
	clock_at(t, 2, 520, 680, STACKED);
}

static void test_movies(void)
{
	struct ss_trace *t[2];
	char err[256];

	if (!ok(make_trace(tpath("a.sst"), 1 * S) == 0 && make_trace(tpath("b.sst"), 7 * S) == 0,
		"traces written"))
		return;
	t[0] = ss_trace_open(tpath("a.sst"), err, sizeof(err));
	t[1] = ss_trace_open(tpath("b.sst"), err, sizeof(err));
	if (!ok(t[0] && t[1], "traces open")) {
		ss_trace_close(t[0]);
		ss_trace_close(t[1]);
		return;
	}
	for (int s = 0; s < SS_MOVIE_NR_STYLES; s++)
		film((enum ss_movie_style)s, t, 1, false);
	/* side by side, starting 6 s apart: one clock from each start */
	film(SS_MOVIE_GRID, t, 2, false);
	film(SS_MOVIE_SCAN, t, 2, false);
	/* --color-by process: each request in its process's colour, as the legend names it */
	film(SS_MOVIE_GRID, t, 1, true);
	test_size_hint(t);
	test_clock(t);
	ss_trace_close(t[0]);
	ss_trace_close(t[1]);
}

int main(void)
{
	char line[64];

	test_timeline_plain();
	test_timeline_idle();
	if (run_line("ffprobe -version", line, sizeof(line)) ||
	    run_line("ffmpeg -version", line, sizeof(line))) {
		skip_need(1, NEED_CMD, "ffmpeg");
		return done_testing();
	}
	{
		int sig = av_load_signal();

		if (sig) {
			skip(1, "the movies: FFmpeg's libraries die of %s when loaded here (under "
			     "valgrind: an instruction it does not know on this CPU)", strsignal(sig));
			return done_testing();
		}
	}
	if (testdir_make("movie"))
		return 1;
	av_log_set_callback(ss_video_log_cb);
	test_movies();
	return done_testing();
}
