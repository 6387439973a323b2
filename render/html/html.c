// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML viewer's page: gathers each trace's column (html_col.c), fits the request detail
 * into the size budget, and writes the page — skeleton, stylesheet, metadata as JSON, each
 * trace's data as one base64 blob, script.  See html.h and docs/html-viewer.md.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "errbuf.h"
#include "outfile.h"
#include "seekscope/model.h"
#include "seekscope/version.h"
#include "html.h"
#include "html_col.h"
#include "palette.h"
#include "panel_registry.h"
#include "table.h"
#include "web_assets.h"

/* Fine bins: a power of ten so that every 1-2-5 width the page or the static plot picks for a
 * wider view is a whole number of them; at least this many over the window. */
#ifndef SS_HTML_FINE_BINS
#define SS_HTML_FINE_BINS 50000u
#endif
#define FINE_BINS SS_HTML_FINE_BINS
/* The page's skeleton around the data, generously. */
#define SKELETON_BYTES 4096u

static const char *const bin_field_names[SS_HTML_BIN_FIELDS] = {
	"reads", "writes", "discards", "read_bytes", "write_bytes", "discard_bytes", "flushes",
	"fua", "issues", "seeks", "lat_count", "lat_sum_ns", "lat_max_ns", "depth_ns",
	"model_seek_s", "model_rotation_s", "model_transfer_s", "model_overhead_s",
};

struct page {
	const struct ss_html_opts *o;
	struct ss_graph_window w;
	struct ss_graph_devplan plan;
	struct ss_groups groups;            /* --color-by process|dir|file: ranked over the traces */
	struct ss_html_col *col[SS_GRAPH_MAX_TRACES];
	const char *label[SS_GRAPH_MAX_TRACES];
	int nr;
	uint64_t bin_w;
	size_t budget;                     /* bytes */
	/* per column: the kept sections, back to back, and where each landed */
	struct ss_hbuf blob[SS_GRAPH_MAX_TRACES];
};

static uint64_t fine_width(uint64_t span)
{
	uint64_t w = ss_bins_choose_width(span, FINE_BINS), p = 1;

	while (p < w)
		p *= 10;
	return p;
}

static void json_num(struct ss_hbuf *b, double v)
{
	ss_hbuf_printf(b, "%.17g", isfinite(v) ? v : 0.0);
}

static void json_rgb(struct ss_hbuf *b, struct ss_rgb c)
{
	ss_hbuf_printf(b, "\"#%02x%02x%02x\"", (unsigned)lround(c.r * 255),
		       (unsigned)lround(c.g * 255), (unsigned)lround(c.b * 255));
}

/* {"name":NAME,"color":"#rrggbb"}, after a comma unless it is the list's first (I = 0). */
static void json_swatch(struct ss_hbuf *b, int i, const char *name, struct ss_rgb c)
{
	ss_hbuf_printf(b, "%s{\"name\":", i ? "," : "");
	ss_hbuf_json_str(b, name);
	ss_hbuf_str(b, ",\"color\":");
	json_rgb(b, c);
	ss_hbuf_str(b, "}");
}

/* Append section S of column C to its blob; write [offset, length] (null when DROP). */
static void put_section(struct page *pg, int i, const struct ss_html_section *s, bool drop,
			struct ss_hbuf *m)
{
	if (drop) {
		ss_hbuf_str(m, "null");
		return;
	}
	ss_hbuf_printf(m, "[%zu,%zu]", pg->blob[i].len, s->len);
	ss_hbuf_put(&pg->blob[i], pg->col[i]->data.p + s->off, s->len);
}

