// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope: the command-line entry point.  Dispatches through the table of subcommands
 * (commands.c); each lives in its own cmd_*.c file (collector/cli/cmd_record.c,
 * render/cli/cmd_plot.c, ...) and parses its own command line (<cmd>_args.c).  Without a
 * subcommand, the options of seekscope itself: --help (the table's summaries) and --version;
 * `seekscope help CMD` is `seekscope CMD --help`.
 */
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "optable.h"

static int help(void)
{
	struct ss_help h;
	char desc[2048];

	ss_top_help(&h, desc, sizeof(desc));
	return ss_optable_exit(SS_PARSE_HELP, NULL, &h, NULL);
}

/* seekscope help [COMMAND] */
static int help_command(int argc, char **argv)
{
	const struct ss_command *cmd;
	char *help_argv[] = { argv[1], "--help", NULL };

	if (argc < 2)
		return help();
	if (argc > 2)
		return ss_optable_misuse(NULL, "help takes one COMMAND");
	if (!(cmd = ss_command_find(argv[1])))
		return ss_optable_misuse(NULL, "unknown command '%s'", argv[1]);
	return cmd->run(2, help_argv);
}

/* ss_optable_parse's TAKE for seekscope's own options: there are none but --help, --version. */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	(void)ctx, (void)arg;
	return ss_optable_unhandled(c, err, errlen);
}

int main(int argc, char **argv)
{
	const struct ss_command *cmd;
	struct ss_help h;
	char err[160], desc[2048];
	int ret;

	if (argc >= 2 && (cmd = ss_command_find(argv[1])))
		return cmd->run(argc - 1, argv + 1);
	ss_top_help(&h, desc, sizeof(desc));
	ret = ss_optable_parse(h.opts, h.nr_opts, SS_OPTABLE_STOP_AT_OPERAND, argc, argv,
			       take_option, NULL, err, sizeof(err));
	if (ret)
		return ss_optable_exit(ret, NULL, &h, err);
	if (optind < argc && !strcmp(argv[optind], "help"))
		return help_command(argc - optind, argv + optind);
	if (optind < argc && !strcmp(argv[optind], "version"))
		return ss_optable_exit(SS_PARSE_VERSION, NULL, &h, NULL);
	if (optind >= argc)
		return ss_optable_misuse(NULL, "no command given");
	return ss_optable_misuse(NULL, "unknown command '%s'", argv[optind]);
}
