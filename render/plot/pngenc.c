// SPDX-License-Identifier: GPL-2.0-or-later
/* The PNG writer of pngenc.h. */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <png.h>
#include <zlib.h>

#include "pngenc.h"

#define LEVEL 1                 /* zlib level: ~4x faster than 6, files ~1/5 larger */
#define ROWS 16                 /* rows converted per deflate call */
#define SPLIT_MIN_ROWS 256      /* smaller pictures are one stream */
#define WINDOW 32768            /* deflate's window: the dictionary a half starts from */
#define IDAT_MAX (1u << 20)     /* bytes per IDAT chunk (any size up to 2^31 - 1 is valid) */

/* One half of the image: rows [y0, y1) compressed into out. */
struct part {
	const unsigned char *data;
	size_t stride;
	int w, y0, y1;
	bool first, last;       /* the first starts with the zlib header, the last ends the stream */
	unsigned char *out;
	size_t len, cap;
	uLong adler;            /* Adler-32 of its uncompressed bytes (filter bytes included) */
	size_t raw;             /* ... and their count */
	int err;
};

/* Row Y of the image as a PNG scanline: filter type 0 (none), then R, G, B per pixel. */
static void scanline(const struct part *p, int y, unsigned char *dst)
{
	const unsigned char *src = p->data + (size_t)y * p->stride;

	*dst++ = 0;
	for (int x = 0; x < p->w; x++) {
		uint32_t px;

		memcpy(&px, src + 4 * (size_t)x, 4);   /* native-endian 0xXXRRGGBB */
		dst[0] = (unsigned char)(px >> 16);
		dst[1] = (unsigned char)(px >> 8);
		dst[2] = (unsigned char)px;
		dst += 3;
	}
}

static int grow(struct part *p, size_t room)
{
	unsigned char *n;
	size_t cap;

	if (p->cap - p->len >= room)
		return 0;
	cap = p->cap ? p->cap * 2 : 65536;
	while (cap - p->len < room)
		cap *= 2;
	if (!(n = realloc(p->out, cap)))
		return -ENOMEM;
	p->out = n;
	p->cap = cap;
	return 0;
}

/* Feed Z what is in it with FLUSH, collecting everything deflate has to say. */
static int pump(struct part *p, z_stream *z, int flush)
{
	for (;;) {
		int r;

		if (grow(p, 65536))
			return -ENOMEM;
		z->next_out = p->out + p->len;
		z->avail_out = (uInt)(p->cap - p->len > UINT32_MAX ? UINT32_MAX : p->cap - p->len);
		r = deflate(z, flush);
		p->len = (size_t)(z->next_out - p->out);
		if (r == Z_STREAM_END)
			return 0;
		if (r != Z_OK && r != Z_BUF_ERROR)
			return -EIO;
		/* done when the input is used and deflate left room (it had nothing more) */
		if (!z->avail_in && z->avail_out && flush != Z_FINISH)
			return 0;
	}
}