static void put_summary(struct ss_hbuf *m, const struct ss_summary *s)
{
	ss_hbuf_printf(m, "{\"start\":%.17g,\"dur\":", (double)s->start_ns);
	json_num(m, s->duration_s);
	ss_hbuf_printf(m, ",\"ios\":%llu,\"reads\":%llu,\"writes\":%llu,\"discards\":%llu,"
		       "\"read_bytes\":%llu,\"write_bytes\":%llu,\"flushes\":%llu,\"fua\":%llu,"
		       "\"issues\":%llu,\"seeks\":%llu,\"lat_count\":%llu,\"max_depth\":%llu,"
		       "\"lat_p50_ns\":%llu,\"lat_p99_ns\":%llu,\"lat_max_ns\":%llu,\"iops\":",
		       (unsigned long long)s->ios, (unsigned long long)s->reads,
		       (unsigned long long)s->writes, (unsigned long long)s->discards,
		       (unsigned long long)s->read_bytes, (unsigned long long)s->write_bytes,
		       (unsigned long long)s->flushes, (unsigned long long)s->fua,
		       (unsigned long long)s->issues, (unsigned long long)s->seeks,
		       (unsigned long long)s->lat.count, (unsigned long long)s->max_depth,
		       (unsigned long long)s->lat_p50_ns, (unsigned long long)s->lat_p99_ns,
		       (unsigned long long)s->lat_max_ns);
	json_num(m, s->iops);
	ss_hbuf_str(m, ",\"seeks_per_s\":");
	json_num(m, s->seeks_per_s);
	ss_hbuf_str(m, ",\"read_mb_s\":");
	json_num(m, s->read_mb_s);
	ss_hbuf_str(m, ",\"write_mb_s\":");
	json_num(m, s->write_mb_s);
	ss_hbuf_str(m, ",\"mean_depth\":");
	json_num(m, s->mean_depth);
	ss_hbuf_str(m, "}");
}

/* The static plot's summary table as it draws it (table.h: rows, cell texts, highlights and
 * the rule), so that the page shows the same table and does not judge anew. */
static void put_table(const struct page *pg, struct ss_hbuf *m)
{
	struct ss_table_run runs[SS_GRAPH_MAX_TRACES];
	struct ss_table *tb = malloc(sizeof(*tb));
	char buf[64];
	bool warn;

	if (!tb) {
		ss_hbuf_str(m, "null");
		m->failed = true;
		return;
	}
	for (int i = 0; i < pg->nr; i++)
		runs[i] = (struct ss_table_run){ pg->label[i], pg->col[i]->t, pg->col[i]->stats };
	ss_table_build(tb, runs, pg->nr);
	ss_hbuf_str(m, "{\"heads\":[");
	for (int c = 0; c < tb->nr_cols; c++) {
		ss_hbuf_str(m, c ? "," : "");
		ss_hbuf_json_str(m, ss_table_head(tb, c));
	}
	ss_hbuf_str(m, "],\"rule\":");
	if (tb->nr_runs > 1)
		ss_hbuf_json_str(m, ss_table_rule(tb));
	else
		ss_hbuf_str(m, "null");
	ss_hbuf_str(m, ",\"rows\":[");
	for (int r = 0; r < tb->nr_rows; r++) {
		ss_hbuf_str(m, r ? "," : "");
		ss_hbuf_str(m, "{\"run\":");
		ss_hbuf_json_str(m, tb->rows[r].run);
		ss_table_text(tb, r, -1, buf, sizeof(buf), &warn);
		ss_hbuf_str(m, ",\"phase\":");
		ss_hbuf_json_str(m, buf);
		ss_hbuf_printf(m, ",\"group\":%d,\"cells\":[", tb->rows[r].group);
		for (int c = 0; c < tb->nr_cols; c++) {
			ss_table_text(tb, r, c, buf, sizeof(buf), &warn);
			ss_hbuf_printf(m, "%s[", c ? "," : "");
			ss_hbuf_json_str(m, buf);
			ss_hbuf_printf(m, ",%d,%d]", tb->best[r][c], warn);
		}
		ss_hbuf_str(m, "]}");
	}
	ss_hbuf_str(m, "]}");
	free(tb);
}

