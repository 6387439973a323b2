// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A trace's report as `seekscope report` prints it without options (text, then JSON), the
 * trace opened the usual way or lazily (trace_read.h: ss_trace_open_lazy; the pass run again
 * when it asks, -EAGAIN, as cmd_report.c does): for the tests and the fuzz target that
 * compare both ways.
 */
#ifndef SS_TEST_REPORT_BYTES_H
#define SS_TEST_REPORT_BYTES_H
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "report_fmt.h"
#include "stats.h"
#include "trace_read.h"

/* PATH's report into *OUT (malloc'd, *LEN bytes), lazily or not; *RERUN: the lazy pass asked
 * to run again.  0, -EIO (the trace did not open), or the pass's negative errno. */
__attribute__((unused))
static int report_bytes(const char *path, bool lazy, char **out, size_t *len, bool *rerun)
{
	struct report_opts ro = { .seek_threshold = 128, .top_procs = REPORT_PROCS_DEFAULT };
	struct ss_stats_opts so;
	struct ss_stats *st = NULL;
	struct ss_trace *t;
	char err[256];
	FILE *f;
	int ret;

	*out = NULL;
	*len = 0;
	*rerun = false;
	t = lazy ? ss_trace_open_lazy(path, err, sizeof(err)) : ss_trace_open(path, err, sizeof(err));
	if (!t)
		return -EIO;
	ss_stats_opts_init(&so);
	so.procs = so.dirs = so.causes = so.zones = true;
	so.only = &ro.only;
	if (!(st = ss_stats_new(t, &so))) {
		ret = -ENOMEM;
		goto out;
	}
	if ((ret = ss_stats_run(st, t)) == -EAGAIN && lazy && !ss_trace_meta_pending(t)) {
		*rerun = true;
		ss_stats_free(st);
		if (!(st = ss_stats_new(t, &so))) {
			ret = -ENOMEM;
			goto out;
		}
		ret = ss_stats_run(st, t);
	}
	if (ret)
		goto out;
	if (!(f = open_memstream(out, len))) {
		ret = -ENOMEM;
		goto out;
	}
	ret = report_print_text(f, t, st, &ro);
	if (!ret)
		ret = report_print_json(f, t, st, &ro);
	fclose(f);
	if (ret) {
		free(*out);
		*out = NULL;
	}
out:
	ss_stats_free(st);
	ss_trace_close(t);
	return ret;
}

#endif
