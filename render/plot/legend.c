// SPDX-License-Identifier: GPL-2.0-or-later
/* The legend of the sector panel's marks (one row, or two); see legend.h. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "legend.h"
#include "palette.h"
#include "text.h"

static bool any_zone(const struct ss_trace *const *t, int n, uint32_t kind)
{
	for (int i = 0; i < n; i++)
		for (size_t z = 0; z < t[i]->nr_zones; z++)
			if (t[i]->zones[z].kind == kind)
				return true;
	return false;
}

static bool any_phase(const struct ss_trace *const *t, int n)
{
	for (int i = 0; i < n; i++)
		if (t[i]->nr_phases)
			return true;
	return false;
}

enum legend_kind { LK_CLASS, LK_BAND, LK_AG, LK_GROUP, LK_ITABLE, LK_PHASE, LK_REQ_GROUP };

/* CLS: the class, or (LK_REQ_GROUP) the group's slot; N: the ranked groups. */
static void legend_mark(cairo_t *cr, enum legend_kind k, int cls, size_t n, double x, double y,
			double sw)
{
	static const double dash[] = { 4, 3 };

	switch (k) {
	case LK_CLASS:
		ss_set_rgb(cr, ss_classes[cls].rgb);
		if (cls < SS_CLS_NR_AREA)
			cairo_rectangle(cr, x, y - sw / 2, sw, sw);
		else            /* a tick of a strip */
			cairo_rectangle(cr, x + sw / 2 - 1.5, y - sw / 2, 3, sw);
		cairo_fill(cr);
		break;
	case LK_REQ_GROUP:
		ss_set_rgb(cr, ss_group_colour((size_t)cls, n));
		cairo_rectangle(cr, x, y - sw / 2, sw, sw);
		cairo_fill(cr);
		break;
	case LK_BAND:
		ss_set_rgba(cr, ss_col_logband, 0.45);
		cairo_rectangle(cr, x, y - sw / 2, sw, sw);
		cairo_fill(cr);
		break;
	case LK_ITABLE:
		ss_set_rgba(cr, ss_col_itable, 0.55);
		cairo_rectangle(cr, x, y - 1.5, sw, 3);
		cairo_fill(cr);
		break;
	case LK_AG:
	case LK_GROUP:
		if (k == LK_AG) {
			cairo_set_source_rgb(cr, 0.45, 0.45, 0.45);
			cairo_set_dash(cr, dash, 2, 0);
		} else {
			cairo_set_source_rgba(cr, 0.5, 0.5, 0.5, 0.6);
		}
		cairo_set_line_width(cr, 1);
		cairo_move_to(cr, x, y + 0.5);
		cairo_line_to(cr, x + sw, y + 0.5);
		cairo_stroke(cr);
		cairo_set_dash(cr, NULL, 0, 0);
		break;
	case LK_PHASE:
		ss_set_rgb(cr, ss_col_phase);
		cairo_set_line_width(cr, 1.6);
		cairo_move_to(cr, x + sw / 2, y - sw / 2);
		cairo_line_to(cr, x + sw / 2, y + sw / 2);
		cairo_stroke(cr);
		break;
	}
}

/* A group's name as the legend shows it: a long path keeps its end ("…/dir/file.c"). */
static const char *short_name(const char *name, char *buf, size_t len)
{
	size_t l = strlen(name);
	const size_t keep = 32;
	const char *tail;

	if (!strcmp(name, "."))
		return "(top level)";
	if (l <= keep + 4)
		return name;
	tail = name + l - keep;
	/* start at a component when one begins near the cut */
	for (const char *p = tail; *p && p < tail + 12; p++)
		if (*p == '/') {
			tail = p;
			break;
		}
	snprintf(buf, len, "\u2026%s", tail);
	return buf;
}

#define TWO_ROW_SW 10       /* the marks' size in two rows */

/* Legend of the sector panel's marks, centred in one row, or two where one is too narrow;
 * entries only for what is drawn. */
