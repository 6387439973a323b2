// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command lines of report, dump, convert, mkarchive and movie parsed without running anything
 * (valid forms, each misuse, --help, value errors), their value parsers at the boundaries, and
 * the one help layout (ss_help_print) every command's --help is printed in.  record's and
 * plot's parsers are in test_cli_args.c.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "argv.h"
#include "convert_args.h"
#include "dump_args.h"
#include "list_args.h"
#include "mkarchive_args.h"
#include "movie_args.h"
#include "render_args.h"
#include "panel.h"
#include "optable.h"
#include "report_args.h"
#include "seekscope/model.h"
#include "tap.h"

static char err[256];

/* ---- the help layout -------------------------------------------------------------------- */

static char *help_text(const struct ss_help *h)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ss_help_print(f, h);
	fclose(f);
	return buf;
}

static void test_help_layout(void)
{
	static const struct ss_option opts[] = {
		{ "output", 'o', "FILE", "where to write" },
		SS_OPTION_HELP,
	};
	struct ss_help h = {
		.usage = "seekscope x FILE\n       seekscope x --other",
		.description = "Does x.\n\nTwice.",
		.opts = opts,
		.nr_opts = SS_NR_OPTIONS(opts),
		.examples = "  seekscope x a\n  seekscope x b",
	};
	const struct ss_help *cmds[] = { &ss_report_help, &ss_dump_help, &ss_convert_help,
					 &ss_mkarchive_help, &ss_movie_help };
	char *s = help_text(&h);

	is_str(s,
	       "USAGE: seekscope x FILE\n"
	       "       seekscope x --other\n"
	       "\n"
	       "Does x.\n"
	       "\n"
	       "Twice.\n"
	       "\n"
	       "OPTIONS:\n"
	       "  -o, --output FILE  where to write\n"
	       "  -h, --help         show this help and exit\n"
	       "\n"
	       "EXAMPLES:\n"
	       "  seekscope x a\n"
	       "  seekscope x b\n",
	       "help: USAGE, description, OPTIONS from the table, EXAMPLES");
	free(s);
	h.sections = "EXIT STATUS:\n  0 fine";
	s = help_text(&h);
	ok(s && strstr(s, "  -h, --help         show this help and exit\n"
			  "\n"
			  "EXIT STATUS:\n"
			  "  0 fine\n"
			  "\n"
			  "EXAMPLES:\n"), "help: sections between OPTIONS and EXAMPLES");
	free(s);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		s = help_text(cmds[i]);
		ok(s && !strncmp(s, "USAGE: seekscope ", 17) && strstr(s, "\n\nOPTIONS:\n") &&
		   strstr(s, "\n  -h, --help ") && strstr(s, "\n\nEXAMPLES:\n  seekscope ") &&
		   !strstr(s, "Options:") && s[strlen(s) - 1] == '\n' && s[strlen(s) - 2] != '\n',
		   "%.*s --help in the layout", (int)strcspn(s ? s + 17 : "", " "), s ? s + 17 : "");
		free(s);
	}
}

/* ---- report ----------------------------------------------------------------------------- */

static struct ss_report_args ra;

static int report(char **v)
{
	v = keep_argv(v);
	err[0] = 0;
	return ss_report_parse(argc_of(v), v, &ra, err, sizeof(err));
}

#define REPORT(...) report((char *[]){ "report", __VA_ARGS__, NULL })

