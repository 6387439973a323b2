// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Colours for every plot, from the Okabe-Ito palette (safe for the common colour-vision
 * deficiencies), chosen so the classes that must be told apart also differ in lightness and
 * survive grayscale printing: write = dark blue, read = light orange, metadata = black,
 * journal/log = bluish green (and it lives inside the shaded log band anyway).
 */
#ifndef SS_PALETTE_H
#define SS_PALETTE_H

#include <stddef.h>
#include <cairo.h>

struct ss_rgb {
	double r, g, b;
};

/* I/O classes of the sector panel, in drawing priority order (later wins a shared pixel). */
enum ss_io_class { SS_CLS_WRITE, SS_CLS_READ, SS_CLS_META, SS_CLS_JOURNAL, SS_CLS_MAX };

#define SS_RGB(hex) { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0 }

static const struct ss_rgb ss_col_class[SS_CLS_MAX] = {
	[SS_CLS_WRITE]   = SS_RGB(0x0072B2),   /* blue */
	[SS_CLS_READ]    = SS_RGB(0xE69F00),   /* orange */
	[SS_CLS_META]    = SS_RGB(0x000000),   /* black */
	[SS_CLS_JOURNAL] = SS_RGB(0x009E73),   /* bluish green */
};
static const char *const ss_class_name[SS_CLS_MAX] = {
	"data write", "data read", "metadata", "journal/log",
};

/* Processes (plot --color-by process), biggest first: distinct hues, then darker and lighter
 * variants; "other" is grey.  Drawn over white and the light zone bands. */
static const struct ss_rgb ss_col_proc[] = {
	SS_RGB(0x0072B2), SS_RGB(0xE69F00), SS_RGB(0x009E73), SS_RGB(0xCC79A7),
	SS_RGB(0x56B4E9), SS_RGB(0x882255), SS_RGB(0x000000), SS_RGB(0x8C564B),
	SS_RGB(0x7F7F00), SS_RGB(0x9467BD),
};
static const struct ss_rgb ss_col_other   = SS_RGB(0xA0A0A0);
#define SS_NR_PROC_COLOURS (sizeof(ss_col_proc) / sizeof(ss_col_proc[0]))

/* The colour of process slot I (procgroups.h); slots past the palette are "other". */
static inline struct ss_rgb ss_proc_colour(size_t i)
{
	return i < SS_NR_PROC_COLOURS ? ss_col_proc[i] : ss_col_other;
}

static const struct ss_rgb ss_col_flush   = SS_RGB(0xD55E00);  /* vermillion */
static const struct ss_rgb ss_col_fua     = SS_RGB(0xCC79A7);  /* reddish purple */
static const struct ss_rgb ss_col_seek    = SS_RGB(0x000000);
static const struct ss_rgb ss_col_text    = SS_RGB(0x1a1a1a);
static const struct ss_rgb ss_col_grid    = SS_RGB(0xe4e4e4);
static const struct ss_rgb ss_col_axis    = SS_RGB(0x555555);
static const struct ss_rgb ss_col_logband = SS_RGB(0xF0E442);  /* yellow, drawn light */
static const struct ss_rgb ss_col_itable  = SS_RGB(0x6a3d9a);  /* inode tables */
static const struct ss_rgb ss_col_phase   = SS_RGB(0x6a3d9a);
static const struct ss_rgb ss_col_warn    = SS_RGB(0xB03000);
static const struct ss_rgb ss_col_best    = SS_RGB(0xd9f0d3);  /* table highlight */

static inline void ss_set_rgb(cairo_t *cr, struct ss_rgb c)
{
	cairo_set_source_rgb(cr, c.r, c.g, c.b);
}

static inline void ss_set_rgba(cairo_t *cr, struct ss_rgb c, double a)
{
	cairo_set_source_rgba(cr, c.r, c.g, c.b, a);
}

#endif
