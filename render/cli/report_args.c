// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope report's command line (report_args.h): the option table, which is also the source
 * of --help, and the parse into struct ss_report_args.  Prints nothing.
 */
#include <errno.h>
#include <string.h>

#include "errbuf.h"
#include "device_arg.h"
#include "report_args.h"

enum { OPT_DEVICE = SS_OPT_LONG_ONLY };

static const struct ss_option options[] = {
	{ "json", 'j', NULL, "print one JSON object per file, one per line (JSON Lines)" },
	{ "seek-threshold", 's', "N", "seek distance threshold in sectors (default 128)" },
	{ "all-zones", 'a', NULL, "list every zone, also those without I/O" },
	{ "device", OPT_DEVICE, "DEV", SS_DEVICE_ARG_HELP },
	SS_OPTION_HELP,
};

const struct ss_help ss_report_help = {
	.usage = "seekscope report [OPTIONS] FILE...",
	.description =
		"Summarise trace files: device, capture, duration, events, I/Os, reads and\n"
		"writes, flushes/FUA, seeks, IOPS, MB/s, latency, lost events, phases and zones.\n"
		"FILE is a seekscope trace, blktrace files (NAME.blktrace.N: NAME, one file or\n"
		"their directory) or a trace-cmd .dat file, recognised by content.",
	.opts = options,
	.nr_opts = SS_NR_OPTIONS(options),
	.sections =
		"DEFINITIONS:\n"
		"  seek     an I/O whose start sector is more than N sectors (default 128) away from\n"
		"           where the previous I/O on the same device ended; evaluated on issue\n"
		"           (dispatch) events, the order the device sees; flushes and discards\n"
		"           (no head moves for them) are ignored\n"
		"  I/O      a completed request with sectors, in its class by the rwbs op: read (R),\n"
		"           write (W), discard (D), other (N: write-zeroes..., DE: secure erase);\n"
		"           bytes, IOPS and MB/s count completions\n"
		"  latency  issue -> completion of data I/Os (p50/p99 within ~3 %); flushes apart\n"
		"  units    MB = 10^6 bytes, KB = 10^3 bytes; sizes in KiB/MiB/GiB (2^10...)\n"
		"  times    seconds from the capture start (or the first event)\n"
		"\nOUTPUT:\n"
		"  Text by default.  With --json, one JSON object per file, each on its own line\n"
		"  (JSON Lines), with keys file, events, ios, duration_s, reads, writes, read_bytes,\n"
		"  write_bytes, discard_ios, discard_bytes, other_ios, other_bytes, seeks,\n"
		"  seeks_per_s, iops, read_mb_s, write_mb_s, lat_p50_us,\n"
		"  lat_p99_us, lost_events, truncated, device, phases[], durable (extract+sync,\n"
		"  the time to durable of record --untar, or null), zones[] and more.\n"
		"\nEXIT STATUS:\n"
		"  0 all files reported, 1 a file could not be read (the others are still\n"
		"  reported), 2 usage error.",
	.examples =
		"  seekscope report untar.sst\n"
		"  seekscope report --seek-threshold 0 ag1.sst ag4.sst\n"
		"  seekscope report --json *.sst | python3 -m json.tool --json-lines",
};

/* One option's value into the struct ss_report_args at CTX (ss_optable_parse's TAKE). */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	struct ss_report_args *a = ctx;

	switch (c) {
	case 'j':
		a->ro.json = true;
		return 0;
	case 'a':
		a->ro.all_zones = true;
		return 0;
	case OPT_DEVICE:
		if (!*arg) {
			ss_errf(err, errlen, "--device wants a device name or MAJ:MIN");
			return -EINVAL;
		}
		a->ro.device = arg;
		return 0;
	case 's':
		if (!ss_optarg_uint(arg, 10, 0, UINT64_MAX, &a->ro.seek_threshold))
			return 0;
		ss_errf(err, errlen, "--seek-threshold wants a number of sectors (0 or more), not "
			"'%s'", arg);
		return -EINVAL;
	default:
		return ss_optable_unhandled(c, err, errlen);
	}
}

int ss_report_parse(int argc, char **argv, struct ss_report_args *a, char *err, size_t errlen)
{
	int ret;

	memset(a, 0, sizeof(*a));
	a->ro.seek_threshold = SS_SEEK_THRESHOLD_DEFAULT;
	ret = ss_optable_parse(options, SS_NR_OPTIONS(options), 0, argc, argv, take_option, a, err,
			       errlen);
	if (ret)
		return ret;
	a->files = argv + optind;
	a->nr_files = argc - optind;
	if (a->nr_files <= 0) {
		ss_errf(err, errlen, "no trace file given");
		return -EINVAL;
	}
	return 0;
}
