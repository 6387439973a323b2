// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output surfaces: the plot draws into a cairo_t; this module picks the cairo surface from the
 * output file's extension (.png, .svg, .pdf) and writes the file.  Functions return 0 or
 * -errno and never print.
 */
#ifndef SS_SURFACE_H
#define SS_SURFACE_H

#include <stddef.h>
#include <cairo.h>

enum ss_out_format { SS_OUT_PNG, SS_OUT_SVG, SS_OUT_PDF };

/* Format for PATH's extension (case-insensitive); -EINVAL for anything else. */
int ss_out_format_from_path(const char *path);

struct ss_surface;

/*
 * Create the surface and its output: a temporary file next to PATH (collector/core/outfile.h)
 * that replaces PATH only when the picture is complete, so a failure leaves PATH as it was.
 * NULL + errno and a reason in err.
 */
struct ss_surface *ss_surface_new(const char *path, enum ss_out_format fmt, int width,
				  int height, char *err, size_t errlen);
/* The drawing context, owned by the surface. */
cairo_t *ss_surface_cairo(struct ss_surface *s);
/* Flush, write the picture and put the file in place.  Returns 0 or -errno (EIO for a cairo
 * error) with a reason in err. */
int ss_surface_finish(struct ss_surface *s, char *err, size_t errlen);
void ss_surface_free(struct ss_surface *s);      /* accepts NULL */

/*
 * cairo_image_surface_create()'s surface, its pixels (zeroed) in memory the kernel may back
 * with huge pages when there is 1 MiB of them or more (madvise MADV_HUGEPAGE; the
 * transparent huge pages' usual "madvise" mode): a page fault can cost 10 µs and more on a
 * virtual machine, and a 1600x1200 picture is 1,875 pages of 4 KiB.  The memory goes with the
 * surface.  Whatever fails, cairo's own surface (or its error surface).
 */
cairo_surface_t *ss_image_surface_create(cairo_format_t format, int width, int height);

#endif
