// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope mkarchive: write a deterministic source-tree-like archive (collector/gentree.c),
 * the reproducible stand-in for "a kernel tarball" in untar benchmarks.  The command line is
 * mkarchive_args.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"
#include "mkarchive_args.h"

int ss_cmd_mkarchive(int argc, char **argv)
{
	struct ss_gentree_opts o;
	struct ss_gentree_stats st;
	char err[512];
	int ret;

	if ((ret = ss_mkarchive_parse(argc, argv, &o, err, sizeof(err))))
		return ss_optable_exit(ret, "mkarchive", &ss_mkarchive_help, err);
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
