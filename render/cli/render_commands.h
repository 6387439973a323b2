// SPDX-License-Identifier: GPL-2.0-or-later
/* The render half's subcommands, for the table in collector/cli/main.c.  Each parses its own
 * argv (argv[0] = its name) and returns the process exit status: 0 success, 1 runtime
 * failure, 2 misuse. */
#ifndef SS_RENDER_COMMANDS_H
#define SS_RENDER_COMMANDS_H

int ss_cmd_report(int argc, char **argv);   /* render/cli/cmd_report.c */
int ss_cmd_dump(int argc, char **argv);     /* render/cli/cmd_dump.c */
int ss_cmd_convert(int argc, char **argv);  /* render/cli/cmd_convert.c */
int ss_cmd_plot(int argc, char **argv);     /* render/cli/cmd_plot.c */
int ss_cmd_movie(int argc, char **argv);    /* render/cli/cmd_movie.c */

#endif
