// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope mkarchive's command line (mkarchive_args.h): the option table, which is also the
 * source of --help, the value parsers and the parse into struct ss_gentree_opts.  Prints
 * nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "errbuf.h"
#include "mkarchive_args.h"

enum { OPT_FILES = SS_OPT_LONG_ONLY, OPT_DIRS, OPT_SEED, OPT_SCALE, OPT_TOP };

static const struct ss_option options[] = {
	SS_OPTION_OUTPUT("archive to write (required); its type follows the name:\n"
			 ".tar .tar.gz .tar.xz .tar.bz2 .tar.zst .zip .cpio"),
	{ "files", OPT_FILES, "N", "regular files (default 6000)" },
	{ "dirs", OPT_DIRS, "N", "directories, the top one included (default one per\n"
				 "15 files: 400 for the default 6000)" },
	{ "seed", OPT_SEED, "S", "seed: the same seed gives the same bytes (default 1)" },
	{ "scale", OPT_SCALE, "F", "multiply every file size by F (default 1; ~75 MB at 1)" },
	{ "top", OPT_TOP, "NAME", "name of the top-level directory (default srctree)" },
	SS_OPTION_QUIET,
	SS_OPTION_HELP,
	SS_OPTION_VERSION,
};

const struct ss_help ss_mkarchive_help = {
	.usage = "seekscope mkarchive -o FILE [--files N] [--dirs N] [--seed S] [--scale F] [-q] "
		 "[--top NAME]",
	.description =
		"Write a deterministic archive shaped like a kernel source tree: nested\n"
		"directories, file sizes log-normal around 8 KiB plus a few of 0.5-4 MiB,\n"
		"compressible text.",
	.opts = options,
	.nr_opts = SS_NR_OPTIONS(options),
	.sections =
		"EXIT STATUS:\n"
		"  0 written, 1 the archive could not be written (nothing is left under its\n"
		"  name), 2 usage error.",
	.examples =
		"  seekscope mkarchive -o tree.tar.gz\n"
		"  seekscope mkarchive -o big.tar --files 36000 --dirs 2400 --scale 1.5\n"
		"  seekscope mkarchive -o small.tar.zst --files 300 --dirs 30 --seed 7",
};

int ss_mkarchive_parse_count(const char *s, unsigned max, unsigned *n)
{
	return ss_optarg_unsigned(s, 1, max, n) ? -EINVAL : 0;
}

int ss_mkarchive_parse_scale(const char *s, double *scale)
{
	char *end;
	double v;

	if (!s)
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !isfinite(v) || v <= 0 || v > SS_GENTREE_MAX_SCALE)
		return -EINVAL;
	*scale = v;
	return 0;
}

/* One option's value into the struct ss_gentree_opts at CTX (ss_optable_parse's TAKE). */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	struct ss_mkarchive_args *a = ctx;
	struct ss_gentree_opts *o = &a->g;

	switch (c) {
	case 'q':
		a->quiet = true;
		return 0;
	case 'o':
		o->path = arg;
		return 0;
	case OPT_FILES:
	case OPT_DIRS: {
		unsigned max = c == OPT_FILES ? SS_GENTREE_MAX_FILES : SS_GENTREE_MAX_DIRS;

		if (!ss_mkarchive_parse_count(arg, max, c == OPT_FILES ? &o->files : &o->dirs))
			return 0;
		ss_errf(err, errlen, "--%s: '%s' is not a whole number in 1..%u",
			c == OPT_FILES ? "files" : "dirs", arg, max);
		return -EINVAL;
	}
	case OPT_SEED:
		if (!ss_optarg_uint(arg, 0, 0, UINT64_MAX, &o->seed))
			return 0;
		ss_errf(err, errlen, "--seed: '%s' is not an unsigned 64-bit number", arg);
		return -EINVAL;
	case OPT_SCALE:
		if (!ss_mkarchive_parse_scale(arg, &o->scale))
			return 0;
		ss_errf(err, errlen, "--scale: '%s' is not a number in (0, %g]", arg,
			SS_GENTREE_MAX_SCALE);
		return -EINVAL;
	case OPT_TOP:
		o->top = arg;
		return 0;
	default:
		return ss_optable_unhandled(c, err, errlen);
	}
}

int ss_mkarchive_parse(int argc, char **argv, struct ss_mkarchive_args *a, char *err,
		       size_t errlen)
{
	int ret;

	memset(a, 0, sizeof(*a));
	a->g.seed = 1;
	ret = ss_optable_parse(options, SS_NR_OPTIONS(options), 0, argc, argv, take_option, a, err,
			       errlen);
	if (ret)
		return ret;
	if (optind < argc) {
		ss_errf(err, errlen, "unexpected argument '%s'", argv[optind]);
		return -EINVAL;
	}
	if (!a->g.path) {
		ss_errf(err, errlen, "-o FILE is required");
		return -EINVAL;
	}
	return 0;
}