static void put_trace_meta(struct page *pg, int i, struct ss_hbuf *m)
{
	const struct ss_html_col *c = pg->col[i];
	const struct ss_trace *t = c->t;
	const struct ss_summary *tot = ss_stats_total(c->stats);
	const struct ss_bins *b = ss_stats_bins(c->stats);

	ss_hbuf_str(m, "{\"label\":");
	ss_hbuf_json_str(m, pg->label[i]);
	ss_hbuf_str(m, ",\"path\":");
	ss_hbuf_json_str(m, t->path);
	ss_hbuf_str(m, ",\"format\":");
	ss_hbuf_json_str(m, t->format);
	ss_hbuf_printf(m, ",\"t0_ns\":%.17g,\"end_ns\":%.17g,\"events\":%llu,\"lost\":%llu,"
		       "\"truncated\":%s,\"warning\":", (double)pg->w.t0[i],
		       (double)(pg->w.t_end[i] - pg->w.t0[i]), (unsigned long long)t->nr_events,
		       (unsigned long long)ss_trace_lost_events(t), t->truncated ? "true" : "false");
	ss_hbuf_json_str(m, t->warning);
	/* where events were lost (readers' periods), ns after t0: shaded, as in the plot */
	ss_hbuf_str(m, ",\"lost_periods\":[");
	for (size_t k = 0; k < t->nr_lost; k++)
		ss_hbuf_printf(m, "%s[%.17g,%.17g,%llu]", k ? "," : "",
			       (double)t->lost[k].from_ns - (double)pg->w.t0[i],
			       (double)t->lost[k].to_ns - (double)pg->w.t0[i],
			       (unsigned long long)t->lost[k].count);
	ss_hbuf_str(m, "],\"devices\":[");
	for (size_t d = 0; d < t->nr_devices; d++) {
		const struct ss_rec_device *dv = &t->devices[d];

		ss_hbuf_printf(m, "%s{\"dev\":%u,\"name\":", d ? "," : "", dv->dev);
		ss_hbuf_json_str(m, dv->name);
		ss_hbuf_str(m, ",\"part\":");
		ss_hbuf_json_str(m, dv->part_name);
		ss_hbuf_str(m, ",\"fstype\":");
		ss_hbuf_json_str(m, dv->fstype);
		ss_hbuf_printf(m, ",\"sectors\":%.17g}", (double)(dv->part_nr_sectors
				? dv->part_nr_sectors : dv->nr_sectors));
	}
	ss_hbuf_str(m, "],\"devs\":[");
	for (size_t d = 0; d < ss_html_col_nr_devs(c); d++)
		ss_hbuf_printf(m, "%s%u", d ? "," : "", ss_html_col_dev(c, d));
	/* the detail's file column: paths below the mapped directory */
	ss_hbuf_str(m, "],\"files\":[");
	for (size_t k = 0; k < c->nr_files; k++) {
		char path[4096];

		ss_html_col_file_path(c, k, path, sizeof(path));
		ss_hbuf_str(m, k ? "," : "");
		ss_hbuf_json_str(m, path);
	}
	/* the detail's process column: [pid, name, named?]; by submitter where the trace says */
	ss_hbuf_printf(m, "],\"procs_by\":\"%s\",\"procs\":[", c->submitted ? "submitter" : "issuer");
	for (size_t k = 0; k < c->nr_procs; k++) {
		ss_hbuf_printf(m, "%s[%u,", k ? "," : "", c->procs[k].pid);
		ss_hbuf_json_str(m, c->procs[k].name);
		ss_hbuf_printf(m, ",%s]", c->procs[k].unknown ? "false" : "true");
	}
	ss_hbuf_str(m, "],\"zones\":[");
	for (size_t z = 0; z < t->nr_zones; z++) {
		const struct ss_rec_zone *zn = &t->zones[z];

		ss_hbuf_printf(m, "%s{\"kind\":\"%s\",\"index\":%u,\"dev\":%u,\"start\":%.17g,"
			       "\"n\":%.17g,\"label\":", z ? "," : "", ss_zone_kind_name(zn->kind),
			       zn->index, zn->dev, (double)zn->start_sector, (double)zn->nr_sectors);
		ss_hbuf_json_str(m, zn->label);
		ss_hbuf_str(m, "}");
	}
	ss_hbuf_str(m, "],\"markers\":[");
	for (size_t p = 0; p < t->nr_phases; p++) {
		const struct ss_rec_phase *ph = &t->phases[p];
		static const char *const kinds[] = { "?", "begin", "end", "mark" };

		ss_hbuf_printf(m, "%s{\"kind\":\"%s\",\"ts\":%.17g,\"name\":", p ? "," : "",
			       kinds[ph->kind <= SS_PHASE_MARK ? ph->kind : 0],
			       (double)ph->ts_ns - (double)pg->w.t0[i]);
		ss_hbuf_json_str(m, ph->name);
		ss_hbuf_str(m, "}");
	}
	ss_hbuf_str(m, "],\"total\":");
	put_summary(m, tot);
	ss_hbuf_str(m, ",\"phases\":[");
	for (size_t p = 0; p < ss_stats_nr_phases(c->stats); p++) {
		const struct ss_phase_stats *ph = ss_stats_phase(c->stats, p);

		ss_hbuf_printf(m, "%s{\"name\":", p ? "," : "");
		ss_hbuf_json_str(m, ph->name);
		ss_hbuf_printf(m, ",\"ended\":%s,\"has_files\":%s,\"files_per_s\":",
			       ph->ended ? "true" : "false", ph->has_files ? "true" : "false");
		json_num(m, ph->files_per_s);
		ss_hbuf_str(m, ",\"s\":");
		put_summary(m, &ph->s);
		ss_hbuf_str(m, "}");
	}
	ss_hbuf_printf(m, "],\"dist\":{\"count\":%llu,\"pos\":[",
		       (unsigned long long)tot->seek_dist.count);
	for (int k = 0; k < SS_SEEK_HIST_BUCKETS; k++)
		ss_hbuf_printf(m, "%s%llu", k ? "," : "", (unsigned long long)tot->seek_dist.pos[k]);
	ss_hbuf_str(m, "],\"neg\":[");
	for (int k = 0; k < SS_SEEK_HIST_BUCKETS; k++)
		ss_hbuf_printf(m, "%s%llu", k ? "," : "", (unsigned long long)tot->seek_dist.neg[k]);
	ss_hbuf_printf(m, "]},\"bins\":{\"start\":%.17g,\"end\":%.17g,\"width\":%.17g,\"n\":%zu,"
		       "\"sec\":", (double)(b->start_ns - pg->w.t0[i]),
		       (double)(b->end_ns - pg->w.t0[i]), (double)b->width_ns, b->n);
	put_section(pg, i, &c->bins, false, m);
	/* the io panels: the device of each slot (none: the trace names no device, its one
	 * panel shows all), the cell levels of each */
	ss_hbuf_str(m, "},\"slot_devs\":[");
	for (int k = 0; k < pg->plan.nr_devs[i]; k++)
		ss_hbuf_printf(m, "%s%u", k ? "," : "", pg->plan.devs[i][k]);
	ss_hbuf_str(m, "],\"cells\":[");
	for (int k = 0; k < c->nr_slots; k++) {
		ss_hbuf_str(m, k ? ",[" : "[");
		for (int l = 0; l < SS_HTML_LEVELS; l++) {
			ss_hbuf_str(m, l ? "," : "");
			put_section(pg, i, &c->cells[k][l], false, m);
		}
		ss_hbuf_str(m, "]");
	}
	ss_hbuf_printf(m, "],\"marks\":{\"n\":%llu,\"dropped\":%llu,\"sec\":",
		       (unsigned long long)c->nr_marks, (unsigned long long)c->marks_dropped);
	put_section(pg, i, &c->marks, false, m);
	ss_hbuf_printf(m, "},\"requests\":%llu,\"no_latency\":%llu,\"chunks\":[",
		       (unsigned long long)c->requests, (unsigned long long)c->late);
	for (size_t k = 0; k < c->nr_chunks; k++) {
		const struct ss_html_chunk *ch = &c->chunks[k];

		ss_hbuf_printf(m, "%s{\"n\":%u,\"t_first\":%.17g,\"t_last\":%.17g,\"sec\":",
			       k ? "," : "", ch->n, (double)ch->t_first, (double)ch->t_last);
		put_section(pg, i, &ch->sec, ch->dropped, m);
		ss_hbuf_str(m, "}");
	}
	ss_hbuf_str(m, "]}");
}

