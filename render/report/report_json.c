// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `seekscope report --json`: one compact JSON object per trace (JSON Lines).  Key names are a
 * contract with scripts that compare runs: add keys, never rename or drop them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "json.h"
#include "report_fmt.h"
#include "seekscope/model.h"

#define STRN(field) (field), strnlen((field), sizeof(field))

double report_rel_s(const struct ss_stats *st, uint64_t ts)
{
	uint64_t t0 = ss_stats_total(st)->start_ns;

	return ts >= t0 ? (double)(ts - t0) / 1e9 : -(double)(t0 - ts) / 1e9;
}

static double us(uint64_t ns)
{
	return (double)ns / 1e3;
}

/* <class>_ios and <class>_bytes of every class that covers sectors (model.h: enum ss_op). */
static void op_fields(struct ss_json *j, const uint64_t *ios, const uint64_t *bytes)
{
	char key[32];

	for (int op = 0; op < SS_NR_DATA_OPS; op++) {
		snprintf(key, sizeof(key), "%s_ios", ss_ops[op].name);
		ss_json_kv_u64(j, key, ios[op]);
		snprintf(key, sizeof(key), "%s_bytes", ss_ops[op].name);
		ss_json_kv_u64(j, key, bytes[op]);
	}
}

/* <what>_lat_p50_us, _p99_us, _max_us, _samples: a class apart from reads and writes. */
static void lat_fields(struct ss_json *j, const char *what, const struct ss_lathist *h)
{
	static const char *const sfx[] = { "lat_p50_us", "lat_p99_us", "lat_max_us" };
	const double p[] = { 50, 99, 100 };
	char key[40];

	for (size_t i = 0; i < 3; i++) {
		snprintf(key, sizeof(key), "%s_%s", what, sfx[i]);
		ss_json_kv_double(j, key, us(ss_lathist_percentile(h, p[i])));
	}
	snprintf(key, sizeof(key), "%s_lat_samples", what);
	ss_json_kv_u64(j, key, h->count);
}

/* The figures shared by the trace, each phase and each device. */
static void summary_fields(struct ss_json *j, const struct ss_summary *s)
{
	ss_json_kv_u64(j, "events", s->events);
	ss_json_kv_u64(j, "ios", s->ios);
	ss_json_kv_u64(j, "reads", s->reads);
	ss_json_kv_u64(j, "writes", s->writes);
	ss_json_kv_u64(j, "discards", s->discards);
	op_fields(j, s->op_ios, s->op_bytes);
	ss_json_kv_u64(j, "flushes", s->flushes);
	ss_json_kv_u64(j, "fua", s->fua);
	ss_json_kv_u64(j, "issues", s->issues);
	ss_json_kv_u64(j, "seeks", s->seeks);
	ss_json_kv_double(j, "seeks_per_s", s->seeks_per_s);
	ss_json_kv_double(j, "iops", s->iops);
	ss_json_kv_double(j, "read_mb_s", s->read_mb_s);
	ss_json_kv_double(j, "write_mb_s", s->write_mb_s);
	ss_json_kv_double(j, "discard_mb_s", s->discard_mb_s);
	ss_json_kv_double(j, "other_mb_s", s->other_mb_s);
	ss_json_kv_double(j, "lat_p50_us", us(s->lat_p50_ns));
	ss_json_kv_double(j, "lat_p99_us", us(s->lat_p99_ns));
	ss_json_kv_double(j, "lat_max_us", us(s->lat_max_ns));
	ss_json_kv_double(j, "lat_mean_us", ss_lathist_mean(&s->lat) / 1e3);
	ss_json_kv_u64(j, "lat_samples", s->lat.count);
	lat_fields(j, "discard", &s->discard_lat);
	lat_fields(j, "other", &s->other_lat);
	ss_json_kv_double(j, "flush_lat_p50_us", us(ss_lathist_percentile(&s->flush_lat, 50)));
	ss_json_kv_double(j, "flush_lat_max_us", us(s->flush_lat.max_ns));
	ss_json_kv_u64(j, "lat_lost", s->lat_lost);
	ss_json_kv_double(j, "queue_depth_mean", s->mean_depth);
	ss_json_kv_u64(j, "queue_depth_max", s->max_depth);
	ss_json_kv_u64(j, "unmatched", s->unmatched);
	ss_json_kv_u64(j, "errors", s->errors);
}

