/*
 * seekscope record: capture the block requests of a workload into a trace file.
 * parse options -> resolve devices + create instance -> start -> run workload -> stop -> report.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "blockdev.h"
#include "commands.h"
#include "recorder.h"
#include "workload.h"

#define DEFAULT_OUTPUT    "seekscope.sst"
#define DEFAULT_BUFFER_KB 8192
#define MAX_DEV_ARGS      32

/* The only mutable global: set by the signal handler, read by the main loop. */
static volatile sig_atomic_t got_signal;

static void on_signal(int sig)
{
	got_signal = sig;
}

struct record_opts {
	const char *output;
	const char *devs[MAX_DEV_ARGS];
	size_t nr_devs;
	size_t buffer_kb;
	unsigned extra;
	int quiet;
	int no_zones;
	char **command;          /* NULL-terminated argv after "--", or NULL */
	struct ss_untar_opts untar;   /* .archive set: the extraction workload */
};

enum { OPT_NO_ZONES = 256, OPT_UNTAR, OPT_INTO, OPT_FSYNC, OPT_REPEAT, OPT_DELETE, OPT_DROP };

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "device", required_argument, NULL, 'd' },
	{ "buffer-size", required_argument, NULL, 'b' },
	{ "events", required_argument, NULL, 'e' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "no-zones", no_argument, NULL, OPT_NO_ZONES },
	{ "untar", required_argument, NULL, OPT_UNTAR },
	{ "into", required_argument, NULL, OPT_INTO },
	{ "fsync", required_argument, NULL, OPT_FSYNC },
	{ "repeat", required_argument, NULL, OPT_REPEAT },
	{ "delete", no_argument, NULL, OPT_DELETE },
	{ "drop-caches", no_argument, NULL, OPT_DROP },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fprintf(f,
"USAGE: seekscope record [-o FILE] -d DEV [-d DEV]... [OPTIONS] [-- COMMAND [ARG...]]\n"
"       seekscope record [-o FILE] --untar ARCHIVE --into DIR [--fsync MODE] [--repeat N]\n"
"                        [--delete] [--drop-caches] [-d DEV]... [OPTIONS]\n"
"\n"
"Records block requests (block:block_rq_issue, block_rq_complete, block_rq_requeue) on the\n"
"given devices through tracefs, in a private tracing instance, while COMMAND runs (without a\n"
"shell); without COMMAND, until Ctrl-C.  Exits with COMMAND's exit status, or 1 when the\n"
"capture itself failed (the trace could not be written, e.g. its filesystem is full: the\n"
"workload is then stopped; or a traced device disappeared).  Needs root.\n"
"\n"
"With --untar, the workload is the classic extraction benchmark: ARCHIVE (any format and\n"
"compression libarchive reads) is extracted into DIR/1 (DIR/1..N with --repeat), then made\n"
"durable; each step is a phase in the trace.  The traced device is DIR's unless -d says\n"
"otherwise.  Nothing is ever written outside DIR.\n"
"\n"
"Options:\n"
"  -o, --output FILE       trace file to write (default %s)\n"
"  -d, --device DEV        block device, partition, or any path on a mounted filesystem\n"
"                          (repeatable: e.g. the members of an md array); a partition or\n"
"                          directory resolves to its whole disk plus the partition offset\n"
"  -b, --buffer-size KB    ring buffer per CPU in KiB (default %d)\n"
"  -e, --events LIST       extra events, comma-separated: insert (block_rq_insert),\n"
"                          queue (block_bio_queue)\n"
"      --no-zones          do not read filesystem zones (XFS AGs/log, ext4 groups/journal)\n"
"      --untar ARCHIVE     run the extraction workload on ARCHIVE\n"
"      --into DIR          where to extract (an existing directory, not /)\n"
"      --fsync MODE        durability: end (default: one syncfs after extracting), file\n"
"                          (fsync every file as it is written, like star), none (no sync)\n"
"      --repeat N          extract N times into DIR/1..N without syncing in between\n"
"      --delete            afterwards remove the extracted trees, then sync (rm -rf phase)\n"
"      --drop-caches       sync and drop the page cache before extracting\n"
"  -q, --quiet             no live status line\n"
"  -h, --help              this text\n"
"\n"
"EXAMPLES:\n"
"  seekscope record -d /mnt/test -o untar.sst -- sh -c 'tar xf linux.tar -C /mnt/test && sync'\n"
"  seekscope record -d /dev/sdb -b 16384          # until Ctrl-C\n"
"  seekscope record --untar linux.tar.xz --into /mnt/test --delete -o xfs.sst\n"
"  seekscope record --untar tree.tar --into /mnt/test --fsync=file --repeat 3\n"
"  seekscope report untar.sst\n",
		DEFAULT_OUTPUT, DEFAULT_BUFFER_KB);
}

