// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line of `seekscope convert`, parsed without opening anything, and the parser of
 * --fs-dev's MAJ:MIN, so that tests and the fuzzer can call them directly.  Nothing here prints
 * or exits.
 */
#ifndef SS_CONVERT_ARGS_H
#define SS_CONVERT_ARGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "optable.h"

/* What convert writes (--to). */
enum ss_convert_to { SS_CONVERT_TRACE, SS_CONVERT_FIO };

struct ss_convert_args {
	const char *in;            /* the one IN operand, into argv */
	const char *out;           /* -o */
	const char *fs;            /* --fs DEV, or NULL */
	uint32_t fs_dev;           /* --fs-dev, kernel encoding (SS_MKDEV) */
	bool fs_dev_given, fs_offset_given;
	bool quiet;                /* -q: no warnings */
	uint64_t fs_offset;        /* --fs-offset, sectors */
	enum ss_convert_to to;     /* --to seekscope (default) or fio */
};

/*
 * Parse convert's ARGV (argv[0] = "convert") into *A (reset first).  Returns 0, SS_PARSE_HELP
 * for --help, or -EINVAL with the reason in ERR.
 */
int ss_convert_parse(int argc, char **argv, struct ss_convert_args *a, char *err,
		     size_t errlen);

/* --help (ss_help_print()). */
extern const struct ss_help ss_convert_help;

/* --fs-dev MAJ:MIN (or MAJ,MIN), decimal, major < 4096, minor < 2^20, into the kernel
 * encoding; 0 or -EINVAL (*DEV untouched). */
int ss_convert_parse_dev(const char *s, uint32_t *dev);

#endif