static void test_report_parse(void)
{
	is_int(REPORT("a.sst"), 0, "report FILE");
	ok(ra.nr_files == 1 && !strcmp(ra.files[0], "a.sst") && !ra.ro.json && !ra.ro.all_zones &&
	   ra.ro.seek_threshold == 128, "... defaults: text, zones with I/O, threshold 128");
	is_int(REPORT("a.sst", "-j", "b.sst", "--seek-threshold=0", "--all-zones", "c"), 0,
	       "every option, operands among them");
	ok(ra.nr_files == 3 && !strcmp(ra.files[0], "a.sst") && !strcmp(ra.files[1], "b.sst") &&
	   !strcmp(ra.files[2], "c") && ra.ro.json && ra.ro.all_zones && ra.ro.seek_threshold == 0,
	   "... files in order, options taken");
	is_int(REPORT("-ja", "-t1099511627776", "x"), 0, "clusters, attached argument");
	ok(ra.ro.json && ra.ro.all_zones && ra.ro.seek_threshold == 1ull << 40, "... the maximum");
	is_int(REPORT("--", "-j"), 0, "a FILE named -j after --");
	ok(ra.nr_files == 1 && !strcmp(ra.files[0], "-j") && !ra.ro.json, "... is a file");
	is_int(REPORT("--device", "7:1", "x"), 0, "--device MAJ:MIN");
	ok(ra.ro.device && !strcmp(ra.ro.device, "7:1"), "... taken");
	is_int(REPORT("--device=", "x"), -EINVAL, "--device with nothing");
	is_str(err, "--device wants a device name or MAJ:MIN", "... said so");
	is_int(REPORT("-d", "loop1", "x"), 0, "-d NAME");
	ok(ra.ro.device && !strcmp(ra.ro.device, "loop1"), "... taken");
	is_int(REPORT("--help"), SS_PARSE_HELP, "--help");
	is_int(REPORT("x", "-h"), SS_PARSE_HELP, "-h after a file");
	is_int(report((char *[]){ "report", NULL }), -EINVAL, "no FILE");
	is_str(err, "no trace file given", "... said so");
	is_int(REPORT("-j"), -EINVAL, "options but no FILE");
	is_int(REPORT("x", "-t", "-1"), -EINVAL, "--seek-threshold -1");
	is_str(err, "bad --seek-threshold '-1' (sectors or bytes like 64K, 0 to 2^40 sectors)",
	       "... said so");
	is_int(REPORT("x", "-t", "1099511627777"), -EINVAL, "--seek-threshold past 2^40 (plot's "
	       "range)");
	is_int(REPORT("x", "-t", "18446744073709551616"), -EINVAL, "--seek-threshold overflow");
	is_int(REPORT("x", "-t", "12k"), 0, "--seek-threshold 12k: bytes, as in plot");
	is_int(ra.ro.seek_threshold, 24, "... 24 sectors");
	is_int(REPORT("x", "-t"), -EINVAL, "-t without its argument");
	is_str(err, "option '-t' needs an argument", "... said so");
	is_int(REPORT("x", "-s", "8"), -EINVAL, "-s: no longer the seek threshold");
	is_int(REPORT("x", "--version"), SS_PARSE_VERSION, "--version");
	is_int(REPORT("x", "--json=yes"), -EINVAL, "--json=yes");
	is_str(err, "option '--json' takes no argument", "... said so");
	is_int(REPORT("x", "--bogus"), -EINVAL, "unknown option");
	is_str(err, "unknown option '--bogus'", "... named");
	is_int(REPORT("x", "-jZj"), -EINVAL, "a parse stopped inside a cluster ...");
	is_int(REPORT("y", "-a"), 0, "... then a valid line parses");
	ok(ra.nr_files == 1 && !strcmp(ra.files[0], "y") && ra.ro.all_zones && !ra.ro.json,
	   "... as it should");
	ok(!ss_task_spec_active(&ra.ro.only) && ra.ro.top_procs == REPORT_PROCS_DEFAULT,
	   "no process filter, 12 processes listed by default");
	is_int(REPORT("x", "--pid", "42", "--comm", "tar", "--pid=7", "--comm=kworker*",
		      "--processes", "0"), 0, "--pid, --comm (repeated), --processes 0");
	ok(ra.ro.only.nr_pids == 2 && ra.ro.only.pids[0] == 42 && ra.ro.only.pids[1] == 7 &&
	   ra.ro.only.nr_comms == 2 && !strcmp(ra.ro.only.comms[1], "kworker*") &&
	   ra.ro.top_procs == 0, "... all taken, in order");
	is_int(REPORT("x", "--pid", "-3"), -EINVAL, "--pid -3");
	is_str(err, "--pid wants a process id (a number), not '-3'", "... said so");
	is_int(REPORT("x", "--pid", "4294967296"), -EINVAL, "--pid beyond 32 bits");
	is_int(REPORT("x", "--comm", ""), -EINVAL, "--comm ''");
	is_int(REPORT("x", "--processes", "x"), -EINVAL, "--processes x");
	is_str(err, "bad --processes 'x' (" SS_PROCESSES_HINT ")", "... plot's message");
	ok(REPORT("x", "--processes", "1000000") == 0 && ra.ro.top_procs == 1000000,
	   "--processes 1000000: plot's range");
	is_int(REPORT("x", "--processes", "1000001"), -EINVAL, "--processes 1000001");
	ok(!ra.ro.has_disk, "no --disk: no model");
	is_int(REPORT("--disk", "hdd5400,heads=1", "x"), 0, "--disk MODEL,KEY=VALUE");
	ok(ra.ro.has_disk && !strcmp(ra.ro.disk.name, "hdd5400") && ra.ro.disk.heads == 1 &&
	   ra.ro.disk.rpm == 5400, "... the preset with the override");
	is_int(REPORT("--disk", "hdd7200,rpm=0", "x"), -EINVAL, "--disk hdd7200,rpm=0");
	is_str(err, "--disk: disk parameter rpm=0: valid values are numbers from 1000 to 30000",
	       "... the range said");
}

