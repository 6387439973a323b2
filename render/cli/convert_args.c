// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope convert's command line (convert_args.h): the option table, which is also the source
 * of --help, the parser of MAJ:MIN and the parse into struct ss_convert_args.  Prints nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "convert_args.h"
#include "errbuf.h"
#include "seekscope/model.h"

enum { OPT_FS_DEV = SS_OPT_LONG_ONLY, OPT_FS_OFFSET, OPT_TO };

static const struct ss_option options[] = {
	SS_OPTION_OUTPUT("file to write (required; replaced); -: standard output"),
	{ "to", OPT_TO, "FORMAT", "seekscope (default): a seekscope trace; fio: an fio\n"
				  "iolog (version 3) of the issued requests to replay\n"
				  "with fio --read_iolog=FILE --replay_redirect=DEV" },
	{ "fs", 'f', "DEV", "add the zones of the filesystem on DEV" },
	{ "fs-dev", OPT_FS_DEV, "MAJ:MIN", "the traced device that --fs describes" },
	{ "fs-offset", OPT_FS_OFFSET, "SECTORS", "where --fs starts on that device (sectors, or\n"
						 "bytes with K, M, G, T)" },
	SS_OPTION_QUIET,
	SS_OPTION_HELP,
	SS_OPTION_VERSION,
};

const struct ss_help ss_convert_help = {
	.usage = "seekscope convert IN -o FILE [--fs DEV [--fs-dev MAJ:MIN] [--fs-offset SECTORS]]\n"
		 "                         [-q]\n"
		 "       seekscope convert IN --to fio -o IOLOG",
	.description =
		"Write a seekscope trace from IN: a seekscope trace, blktrace binary files\n"
		"(NAME.blktrace.N, named by NAME, by one of the files or by their directory) or a\n"
		"trace-cmd .dat file with block events; the format is recognised from the\n"
		"content; IN - is standard input.  Devices, zones, phases, statistics and meta are copied; imported\n"
		"traces get meta \"source\".  With --fs, the zones of the XFS or ext4 filesystem on\n"
		"DEV, a device or an image (AGs and log, groups, inode tables and journal), are\n"
		"added to the traced device --fs-dev names; by default the disk holding DEV when\n"
		"DEV is a block device of this machine that the trace has, else the trace's only\n"
		"device.  Zones start at --fs-offset; by default at DEV's partition start when\n"
		"DEV is a partition of this machine, else at the partition start the trace\n"
		"recorded (0 for imports).\n"
		"\n"
		"With --to fio, OUT is an fio iolog, version 3 (fio 3.31 or later: every request\n"
		"carries its own timestamp, in microseconds; version 2's relative waits drop gaps\n"
		"under 100 us): one line per issued request, in dispatch order, at its issue time\n"
		"since the capture start, at its byte offset on the whole disk.  Reads, writes\n"
		"and discards (trim) are replayed; a flush becomes a sync (fio fsyncs the device,\n"
		"which flushes its cache), a write with a preflush a sync then the write; FUA\n"
		"cannot be expressed (such writes are replayed as plain writes, and counted).\n"
		"Each traced device is the file /dev/NAME; --replay_redirect=DEV sends every\n"
		"request to DEV instead.  Replaying WRITES TO DEV AND DESTROYS ITS CONTENT.",
	.opts = options,
	.nr_opts = SS_NR_OPTIONS(options),
	.sections =
		"EXIT STATUS:\n"
		"  0 written, 1 the input could not be read or the output written, 2 usage error.\n"
		"\nREPLAY:\n"
		"  fio --name=replay --read_iolog=IOLOG --replay_redirect=/dev/sdX --direct=1 \\\n"
		"      --ioengine=libaio --iodepth=32\n"
		"  (add --replay_no_stall=1 to issue as fast as the disk allows)",
	.examples =
		"  seekscope convert sda -o old-capture.sst             # blktrace -o sda files\n"
		"  seekscope convert trace.dat -o untar.sst --fs /dev/sdb1  # at sdb1's offset\n"
		"  seekscope convert sdb -o old.sst --fs sdb1.img --fs-offset 2048\n"
		"  seekscope convert capture/ -o both.sst --fs xfs.img --fs-dev 8:16\n"
		"  seekscope convert untar.sst --to fio -o untar.iolog",
};

int ss_convert_parse_dev(const char *s, uint32_t *dev)
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

/* One option's value into the struct ss_convert_args at CTX (ss_optable_parse's TAKE). */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	struct ss_convert_args *a = ctx;

	switch (c) {
	case 'o':
		a->out = arg;
		return 0;
	case 'f':
		a->fs = arg;
		return 0;
	case 'q':
		a->quiet = true;
		return 0;
	case OPT_TO:
		if (!strcmp(arg, "seekscope"))
			a->to = SS_CONVERT_TRACE;
		else if (!strcmp(arg, "fio"))
			a->to = SS_CONVERT_FIO;
		else {
			ss_errf(err, errlen, "--to: unknown format '%s' (valid: seekscope, fio)", arg);
			return -EINVAL;
		}
		return 0;
	case OPT_FS_DEV:
		if (ss_convert_parse_dev(arg, &a->fs_dev)) {
			ss_errf(err, errlen, "--fs-dev wants MAJ:MIN, e.g. 8:16, not '%s'", arg);
			return -EINVAL;
		}
		a->fs_dev_given = true;
		return 0;
	case OPT_FS_OFFSET:
		if (ss_optarg_sectors(arg, strlen(arg), UINT64_MAX, &a->fs_offset)) {
			ss_errf(err, errlen, "bad --fs-offset '%s' (sectors or bytes like 1M)", arg);
			return -EINVAL;
		}
		a->fs_offset_given = true;
		return 0;
	default:
		return ss_optable_unhandled(c, err, errlen);
	}
}

int ss_convert_parse(int argc, char **argv, struct ss_convert_args *a, char *err, size_t errlen)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = ss_optable_parse(options, SS_NR_OPTIONS(options), 0, argc, argv, take_option, a, err,
			       errlen);
	if (ret)
		return ret;
	if (optind != argc - 1) {
		ss_errf(err, errlen, "name one input trace");
		return -EINVAL;
	}
	if (!a->out) {
		ss_errf(err, errlen, "name the output with -o FILE");
		return -EINVAL;
	}
	if (a->fs && a->to == SS_CONVERT_FIO) {
		ss_errf(err, errlen, "--fs adds zones to a seekscope trace; an fio iolog (--to fio) "
			"has requests only");
		return -EINVAL;
	}
	if ((a->fs_dev_given || a->fs_offset_given) && !a->fs) {
		ss_errf(err, errlen, "--fs-dev and --fs-offset go with --fs");
		return -EINVAL;
	}
	a->in = argv[optind];
	return 0;
}