static void *compress_part(void *arg)
{
	struct part *p = arg;
	size_t line = 1 + 3 * (size_t)p->w;
	unsigned char *buf = malloc(line * ROWS);
	z_stream z;
	int err = 0;

	memset(&z, 0, sizeof(z));
	p->adler = adler32(0, NULL, 0);
	/* raw deflate: the zlib header and trailer are the caller's, for the whole stream */
	if (!buf || grow(p, 2) ||
	    deflateInit2(&z, LEVEL, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
		free(buf);
		p->err = -ENOMEM;
		return NULL;
	}
	if (p->first) {
		p->out[p->len++] = 0x78;   /* deflate, 32 KiB window */
		p->out[p->len++] = 0x01;   /* fastest; (0x78 << 8 | 0x01) % 31 == 0 */
	}
	if (!p->first) {
		/* the preceding rows' last WINDOW bytes, as the stream before it saw them */
		int k = (int)((WINDOW + line - 1) / line);
		unsigned char *dict;
		size_t n;

		if (k > p->y0)
			k = p->y0;
		if (k > ROWS)
			k = ROWS;   /* 16 rows: 32 KiB as soon as a row is 683 pixels wide */
		n = (size_t)k * line;
		for (int i = 0; i < k; i++)
			scanline(p, p->y0 - k + i, buf + (size_t)i * line);
		dict = n > WINDOW ? buf + (n - WINDOW) : buf;
		if (deflateSetDictionary(&z, dict, (uInt)(n > WINDOW ? WINDOW : n)) != Z_OK)
			err = -EIO;
	}
	for (int y = p->y0; !err && y < p->y1; y += ROWS) {
		int n = p->y1 - y < ROWS ? p->y1 - y : ROWS;
		size_t bytes = (size_t)n * line;

		for (int i = 0; i < n; i++)
			scanline(p, y + i, buf + (size_t)i * line);
		p->adler = libdeflate_adler32((uint32_t)p->adler, buf, bytes);   /* SIMD: ~10x zlib's */
		p->raw += bytes;
		z.next_in = buf;
		z.avail_in = (uInt)bytes;
		err = pump(p, &z, y + n < p->y1 ? Z_NO_FLUSH : p->last ? Z_FINISH : Z_SYNC_FLUSH);
	}
	deflateEnd(&z);
	free(buf);
	p->err = err;
	return NULL;
}

struct sink {
	ss_png_sink fn;
	void *ctx;
	int err;
};

static void write_cb(png_structp png, png_bytep data, size_t len)
{
	struct sink *s = png_get_io_ptr(png);

	if (!s->err && (s->err = s->fn(s->ctx, data, len)))
		png_error(png, "write error");
}

static void flush_cb(png_structp png)
{
	(void)png;
}

/* libpng's default handlers print; a library does not: the caller gets -errno instead. */
static void error_cb(png_structp png, png_const_charp msg)
{
	(void)msg;
	png_longjmp(png, 1);
}

static void warning_cb(png_structp png, png_const_charp msg)
{
	(void)png;
	(void)msg;
}

/* The zlib stream, the halves one after the other, as IDAT chunks; IEND.  libpng calls
 * (png_error) may not return. */
static void write_chunks(png_structp png, const struct part *part, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		for (size_t at = 0; at < part[i].len; at += IDAT_MAX)
			png_write_chunk(png, (png_const_bytep)"IDAT", part[i].out + at,
					part[i].len - at < IDAT_MAX ? part[i].len - at : IDAT_MAX);
	png_write_chunk(png, (png_const_bytep)"IEND", NULL, 0);
}

static int write_file(int w, int h, const struct part *part, size_t nr, ss_png_sink fn,
		      void *ctx)
{
	struct sink s = { .fn = fn, .ctx = ctx };
	png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, error_cb,
						  warning_cb);
	png_infop info = png ? png_create_info_struct(png) : NULL;

	if (!info) {
		png_destroy_write_struct(&png, NULL);
		return -ENOMEM;
	}
	if (setjmp(png_jmpbuf(png))) {
		/* the sink's error read through libpng's pointer to it: a local changed after
		 * setjmp (here by write_cb) is indeterminate after the longjmp */
		const struct sink *sp = png_get_io_ptr(png);
		int err = sp && sp->err ? sp->err : -EIO;

		png_destroy_write_struct(&png, &info);
		return err;
	}
	png_set_write_fn(png, &s, write_cb, flush_cb);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB,
		     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	write_chunks(png, part, nr);
	png_destroy_write_struct(&png, &info);
	return s.err;
}

int ss_png_write(const unsigned char *data, int w, int h, size_t stride, ss_png_sink sink,
		 void *ctx)
{
	struct part part[2];
	size_t nr = h >= SPLIT_MIN_ROWS ? 2 : 1;
	pthread_t th;
	bool threaded = false;
	uLong a;
	int ret = 0;

	if (w <= 0 || h <= 0 || stride < 4 * (size_t)w)
		return -EINVAL;
	memset(part, 0, sizeof(part));
	for (size_t i = 0; i < nr; i++) {
		part[i].data = data;
		part[i].stride = stride;
		part[i].w = w;
		part[i].y0 = (int)((size_t)h * i / nr);
		part[i].y1 = (int)((size_t)h * (i + 1) / nr);
		part[i].first = i == 0;
		part[i].last = i == nr - 1;
	}
	/* the top half in a thread when one starts; else here, before the bottom half */
	if (nr == 2)
		threaded = !pthread_create(&th, NULL, compress_part, &part[0]);
	if (nr == 2 && !threaded)
		compress_part(&part[0]);
	compress_part(&part[nr - 1]);
	if (threaded)
		pthread_join(th, NULL);
	for (size_t i = 0; i < nr; i++)
		if (!ret)
			ret = part[i].err;
	if (!ret && !(ret = grow(&part[nr - 1], 4))) {
		struct part *l = &part[nr - 1];

		/* the zlib trailer: the Adler-32 of the whole, big-endian */
		a = part[0].adler;
		if (nr == 2)
			a = adler32_combine(a, part[1].adler, (z_off_t)part[1].raw);
		l->out[l->len++] = (unsigned char)(a >> 24);
		l->out[l->len++] = (unsigned char)(a >> 16);
		l->out[l->len++] = (unsigned char)(a >> 8);
		l->out[l->len++] = (unsigned char)a;
		ret = write_file(w, h, part, nr, sink, ctx);
	}
	for (size_t i = 0; i < nr; i++)
		free(part[i].out);
	return ret;
}
