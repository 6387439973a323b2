// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope report's command line (report_args.h): the option table, which is also the source
 * of --help, and the parse into struct ss_report_args.  Prints nothing.
 */
#include <errno.h>
#include <string.h>

#include "disk_opt.h"
#include "errbuf.h"
#include "device_arg.h"
#include "render_args.h"
#include "report_args.h"

enum { OPT_PID = SS_OPT_LONG_ONLY, OPT_COMM, OPT_DISK };

static const struct ss_option options[] = {
	{ "json", 'j', NULL, "print one JSON object per file, one per line (JSON Lines)" },
	SS_OPTION_SEEK_THRESHOLD,
	{ "all-zones", 'a', NULL, "list every zone, also those without I/O" },
	SS_OPTION_DEVICE(SS_DEVICE_ARG_HELP),
	{ "pid", OPT_PID, "PID", "count only the requests of process PID (repeatable)" },
	{ "comm", OPT_COMM, "NAME", "count only the requests of processes named NAME, a glob\n"
	  "(\"tar\", \"kworker*\", \"xfsaild*\"; repeatable)" },
	SS_OPTION_PROCESSES,
	{ "disk", OPT_DISK, SS_DISK_OPT_ARG, SS_DISK_OPT_HELP "; adds the\n"
					      "modelled time per trace, phase and zone" },
	SS_OPTION_HELP,
	SS_OPTION_VERSION,
};

