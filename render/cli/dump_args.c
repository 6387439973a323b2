// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope dump's command line (dump_args.h): the option table, which is also the source of
 * --help, and the parse into struct ss_dump_args.  Prints nothing.
 */
#include <errno.h>
#include <string.h>

#include "device_arg.h"
#include "dump_args.h"
#include "errbuf.h"

enum { OPT_ABSOLUTE = SS_OPT_LONG_ONLY, OPT_PID, OPT_COMM, OPT_FILEMAP };

static const struct ss_option options[] = {
	{ "no-events", 'n', NULL, "metadata only" },
	{ "absolute", OPT_ABSOLUTE, NULL,
	  "TIME in the trace clock's nanoseconds (to line up captures)" },
	SS_OPTION_DEVICE(SS_DEVICE_ARG_HELP),
	{ "json", 'j', NULL, "one JSON object per event, one per line (no metadata)" },
	{ "filemap", OPT_FILEMAP, NULL, "the file map's entries instead of the events:\n"
	  "MAP INO INODE_SECTOR KIND EXTENTS PATH" },
	{ "pid", OPT_PID, "PID", "only requests issued by process PID (repeatable)" },
	{ "comm", OPT_COMM, "NAME", "only requests issued by processes named NAME, a glob\n"
	  "(\"tar\", \"kworker*\", \"kworker:flush\"; repeatable)" },
	SS_OPTION_QUIET,
	SS_OPTION_HELP,
	SS_OPTION_VERSION,
};

const struct ss_help ss_dump_help = {
	.usage = "seekscope dump [--no-events] [--absolute] [--json] [--filemap]\n"
		 "                      [--pid PID] [--comm NAME] [-d DEV] [-q] FILE",
	.description =
		"Prints the header, devices, zones, phases, capture statistics, the processes\n"
		"the trace names (task TIME PID NAME) and every event of a trace (seekscope,\n"
		"blktrace or trace-cmd .dat, recognised by content):\n"
		"  TIME(s since start) CPU PID TYPE DEV RWBS SECTOR+COUNT [error] [NAME]\n"
		"NAME is the process of the event's context as the trace names it, \"unknown\"\n"
		"if it does not.  With --json, one object per event with ts_s, cpu, pid, comm,\n"
		"type, dev, rwbs, sector, nr_sector, error, class (file-data, data, dir,\n"
		"metadata, journal, flush, discard or other: docs/classes.md) and zone (null\n"
		"where there is none).\n"
		"--pid and --comm keep the requests those processes issued: their issue events\n"
		"and the completions that pair with them (insert, queue and requeue events by\n"
		"their own context).  FILE - is standard input (a pipe is copied into a\n"
		"temporary file in $TMPDIR first).\n"
		"--filemap lists the entries of the trace's file map (record --untar, record\n"
		"--map DIR) instead of the events: the map's number, the inode number, the\n"
		"absolute sector where the on-disk inode begins (- when unknown), file or dir,\n"
		"how many extents were mapped and the path relative to the mapped DIR (\".\"\n"
		"for DIR); with --json, one object per entry with map, ino, inode_sector,\n"
		"kind, extents, path and blocks ([logical byte, sector, sectors] per\n"
		"extent).  The inode sectors can be checked with xfs_db -c\n"
		"\"convert inode N daddr\" (XFS) or debugfs -R \"imap <N>\" (ext4), plus the\n"
		"partition's start.",
	.opts = options,
	.nr_opts = SS_NR_OPTIONS(options),
	.sections =
		"EXIT STATUS:\n"
		"  0 dumped (also a truncated trace, with a warning), 1 the trace could not be\n"
		"  read, 2 usage error.",
	.examples =
		"  seekscope dump untar.sst | less\n"
		"  seekscope dump untar.sst | awk '$4 == \"issue\"' | wc -l\n"
		"  seekscope dump --comm 'kworker*' --json untar.sst | head",
};

/* One option into the struct ss_dump_args at CTX (ss_optable_parse's TAKE). */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	struct ss_dump_args *a = ctx;

	switch (c) {
	case 'd':
		if (!*arg) {
			ss_errf(err, errlen, "--device wants a device name or MAJ:MIN");
			return -EINVAL;
		}
		a->device = arg;
		return 0;
	case 'n':
		a->no_events = true;
		return 0;
	case OPT_ABSOLUTE:
		a->absolute = true;
		return 0;
	case OPT_FILEMAP:
		a->filemap = true;
		return 0;
	case 'j':
		a->json = true;
		return 0;
	case OPT_PID:
		return ss_task_spec_add_pid(&a->only, arg, err, errlen);
	case OPT_COMM:
		return ss_task_spec_add_comm(&a->only, arg, err, errlen);
	case 'q':
		a->quiet = true;
		return 0;
	default:
		return ss_optable_unhandled(c, err, errlen);
	}
}

int ss_dump_parse(int argc, char **argv, struct ss_dump_args *a, char *err, size_t errlen)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ret = ss_optable_parse(options, SS_NR_OPTIONS(options), 0, argc, argv, take_option, a, err,
			       errlen);
	if (ret)
		return ret;
	if (optind != argc - 1) {
		ss_errf(err, errlen, "name one trace file");
		return -EINVAL;
	}
	a->file = argv[optind];
	return 0;
}