static int parse_size(const char *s, size_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v < 4 || v > (1ull << 22))
		return -EINVAL;
	*out = (size_t)v;
	return 0;
}

static int parse_events(const char *s, unsigned *out)
{
	char buf[128], *tok, *save = NULL;

	if (strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "insert"))
			*out |= SS_CAP_INSERT;
		else if (!strcmp(tok, "queue"))
			*out |= SS_CAP_QUEUE;
		else
			return -EINVAL;
	}
	return 0;
}

/* 0 ok, 1 help printed, 2 misuse (message printed). */
static int parse_args(int argc, char **argv, struct record_opts *o)
{
	int c;

	o->output = DEFAULT_OUTPUT;
	o->buffer_kb = DEFAULT_BUFFER_KB;
	optind = 0;   /* 0, not 1: also resets glibc's position inside a cluster like -ab */
	while ((c = getopt_long(argc, argv, "+o:d:b:e:qh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o->output = optarg;
			break;
		case 'd':
			if (o->nr_devs == MAX_DEV_ARGS) {
				fprintf(stderr, "seekscope record: at most %d devices\n", MAX_DEV_ARGS);
				return 2;
			}
			o->devs[o->nr_devs++] = optarg;
			break;
		case 'b':
			if (parse_size(optarg, &o->buffer_kb)) {
				fprintf(stderr, "seekscope record: -b wants KiB from 4 to 4194304, "
					"not '%s'\n", optarg);
				return 2;
			}
			break;
		case 'e':
			if (parse_events(optarg, &o->extra)) {
				fprintf(stderr, "seekscope record: -e takes insert,queue — not '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'q':
			o->quiet = 1;
			break;
		case OPT_NO_ZONES:
			o->no_zones = 1;
			break;
		case OPT_UNTAR:
			o->untar.archive = optarg;
			break;
		case OPT_INTO:
			o->untar.dest = optarg;
			break;
		case OPT_FSYNC:
			if (ss_fsync_mode_parse(optarg, &o->untar.fsync_mode)) {
				fprintf(stderr, "seekscope record: --fsync takes none, file or end — "
					"not '%s'\n", optarg);
				return 2;
			}
			break;
		case OPT_REPEAT: {
			char *end;
			unsigned long v;

			errno = 0;
			v = strtoul(optarg, &end, 10);
			if (errno || end == optarg || *end || v < 1 || v > 1000) {
				fprintf(stderr, "seekscope record: --repeat wants 1 to 1000, not '%s'\n",
					optarg);
				return 2;
			}
			o->untar.repeat = (unsigned)v;
			break;
		}
		case OPT_DELETE:
			o->untar.delete_after = true;
			break;
		case OPT_DROP:
			o->untar.drop_caches = true;
			break;
		case 'h':
			usage(stdout);
			return 1;
		default:
			fprintf(stderr, "Try 'seekscope record --help'.\n");
			return 2;
		}
	}
	if (optind < argc)
		o->command = argv + optind;
	if (o->untar.archive || o->untar.dest) {
		if (!o->untar.archive || !o->untar.dest) {
			fprintf(stderr, "seekscope record: --untar ARCHIVE and --into DIR go together\n");
			return 2;
		}
		if (o->command) {
			fprintf(stderr, "seekscope record: either --untar or a command, not both\n");
			return 2;
		}
		if (!o->untar.repeat)
			o->untar.repeat = 1;
		if (!o->nr_devs)
			o->devs[o->nr_devs++] = o->untar.dest;
	}
	if (!o->nr_devs) {
		fprintf(stderr, "seekscope record: name at least one device with -d "
			"(a block device or a path on the filesystem to watch)\n");
		return 2;
	}
	return 0;
}

/* Writing the trace onto a traced device would record the recorder: say so. */
static void warn_feedback(const struct record_opts *o, struct ss_recorder *r)
{
	struct ss_blockdev out;
	char dir[4096], err[256];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", o->output);
	slash = strrchr(dir, '/');
	if (!slash)
		snprintf(dir, sizeof(dir), ".");
	else
		slash[slash == dir] = 0;
	if (ss_blockdev_resolve(dir, "/sys", &out, err, sizeof(err)))
		return;
	for (size_t i = 0; i < ss_recorder_nr_devices(r); i++) {
		const struct ss_rec_device *d = ss_recorder_device(r, i);

		if (out.rec.dev == d->dev)
			fprintf(stderr, "seekscope record: warning: %s is on the traced device %s; "
				"the trace's own writes will show up in it\n", o->output, d->name);
	}
}

int ss_cmd_record(int argc, char **argv)
{
	struct record_opts o = { 0 };
	struct ss_recorder_opts ro = { 0 };
	struct ss_recorder *r = NULL;
	struct ss_workload_ui ui = { .signal = &got_signal };
	struct sigaction sa;
	char err[512] = "", gone[256] = "";
	int ret, exit_status = 0, rc = 0;

	ret = parse_args(argc, argv, &o);
	if (ret)
		return ret == 1 ? 0 : 2;
	ui.show = !o.quiet && isatty(STDERR_FILENO);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed stderr pipe must not kill the recorder before it removes its instance */
	signal(SIGPIPE, SIG_IGN);

	ro.output = o.output;
	ro.dev_paths = o.devs;
	ro.nr_dev_paths = o.nr_devs;
	ro.buffer_kb = o.buffer_kb;
	ro.extra_events = o.extra;
	ro.sysfs = "/sys";
	ro.probe_fs = !o.no_zones;
	r = ss_recorder_new(&ro, err, sizeof(err));
	if (!r) {
		fprintf(stderr, "seekscope record: %s\n", err[0] ? err : strerror(errno));
		return 1;
	}
	warn_feedback(&o, r);
	if (o.command) {
		char cmdline[4096];
		size_t len = 0;

		cmdline[0] = 0;
		for (char **a = o.command; *a && len < sizeof(cmdline) - 1; a++)
			len += (size_t)snprintf(cmdline + len, sizeof(cmdline) - len, "%s%s",
						a == o.command ? "" : " ", *a);
		ss_recorder_meta(r, "workload", "command");
		ss_recorder_meta(r, "cmdline", cmdline);
	}
	if (ss_recorder_start(r, err, sizeof(err))) {
		fprintf(stderr, "seekscope record: %s\n", err);
		ss_recorder_free(r);
		return 1;
	}
	if (o.command)
		exit_status = ss_workload_command(r, o.command, &ui);
	else if (o.untar.archive)
		exit_status = ss_workload_untar(r, &o.untar, &ui);
	else
		ss_workload_wait_signal(r, &ui);
	ss_workload_clear_line(&ui);
	if (ss_recorder_check_devices(r, gone, sizeof(gone)) == 0)
		gone[0] = 0;
	ret = ss_recorder_stop(r, exit_status, err, sizeof(err));
	{
		struct ss_recorder_status st2;
		uint64_t lost = ss_recorder_lost(r);

		ss_recorder_status(r, &st2);
		fprintf(stderr, "seekscope: %llu events in %.2f s written to %s (%llu lost)%s\n",
			(unsigned long long)st2.events, (double)st2.elapsed_ns / 1e9, o.output,
			(unsigned long long)lost, ret ? ", failed" : got_signal ? ", interrupted" : "");
		if (lost)
			fprintf(stderr, "seekscope: warning: %llu events were lost; enlarge the ring "
				"buffer with -b (now %zu KiB per CPU)\n", (unsigned long long)lost,
				o.buffer_kb);
	}
	if (ret) {
		fprintf(stderr, "seekscope record: %s (the events before that are in %s)\n", err,
			o.output);
		rc = 1;
	}
	if (gone[0]) {
		fprintf(stderr, "seekscope record: %s\n", gone);
		rc = 1;
	}
	ss_recorder_free(r);
	return rc ? rc : exit_status;
}