static void device_fields(struct ss_json *j, const struct ss_rec_device *d)
{
	char devno[32];

	snprintf(devno, sizeof(devno), "%u:%u", d->major, d->minor);
	ss_json_kv_string_n(j, "name", STRN(d->name));
	ss_json_kv_string_n(j, "part_name", STRN(d->part_name));
	ss_json_kv_string_n(j, "path", STRN(d->path));
	ss_json_kv_string_n(j, "fstype", STRN(d->fstype));
	ss_json_kv_string(j, "devno", devno);
	ss_json_kv_u64(j, "dev", d->dev);
	ss_json_kv_u64(j, "nr_sectors", d->nr_sectors);
	ss_json_kv_u64(j, "size_sectors", d->nr_sectors);     /* 0: unknown (imports) */
	ss_json_kv_u64(j, "size_bytes", d->nr_sectors * 512);
	ss_json_kv_u64(j, "part_start", d->part_start);
	ss_json_kv_u64(j, "part_nr_sectors", d->part_nr_sectors);
	ss_json_kv_u64(j, "logical_block_size", d->logical_block_size);
	ss_json_kv_u64(j, "physical_block_size", d->physical_block_size);
	ss_json_kv_bool(j, "rotational", d->flags & SS_DEV_ROTATIONAL);
	ss_json_kv_bool(j, "partition", d->flags & SS_DEV_PARTITION);
}

static void phase_object(struct ss_json *j, const struct ss_stats *st,
			 const struct ss_phase_stats *p)
{
	ss_json_begin_object(j);
	ss_json_kv_string_n(j, "name", STRN(p->name));
	ss_json_kv_double(j, "start_s", report_rel_s(st, p->s.start_ns));
	ss_json_kv_double(j, "end_s", report_rel_s(st, p->s.end_ns));
	ss_json_kv_double(j, "duration_s", p->s.duration_s);
	ss_json_kv_bool(j, "ended", p->ended);
	summary_fields(j, &p->s);
	ss_json_key(j, "files");
	if (p->has_files)
		ss_json_u64(j, p->files);
	else
		ss_json_null(j);
	ss_json_key(j, "files_per_s");
	if (p->has_files)
		ss_json_double(j, p->files_per_s);
	else
		ss_json_null(j);
	ss_json_key(j, "workload_bytes");
	if (p->has_bytes)
		ss_json_u64(j, p->bytes);
	else
		ss_json_null(j);
	ss_json_key(j, "kb_per_s");
	if (p->has_bytes)
		ss_json_double(j, p->kb_per_s);
	else
		ss_json_null(j);
	report_model_json_cost(j, st, &p->s.model);
	ss_json_end_object(j);
}

static void phases(struct ss_json *j, const struct ss_trace *t, const struct ss_stats *st)
{
	ss_json_key(j, "durable");        /* time to durable: extract+sync (stats.h), or null */
	if (ss_stats_durable(st))
		phase_object(j, st, ss_stats_durable(st));
	else
		ss_json_null(j);
	ss_json_key(j, "phases");
	ss_json_begin_array(j);
	for (size_t i = 0; i < ss_stats_nr_phases(st); i++)
		phase_object(j, st, ss_stats_phase(st, i));
	ss_json_end_array(j);

	ss_json_key(j, "marks");
	ss_json_begin_array(j);
	for (size_t i = 0; i < t->nr_phases; i++) {
		if (t->phases[i].kind != SS_PHASE_MARK)
			continue;
		ss_json_begin_object(j);
		ss_json_kv_string_n(j, "name", STRN(t->phases[i].name));
		ss_json_kv_double(j, "t_s", report_rel_s(st, t->phases[i].ts_ns));
		ss_json_end_object(j);
	}
	ss_json_end_array(j);
}

static void zones(struct ss_json *j, const struct ss_stats *st)
{
	ss_json_key(j, "zones");
	ss_json_begin_array(j);
	for (size_t i = 0; i < ss_stats_nr_zones(st); i++) {
		const struct ss_zone_stats *z = ss_stats_zone(st, i);

		ss_json_begin_object(j);
		ss_json_kv_string(j, "kind", ss_zone_kind_name(z->zone->kind));
		ss_json_kv_u64(j, "index", z->zone->index);
		ss_json_kv_string_n(j, "label", STRN(z->zone->label));
		ss_json_kv_u64(j, "dev", z->zone->dev);
		ss_json_kv_u64(j, "start_sector", z->zone->start_sector);
		ss_json_kv_u64(j, "nr_sectors", z->zone->nr_sectors);
		op_fields(j, z->op_ios, z->op_bytes);
		ss_json_kv_u64(j, "bytes", z->bytes);
		ss_json_kv_u64(j, "seeks", z->seeks);
		report_model_json_cost(j, st, &z->model);
		ss_json_end_object(j);
	}
	ss_json_end_array(j);
	ss_json_kv_u64(j, "unzoned_ios", ss_stats_unzoned_ios(st));
}

