// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope convert: write a seekscope trace from anything the reader reads (a seekscope trace,
 * blktrace files, a trace-cmd .dat), copying the metadata and streaming the events, optionally
 * adding the zones of a filesystem read from a device or image (--fs) so that an old capture
 * gets its AG/journal overlays.  Parse options → open input → probe → write → close.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

#include "blockdev.h"
#include "render_commands.h"
#include "fsprobe.h"
#include "optable.h"
#include "trace_read.h"
#include "trace_write.h"

#define PROG "seekscope convert"

static const struct ss_option options[] = {
	{ "output", 'o', "OUT", "seekscope trace to write (required; replaced)" },
	{ "fs", 'f', "DEV", "add the zones of the filesystem on DEV" },
	{ "fs-dev", 'd', "MAJ:MIN", "the traced device that --fs describes" },
	{ "fs-offset", 's', "SECTORS", "where --fs starts on that device (512-byte units)" },
	{ "help", 'h', NULL, "show this help" },
};

struct convert_args {
	const char *in, *out, *fs;
	uint32_t fs_dev;
	bool fs_dev_given, fs_offset_given;
	uint64_t fs_offset;
};

/* Where the zones of --fs go: the traced device and the filesystem's first sector on it. */
struct fs_target {
	uint32_t dev;
	uint64_t offset;
};

static void usage(FILE *f)
{
	fprintf(f, "USAGE: seekscope convert IN -o OUT [--fs DEV [--fs-dev MAJ:MIN] [--fs-offset N]]\n\n"
		   "Write a seekscope trace from IN: a seekscope trace, blktrace binary files\n"
		   "(NAME.blktrace.N, named by NAME, by one of the files or by their directory) or a\n"
		   "trace-cmd .dat file with block events; the format is recognised from the\n"
		   "content.  Devices, zones, phases, statistics and meta are copied; imported\n"
		   "traces get meta \"source\".  With --fs, the zones of the XFS or ext4 filesystem on\n"
		   "DEV, a device or an image (AGs and log, groups, inode tables and journal), are\n"
		   "added to the traced device --fs-dev names; by default the disk holding DEV when\n"
		   "DEV is a block device of this machine that the trace has, else the trace's only\n"
		   "device.  Zones start at --fs-offset; by default at DEV's partition start when\n"
		   "DEV is a partition of this machine, else at the partition start the trace\n"
		   "recorded (0 for imports).\n\n"
		   "OPTIONS:\n");
	ss_optable_help(f, options, SS_NR_OPTIONS(options));
	fprintf(f, "\nEXIT STATUS:\n"
		   "  0 written, 1 the input could not be read or the output written, 2 usage error.\n"
		   "\nEXAMPLES:\n"
		   "  seekscope convert sda -o old-capture.sst             # blktrace -o sda files\n"
		   "  seekscope convert trace.dat -o untar.sst --fs /dev/sdb1  # at sdb1's offset\n"
		   "  seekscope convert sdb -o old.sst --fs sdb1.img --fs-offset 2048\n"
		   "  seekscope convert capture/ -o both.sst --fs xfs.img --fs-dev 8:16\n");
}

