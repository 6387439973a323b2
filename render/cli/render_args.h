// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Options that several render commands share (plot, report): one table entry and one value
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

/* What --seek-threshold's misuse message says it wants. */
#define SS_SEEK_THRESHOLD_HINT "sectors or bytes like 64K, 0 to 2^40 sectors"

/* --seek-threshold SECTORS: ss_optarg_sectors(), 0..SS_SEEK_THRESHOLD_MAX.  0 or -EINVAL
 * (*SECTORS untouched). */
int ss_parse_seek_threshold(const char *s, uint64_t *sectors);

#endif
