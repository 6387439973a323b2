// SPDX-License-Identifier: GPL-2.0-or-later
/* The subcommand table's contract: each command parses its own argv (argv[0] = its name) and
 * returns the process exit status: 0 success, 1 runtime failure, 2 misuse.  main.c holds the
 * one table of subcommands. */
#ifndef SS_COMMANDS_H
#define SS_COMMANDS_H

#include "render_commands.h"

struct ss_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int ss_cmd_record(int argc, char **argv);    /* collector/cli/cmd_record.c */
int ss_cmd_mkarchive(int argc, char **argv); /* collector/cli/cmd_mkarchive.c */

#endif