static int parse_dev(const char *s, uint32_t *dev)
{
	unsigned long ma, mi;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	ma = strtoul(s, &end, 10);
	if (errno || (*end != ':' && *end != ',') || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	mi = strtoul(end + 1, &end, 10);
	if (errno || *end || ma > 0xfff || mi > 0xfffff)
		return -EINVAL;
	*dev = SS_MKDEV(ma, mi);
	return 0;
}

/* 0 to go on, -1 after --help, else the exit status (the reason printed). */
static int parse_args(int argc, char **argv, struct convert_args *a)
{
	struct ss_optable t;
	char err[160];
	int c;

	if (ss_optable_init(&t, options, SS_NR_OPTIONS(options), 0)) {
		fprintf(stderr, PROG ": internal error: bad option table\n");
		return 1;
	}
	while ((c = ss_optable_next(&t, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			a->out = optarg;
			break;
		case 'f':
			a->fs = optarg;
			break;
		case 'd':
			if (parse_dev(optarg, &a->fs_dev))
				return ss_optable_misuse("convert", "--fs-dev wants MAJ:MIN, e.g. 8:16, "
							 "not '%s'", optarg);
			a->fs_dev_given = true;
			break;
		case 's':
			if (ss_optarg_uint(optarg, 10, 0, UINT64_MAX, &a->fs_offset))
				return ss_optable_misuse("convert", "--fs-offset wants a number of "
							 "sectors, not '%s'", optarg);
			a->fs_offset_given = true;
			break;
		case 'h':
			usage(stdout);
			return -1;
		default:
			ss_optable_error(&t, c, argv, err, sizeof(err));
			return ss_optable_misuse("convert", "%s", err);
		}
	}
	if (optind != argc - 1)
		return ss_optable_misuse("convert", "name one input trace");
	if (!a->out)
		return ss_optable_misuse("convert", "name the output with -o OUT");
	if ((a->fs_dev_given || a->fs_offset_given) && !a->fs)
		return ss_optable_misuse("convert", "--fs-dev and --fs-offset go with --fs");
	a->in = argv[optind];
	return 0;
}

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
static int pick_target(const struct convert_args *a, const struct ss_trace *t,
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
		fprintf(stderr, PROG ": %s: the trace has %zu devices; name the one --fs describes "
				"with --fs-dev MAJ:MIN\n", a->in, t->nr_devices);
		return 2;
	}
	d = find_device(t, tg->dev);
	if (!d)
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

/* Everything but the events and the statistics that come last. */
static int write_head(struct ss_writer *w, const struct convert_args *a, const struct ss_trace *t,
		      const struct ss_fsprobe *probe, const struct fs_target *tg)
{
	char buf[64];
	int ret = 0;

	for (size_t i = 0; i < t->nr_devices; i++) {
		struct ss_rec_device d = t->devices[i];

		if (a->fs && d.dev == tg->dev) {
			if (!d.fstype[0])
				snprintf(d.fstype, sizeof(d.fstype), "%s", probe->fstype);
		}
		ret |= ss_writer_device(w, &d);
	}
	for (size_t i = 0; i < t->nr_zones; i++)
		if (!a->fs || t->zones[i].dev != tg->dev)   /* --fs replaces that device's zones */
			ret |= ss_writer_zone(w, &t->zones[i]);
	for (size_t i = 0; a->fs && i < probe->nr_zones; i++) {
		struct ss_rec_zone z = probe->zones[i];

		z.dev = tg->dev;
		z.start_sector += tg->offset;   /* probed zones count from the filesystem start */
		ret |= ss_writer_zone(w, &z);
	}
	for (size_t i = 0; i < t->nr_meta; i++)
		ret |= ss_writer_meta(w, t->meta[i].key, t->meta[i].value);
	ret |= ss_writer_meta(w, "convert.input", a->in);
	if (a->fs) {
		ret |= ss_writer_meta(w, "convert.fs", a->fs);
		snprintf(buf, sizeof(buf), "%u:%u +%llu", SS_DEV_MAJOR(tg->dev), SS_DEV_MINOR(tg->dev),
			 (unsigned long long)tg->offset);
		ret |= ss_writer_meta(w, "convert.fs_target", buf);
	}
	if (t->truncated)
		ret |= ss_writer_meta(w, "source.warning", t->warning);
	if (t->has_capture)
		ret |= ss_writer_capture(w, &t->capture);
	/* phases are read back in file order, wherever they stand among the events */
	for (size_t i = 0; i < t->nr_phases; i++)
		ret |= ss_writer_phase(w, t->phases[i].ts_ns, t->phases[i].kind, t->phases[i].name);
	return ret ? -EIO : 0;
}

/* 0, -errno of the writer, or 1 for a read error (printed here). */
static int copy_events(struct ss_writer *w, struct ss_trace *t, const char *in)
{
	const struct ss_event *ev;
	size_t n;
	int ret;

	ss_trace_rewind(t);
	while ((ret = ss_trace_next_batch(t, &ev, &n)) > 0)
		if ((ret = ss_writer_events(w, ev, n)))
			return ret;
	if (ret < 0) {
		fprintf(stderr, PROG ": %s: %s\n", in, ss_trace_error(t));
		return 1;   /* reported */
	}
	return ret;
}

int ss_cmd_convert(int argc, char **argv)
{
	struct convert_args a = { 0 };
	struct ss_fsprobe probe = { 0 };
	struct ss_writer *w = NULL;
	struct ss_trace *t = NULL;
	struct fs_target tg = { 0 };
	char err[256];
	int ret, status = 1;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret < 0 ? 0 : ret;
	t = ss_trace_open(a.in, err, sizeof(err));
	if (!t) {
		fprintf(stderr, PROG ": %s: %s\n", a.in, err);
		return 1;
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
		if (!probe.nr_zones)
			fprintf(stderr, PROG ": warning: %s: no XFS or ext4 filesystem found (%s); "
					"no zones added\n", a.fs, probe.fstype[0] ? probe.fstype : "none");
	}
	if (same_file(a.in, a.out)) {
		fprintf(stderr, PROG ": %s: the output would overwrite the input\n", a.out);
		goto cleanup;
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
		fprintf(stderr, PROG ": warning: %s: %s; the output is marked truncated too\n", a.in,
			t->warning);
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
