// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope report: summarise trace files as text or JSON Lines.  Parse options, then for each
 * file: open, one statistics pass (render/stats.h), print.  A file is printed only once its pass
 * succeeded, so a corrupt file never leaves half a report behind.  The command line is
 * report_args.c.
 *
 * A report needs nothing of a trace's metadata before its pass unless it picks a device, lays
 * the requests onto a disk model or keeps some processes: it then opens the trace lazily
 * (trace_read.h: ss_trace_open_lazy), so that an imported trace is read once, its metadata found
 * by the pass.  Whatever goes wrong then (a damaged file, a pid named twice over its requests)
 * is done again the usual way, so that messages and figures are the same either way.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "render_commands.h"
#include "device_arg.h"
#include "report_args.h"
#include "stats.h"
#include "trace_read.h"

/* Whether RO's report may open PATH lazily (above): not a stream, which a second opening
 * would find empty; SEEKSCOPE_ONEPASS=never: not. */
static bool one_pass(const char *path, const struct report_opts *ro)
{
	const char *v = getenv("SEEKSCOPE_ONEPASS");
	struct stat sb;

	if ((v && !strcmp(v, "never")) || ro->device || ro->has_disk ||
	    ss_task_spec_active(&ro->only) || !strcmp(path, "-"))
		return false;
	/* a blktrace set's prefix names no file */
	return stat(path, &sb) < 0 || S_ISREG(sb.st_mode) || S_ISDIR(sb.st_mode);
}

static int report_file(const char *path, const struct report_opts *ro)
{
	struct ss_disk_replay *disk = NULL;
	bool lazy = one_pass(path, ro);
	struct ss_stats_opts so;
	struct ss_stats *st = NULL;
	struct ss_trace *t;
	char err[256] = "";
	int ret;

again:
	t = lazy ? ss_trace_open_lazy(path, err, sizeof(err)) : ss_trace_open(path, err, sizeof(err));
	if (!t) {
		fprintf(stderr, "seekscope report: %s: %s\n", path, err[0] ? err : strerror(errno));
		return 1;
	}
	lazy = lazy && ss_trace_meta_pending(t);       /* a format that opens so */
	ss_stats_opts_init(&so);
	so.seek_threshold = ro->seek_threshold;
	so.procs = true;
	so.dirs = true;
	so.causes = true;
	so.zones = true;
	so.only = &ro->only;
	so.one_device = ro->device != NULL;
	if (ro->device && (ret = ss_device_arg_pick("seekscope report", t, ro->device, &so.device)))
		goto cleanup;
	/* a trace the model cannot lay onto a platter is a misuse of --disk for it: 2 */
	if (ro->has_disk && !(so.disk = disk = ss_disk_replay_new(&ro->disk, t, err, sizeof(err)))) {
		fprintf(stderr, "seekscope report: %s: --disk: %s\n", path, err);
		ret = errno == EINVAL ? 2 : 1;
		goto cleanup;
	}
	st = ss_stats_new(t, &so);
	if (!st) {
		fprintf(stderr, "seekscope report: %s: %s\n", path, strerror(errno));
		ret = 1;
		goto cleanup;
	}
	ret = ss_stats_run(st, t);
	if (ret == -EAGAIN && lazy && !ss_trace_meta_pending(t)) {
		/* a pid's name changed over its requests: again, the names known */
		ss_stats_free(st);
		lazy = false;
		if (!(st = ss_stats_new(t, &so))) {
			fprintf(stderr, "seekscope report: %s: %s\n", path, strerror(errno));
			ret = 1;
			goto cleanup;
		}
		ret = ss_stats_run(st, t);
	}
	if (ret && lazy) {
		ss_stats_free(st);
		st = NULL;
		ss_trace_close(t);
		lazy = false;
		goto again;
	}
	if (ret) {
		const char *why = ss_trace_error(t);

		fprintf(stderr, "seekscope report: %s: %s\n", path,
			why && *why ? why : strerror(-ret));
		ret = 1;
		goto cleanup;
	}
	ret = ro->json ? report_print_json(stdout, t, st, ro) : report_print_text(stdout, t, st, ro);
	if (ret) {
		fprintf(stderr, "seekscope report: %s: writing the report: %s\n", path,
			strerror(-ret));
		ret = 1;
	}
cleanup:
	ss_stats_free(st);
	ss_disk_replay_free(disk);
	ss_trace_close(t);
	return ret;
}

int ss_cmd_report(int argc, char **argv)
{
	struct ss_report_args a;
	char err[512];
	int ret, status = 0;

	if ((ret = ss_report_parse(argc, argv, &a, err, sizeof(err))))
		return ss_optable_exit(ret, "report", &ss_report_help, err);
	for (int i = 0; i < a.nr_files; i++) {
		if (i > 0 && !a.ro.json)
			putchar('\n');
		if ((ret = report_file(a.files[i], &a.ro)) > status)
			status = ret;
		fflush(stdout);
	}
	return status;
}
