// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope mkarchive: write a deterministic source-tree-like archive (collector/gentree.c),
 * the reproducible stand-in for "a kernel tarball" in untar benchmarks.  The command line is
 * mkarchive_args.c.  On a terminal, a run longer than a second shows its progress on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "commands.h"
#include "mkarchive_args.h"

#define PROGRESS_AFTER_NS 1000000000ull   /* quiet for runs shorter than this */
#define PROGRESS_EVERY_NS 100000000ull    /* then at most ten updates a second */

struct progress {
	uint64_t start_ns, last_ns;
	int shown;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void on_progress(void *ctx, uint64_t done, uint64_t total)
{
	struct progress *p = ctx;
	uint64_t t;

	if (done % 64 && done != total)   /* the clock need not be read for every file */
		return;
	t = now_ns();
	if (t - p->start_ns < PROGRESS_AFTER_NS || (p->shown && t - p->last_ns < PROGRESS_EVERY_NS))
		return;
	p->last_ns = t;
	p->shown = 1;
	fprintf(stderr, "\r\033[Kseekscope mkarchive: %llu of %llu files (%.0f %%), %.0f s",
		(unsigned long long)done, (unsigned long long)total,
		total ? 100.0 * (double)done / (double)total : 100.0,
		(double)(t - p->start_ns) / 1e9);
}

int ss_cmd_mkarchive(int argc, char **argv)
{
	struct ss_mkarchive_args a;
	struct ss_gentree_stats st;
	struct progress p = { 0 };
	char err[512];
	int ret;

	if ((ret = ss_mkarchive_parse(argc, argv, &a, err, sizeof(err))))
		return ss_optable_exit(ret, "mkarchive", &ss_mkarchive_help, err);
	if (!a.quiet && isatty(STDERR_FILENO)) {
		p.start_ns = now_ns();
		a.g.progress = on_progress;
		a.g.progress_ctx = &p;
	}
	ret = ss_gentree_write_stats(&a.g, &st, err, sizeof(err));
	if (p.shown)
		fprintf(stderr, "\r\033[K");
	if (ret == -EINVAL)   /* options the library refused, e.g. an unknown extension */
		return ss_optable_misuse("mkarchive", "%s", err);
	if (ret) {
		fprintf(stderr, "seekscope mkarchive: %s\n", err[0] ? err : strerror(-ret));
		return 1;
	}
	if (a.quiet)
		return 0;
	printf("wrote %s: %llu files in %llu directories (depth %u), %.1f MB of data, "
	       "%.1f MB archive\n", a.g.path, (unsigned long long)st.files,
	       (unsigned long long)st.dirs, st.max_depth, (double)st.data_bytes / 1e6,
	       (double)st.archive_bytes / 1e6);
	return 0;
}
