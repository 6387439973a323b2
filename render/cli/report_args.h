// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line of `seekscope report`, parsed without opening a trace: options into a
 * struct, the FILE operands located in argv.  Separate from cmd_report.c so that tests and the
 * fuzzer can parse argv vectors without reading files.  Nothing here prints or exits.
 */
#ifndef SS_REPORT_ARGS_H
#define SS_REPORT_ARGS_H

#include <stddef.h>

#include "optable.h"
#include "report_fmt.h"

struct ss_report_args {
	struct report_opts ro;     /* --json, --all-zones, --seek-threshold */
	char **files;              /* the FILE operands, into argv */
	int nr_files;              /* >= 1 after a parse */
};

/*
 * Parse report's ARGV (argv[0] = "report") into *A (reset first, the seek threshold at its
 * default).  Returns 0, SS_PARSE_HELP for --help, or -EINVAL with the reason in ERR.
 */
int ss_report_parse(int argc, char **argv, struct ss_report_args *a, char *err, size_t errlen);

/* --help (ss_help_print()). */
extern const struct ss_help ss_report_help;

#endif
