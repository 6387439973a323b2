// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line of `seekscope mkarchive`, parsed without writing anything: options into the
 * generator's struct ss_gentree_opts, and the parsers of the option values, so that tests and
 * the fuzzer can call them directly.  Nothing here prints or exits.
 */
#ifndef SS_MKARCHIVE_ARGS_H
#define SS_MKARCHIVE_ARGS_H

#include <stdbool.h>
#include <stddef.h>

#include "gentree.h"
#include "optable.h"

struct ss_mkarchive_args {
	struct ss_gentree_opts g;
	bool quiet;                /* -q: no summary line, no progress */
};

/*
 * Parse mkarchive's ARGV (argv[0] = "mkarchive") into *A (reset first; seed 1, the rest 0 for
 * the generator's defaults).  Returns 0, SS_PARSE_HELP for --help, SS_PARSE_VERSION for
 * --version, or -EINVAL with the reason in ERR.  What only the generator knows (the archive
 * type a name asks for) it checks itself.
 */
int ss_mkarchive_parse(int argc, char **argv, struct ss_mkarchive_args *a, char *err,
		       size_t errlen);

/* --help (ss_help_print()). */
extern const struct ss_help ss_mkarchive_help;

/* The value parsers; 0 or -EINVAL (the output untouched on error). */
/* --files / --dirs: a decimal whole number, 1..MAX. */
int ss_mkarchive_parse_count(const char *s, unsigned max, unsigned *n);
/* --scale: a number in (0, SS_GENTREE_MAX_SCALE]. */
int ss_mkarchive_parse_scale(const char *s, double *scale);

#endif