static void put_panel(struct ss_hbuf *m, const struct ss_graph_opts *g,
		      const struct ss_panel_ops *ops, bool shown, int *k)
{
	char buf[256];

	if (ops->title_fmt)
		ops->title_fmt(buf, sizeof(buf), g);
	ss_hbuf_printf(m, "%s{\"name\":", (*k)++ ? "," : "");
	ss_hbuf_json_str(m, ops->name);
	ss_hbuf_printf(m, ",\"shown\":%s,\"time_x\":%s,\"log_y\":%s,\"title\":",
		       shown ? "true" : "false", ops->time_x ? "true" : "false",
		       ops->log_y ? "true" : "false");
	ss_hbuf_json_str(m, ops->title_fmt ? buf : ops->title);
	ss_hbuf_str(m, ",\"y_title\":");
	ss_hbuf_json_str(m, ops->y_title ? ops->y_title : "");
	ss_hbuf_str(m, "}");
}

/* The page's metadata; fills the blobs as a side effect (offsets are the blobs'). */
static void put_meta(struct page *pg, struct ss_hbuf *m)
{
	const struct ss_graph_opts *g = pg->o->g;
	char buf[256];
	int k = 0;

	for (int i = 0; i < pg->nr; i++)
		ss_hbuf_free(&pg->blob[i]);
	ss_hbuf_str(m, "{\"version\":1,\"generator\":\"seekscope " SS_VERSION "\",\"title\":");
	if (g->title) {
		ss_hbuf_json_str(m, g->title);
	} else {
		size_t len = 0;

		buf[0] = 0;
		for (int i = 0; i < pg->nr && len < sizeof(buf); i++)
			len += (size_t)snprintf(buf + len, sizeof(buf) - len, "%s%s",
						i ? " vs " : "seekscope: ", pg->label[i]);
		/* --pid/--comm: say whose requests these are, as the static plot does */
		if (ss_task_spec_active(&g->only) && len < sizeof(buf)) {
			char only[160];

			ss_task_spec_describe(&g->only, only, sizeof(only));
			snprintf(buf + len, sizeof(buf) - len, " (only %s)", only);
		}
		ss_hbuf_json_str(m, buf);
	}
	ss_hbuf_str(m, ",\"align\":");
	if (g->align)
		ss_hbuf_json_str(m, g->align);
	else
		ss_hbuf_str(m, "null");
	ss_hbuf_printf(m, ",\"x_lo\":%.17g,\"x_hi\":%.17g,\"slots\":[", (double)pg->w.x_lo,
		       (double)pg->w.x_hi);
	for (int s = 0; s < pg->plan.slots; s++)
		ss_hbuf_printf(m, "%s[%.17g,%.17g]", s ? "," : "", (double)pg->plan.y_lo[s],
			       (double)pg->plan.y_hi[s]);
	ss_hbuf_printf(m, "],\"units\":%d,\"seek_threshold\":%llu,\"rolling\":%u,"
		       "\"max_bytes\":%zu,\"levels\":[", (int)g->units,
		       (unsigned long long)g->seek_threshold,
		       g->rolling, pg->budget);
	for (int l = 0; l < SS_HTML_LEVELS; l++)
		ss_hbuf_printf(m, "%s[%d,%d]", l ? "," : "", SS_HTML_BASE_W << l,
			       SS_HTML_BASE_H << l);
	ss_hbuf_str(m, "],\"bin_fields\":[");
	for (int f = 0; f < SS_HTML_BIN_FIELDS; f++)
		ss_hbuf_printf(m, "%s\"%s\"", f ? "," : "", bin_field_names[f]);
	ss_hbuf_str(m, "],\"classes\":[");
	/* the classes drawn where their sectors are, in palette.h's order and colours */
	for (int c = 0; c < SS_CLS_NR_AREA; c++)
		json_swatch(m, c, ss_classes[c].name, ss_classes[c].rgb);
	/* what the io panel's colours say, in the legend's order: the classes, or the groups */
	ss_hbuf_printf(m, "],\"color_by\":\"%s\",\"legend\":[", !g->color_by_group ? "class" :
		       g->group.by == SS_GROUP_PROCESS ? "process" :
		       g->group.by == SS_GROUP_DIR ? "dir" : "file");
	if (g->color_by_group) {
		size_t n = ss_groups_nr_slots(&pg->groups);

		for (size_t s = 0; s < n && s < SS_HTML_MAX_GROUP_SLOTS; s++)
			json_swatch(m, (int)s, s < pg->groups.n ? pg->groups.name[s] :
				    s == pg->groups.n ? "other" : SS_GROUP_UNKNOWN_FILE,
				    ss_group_colour(s, pg->groups.n));
	} else {
		for (int c = 0; c < SS_CLS_NR_AREA; c++)
			json_swatch(m, c, ss_classes[c].name, ss_classes[c].rgb);
	}
	ss_hbuf_str(m, "],\"flush_color\":");
	json_rgb(m, ss_classes[SS_CLS_FLUSH].rgb);
	ss_hbuf_str(m, ",\"fua_color\":");
	json_rgb(m, ss_classes[SS_CLS_FUA].rgb);
	ss_hbuf_str(m, ",\"lost_color\":");
	json_rgb(m, ss_col_lost);
	/* --disk: the model's name and the parts of its time, as the model panel stacks them */
	ss_hbuf_str(m, ",\"disk\":");
	if (g->has_disk) {
		ss_hbuf_str(m, "{\"name\":");
		ss_hbuf_json_str(m, g->disk.name);
		ss_hbuf_str(m, ",\"parts\":[");
		for (int p = 0; p < SS_NR_MODEL_PARTS; p++)
			json_swatch(m, p, ss_model_parts[p].name, ss_model_parts[p].rgb);
		ss_hbuf_str(m, "]}");
	} else {
		ss_hbuf_str(m, "null");
	}
	/* the panels shown at first in their order, then the others */
	ss_hbuf_str(m, ",\"panels\":[");
	for (int p = 0; p < g->nr_panels; p++)
		put_panel(m, g, g->panels[p], true, &k);
	for (size_t i = 0; i < ss_panels_count(); i++) {
		bool shown = false;

		for (int p = 0; p < g->nr_panels; p++)
			shown |= g->panels[p] == ss_panels_at(i);
		if (!shown)
			put_panel(m, g, ss_panels_at(i), false, &k);
	}
	ss_hbuf_str(m, "]");
	ss_hbuf_str(m, ",\"rwbs\":{");
	k = 0;
	/* 64 flag sets at a time, skipping the words no column met: a trace meets a handful */
	for (unsigned word = 0; word < sizeof(pg->col[0]->rwbs_seen); word += 8) {
		uint64_t any = 0, w;

		for (int i = 0; i < pg->nr; i++) {
			memcpy(&w, pg->col[i]->rwbs_seen + word, sizeof(w));
			any |= w;
		}
		for (unsigned f = word * 8; any && f < (word + 8) * 8; f++) {
			bool seen = false;

			for (int i = 0; i < pg->nr && !seen; i++)
				seen = pg->col[i]->rwbs_seen[f >> 3] & (1u << (f & 7));
			if (seen)
				ss_hbuf_printf(m, "%s\"%u\":\"%s\"", k++ ? "," : "", f,
					       ss_rwbs_format((uint16_t)f, buf, sizeof(buf)));
		}
	}
	ss_hbuf_str(m, "},\"table\":");
	put_table(pg, m);
	ss_hbuf_str(m, ",\"traces\":[");
	for (int i = 0; i < pg->nr; i++) {
		ss_hbuf_str(m, i ? "," : "");
		put_trace_meta(pg, i, m);
	}
	ss_hbuf_str(m, "]}");
}

