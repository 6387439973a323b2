// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Options that several render commands share (plot, movie, report): one table entry and one value
 * parser each, so that the letter, argument, unit, range and message are the same in every
 * command (docs/options.md).  The options all commands share are in optable.h.
 */
#ifndef SS_RENDER_ARGS_H
#define SS_RENDER_ARGS_H

#include <stdint.h>

#include "optable.h"
#include "seek.h"

#define SS_OPTION_SEEK_THRESHOLD                                                              \
	{ "seek-threshold", 't', "SECTORS",                                                   \
	  "an I/O starting further than this from where the\n"                                \
	  "previous one ended is a seek (default 128 = 64K;\n"                                \
	  "or bytes with K, M, G, T; 0 to 2^40 sectors)" }

/* -l LABEL of the commands that draw traces side by side (plot, movie). */
#define SS_OPTION_LABEL                                                                       \
	{ "label", 'l', "LABEL", "name of the next trace's column; once per TRACE\n"         \
				 "(default: the file name)" }

/* --processes N of the commands that count by process (report, plot): one range, one parser. */
#define SS_OPTION_PROCESSES                                                                   \
	{ "processes", SS_OPT_PROCESSES, "N",                                                 \
	  "the N processes with most requests get a place of\n"                              \
	  "their own, the rest are summed as \"other\": report's\n"                         \
	  "text rows (default 12), plot --color-by's colours\n"                             \
	  "(default 8; 10 colours at most; plot --groups); 0: all" }
#define SS_OPT_PROCESSES (SS_OPT_LONG_ONLY + 100)   /* its id in every table */
#define SS_PROCESSES_MAX 1000000
#define SS_PROCESSES_HINT "a number of processes, 0 (all) to 1000000"

/* What --seek-threshold's misuse message says it wants. */
#define SS_SEEK_THRESHOLD_HINT "sectors or bytes like 64K, 0 to 2^40 sectors"

/* --seek-threshold SECTORS: ss_optarg_sectors(), 0..SS_SEEK_THRESHOLD_MAX.  0 or -EINVAL
 * (*SECTORS untouched). */
int ss_parse_seek_threshold(const char *s, uint64_t *sectors);
/* --processes N: 0..SS_PROCESSES_MAX, 0 meaning all.  0 or -EINVAL (*N untouched). */
int ss_parse_processes(const char *s, unsigned *n);
/* The same for a picture's colours (--groups, plot's --processes): 0 and more than there are
 * colours mean SS_GROUPS_MAX. */
int ss_parse_groups(const char *s, unsigned *n);

#endif
