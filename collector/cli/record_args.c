// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope record's command line (record_args.h): the option table, which is also the
 * source of --help, and the parse into struct ss_record_opts.  Prints nothing.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "record_args.h"
#include "tracecap.h"

#define STR_(x) #x
#define STR(x) STR_(x)

enum { OPT_NO_ZONES = SS_OPT_LONG_ONLY, OPT_UNTAR, OPT_INTO, OPT_FSYNC, OPT_REPEAT, OPT_DELETE,
       OPT_DROP, OPT_LINGER, OPT_NO_WORK, OPT_ALL_WORK, OPT_MAP, OPT_NO_MAP, OPT_USER, OPT_HOST_DISK };

static const struct ss_option options[] = {
	SS_OPTION_OUTPUT("trace file to write (default " SS_RECORD_DEFAULT_OUTPUT "); -:\n"
			 "standard output, COMMAND's output going to stderr"),
	{ "device", 'd', "DEV", "block device, partition, or any path on a mounted filesystem\n"
				"(repeatable: e.g. the members of an md array); a partition or\n"
				"directory resolves to its whole disk plus the partition offset;\n"
				"a disk image to the loop device it is attached to (seekscope list)" },
	{ "host-disk", OPT_HOST_DISK, NULL, "-d with a disk image attached to no loop device:\n"
					 "trace the disk that holds the file (else refused)" },
	{ "buffer-size", 'b', "KIB",
	  "ring buffer per CPU in KiB (default " STR(SS_RECORD_DEFAULT_BUFFER_KB) ")" },
	{ "events", 'e', "LIST", "extra events, comma-separated: insert (block_rq_insert),\n"
				 "queue (block_bio_queue)" },
	{ "no-zones", OPT_NO_ZONES, NULL,
	  "do not read filesystem zones (XFS AGs/log, ext4 groups/journal)" },
	{ "no-work-names", OPT_NO_WORK, NULL,
	  "do not record kworkers' stacks (or workqueue_execute_start): kworkers\n"
	  "are then named without the work they ran (wb_workfn: writeback, ...)" },
	{ "all-work-names", OPT_ALL_WORK, NULL,
	  "keep the trigger that names the kworkers' work on throughout; by\n"
	  "default it pauses while other tasks issue 5,000 requests a second or\n"
	  "more on the traced devices and no kworker has issued any for 10 s\n"
	  "(or since the start), and the kworkers' requests until it is back\n"
	  "go without their work's name" },
	{ "untar", OPT_UNTAR, "ARCHIVE", "run the extraction workload on ARCHIVE" },
	{ "into", OPT_INTO, "DIR", "where to extract (an existing directory, not /)" },
	{ "fsync", OPT_FSYNC, "MODE", "durability: end (default: one syncfs after extracting), file\n"
				      "(fsync every file as it is written, like star), none (no sync)" },
	{ "repeat", OPT_REPEAT, "N", "extract N times into DIR/1..N without syncing in between\n"
				     "(at most " STR(SS_UNTAR_MAX_REPEAT) ")" },
	{ "delete", OPT_DELETE, NULL, "afterwards remove the extracted trees, then sync (rm -rf phase)" },
	{ "drop-caches", OPT_DROP, NULL, "sync and drop the page cache before extracting" },
	{ "no-map", OPT_NO_MAP, NULL, "with --untar: do not map the extracted files (FIEMAP) into\n"
				      "the trace" },
	{ "map", OPT_MAP, "DIR", "when COMMAND ends, map the files and directories under DIR\n"
				 "(FIEMAP) into the trace, so requests are attributed to files;\n"
				 "files COMMAND deleted cannot be mapped" },
	{ "user", OPT_USER, "USER", "run the workload (COMMAND or the extraction) as USER: its\n"
				    "uid, groups, HOME, USER, LOGNAME and SHELL; the files it\n"
				    "creates are USER's (the recorder stays root)" },
	{ "linger", OPT_LINGER, "SECONDS",
	  "after the workload, wait at most this long for the requests in flight\n"
	  "to complete (default " STR(SS_RECORD_DEFAULT_LINGER_S) "; 0: stop at once)" },
	SS_OPTION_QUIET,
	SS_OPTION_HELP,
	SS_OPTION_VERSION,
};