static size_t total_bytes(const struct page *pg, size_t meta_len, const size_t *blob_len)
{
	size_t n = SKELETON_BYTES + ss_web_css_len + ss_web_js_len + 2 * meta_len;

	for (int i = 0; i < pg->nr; i++)
		n += ss_base64_len(blob_len[i]);
	return n;
}

struct chunk_ref {
	struct ss_html_chunk *ch;
	int col;
	double density;             /* requests per ns of issue time */
};

static int by_density(const void *a, const void *b)
{
	const struct chunk_ref *x = a, *y = b;

	return x->density < y->density ? 1 : x->density > y->density ? -1 : 0;
}

/* What was left out, for the caller's warning: the stretches per trace, and for the --x-range
 * hint the start of the longest one up to as many requests as the page did hold. */
static void describe_drops(const struct page *pg, struct ss_html_result *res)
{
	size_t len = 0;
	double best = -1;
	uint64_t kept = 0;

	for (int i = 0; i < pg->nr; i++)
		for (size_t k = 0; k < pg->col[i]->nr_chunks; k++)
			kept += pg->col[i]->chunks[k].dropped ? 0 : pg->col[i]->chunks[k].n;

	for (int i = 0; i < pg->nr; i++) {
		const struct ss_html_col *c = pg->col[i];

		for (size_t k = 0; k < c->nr_chunks; k++) {
			size_t e = k;
			double lo, hi;

			if (!c->chunks[k].dropped)
				continue;
			while (e + 1 < c->nr_chunks && c->chunks[e + 1].dropped)
				e++;
			lo = (double)c->chunks[k].t_first / 1e9;
			hi = (double)c->chunks[e].t_last / 1e9;
			for (size_t j = k; j <= e; j++)
				res->dropped += c->chunks[j].n;
			if (hi - lo > best) {
				uint64_t n = 0;
				size_t j = k;

				best = hi - lo;
				res->drop_lo_s = lo;
				for (; j < e && n + c->chunks[j].n <= kept; j++)
					n += c->chunks[j].n;
				res->drop_hi_s = (double)c->chunks[j].t_last / 1e9;
			}
			if (len < sizeof(res->dropped_where))
				len += (size_t)snprintf(res->dropped_where + len,
							sizeof(res->dropped_where) - len,
							"%s%s %.3f-%.3f s", len ? ", " : "",
							pg->label[i], lo, hi);
			k = e;
		}
	}
}