/* ---- dump ------------------------------------------------------------------------------- */

static struct ss_dump_args da;

static int dump(char **v)
{
	v = keep_argv(v);
	err[0] = 0;
	return ss_dump_parse(argc_of(v), v, &da, err, sizeof(err));
}

#define DUMP(...) dump((char *[]){ "dump", __VA_ARGS__, NULL })

static void test_dump_parse(void)
{
	is_int(DUMP("a.sst"), 0, "dump FILE");
	ok(!strcmp(da.file, "a.sst") && !da.no_events && !da.absolute, "... defaults");
	is_int(DUMP("-n", "a.sst", "--absolute"), 0, "dump -n FILE --absolute");
	ok(!strcmp(da.file, "a.sst") && da.no_events && da.absolute, "... both taken");
	is_int(DUMP("-nq", "b"), 0, "a cluster");
	ok(da.no_events && da.quiet && !da.absolute && !strcmp(da.file, "b"), "... both taken");
	is_int(DUMP("-a", "b"), -EINVAL, "-a: --absolute has no letter (-a is report's all-zones)");
	is_int(DUMP("--no-ev", "c"), 0, "an abbreviation");
	ok(da.no_events && !da.absolute, "... taken");
	is_int(DUMP("--device", "sda", "a"), 0, "--device NAME");
	ok(da.device && !strcmp(da.device, "sda") && !strcmp(da.file, "a"), "... taken");
	is_int(DUMP("--device=", "a"), -EINVAL, "--device with nothing");
	is_int(DUMP("-d", "8:16", "a"), 0, "-d MAJ:MIN");
	ok(da.device && !strcmp(da.device, "8:16"), "... taken");
	is_int(DUMP("--help"), SS_PARSE_HELP, "--help");
	is_int(dump((char *[]){ "dump", NULL }), -EINVAL, "no FILE");
	is_str(err, "name one trace file", "... said so");
	is_int(DUMP("a", "b"), -EINVAL, "two FILEs");
	is_str(err, "name one trace file", "... said so");
	is_int(DUMP("a", "-n=1"), -EINVAL, "-n=1 (a cluster with '=')");
	is_int(DUMP("a", "--absolute=1"), -EINVAL, "--absolute=1");
	is_str(err, "option '--absolute' takes no argument", "... said so");
	is_int(DUMP("a", "--json", "--comm", "tar", "--pid", "1"), 0, "--json --comm --pid");
	ok(da.json && da.only.nr_comms == 1 && da.only.nr_pids == 1 && da.only.pids[0] == 1,
	   "... taken");
	is_int(DUMP("a", "--pid", "1x"), -EINVAL, "--pid 1x");
	is_int(DUMP("a", "-x"), -EINVAL, "unknown option");
	is_str(err, "unknown option '-x'", "... named");
}

/* ---- convert ---------------------------------------------------------------------------- */

static struct ss_convert_args ca;

static int convert(char **v)
{
	v = keep_argv(v);
	err[0] = 0;
	return ss_convert_parse(argc_of(v), v, &ca, err, sizeof(err));
}

#define CONVERT(...) convert((char *[]){ "convert", __VA_ARGS__, NULL })

