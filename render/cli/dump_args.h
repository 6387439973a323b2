// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line of `seekscope dump`, parsed without opening the trace, so that tests and the
 * fuzzer can parse argv vectors without reading files.  Nothing here prints or exits.
 */
#ifndef SS_DUMP_ARGS_H
#define SS_DUMP_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "optable.h"
#include "taskfilter.h"

struct ss_dump_args {
	bool no_events;            /* --no-events: metadata only */
	bool absolute;             /* --absolute: TIME in the trace clock's nanoseconds */
	const char *device;        /* --device: only this device's events */
	bool json;                 /* --json: one JSON object per event */
	bool filemap;              /* --filemap: the file map's entries instead of the events */
	struct ss_task_spec only;  /* --pid, --comm: events of these processes only */
	bool quiet;                /* -q: no warnings */
	const char *file;          /* the one FILE operand, into argv */
};

/*
 * Parse dump's ARGV (argv[0] = "dump") into *A (reset first).  Returns 0, SS_PARSE_HELP for
 * --help, or -EINVAL with the reason in ERR.
 */
int ss_dump_parse(int argc, char **argv, struct ss_dump_args *a, char *err, size_t errlen);

/* --help (ss_help_print()). */
extern const struct ss_help ss_dump_help;

#endif
