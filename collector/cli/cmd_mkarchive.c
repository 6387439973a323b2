// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope mkarchive: write a deterministic source-tree-like archive (collector/gentree.c),
 * the reproducible stand-in for "a kernel tarball" in untar benchmarks.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "gentree.h"
#include "optable.h"

enum { OPT_FILES = SS_OPT_LONG_ONLY, OPT_DIRS, OPT_SEED, OPT_SCALE, OPT_TOP };

/* One table drives both getopt_long() and the help text, so they cannot drift apart. */
static const struct ss_option options[] = {
	{ "output", 'o', "FILE", "archive to write (required); its type follows the name:\n"
				 ".tar .tar.gz .tar.xz .tar.bz2 .tar.zst .zip .cpio" },
	{ "files", OPT_FILES, "N", "regular files (default 6000)" },
	{ "dirs", OPT_DIRS, "N", "directories, the top one included (default 400)" },
	{ "seed", OPT_SEED, "S", "seed: the same seed gives the same bytes (default 1)" },
	{ "scale", OPT_SCALE, "F", "multiply every file size by F (default 1; ~75 MB at 1)" },
	{ "top", OPT_TOP, "NAME", "name of the top-level directory (default srctree)" },
	{ "help", 'h', NULL, "show this help" },
};

static void usage(FILE *f)
{
	fprintf(f, "USAGE: seekscope mkarchive -o FILE [--files N] [--dirs N] [--seed S] "
		   "[--scale F] [--top NAME]\n\n"
		   "Write a deterministic archive shaped like a kernel source tree: nested\n"
		   "directories, file sizes log-normal around 8 KiB plus a few of 0.5-4 MiB,\n"
		   "compressible text.\n\nOPTIONS:\n");
	ss_optable_help(f, options, SS_NR_OPTIONS(options));
	fprintf(f, "\nEXAMPLES:\n"
		   "  seekscope mkarchive -o tree.tar.gz\n"
		   "  seekscope mkarchive -o big.tar --files 36000 --dirs 2400 --scale 1.5\n"
		   "  seekscope mkarchive -o small.tar.zst --files 300 --dirs 30 --seed 7\n");
}

/* --files / --dirs: 1..MAX; 0, or the exit status with the reason printed. */
static int parse_count(const char *opt, const char *s, unsigned max, unsigned *out)
{
	if (ss_optarg_unsigned(s, 1, max, out))
		return ss_optable_misuse("mkarchive", "--%s: '%s' is not a whole number in 1..%u",
					 opt, s, max);
	return 0;
}

int ss_cmd_mkarchive(int argc, char **argv)
{
	struct ss_gentree_opts o = { .seed = 1 };
	struct ss_gentree_stats st;
	struct ss_optable t;
	char err[512], *end;
	int c, ret;

	if (ss_optable_init(&t, options, SS_NR_OPTIONS(options), 0)) {
		fprintf(stderr, "seekscope mkarchive: internal error: bad option table\n");
		return 1;
	}
	while ((c = ss_optable_next(&t, argc, argv)) != -1) {
		switch (c) {
		case 'o':
			o.path = optarg;
			break;
		case OPT_FILES:
			if ((ret = parse_count("files", optarg, SS_GENTREE_MAX_FILES, &o.files)))
				return ret;
			break;
		case OPT_DIRS:
			if ((ret = parse_count("dirs", optarg, SS_GENTREE_MAX_DIRS, &o.dirs)))
				return ret;
			break;
		case OPT_SEED:
			if (ss_optarg_uint(optarg, 0, 0, UINT64_MAX, &o.seed))
				return ss_optable_misuse("mkarchive", "--seed: '%s' is not an unsigned "
							 "64-bit number", optarg);
			break;
		case OPT_SCALE:
			errno = 0;
			o.scale = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(o.scale) || o.scale <= 0 ||
			    o.scale > SS_GENTREE_MAX_SCALE)
				return ss_optable_misuse("mkarchive", "--scale: '%s' is not a number in "
							 "(0, %g]", optarg, SS_GENTREE_MAX_SCALE);
			break;
		case OPT_TOP:
			o.top = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			ss_optable_error(&t, c, argv, err, sizeof(err));
			return ss_optable_misuse("mkarchive", "%s", err);
		}
	}
	if (optind < argc)
		return ss_optable_misuse("mkarchive", "unexpected argument '%s'", argv[optind]);
	if (!o.path)
		return ss_optable_misuse("mkarchive", "-o FILE is required");

	ret = ss_gentree_write_stats(&o, &st, err, sizeof(err));
	if (ret == -EINVAL)   /* options the library refused, e.g. an unknown extension */
		return ss_optable_misuse("mkarchive", "%s", err);
	if (ret) {
		fprintf(stderr, "seekscope mkarchive: %s\n", err[0] ? err : strerror(-ret));
		return 1;
	}
	printf("wrote %s: %llu files in %llu directories (depth %u), %.1f MB of data, "
	       "%.1f MB archive\n", o.path, (unsigned long long)st.files,
	       (unsigned long long)st.dirs, st.max_depth, (double)st.data_bytes / 1e6,
	       (double)st.archive_bytes / 1e6);
	return 0;
}
