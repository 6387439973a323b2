// SPDX-License-Identifier: GPL-2.0-or-later
/* Byte buffers and encodings for the HTML viewer's data; see hbuf.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "hbuf.h"

void ss_hbuf_free(struct ss_hbuf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

bool ss_hbuf_failed(const struct ss_hbuf *b)
{
	return b->failed;
}

/* Room for N more bytes; false (and failed set) when there is none. */
static bool reserve(struct ss_hbuf *b, size_t n)
{
	size_t cap = b->cap ? b->cap : 256;
	unsigned char *p;

	if (b->failed)
		return false;
	if (b->len + n <= b->cap)
		return true;
	while (cap < b->len + n) {
		if (cap > SIZE_MAX / 2) {
			b->failed = true;
			return false;
		}
		cap *= 2;
	}
	if (!(p = realloc(b->p, cap))) {
		b->failed = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void ss_hbuf_put(struct ss_hbuf *b, const void *p, size_t n)
{
	if (!n || !reserve(b, n))
		return;
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void ss_hbuf_str(struct ss_hbuf *b, const char *s)
{
	ss_hbuf_put(b, s, strlen(s));
}

void ss_hbuf_printf(struct ss_hbuf *b, const char *fmt, ...)
{
	size_t room = b->failed ? 0 : b->cap - b->len;
	va_list ap;
	int n;

	/* one pass when the text fits in the room left, as it mostly does */
	va_start(ap, fmt);
	n = vsnprintf(room ? (char *)b->p + b->len : NULL, room, fmt, ap);
	va_end(ap);
	if (n >= 0 && (size_t)n < room) {
		b->len += (size_t)n;
		return;
	}
	if (n < 0 || !reserve(b, (size_t)n + 1))
		return;
	va_start(ap, fmt);
	vsnprintf((char *)b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void ss_hbuf_u8(struct ss_hbuf *b, uint8_t v)
{
	ss_hbuf_put(b, &v, 1);
}

void ss_hbuf_varint(struct ss_hbuf *b, uint64_t v)
{
	unsigned char tmp[10];
	size_t n = 0;

	do {
		tmp[n] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			tmp[n] |= 0x80;
		n++;
	} while (v);
	ss_hbuf_put(b, tmp, n);
}

void ss_hbuf_svarint(struct ss_hbuf *b, int64_t v)
{
	ss_hbuf_varint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

unsigned char *ss_hbuf_extend(struct ss_hbuf *b, size_t n)
{
	unsigned char *o;

	if (n > SIZE_MAX - b->len)
		b->failed = true;
	if (!reserve(b, n))
		return NULL;
	o = b->p + b->len;
	b->len += n;
	return o;
}

void ss_le_f64(unsigned char *o, double v)
{
	uint64_t u;

	memcpy(&u, &v, sizeof(u));
	for (int i = 0; i < 8; i++)
		o[i] = (unsigned char)(u >> (8 * i));
}

void ss_hbuf_f64(struct ss_hbuf *b, double v)
{
	unsigned char *o = ss_hbuf_extend(b, 8);

	if (o)
		ss_le_f64(o, v);
}

void ss_hbuf_u16s(struct ss_hbuf *b, const uint16_t *v, size_t n)
{
	unsigned char *o = ss_hbuf_extend(b, n <= SIZE_MAX / 2 ? 2 * n : SIZE_MAX);

	if (!o)
		return;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(o, v, 2 * n);
#else
	for (size_t i = 0; i < n; i++) {
		*o++ = (unsigned char)v[i];
		*o++ = (unsigned char)(v[i] >> 8);
	}
#endif
}

void ss_hbuf_json_str(struct ss_hbuf *b, const char *s)
{
	ss_hbuf_u8(b, '"');
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p == '"' || *p == '\\')
			ss_hbuf_printf(b, "\\%c", *p);
		else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
			ss_hbuf_printf(b, "\\u%04x", *p);
		else
			ss_hbuf_u8(b, *p);
	}
	ss_hbuf_u8(b, '"');
}

void ss_hbuf_base64(struct ss_hbuf *b, const unsigned char *p, size_t n)
{
	static const char abc[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t out = ss_base64_len(n), i = 0;
	char *o;

	if (!reserve(b, out))
		return;
	o = (char *)b->p + b->len;
	for (; i + 3 <= n; i += 3) {
		uint32_t v = (uint32_t)p[i] << 16 | (uint32_t)p[i + 1] << 8 | p[i + 2];

		*o++ = abc[v >> 18];
		*o++ = abc[v >> 12 & 63];
		*o++ = abc[v >> 6 & 63];
		*o++ = abc[v & 63];
	}
	if (i < n) {
		uint32_t v = (uint32_t)p[i] << 16 | (i + 1 < n ? (uint32_t)p[i + 1] << 8 : 0);

		*o++ = abc[v >> 18];
		*o++ = abc[v >> 12 & 63];
		*o++ = i + 1 < n ? abc[v >> 6 & 63] : '=';
		*o++ = '=';
	}
	b->len += out;
}

int ss_hbuf_deflate(struct ss_hbuf *b, const unsigned char *p, size_t n)
{
	uLongf out = compressBound((uLong)n);

	if (n > (size_t)UINT32_MAX || !reserve(b, out))
		return -ENOMEM;
	/* level 6: within a few per cent of 9 on this data, at a third of the time */
	if (compress2(b->p + b->len, &out, p, (uLong)n, 6) != Z_OK) {
		b->failed = true;
		return -ENOMEM;
	}
	b->len += out;
	return 0;
}
