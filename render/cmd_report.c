/*
 * seekscope report: summarise trace files as text or JSON Lines.  Parse options, then for each
 * file: open, one statistics pass (render/stats.h), print.  A file is printed only once its pass
 * succeeded, so a corrupt file never leaves half a report behind.
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "report_fmt.h"
#include "stats.h"
#include "trace_read.h"

static const struct report_option {
	const char *name;
	int val;
	const char *arg;
	const char *help;
} options[] = {
	{ "json", 'j', NULL, "print one JSON object per file, one per line (JSON Lines)" },
	{ "seek-threshold", 's', "N", "seek distance threshold in sectors (default 128)" },
	{ "all-zones", 'a', NULL, "list every zone, also those without I/O" },
	{ "help", 'h', NULL, "show this help" },
};
#define NR_OPTIONS (sizeof(options) / sizeof(options[0]))

static void usage(FILE *f)
{
	fprintf(f, "USAGE: seekscope report [OPTIONS] FILE...\n\n"
		   "Summarise trace files: device, capture, duration, events, I/Os, reads and\n"
		   "writes, flushes/FUA, seeks, IOPS, MB/s, latency, lost events, phases and zones.\n"
		   "FILE is a seekscope trace, blktrace files (NAME.blktrace.N: NAME, one file or\n"
		   "their directory) or a trace-cmd .dat file, recognised by content.\n\n"
		   "OPTIONS:\n");
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		char left[40];

		snprintf(left, sizeof(left), "-%c, --%s%s%s", options[i].val, options[i].name,
			 options[i].arg ? " " : "", options[i].arg ? options[i].arg : "");
		fprintf(f, "  %-26s %s\n", left, options[i].help);
	}
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

static int parse_u64(const char *s, uint64_t *out)
{
	unsigned long long v;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+' || *s == ' ')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	*out = v;
	return 0;
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
	struct option longopts[NR_OPTIONS + 1];
	char shortopts[2 * NR_OPTIONS + 2];
	struct report_opts ro = { .seek_threshold = SS_SEEK_THRESHOLD_DEFAULT };
	size_t k = 0;
	int c, status = 0;

	/* getopt tables generated from the one option table that also makes --help; the leading
	 * ':' makes getopt tell a missing argument (':') from an unknown option ('?') */
	shortopts[k++] = ':';
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		longopts[i] = (struct option){ options[i].name,
					       options[i].arg ? required_argument : no_argument,
					       NULL, options[i].val };
		shortopts[k++] = (char)options[i].val;
		if (options[i].arg)
			shortopts[k++] = ':';
	}
	longopts[NR_OPTIONS] = (struct option){ 0 };
	shortopts[k] = '\0';
	optind = 0;   /* 0, not 1: also resets glibc's position inside a cluster like -ab */
	opterr = 0;
	while ((c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			ro.json = true;
			break;
		case 'a':
			ro.all_zones = true;
			break;
		case 's':
			if (parse_u64(optarg, &ro.seek_threshold)) {
				fprintf(stderr, "seekscope report: --seek-threshold wants a number of "
						"sectors (0 or more), not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "seekscope report: option '%s' needs an argument\n",
				argv[optind - 1]);
			fprintf(stderr, "Try 'seekscope report --help'.\n");
			return 2;
		default:
			if (optopt)
				fprintf(stderr, "seekscope report: unknown option '-%c'\n", optopt);
			else
				fprintf(stderr, "seekscope report: unknown option '%s'\n",
					argv[optind - 1]);
			fprintf(stderr, "Try 'seekscope report --help'.\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "seekscope report: no trace file given\n"
				"Try 'seekscope report --help'.\n");
		return 2;
	}
	for (int i = optind; i < argc; i++) {
		if (i > optind && !ro.json)
			putchar('\n');
		if (report_file(argv[i], &ro))
			status = 1;
		fflush(stdout);
	}
	return status;
}
