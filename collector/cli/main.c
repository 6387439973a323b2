// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope: the command-line entry point.  Dispatches to one function per subcommand; each
 * lives in its own cmd_*.c file (collector/cli/cmd_record.c, render/cli/cmd_plot.c, ...).
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "seekscope/version.h"

static const struct ss_command commands[] = {
	{ "record", "capture block I/O of a workload into a trace file", ss_cmd_record },
	{ "report", "summarise trace files as text or JSON", ss_cmd_report },
	{ "plot", "draw traces as PNG/SVG/PDF: sector over time, seeks/s, MB/s, ...", ss_cmd_plot },
	{ "dump", "print a trace file as text, one event per line", ss_cmd_dump },
	{ "convert", "write a seekscope trace from blktrace or trace-cmd files", ss_cmd_convert },
	{ "mkarchive", "write a deterministic source-tree-like archive to extract", ss_cmd_mkarchive },
};

static void usage(FILE *f)
{
	fprintf(f, "USAGE: seekscope COMMAND [OPTIONS]\n\nCommands:\n");
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'seekscope COMMAND --help' describes each command.\n"
		   "\nEXAMPLES:\n"
		   "  seekscope record -o untar.sst -d /mnt/test -- tar xf linux.tar -C /mnt/test\n"
		   "  seekscope report untar.sst\n"
		   "  seekscope plot untar.sst -o untar.png\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("seekscope %s\n", SS_VERSION);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name))
			return commands[i].run(argc - 1, argv + 1);
	fprintf(stderr, "seekscope: unknown command '%s' (see 'seekscope --help')\n", argv[1]);
	return 2;
}
