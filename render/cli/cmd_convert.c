// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope convert: write a seekscope trace from anything the reader reads (a seekscope trace,
 * blktrace files, a trace-cmd .dat), copying the metadata and streaming the events, optionally
 * adding the zones of a filesystem read from a device or image (--fs) so that an old capture
 * gets its AG/journal overlays.  Parse options (convert_args.c) → open input → probe → write →
 * close.  The first error of the writer is the one reported (ENOSPC stays ENOSPC).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "blockdev.h"
#include "convert_args.h"
#include "fsprobe.h"
#include "iolog.h"
#include "outfile.h"
#include "render_commands.h"
#include "tasks.h"
#include "trace_read.h"
#include "trace_write.h"

#define PROG "seekscope convert"

/* Where the zones of --fs go: the traced device and the filesystem's first sector on it. */
struct fs_target {
	uint32_t dev;
	uint64_t offset;
};

static const struct ss_rec_device *find_device(const struct ss_trace *t, uint32_t dev)
{
	for (size_t i = 0; i < t->nr_devices; i++)
		if (t->devices[i].dev == dev)
			return &t->devices[i];
	return NULL;
}

/*
 * Where --fs goes (see --help for the defaults).  A block device of this machine is resolved
 * to its disk and partition start through sysfs.  0, or 2 for misuse (printed).
 */
static int pick_target(const struct ss_convert_args *a, const struct ss_trace *t,
		       struct fs_target *tg)
{
	const struct ss_rec_device *d = NULL;
	struct ss_blockdev bd;
	bool have_bd = false;
	struct stat st;
	char err[200];

	if (stat(a->fs, &st) == 0 && S_ISBLK(st.st_mode) &&
	    ss_blockdev_resolve(a->fs, "/sys", &bd, err, sizeof(err)) == 0)
		have_bd = true;
	if (a->fs_dev_given)
		tg->dev = a->fs_dev;
	else if (have_bd && find_device(t, bd.rec.dev))
		tg->dev = bd.rec.dev;
	else if (t->nr_devices == 1)
		tg->dev = t->devices[0].dev;
	else {
		return ss_optable_misuse("convert", "%s: the trace has %zu devices; name the one --fs "
					 "describes with --fs-dev MAJ:MIN", a->in, t->nr_devices);
	}
	d = find_device(t, tg->dev);
	if (!d && !a->quiet)
		fprintf(stderr, PROG ": warning: %s: no I/O on device %u:%u in this trace\n", a->in,
			SS_DEV_MAJOR(tg->dev), SS_DEV_MINOR(tg->dev));
	if (a->fs_offset_given)
		tg->offset = a->fs_offset;
	else if (have_bd && bd.rec.dev == tg->dev)
		tg->offset = bd.rec.part_start;
	else
		tg->offset = d ? d->part_start : 0;
	return 0;
}

static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	       sa.st_ino == sb.st_ino;
}

/* Everything but the events and the statistics that come last: 0, or the writer's first
 * -errno. */
