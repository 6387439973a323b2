// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A cairo RGB24 image as a PNG file: libpng writes the container (signature, IHDR, chunks and
 * their CRCs); the image data, zlib level 1 without row filters, is compressed in two halves
 * at once (a thread for the top half), the way pigz does: the bottom half's deflate stream
 * starts from the top half's last 32 KiB as its dictionary and follows the top half's flushed
 * stream, and the Adler-32 of the whole is combined from the halves'.  One valid zlib stream,
 * the same pixels, about the same size, in about half the time; the bytes do not depend on
 * whether the thread could start.  Nothing here prints.
 */
#ifndef SS_PNGENC_H
#define SS_PNGENC_H

#include <stddef.h>

/* Receives the file's bytes in order: 0, or a negative errno (which ends the writing). */
typedef int (*ss_png_sink)(void *ctx, const void *data, size_t len);

/*
 * Write the W x H image DATA (CAIRO_FORMAT_RGB24: a native-endian 32-bit 0xXXRRGGBB per
 * pixel, rows STRIDE bytes apart) as an 8-bit RGB PNG to SINK.  0 or -errno (ENOMEM, EINVAL,
 * the sink's error, EIO for a libpng failure).
 */
int ss_png_write(const unsigned char *data, int w, int h, size_t stride, ss_png_sink sink,
		 void *ctx);

#endif
