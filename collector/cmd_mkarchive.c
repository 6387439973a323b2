/*
 * seekscope mkarchive: write a deterministic source-tree-like archive (collector/gentree.c),
 * the reproducible stand-in for "a kernel tarball" in untar benchmarks.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "gentree.h"

enum { OPT_FILES = 256, OPT_DIRS, OPT_SEED, OPT_SCALE, OPT_TOP };

/* One table drives both getopt_long() and the help text, so they cannot drift apart. */
static const struct {
	const char *name;
	int val;                /* short option letter, or an OPT_* code for long-only ones */
	const char *arg;        /* NULL: takes no argument */
	const char *help;
} options[] = {
	{ "output", 'o', "FILE", "archive to write (required); its type follows the name:\n"
				 ".tar .tar.gz .tar.xz .tar.bz2 .tar.zst .zip .cpio" },
	{ "files", OPT_FILES, "N", "regular files (default 6000)" },
	{ "dirs", OPT_DIRS, "N", "directories, the top one included (default 400)" },
	{ "seed", OPT_SEED, "S", "seed: the same seed gives the same bytes (default 1)" },
	{ "scale", OPT_SCALE, "F", "multiply every file size by F (default 1; ~75 MB at 1)" },
	{ "top", OPT_TOP, "NAME", "name of the top-level directory (default srctree)" },
	{ "help", 'h', NULL, "show this help" },
};
#define NOPTIONS (sizeof(options) / sizeof(options[0]))

static void usage(FILE *f)
{
	fprintf(f, "USAGE: seekscope mkarchive -o FILE [--files N] [--dirs N] [--seed S] "
		   "[--scale F] [--top NAME]\n\n"
		   "Write a deterministic archive shaped like a kernel source tree: nested\n"
		   "directories, file sizes log-normal around 8 KiB plus a few of 0.5-4 MiB,\n"
		   "compressible text.\n\nOPTIONS:\n");
	for (size_t i = 0; i < NOPTIONS; i++) {
		char left[40];

		if (options[i].val < 256)
			snprintf(left, sizeof(left), "-%c, --%s%s%s", options[i].val, options[i].name,
				 options[i].arg ? " " : "", options[i].arg ? options[i].arg : "");
		else
			snprintf(left, sizeof(left), "    --%s %s", options[i].name, options[i].arg);
		/* continuation lines of the help text line up under its first line */
		fprintf(f, "  %-22s", left);
		for (const char *h = options[i].help; *h; ) {
			int n = (int)strcspn(h, "\n");

			fprintf(f, "%.*s\n", n, h);
			h += n;
			if (*h == '\n' && *++h)
				fprintf(f, "%24s", "");
		}
	}
	fprintf(f, "\nEXAMPLES:\n"
		   "  seekscope mkarchive -o tree.tar.gz\n"
		   "  seekscope mkarchive -o big.tar --files 36000 --dirs 2400 --scale 1.5\n"
		   "  seekscope mkarchive -o small.tar.zst --files 300 --dirs 30 --seed 7\n");
}

static int parse_uint(const char *opt, const char *s, unsigned long max, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || s[strspn(s, " \t")] == '-' || v < 1 || v > max) {
		fprintf(stderr, "seekscope mkarchive: --%s: '%s' is not a whole number in 1..%lu\n",
			opt, s, max);
		return -1;
	}
	*out = v;
	return 0;
}

int ss_cmd_mkarchive(int argc, char **argv)
{
	struct option lopts[NOPTIONS + 1];
	struct ss_gentree_opts o = { .seed = 1 };
	struct ss_gentree_stats st;
	char shorts[2 * NOPTIONS + 2], err[512], *end;
	size_t ns = 0;
	unsigned long v;
	int c, ret;

	shorts[ns++] = ':';   /* report a missing argument as ':' rather than '?' */
	for (size_t i = 0; i < NOPTIONS; i++) {
		lopts[i] = (struct option){ options[i].name,
					    options[i].arg ? required_argument : no_argument,
					    NULL, options[i].val };
		if (options[i].val < 256) {
			shorts[ns++] = (char)options[i].val;
			if (options[i].arg)
				shorts[ns++] = ':';
		}
	}
	shorts[ns] = '\0';
	memset(&lopts[NOPTIONS], 0, sizeof(lopts[NOPTIONS]));

	optind = 0;   /* GNU: full re-initialisation, the command may run more than once */
	while ((c = getopt_long(argc, argv, shorts, lopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.path = optarg;
			break;
		case OPT_FILES:
			if (parse_uint("files", optarg, SS_GENTREE_MAX_FILES, &v))
				goto misuse;
			o.files = (unsigned)v;
			break;
		case OPT_DIRS:
			if (parse_uint("dirs", optarg, SS_GENTREE_MAX_DIRS, &v))
				goto misuse;
			o.dirs = (unsigned)v;
			break;
		case OPT_SEED:
			errno = 0;
			o.seed = strtoull(optarg, &end, 0);
			if (errno || end == optarg || *end || optarg[strspn(optarg, " \t")] == '-') {
				fprintf(stderr, "seekscope mkarchive: --seed: '%s' is not an unsigned "
					"64-bit number\n", optarg);
				goto misuse;
			}
			break;
		case OPT_SCALE:
			errno = 0;
			o.scale = strtod(optarg, &end);
			if (errno || end == optarg || *end || !isfinite(o.scale) || o.scale <= 0 ||
			    o.scale > SS_GENTREE_MAX_SCALE) {
				fprintf(stderr, "seekscope mkarchive: --scale: '%s' is not a number in "
					"(0, %g]\n", optarg, SS_GENTREE_MAX_SCALE);
				goto misuse;
			}
			break;
		case OPT_TOP:
			o.top = optarg;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case ':':
			fprintf(stderr, "seekscope mkarchive: %s needs an argument\n", argv[optind - 1]);
			goto misuse;
		default:
			fprintf(stderr, "seekscope mkarchive: unknown option '%s'\n", argv[optind - 1]);
			goto misuse;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "seekscope mkarchive: unexpected argument '%s'\n", argv[optind]);
		goto misuse;
	}
	if (!o.path) {
		fprintf(stderr, "seekscope mkarchive: -o FILE is required\n");
		goto misuse;
	}

	ret = ss_gentree_write_stats(&o, &st, err, sizeof(err));
	if (ret == -EINVAL) {   /* options the library refused, e.g. an unknown extension */
		fprintf(stderr, "seekscope mkarchive: %s\n", err);
		goto misuse;
	}
	if (ret) {
		fprintf(stderr, "seekscope mkarchive: %s\n", err[0] ? err : strerror(-ret));
		return 1;
	}
	printf("wrote %s: %llu files in %llu directories (depth %u), %.1f MB of data, "
	       "%.1f MB archive\n", o.path, (unsigned long long)st.files,
	       (unsigned long long)st.dirs, st.max_depth, (double)st.data_bytes / 1e6,
	       (double)st.archive_bytes / 1e6);
	return 0;

misuse:
	fprintf(stderr, "see 'seekscope mkarchive --help'\n");
	return 2;
}
