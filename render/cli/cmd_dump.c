// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope dump: print a trace file's metadata and events as text, one event per line in the
 * style of blkparse, for checking a capture by eye or with grep/awk.  The command line is
 * dump_args.c.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "classes.h"
#include "device_arg.h"
#include "dump_args.h"
#include "json.h"
#include "report_fmt.h"
#include "render_commands.h"
#include "seekscope/model.h"
#include "tasks.h"
#include "taskfilter.h"
#include "trace_read.h"
#include "zone_index.h"
#include "filemap.h"
#include "fmapdata.h"

/*
 * Names, labels, paths and the command line come from the trace: printed for the terminal with
 * control characters and invalid UTF-8 escaped (report_fmt.h, as `report` does), so that a
 * crafted trace cannot send escape sequences to whoever dumps it.  A fixed-size field may
 * lack its NUL: SAFE takes its size.  (JSON output escapes by itself.)
 */
#define SAFE(s, n, buf) report_text_clean((s), (n), (buf), sizeof(buf))
#define SAFE_STR(s, buf) SAFE((s), strlen(s), buf)
#define SAFE_FIELD(f, buf) SAFE((f), sizeof(f), buf)

static void dump_meta(const struct ss_trace *t, uint64_t t0)
{
	char a[1024], b[1024], c[1024], e[1024];

	if (t->header.version)
		printf("# seekscope trace %s: format %u, written by seekscope %s%s%s\n", t->path,
		       t->header.version, t->header.tool_version, t->truncated ? ", " : "",
		       t->truncated ? t->warning : "");
	else
		printf("# %s trace %s (imported)%s%s\n", t->format, t->path,
		       t->truncated ? ", " : "", t->truncated ? t->warning : "");
	for (size_t i = 0; i < t->nr_meta; i++)
		printf("# meta %s = %s\n", SAFE_STR(t->meta[i].key, a), SAFE_STR(t->meta[i].value, b));
	for (size_t i = 0; i < t->nr_devices; i++) {
		const struct ss_rec_device *d = &t->devices[i];

		printf("# device %s (%u,%u) %" PRIu64 " sectors, lbs %u, partition %s start %" PRIu64
		       " length %" PRIu64 ", fs %s, named as %s\n", SAFE_FIELD(d->name, a), d->major,
		       d->minor, d->nr_sectors, d->logical_block_size,
		       d->part_name[0] ? SAFE_FIELD(d->part_name, b) : "-", d->part_start,
		       d->part_nr_sectors, d->fstype[0] ? SAFE_FIELD(d->fstype, c) : "-",
		       SAFE_FIELD(d->path, e));
	}
	for (size_t i = 0; i < t->nr_zones; i++) {
		const struct ss_rec_zone *z = &t->zones[i];

		printf("# zone %s %s (%u,%u) %" PRIu64 "+%" PRIu64 "\n", ss_zone_kind_name(z->kind),
		       SAFE_FIELD(z->label, a), SS_DEV_MAJOR(z->dev), SS_DEV_MINOR(z->dev), z->start_sector,
		       z->nr_sectors);
	}
	for (size_t i = 0; i < t->files->nr_maps; i++) {
		const struct ss_fmap_map *m = &t->files->maps[i];

		printf("# filemap %u %s (%u,%u) %s: %u entries, inode size %u%s\n", m->rec.id,
		       SAFE_FIELD(m->rec.root, a), SS_DEV_MAJOR(m->rec.dev), SS_DEV_MINOR(m->rec.dev),
		       m->rec.fstype[0] ? SAFE_FIELD(m->rec.fstype, b) : "-", m->nr_files, m->rec.inode_size,
		       m->rec.flags & SS_FMAP_AT_END ? ", mapped at the end" : "");
	}
	for (size_t i = 0; i < t->nr_phases; i++) {
		const struct ss_rec_phase *p = &t->phases[i];
		static const char *const kinds[] = { "?", "begin", "end", "mark" };

		printf("# phase %.6f %s %s\n", (double)(p->ts_ns - t0) / 1e9,
		       kinds[p->kind <= 3 ? p->kind : 0], SAFE_FIELD(p->name, a));
	}
	if (t->has_capture) {
		char status[16] = "unknown";

		if (ss_capture_exit_known(&t->capture))
			snprintf(status, sizeof(status), "%d", t->capture.exit_status);
		printf("# capture clock %s, %u CPUs, buffer %" PRIu64 " KiB/CPU, instance %s, "
		       "duration %.6f s, exit status %s\n", SAFE_FIELD(t->capture.clock, a),
		       t->capture.nr_cpus, t->capture.buffer_kb, SAFE_FIELD(t->capture.instance, b),
		       t->capture.end_ns > t->capture.start_ns ?
		       (double)(t->capture.end_ns - t->capture.start_ns) / 1e9 : 0.0, status);
	}
	for (size_t i = 0; i < t->nr_cpu_stats; i++) {
		const struct ss_rec_cpu_stats *s = &t->cpu_stats[i];

		printf("# cpu %u: %" PRIu64 " events, missed %" PRIu64 ", overrun %" PRIu64
		       ", commit overrun %" PRIu64 ", dropped %" PRIu64 "\n", s->cpu, s->events,
		       s->missed, s->overrun, s->commit_overrun, s->dropped);
	}
	for (size_t i = 0; i < ss_tasks_count(t->tasks); i++) {
		const struct ss_rec_task *k = ss_tasks_entry(t->tasks, i);
		char name[SS_TASK_NAME_LEN];

		ss_task_name(k, name, sizeof(name));
		printf("# task %.6f %u %s\n", (double)(int64_t)(k->ts_ns - t0) / 1e9, k->pid,
		       SAFE_STR(name, a));
	}
	printf("# %" PRIu64 " events, %" PRIu64 " lost\n", t->nr_events, ss_trace_lost_events(t));
}

