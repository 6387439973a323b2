// SPDX-License-Identifier: GPL-2.0-or-later
/* PNG / SVG / PDF output surfaces chosen by file extension; see surface.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>

#include "surface.h"

struct ss_surface {
	enum ss_out_format fmt;
	char *path;
	cairo_surface_t *surf;
	cairo_t *cr;
	FILE *f;            /* SVG and PDF stream here, so write errors keep their errno */
	int write_err;      /* first errno of a failed write */
};

static cairo_status_t write_cb(void *closure, const unsigned char *data, unsigned int len)
{
	struct ss_surface *s = closure;

	if (fwrite(data, 1, len, s->f) != len) {
		if (!s->write_err)
			s->write_err = errno ? errno : EIO;
		return CAIRO_STATUS_WRITE_ERROR;
	}
	return CAIRO_STATUS_SUCCESS;
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
				  int height)
{
	struct ss_surface *s;
	int ret;

	if (width <= 0 || height <= 0 || width > 32767 || height > 32767) {
		errno = EINVAL;
		return NULL;
	}
	s = calloc(1, sizeof(*s));
	if (!s || !(s->path = strdup(path))) {
		free(s);
		errno = ENOMEM;
		return NULL;
	}
	s->fmt = fmt;
	if (fmt != SS_OUT_PNG && !(s->f = fopen(path, "wb"))) {
		ret = -errno;
		goto error;
	}
	switch (fmt) {
	case SS_OUT_PNG:
		s->surf = cairo_image_surface_create(CAIRO_FORMAT_RGB24, width, height);
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
		goto error;
	s->cr = cairo_create(s->surf);
	if ((ret = status_errno(cairo_status(s->cr))))
		goto error;
	return s;
error:
	ss_surface_free(s);
	errno = -ret;
	return NULL;
}

cairo_t *ss_surface_cairo(struct ss_surface *s)
{
	return s->cr;
}

int ss_surface_finish(struct ss_surface *s)
{
	int ret = status_errno(cairo_status(s->cr));

	if (ret)
		return s->write_err ? -s->write_err : ret;
	cairo_surface_flush(s->surf);
	if (s->fmt == SS_OUT_PNG) {
		cairo_status_t st = cairo_surface_write_to_png(s->surf, s->path);

		if (st == CAIRO_STATUS_WRITE_ERROR)
			return errno ? -errno : -EIO;
		return status_errno(st);
	}
	cairo_surface_finish(s->surf);
	ret = status_errno(cairo_surface_status(s->surf));
	if (fflush(s->f) && !s->write_err)
		s->write_err = errno;
	if (s->write_err)
		return -s->write_err;
	return ret;
}

void ss_surface_free(struct ss_surface *s)
{
	if (!s)
		return;
	if (s->cr)
		cairo_destroy(s->cr);
	if (s->surf)
		cairo_surface_destroy(s->surf);   /* finishes a vector surface into s->f */
	if (s->f)
		fclose(s->f);
	free(s->path);
	free(s);
}
