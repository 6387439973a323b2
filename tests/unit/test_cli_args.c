// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command-line layer without running a command: the option table module (getopt arrays,
 * --help lines, misuse messages, getopt reset, whole-number arguments), record's and plot's
 * parsers on argv vectors (record's options stop at the workload COMMAND) and plot's value
 * parsers (ranges, offsets with K/M/G/T, sizes, thresholds) at their boundaries.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argv.h"
#include "tap.h"
#include "optable.h"
#include "panel_registry.h"
#include "plot_args.h"
#include "record_args.h"
#include "render_args.h"
#include "tracecap.h"

static char err[256];

/* ---- the option table ------------------------------------------------------------------- */

enum { OPT_NO_ZONES = SS_OPT_LONG_ONLY, OPT_OFFSET };

static const struct ss_option table[] = {
	{ "output", 'o', "FILE", "where to write" },
	{ "quiet", 'q', NULL, "say less\nand then some" },
	{ "no-zones", OPT_NO_ZONES, NULL, "no zones" },
	{ "offset", OPT_OFFSET, "N", "where to start" },
	{ "help", 'h', NULL, "this text" },
};

/* Parse V with TABLE; the values returned, as letters ('L' for long-only ones), into OUT,
 * and the message of the first error into err. */
static void parse_table(char **v, unsigned flags, char *out, size_t len)
{
	struct ss_optable t;
	size_t n = 0;
	int c;

	err[0] = 0;
	if (ss_optable_init(&t, table, SS_NR_OPTIONS(table), flags)) {
		snprintf(out, len, "init failed");
		return;
	}
	while ((c = ss_optable_next(&t, argc_of(v), v)) != -1 && n + 1 < len) {
		out[n++] = (char)(c >= SS_OPT_LONG_ONLY ? 'L' : c);
		if ((c == ':' || c == '?') && !err[0])
			ss_optable_error(&t, c, v, err, sizeof(err));
	}
	out[n] = 0;
}

#define PARSE(out, ...) parse_table((char *[]){ "cmd", __VA_ARGS__, NULL }, 0, out, sizeof(out))

static void test_optable_init(void)
{
	struct ss_option big[SS_OPTABLE_MAX + 1];
	struct ss_option bad[2] = { { "a", 'a', NULL, "" }, { "b", 'a', NULL, "" } };
	struct ss_optable t;

	is_int(ss_optable_init(&t, table, SS_NR_OPTIONS(table), 0), 0, "table accepted");
	is_str(t.shortopts, ":o:qh", "short options: leading ':', long-only ones left out");
	ok(t.longopts[3].has_arg == required_argument && t.longopts[3].val == OPT_OFFSET &&
	   !strcmp(t.longopts[3].name, "offset") && !t.longopts[5].name, "long options, ended");
	ss_optable_init(&t, table, SS_NR_OPTIONS(table), SS_OPTABLE_STOP_AT_OPERAND);
	is_str(t.shortopts, "+:o:qh", "stop at the first operand: leading '+' before ':'");
	is_int(ss_optable_init(&t, bad, 2, 0), -EINVAL, "a value used twice is refused");
	bad[1].val = ':';
	is_int(ss_optable_init(&t, bad, 2, 0), -EINVAL, "':' as a letter is refused");
	bad[1].val = 'b';
	bad[1].name = NULL;
	is_int(ss_optable_init(&t, bad, 2, 0), -EINVAL, "an option without a name is refused");
	for (int i = 0; i <= SS_OPTABLE_MAX; i++)
		big[i] = (struct ss_option){ "x", SS_OPT_LONG_ONLY + i, NULL, "" };
	is_int(ss_optable_init(&t, big, SS_OPTABLE_MAX + 1, 0), -EINVAL,
	       "more than %d options are refused", SS_OPTABLE_MAX);
	is_int(ss_optable_init(&t, big, SS_OPTABLE_MAX, 0), 0, "%d options fit", SS_OPTABLE_MAX);
}

static void test_optable_help(void)
{
	static const struct ss_option wide[] = {
		{ "a", 'a', NULL, "short" },
		{ "a-rather-long-option-name", 'b', "ARGUMENT", "first\nsecond" },
	};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ss_optable_help(f, table, SS_NR_OPTIONS(table));
	fclose(f);
	is_str(buf,
	       "  -o, --output FILE  where to write\n"
	       "  -q, --quiet        say less\n"
	       "                     and then some\n"
	       "      --no-zones     no zones\n"
	       "      --offset N     where to start\n"
	       "  -h, --help         this text\n",
	       "help: one column, continuation lines under it, long-only options without -x");
	free(buf);
	f = open_memstream(&buf, &len);
	ss_optable_help(f, wide, SS_NR_OPTIONS(wide));
	fclose(f);
	is_str(buf,
	       "  -a, --a  short\n"
	       "  -b, --a-rather-long-option-name ARGUMENT\n"
	       "           first\n"
	       "           second\n",
	       "help: an option too wide for the column has its help on the next lines");
	free(buf);
}

static void test_optable_errors(void)
{
	char got[16];

	PARSE(got, "-q", "--no-zones", "--offset=5", "-ofile", "--out", "x", "--h");
	is_str(got, "qLLooh", "short, long-only, =value, cluster argument, abbreviations");
	PARSE(got, "--bogus");
	is_str(err, "unknown option '--bogus'", "unknown long option named");
	PARSE(got, "--bogus=1");
	is_str(err, "unknown option '--bogus'", "... without its value");
	PARSE(got, "-Z");
	is_str(err, "unknown option '-Z'", "unknown short option");
	PARSE(got, "-qZq");
	is_str(got, "q?q", "an unknown letter inside a cluster: the rest still parsed");
	is_str(err, "unknown option '-Z'", "... and the letter named");
	PARSE(got, "--quiet", "-Zq");
	is_str(err, "unknown option '-Z'", "a cluster after a long option: the letter named");
	PARSE(got, "-o");
	is_str(err, "option '-o' needs an argument", "short option without its argument");
	PARSE(got, "-qo");
	is_str(err, "option '-o' needs an argument", "... at the end of a cluster");
	PARSE(got, "x", "--out");
	is_str(err, "option '--output' needs an argument", "long option (abbreviated) without it");
	PARSE(got, "--offset");
	is_str(err, "option '--offset' needs an argument", "long-only option without it");
	PARSE(got, "--quiet=yes");
	is_str(err, "option '--quiet' takes no argument", "argument to an option without one");
	PARSE(got, "--no-zones=1");
	is_str(err, "option '--no-zones' takes no argument", "... a long-only one");
	PARSE(got, "--o", "x");
	is_str(err, "ambiguous option '--o'", "ambiguous abbreviation");
	PARSE(got, "-\xe9");
	is_str(err, "unknown option '-\\xe9'", "a non-ASCII letter is shown escaped");
}

/* The stale-cluster bug: a parse that stopped inside "-qZq" must not leave getopt pointing
 * into the previous argv when the next parse starts. */
static void test_optable_reset(void)
{
	char *first = strdup("-qZqqqq"), *v[] = { "cmd", first, NULL };
	char *second[] = { "cmd", "-o", "f", NULL };
	struct ss_optable t;

	ss_optable_init(&t, table, SS_NR_OPTIONS(table), 0);
	is_int(ss_optable_next(&t, 2, v), 'q', "first letter of a cluster");
	is_int(ss_optable_next(&t, 2, v), '?', "stopped in the middle of the cluster");
	memset(first, 'X', strlen(first));   /* what a freed argv may hold */
	free(first);
	ss_optable_init(&t, table, SS_NR_OPTIONS(table), 0);
	is_int(ss_optable_next(&t, 3, second), 'o', "a new parse starts afresh");
	is_str(optarg, "f", "... with its own argument");
	is_int(ss_optable_next(&t, 3, second), -1, "... and ends");
}

static void test_optarg_uint(void)
{
	uint64_t v = 7;
	unsigned u = 7;

	ok(ss_optarg_uint("0", 10, 0, 9, &v) == 0 && v == 0, "0");
	ok(ss_optarg_uint("18446744073709551615", 10, 0, UINT64_MAX, &v) == 0 && v == UINT64_MAX,
	   "UINT64_MAX");
	is_int(ss_optarg_uint("18446744073709551616", 10, 0, UINT64_MAX, &v), -ERANGE,
	       "UINT64_MAX + 1 overflows");
	is_int(ss_optarg_uint("10", 10, 1, 9, &v), -ERANGE, "above the maximum");
	is_int(ss_optarg_uint("0", 10, 1, 9, &v), -ERANGE, "below the minimum");
	ok(ss_optarg_uint("9", 10, 1, 9, &v) == 0 && v == 9, "the maximum itself");
	is_int(ss_optarg_uint("", 10, 0, 9, &v), -EINVAL, "empty");
	is_int(ss_optarg_uint(" 1", 10, 0, 9, &v), -EINVAL, "leading blank");
	is_int(ss_optarg_uint("+1", 10, 0, 9, &v), -EINVAL, "plus sign");
	is_int(ss_optarg_uint("-1", 10, 0, UINT64_MAX, &v), -EINVAL, "minus sign (strtoull wraps)");
	is_int(ss_optarg_uint("12x", 10, 0, 99, &v), -EINVAL, "trailing junk");
	is_int(ss_optarg_uint("0x2a", 10, 0, 99, &v), -EINVAL, "hex in base 10");
	ok(ss_optarg_uint("0x2a", 0, 0, 99, &v) == 0 && v == 42, "hex in base 0");
	is_int(ss_optarg_uint("0x", 0, 0, 99, &v), -EINVAL, "bare 0x");
	is_int(ss_optarg_uint(NULL, 10, 0, 99, &v), -EINVAL, "NULL");
	is_int(v, 42, "failures leave the value alone");
	ok(ss_optarg_unsigned("4294967295", 0, UINT32_MAX, &u) == 0 && u == UINT32_MAX,
	   "unsigned: UINT_MAX");
	is_int(ss_optarg_unsigned("4294967296", 0, UINT32_MAX, &u), -ERANGE,
	       "unsigned: UINT_MAX + 1 does not wrap");
	is_int(ss_optarg_unsigned("5", 6, 9, &u), -ERANGE, "unsigned: below the minimum");
	is_int(u, UINT32_MAX, "unsigned: failures leave the value alone");
}

/* ---- record ----------------------------------------------------------------------------- */

static struct ss_record_opts ro;

static int record(char **v)
{
	v = keep_argv(v);
	err[0] = 0;
	return ss_record_parse(argc_of(v), v, &ro, err, sizeof(err));
}

#define REC(...) record((char *[]){ "record", __VA_ARGS__, NULL })

static void test_record_values(void)
{
	size_t kb = 1;
	unsigned m = 0, r = 5;

	ok(ss_record_parse_buffer_kb("4", &kb) == 0 && kb == 4, "-b 4: the minimum");
	ok(ss_record_parse_buffer_kb("4194304", &kb) == 0 && kb == 4194304, "-b 4194304: the maximum");
	is_int(ss_record_parse_buffer_kb("3", &kb), -EINVAL, "-b 3");
	is_int(ss_record_parse_buffer_kb("4194305", &kb), -EINVAL, "-b 4194305");
	is_int(ss_record_parse_buffer_kb("99999999999999999999999", &kb), -EINVAL, "-b overflow");
	is_int(ss_record_parse_buffer_kb("nonsense", &kb), -EINVAL, "-b nonsense");
	is_int(ss_record_parse_buffer_kb("-8", &kb), -EINVAL, "-b -8");
	is_int(kb, 4194304, "... the value untouched");
	ok(ss_record_parse_events("insert", &m) == 0 && m == SS_CAP_INSERT, "-e insert");
	m = 0;
	ok(ss_record_parse_events("queue,insert", &m) == 0 && m == (SS_CAP_INSERT | SS_CAP_QUEUE),
	   "-e queue,insert");
	m = SS_CAP_QUEUE;
	ok(ss_record_parse_events("insert", &m) == 0 && m == (SS_CAP_INSERT | SS_CAP_QUEUE),
	   "-e adds to what earlier -e gave");
	m = 0;
	is_int(ss_record_parse_events("", &m), -EINVAL, "-e ''");
	is_int(ss_record_parse_events("insert,", &m), -EINVAL, "-e insert, (empty item)");
	is_int(ss_record_parse_events("insert,bogus", &m), -EINVAL, "-e insert,bogus");
	is_int(ss_record_parse_events("inserted", &m), -EINVAL, "-e inserted");
	is_int(m, 0, "... nothing added on failure");
	{
		double lg = 7;

		ok(ss_record_parse_linger("0", &lg) == 0 && lg == 0, "--linger 0");
		ok(ss_record_parse_linger("2.5", &lg) == 0 && lg == 2.5, "--linger 2.5");
		ok(ss_record_parse_linger("3600", &lg) == 0 && lg == 3600, "--linger 3600: the maximum");
		is_int(ss_record_parse_linger("3601", &lg), -EINVAL, "--linger 3601");
		is_int(ss_record_parse_linger("-1", &lg), -EINVAL, "--linger -1");
		is_int(ss_record_parse_linger("inf", &lg), -EINVAL, "--linger inf");
		is_int(ss_record_parse_linger("nan", &lg), -EINVAL, "--linger nan");
		is_int(ss_record_parse_linger("2s", &lg), -EINVAL, "--linger 2s");
		is_int(ss_record_parse_linger(" 2", &lg), -EINVAL, "--linger ' 2'");
		ok(lg == 3600, "... the value untouched");
		ok(REC("-d", "x", "true") == 0 && ro.linger_s == SS_RECORD_DEFAULT_LINGER_S,
		   "--linger defaults to %d s", SS_RECORD_DEFAULT_LINGER_S);
	}
	ok(REC("--map", "/mnt", "true") == 0 && !strcmp(ro.map_dir, "/mnt") && ro.nr_devs == 1 &&
	   !strcmp(ro.devs[0], "/mnt"), "--map DIR: traces DIR's device without -d");
	ok(REC("--untar", "a.tar", "--into", "/mnt", "--no-map") == 0 && ro.no_map,
	   "--untar ... --no-map");
	is_int(REC("--untar", "a.tar", "--into", "/mnt", "--map", "/mnt"), -EINVAL,
	       "--map with --untar is refused (it maps DIR by itself)");
	is_int(REC("-d", "x", "--no-map", "true"), -EINVAL, "--no-map without --untar is refused");
	ok(ss_record_parse_repeat("1", &r) == 0 && r == 1, "--repeat 1");
	ok(ss_record_parse_repeat("60", &r) == 0 && r == SS_UNTAR_MAX_REPEAT,
	   "--repeat %d (what the extraction supports)", SS_UNTAR_MAX_REPEAT);
	is_int(ss_record_parse_repeat("61", &r), -EINVAL, "--repeat 61");
	is_int(ss_record_parse_repeat("0", &r), -EINVAL, "--repeat 0");
}

static void test_record_parse(void)
{
	char *many[2 * SS_RECORD_MAX_DEVS + 4] = { "record" };

	_Static_assert(sizeof(many) / sizeof(many[0]) <= TEST_ARGV_MAX, "keep_argv's room");
	int n = 1;

	is_int(REC("-d", "/dev/sdb"), 0, "record -d DEV");
	ok(!strcmp(ro.output, SS_RECORD_DEFAULT_OUTPUT) && ro.buffer_kb == SS_RECORD_DEFAULT_BUFFER_KB &&
	   ro.nr_devs == 1 && !strcmp(ro.devs[0], "/dev/sdb") && !ro.command, "... defaults");
	is_int(REC("-o", "x.sst", "-d", "/dev/loop0", "--", "dd", "if=/dev/zero", "-o", "y"), 0,
	       "record -o x.sst -d DEV -- dd if=... -o y");
	ok(!strcmp(ro.output, "x.sst") && ro.command && !strcmp(ro.command[0], "dd") &&
	   !strcmp(ro.command[1], "if=/dev/zero") && !strcmp(ro.command[2], "-o") &&
	   !strcmp(ro.command[3], "y") && !ro.command[4], "... dd's arguments untouched");
	is_int(REC("-o", "x.sst", "-d", "/dev/loop0", "dd", "-o", "y"), 0,
	       "record -o x.sst -d DEV dd -o y (no --)");
	ok(!strcmp(ro.output, "x.sst") && ro.command && !strcmp(ro.command[0], "dd") &&
	   !strcmp(ro.command[1], "-o") && !strcmp(ro.command[2], "y"),
	   "... options stop at the command: dd keeps its -o");
	is_int(REC("-d", "/dev/loop0", "sh", "--help"), 0, "a command's --help is the command's");
	is_int(REC("-qd", "/dev/a", "-d/dev/b", "--buffer-size=64", "-e", "insert", "--no-zones"), 0,
	       "clusters, attached and = arguments");
	ok(ro.quiet && ro.nr_devs == 2 && !strcmp(ro.devs[1], "/dev/b") && ro.buffer_kb == 64 &&
	   ro.extra == SS_CAP_INSERT && ro.no_zones, "... all taken");
	is_int(REC("--untar", "a.tar", "--into", "/mnt/t", "--fsync=file", "--repeat", "3",
		   "--delete", "--drop-caches"), 0, "the extraction workload");
	ok(!strcmp(ro.untar.archive, "a.tar") && !strcmp(ro.untar.dest, "/mnt/t") &&
	   ro.untar.fsync_mode == SS_FSYNC_FILE && ro.untar.repeat == 3 && ro.untar.delete_after &&
	   ro.untar.drop_caches && ro.nr_devs == 1 && !strcmp(ro.devs[0], "/mnt/t"),
	   "... traced device defaults to DIR's");
	is_int(REC("--untar", "a.tar", "--into", "/mnt/t"), 0, "--untar without --repeat");
	is_int(ro.untar.repeat, 1, "... repeat 1");
	is_int(REC("--help"), SS_PARSE_HELP, "--help");
	ok(REC("--user", "nobody", "-d", "x", "true") == 0 && ro.user && !strcmp(ro.user, "nobody"),
	   "--user USER with a command");
	ok(REC("--user=1000", "--untar", "a.tar", "--into", "/m") == 0 && !strcmp(ro.user, "1000"),
	   "--user=UID with --untar");
	is_int(REC("--user", "nobody", "-d", "x"), -EINVAL, "--user without a workload");
	is_int(REC("--user", "", "-d", "x", "true"), -EINVAL, "--user ''");
	ok(REC("-o", "-", "-d", "x") == 0 && !strcmp(ro.output, "-"), "-o -: standard output");
	is_int(REC("-d", "x", "--untar", "a.tar", "--into", "/m", "--", "true"), -EINVAL,
	       "--untar and a command");
	ok(strstr(err, "not both") != NULL, "... %s", err);
	is_int(REC("--untar", "a.tar"), -EINVAL, "--untar without --into");
	is_int(REC("-o", "x.sst"), -EINVAL, "no device");
	ok(strstr(err, "-d") != NULL, "... %s", err);
	is_int(REC("-d", "x", "-b", "nonsense"), -EINVAL, "bad -b");
	ok(strstr(err, "-b") && strstr(err, "nonsense"), "... %s", err);
	is_int(REC("-d", "x", "--repeat", "61"), -EINVAL, "--repeat above the extraction's limit");
	is_int(REC("-d", "x", "--fsync", "sometimes"), -EINVAL, "bad --fsync");
	is_int(REC("-d", "x", "-o"), -EINVAL, "-o without its argument");
	is_str(err, "option '-o' needs an argument", "... said so");
	is_int(REC("-d", "x", "--bogus"), -EINVAL, "unknown option");
	is_str(err, "unknown option '--bogus'", "... named");
	for (int i = 0; i <= SS_RECORD_MAX_DEVS; i++) {
		many[n++] = "-d";
		many[n++] = "/dev/x";
	}
	many[n] = NULL;
	is_int(record(many), -EINVAL, "more than %d devices", SS_RECORD_MAX_DEVS);
	is_int(REC("-qZq"), -EINVAL, "a parse stopped inside a cluster ...");
	is_int(REC("-d", "/dev/sdb", "-q"), 0, "... then a valid line parses");
	ok(ro.quiet && ro.nr_devs == 1 && !ro.no_zones, "... as it should");
}

/* ---- plot ------------------------------------------------------------------------------- */

static void test_plot_values(void)
{
	static const struct { const char *s; int ok; uint64_t sectors; } offsets[] = {
		{ "0", 1, 0 }, { "100", 1, 100 }, { "1K", 1, 2 }, { "1k", 1, 2 }, { "1KB", 1, 2 },
		{ "1KiB", 1, 2 }, { "1kib", 1, 2 }, { "1M", 1, 2048 }, { "1G", 1, 2097152 },
		{ "2G", 1, 4194304 }, { "1T", 1, 1ull << 31 }, { "1.5G", 1, 3145728 },
		{ "0.1K", 1, 0 },           /* 102.4 bytes = 0.2 sectors */
		{ "0.25K", 1, 1 },          /* 256 bytes: half a sector rounds up */
		{ "1.5", 1, 2 }, { "1.", 1, 1 }, { "007", 1, 7 },
		{ "1.000000001G", 1, 2097152 }, { "1.0000000001G", 0, 0 },
		{ "18446744073709551615", 1, UINT64_MAX }, { "18446744073709551616", 0, 0 },
		{ "8589934591T", 1, UINT64_MAX - (1ull << 31) + 1 }, { "8589934592T", 0, 0 },
		{ "8589934591.999999999T", 1, UINT64_MAX - 1 },
		{ "", 0, 0 }, { "G", 0, 0 }, { ".5G", 0, 0 }, { "1X", 0, 0 }, { "1B", 0, 0 },
		{ "1GiBx", 0, 0 }, { "1Gi", 0, 0 }, { "1e3", 0, 0 }, { "0x10", 0, 0 }, { " 1", 0, 0 },
		{ "+1", 0, 0 }, { "-1", 0, 0 }, { "1:2", 0, 0 }, { "inf", 0, 0 }, { "nan", 0, 0 },
	};
	uint64_t lo = 3, hi = 4, u = 9;
	double xl = 3, xh = 4;
	unsigned bins = 9;
	int w = 1, h = 2;

	for (size_t i = 0; i < sizeof(offsets) / sizeof(offsets[0]); i++) {
		uint64_t v = 12345;
		int ret = ss_optarg_sectors(offsets[i].s, strlen(offsets[i].s), UINT64_MAX, &v);

		if (offsets[i].ok)
			ok(ret == 0 && v == offsets[i].sectors, "offset '%s' = %llu sectors (%llu)",
			   offsets[i].s, (unsigned long long)offsets[i].sectors, (unsigned long long)v);
		else
			ok((ret == -EINVAL || ret == -ERANGE) && v == 12345, "offset '%s' refused",
			   offsets[i].s);
	}
	ok(ss_plot_parse_y_range("1G:2G", &lo, &hi) == 0 && lo == 2097152 && hi == 4194304,
	   "--y-range 1G:2G");
	ok(ss_plot_parse_y_range("0:1", &lo, &hi) == 0 && lo == 0 && hi == 1, "--y-range 0:1");
	ok(ss_plot_parse_y_range("1024:1M", &lo, &hi) == 0 && lo == 1024 && hi == 2048,
	   "--y-range mixes sectors and bytes");
	is_int(ss_plot_parse_y_range("2G:1G", &lo, &hi), -EINVAL, "--y-range 2G:1G");
	is_int(ss_plot_parse_y_range("5:5", &lo, &hi), -EINVAL, "--y-range 5:5 (empty)");
	is_int(ss_plot_parse_y_range("2G", &lo, &hi), -EINVAL, "--y-range 2G");
	is_int(ss_plot_parse_y_range(":1", &lo, &hi), -EINVAL, "--y-range :1");
	is_int(ss_plot_parse_y_range("1:", &lo, &hi), -EINVAL, "--y-range 1:");
	is_int(ss_plot_parse_y_range("1:2:3", &lo, &hi), -EINVAL, "--y-range 1:2:3");
	ok(lo == 1024 && hi == 2048, "... failures leave the range alone");

	ok(ss_plot_parse_x_range("10:20", &xl, &xh) == 0 && xl == 10 && xh == 20, "--x-range 10:20");
	ok(ss_plot_parse_x_range("0.5:1.25", &xl, &xh) == 0 && xl == 0.5 && xh == 1.25,
	   "--x-range 0.5:1.25");
	ok(ss_plot_parse_x_range("0:1e9", &xl, &xh) == 0 && xh == 1e9, "--x-range 0:1e9 (limit)");
	is_int(ss_plot_parse_x_range("0:1000000001", &xl, &xh), -EINVAL, "--x-range past 1e9 s");
	is_int(ss_plot_parse_x_range("5:1", &xl, &xh), -EINVAL, "--x-range 5:1");
	is_int(ss_plot_parse_x_range("1:1", &xl, &xh), -EINVAL, "--x-range 1:1");
	is_int(ss_plot_parse_x_range("-1:2", &xl, &xh), -EINVAL, "--x-range -1:2");
	is_int(ss_plot_parse_x_range("nan:1", &xl, &xh), -EINVAL, "--x-range nan:1");
	is_int(ss_plot_parse_x_range("0:inf", &xl, &xh), -EINVAL, "--x-range 0:inf");
	is_int(ss_plot_parse_x_range("0:nan", &xl, &xh), -EINVAL, "--x-range 0:nan");
	is_int(ss_plot_parse_x_range(":2", &xl, &xh), -EINVAL, "--x-range :2");
	is_int(ss_plot_parse_x_range("1:", &xl, &xh), -EINVAL, "--x-range 1:");
	is_int(ss_plot_parse_x_range("1", &xl, &xh), -EINVAL, "--x-range 1");
	is_int(ss_plot_parse_x_range("1:2:3", &xl, &xh), -EINVAL, "--x-range 1:2:3");
	is_int(ss_plot_parse_x_range("1s:2s", &xl, &xh), -EINVAL, "--x-range 1s:2s");
	ok(xl == 0 && xh == 1e9, "... failures leave the range alone");

	ok(ss_plot_parse_size("800x600", &w, &h) == 0 && w == 800 && h == 600, "--size 800x600");
	ok(ss_plot_parse_size("200x150", &w, &h) == 0 && w == 200 && h == 150, "--size 200x150");
	ok(ss_plot_parse_size("16000x16000", &w, &h) == 0 && w == 16000 && h == 16000,
	   "--size 16000x16000");
	is_int(ss_plot_parse_size("199x150", &w, &h), -EINVAL, "--size 199x150");
	is_int(ss_plot_parse_size("200x149", &w, &h), -EINVAL, "--size 200x149");
	is_int(ss_plot_parse_size("16001x200", &w, &h), -EINVAL, "--size 16001x200");
	is_int(ss_plot_parse_size("800", &w, &h), -EINVAL, "--size 800");
	is_int(ss_plot_parse_size("800X600", &w, &h), -EINVAL, "--size 800X600");
	is_int(ss_plot_parse_size("800x600x", &w, &h), -EINVAL, "--size 800x600x");
	is_int(ss_plot_parse_size(" 800x600", &w, &h), -EINVAL, "--size ' 800x600'");
	is_int(ss_plot_parse_size("800x+600", &w, &h), -EINVAL, "--size 800x+600");
	is_int(ss_plot_parse_size("4294968096x600", &w, &h), -EINVAL, "--size 2^32+800 x 600");
	is_int(ss_plot_parse_size("99999999999999999999x600", &w, &h), -EINVAL, "--size overflow");
	ok(w == 16000 && h == 16000, "... failures leave the size alone");

	ok(ss_optarg_sectors("1M", 2, 2047, &u) == -ERANGE && u == 9, "offset above MAX: -ERANGE");
	ok(ss_optarg_sectors("1M", 2, 2048, &u) == 0 && u == 2048, "offset at MAX");
	ok(ss_optarg_sectors("12:", 2, UINT64_MAX, &u) == 0 && u == 12, "offset: only LEN bytes");
	ok(ss_parse_seek_threshold("1", &u) == 0 && u == 1, "--seek-threshold 1");
	ok(ss_parse_seek_threshold("0", &u) == 0 && u == 0, "--seek-threshold 0: every jump");
	ok(ss_parse_seek_threshold("64K", &u) == 0 && u == 128, "--seek-threshold 64K = 128");
	ok(ss_parse_seek_threshold("1099511627776", &u) == 0 && u == 1ull << 40,
	   "--seek-threshold 2^40");
	ok(ss_parse_seek_threshold("512T", &u) == 0 && u == 1ull << 40, "--seek-threshold 512T");
	is_int(ss_parse_seek_threshold("1099511627777", &u), -EINVAL, "--seek-threshold 2^40+1");
	is_int(ss_parse_seek_threshold("-3", &u), -EINVAL, "--seek-threshold -3");
	is_int(ss_parse_seek_threshold("x", &u), -EINVAL, "--seek-threshold x");
	ok(ss_plot_parse_rolling("0", &bins) == 0 && bins == 0, "--rolling 0");
	ok(ss_plot_parse_rolling("10000", &bins) == 0 && bins == 10000, "--rolling 10000");
	is_int(ss_plot_parse_rolling("10001", &bins), -EINVAL, "--rolling 10001");
	is_int(ss_plot_parse_rolling("x", &bins), -EINVAL, "--rolling x");
}

static struct ss_plot_args pa;

static int plot(char **v)
{
	v = keep_argv(v);
	err[0] = 0;
	return ss_plot_parse(argc_of(v), v, &pa, err, sizeof(err));
}

#define PLOT(...) plot((char *[]){ "plot", __VA_ARGS__, NULL })

/* --disk: the model panel joins the default set at its registry place; refused without. */
static void test_plot_disk(const struct ss_graph_opts *def)
{
	const struct ss_panel_ops *model = ss_panels_find("model");
	int at = -1;

	ok(model && model->needs_disk, "the model panel is registered and needs --disk");
	is_int(PLOT("a.sst", "--disk", "hdd7200,wcache=on"), 0, "--disk hdd7200,wcache=on");
	for (int i = 0; i < pa.g.nr_panels; i++)
		if (pa.g.panels[i] == model)
			at = i;
	ok(pa.g.has_disk && pa.g.disk.wcache && !strcmp(pa.g.disk.name, "hdd7200") &&
	   pa.g.nr_panels == def->nr_panels + 1 && at == 2 && pa.g.panels[1] == def->panels[1] &&
	   pa.g.panels[3] == def->panels[2], "... the default set plus model, after seeks");
	is_int(PLOT("a.sst", "--disk", "ssd", "-p", "io,seeks"), 0, "--disk with --panels");
	ok(pa.g.nr_panels == 2 && pa.g.has_disk, "... the panels as given");
	is_int(PLOT("a.sst", "-p", "io,model"), -EINVAL, "the model panel without --disk");
	is_str(err, "panel 'model' draws the disk model: give --disk MODEL", "... said so");
	is_int(PLOT("a.sst", "--disk", "hdd9000"), -EINVAL, "--disk hdd9000");
	ok(!strncmp(err, "--disk: unknown disk model 'hdd9000' (valid: hdd7200", 51),
	   "... %s", err);
	is_int(PLOT("a.sst"), 0, "without --disk");
	ok(!pa.g.has_disk && pa.g.nr_panels == def->nr_panels, "... no model");
}

static void test_plot_parse(void)
{
	struct ss_graph_opts def;

	ss_graph_opts_init(&def);
	ss_panels_set_default(&def);
	is_int(PLOT("a.sst"), 0, "plot TRACE");
	ok(pa.nr_traces == 1 && !strcmp(pa.traces[0], "a.sst") && !pa.out && !pa.size_given &&
	   pa.g.width == def.width && pa.g.nr_panels == def.nr_panels &&
	   !memcmp(pa.g.panels, def.panels, sizeof(def.panels)) && !pa.g.has_x_range,
	   "... defaults");
	is_int(PLOT("a.sst", "-l", "one", "b.sst", "-l", "two", "-o", "x.svg", "--x-range", "1:2",
		    "--y-range=1G:2G", "-s800x600", "-p", "io,seeks", "-u", "mib", "-t", "256",
		    "-r", "3", "-T", "title"), 0, "every option, operands among them");
	ok(pa.nr_traces == 2 && !strcmp(pa.traces[0], "a.sst") && !strcmp(pa.traces[1], "b.sst") &&
	   pa.nr_labels == 2 && !strcmp(pa.labels[1], "two") && !strcmp(pa.out, "x.svg"),
	   "... traces, labels, output");
	ok(pa.g.has_x_range && pa.g.x_lo_s == 1 && pa.g.x_hi_s == 2 && pa.g.has_y_range &&
	   pa.g.y_lo == 2097152 && pa.g.y_hi == 4194304 && pa.size_given && pa.g.width == 800 &&
	   pa.g.height == 600 && pa.g.nr_panels == 2 && pa.g.units == SS_UNITS_MIB &&
	   pa.g.seek_threshold == 256 && pa.g.rolling == 3 && !strcmp(pa.g.title, "title"),
	   "... graph options");
	is_int(PLOT("a.sst", "--device", "loop1"), 0, "--device NAME");
	ok(pa.g.device && !strcmp(pa.g.device, "loop1"), "... taken");
	is_int(PLOT("a.sst", "--device="), -EINVAL, "--device with nothing");
	is_int(PLOT("a.sst", "-d", "7:1"), 0, "-d MAJ:MIN (record's letter for --device)");
	ok(pa.g.device && !strcmp(pa.g.device, "7:1"), "... taken");
	is_int(PLOT("a.sst", "-d", "loop1", "-o", "a.html"), 0, "--device for an .html page");
	ok(pa.html && pa.g.device && !strcmp(pa.g.device, "loop1"), "... a page of that device");
	ok(PLOT("a.sst") == 0 && !pa.html && pa.fmt == SS_OUT_PNG && !strcmp(pa.ext, "png"),
	   "no -o, no --format: png");
	ok(PLOT("a.sst", "-o", "x.PDF") == 0 && pa.fmt == SS_OUT_PDF, "-o x.PDF: pdf");
	ok(PLOT("a.sst", "-o", "x.htm") == 0 && pa.html && !strcmp(pa.ext, "html"), "-o x.htm: html");
	ok(PLOT("a.sst", "-o", "-", "--format", "svg") == 0 && pa.fmt == SS_OUT_SVG && !pa.html &&
	   !strcmp(pa.out, "-"), "-o - --format svg");
	ok(PLOT("a.sst", "-o", "-", "--format=html") == 0 && pa.html, "-o - --format=html");
	is_int(PLOT("a.sst", "-o", "-"), -EINVAL, "-o - without --format");
	ok(strstr(err, "--format") != NULL, "... asks for it (%s)", err);
	ok(PLOT("a.sst", "--format", "svg") == 0 && !pa.out && !strcmp(pa.ext, "svg"),
	   "--format svg without -o: the default name's extension");
	ok(PLOT("a.sst", "--format", "pdf", "-o", "x.pdf") == 0 && pa.fmt == SS_OUT_PDF,
	   "--format agreeing with -o");
	is_int(PLOT("a.sst", "--format", "pdf", "-o", "x.png"), -EINVAL, "--format pdf -o x.png");
	is_int(PLOT("a.sst", "--format", "pdf", "-o", "x.html"), -EINVAL, "--format pdf -o x.html");
	is_int(PLOT("a.sst", "--format", "jpg"), -EINVAL, "--format jpg");
	is_int(PLOT("-", "-o", "-", "--format", "png"), 0, "TRACE - with -o -");
	is_int(PLOT("a.sst", "--color-by", "process", "--processes", "3", "--comm", "tar"), 0,
	       "--color-by process --processes 3 --comm tar");
	ok(pa.g.color_by_group && pa.g.group.by == SS_GROUP_PROCESS && pa.g.top_groups == 3 &&
	   pa.g.only.nr_comms == 1, "... taken");
	is_int(PLOT("a.sst", "--color-by", "dir", "--groups", "5"), 0, "--color-by dir --groups 5");
	ok(pa.g.color_by_group && pa.g.group.by == SS_GROUP_DIR && pa.g.group.depth == 1 &&
	   pa.g.top_groups == 5, "... taken: depth 1");
	is_int(PLOT("a.sst", "--color-by", "dir:3"), 0, "--color-by dir:3");
	ok(pa.g.group.by == SS_GROUP_DIR && pa.g.group.depth == 3, "... depth 3");
	is_int(PLOT("a.sst", "--color-by", "file"), 0, "--color-by file");
	ok(pa.g.group.by == SS_GROUP_FILE, "... taken");
	is_int(PLOT("a.sst", "--color-by", "dir:0"), -EINVAL, "--color-by dir:0");
	is_str(err, "bad --color-by 'dir:0' (class, process, dir, dir:DEPTH (1 to 64) or file)",
	       "... said so");
	is_int(PLOT("a.sst", "--color-by", "dir:"), -EINVAL, "--color-by dir:");
	is_int(PLOT("a.sst", "--color-by", "dirs"), -EINVAL, "--color-by dirs");
	ok(PLOT("a.sst", "--color-by", "file", "-o", "a.html") == 0 && pa.html && pa.g.color_by_group,
	   "--color-by file .html: a page coloured by file");
	/* --processes, --groups: report's range (0: all, to 1000000); plot has 10 colours */
	ok(PLOT("a.sst", "--processes", "11") == 0 && pa.g.top_groups == SS_GROUPS_MAX,
	   "--processes 11: the 10 colours there are");
	ok(PLOT("a.sst", "--groups", "0") == 0 && pa.g.top_groups == SS_GROUPS_MAX,
	   "--groups 0 (all): the 10 colours there are");
	is_int(PLOT("a.sst", "--processes", "1000001"), -EINVAL, "--processes 1000001");
	is_str(err, "bad --processes '1000001' (" SS_PROCESSES_HINT ")", "... the message report gives");
	is_int(PLOT("a.sst", "--groups", "x"), -EINVAL, "--groups x");
	is_str(err, "bad --groups 'x' (" SS_PROCESSES_HINT ")", "... said so");
	is_int(PLOT("a.sst", "--color-by", "class"), 0, "--color-by class");
	ok(!pa.g.color_by_group && !ss_task_spec_active(&pa.g.only), "... the default");
	is_int(PLOT("--help"), SS_PARSE_HELP, "--help");
	is_int(plot((char *[]){ "plot", NULL }), -EINVAL, "no TRACE");
	is_str(err, "no TRACE given", "... said so");
	is_int(PLOT("1", "2", "3", "4", "5", "6", "7", "8", "9"), -EINVAL, "nine traces");
	is_int(PLOT("a", "-l", "x", "-l", "y"), -EINVAL, "more labels than traces");
	is_int(PLOT("a", "-o", "x.jpg"), -EINVAL, "-o x.jpg");
	ok(strstr(err, "x.jpg") && strstr(err, ".png"), "... %s", err);
	is_int(PLOT("a", "--size", "10x10"), -EINVAL, "--size 10x10");
	is_str(err, "bad --size '10x10' (WxH, 200x150 to 16000x16000)", "... said so");
	is_int(PLOT("a", "--panels", "io,nope"), -EINVAL, "--panels io,nope");
	ok(strstr(err, "nope") != NULL, "... %s", err);
	is_int(PLOT("a", "--units", "furlongs"), -EINVAL, "--units furlongs");
	is_int(PLOT("a", "-o"), -EINVAL, "-o without its argument");
	is_str(err, "option '-o' needs an argument", "... said so");
	is_int(PLOT("a", "-qZ"), -EINVAL, "unknown letters");
	is_str(err, "unknown option '-Z'", "... named");
	is_int(PLOT("a", "-V"), SS_PARSE_VERSION, "-V");
	is_int(PLOT("a", "--seek-threshold", "2^40"), -EINVAL, "--seek-threshold 2^40");
	is_str(err, "bad --seek-threshold '2^40' (" SS_SEEK_THRESHOLD_HINT ")", "... said so");
	is_int(PLOT("a.sst", "-r", "2"), 0, "... then a valid line parses");
	ok(pa.nr_traces == 1 && pa.g.rolling == 2 && !pa.quiet, "... as it should");
	is_int(PLOT("a.sst", "-q", "-t0"), 0, "-q -t0");
	ok(pa.quiet && pa.g.seek_threshold == 0, "... quiet, threshold 0");
	test_plot_disk(&def);
}

static void test_plot_default_output(void)
{
	static const struct { const char *traces[3]; const char *want; } cases[] = {
		{ { "a.sst" }, "a.png" },
		{ { "dir/a.sst", "../b.sst" }, "a-vs-b.png" },
		{ { "x/ag1.sst", "y/ag4.sst", "ext4.dat" }, "ag1-vs-ag4-vs-ext4.png" },
		{ { "capture/", "sda" }, "capture-vs-sda.png" },
		{ { ".hidden", "a.b.c" }, ".hidden-vs-a.b.png" },
		{ { "-", "a.sst" }, "stdin-vs-a.png" },
	};
	char buf[SS_PLOT_MAX_DEFAULT_NAME + 1], *many[8], name[64];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int n = 0;

		while (n < 3 && cases[i].traces[n])
			n++;
		buf[0] = 0;
		ok(ss_plot_default_output((char *const *)cases[i].traces, n, "png", buf,
					  sizeof(buf)) == 0 &&
		   !strcmp(buf, cases[i].want), "default output %s (%s)", cases[i].want, buf);
	}
	memset(name, 'x', 39);
	strcpy(name + 39, ".sst");
	for (int i = 0; i < 8; i++)
		many[i] = name;
	is_int(ss_plot_default_output(many, 5, "png", buf, sizeof(buf)), 0, "five 39-byte names fit");
	is_int(ss_plot_default_output(many, 6, "png", buf, sizeof(buf)), -ENAMETOOLONG,
	       "six do not: -ENAMETOOLONG");
	is_int(ss_plot_default_output(many, 1, "png", buf, 10), -ENAMETOOLONG, "nor into a short buffer");
}

int main(void)
{
	test_optable_init();
	test_optable_help();
	test_optable_errors();
	test_optable_reset();
	test_optarg_uint();
	test_record_values();
	test_record_parse();
	test_plot_values();
	test_plot_parse();
	test_plot_default_output();
	return done_testing();
}
