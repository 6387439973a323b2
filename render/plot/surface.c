// SPDX-License-Identifier: GPL-2.0-or-later
/* PNG / SVG / PDF output surfaces chosen by file extension; see surface.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "errbuf.h"
#include "hugemem.h"
#include "outfile.h"
#include "pngenc.h"
#include "surface.h"

struct ss_surface {
	enum ss_out_format fmt;
	cairo_surface_t *surf;
	cairo_t *cr;
	struct ss_outfile *out;   /* every format streams here, so write errors keep their errno */
	int write_err;            /* first errno of a failed write */
};

static cairo_status_t write_cb(void *closure, const unsigned char *data, unsigned int len)
{
	struct ss_surface *s = closure;
	int fd = ss_outfile_fd(s->out);

	while (len > 0 && !s->write_err) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			s->write_err = n < 0 ? errno : EIO;
			break;
		}
		data += n;
		len -= (unsigned int)n;
	}
	return s->write_err ? CAIRO_STATUS_WRITE_ERROR : CAIRO_STATUS_SUCCESS;
}

/* The PNG encoder's sink: the output file. */
static int png_sink(void *ctx, const void *data, size_t len)
{
	struct ss_surface *s = ctx;

	write_cb(s, data, (unsigned int)len);
	return s->write_err ? -s->write_err : 0;
}

/* The image surface as a PNG (pngenc.h: zlib level 1, no row filters, in two threads).  0 or
 * -errno. */
static int write_png(struct ss_surface *s)
{
	return ss_png_write(cairo_image_surface_get_data(s->surf),
			    cairo_image_surface_get_width(s->surf),
			    cairo_image_surface_get_height(s->surf),
			    (size_t)cairo_image_surface_get_stride(s->surf), png_sink, s);
}

/* ss_image_surface_create's memory, freed with the surface. */
struct image_mem {
	void *pixels;
	size_t len;
};

static const cairo_user_data_key_t image_mem_key;

static void image_mem_free(void *data)
{
	struct image_mem *m = data;

	ss_huge_free(m->pixels, m->len);
	free(m);
}

cairo_surface_t *ss_image_surface_create(cairo_format_t format, int width, int height)
{
	int stride = cairo_format_stride_for_width(format, width);
	struct image_mem *m;
	cairo_surface_t *surf;

	/* smaller ones as cairo makes them: ss_huge_alloc would take them from calloc too */
	if (stride <= 0 || height <= 0 || (size_t)stride * (size_t)height < SS_HUGE_MIN ||
	    !(m = malloc(sizeof(*m))))
		return cairo_image_surface_create(format, width, height);
	m->len = (size_t)stride * (size_t)height;
	if (!(m->pixels = ss_huge_alloc(m->len))) {
		free(m);
		return cairo_image_surface_create(format, width, height);
	}
	surf = cairo_image_surface_create_for_data(m->pixels, format, width, height, stride);
	if (cairo_surface_status(surf) ||
	    cairo_surface_set_user_data(surf, &image_mem_key, m, image_mem_free)) {
		cairo_surface_destroy(surf);
		image_mem_free(m);
		return cairo_image_surface_create(format, width, height);
	}
	return surf;
}

int ss_out_format_from_path(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return -EINVAL;
	if (!strcasecmp(dot, ".png"))
		return SS_OUT_PNG;
	if (!strcasecmp(dot, ".svg"))
		return SS_OUT_SVG;
	if (!strcasecmp(dot, ".pdf"))
		return SS_OUT_PDF;
	return -EINVAL;
}

static int status_errno(cairo_status_t st)
{
	switch (st) {
	case CAIRO_STATUS_SUCCESS: return 0;
	case CAIRO_STATUS_NO_MEMORY: return -ENOMEM;
	case CAIRO_STATUS_INVALID_SIZE: return -EINVAL;
	case CAIRO_STATUS_FILE_NOT_FOUND: return -ENOENT;
	default: return -EIO;
	}
}

struct ss_surface *ss_surface_new(const char *path, enum ss_out_format fmt, int width,
				  int height, char *err, size_t errlen)
{
	struct ss_surface *s;
	int ret;

	if (width <= 0 || height <= 0 || width > 32767 || height > 32767) {
		ss_errf(err, errlen, "picture size %dx%d out of range", width, height);
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s) {
		ss_errf(err, errlen, "out of memory");
		errno = ENOMEM;
		return NULL;
	}
	s->fmt = fmt;
	s->out = ss_outfile_open(path, SS_OUT_REPLACE, 0644, err, errlen);
	if (!s->out) {
		ret = -errno;
		goto error;
	}
	switch (fmt) {
	case SS_OUT_PNG:
		s->surf = ss_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
		break;
	case SS_OUT_SVG:
		s->surf = cairo_svg_surface_create_for_stream(write_cb, s, width, height);
		break;
	case SS_OUT_PDF:
		s->surf = cairo_pdf_surface_create_for_stream(write_cb, s, width, height);
		break;
	}
	/* cairo returns an error surface rather than NULL */
	if ((ret = status_errno(cairo_surface_status(s->surf))))
		goto cairo_error;
	s->cr = cairo_create(s->surf);
	if ((ret = status_errno(cairo_status(s->cr))))
		goto cairo_error;
	return s;
cairo_error:
	ss_errf(err, errlen, "%s: %s", path, strerror(-ret));
error:
	ss_surface_free(s);
	errno = -ret;
	return NULL;
}

cairo_t *ss_surface_cairo(struct ss_surface *s)
{
	return s->cr;
}

int ss_surface_finish(struct ss_surface *s, char *err, size_t errlen)
{
	int ret = status_errno(cairo_status(s->cr));

	if (!ret) {
		cairo_surface_flush(s->surf);
		if (s->fmt == SS_OUT_PNG)
			ret = write_png(s);
		else {
			cairo_surface_finish(s->surf);
			ret = status_errno(cairo_surface_status(s->surf));
		}
	}
	if (s->write_err)
		ret = -s->write_err;
	if (ret) {
		ss_errf(err, errlen, "%s", strerror(-ret));
		return ret;
	}
	/* the picture is complete: only now does it replace the file named */
	ret = ss_outfile_commit(s->out, err, errlen);
	s->out = NULL;
	return ret;
}

void ss_surface_free(struct ss_surface *s)
{
	if (!s)
		return;
	if (s->cr)
		cairo_destroy(s->cr);
	if (s->surf)
		cairo_surface_destroy(s->surf);   /* may still write a vector surface out */
	ss_outfile_discard(s->out);           /* not committed: the file named is untouched */
	free(s);
}
