// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --device DEV, the same for plot, report and dump: the option's help line, and the lookup of
 * the device a trace knows by that name (ss_trace_find_device) with the one misuse message
 * when it has none.
 */
#ifndef SS_DEVICE_ARG_H
#define SS_DEVICE_ARG_H

#include <stdint.h>
#include "trace_read.h"

/* The option table entry (-d, as record's --device: one letter per long name), with HELP:
 * SS_DEVICE_ARG_HELP and what the command adds. */
#define SS_OPTION_DEVICE(help) { "device", 'd', "DEV", help }

#define SS_DEVICE_ARG_HELP \
	"only the I/O of device DEV (of a trace with several):\n" \
	"its kernel name (loop0, sda), MAJ:MIN, or the path it\n" \
	"was recorded as"

/* The device of T that SPEC names into *DEV: 0, or 2 after printing "PROG: FILE has no
 * device "SPEC" (its devices: ...)" on stderr (a misuse of that trace, as --align's). */
int ss_device_arg_pick(const char *prog, const struct ss_trace *t, const char *spec,
		       uint32_t *dev);

#endif
