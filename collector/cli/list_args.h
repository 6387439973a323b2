// SPDX-License-Identifier: GPL-2.0-or-later
/* The command line of `seekscope list`, parsed without looking at any device.  Prints nothing. */
#ifndef SS_LIST_ARGS_H
#define SS_LIST_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "optable.h"

struct ss_list_args {
	bool json;                 /* -j: one JSON object instead of the table */
};

/* Parse list's ARGV (argv[0] = "list") into *A.  0, SS_PARSE_HELP, SS_PARSE_VERSION or
 * -EINVAL with the reason in ERR. */
int ss_list_parse(int argc, char **argv, struct ss_list_args *a, char *err, size_t errlen);

/* --help (ss_help_print()). */
extern const struct ss_help ss_list_help;

#endif
