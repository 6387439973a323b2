// SPDX-License-Identifier: GPL-2.0-or-later
/* The subcommand table's contract: each command parses its own argv (argv[0] = its name) and
 * returns the process exit status: 0 success, 1 runtime failure, 2 misuse.  commands.c holds
 * the one table of subcommands, main.c dispatches through it. */
#ifndef SS_COMMANDS_H
#define SS_COMMANDS_H

#include <stddef.h>

#include "optable.h"
#include "render_commands.h"

struct ss_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
	const struct ss_help *help;   /* its --help: also the source of its man page's OPTIONS */
};

int ss_cmd_record(int argc, char **argv);    /* collector/cli/cmd_record.c */
int ss_cmd_mkarchive(int argc, char **argv); /* collector/cli/cmd_mkarchive.c */
int ss_cmd_list(int argc, char **argv);      /* collector/cli/cmd_list.c */

/* The table, in the order `seekscope --help` lists it. */
extern const struct ss_command ss_commands[];
extern const size_t ss_nr_commands;

/* The command called NAME, or NULL. */
const struct ss_command *ss_command_find(const char *name);

/*
 * seekscope's own options (--help, --version) and its --help into *H, the COMMANDS section
 * made from the table into DESC[0..LEN) (2 KiB is plenty).
 */
void ss_top_help(struct ss_help *h, char *desc, size_t len);

#endif