/*
 * Leave out the detail of the densest chunks (where single requests are hardest to see
 * anyway) until the page fits the budget.  The metadata of pass 1 (nothing left out) bounds
 * the final one.  0, or -EFBIG when the overview alone does not fit.
 */
static int fit_budget(struct page *pg, size_t meta_len, size_t budget, char *err, size_t errlen)
{
	size_t blob_len[SS_GRAPH_MAX_TRACES], nr_refs = 0, total;
	struct chunk_ref *refs;

	for (int i = 0; i < pg->nr; i++) {
		blob_len[i] = pg->blob[i].len;
		nr_refs += pg->col[i]->nr_chunks;
	}
	if ((total = total_bytes(pg, meta_len, blob_len)) <= budget)
		return 0;
	refs = calloc(nr_refs ? nr_refs : 1, sizeof(*refs));
	if (!refs) {
		ss_errf(err, errlen, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	nr_refs = 0;
	for (int i = 0; i < pg->nr; i++)
		for (size_t k = 0; k < pg->col[i]->nr_chunks; k++) {
			struct ss_html_chunk *ch = &pg->col[i]->chunks[k];

			refs[nr_refs++] = (struct chunk_ref){ ch, i, (double)ch->n /
				(double)(ch->t_last - ch->t_first + 1) };
		}
	qsort(refs, nr_refs, sizeof(*refs), by_density);
	for (size_t r = 0; r < nr_refs && total > budget; r++) {
		refs[r].ch->dropped = true;
		blob_len[refs[r].col] -= refs[r].ch->sec.len;
		total = total_bytes(pg, meta_len, blob_len);
	}
	free(refs);
	if (total > budget) {
		ss_errf(err, errlen, "even without any request detail the page needs %.1f MB, more "
			"than the %.1f MB budget: plot fewer traces, or a stretch with --x-range",
			(double)total / 1e6, (double)budget / 1e6);
		return -EFBIG;
	}
	return 0;
}

/* S as HTML text (for the <title>). */
static void html_text(struct ss_hbuf *b, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '<': ss_hbuf_str(b, "&lt;"); break;
		case '>': ss_hbuf_str(b, "&gt;"); break;
		case '&': ss_hbuf_str(b, "&amp;"); break;
		case '"': ss_hbuf_str(b, "&quot;"); break;
		default: ss_hbuf_put(b, s, 1);
		}
	}
}