static void test_convert_values(void)
{
	static const struct { const char *s; int ok; unsigned ma, mi; } devs[] = {
		{ "8:16", 1, 8, 16 }, { "8,16", 1, 8, 16 }, { "0:0", 1, 0, 0 },
		{ "4095:1048575", 1, 4095, 1048575 }, { "259:0", 1, 259, 0 },
		{ "4096:0", 0, 0, 0 }, { "0:1048576", 0, 0, 0 }, { "8", 0, 0, 0 }, { "8:", 0, 0, 0 },
		{ ":16", 0, 0, 0 }, { "8:16:1", 0, 0, 0 }, { "8:-1", 0, 0, 0 }, { "-8:1", 0, 0, 0 },
		{ " 8:1", 0, 0, 0 }, { "8: 1", 0, 0, 0 }, { "8:1x", 0, 0, 0 }, { "0x8:1", 0, 0, 0 },
		{ "8;16", 0, 0, 0 }, { "", 0, 0, 0 }, { "99999999999999999999:1", 0, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		uint32_t dev = 12345;
		int ret = ss_convert_parse_dev(devs[i].s, &dev);

		if (devs[i].ok)
			ok(ret == 0 && dev == SS_MKDEV(devs[i].ma, devs[i].mi) &&
			   SS_DEV_MAJOR(dev) == devs[i].ma && SS_DEV_MINOR(dev) == devs[i].mi,
			   "--fs-dev '%s' = %u:%u", devs[i].s, devs[i].ma, devs[i].mi);
		else
			ok(ret == -EINVAL && dev == 12345, "--fs-dev '%s' refused", devs[i].s);
	}
	is_int(ss_convert_parse_dev(NULL, &(uint32_t){ 0 }), -EINVAL, "--fs-dev NULL");
}

static void test_convert_parse(void)
{
	is_int(CONVERT("in", "-o", "out.sst"), 0, "convert IN -o OUT");
	ok(!strcmp(ca.in, "in") && !strcmp(ca.out, "out.sst") && !ca.fs && !ca.fs_dev_given &&
	   !ca.fs_offset_given, "... no --fs");
	is_int(CONVERT("--output=o.sst", "--fs", "xfs.img", "--fs-dev", "8:16", "--fs-offset",
		       "2048", "bt/"), 0, "every option");
	ok(!strcmp(ca.in, "bt/") && !strcmp(ca.out, "o.sst") && !strcmp(ca.fs, "xfs.img") &&
	   ca.fs_dev_given && ca.fs_dev == SS_MKDEV(8, 16) && ca.fs_offset_given &&
	   ca.fs_offset == 2048, "... all taken");
	is_int(CONVERT("in", "-oout", "-qf", "img", "--fs-offset=0"), 0, "--fs-offset 0");
	ok(ca.fs_offset_given && ca.fs_offset == 0 && !ca.fs_dev_given && ca.quiet,
	   "... given, zero; -q");
	is_int(CONVERT("in", "-oout", "-f", "img", "-s", "0"), -EINVAL, "-s: --fs-offset has no letter");
	is_int(CONVERT("in", "-oout", "-f", "img", "-d", "8:0"), -EINVAL,
	       "-d: --fs-dev has no letter (-d is record's device)");
	is_int(CONVERT("--help"), SS_PARSE_HELP, "--help");
	is_int(CONVERT("in", "-o", "x", "-h"), SS_PARSE_HELP, "-h after the rest");
	is_int(convert((char *[]){ "convert", NULL }), -EINVAL, "nothing");
	is_str(err, "name one input trace", "... said so");
	is_int(CONVERT("a", "b", "-o", "x"), -EINVAL, "two inputs");
	is_str(err, "name one input trace", "... said so");
	is_int(CONVERT("in"), -EINVAL, "no -o");
	is_str(err, "name the output with -o FILE", "... said so");
	is_int(CONVERT("in", "-o"), -EINVAL, "-o without its argument");
	is_str(err, "option '-o' needs an argument", "... said so");
	is_int(CONVERT("in", "-o", "x", "--fs-dev", "8:0"), -EINVAL, "--fs-dev without --fs");
	is_str(err, "--fs-dev and --fs-offset go with --fs", "... said so");
	is_int(CONVERT("in", "-o", "x", "--fs-offset", "8"), -EINVAL, "--fs-offset without --fs");
	is_int(CONVERT("in", "-o", "x", "--fs", "i", "--fs-dev", "8"), -EINVAL, "--fs-dev 8");
	is_str(err, "--fs-dev wants MAJ:MIN, e.g. 8:16, not '8'", "... said so");
	is_int(CONVERT("in", "-o", "x", "--fs", "i", "--fs-offset", "-1"), -EINVAL,
	       "--fs-offset -1");
	is_str(err, "bad --fs-offset '-1' (sectors or bytes like 1M)", "... said so");
	is_int(CONVERT("in", "-o", "x", "--fs", "i", "--fs-offset", "1M"), 0,
	       "--fs-offset 1M: bytes, as everywhere");
	ok(ca.fs_offset == 2048, "... 2048 sectors");
	is_int(CONVERT("in", "-o", "x", "--fs-"), -EINVAL, "ambiguous --fs-");
	is_str(err, "ambiguous option '--fs-'", "... said so");
	is_int(CONVERT("in", "-o", "x", "--bogus"), -EINVAL, "unknown option");
	is_str(err, "unknown option '--bogus'", "... named");
	ok(ca.to == SS_CONVERT_TRACE, "a seekscope trace by default");
	is_int(CONVERT("in", "--to", "fio", "-o", "x.iolog"), 0, "--to fio");
	ok(ca.to == SS_CONVERT_FIO && !strcmp(ca.out, "x.iolog"), "... an fio iolog");
	is_int(CONVERT("in", "--to=seekscope", "-o", "x"), 0, "--to seekscope");
	ok(ca.to == SS_CONVERT_TRACE, "... a trace");
	is_int(CONVERT("in", "--to", "blktrace", "-o", "x"), -EINVAL, "--to blktrace");
	is_str(err, "--to: unknown format 'blktrace' (valid: seekscope, fio)", "... the formats listed");
	is_int(CONVERT("in", "--to", "fio", "-o", "x", "--fs", "img"), -EINVAL, "--to fio --fs");
	ok(strstr(err, "--fs") && strstr(err, "--to fio"), "... %s", err);
}

/* ---- mkarchive -------------------------------------------------------------------------- */

static struct ss_mkarchive_args ma;
#define mo ma.g

static int mkarchive(char **v)
{
	v = keep_argv(v);
	err[0] = 0;
	return ss_mkarchive_parse(argc_of(v), v, &ma, err, sizeof(err));
}

#define MKARCHIVE(...) mkarchive((char *[]){ "mkarchive", __VA_ARGS__, NULL })

static void test_mkarchive_values(void)
{
	unsigned n = 7;
	double f = 7;

	ok(ss_mkarchive_parse_count("1", 5, &n) == 0 && n == 1, "count 1: the minimum");
	ok(ss_mkarchive_parse_count("5", 5, &n) == 0 && n == 5, "count 5 of 5: the maximum");
	is_int(ss_mkarchive_parse_count("6", 5, &n), -EINVAL, "count 6 of 5");
	is_int(ss_mkarchive_parse_count("0", 5, &n), -EINVAL, "count 0");
	is_int(ss_mkarchive_parse_count("-1", 5, &n), -EINVAL, "count -1");
	is_int(ss_mkarchive_parse_count("3x", 5, &n), -EINVAL, "count 3x");
	is_int(ss_mkarchive_parse_count("4294967297", UINT32_MAX, &n), -EINVAL,
	       "count 2^32+1 does not wrap");
	is_int(n, 5, "... failures leave the count alone");
	ok(ss_mkarchive_parse_scale("0.5", &f) == 0 && f == 0.5, "scale 0.5");
	ok(ss_mkarchive_parse_scale("1e-3", &f) == 0 && f == 1e-3, "scale 1e-3");
	ok(ss_mkarchive_parse_scale("1000", &f) == 0 && f == SS_GENTREE_MAX_SCALE,
	   "scale %g: the maximum", SS_GENTREE_MAX_SCALE);
	is_int(ss_mkarchive_parse_scale("1000.001", &f), -EINVAL, "scale past the maximum");
	is_int(ss_mkarchive_parse_scale("0", &f), -EINVAL, "scale 0");
	is_int(ss_mkarchive_parse_scale("-1", &f), -EINVAL, "scale -1");
	is_int(ss_mkarchive_parse_scale("nan", &f), -EINVAL, "scale nan");
	is_int(ss_mkarchive_parse_scale("inf", &f), -EINVAL, "scale inf");
	is_int(ss_mkarchive_parse_scale("1e-400", &f), -EINVAL, "scale underflow");
	is_int(ss_mkarchive_parse_scale("", &f), -EINVAL, "scale ''");
	is_int(ss_mkarchive_parse_scale("2x", &f), -EINVAL, "scale 2x");
	is_int(ss_mkarchive_parse_scale(NULL, &f), -EINVAL, "scale NULL");
	ok(f == SS_GENTREE_MAX_SCALE, "... failures leave the scale alone");
}

static void test_mkarchive_parse(void)
{
	is_int(MKARCHIVE("-o", "t.tar"), 0, "mkarchive -o FILE");
	ok(!strcmp(mo.path, "t.tar") && mo.seed == 1 && !mo.files && !mo.dirs && mo.scale == 0 &&
	   !mo.top, "... seed 1, the rest the generator's defaults");
	is_int(MKARCHIVE("--files", "40", "--dirs=5", "--seed", "0x2a", "--scale", "0.5", "--top",
			 "linux", "--output", "t.tar.gz"), 0, "every option");
	ok(!strcmp(mo.path, "t.tar.gz") && mo.files == 40 && mo.dirs == 5 && mo.seed == 42 &&
	   mo.scale == 0.5 && !strcmp(mo.top, "linux"), "... all taken (seed in hex)");
	is_int(MKARCHIVE("-o", "t", "--seed", "0"), 0, "--seed 0");
	is_int(mo.seed, 0, "... zero");
	is_int(MKARCHIVE("-o", "t", "--seed", "18446744073709551615"), 0, "--seed 2^64-1");
	ok(mo.seed == UINT64_MAX, "... the maximum");
	is_int(MKARCHIVE("--help"), SS_PARSE_HELP, "--help");
	is_int(MKARCHIVE("-V"), SS_PARSE_VERSION, "-V");
	ok(!ma.quiet, "not quiet by default");
	is_int(MKARCHIVE("-qo", "t"), 0, "-q");
	ok(ma.quiet, "... quiet");
	is_int(MKARCHIVE("--files", "4"), -EINVAL, "no -o");
	is_str(err, "-o FILE is required", "... said so");
	is_int(MKARCHIVE("-o", "t", "extra"), -EINVAL, "a stray operand");
	is_str(err, "unexpected argument 'extra'", "... named");
	is_int(MKARCHIVE("-o", "t", "--files", "0"), -EINVAL, "--files 0");
	ok(strstr(err, "--files") && strstr(err, "'0'"), "... %s", err);
	is_int(MKARCHIVE("-o", "t", "--dirs", "99999999999999999999"), -EINVAL, "--dirs overflow");
	ok(strstr(err, "--dirs") != NULL, "... %s", err);
	is_int(MKARCHIVE("-o", "t", "--seed", "-1"), -EINVAL, "--seed -1");
	is_str(err, "--seed: '-1' is not an unsigned 64-bit number", "... said so");
	is_int(MKARCHIVE("-o", "t", "--seed", "18446744073709551616"), -EINVAL, "--seed 2^64");
	is_int(MKARCHIVE("-o", "t", "--scale", "nan"), -EINVAL, "--scale nan");
	ok(strstr(err, "--scale") && strstr(err, "nan"), "... %s", err);
	is_int(MKARCHIVE("-o"), -EINVAL, "-o without its argument");
	is_str(err, "option '-o' needs an argument", "... said so");
	is_int(MKARCHIVE("-o", "t", "--top"), -EINVAL, "--top without its argument");
	is_str(err, "option '--top' needs an argument", "... said so");
	is_int(MKARCHIVE("-o", "t", "-f", "3"), -EINVAL, "-f: --files has no letter");
	is_str(err, "unknown option '-f'", "... named");
}


/* ---- movie ------------------------------------------------------------------------------ */

static struct ss_movie_args mva;

static int movie(char **v)
{
	v = keep_argv(v);
	err[0] = 0;
	return ss_movie_parse(argc_of(v), v, &mva, err, sizeof(err));
}

#define MOVIE(...) movie((char *[]){ "movie", __VA_ARGS__, NULL })

static void test_movie_values(void)
{
	static const struct { const char *s; int ok; int w, h; } sizes[] = {
		{ "1920x1080", 1, 1920, 1080 }, { "320x240", 1, 320, 240 },
		{ "8192x8192", 1, 8192, 8192 }, { "1921x1080", 0 }, { "1920x1081", 0 },
		{ "318x240", 0 }, { "320x238", 0 }, { "8194x1000", 0 }, { "1920", 0 },
		{ "x1080", 0 }, { "1920x", 0 }, { "-1920x1080", 0 }, { "1920X1080", 0 },
	};
	static const struct { const char *s; int ok; double v; } lengths[] = {
		{ "30", 1, 30 }, { "0.5", 1, 0.5 }, { ".5", 1, 0.5 }, { "86400", 1, 86400 },
		{ "0", 0 }, { "0.0", 0 }, { "86400.5", 0 }, { "-1", 0 }, { "1e3", 0 }, { "inf", 0 },
		{ "nan", 0 }, { "1.2.3", 0 }, { ".", 0 }, { "", 0 }, { " 3", 0 }, { "3s", 0 },
	};
	double d;
	int w, h;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		w = h = -1;
		int r = ss_movie_parse_size(sizes[i].s, &w, &h);

		if (sizes[i].ok)
			ok(r == 0 && w == sizes[i].w && h == sizes[i].h, "--size %s", sizes[i].s);
		else
			ok(r == -EINVAL && w == -1 && h == -1, "--size %s refused, untouched",
			   sizes[i].s);
	}
	for (size_t i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		d = -1;
		int r = ss_movie_parse_length(lengths[i].s, &d);

		if (lengths[i].ok)
			ok(r == 0 && d == lengths[i].v, "--length '%s'", lengths[i].s);
		else
			ok(r == -EINVAL && d == -1, "--length '%s' refused", lengths[i].s);
	}
	d = -1;
	ok(ss_movie_parse_speed("100", &d) == 0 && d == 100, "--speed 100");
	ok(ss_movie_parse_speed("0.001", &d) == 0 && d == 0.001, "--speed 0.001");
	ok(ss_movie_parse_speed("0", &d) == -EINVAL && ss_movie_parse_speed("1000000001", &d) ==
	   -EINVAL && d == 0.001, "--speed 0 and past 1e9 refused");
}

