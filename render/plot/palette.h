// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Colours for every plot, from the Okabe-Ito palette (safe for the common colour-vision
 * deficiencies), chosen so the classes that must be told apart also differ in lightness and
 * survive grayscale printing: write = dark blue, read = light orange, metadata = black,
 * journal/log = bluish green (and it lives inside the shaded log band anyway), discard =
 * reddish purple, write-zeroes and other ops = sky blue (they write), directory = olive.
 */
#ifndef SS_PALETTE_H
#define SS_PALETTE_H

#include <stddef.h>
#include <cairo.h>
#include "seekscope/model.h"

struct ss_rgb {
	double r, g, b;
};

#define SS_RGB(hex) { ((hex) >> 16 & 0xff) / 255.0, ((hex) >> 8 & 0xff) / 255.0, ((hex) & 0xff) / 255.0 }

/*
 * The colours of the io panel and its legend, as data: the panels and the legend read this
 * table and nothing else names a class's colour.  Which request has which colour: its class
 * (classes.h's one rule: journal, metadata, directory, discard, other, data), the data classes
 * (file-data and data) split by op into data read and data write (zones.h: ss_io_class_of).
 * The classes drawn as areas come first; flush and FUA have no sector and are ticks in two
 * strips along the top.
 */
enum ss_io_class {
	SS_CLS_WRITE, SS_CLS_READ, SS_CLS_META, SS_CLS_DIR, SS_CLS_JOURNAL, SS_CLS_DISCARD,
	SS_CLS_OTHER, SS_CLS_FLUSH, SS_CLS_FUA, SS_CLS_MAX
};
#define SS_CLS_NR_AREA SS_CLS_FLUSH      /* classes drawn where their sectors are */
#define SS_CLS_BIT(c)  (1u << (c))       /* sets of classes (what a panel drew) */

struct ss_class_style {
	const char *name;                /* legend entry */
	struct ss_rgb rgb;
};

static const struct ss_class_style ss_classes[SS_CLS_MAX] = {
	[SS_CLS_WRITE]   = { "data write", SS_RGB(0x0072B2) },       /* blue */
	[SS_CLS_READ]    = { "data read", SS_RGB(0xE69F00) },        /* orange */
	[SS_CLS_META]    = { "metadata", SS_RGB(0x000000) },         /* black */
	[SS_CLS_DIR]     = { "directory", SS_RGB(0x999933) },        /* olive (Paul Tol) */
	[SS_CLS_JOURNAL] = { "journal/log", SS_RGB(0x009E73) },      /* bluish green */
	[SS_CLS_DISCARD] = { "discard", SS_RGB(0xCC79A7) },          /* reddish purple */
	[SS_CLS_OTHER]   = { "write-zeroes/other", SS_RGB(0x56B4E9) }, /* sky blue: a write */
	[SS_CLS_FLUSH]   = { "flush (top strip)", SS_RGB(0xD55E00) },  /* vermillion */
	[SS_CLS_FUA]     = { "FUA (second strip)", SS_RGB(0x882255) }, /* wine (Paul Tol) */
};

/* The class whose colour a request class's series (throughput, IOPS) is drawn in. */
static const enum ss_io_class ss_op_class[SS_NR_DATA_OPS] = {
	[SS_OP_READ] = SS_CLS_READ, [SS_OP_WRITE] = SS_CLS_WRITE,
	[SS_OP_DISCARD] = SS_CLS_DISCARD, [SS_OP_OTHER] = SS_CLS_OTHER,
};

/* Groups (plot --color-by process|dir|file: groups.h), biggest first: distinct hues, then
 * darker and lighter variants; "other" is mid grey, "unknown (not in the map)" light grey.
 * Drawn over white and the light zone bands.  A table apart from the classes': coloured by
 * group, a colour names a process, directory or file, not a class — and none is the colour
 * of the flush or FUA strips, which keep their class colours. */
static const struct ss_rgb ss_col_group[] = {
	SS_RGB(0x0072B2), SS_RGB(0xE69F00), SS_RGB(0x009E73), SS_RGB(0xCC79A7),
	SS_RGB(0x56B4E9), SS_RGB(0x332288), SS_RGB(0x000000), SS_RGB(0x8C564B),
	SS_RGB(0x7F7F00), SS_RGB(0x9467BD),
};
static const struct ss_rgb ss_col_other   = SS_RGB(0x8A8A8A);
static const struct ss_rgb ss_col_unknown = SS_RGB(0xC4C4C4);
#define SS_NR_GROUP_COLOURS (sizeof(ss_col_group) / sizeof(ss_col_group[0]))

/* The colour of group slot I of N ranked groups (groups.h: N is "other", N + 1 "unknown"). */
static inline struct ss_rgb ss_group_colour(size_t i, size_t n)
{
	return i < n && i < SS_NR_GROUP_COLOURS ? ss_col_group[i] :
	       i == n ? ss_col_other : ss_col_unknown;
}

/* The parts of the modelled disk time (plot --disk: the model panel, the HTML page's), bottom
 * to top of the stack, in the order of struct ss_disk_cost's parts. */
struct ss_model_part {
	const char *name;
	struct ss_rgb rgb;
};
#define SS_NR_MODEL_PARTS 4
static const struct ss_model_part ss_model_parts[SS_NR_MODEL_PARTS] = {
	{ "seek", SS_RGB(0xD55E00) },
	{ "rotation", SS_RGB(0xE69F00) },
	{ "transfer", SS_RGB(0x0072B2) },
	{ "overhead", SS_RGB(0x999999) },
};

static const struct ss_rgb ss_col_seek    = SS_RGB(0x000000);
/* Seek causes: the seeks within one zone, and between two zones (AG to AG, data to log). */
static const struct ss_rgb ss_col_cause_within = SS_RGB(0x9ECAE1);
static const struct ss_rgb ss_col_cause_across = SS_RGB(0x08519C);
static const struct ss_rgb ss_col_threshold = SS_RGB(0xD55E00); /* the seek threshold */
static const struct ss_rgb ss_col_text    = SS_RGB(0x1a1a1a);
static const struct ss_rgb ss_col_grid    = SS_RGB(0xe4e4e4);
static const struct ss_rgb ss_col_axis    = SS_RGB(0x555555);
static const struct ss_rgb ss_col_logband = SS_RGB(0xF0E442);  /* yellow, drawn light */
static const struct ss_rgb ss_col_itable  = SS_RGB(0x6a3d9a);  /* inode tables */
static const struct ss_rgb ss_col_phase   = SS_RGB(0x6a3d9a);
static const struct ss_rgb ss_col_warn    = SS_RGB(0xB03000);
static const struct ss_rgb ss_col_lost    = SS_RGB(0xF4D6CC);  /* lost-event periods */
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
