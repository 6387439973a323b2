// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Byte buffers for the HTML viewer's encoder: a growable buffer with the few encodings the
 * page's data uses — LEB128 varints (zigzag for signed values), little-endian doubles, deflate
 * (zlib format, what the browser's DecompressionStream("deflate") reads), base64 and JSON
 * strings safe inside a <script> element.  Allocation failures are sticky: every append after
 * one does nothing and ss_hbuf_failed() says so, so callers check once at the end.
 */
#ifndef SS_HBUF_H
#define SS_HBUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ss_hbuf {
	unsigned char *p;      /* owned */
	size_t len, cap;
	bool failed;           /* an allocation failed */
};

void ss_hbuf_free(struct ss_hbuf *b);                  /* back to empty; accepts a zeroed one */
bool ss_hbuf_failed(const struct ss_hbuf *b);
void ss_hbuf_put(struct ss_hbuf *b, const void *p, size_t n);
void ss_hbuf_str(struct ss_hbuf *b, const char *s);
void ss_hbuf_printf(struct ss_hbuf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void ss_hbuf_u8(struct ss_hbuf *b, uint8_t v);
void ss_hbuf_varint(struct ss_hbuf *b, uint64_t v);    /* LEB128 */
void ss_hbuf_svarint(struct ss_hbuf *b, int64_t v);    /* zigzag, then LEB128 */
void ss_hbuf_f64(struct ss_hbuf *b, double v);         /* little-endian IEEE 754 */
/* N more bytes at the end, for the caller to fill: their address, or NULL (failed set). */
unsigned char *ss_hbuf_extend(struct ss_hbuf *b, size_t n);
void ss_le_f64(unsigned char *o, double v);            /* V at O, as ss_hbuf_f64 writes it */
/* N values, little-endian: one reservation for all (the viewer's cell grids are millions) */
void ss_hbuf_u16s(struct ss_hbuf *b, const uint16_t *v, size_t n);
/* A JSON string (quotes included): control characters, quotes, backslashes and '<', '>', '&'
 * escaped, so the text cannot close the <script> element it sits in. */
void ss_hbuf_json_str(struct ss_hbuf *b, const char *s);
/* Base64 (RFC 4648, padded) of P[0..N). */
void ss_hbuf_base64(struct ss_hbuf *b, const unsigned char *p, size_t n);
/* Append the zlib-deflated P[0..N).  0 or -ENOMEM. */
int ss_hbuf_deflate(struct ss_hbuf *b, const unsigned char *p, size_t n);
/* Length of the base64 text for N bytes. */
static inline size_t ss_base64_len(size_t n)
{
	return (n + 2) / 3 * 4;
}

#endif
