// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: movies (render/video/movie.c, movie_view.c, timeline.c: `seekscope movie`) on
 * untrusted traces and option values — the style, size, frame rate, length or speed, cell
 * size, fade, --skip-idle, --x-range, the time panels under the animation, the seek threshold,
 * colours by group — prepared and then every frame drawn, handed to a frame sink instead of
 * an encoder (no FFmpeg, no file).
 *
 * Input: FUZZ_MOVIE_HDR option bytes (see movie_opts() below), then a seekscope trace (record
 * CRCs recomputed as in fuzz_trace.c).  One or two columns (the same trace twice).
 * Invariants: ss_movie_new refuses only what its header says it refuses; prepare and write
 * fail only with a message; a prepared movie has at least one frame, the frames' slices of
 * trace time follow one another without going back; the sink sees frames 0, 1, ... in order,
 * all of them, each of the movie's size, and nothing after a failure.
 */
#include <cairo.h>

#include "fuzz.h"
#include "fuzz_consume.h"
#include "movie.h"
#include "panel_registry.h"

#define FUZZ_MOVIE_HDR 24
#define MAX_FRAMES 24           /* frames drawn at most (speed mode can ask for millions) */

static int memfd = -1;

struct sink {
	int64_t next;
	int width, height;
};

static int sink_frame(void *ctx, cairo_surface_t *frame, int64_t k)
{
	struct sink *s = ctx;

	FUZZ_ASSERT(k == s->next, "frame %lld after %lld", (long long)k, (long long)s->next - 1);
	FUZZ_ASSERT(cairo_image_surface_get_width(frame) == s->width &&
		    cairo_image_surface_get_height(frame) == s->height,
		    "frame %dx%d, the movie is %dx%d", cairo_image_surface_get_width(frame),
		    cairo_image_surface_get_height(frame), s->width, s->height);
	s->next++;
	return 0;
}

/* Options from the header bytes H; the number of columns is returned. */
static int movie_opts(const uint8_t *h, struct ss_movie_opts *o)
{
	size_t np = 0;

	ss_movie_opts_init(o);
	o->style = (enum ss_movie_style)(h[0] % (SS_MOVIE_NR_STYLES + 1));  /* one past: refused */
	o->width = 16 + 2 * (h[1] | (h[2] & 1) << 8);       /* 16 .. 1038, even */
	o->height = 16 + 2 * (h[3] | (h[4] & 1) << 8);
	o->fps = h[5] % 61;                                /* 0 (refused) .. 60 */
	if (h[6] & 0x80) {
		o->length_s = 0;
		o->speed = (h[6] & 0x7f) ? ldexp(h[7] + 1, (h[6] & 0x3f) - 40) : 0;  /* 0: refused */
	} else {
		/* 0 .. 24 frames' worth (0: refused) */
		o->length_s = o->fps ? (double)(h[7] % (MAX_FRAMES + 1)) / o->fps : 1;
	}
	o->cell = h[8] % 40;                               /* 0, 1 refused */
	o->fade = h[9] % 20;                               /* 0 refused */
	o->skip_idle = h[10] & 1;
	if (h[10] & 2) {
		/* seconds: signed 8.8 fixed point, so negative, empty and inverted ranges too */
		o->has_x_range = true;
		o->x_lo_s = (int16_t)(h[11] | h[12] << 8) / 256.0;
		o->x_hi_s = (int16_t)(h[13] | h[14] << 8) / 256.0;
	}
	/* bit i: the i-th panel of the registry that a movie can show under its animation */
	for (size_t i = 0; i < ss_panels_count() && o->nr_panels < SS_MOVIE_MAX_PANELS; i++) {
		const struct ss_panel_ops *p = ss_panels_at(i);

		if (!p->time_x || p->sector_y || p->needs_disk)
			continue;
		if (np < 8 && (h[15] & 1u << np))
			o->panels[o->nr_panels++] = p;
		np++;
	}
	o->seek_threshold = (uint64_t)h[16] << (h[17] & 7) * 4;
	if (h[18] & 1) {
		o->color_by_group = true;
		o->group.by = (enum ss_group_by)((h[18] >> 1 & 3) % 3);
		o->group.depth = 1 + (h[18] >> 3 & 1);
		o->top_groups = h[18] >> 4 & 7;
	}
	return h[19] & 1 ? 2 : 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ss_movie_opts o;
	struct ss_movie *m = NULL;
	struct ss_trace *t = NULL;
	struct sink s = { 0 };
	char path[64], err[256] = "";
	int cols, ret;

	if (size < FUZZ_MOVIE_HDR || size > (1u << 20))
		return 0;
	cols = movie_opts(data, &o);
	if (fuzz_sst_memfile(&memfd, data + FUZZ_MOVIE_HDR, size - FUZZ_MOVIE_HDR, path, sizeof(path)))
		return 0;
	t = ss_trace_open(path, err, sizeof(err));
	if (!t)
		return 0;

	s.width = o.width;
	s.height = o.height;
	o.frame_sink = sink_frame;
	o.frame_ctx = &s;
	m = ss_movie_new(&o);
	if (!m) {
		FUZZ_ASSERT((unsigned)o.style >= SS_MOVIE_NR_STYLES || o.fps < 1 || o.cell < 2 ||
			    o.fade < 1 || !(o.length_s > 0 || o.speed > 0) ||
			    (o.has_x_range && !(o.x_hi_s > o.x_lo_s && o.x_lo_s >= 0)),
			    "ss_movie_new refused valid options");
		goto out;
	}
	for (int c = 0; c < cols; c++)
		if (ss_movie_add_trace(m, t, c ? "second" : "first"))
			goto out;
	ret = ss_movie_prepare(m, err, sizeof(err));
	if (ret) {
		FUZZ_ASSERT(ret < 0 && err[0], "movie prepare failed (%d) without a message", ret);
		goto out;
	}
	FUZZ_ASSERT(ss_movie_frames(m) >= 1, "%lld frames", (long long)ss_movie_frames(m));
	for (int64_t k = 0, prev = 0; k < ss_movie_frames(m) && k < MAX_FRAMES; k++) {
		uint64_t a, b;

		FUZZ_ASSERT(ss_movie_frame_span(m, k, &a, &b) == 0, "no span for frame %lld",
			    (long long)k);
		FUZZ_ASSERT(a <= b && a >= (uint64_t)prev, "frame %lld: [%llu, %llu) after %lld",
			    (long long)k, (unsigned long long)a, (unsigned long long)b,
			    (long long)prev);
		prev = (int64_t)b;
	}
	if (ss_movie_frames(m) > MAX_FRAMES)
		goto out;
	ret = ss_movie_write(m, NULL, err, sizeof(err));
	if (ret) {
		FUZZ_ASSERT(ret < 0 && err[0], "movie write failed (%d) without a message", ret);
		FUZZ_ASSERT(s.next < ss_movie_frames(m), "failed after all frames were drawn");
		goto out;
	}
	FUZZ_ASSERT(s.next == ss_movie_frames(m), "%lld frames drawn of %lld", (long long)s.next,
		    (long long)ss_movie_frames(m));
out:
	ss_movie_free(m);
	ss_trace_close(t);
	return 0;
}