static void compose(const struct page *pg, const struct ss_hbuf *meta, struct ss_hbuf *out)
{
	ss_hbuf_str(out, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
		    /* nothing may be fetched: the page is whole by itself */
		    "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		    "script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data: blob:\">\n"
		    "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		    "<meta name=\"generator\" content=\"seekscope " SS_VERSION "\">\n<title>");
	html_text(out, pg->o->g->title ? pg->o->g->title : "seekscope");
	ss_hbuf_str(out, "</title>\n<style>\n");
	ss_hbuf_put(out, ss_web_css, ss_web_css_len);
	ss_hbuf_str(out, "</style></head>\n<body>\n<noscript>This seekscope report needs "
		    "JavaScript.</noscript>\n<div id=\"ss-app\"></div>\n"
		    "<script type=\"application/json\" id=\"ss-meta\">");
	ss_hbuf_put(out, meta->p, meta->len);
	ss_hbuf_str(out, "</script>\n");
	for (int i = 0; i < pg->nr; i++) {
		ss_hbuf_printf(out, "<script type=\"application/octet-stream\" id=\"ss-data-%d\">",
			       i);
		ss_hbuf_base64(out, pg->blob[i].p, pg->blob[i].len);
		ss_hbuf_str(out, "</script>\n");
	}
	ss_hbuf_str(out, "<script>\n");
	ss_hbuf_put(out, ss_web_js, ss_web_js_len);
	ss_hbuf_str(out, "</script>\n</body></html>\n");
}

static int write_file(const char *path, const struct ss_hbuf *out, char *err, size_t errlen)
{
	struct ss_outfile *f = ss_outfile_open(path, SS_OUT_REPLACE, 0644, err, errlen);
	size_t done = 0;

	if (!f)
		return -errno;
	while (done < out->len) {
		ssize_t n = write(ss_outfile_fd(f), out->p + done, out->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : EIO;

			ss_errf(err, errlen, "%s: %s", path, strerror(e));
			ss_outfile_discard(f);
			return -e;
		}
		done += (size_t)n;
	}
	return ss_outfile_commit(f, err, errlen);
}

/* --color-by: the groups over what the page shows (as the picture ranks them), at most as
 * many as the cells' colour bits hold. */
