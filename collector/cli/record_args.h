// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line of `seekscope record`, parsed without running anything: options into a
 * struct, the workload COMMAND located in argv.  Separate from cmd_record.c so that tests and
 * the fuzzer can parse argv vectors without starting a capture or a workload.  Nothing here
 * prints or exits.
 */
#ifndef SS_RECORD_ARGS_H
#define SS_RECORD_ARGS_H

#include <stddef.h>
#include <stdio.h>

#include "optable.h"
#include "untar.h"

#define SS_RECORD_DEFAULT_OUTPUT "seekscope.sst"
#define SS_RECORD_DEFAULT_BUFFER_KB 8192
#define SS_RECORD_MIN_BUFFER_KB 4
#define SS_RECORD_MAX_BUFFER_KB 4194304   /* 4 GiB */
#define SS_RECORD_MAX_DEVS 32
#define SS_RECORD_DEFAULT_LINGER_S 2
#define SS_RECORD_MAX_LINGER_S 3600

struct ss_record_opts {
	const char *output;                    /* points into argv, or the default */
	const char *devs[SS_RECORD_MAX_DEVS];  /* into argv (or untar.dest) */
	size_t nr_devs;                        /* 1..SS_RECORD_MAX_DEVS after a parse */
	size_t buffer_kb;
	unsigned extra;                        /* SS_CAP_INSERT | SS_CAP_QUEUE */
	int quiet;
	int no_zones;
	int no_work;               /* --no-work-names */
	int all_work;              /* --all-work-names */
	int no_map;                /* --no-map: --untar without the file map */
	const char *map_dir;       /* --map DIR: map DIR when COMMAND ends */
	int host_disk;             /* --host-disk: -d IMAGE without a loop device traces its disk */
	double linger_s;         /* --linger: wait for in-flight requests after the workload */
	char **command;          /* NULL-terminated argv of the workload (into argv), or NULL */
	const char *user;        /* --user: the workload's user (into argv), or NULL */
	struct ss_untar_opts untar;   /* .archive set: the extraction workload */
};

/*
 * Parse record's ARGV (argv[0] = "record") into *O (reset first).  Options stop at the first
 * operand, which starts the workload COMMAND, so that the workload's own options are left
 * alone ("record -d DEV dd -o x" and "record -d DEV -- dd ..." both run dd unchanged).
 * Returns 0, SS_PARSE_HELP for --help, or -EINVAL with the reason in ERR.
 */
int ss_record_parse(int argc, char **argv, struct ss_record_opts *o, char *err, size_t errlen);

/* --help (ss_help_print()). */
extern const struct ss_help ss_record_help;

/* The value parsers behind the options; 0 or -EINVAL (the output untouched). */
/* -b: KiB per CPU, SS_RECORD_MIN_BUFFER_KB..SS_RECORD_MAX_BUFFER_KB. */
int ss_record_parse_buffer_kb(const char *s, size_t *kb);
/* -e: comma-separated "insert", "queue"; ORs SS_CAP_* bits into *mask. */
int ss_record_parse_events(const char *s, unsigned *mask);
/* --linger: seconds (a decimal fraction allowed), 0..SS_RECORD_MAX_LINGER_S. */
int ss_record_parse_linger(const char *s, double *seconds);
/* --repeat: 1..SS_UNTAR_MAX_REPEAT. */
int ss_record_parse_repeat(const char *s, unsigned *repeat);

#endif
