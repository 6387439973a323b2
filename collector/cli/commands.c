// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one table of subcommands (name, summary, entry point, --help) and seekscope's own
 * --help made from it.  main.c dispatches through it; the vocabulary test and the man-page
 * check (tests/unit/test_cli_vocab.c) read every command's option table through it.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "convert_args.h"
#include "dump_args.h"
#include "list_args.h"
#include "mkarchive_args.h"
#include "movie_args.h"
#include "plot_args.h"
#include "record_args.h"
#include "report_args.h"

const struct ss_command ss_commands[] = {
	{ "record", "capture block I/O of a workload into a trace file", ss_cmd_record,
	  &ss_record_help },
	{ "report", "summarise trace files as text or JSON", ss_cmd_report, &ss_report_help },
	{ "plot", "draw traces as PNG/SVG/PDF: sector over time, seeks/s, MB/s, ...", ss_cmd_plot,
	  &ss_plot_help },
	{ "movie", "film traces as MP4/WebM/MKV: cells, platter or plot, as the I/O came",
	  ss_cmd_movie, &ss_movie_help },
	{ "dump", "print a trace file as text, one event per line", ss_cmd_dump, &ss_dump_help },
	{ "convert", "write a seekscope trace from blktrace or trace-cmd files", ss_cmd_convert,
	  &ss_convert_help },
	{ "mkarchive", "write a deterministic source-tree-like archive to extract",
	  ss_cmd_mkarchive, &ss_mkarchive_help },
	{ "list", "list the block devices record -d can trace, and whether it can here",
	  ss_cmd_list, &ss_list_help },
};

const size_t ss_nr_commands = sizeof(ss_commands) / sizeof(ss_commands[0]);

static const struct ss_option top_options[] = {
	SS_OPTION_HELP,
	SS_OPTION_VERSION,
};

const struct ss_command *ss_command_find(const char *name)
{
	for (size_t i = 0; i < ss_nr_commands; i++)
		if (!strcmp(name, ss_commands[i].name))
			return &ss_commands[i];
	return NULL;
}

void ss_top_help(struct ss_help *h, char *desc, size_t len)
{
	size_t n = (size_t)snprintf(desc, len, "COMMANDS:\n");

	for (size_t i = 0; i < ss_nr_commands && n < len; i++)
		n += (size_t)snprintf(desc + n, len - n, "  %-10s %s\n", ss_commands[i].name,
				      ss_commands[i].summary);
	if (n < len)
		snprintf(desc + n, len - n, "\n'seekscope help COMMAND' or 'seekscope COMMAND --help' "
			 "describes each command;\n'man seekscope-COMMAND' in more detail.");
	*h = (struct ss_help){
		.usage = "seekscope COMMAND [OPTIONS]\n"
			 "       seekscope help [COMMAND]",
		.description = desc,
		.opts = top_options,
		.nr_opts = SS_NR_OPTIONS(top_options),
		.sections =
			"EXIT STATUS:\n"
			"  0 success, 1 runtime failure, 2 usage error; record exits with its\n"
			"  workload's status.",
		.examples =
			"  seekscope record -o untar.sst -d /mnt/test -- tar xf linux.tar -C /mnt/test\n"
			"  seekscope report untar.sst\n"
			"  seekscope plot untar.sst -o untar.png\n"
			"  seekscope help plot",
	};
}