static void test_movie_parse(void)
{
	is_int(MOVIE("a.sst", "-o", "a.mp4"), 0, "movie TRACE -o OUT");
	ok(mva.nr_traces == 1 && !strcmp(mva.traces[0], "a.sst") && !strcmp(mva.out, "a.mp4") &&
	   mva.m.style == SS_MOVIE_GRID && mva.m.fps == 30 && mva.m.length_s == 30 &&
	   mva.m.speed == 0 && mva.m.width == 1920 && mva.m.height == 1080 && mva.m.cell == 8 &&
	   mva.m.fade == 10 && !mva.m.skip_idle && !mva.m.has_x_range && !mva.quiet,
	   "... defaults: grid, 30 fps, 30 s, 1920x1080, cell 8, fade 10");
	ok(mva.m.nr_panels == 2 && !strcmp(mva.m.panels[0]->name, "seeks") &&
	   !strcmp(mva.m.panels[1]->name, "tput"), "... panels seeks,tput");
	is_int(MOVIE("a", "b", "-o", "x.webm", "--style", "spindle", "--fps", "25", "--speed",
		     "2.5", "-s", "1280x720", "--cell-size", "4", "--fade", "3", "--skip-idle",
		     "-x", "1:9", "-p", "lat", "-T", "t", "-t", "256", "-q", "-l", "A", "-l", "B"),
	       0, "every option");
	ok(mva.nr_traces == 2 && mva.m.style == SS_MOVIE_SPINDLE && mva.m.fps == 25 &&
	   mva.m.length_s == 0 && mva.m.speed == 2.5 && mva.m.width == 1280 &&
	   mva.m.height == 720 && mva.m.cell == 4 && mva.m.fade == 3 && mva.m.skip_idle &&
	   mva.m.has_x_range && mva.m.x_lo_s == 1 && mva.m.x_hi_s == 9 &&
	   mva.m.nr_panels == 1 && !strcmp(mva.m.title, "t") && mva.m.seek_threshold == 256 &&
	   mva.quiet && mva.nr_labels == 2 && !strcmp(mva.labels[1], "B"), "... all taken");
	is_int(MOVIE("a", "-o", "x.mkv", "--style", "scan", "--length", "0.5", "-p", "none"), 0,
	       "--style scan --length 0.5 -p none");
	ok(mva.m.style == SS_MOVIE_SCAN && mva.m.length_s == 0.5 && mva.m.nr_panels == 0,
	   "... taken");
	is_int(MOVIE("--help"), SS_PARSE_HELP, "--help");
	is_int(MOVIE("a"), -EINVAL, "no -o");
	is_str(err, "name the output with -o OUT.mp4, .webm or .mkv", "... said so");
	is_int(movie((char *[]){ "movie", "-o", "x.mp4", NULL }), -EINVAL, "no TRACE");
	is_str(err, "no TRACE given", "... said so");
	is_int(MOVIE("a", "-o", "x.mp4", "--length", "5", "--speed", "2"), -EINVAL,
	       "--length and --speed");
	is_str(err, "--length and --speed both set the length: give one", "... said so");
	is_int(MOVIE("a", "-o", "x.mp4", "--style", "movie"), -EINVAL, "an unknown style");
	is_str(err, "bad --style 'movie' (grid, spindle or scan)", "... said so");
	is_int(MOVIE("a", "-o", "x.mp4", "--fps", "0"), -EINVAL, "--fps 0");
	is_str(err, "bad --fps '0' (frames per second, 1 to 240)", "... said so");
	is_int(MOVIE("a", "-o", "x.mp4", "--fps", "241"), -EINVAL, "--fps 241");
	is_int(MOVIE("a", "-o", "x.mp4", "--cell-size", "1"), -EINVAL, "--cell-size 1");
	is_int(MOVIE("a", "-o", "x.mp4", "--fade", "0"), -EINVAL, "--fade 0");
	is_int(MOVIE("a", "-o", "x.mp4", "-s", "641x480"), -EINVAL, "an odd width");
	is_str(err, "bad --size '641x480' (WxH, even, 320x240 to 8192x8192)", "... said so");
	is_int(MOVIE("a", "-o", "x.mp4", "-p", "io"), -EINVAL, "the io panel under the movie");
	is_str(err, "bad --panels 'io' (io is not a time panel: the animation takes its place)",
	       "... said so");
	is_int(MOVIE("a", "-o", "x.mp4", "-p", "dist"), -EINVAL, "a panel without time");
	is_int(MOVIE("a", "-o", "x.mp4", "-p", "seeks,model"), -EINVAL, "the disk model's panel");
	is_str(err, "bad --panels 'seeks,model' (model draws the disk model, which movie does not "
	       "replay: plot --disk draws it)", "... said so");
	is_int(MOVIE("a", "-o", "x.mp4", "-t", "64K"), 0, "-t 64K (the shared threshold parser)");
	is_int((long long)mva.m.seek_threshold, 128, "... 128 sectors");
	is_int(MOVIE("a", "-o", "x.mp4", "-t", "0"), 0, "-t 0");
	is_int((long long)mva.m.seek_threshold, 0, "... every I/O not contiguous");
	is_int(MOVIE("a", "-o", "x.mp4"), 0, "no -t");
	is_int((long long)mva.m.seek_threshold, 128, "... the default, 128 sectors");
	is_int(MOVIE("-V"), SS_PARSE_VERSION, "-V");
	is_int(MOVIE("a", "-o", "x.mp4", "-p", "seeks,bogus"), -EINVAL, "an unknown panel");
	is_int(MOVIE("a", "-o", "x.mp4", "-x", "5:5"), -EINVAL, "an empty --x-range");
	is_int(MOVIE("a", "-o", "x.mp4", "-l", "A", "-l", "B"), -EINVAL, "more labels than traces");
	is_int(MOVIE("a", "-o", "x.mp4", "--skip-idle=1"), -EINVAL, "--skip-idle=1");
	is_int(MOVIE("a", "b", "c", "d", "e", "f", "g", "h", "i", "-o", "x.mp4"), -EINVAL,
	       "nine traces");
	is_str(err, "too many traces (at most 8 side by side)", "... said so");
	/* the extension is the encoder's question (ss_video_check_path), asked by the command */
	is_int(MOVIE("a", "-o", "x.avi"), 0, "-o x.avi parses");
	ok(MOVIE("a", "-o", "-", "--format", "webm") == 0 && !strcmp(mva.m.format, "webm"),
	   "-o - --format webm");
	is_int(MOVIE("a", "-o", "-"), -EINVAL, "-o - without --format");
	is_str(err, "-o - (standard output) needs --format mp4, webm or mkv", "... said so");
	ok(MOVIE("a", "-o", "x.MKV", "--format=mkv") == 0, "--format agreeing with -o");
	is_int(MOVIE("a", "-o", "x.mp4", "--format", "mkv"), -EINVAL, "--format mkv -o x.mp4");
	is_int(MOVIE("a", "-o", "-", "--format", "avi"), -EINVAL, "--format avi");
	ok(MOVIE("a", "-o", "x.mp4") == 0 && !mva.m.format, "no --format: the extension's");
}

