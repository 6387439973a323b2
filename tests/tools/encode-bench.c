// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * encode-bench: times the movie encoder (render/video/encoder.h) on plot-like frames, for
 * tests/bench/encode.sh.  Each frame is what a `scan` movie frame costs to draw: a static
 * background (zone bands, grid, axis labels) painted from a cached surface, the dots of every
 * request so far (kept on a layer that grows by DOTS a frame), a moving time line and a
 * caption.  Prints drawing and encoding time separately, wall and CPU, and frames per second.
 *
 *   encode-bench -o OUT.{mp4,webm,mkv} [-n FRAMES] [-s WxH] [-r FPS] [-d DOTS]
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/resource.h>

#include <libavutil/log.h>

#include "encoder.h"

static double now(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static double cpu_seconds(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
	       (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

static void draw_background(cairo_surface_t *bg, int w, int h)
{
	cairo_t *cr = cairo_create(bg);
	static const double band[4][3] = {
		{ 0.90, 0.94, 1.00 }, { 1.00, 0.95, 0.88 }, { 0.90, 1.00, 0.90 }, { 1.00, 0.90, 0.95 },
	};
	char label[32];

	cairo_set_source_rgb(cr, 1, 1, 1);
	cairo_paint(cr);
	for (int i = 0; i < 4; i++) {     /* four allocation groups */
		cairo_set_source_rgb(cr, band[i][0], band[i][1], band[i][2]);
		cairo_rectangle(cr, 80, 40 + i * (h - 120) / 4.0, w - 120, (h - 120) / 4.0);
		cairo_fill(cr);
	}
	cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
	cairo_set_line_width(cr, 1);
	for (int i = 0; i <= 10; i++) {
		cairo_move_to(cr, 80 + i * (w - 120) / 10.0 + 0.5, 40);
		cairo_line_to(cr, 80 + i * (w - 120) / 10.0 + 0.5, h - 80);
		cairo_move_to(cr, 80, 40 + i * (h - 120) / 10.0 + 0.5);
		cairo_line_to(cr, w - 40, 40 + i * (h - 120) / 10.0 + 0.5);
	}
	cairo_stroke(cr);
	cairo_set_source_rgb(cr, 0, 0, 0);
	cairo_set_font_size(cr, 14);
	for (int i = 0; i <= 10; i++) {
		snprintf(label, sizeof(label), "%d s", i * 3);
		cairo_move_to(cr, 70 + i * (w - 120) / 10.0, h - 60);
		cairo_show_text(cr, label);
		snprintf(label, sizeof(label), "%d GiB", (10 - i) * 10);
		cairo_move_to(cr, 10, 45 + i * (h - 120) / 10.0);
		cairo_show_text(cr, label);
	}
	cairo_destroy(cr);
}

int main(int argc, char **argv)
{
	const char *out = NULL;
	int frames = 900, w = 1920, h = 1080, fps = 30, dots = 2200, c;
	double draw_wall = 0, enc_wall = 0, draw_cpu = 0, enc_cpu = 0, t0, c0, start;
	unsigned long long rng = 88172645463325252ull;
	cairo_surface_t *frame, *bg, *layer;
	cairo_t *fr, *lr;
	struct ss_video *v;
	char err[512], caption[64];
	int ret = 0;

	while ((c = getopt(argc, argv, "o:n:s:r:d:")) != -1) {
		switch (c) {
		case 'o': out = optarg; break;
		case 'n': frames = atoi(optarg); break;
		case 's':
			if (sscanf(optarg, "%dx%d", &w, &h) != 2)
				goto usage;
			break;
		case 'r': fps = atoi(optarg); break;
		case 'd': dots = atoi(optarg); break;
		default: goto usage;
		}
	}
	if (!out || frames < 1 || dots < 0)
		goto usage;
	av_log_set_callback(ss_video_log_cb);
	frame = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	bg = cairo_image_surface_create(CAIRO_FORMAT_RGB24, w, h);
	layer = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, w, h);
	draw_background(bg, w, h);
	fr = cairo_create(frame);
	lr = cairo_create(layer);
	start = now(CLOCK_MONOTONIC);
	v = ss_video_open(out, NULL, w, h, fps, err, sizeof(err));
	if (!v) {
		fprintf(stderr, "encode-bench: %s\n", err);
		return 1;
	}
	for (int k = 0; k < frames && !ret; k++) {
		double x = 80 + (double)(k + 1) / frames * (w - 120);

		t0 = now(CLOCK_MONOTONIC);
		c0 = cpu_seconds();
		/* this frame's requests: one dot each, on the layer that keeps them */
		for (int i = 0; i < dots; i++) {
			rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
			cairo_rectangle(lr, x - 1 - (double)(rng % 8), 40 + (double)(rng >> 40) /
					(1 << 24) * (h - 122), 2, 2);
		}
		cairo_set_source_rgb(lr, (k / 200) % 2 ? 0.1 : 0.8, 0.3, (k / 200) % 2 ? 0.8 : 0.1);
		cairo_fill(lr);
		cairo_set_source_surface(fr, bg, 0, 0);
		cairo_paint(fr);
		cairo_set_source_surface(fr, layer, 0, 0);
		cairo_paint(fr);
		cairo_set_source_rgb(fr, 0.8, 0, 0);
		cairo_set_line_width(fr, 2);
		cairo_move_to(fr, x, 40);
		cairo_line_to(fr, x, h - 80);
		cairo_stroke(fr);
		snprintf(caption, sizeof(caption), "t = %.2f s   frame %d", (double)k / fps, k);
		cairo_set_source_rgb(fr, 0, 0, 0);
		cairo_set_font_size(fr, 20);
		cairo_move_to(fr, w / 2.0 - 100, 28);
		cairo_show_text(fr, caption);
		cairo_surface_flush(frame);
		draw_wall += now(CLOCK_MONOTONIC) - t0;
		draw_cpu += cpu_seconds() - c0;

		t0 = now(CLOCK_MONOTONIC);
		c0 = cpu_seconds();
		ret = ss_video_write_frame(v, frame, err, sizeof(err));
		enc_wall += now(CLOCK_MONOTONIC) - t0;
		enc_cpu += cpu_seconds() - c0;
	}
	printf("encoder %s, %d frames %dx%d at %d fps (%.1f s of movie), %d dots a frame\n",
	       ss_video_encoder_name(v), frames, w, h, fps, (double)frames / fps, dots);
	t0 = now(CLOCK_MONOTONIC);
	c0 = cpu_seconds();
	if (ret)
		ss_video_abort(v);
	else
		ret = ss_video_close(v, err, sizeof(err));
	enc_wall += now(CLOCK_MONOTONIC) - t0;
	enc_cpu += cpu_seconds() - c0;
	if (ret) {
		fprintf(stderr, "encode-bench: %s\n", err);
		return 1;
	}
	/* encoder threads run while the main thread draws: CPU time is counted per process, so
	 * the split is approximate; the wall total is what counts */
	printf("drawing:  %6.2f s wall %6.2f s CPU\n", draw_wall, draw_cpu);
	printf("encoding: %6.2f s wall %6.2f s CPU (in the encoder's calls, its threads included)\n",
	       enc_wall, enc_cpu);
	printf("total:    %6.2f s wall  %.1f frames/s  (%.2fx real time)\n",
	       now(CLOCK_MONOTONIC) - start, frames / (now(CLOCK_MONOTONIC) - start),
	       ((double)frames / fps) / (now(CLOCK_MONOTONIC) - start));
	cairo_destroy(fr);
	cairo_destroy(lr);
	cairo_surface_destroy(frame);
	cairo_surface_destroy(bg);
	cairo_surface_destroy(layer);
	return 0;
usage:
	fprintf(stderr, "usage: encode-bench -o OUT.{mp4,webm,mkv} [-n FRAMES] [-s WxH] [-r FPS] "
		"[-d DOTS]\n");
	return 2;
}