/* One event as a line of text (dump's --help shows the columns). */
static void print_text(const struct ss_trace *t, const struct ss_event *e, uint64_t t0,
		       bool absolute)
{
	char rwbs[16], name[SS_TASK_NAME_LEN], safe[4 * SS_TASK_NAME_LEN];

	if (absolute)
		printf("%" PRIu64, e->ts_ns);
	else
		printf("%12.6f", (double)(int64_t)(e->ts_ns - t0) / 1e9);
	printf(" %2u %7u %-8s %3u,%-3u %-5s ", e->cpu, e->pid, ss_event_type_name(e->type),
	       SS_DEV_MAJOR(e->dev), SS_DEV_MINOR(e->dev), ss_rwbs_format(e->flags, rwbs, sizeof(rwbs)));
	if (e->sector == SS_SECTOR_NONE)
		printf("-");
	else
		printf("%" PRIu64 "+%u", e->sector, e->nr_sector);
	if (e->error)
		printf(" [%d]", e->error);
	ss_trace_task_name(t, e->pid, e->ts_ns, name, sizeof(name));
	printf(" [%s]\n", SAFE_STR(name, safe));
}

/* One event as one JSON object on its own line. */
static void print_json(const struct ss_trace *t, const struct ss_zone_index *zi,
		       struct ss_zone_hint *hint, const struct ss_filemap *fm,
		       const struct ss_event *e, uint64_t t0)
{
	static const char *const part[] = {
		[SS_FM_FILE] = "data", [SS_FM_DIR] = "dir", [SS_FM_INODE] = "inode",
	};
	char rwbs[16], name[SS_TASK_NAME_LEN], dev[24], path[4096];
	struct ss_fm_hit hit;
	enum ss_fm_kind fk;
	struct ss_json j;
	long z;

	ss_json_init(&j, stdout);
	ss_json_begin_object(&j);
	ss_json_kv_double(&j, "ts_s", (double)(int64_t)(e->ts_ns - t0) / 1e9);
	ss_json_kv_u64(&j, "ts_ns", e->ts_ns);
	ss_json_kv_u64(&j, "cpu", e->cpu);
	ss_json_kv_u64(&j, "pid", e->pid);
	ss_json_key(&j, "comm");
	ss_json_string(&j, ss_trace_task_name(t, e->pid, e->ts_ns, name, sizeof(name)) ? name
										    : NULL);
	ss_json_kv_string(&j, "type", ss_event_type_name(e->type));
	snprintf(dev, sizeof(dev), "%u:%u", SS_DEV_MAJOR(e->dev), SS_DEV_MINOR(e->dev));
	ss_json_kv_string(&j, "dev", dev);
	ss_json_kv_string(&j, "rwbs", ss_rwbs_format(e->flags, rwbs, sizeof(rwbs)));
	ss_json_key(&j, "sector");
	if (e->sector == SS_SECTOR_NONE)
		ss_json_null(&j);
	else
		ss_json_u64(&j, e->sector);
	ss_json_kv_u64(&j, "nr_sector", e->nr_sector);
	ss_json_kv_i64(&j, "error", e->error);
	/* the file behind the sectors: its data, a directory's blocks, or its inode; and the
	 * request's class (classes.h) with what the file map says */
	fk = ss_filemap_lookup(fm, e->dev, e->sector, e->nr_sector, &hit);
	ss_json_kv_string(&j, "class",
			  ss_class_table[ss_class_lookup(zi, t->zones, e, fk, hint, &z)].name);
	ss_json_key(&j, "zone");
	ss_json_string(&j, z >= 0 ? t->zones[z].label : NULL);
	if (fk != SS_FM_NONE)
		ss_filemap_path(fm, hit.entry, path, sizeof(path));
	ss_json_key(&j, "file");
	ss_json_string(&j, fk != SS_FM_NONE ? path : NULL);
	ss_json_key(&j, "file_part");
	ss_json_string(&j, fk != SS_FM_NONE ? part[fk] : NULL);
	ss_json_key(&j, "file_sectors");
	if (fk != SS_FM_NONE)
		ss_json_u64(&j, hit.sectors);
	else
		ss_json_null(&j);
	ss_json_end_object(&j);
	ss_json_finish(&j);
}

