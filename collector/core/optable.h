// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One option table per command.  Each option is described once (long name, short letter,
 * argument name, help text); from that table come getopt_long()'s arrays, the OPTIONS section
 * of --help and the wording of the common misuse messages, so that options, help and errors
 * cannot drift apart and read the same in every command.
 *
 *   static const struct ss_option options[] = {
 *       { "output", 'o', "FILE", "trace file to write" },
 *       { "no-zones", OPT_NO_ZONES, NULL, "do not read filesystem zones" },
 *       { "help", 'h', NULL, "show this help" },
 *   };
 *   struct ss_optable t;
 *   ss_optable_init(&t, options, SS_NR_OPTIONS(options), 0);
 *   while ((c = ss_optable_next(&t, argc, argv)) != -1)
 *       switch (c) { ... default: ss_optable_error(&t, c, argv, err, errlen); ... }
 *
 * or, for a parser that must not print (every command's <cmd>_args.c), the same loop as one call
 * that hands each option to a function: ss_optable_parse().  ss_help_print() prints a command's
 * whole --help in the one layout all commands share, its OPTIONS lines (ss_optable_help()) from
 * the same table.  (The commands' tests in tests/unit/test_cli_args*.c run both forms.)
 *
 * The --help convention of every command: help on stdout, exit 0; misuse one line on stderr
 * naming the problem and pointing at --help, exit 2 (ss_optable_misuse(), ss_optable_exit());
 * a runtime failure exits 1.
 *
 * Nothing here prints but ss_optable_help() and ss_help_print() (to the FILE they are handed)
 * and ss_optable_misuse() / ss_optable_exit(), which are for the commands themselves.  getopt's
 * own globals (optind, optarg) are the only state outside the struct; the first
 * ss_optable_next() of a parse resets them.
 */
#ifndef SS_OPTABLE_H
#define SS_OPTABLE_H

#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define SS_OPT_LONG_ONLY 256     /* first value for options without a short letter */
#define SS_OPTABLE_MAX 32        /* options in one table */
#define SS_NR_OPTIONS(a) (sizeof(a) / sizeof((a)[0]))

/* What parse functions built on a table (ss_record_parse, ss_plot_parse, ...) return for --help
 * and for --version. */
#define SS_PARSE_HELP 1
#define SS_PARSE_VERSION 2

/*
 * The option vocabulary (docs/options.md): an option that means the same in several commands is
 * written once here, so that its long name, letter and argument are the same everywhere.  Every
 * table ends in SS_OPTION_HELP and SS_OPTION_VERSION; tests/unit/test_cli_vocab.c checks that a
 * long name has one letter and one argument name in every table, and a letter one long name.
 */
#define SS_OPTION_HELP { "help", 'h', NULL, "show this help and exit" }
#define SS_OPTION_VERSION { "version", 'V', NULL, "print the version and exit" }
#define SS_OPTION_QUIET { "quiet", 'q', NULL, "print nothing but errors" }
/* HELP says what the command writes. */
#define SS_OPTION_OUTPUT(help) { "output", 'o', "FILE", help }

struct ss_option {
	const char *name;        /* long name, without "--" */
	int val;                 /* short letter, or >= SS_OPT_LONG_ONLY for a long-only option */
	const char *arg;         /* argument name shown in --help; NULL: takes no argument */
	const char *help;        /* '\n' starts a continuation line, indented under the first */
	/* Optional: the help made when it is printed (e.g. from a registry); overrides help. */
	void (*help_fn)(char *buf, size_t len);
};

/* Flags of ss_optable_init(). */
#define SS_OPTABLE_STOP_AT_OPERAND 1u   /* '+': stop at the first operand (record's COMMAND) */

/* The getopt arrays built from one table, and the state of one parse.  Fill with
 * ss_optable_init(); the table is borrowed and must outlive it. */
struct ss_optable {
	const struct ss_option *opts;
	size_t nr;
	struct option longopts[SS_OPTABLE_MAX + 1];
	char shortopts[2 + 2 * SS_OPTABLE_MAX + 1];   /* "+:" + "x:" per option + NUL */
	int started;
};

/*
 * Build the getopt_long() arrays for OPTS[0..NR).  0, or -EINVAL for a table getopt cannot
 * express: more than SS_OPTABLE_MAX options, a missing name, a short letter that is not a
 * printable character other than ':', '?', '-', '+' and ';', or a value used twice.
 */
int ss_optable_init(struct ss_optable *t, const struct ss_option *opts, size_t nr,
		    unsigned flags);

/*
 * getopt_long() on the table: the next option's value, ':' for an option missing its argument,
 * '?' for an unknown option (or an argument given to one that takes none), -1 at the end;
 * optarg and optind as getopt leaves them.  The first call of a parse resets getopt with
 * optind = 0, which also forgets glibc's position inside a cluster like -ab that an earlier
 * parse left behind (optind = 1 does not).  getopt never prints (opterr = 0).
 */
int ss_optable_next(struct ss_optable *t, int argc, char **argv);

/*
 * The message for C = ':' or '?' just returned by ss_optable_next(), into ERR:
 * "option '--x' needs an argument", "unknown option '-q'", "option '--json' takes no
 * argument".  Options are named as they were written (long or short).  Returns -EINVAL.
 */
int ss_optable_error(const struct ss_optable *t, int c, char **argv, char *err, size_t errlen);

/*
 * The OPTIONS lines of --help: "  -o, --output FILE   help", long-only options as
 * "      --no-zones", help texts in one column after the widest option, continuation lines
 * indented under the first.
 */
void ss_optable_help(FILE *f, const struct ss_option *opts, size_t nr);

/*
 * A command's --help, in the layout every command shares (ss_help_print()):
 *
 *   USAGE: <usage>
 *
 *   <description>
 *
 *   OPTIONS:
 *   <the option table, as ss_optable_help() prints it>
 *
 *   <sections>                 (optional: e.g. "EXIT STATUS:\n  0 written, ...")
 *
 *   EXAMPLES:
 *   <examples>
 *
 * Texts end without a newline; headings are upper case with a colon, their lines indented by
 * two spaces; continuation lines of USAGE are indented under the first.
 */
struct ss_help {
	const char *usage;
	const char *description;
	const struct ss_option *opts;
	size_t nr_opts;
	const char *sections;    /* NULL: none */
	const char *examples;
};

/* HELP to F. */
void ss_help_print(FILE *f, const struct ss_help *help);

/*
 * A whole number for an option argument: decimal digits only (BASE 10), or also 0x hex and
 * 0 octal (BASE 0); no sign, no blanks.  0, -EINVAL when S is not such a number, -ERANGE when
 * it is outside MIN..MAX.
 */
int ss_optarg_uint(const char *s, int base, uint64_t min, uint64_t max, uint64_t *out);

/* The same into an unsigned int (MAX at most UINT_MAX). */
int ss_optarg_unsigned(const char *s, unsigned min, unsigned max, unsigned *out);

/* A decimal whole number in the first LEN bytes of S (digits only), MIN..MAX: 0, -EINVAL or
 * -ERANGE as ss_optarg_uint().  For a part of an argument, like W in --size WxH. */
int ss_optarg_uint_len(const char *s, size_t len, uint64_t min, uint64_t max, uint64_t *out);

/*
 * A device offset or distance for an option argument, in 512-byte sectors: a sector count, or
 * bytes with a binary suffix K, M, G or T (also KB, KiB, ..., any case; a fraction like 1.5G
 * with up to SS_OPTARG_MAX_FRACTION_DIGITS digits, rounded to the nearest sector) — the one
 * unit of every sector-valued option (--seek-threshold, --y-range, --fs-offset).  The first LEN
 * bytes of S.  0, -EINVAL when they are not such a number, -ERANGE when it is above MAX.
 */
#define SS_OPTARG_MAX_FRACTION_DIGITS 9
int ss_optarg_sectors(const char *s, size_t len, uint64_t max, uint64_t *sectors);

/*
 * A whole parse with the table, for parsers that print nothing: resets getopt, hands every
 * option to TAKE(CTX, value, optarg, ERR, ERRLEN) and stops at the first non-zero return of
 * TAKE (e.g. -EINVAL with the reason in ERR), which it returns.  The --help option
 * (SS_OPTION_HELP) is not handed on: it stops the parse with SS_PARSE_HELP, and --version
 * (SS_OPTION_VERSION) with SS_PARSE_VERSION.  ':' and '?'
 * become -EINVAL with ss_optable_error()'s message.  0 at the end of the options; optind is
 * then the first operand.
 */
int ss_optable_parse(const struct ss_option *opts, size_t nr, unsigned flags, int argc,
		     char **argv, int (*take)(void *ctx, int c, const char *arg, char *err,
					       size_t errlen),
		     void *ctx, char *err, size_t errlen);

/* For TAKE's default case, an option of the table it does not know: -EINVAL, "internal
 * error: ..." in ERR. */
int ss_optable_unhandled(int c, char *err, size_t errlen);

/*
 * For the commands (CLI code): print the one misuse line
 * "seekscope CMD: MESSAGE (see 'seekscope CMD --help')" to stderr (CMD NULL: "seekscope:
 * MESSAGE (see 'seekscope --help')"); returns 2, the misuse exit status.
 */
int ss_optable_misuse(const char *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * For the commands: the exit status after a parse returned RET != 0.  SS_PARSE_HELP: HELP on
 * stdout, 0; SS_PARSE_VERSION: "seekscope VERSION" on stdout, 0 (either 1 with a message on
 * stderr if stdout cannot be written); else the misuse line with ERR, 2.
 */
int ss_optable_exit(int ret, const char *cmd, const struct ss_help *help, const char *err);

#endif