static void capture_and_meta(struct ss_json *j, const struct ss_trace *t)
{
	ss_json_key(j, "capture");
	if (t->has_capture) {
		ss_json_begin_object(j);
		ss_json_kv_string_n(j, "clock", STRN(t->capture.clock));
		ss_json_kv_string_n(j, "instance", STRN(t->capture.instance));
		ss_json_kv_u64(j, "buffer_kb", t->capture.buffer_kb);
		ss_json_kv_u64(j, "nr_cpus", t->capture.nr_cpus);
		/* null when the capture's end (and with it the status) was never recorded */
		if (ss_capture_exit_known(&t->capture)) {
			ss_json_kv_i64(j, "exit_status", t->capture.exit_status);
		} else {
			ss_json_key(j, "exit_status");
			ss_json_null(j);
		}
		ss_json_kv_u64(j, "start_ns", t->capture.start_ns);
		ss_json_kv_u64(j, "end_ns", t->capture.end_ns);
		ss_json_end_object(j);
	} else {
		ss_json_null(j);
	}
	ss_json_kv_string_n(j, "tool_version", STRN(t->header.tool_version));
	/* meta as an object; a key written twice appears once, with its last value */
	ss_json_key(j, "meta");
	ss_json_begin_object(j);
	for (size_t i = 0; i < t->nr_meta; i++) {
		if (ss_trace_meta(t, t->meta[i].key) != t->meta[i].value)
			continue;
		ss_json_kv_string(j, t->meta[i].key, t->meta[i].value);
	}
	ss_json_end_object(j);
}

/* lost_events, and where they were placed: lost_periods, lost_placed, lost_period_s. */
static void lost_fields(struct ss_json *j, const struct ss_trace *t)
{
	uint64_t span, placed = ss_trace_lost_placed(t, &span);

	ss_json_kv_u64(j, "lost_events", ss_trace_lost_events(t));
	ss_json_kv_u64(j, "lost_periods", t->nr_lost);
	ss_json_kv_u64(j, "lost_placed", placed);
	ss_json_kv_double(j, "lost_period_s", (double)span / 1e9);
}

int report_print_json(FILE *f, const struct ss_trace *t, const struct ss_stats *st,
		      const struct report_opts *ro)
{
	const struct ss_summary *s = ss_stats_total(st);
	const struct ss_pair_stats *ps = ss_stats_pairing(st);
	struct ss_json j;

	ss_json_init(&j, f);
	ss_json_begin_object(&j);
	ss_json_kv_string(&j, "file", t->path);
	ss_json_kv_string(&j, "format", t->format);
	ss_json_kv_bool(&j, "truncated", t->truncated);
	ss_json_key(&j, "warning");
	if (t->truncated)
		ss_json_string(&j, t->warning);
	else
		ss_json_null(&j);
	lost_fields(&j, t);
	ss_json_kv_double(&j, "duration_s", s->duration_s);
	ss_json_kv_u64(&j, "seek_threshold", ro->seek_threshold);
	summary_fields(&j, s);
	ss_json_kv_u64(&j, "requeues", ps->requeued);
	ss_json_kv_u64(&j, "inflight_overflow", ps->overflow);
	ss_json_kv_u64(&j, "incomplete_ios", ss_stats_incomplete_ios(st));
	report_model_json(&j, st);

	ss_json_key(&j, "device");           /* the first, or the --device one */
	if (t->nr_devices) {
		ss_json_begin_object(&j);
		device_fields(&j, ro->device ? ss_trace_find_device(t, ro->device) : &t->devices[0]);
		ss_json_end_object(&j);
	} else {
		ss_json_null(&j);
	}
	ss_json_key(&j, "devices");
	ss_json_begin_array(&j);
	for (size_t i = 0; i < ss_stats_nr_devices(st); i++) {
		const struct ss_device_stats *d = ss_stats_device(st, i);

		if (!report_shows_device(t, d->device, ro))
			continue;
		ss_json_begin_object(&j);
		device_fields(&j, d->device);
		summary_fields(&j, &d->s);
		report_causes_json_matrix(&j, ss_stats_causes(st) ?
			ss_seek_causes_device(ss_stats_causes(st), d->device->dev) : NULL);
		ss_json_end_object(&j);
	}
	ss_json_end_array(&j);
	capture_and_meta(&j, t);
	phases(&j, t, st);
	zones(&j, st);
	report_causes_json(&j, t, st);
	report_procs_json(&j, st, ro);
	report_dirs_json(&j, st);
	ss_json_end_object(&j);
	return ss_json_finish(&j);
}