/* dump --filemap: the file map's entries, one per line (or JSON object). */
static int print_files(const struct ss_trace *t, bool json)
{
	const struct ss_fmap_data *d = t->files;
	/* the extents by entry (a counting sort): first[i] .. first[i + 1] in by_file */
	size_t *first = calloc(d->nr_files + 1, sizeof(*first));
	size_t *by_file = calloc(d->nr_extents ? d->nr_extents : 1, sizeof(*by_file));
	size_t *fill = calloc(d->nr_files + 1, sizeof(*fill));
	char path[4096];

	if (!first || !by_file || !fill) {
		free(first);
		free(by_file);
		free(fill);
		return -ENOMEM;
	}
	for (size_t i = 0; i < d->nr_extents; i++)
		first[d->extents[i].file + 1]++;
	for (size_t i = 0; i < d->nr_files; i++)
		fill[i + 1] = first[i + 1] += first[i];
	for (size_t i = 0; i < d->nr_extents; i++)
		by_file[fill[d->extents[i].file]++] = i;
	for (size_t i = 0; i < d->nr_files; i++) {
		const struct ss_fmap_file *f = &d->files[i];
		const char *kind = f->kind == SS_FILE_DIR ? "dir" : "file";
		size_t pl = ss_fmap_data_path(d, (uint32_t)i, path, sizeof(path));

		if (pl >= sizeof(path))
			snprintf(path, sizeof(path), "?");
		else if (!pl)
			snprintf(path, sizeof(path), ".");
		if (json) {
			struct ss_json j;

			ss_json_init(&j, stdout);
			ss_json_begin_object(&j);
			ss_json_kv_u64(&j, "map", d->maps[f->map].rec.id);
			ss_json_kv_u64(&j, "ino", f->ino);
			ss_json_key(&j, "inode_sector");
			if (f->inode_sector == SS_SECTOR_NONE)
				ss_json_null(&j);
			else
				ss_json_u64(&j, f->inode_sector);
			ss_json_kv_string(&j, "kind", kind);
			ss_json_kv_u64(&j, "extents", first[i + 1] - first[i]);
			ss_json_kv_string(&j, "path", path);
			/* [logical byte offset, sector, sectors] each */
			ss_json_key(&j, "blocks");
			ss_json_begin_array(&j);
			for (size_t k = first[i]; k < first[i + 1]; k++) {
				const struct ss_rec_extent *x = &d->extents[by_file[k]];

				ss_json_begin_array(&j);
				ss_json_u64(&j, x->logical);
				ss_json_u64(&j, x->sector);
				ss_json_u64(&j, x->nr_sectors);
				ss_json_end_array(&j);
			}
			ss_json_end_array(&j);
			ss_json_end_object(&j);
			ss_json_finish(&j);
			continue;
		}
		printf("%u %" PRIu64 " ", d->maps[f->map].rec.id, f->ino);
		if (f->inode_sector == SS_SECTOR_NONE)
			printf("-");
		else
			printf("%" PRIu64, f->inode_sector);
		printf(" %s %zu ", kind, first[i + 1] - first[i]);
		/* escaped as the names above: a newline would make two lines */
		{
			char safe[4 * sizeof(path)];

			printf("%s\n", SAFE_STR(path, safe));
		}
	}
	free(first);
	free(by_file);
	free(fill);
	return 0;
}