static int rank_groups(struct page *pg, struct ss_trace *const *tr, char *err, size_t errlen)
{
	const struct ss_graph_opts *g = pg->o->g;
	struct ss_group_scope scope[SS_GRAPH_MAX_TRACES];
	unsigned top = g->top_groups ? g->top_groups : SS_HTML_MAX_GROUPS;

	if (!g->color_by_group)
		return 0;
	for (int i = 0; i < pg->nr; i++)
		scope[i] = (struct ss_group_scope){ pg->w.t0[i] + pg->w.x_lo, pg->w.t0[i] + pg->w.x_hi,
						    g->device != NULL, pg->plan.devs[i][0] };
	return ss_groups_rank(&g->group, tr, scope, pg->nr, &g->only,
			      top < SS_HTML_MAX_GROUPS ? top : SS_HTML_MAX_GROUPS, &pg->groups, err,
			      errlen);
}

int ss_html_write(const char *path, const struct ss_html_opts *o, struct ss_trace *const *tr,
		  const char *const *labels, int nr, struct ss_html_result *res, char *err,
		  size_t errlen)
{
	struct page pg = { .o = o, .nr = nr };
	struct ss_hbuf meta = { 0 }, out = { 0 };
	size_t budget = o->max_bytes ? o->max_bytes : SS_HTML_MAX_BYTES_DEFAULT;
	int ret;

	memset(res, 0, sizeof(*res));
	/* the window, then the io panels: one per device, each over its own offsets */
	if ((ret = ss_graph_window(o->g, tr, labels, nr, false, &pg.w, err, errlen)) ||
	    (ret = ss_graph_devplan(o->g, tr, labels, nr, &pg.w, &pg.plan, err, errlen)) ||
	    (ret = rank_groups(&pg, tr, err, errlen)))
		return ret;
	pg.bin_w = fine_width(pg.w.x_hi - pg.w.x_lo);
	pg.budget = budget;
	for (int i = 0; i < nr; i++) {
		struct ss_html_col_opts co = {
			.t0 = pg.w.t0[i], .x_lo = pg.w.x_lo, .x_hi = pg.w.x_hi,
			.y_lo = pg.plan.y_lo[0], .y_hi = pg.plan.y_hi[0],
			.nr_slots = pg.plan.nr_devs[i], .one_device = o->g->device != NULL,
			.seek_threshold = o->g->seek_threshold,
			.bin_width_ns = pg.bin_w, .only = &o->g->only,
			.disk = o->g->has_disk ? &o->g->disk : NULL,
			.groups = o->g->color_by_group ? &pg.groups : NULL,
		};
		char why[256];

		for (int k = 0; k < co.nr_slots; k++) {
			co.slot_dev[k] = pg.plan.devs[i][k];
			co.slot_lo[k] = pg.plan.y_lo[k];
			co.slot_hi[k] = pg.plan.y_hi[k];
		}
		pg.label[i] = labels[i];
		if (!(pg.col[i] = ss_html_col_new(tr[i], &co, why, sizeof(why)))) {
			ret = -errno;
			ss_errf(err, errlen, "%s: %s", tr[i]->path, why);
			goto out;
		}
		if ((ret = ss_html_col_run(pg.col[i], tr[i], err, errlen)))
			goto out;
		res->requests += pg.col[i]->requests;
	}
	put_meta(&pg, &meta);
	if (ss_hbuf_failed(&meta)) {
		ret = -ENOMEM;
		goto nomem;
	}
	if ((ret = fit_budget(&pg, meta.len, budget, err, errlen)))
		goto out;
	meta.len = 0;
	put_meta(&pg, &meta);
	compose(&pg, &meta, &out);
	for (int i = 0; i < nr; i++)
		if (ss_hbuf_failed(&pg.blob[i]))
			ret = -ENOMEM;
	if (ret || ss_hbuf_failed(&meta) || ss_hbuf_failed(&out)) {
		ret = -ENOMEM;
		goto nomem;
	}
	describe_drops(&pg, res);
	if ((ret = write_file(path, &out, err, errlen)))
		goto out;
	res->bytes = out.len;
	goto out;
nomem:
	ss_errf(err, errlen, "%s", strerror(ENOMEM));
out:
	for (int i = 0; i < nr; i++) {
		ss_html_col_free(pg.col[i]);
		ss_hbuf_free(&pg.blob[i]);
	}
	ss_hbuf_free(&meta);
	ss_hbuf_free(&out);
	return ret;
}