/* The task table, in batches: its entries say when they hold, so their order does not matter. */
static int copy_tasks(struct ss_writer *w, const struct ss_trace *t)
{
	size_t n = ss_tasks_count(t->tasks);
	struct ss_rec_task *v;
	int ret;

	if (!n)
		return 0;
	if (!(v = calloc(n, sizeof(*v))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		v[i] = *ss_tasks_entry(t->tasks, i);
	ret = ss_writer_tasks(w, v, n);
	free(v);
	return ret;
}

static int write_head(struct ss_writer *w, const struct ss_convert_args *a,
		      const struct ss_trace *t, const struct ss_fsprobe *probe,
		      const struct fs_target *tg)
{
	char buf[64];
	int ret;

	for (size_t i = 0; i < t->nr_devices; i++) {
		struct ss_rec_device d = t->devices[i];

		if (a->fs && d.dev == tg->dev && !d.fstype[0])
			snprintf(d.fstype, sizeof(d.fstype), "%s", probe->fstype);
		if ((ret = ss_writer_device(w, &d)))
			return ret;
	}
	for (size_t i = 0; i < t->nr_zones; i++)
		if ((!a->fs || t->zones[i].dev != tg->dev) &&   /* --fs replaces that device's zones */
		    (ret = ss_writer_zone(w, &t->zones[i])))
			return ret;
	for (size_t i = 0; a->fs && i < probe->nr_zones; i++) {
		struct ss_rec_zone z = probe->zones[i];

		z.dev = tg->dev;
		z.start_sector += tg->offset;   /* probed zones count from the filesystem start */
		if ((ret = ss_writer_zone(w, &z)))
			return ret;
	}
	for (size_t i = 0; i < t->nr_meta; i++)
		if ((ret = ss_writer_meta(w, t->meta[i].key, t->meta[i].value)))
			return ret;
	if ((ret = ss_writer_meta(w, "convert.input", a->in)))
		return ret;
	if (a->fs) {
		snprintf(buf, sizeof(buf), "%u:%u +%llu", SS_DEV_MAJOR(tg->dev), SS_DEV_MINOR(tg->dev),
			 (unsigned long long)tg->offset);
		if ((ret = ss_writer_meta(w, "convert.fs", a->fs)) ||
		    (ret = ss_writer_meta(w, "convert.fs_target", buf)))
			return ret;
	}
	if (t->truncated && (ret = ss_writer_meta(w, "source.warning", t->warning)))
		return ret;
	if (t->has_capture && (ret = ss_writer_capture(w, &t->capture)))
		return ret;
	/* phases are read back in file order, wherever they stand among the events */
	for (size_t i = 0; i < t->nr_phases; i++)
		if ((ret = ss_writer_phase(w, t->phases[i].ts_ns, t->phases[i].kind,
					   t->phases[i].name)))
			return ret;
	return copy_tasks(w, t);
}

/*
 * 0, -errno of the writer, or 1 for a read error (printed here).  The events go out in full
 * records (the writer writes a record per call), whatever batches the reader hands over: the
 * same input converts to the same file whether it was read ahead or not.
 */
static int copy_events(struct ss_writer *w, struct ss_trace *t, const char *in)
{
	struct ss_event *rec = malloc(SS_MAX_EVENTS_PER_RECORD * sizeof(*rec));
	const struct ss_event *ev;
	size_t n, have = 0;
	int ret;

	if (!rec)
		return -ENOMEM;
	ss_trace_rewind(t);
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0) {
		while (n) {
			size_t k = SS_MAX_EVENTS_PER_RECORD - have < n ?
				   SS_MAX_EVENTS_PER_RECORD - have : n;

			memcpy(rec + have, ev, k * sizeof(*ev));
			have += k;
			ev += k;
			n -= k;
			if (have == SS_MAX_EVENTS_PER_RECORD) {
				if ((ret = ss_writer_events(w, rec, have)))
					goto out;
				have = 0;
			}
		}
	}
	if (ret < 0) {
		fprintf(stderr, PROG ": %s: %s\n", in, ss_trace_error(t));
		ret = 1;   /* reported */
		goto out;
	}
	if (have)
		ret = ss_writer_events(w, rec, have);
out:
	free(rec);
	return ret;
}

/*
 * --to fio: the issued requests as an fio iolog (iolog.h), written to a temporary file that
 * replaces OUT only when complete.  The exit status.
 */
static int write_iolog(const struct ss_convert_args *a, struct ss_trace *t)
{
	struct ss_iolog_counts c;
	struct ss_outfile *o;
	char err[256];
	FILE *f = NULL;
	int fd, ret;

	o = ss_outfile_open(a->out, SS_OUT_REPLACE, 0644, err, sizeof(err));
	if (!o) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	if ((fd = dup(ss_outfile_fd(o))) < 0 || !(f = fdopen(fd, "w"))) {
		fprintf(stderr, PROG ": %s: %s\n", a->out, strerror(errno));
		if (fd >= 0)
			close(fd);
		ss_outfile_discard(o);
		return 1;
	}
	ret = ss_iolog_write(f, t, &c, err, sizeof(err));
	if (fclose(f) && !ret) {
		ret = -errno;
		snprintf(err, sizeof(err), "writing the iolog: %s", strerror(errno));
	}
	if (ret) {
		fprintf(stderr, PROG ": %s: %s\n", a->out, err);
		ss_outfile_discard(o);
		return 1;
	}
	if ((ret = ss_outfile_commit(o, err, sizeof(err)))) {
		fprintf(stderr, PROG ": %s: %s\n", a->out, err);
		return 1;
	}
	if (t->truncated && !a->quiet)
		fprintf(stderr, PROG ": warning: %s: %s; the iolog has what was recorded\n", a->in,
			t->warning);
	if (c.fua && !a->quiet)
		fprintf(stderr, PROG ": note: %" PRIu64 " FUA writes are replayed as plain writes "
			"(an iolog cannot mark FUA)\n", c.fua);
	if (c.skipped && !a->quiet)
		fprintf(stderr, PROG ": note: %" PRIu64 " issued requests of other operations were "
			"left out\n", c.skipped);
	return 0;
}

int ss_cmd_convert(int argc, char **argv)
{
	struct ss_convert_args a;
	struct ss_fsprobe probe = { 0 };
	struct ss_writer *w = NULL;
	struct ss_trace *t = NULL;
	struct fs_target tg = { 0 };
	char err[256];
	int ret, status = 1;

	if ((ret = ss_convert_parse(argc, argv, &a, err, sizeof(err))))
		return ss_optable_exit(ret, "convert", &ss_convert_help, err);
	t = ss_trace_open(a.in, err, sizeof(err));
	if (!t) {
		fprintf(stderr, PROG ": %s: %s\n", a.in, err);
		return 1;
	}
	if (same_file(a.in, a.out)) {
		fprintf(stderr, PROG ": %s: the output would overwrite the input\n", a.out);
		goto cleanup;
	}
	if (a.to == SS_CONVERT_FIO) {
		status = write_iolog(&a, t);
		goto cleanup;
	}
	if (a.fs) {
		if ((status = pick_target(&a, t, &tg)))
			goto cleanup;
		status = 1;
		ret = ss_fsprobe_path(a.fs, &probe);
		if (ret) {
			fprintf(stderr, PROG ": %s: cannot read the filesystem: %s\n", a.fs,
				ret == -EUCLEAN ? "inconsistent superblock" : strerror(-ret));
			goto cleanup;
		}
		if (!probe.nr_zones && !a.quiet)
			fprintf(stderr, PROG ": warning: %s: no XFS or ext4 filesystem found (%s); "
					"no zones added\n", a.fs, probe.fstype[0] ? probe.fstype : "none");
	}
	w = ss_writer_open(a.out, SS_OUT_REPLACE, err, sizeof(err));
	if (!w) {
		fprintf(stderr, PROG ": %s\n", err);
		goto cleanup;
	}
	ret = write_head(w, &a, t, &probe, &tg);
	if (!ret)
		ret = copy_events(w, t, a.in);
	for (size_t i = 0; !ret && i < t->nr_cpu_stats; i++)
		ret = ss_writer_cpu_stats(w, &t->cpu_stats[i]);
	if (ret == 0 && t->truncated) {
		/* a cut capture stays one: no end record, and the reason is in meta */
		if (!a.quiet)
			fprintf(stderr, PROG ": warning: %s: %s; the output is marked truncated "
				"too\n", a.in, t->warning);
		ret = ss_writer_close_truncated(w);
	} else if (ret == 0) {
		ret = ss_writer_close(w);
	} else {
		ss_writer_abort(w);
	}
	w = NULL;
	if (ret) {
		if (ret < 0)
			fprintf(stderr, PROG ": %s: %s\n", a.out, strerror(-ret));
		goto cleanup;
	}
	status = 0;
cleanup:
	ss_writer_abort(w);
	ss_fsprobe_release(&probe);
	ss_trace_close(t);
	return status;
}
