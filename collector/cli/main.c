// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope: the command-line entry point.  Dispatches to one function per subcommand; each
 * lives in its own cmd_*.c file (collector/cli/cmd_record.c, render/cli/cmd_plot.c, ...) and
 * parses its own command line (<cmd>_args.c).  Without a subcommand, the options of seekscope
 * itself: --help (the command table's summaries) and --version.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "optable.h"
#include "seekscope/version.h"

static const struct ss_command commands[] = {
	{ "record", "capture block I/O of a workload into a trace file", ss_cmd_record },
	{ "report", "summarise trace files as text or JSON", ss_cmd_report },
	{ "plot", "draw traces as PNG/SVG/PDF: sector over time, seeks/s, MB/s, ...", ss_cmd_plot },
	{ "movie", "film traces as MP4/WebM/MKV: cells, platter or plot, as the I/O came", ss_cmd_movie },
	{ "dump", "print a trace file as text, one event per line", ss_cmd_dump },
	{ "convert", "write a seekscope trace from blktrace or trace-cmd files", ss_cmd_convert },
	{ "mkarchive", "write a deterministic source-tree-like archive to extract", ss_cmd_mkarchive },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

enum { OPT_VERSION = SS_OPT_LONG_ONLY };
#define PARSE_VERSION (SS_PARSE_HELP + 1)

static const struct ss_option options[] = {
	SS_OPTION_HELP,
	{ "version", OPT_VERSION, NULL, "print the version and exit" },
};

static const struct ss_command *find_command(const char *name)
{
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return &commands[i];
	return NULL;
}

/* seekscope --help, its COMMANDS section from the table above. */
static int help(void)
{
	char desc[2048] = "COMMANDS:\n";
	size_t len = strlen(desc);
	struct ss_help h = {
		.usage = "seekscope COMMAND [OPTIONS]",
		.description = desc,
		.opts = options,
		.nr_opts = SS_NR_OPTIONS(options),
		.examples =
			"  seekscope record -o untar.sst -d /mnt/test -- tar xf linux.tar -C /mnt/test\n"
			"  seekscope report untar.sst\n"
			"  seekscope plot untar.sst -o untar.png",
	};

	for (size_t i = 0; i < NR_COMMANDS && len < sizeof(desc); i++)
		len += (size_t)snprintf(desc + len, sizeof(desc) - len, "  %-10s %s\n",
					commands[i].name, commands[i].summary);
	if (len < sizeof(desc))
		snprintf(desc + len, sizeof(desc) - len,
			 "\n'seekscope COMMAND --help' describes each command.");
	return ss_optable_exit(SS_PARSE_HELP, NULL, &h, NULL);
}

static int version(void)
{
	printf("seekscope %s\n", SS_VERSION);
	return 0;
}

/* ss_optable_parse's TAKE for seekscope's own options. */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	(void)ctx, (void)arg;
	return c == OPT_VERSION ? PARSE_VERSION : ss_optable_unhandled(c, err, errlen);
}

int main(int argc, char **argv)
{
	const struct ss_command *cmd;
	char err[160];
	int ret;

	if (argc >= 2 && (cmd = find_command(argv[1])))
		return cmd->run(argc - 1, argv + 1);
	ret = ss_optable_parse(options, SS_NR_OPTIONS(options), SS_OPTABLE_STOP_AT_OPERAND, argc,
			       argv, take_option, NULL, err, sizeof(err));
	if (ret == SS_PARSE_HELP || (!ret && optind < argc && !strcmp(argv[optind], "help")))
		return help();
	if (ret == PARSE_VERSION || (!ret && optind < argc && !strcmp(argv[optind], "version")))
		return version();
	if (ret)
		return ss_optable_misuse(NULL, "%s", err);
	if (optind >= argc)
		return ss_optable_misuse(NULL, "no command given");
	return ss_optable_misuse(NULL, "unknown command '%s'", argv[optind]);
}
