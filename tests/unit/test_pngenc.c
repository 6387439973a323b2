// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The PNG writer (pngenc.h): pictures of every shape (one row, one column, just below and at
 * the size where the data is compressed in two halves, wide, noisy enough to need several
 * IDAT chunks) read back by libpng with exactly the pixels written; a failing sink's error
 * is returned; bad arguments are refused.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

#include "tap.h"
#include "pngenc.h"

struct buf {
	unsigned char *p;
	size_t len, cap;
	size_t fail_after;     /* fail once this many bytes were taken (0: never) */
};

static int sink(void *ctx, const void *data, size_t len)
{
	struct buf *b = ctx;

	if (b->fail_after && b->len + len > b->fail_after)
		return -ENOSPC;
	if (b->len + len > b->cap) {
		size_t cap = (b->len + len) * 2;
		unsigned char *n = realloc(b->p, cap);

		if (!n)
			return -ENOMEM;
		b->p = n;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, len);
	b->len += len;
	return 0;
}

/* A W x H RGB24 picture: flat areas, lines and, with NOISE, random pixels. */
static uint32_t *picture(int w, int h, size_t stride, int noise)
{
	uint32_t *px = malloc(stride * (size_t)h);
	uint64_t x = 42;

	if (!px)
		return NULL;
	for (int y = 0; y < h; y++)
		for (int i = 0; i < w; i++) {
			uint32_t v = 0xffffff;

			x = x * 6364136223846793005ull + 1442695040888963407ull;
			if (noise)
				v = (uint32_t)(x >> 40);
			else if (i % 97 == 0 || y % 53 == 0)
				v = 0x1f77b4;
			else if ((i + y) % 11 == 0)
				v = 0xd62728;
			/* the unused top byte is garbage in cairo's images too */
			((uint32_t *)((unsigned char *)px + (size_t)y * stride))[i] = v | (uint32_t)(x & 0xff000000u);
		}
	return px;
}

static void roundtrip(int w, int h, int noise)
{
	size_t stride = (size_t)w * 4 + 8;
	uint32_t *px = picture(w, h, stride, noise);
	struct buf b = { 0 };
	png_image im;
	unsigned char *rgb = NULL;
	int bad = 0;

	memset(&im, 0, sizeof(im));
	if (!px) {
		ok(0, "%dx%d: out of memory", w, h);
		return;
	}
	int ret = ss_png_write((const unsigned char *)px, w, h, stride, sink, &b);

	if (!ok(ret == 0, "%dx%d%s written (%zu bytes)", w, h, noise ? " noise" : "", b.len))
		goto out;
	im.version = PNG_IMAGE_VERSION;
	if (!ok(png_image_begin_read_from_memory(&im, b.p, b.len), "... libpng reads it (%s)",
		im.message))
		goto out;
	im.format = PNG_FORMAT_RGB;
	rgb = malloc(PNG_IMAGE_SIZE(im));
	if (!ok(rgb && png_image_finish_read(&im, NULL, rgb, 0, NULL) &&
		im.width == (png_uint_32)w && im.height == (png_uint_32)h,
		"... decodes to %ux%u (%s)", im.width, im.height, im.message))
		goto out;
	for (int y = 0; y < h; y++)
		for (int i = 0; i < w; i++) {
			uint32_t v = ((uint32_t *)((unsigned char *)px + (size_t)y * stride))[i];
			const unsigned char *q = rgb + ((size_t)y * (size_t)w + (size_t)i) * 3;

			bad += q[0] != (unsigned char)(v >> 16) || q[1] != (unsigned char)(v >> 8) ||
			       q[2] != (unsigned char)v;
		}
	is_int(bad, 0, "... with the pixels written");
out:
	png_image_free(&im);
	free(rgb);
	free(b.p);
	free(px);
}

static void test_sink_error(void)
{
	int w = 800, h = 600;
	size_t stride = (size_t)w * 4;
	uint32_t *px = picture(w, h, stride, 1);
	struct buf b = { .fail_after = 100000 };

	is_int(px ? ss_png_write((const unsigned char *)px, w, h, stride, sink, &b) : -ENOMEM,
	       -ENOSPC, "a sink failing half-way: its error");
	free(b.p);
	b = (struct buf){ .fail_after = 10 };
	is_int(px ? ss_png_write((const unsigned char *)px, w, h, stride, sink, &b) : -ENOMEM,
	       -ENOSPC, "... failing at the signature: its error");
	free(b.p);
	free(px);
	is_int(ss_png_write((const unsigned char *)"", 0, 1, 4, sink, &b), -EINVAL, "width 0: EINVAL");
	is_int(ss_png_write((const unsigned char *)"", 4, 1, 8, sink, &b), -EINVAL,
	       "a stride shorter than a row: EINVAL");
}

int main(void)
{
	roundtrip(1, 1, 0);
	roundtrip(1, 700, 0);
	roundtrip(700, 1, 0);
	roundtrip(333, 255, 0);     /* one stream */
	roundtrip(333, 256, 0);     /* two halves */
	roundtrip(1600, 1200, 0);
	roundtrip(4001, 257, 0);    /* a row longer than the 32 KiB dictionary */
	roundtrip(1000, 900, 1);    /* noise: ~2.7 MB, several IDAT chunks */
	test_sink_error();
	return done_testing();
}