const struct ss_help ss_record_help = {
	.usage =
"seekscope record [-o FILE] -d DEV [-d DEV]... [OPTIONS] [--] [COMMAND [ARG...]]\n"
"       seekscope record [-o FILE] --untar ARCHIVE --into DIR [--fsync MODE] [--repeat N]\n"
"                        [--delete] [--drop-caches] [-d DEV]... [OPTIONS]",
	.description =
"Records block requests (block:block_rq_issue, block_rq_complete, block_rq_requeue) on the\n"
"given devices through tracefs, in a private tracing instance, while COMMAND runs (without a\n"
"shell); without COMMAND, until Ctrl-C.  When the workload ends, the capture goes on until\n"
"the requests in flight have completed (at most --linger seconds).  Exit status, in every\n"
"mode: 1 when the capture itself failed (the trace could not be written, e.g. its filesystem\n"
"is full: the workload is then stopped; or a traced device disappeared); else 130 after\n"
"SIGINT, 143 after SIGTERM (128+signal); else the workload's (COMMAND's, 127 when it cannot\n"
"run; 1 when the extraction failed).  Anything refused (a missing archive, an existing\n"
"DIR/1, an unwritable output) is refused before a trace or a tracing instance exists.\n"
"The trace names the processes behind the requests (a task table: pid -> name, stored\n"
"once per name); a kworker's name carries the work it ran when it issued I/O: the\n"
"function process_one_work called in the kernel's stack, taken after each of a kworker's\n"
"requests (or workqueue:workqueue_execute_start before Linux 5.17).\n"
"With -e queue,insert, requests are attributed to the task that submitted them rather\n"
"than the one that handed them to the driver.\n"
"Needs root.  Options end at COMMAND: what follows it is COMMAND's own.\n"
"\n"
"With --untar, the workload is the classic extraction benchmark: ARCHIVE (any format and\n"
"compression libarchive reads) is extracted into DIR/1 (DIR/1..N with --repeat), then made\n"
"durable; each step is a phase in the trace.  The traced device is DIR's unless -d says\n"
"otherwise.  Nothing is ever written outside DIR.  Once the files are on the disk (before\n"
"--delete), the recorder maps them: the extents of every file and directory under DIR\n"
"(FIEMAP) and where their inodes lie go into the trace, a \"map\" phase, so that dump,\n"
"plot --color-by dir and report name the files behind the requests (--no-map skips it;\n"
"--map DIR does the same for a COMMAND, when it ends).",
	.opts = options,
	.nr_opts = SS_NR_OPTIONS(options),
	.sections =
"EXIT STATUS:\n"
"  COMMAND's exit status (128+N when signal N killed it); without COMMAND, or with\n"
"  --untar, 0 when recorded and 1 when the extraction failed; 1 when the capture\n"
"  failed; 2 on a usage error.",
	.examples =
"  seekscope record -d /mnt/test -o untar.sst -- sh -c 'tar xf linux.tar -C /mnt/test && sync'\n"
"  seekscope record -d /dev/sdb -b 16384          # until Ctrl-C\n"
"  seekscope record -e queue,insert -d /mnt/test -- sh -c 'tar xf linux.tar -C /mnt/test'\n"
"  seekscope record --untar linux.tar.xz --into /mnt/test --delete -o xfs.sst\n"
"  seekscope record --untar tree.tar --into /mnt/test --fsync=file --repeat 3\n"
"  seekscope record --map /mnt/test -- sh -c 'tar xf linux.tar -C /mnt/test && sync'\n"
"  seekscope record --user alice -d /home -- make -C /home/alice/src\n"
"  seekscope record -o - -d /mnt/test -- cp -r /usr/share /mnt/test | seekscope report -\n"
"  seekscope report untar.sst",
};

int ss_record_parse_buffer_kb(const char *s, size_t *kb)
{
	uint64_t v;

	if (ss_optarg_uint(s, 10, SS_RECORD_MIN_BUFFER_KB, SS_RECORD_MAX_BUFFER_KB, &v))
		return -EINVAL;
	*kb = (size_t)v;
	return 0;
}

int ss_record_parse_events(const char *s, unsigned *mask)
{
	unsigned bits = 0;

	for (const char *p = s;; p++) {
		size_t len = strcspn(p, ",");

		if (len == strlen("insert") && !strncmp(p, "insert", len))
			bits |= SS_CAP_INSERT;
		else if (len == strlen("queue") && !strncmp(p, "queue", len))
			bits |= SS_CAP_QUEUE;
		else
			return -EINVAL;   /* also an empty item */
		p += len;
		if (!*p)
			break;
	}
	*mask |= bits;
	return 0;
}

int ss_record_parse_linger(const char *s, double *seconds)
{
	char *end;
	double v;

	/* digits first: no sign, blanks, "inf" or "nan" */
	if (!s || !((*s >= '0' && *s <= '9') || *s == '.'))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || *end || end == s || v > SS_RECORD_MAX_LINGER_S)
		return -EINVAL;
	*seconds = v;
	return 0;
}

int ss_record_parse_repeat(const char *s, unsigned *repeat)
{
	return ss_optarg_unsigned(s, 1, SS_UNTAR_MAX_REPEAT, repeat) ? -EINVAL : 0;
}

