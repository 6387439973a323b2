// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The seek causes of `seekscope report` (seekcause.h has the rules): the (from, to) class
 * pairs of the seeks with their shares, of which across zones, per device when the trace has
 * several, and the zone pairs that moved the head most.  Text and JSON.
 */
#include <inttypes.h>
#include <stdio.h>

#include "report_fmt.h"
#include "seekcause.h"

#define CELLS (SS_NR_CLASSES * SS_NR_CLASSES)

static double pct(uint64_t part, uint64_t whole)
{
	return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

/* "AG3", or "-" for a sector outside every zone, cleaned for the terminal. */
static const char *zone_text(const struct ss_trace *t, long z, char *buf, size_t len)
{
	if (z < 0 || (size_t)z >= t->nr_zones)
		return "-";
	return report_text_clean(t->zones[z].label, sizeof(t->zones[z].label), buf, len);
}

static void matrix_text(FILE *f, const struct ss_cause_matrix *m, const char *what)
{
	struct ss_cause_cell c[CELLS];
	size_t n = ss_cause_cells(m, c, CELLS);

	fprintf(f, "\n  seek causes%s: the class of the request before and after each seek "
		   "(%" PRIu64 " seeks)\n", what, m->seeks);
	if (!n)
		return;
	fprintf(f, "  %-10s %-10s %10s %7s %14s\n", "from", "to", "seeks", "share", "across zones");
	for (size_t i = 0; i < n; i++)
		fprintf(f, "  %-10s %-10s %10" PRIu64 " %6.1f%% %14" PRIu64 "\n",
			ss_class_table[c[i].from].name, ss_class_table[c[i].to].name, c[i].seeks,
			pct(c[i].seeks, m->seeks), c[i].across);
}

void report_causes_text(FILE *f, const struct ss_trace *t, const struct ss_stats *st,
			const struct report_opts *ro)
{
	const struct ss_seek_causes *sc = ss_stats_causes(st);
	const struct ss_cause_zone_pair *zp;
	const struct ss_cause_matrix *total;
	size_t nz, shown;
	uint64_t rest;

	if (!sc)
		return;
	total = ss_seek_causes_total(sc);
	matrix_text(f, total, "");
	if (ss_stats_nr_devices(st) > 1 && !ro->device)
		for (size_t i = 0; i < ss_stats_nr_devices(st); i++) {
			const struct ss_rec_device *d = ss_stats_device(st, i)->device;
			char what[200], nm[160];

			snprintf(what, sizeof(what), " on %s",
				 report_text_clean(d->name, sizeof(d->name), nm, sizeof(nm)));
			matrix_text(f, ss_seek_causes_device(sc, d->dev), what);
		}
	zp = ss_seek_causes_zone_pairs(sc, &nz);
	if (!t->nr_zones || !nz)
		return;
	shown = nz < REPORT_ZONE_PAIRS_TEXT ? nz : REPORT_ZONE_PAIRS_TEXT;
	rest = total->seeks;
	fprintf(f, "\n  seeks by zone (the %zu most frequent moves)\n  %-10s %-14s %-10s %-14s "
		   "%10s %7s\n", shown, "from", "zone", "to", "zone", "seeks", "share");
	for (size_t i = 0; i < shown; i++) {
		char a[80], b[80];

		fprintf(f, "  %-10s %-14s %-10s %-14s %10" PRIu64 " %6.1f%%\n",
			ss_class_table[zp[i].from].name, zone_text(t, zp[i].from_zone, a, sizeof(a)),
			ss_class_table[zp[i].to].name, zone_text(t, zp[i].to_zone, b, sizeof(b)),
			zp[i].seeks, pct(zp[i].seeks, total->seeks));
		rest -= zp[i].seeks;
	}
	if (rest)
		fprintf(f, "  (+ %" PRIu64 " seeks of other moves, %.1f%%)\n", rest,
			pct(rest, total->seeks));
}

/* "seek_causes": [{from, to, seeks, share, across_zones}], most seeks first. */
void report_causes_json_matrix(struct ss_json *j, const struct ss_cause_matrix *m)
{
	struct ss_cause_cell c[CELLS];
	size_t n = m ? ss_cause_cells(m, c, CELLS) : 0;

	ss_json_key(j, "seek_causes");
	if (!m) {
		ss_json_null(j);
		return;
	}
	ss_json_begin_array(j);
	for (size_t i = 0; i < n; i++) {
		ss_json_begin_object(j);
		ss_json_kv_string(j, "from", ss_class_table[c[i].from].name);
		ss_json_kv_string(j, "to", ss_class_table[c[i].to].name);
		ss_json_kv_u64(j, "seeks", c[i].seeks);
		ss_json_kv_double(j, "share", pct(c[i].seeks, m->seeks));
		ss_json_kv_u64(j, "across_zones", c[i].across);
		ss_json_end_object(j);
	}
	ss_json_end_array(j);
}

static void zone_json(struct ss_json *j, const struct ss_trace *t, const char *key, long z)
{
	ss_json_key(j, key);
	if (z < 0 || (size_t)z >= t->nr_zones)
		ss_json_null(j);
	else
		ss_json_string_n(j, t->zones[z].label, sizeof(t->zones[z].label));
}

void report_causes_json(struct ss_json *j, const struct ss_trace *t, const struct ss_stats *st)
{
	const struct ss_seek_causes *sc = ss_stats_causes(st);
	const struct ss_cause_zone_pair *zp = NULL;
	uint64_t rest = 0;
	size_t nz = 0;

	report_causes_json_matrix(j, sc ? ss_seek_causes_total(sc) : NULL);
	if (sc) {
		zp = ss_seek_causes_zone_pairs(sc, &nz);
		rest = ss_seek_causes_total(sc)->seeks;
	}
	ss_json_key(j, "seek_zone_pairs");
	ss_json_begin_array(j);
	for (size_t i = 0; i < nz && i < REPORT_ZONE_PAIRS_JSON; i++) {
		ss_json_begin_object(j);
		ss_json_kv_string(j, "from", ss_class_table[zp[i].from].name);
		zone_json(j, t, "from_zone", zp[i].from_zone);
		ss_json_kv_string(j, "to", ss_class_table[zp[i].to].name);
		zone_json(j, t, "to_zone", zp[i].to_zone);
		ss_json_kv_u64(j, "seeks", zp[i].seeks);
		ss_json_end_object(j);
		rest -= zp[i].seeks;
	}
	ss_json_end_array(j);
	/* the seeks of the pairs not listed (beyond the list, or beyond the table's bound) */
	ss_json_kv_u64(j, "seek_zone_pairs_other", rest);
}