/* ---- list ------------------------------------------------------------------------------- */

static struct ss_list_args la;

static int list(char **v)
{
	v = keep_argv(v);
	err[0] = 0;
	return ss_list_parse(argc_of(v), v, &la, err, sizeof(err));
}

#define LIST(...) list((char *[]){ "list", __VA_ARGS__, NULL })

static void test_list_parse(void)
{
	is_int(list((char *[]){ "list", NULL }), 0, "list");
	ok(!la.json, "... text by default");
	ok(LIST("-j") == 0 && la.json, "list -j");
	ok(LIST("--json") == 0 && la.json, "list --json");
	is_int(LIST("--help"), SS_PARSE_HELP, "list --help");
	is_int(LIST("-V"), SS_PARSE_VERSION, "list -V");
	is_int(LIST("sda"), -EINVAL, "list OPERAND");
	is_str(err, "unexpected argument 'sda'", "... said so");
	is_int(LIST("--all"), -EINVAL, "list --all: unknown");
}

int main(void)
{
	test_help_layout();
	test_report_parse();
	test_dump_parse();
	test_convert_values();
	test_convert_parse();
	test_mkarchive_values();
	test_mkarchive_parse();
	test_movie_values();
	test_movie_parse();
	test_list_parse();
	return done_testing();
}
