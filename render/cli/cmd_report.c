// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope report: summarise trace files as text or JSON Lines.  Parse options, then for each
 * file: open, one statistics pass (render/stats.h), print.  A file is printed only once its pass
 * succeeded, so a corrupt file never leaves half a report behind.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "render_commands.h"
#include "optable.h"
#include "report_fmt.h"
#include "stats.h"
#include "trace_read.h"

static const struct ss_option options[] = {
	{ "json", 'j', NULL, "print one JSON object per file, one per line (JSON Lines)" },
	{ "seek-threshold", 's', "N", "seek distance threshold in sectors (default 128)" },
	{ "all-zones", 'a', NULL, "list every zone, also those without I/O" },
	{ "help", 'h', NULL, "show this help" },
};

static void usage(FILE *f)
{
	fprintf(f, "USAGE: seekscope report [OPTIONS] FILE...\n\n"
		   "Summarise trace files: device, capture, duration, events, I/Os, reads and\n"
		   "writes, flushes/FUA, seeks, IOPS, MB/s, latency, lost events, phases and zones.\n"
		   "FILE is a seekscope trace, blktrace files (NAME.blktrace.N: NAME, one file or\n"
		   "their directory) or a trace-cmd .dat file, recognised by content.\n\n"
		   "OPTIONS:\n");
	ss_optable_help(f, options, SS_NR_OPTIONS(options));
	fprintf(f, "\nDEFINITIONS:\n"
		   "  seek     an I/O whose start sector is more than N sectors (default 128) away from\n"
		   "           where the previous I/O on the same device ended; evaluated on issue\n"
		   "           (dispatch) events, the order the device sees; flushes are ignored\n"
		   "  I/O      a completed read, write or discard with data; bytes, IOPS and MB/s count\n"
		   "           completions\n"
		   "  latency  issue -> completion of data I/Os (p50/p99 within ~3 %%); flushes apart\n"
		   "  units    MB = 10^6 bytes, KB = 10^3 bytes; sizes in KiB/MiB/GiB (2^10...)\n"
		   "  times    seconds from the capture start (or the first event)\n"
		   "\nOUTPUT:\n"
		   "  Text by default.  With --json, one JSON object per file, each on its own line\n"
		   "  (JSON Lines), with keys file, events, ios, duration_s, reads, writes, read_bytes,\n"
		   "  write_bytes, seeks, seeks_per_s, iops, read_mb_s, write_mb_s, lat_p50_us,\n"
		   "  lat_p99_us, lost_events, truncated, device, phases[], zones[] and more.\n"
		   "\nEXIT STATUS:\n"
		   "  0 all files reported, 1 a file could not be read (the others are still\n"
		   "  reported), 2 usage error.\n"
		   "\nEXAMPLES:\n"
		   "  seekscope report untar.sst\n"
		   "  seekscope report --seek-threshold 0 ag1.sst ag4.sst\n"
		   "  seekscope report --json *.sst | python3 -m json.tool --json-lines\n");
}

static int report_file(const char *path, const struct report_opts *ro)
{
	struct ss_stats_opts so;
	struct ss_stats *st = NULL;
	struct ss_trace *t;
	char err[256] = "";
	int ret;

	t = ss_trace_open(path, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "seekscope report: %s: %s\n", path, err[0] ? err : strerror(errno));
		return 1;
	}
	ss_stats_opts_init(&so);
	so.seek_threshold = ro->seek_threshold;
	st = ss_stats_new(t, &so);
	if (!st) {
		fprintf(stderr, "seekscope report: %s: %s\n", path, strerror(errno));
		ret = 1;
		goto cleanup;
	}
	ret = ss_stats_run(st, t);
	if (ret) {
		const char *why = ss_trace_error(t);

		fprintf(stderr, "seekscope report: %s: %s\n", path,
			why && *why ? why : strerror(-ret));
		ret = 1;
		goto cleanup;
	}
	ret = ro->json ? report_print_json(stdout, t, st, ro) : report_print_text(stdout, t, st, ro);
	if (ret) {
		fprintf(stderr, "seekscope report: %s: writing the report: %s\n", path,
			strerror(-ret));
		ret = 1;
	}
cleanup:
	ss_stats_free(st);
	ss_trace_close(t);
	return ret;
}

int ss_cmd_report(int argc, char **argv)
{
	struct report_opts ro = { .seek_threshold = SS_SEEK_THRESHOLD_DEFAULT };
	struct ss_optable t;
	char err[160];
	int c, status = 0;

	if (ss_optable_init(&t, options, SS_NR_OPTIONS(options), 0)) {
		fprintf(stderr, "seekscope report: internal error: bad option table\n");
		return 1;
	}
	while ((c = ss_optable_next(&t, argc, argv)) != -1) {
		switch (c) {
		case 'j':
			ro.json = true;
			break;
		case 'a':
			ro.all_zones = true;
			break;
		case 's':
			if (ss_optarg_uint(optarg, 10, 0, UINT64_MAX, &ro.seek_threshold))
				return ss_optable_misuse("report", "--seek-threshold wants a number of "
							 "sectors (0 or more), not '%s'", optarg);
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			ss_optable_error(&t, c, argv, err, sizeof(err));
			return ss_optable_misuse("report", "%s", err);
		}
	}
	if (optind >= argc)
		return ss_optable_misuse("report", "no trace file given");
	for (int i = optind; i < argc; i++) {
		if (i > optind && !ro.json)
			putchar('\n');
		if (report_file(argv[i], &ro))
			status = 1;
		fflush(stdout);
	}
	return status;
}
