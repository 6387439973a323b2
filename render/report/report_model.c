// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The disk model's part of `seekscope report --disk MODEL` (report_fmt.h): the modelled busy
 * time of the trace, of each phase and of each zone, split into seek, rotation, transfer and
 * command overhead, as text and as JSON.  The figures come from the statistics pass
 * (stats.h, opts.disk); the model and its limits are docs/disk-model.md.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "report_fmt.h"
#include "seekscope/model.h"

#define STRN(field) (field), strnlen((field), sizeof(field))

/* "hdd7200: 7200 rpm, 4 heads, 200 -> 100 MB/s, seek 0.8 / 8.5 / 16 ms, write cache off" */
static void describe(const struct ss_disk_params *p, char *buf, size_t len)
{
	if (p->kind == SS_DISK_SSD)
		snprintf(buf, len, "%s: solid state, read %g ms + %g MB/s, write %g ms + %g MB/s",
			 p->name, p->read_latency_ms, p->read_mbs, p->write_latency_ms,
			 p->write_mbs);
	else
		snprintf(buf, len, "%s: %g rpm, %u heads, %g -> %g MB/s, seek %g / %g / %g ms "
			 "(track / average / full stroke), write cache %s", p->name, p->rpm,
			 p->heads, p->outer_mbs, p->inner_mbs, p->track_to_track_ms, p->avg_seek_ms,
			 p->full_stroke_ms, p->wcache ? "on" : "off");
}

static void cost_columns(FILE *f, const struct ss_disk_cost *c)
{
	fprintf(f, " %10.3f %9.3f %10.3f %10.3f %10.3f\n", c->total_s, c->seek_s, c->rotation_s,
		c->transfer_s, c->overhead_s);
}

static const char cost_heads[] = " modelled s    seek s rotation s transfer s overhead s\n";

void report_model_text(FILE *f, const struct ss_stats *st)
{
	const struct ss_disk_replay *r = ss_stats_disk(st);
	struct ss_disk_result res;
	size_t idle = 0;
	char d[256];

	if (!r)
		return;
	ss_disk_replay_result(r, &res);
	describe(ss_disk_replay_params(r), d, sizeof(d));
	fprintf(f, "\n  disk model   %s\n", d);
	fprintf(f, "  modelled     %.3f s busy serving %" PRIu64 " requests one at a time in issue "
		   "order (%" PRIu64 " arm moves):\n               seek %.3f s, rotation %.3f s, "
		   "transfer %.3f s, overhead %.3f s\n", res.time.total_s, res.requests, res.seeks,
		res.time.seek_s, res.time.rotation_s, res.time.transfer_s, res.time.overhead_s);
	if (res.ignored)
		fprintf(f, "  (%" PRIu64 " issues on devices the trace does not describe were not "
			   "modelled)\n", res.ignored);
	if (ss_stats_filtered(st)) {
		const struct ss_disk_cost *c = &ss_stats_total(st)->model;

		fprintf(f, "  of which the selected processes' requests %.3f s:\n               seek "
			   "%.3f s, rotation %.3f s, transfer %.3f s, overhead %.3f s\n", c->total_s,
			c->seek_s, c->rotation_s, c->transfer_s, c->overhead_s);
	}
	if (ss_stats_nr_phases(st)) {
		fprintf(f, "\n  modelled time per phase\n  %-16s %10s%s", "name", "measured s",
			cost_heads);
		for (size_t i = 0; i < ss_stats_nr_phases(st); i++) {
			const struct ss_phase_stats *p = ss_stats_phase(st, i);

			fprintf(f, "  %-16.*s %10.3f", (int)strnlen(p->name, sizeof(p->name)), p->name,
				p->s.duration_s);
			cost_columns(f, &p->s.model);
		}
	}
	if (!ss_stats_nr_zones(st))
		return;
	fprintf(f, "\n  modelled time per zone (by the sector a request starts at)\n  %-12s %-14s%s",
		"kind", "label", cost_heads);
	for (size_t i = 0; i < ss_stats_nr_zones(st); i++) {
		const struct ss_zone_stats *z = ss_stats_zone(st, i);

		if (z->model.total_s <= 0) {
			idle++;
			continue;
		}
		fprintf(f, "  %-12s %-14.*s", ss_zone_kind_name(z->zone->kind),
			(int)strnlen(z->zone->label, sizeof(z->zone->label)), z->zone->label);
		cost_columns(f, &z->model);
	}
	if (idle)
		fprintf(f, "  (+ %zu zones where no request started)\n", idle);
}

static void cost_fields(struct ss_json *j, const struct ss_disk_cost *c)
{
	ss_json_kv_double(j, "total_s", c->total_s);
	ss_json_kv_double(j, "seek_s", c->seek_s);
	ss_json_kv_double(j, "rotation_s", c->rotation_s);
	ss_json_kv_double(j, "transfer_s", c->transfer_s);
	ss_json_kv_double(j, "overhead_s", c->overhead_s);
}

/* The parameters in use as an object, from their parameter-file form (one source of names). */
static void params_object(struct ss_json *j, const struct ss_disk_params *p)
{
	char buf[2048], *line, *save = NULL;

	ss_json_begin_object(j);
	if (ss_disk_params_format(p, buf, sizeof(buf)) < (int)sizeof(buf))
		for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *eq = strstr(line, " = "), *end;
			double v;

			if (!eq || !strncmp(line, "model ", 6))
				continue;
			*eq = 0;
			v = strtod(eq + 3, &end);
			if (*end)
				ss_json_kv_string(j, line, eq + 3);
			else
				ss_json_kv_double(j, line, v);
		}
	ss_json_end_object(j);
}

void report_model_json(struct ss_json *j, const struct ss_stats *st)
{
	const struct ss_disk_replay *r = ss_stats_disk(st);
	struct ss_disk_result res;

	ss_json_key(j, "model");
	if (!r) {
		ss_json_null(j);
		return;
	}
	ss_disk_replay_result(r, &res);
	ss_json_begin_object(j);
	ss_json_kv_string_n(j, "name", STRN(ss_disk_replay_params(r)->name));
	ss_json_key(j, "params");
	params_object(j, ss_disk_replay_params(r));
	cost_fields(j, &res.time);
	ss_json_kv_u64(j, "requests", res.requests);
	ss_json_kv_u64(j, "arm_moves", res.seeks);
	ss_json_kv_u64(j, "bytes", res.bytes);
	ss_json_kv_u64(j, "unmodelled_issues", res.ignored);
	/* --pid/--comm: the part of the selected processes' requests (null: no filter) */
	ss_json_key(j, "selected");
	if (ss_stats_filtered(st)) {
		ss_json_begin_object(j);
		cost_fields(j, &ss_stats_total(st)->model);
		ss_json_end_object(j);
	} else {
		ss_json_null(j);
	}
	ss_json_end_object(j);
}

void report_model_json_cost(struct ss_json *j, const struct ss_stats *st,
			    const struct ss_disk_cost *c)
{
	bool on = ss_stats_disk(st) != NULL;

	ss_json_key(j, "model_s");
	if (on)
		ss_json_double(j, c->total_s);
	else
		ss_json_null(j);
	ss_json_key(j, "model");
	if (on) {
		ss_json_begin_object(j);
		cost_fields(j, c);
		ss_json_end_object(j);
	} else {
		ss_json_null(j);
	}
}