void ss_legend_draw(cairo_t *cr, const struct ss_rect *r, const struct ss_trace *const *t, int nr,
		    unsigned classes, const struct ss_groups *groups)
{
	struct { enum legend_kind k; int cls; const char *name; } it[16 + SS_GROUPS_MAX + 2];
	char shortened[SS_GROUPS_MAX][64];
	double tw[16 + SS_GROUPS_MAX + 2];          /* the names' widths */
	double mw[16 + SS_GROUPS_MAX + 2];          /* the marks' (all alike), air included */
	double fs = ss_metrics.font_small, sw = 14, gap = 22, total, text = 0, x, w;
	int n = 0, nr_groups = 0, rows = 1, split;
	size_t ng = groups ? groups->n : 0;

	if (r->h <= 0)
		return;
	if (groups) {
		for (size_t i = 0; i < ng; i++)
			it[n++] = (typeof(it[0])){ LK_REQ_GROUP, (int)i,
						   short_name(groups->name[i], shortened[i],
							      sizeof(shortened[i])) };
		if (groups->other || !ng)
			it[n++] = (typeof(it[0])){ LK_REQ_GROUP, (int)ng,
						   ng ? "other" : groups->spec.by == SS_GROUP_PROCESS ?
						   "no process" : "no file" };
		if (groups->unknown_slot && groups->unknown)
			it[n++] = (typeof(it[0])){ LK_REQ_GROUP, (int)ng + 1,
						   SS_GROUP_UNKNOWN_FILE };
		nr_groups = n;
	}
	/* coloured by group, the areas are in the groups' colours: only the strips' classes */
	for (int c = groups ? SS_CLS_NR_AREA : 0; c < SS_CLS_MAX; c++)
		if (classes & SS_CLS_BIT(c))
			it[n++] = (typeof(it[0])){ LK_CLASS, c, ss_classes[c].name };
	if (any_zone(t, nr, SS_ZONE_LOG) || any_zone(t, nr, SS_ZONE_JOURNAL))
		it[n++] = (typeof(it[0])){ LK_BAND, 0, "log / journal zone" };
	if (any_zone(t, nr, SS_ZONE_AG))
		it[n++] = (typeof(it[0])){ LK_AG, 0, "AG boundary" };
	if (any_zone(t, nr, SS_ZONE_GROUP))
		it[n++] = (typeof(it[0])){ LK_GROUP, 0, "group boundary" };
	if (any_zone(t, nr, SS_ZONE_INODE_TABLE))
		it[n++] = (typeof(it[0])){ LK_ITABLE, 0, "inode table" };
	if (any_phase(t, nr))
		it[n++] = (typeof(it[0])){ LK_PHASE, 0, "phase start (dashed: end)" };
	/* too wide for the row: closer together, then smaller type (down to 3/4), then two rows
	 * of small type, then the last entries go (the groups, what the picture is about, last
	 * of all; one stays) */
	for (int i = 0; i < n; i++) {
		ss_text_measure(cr, fs, false, it[i].name, &w, NULL);
		text += w;
	}
	if (n > 1 && n * (sw + 5) + text + (n - 1) * gap > r->w)
		gap = fmax(10, (r->w - n * (sw + 5) - text) / (n - 1));
	if (text > 0 && n * (sw + 5) + text + (n - 1) * gap > r->w)
		fs *= fmax(0.75, (r->w - n * (sw + 5) - (n - 1) * gap) / text);
	for (int i = 0; i < n; i++) {
		ss_text_measure(cr, fs, false, it[i].name, &tw[i], NULL);
		mw[i] = sw + 5;
	}
	/* a row that fits to the last bit fits: the gap above is stretched to fill it exactly */
	if (ss_row_width(mw, tw, 0, n, gap) > r->w + SS_FIT_EPS && n > 1 &&
	    r->h >= 2 * TWO_ROW_SW + 4) {
		rows = 2;
		fs = ss_metrics.font_small * 0.75;
		sw = TWO_ROW_SW;
		gap = 10;
		for (int i = 0; i < n; i++) {
			ss_text_measure(cr, fs, false, it[i].name, &tw[i], NULL);
			mw[i] = sw + 5;
		}
	}
	for (; n > 1; n--) {
		/* the last entry that is not a group, else the last group */
		int drop = n - 1;

		ss_row_layout(mw, tw, n, gap, rows, &total);
		if (total <= r->w + SS_FIT_EPS)
			break;

		for (int i = n - 1; i >= nr_groups; i--)
			if (it[i].k != LK_REQ_GROUP) {
				drop = i;
				break;
			}
		memmove(&it[drop], &it[drop + 1], (size_t)(n - drop - 1) * sizeof(it[0]));
		memmove(&tw[drop], &tw[drop + 1], (size_t)(n - drop - 1) * sizeof(tw[0]));
		memmove(&mw[drop], &mw[drop + 1], (size_t)(n - drop - 1) * sizeof(mw[0]));
		if (drop < nr_groups)
			nr_groups--;
	}
	split = ss_row_layout(mw, tw, n, gap, rows, &total);
	cairo_save(cr);
	for (int row = 0; row < rows; row++) {
		int a = row ? split : 0, b = rows == 2 && !row ? split : n;
		double y = r->y + r->h * (row + 0.5) / rows;

		x = r->x + (r->w - ss_row_width(mw, tw, a, b, gap)) / 2;
		for (int i = a; i < b; i++) {
			legend_mark(cr, it[i].k, it[i].cls, ng, x, y, sw);
			x += sw + 5;
			ss_set_rgb(cr, ss_col_text);
			ss_text_draw(cr, x, y, SS_LEFT, SS_MIDDLE, fs, false, it[i].name, NULL);
			x += tw[i] + gap;
		}
	}
	cairo_restore(cr);
}