const struct ss_help ss_report_help = {
	.usage = "seekscope report [OPTIONS] FILE...",
	.description =
		"Summarise trace files: device, capture, duration, events, I/Os, reads and\n"
		"writes, flushes/FUA, seeks, IOPS, MB/s, latency, lost events, phases and zones.\n"
		"FILE is a seekscope trace, blktrace files (NAME.blktrace.N: NAME, one file or\n"
		"their directory) or a trace-cmd .dat file, recognised by content; - reads one\n"
		"from standard input (a pipe is copied into a temporary file in $TMPDIR first).",
	.opts = options,
	.nr_opts = SS_NR_OPTIONS(options),
	.sections =
		"DEFINITIONS:\n"
		"  seek     an I/O whose start sector is more than SECTORS (default 128) away from\n"
		"           where the previous I/O on the same device ended; evaluated on issue\n"
		"           (dispatch) events, the order the device sees; flushes and discards\n"
		"           (no head moves for them) are ignored\n"
		"  I/O      a completed request with sectors, in its class by the rwbs op: read (R),\n"
		"           write (W), discard (D), other (N: write-zeroes..., DE: secure erase);\n"
		"           bytes, IOPS and MB/s count completions\n"
		"  latency  issue -> completion of reads and writes (p50/p99 within ~3 %);\n"
		"           discards, other ops and flushes apart; none for a request in flight\n"
		"           across a lost-event period (its issue or completion may be lost)\n"
		"  units    MB = 10^6 bytes, KB = 10^3 bytes; sizes in KiB/MiB/GiB (2^10...)\n"
		"  times    seconds from the capture start (or the first event)\n"
		"  process  a request belongs to its submitter — the task of the block_bio_queue\n"
		"           or block_rq_insert event at its start sector (record -e queue,insert)\n"
		"           — else to the task that issued it; its completion goes with it.\n"
		"           Names come from the trace's task table (\"unknown\" for traces that\n"
		"           have none); a kworker's name carries the work function it was\n"
		"           running (kworker/u8:2-wb_workfn: writeback).  Seeks of a process are\n"
		"           the seeks its requests made (judged against every request).\n"
		"  --pid/--comm  count only those processes' requests; the others still move the\n"
		"           head (seeks are judged on every request) and fill the queue\n"
		"  class    what a request touches, by one rule (docs/classes.md): journal (in a\n"
		"           log or journal zone), metadata (M, inode tables), data (reads and\n"
		"           writes), discard, other (write-zeroes...), flush; file-data and dir\n"
		"           with a file map\n"
		"  seek cause  the classes of the requests before and after a seek (the previous\n"
		"           request on the device, the one the distance is measured from), and\n"
		"           whether their zones (AG, group, log, inode table) differ\n"
		"\nOUTPUT:\n"
		"  Text by default.  With --json, one JSON object per file, each on its own line\n"
		"  (JSON Lines), with keys file, events, ios, duration_s, reads, writes, read_bytes,\n"
		"  write_bytes, discard_ios, discard_bytes, other_ios, other_bytes, seeks,\n"
		"  seeks_per_s, iops, read_mb_s, write_mb_s, lat_p50_us, lat_p99_us,\n"
		"  discard_lat_*, other_lat_*, lat_lost, lost_events, lost_periods, truncated, device, devices[] (each with size_sectors),\n"
		"  phases[], durable (extract+sync, the time to durable of record --untar, or\n"
		"  null), zones[], processes[] ({comm, pid, ios, bytes, seeks, issues}; comm null\n"
		"  when the trace does not name the pid, pid null for completions whose issue it\n"
		"  lacks), processes_by (\"submitter\" or \"issuer\"), filter, seek_causes[]\n"
		"  ({from, to, seeks, share, across_zones}, also in each device), seek_zone_pairs[]\n"
		"  ({from, from_zone, to, to_zone, seeks}, the 64 biggest), seek_zone_pairs_other\n"
		"  (the seeks of the pairs not listed) and more.\n"
		"  With --disk: model {name, params, total_s, seek_s, rotation_s, transfer_s,\n"
		"  overhead_s, requests, arm_moves, selected}, and model_s with its model {...}\n"
		"  split in each phase, durable and zone (null without --disk).\n"
		"\nDISK MODEL:\n"
		"  The time a disk would be busy serving the trace's issued requests one at a\n"
		"  time, in issue order: command overhead + seek (a curve through the track-to-\n"
		"  track, average and full-stroke times) + rotational latency + transfer at the\n"
		"  zone's media rate; the device's span is laid onto the whole platter; writes go\n"
		"  to the media (write cache off) unless wcache=on.  Busy time, not elapsed time:\n"
		"  no queue reordering, no cache.  With --pid/--comm the model still serves every\n"
		"  request, and selected {total_s, ...} is the selected processes' part.  Every\n"
		"  parameter and its source: docs/disk-model.md.\n"
		"\nEXIT STATUS:\n"
		"  0 all files reported, 1 a file could not be read (the others are still\n"
		"  reported), 2 usage error, a trace --disk cannot model (a device of unknown\n"
		"  size) or a trace without the --device.",
	.examples =
		"  seekscope report untar.sst\n"
		"  seekscope report --seek-threshold 0 ag1.sst ag4.sst\n"
		"  seekscope report --comm tar --comm 'kworker*wb_workfn' untar.sst\n"
		"  seekscope report --disk hdd7200 ag1.sst ag4.sst\n"
		"  seekscope report --json *.sst | python3 -m json.tool --json-lines\n"
		"  seekscope record -o - -d /dev/sdb -- tar xf a.tar | seekscope report -",
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
	case 'd':
		if (!*arg) {
			ss_errf(err, errlen, "--device wants a device name or MAJ:MIN");
			return -EINVAL;
		}
		a->ro.device = arg;
		return 0;
	case OPT_DISK:
		if (ss_disk_opt_parse(arg, &a->ro.disk, err, errlen))
			return -EINVAL;
		a->ro.has_disk = true;
		return 0;
	case 't':
		if (!ss_parse_seek_threshold(arg, &a->ro.seek_threshold))
			return 0;
		ss_errf(err, errlen, "bad --seek-threshold '%s' (%s)", arg, SS_SEEK_THRESHOLD_HINT);
		return -EINVAL;
	case OPT_PID:
		return ss_task_spec_add_pid(&a->ro.only, arg, err, errlen);
	case OPT_COMM:
		return ss_task_spec_add_comm(&a->ro.only, arg, err, errlen);
	case SS_OPT_PROCESSES:
		if (!ss_parse_processes(arg, &a->ro.top_procs))
			return 0;
		ss_errf(err, errlen, "bad --processes '%s' (%s)", arg, SS_PROCESSES_HINT);
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
	a->ro.top_procs = REPORT_PROCS_DEFAULT;
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