int ss_cmd_dump(int argc, char **argv)
{
	struct ss_zone_index *zi = NULL;
	struct ss_zone_hint hint = { 0 };
	struct ss_filemap *fm = NULL;
	struct ss_evfilter *filter = NULL;
	const struct ss_event *ev;
	struct ss_dump_args a;
	struct ss_trace *t;
	char err[256];
	int ret = 0;
	uint64_t t0;
	uint32_t dev = 0;
	size_t n;

	if ((ret = ss_dump_parse(argc, argv, &a, err, sizeof(err))))
		return ss_optable_exit(ret, "dump", &ss_dump_help, err);
	t = ss_trace_open(a.file, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "seekscope dump: %s: %s\n", a.file, err);
		return 1;
	}
	if (a.device && (ret = ss_device_arg_pick("seekscope dump", t, a.device, &dev))) {
		ss_trace_close(t);
		return ret;
	}
	t0 = t->has_capture && t->capture.start_ns ? t->capture.start_ns : t->first_ts;
	if ((ss_task_spec_active(&a.only) && !(filter = ss_evfilter_new(&a.only, t))) ||
	    (a.json && t->nr_zones && !(zi = ss_zone_index_new(t->zones, t->nr_zones))) ||
	    (a.json && !(fm = ss_filemap_new(t)))) {
		fprintf(stderr, "seekscope dump: %s: out of memory\n", a.file);
		ret = -ENOMEM;
		goto out;
	}
	if (a.filemap) {
		if ((ret = print_files(t, a.json)))
			fprintf(stderr, "seekscope dump: %s: out of memory\n", a.file);
		goto out;
	}
	if (!a.json)
		dump_meta(t, t0);
	while (!a.no_events && (ret = ss_trace_next_batch(t, &ev, &n)) > 0) {
		for (size_t i = 0; i < n; i++) {
			int keep = filter ? ss_evfilter_keep(filter, &ev[i]) : 1;

			if (keep < 0) {
				fprintf(stderr, "seekscope dump: %s: out of memory\n", a.file);
				ret = keep;
				goto out;
			}
			if (!keep || (a.device && ev[i].dev != dev))
				continue;
			if (a.json)
				print_json(t, zi, &hint, fm, &ev[i], t0);
			else
				print_text(t, &ev[i], t0, a.absolute);
		}
	}
	if (!a.no_events && ret < 0) {
		fprintf(stderr, "seekscope dump: %s: %s\n", a.file, ss_trace_error(t));
		goto out;
	}
	ret = 0;
	if (t->truncated && !a.quiet)
		fprintf(stderr, "seekscope dump: warning: %s: %s\n", a.file, t->warning);
out:
	ss_evfilter_free(filter);
	ss_zone_index_free(zi);
	ss_filemap_free(fm);
	ss_trace_close(t);
	return ret ? 1 : 0;
}
