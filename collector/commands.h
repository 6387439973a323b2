/* The subcommand table's contract: each command parses its own argv (argv[0] = its name) and
 * returns the process exit status: 0 success, 1 runtime failure, 2 misuse. */
#ifndef SS_COMMANDS_H
#define SS_COMMANDS_H

struct ss_command {
	const char *name;
	const char *summary;
	int (*run)(int argc, char **argv);
};

int ss_cmd_record(int argc, char **argv);   /* collector/cmd_record.c */
int ss_cmd_report(int argc, char **argv);   /* render/cmd_report.c */
int ss_cmd_dump(int argc, char **argv);     /* render/cmd_dump.c */
int ss_cmd_convert(int argc, char **argv);  /* render/cmd_convert.c */
int ss_cmd_mkarchive(int argc, char **argv); /* collector/cmd_mkarchive.c */
int ss_cmd_plot(int argc, char **argv);     /* render/cmd_plot.c */

#endif