/* One option's value into the struct ss_record_opts at CTX (ss_optable_parse's TAKE). */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	struct ss_record_opts *o = ctx;
	const char *want = NULL;   /* "WANT, not 'ARG'" */

	switch (c) {
	case 'o':
		o->output = arg;
		break;
	case 'd':
		if (o->nr_devs == SS_RECORD_MAX_DEVS) {
			ss_errf(err, errlen, "at most %d devices", SS_RECORD_MAX_DEVS);
			return -EINVAL;
		}
		o->devs[o->nr_devs++] = arg;
		break;
	case 'b':
		if (ss_record_parse_buffer_kb(arg, &o->buffer_kb))
			want = "-b wants KiB from " STR(SS_RECORD_MIN_BUFFER_KB) " to "
			       STR(SS_RECORD_MAX_BUFFER_KB);
		break;
	case 'e':
		if (ss_record_parse_events(arg, &o->extra))
			want = "-e takes insert,queue";
		break;
	case 'q':
		o->quiet = 1;
		break;
	case OPT_NO_ZONES:
		o->no_zones = 1;
		break;
	case OPT_NO_WORK:
		o->no_work = 1;
		break;
	case OPT_ALL_WORK:
		o->all_work = 1;
		break;
	case OPT_UNTAR:
		o->untar.archive = arg;
		break;
	case OPT_INTO:
		o->untar.dest = arg;
		break;
	case OPT_FSYNC:
		if (ss_fsync_mode_parse(arg, &o->untar.fsync_mode))
			want = "--fsync takes none, file or end";
		break;
	case OPT_REPEAT:
		if (ss_record_parse_repeat(arg, &o->untar.repeat))
			want = "--repeat wants 1 to " STR(SS_UNTAR_MAX_REPEAT);
		break;
	case OPT_DELETE:
		o->untar.delete_after = true;
		break;
	case OPT_DROP:
		o->untar.drop_caches = true;
		break;
	case OPT_MAP:
		o->map_dir = arg;
		break;
	case OPT_NO_MAP:
		o->no_map = 1;
		break;
	case OPT_HOST_DISK:
		o->host_disk = 1;
		break;
	case OPT_USER:
		if (!*arg)
			want = "--user wants a user name";
		o->user = arg;
		break;
	case OPT_LINGER:
		if (ss_record_parse_linger(arg, &o->linger_s))
			want = "--linger wants seconds from 0 to " STR(SS_RECORD_MAX_LINGER_S);
		break;
	default:
		return ss_optable_unhandled(c, err, errlen);
	}
	if (!want)
		return 0;
	ss_errf(err, errlen, "%s, not '%s'", want, arg);
	return -EINVAL;
}

int ss_record_parse(int argc, char **argv, struct ss_record_opts *o, char *err, size_t errlen)
{
	int ret;

	memset(o, 0, sizeof(*o));
	o->output = SS_RECORD_DEFAULT_OUTPUT;
	o->buffer_kb = SS_RECORD_DEFAULT_BUFFER_KB;
	o->linger_s = SS_RECORD_DEFAULT_LINGER_S;
	ret = ss_optable_parse(options, SS_NR_OPTIONS(options), SS_OPTABLE_STOP_AT_OPERAND, argc,
			       argv, take_option, o, err, errlen);
	if (ret)
		return ret;
	if (optind < argc)
		o->command = argv + optind;
	if (o->untar.archive || o->untar.dest) {
		if (!o->untar.archive || !o->untar.dest) {
			ss_errf(err, errlen, "--untar ARCHIVE and --into DIR go together");
			return -EINVAL;
		}
		if (o->command) {
			ss_errf(err, errlen, "either --untar or a command, not both");
			return -EINVAL;
		}
		if (o->map_dir) {
			ss_errf(err, errlen, "--untar maps DIR by itself; --map is for a COMMAND");
			return -EINVAL;
		}
		if (!o->untar.repeat)
			o->untar.repeat = 1;
		if (!o->nr_devs)
			o->devs[o->nr_devs++] = o->untar.dest;
	}
	if (o->no_work && o->all_work) {
		ss_errf(err, errlen, "either --no-work-names or --all-work-names, not both");
		return -EINVAL;
	}
	if (o->no_map && !o->untar.archive) {
		ss_errf(err, errlen, "--no-map goes with --untar");
		return -EINVAL;
	}
	if (o->map_dir && !o->nr_devs)
		o->devs[o->nr_devs++] = o->map_dir;
	if (o->user && !o->command && !o->untar.archive) {
		ss_errf(err, errlen, "--user is for a workload: give a COMMAND or --untar");
		return -EINVAL;
	}
	if (!o->nr_devs) {
		ss_errf(err, errlen, "name at least one device with -d (a block device or a path on "
			"the filesystem to watch)");
		return -EINVAL;
	}
	return 0;
}
