// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope plot: draw trace files (sector over time, seeks/s, throughput, latency, ...) into
 * a PNG, SVG or PDF; several traces side by side on shared scales.  Parse (plot_args.c) -> open
 * -> configure -> run -> draw -> one cleanup label.  The figure is graph.c (its drawing
 * graph_draw.c) and the panels.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_commands.h"
#include "diskreplay.h"
#include "graph.h"
#include "device_arg.h"
#include "html.h"
#include "outfile.h"
#include "plot_args.h"
#include "surface.h"
#include "trace_read.h"

#define PROG "seekscope plot"

/* "TRACE has no phase "NAME" to align on (its phases: a, b)" on stderr. */
static void no_such_phase(const struct ss_trace *t, const char *name)
{
	char list[256] = "";
	size_t n = 0;

	for (size_t p = 0; p < t->nr_phases && n < sizeof(list); p++)
		if (t->phases[p].kind == SS_PHASE_BEGIN)
			n += (size_t)snprintf(list + n, sizeof(list) - n, "%s%.32s", n ? ", " : "",
					      t->phases[p].name);
	fprintf(stderr, PROG ": %s has no phase \"%s\" to align on (%s%s)\n", t->path, name,
		n ? "its phases: " : "it has no phases", list);
}

/* -o *.html: the interactive page.  Returns the exit status. */
/* The traces read short (a cut file, a damaged ring), said once the picture is made: a trace
 * refused later on (a second read that differs) gets its one line alone. */
static void warn_truncated(struct ss_trace **traces, int nr, bool quiet)
{
	for (int i = 0; i < nr && !quiet; i++)
		if (traces[i]->truncated)
			fprintf(stderr, PROG ": %s: warning: %s; plotted what was recorded\n",
				traces[i]->path, traces[i]->warning);
}

static int plot_html(const struct ss_plot_args *a, struct ss_trace **traces, int nr)
{
	struct ss_html_opts o = { .g = &a->g, .max_bytes = a->html_max_bytes };
	struct ss_html_result r;
	const char *labels[SS_GRAPH_MAX_TRACES];
	char names[SS_GRAPH_MAX_TRACES][PATH_MAX], err[400];
	int ret;

	for (int i = 0; i < nr; i++)
		labels[i] = ss_plot_label(a->labels, a->nr_labels, i, traces[i]->path, names[i],
					  sizeof(names[i]));
	if ((ret = ss_html_write(a->out, &o, traces, labels, nr, &r, err, sizeof(err)))) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	if (r.dropped)
		fprintf(stderr, PROG ": %s: warning: to stay within %.0f MB the page leaves out the "
			"detail of %llu of %llu requests (%s); it shows them as cells only — for "
			"the requests there, plot a stretch such as --x-range %.3f:%.3f\n", a->out,
			(double)(a->html_max_bytes ? a->html_max_bytes : SS_HTML_MAX_BYTES_DEFAULT) / 1e6,
			(unsigned long long)r.dropped, (unsigned long long)r.requests, r.dropped_where,
			r.drop_lo_s, r.drop_hi_s > r.drop_lo_s ? r.drop_hi_s : r.drop_lo_s + 0.001);
	return 0;
}

int ss_cmd_plot(int argc, char **argv)
{
	struct ss_plot_args a;
	struct ss_trace *traces[SS_GRAPH_MAX_TRACES] = { NULL };
	struct ss_graph *g = NULL;
	struct ss_surface *surf = NULL;
	char err[400], out_default[SS_PLOT_MAX_DEFAULT_NAME + 1];
	int nr = 0, ret, status = 1;

	if ((ret = ss_plot_parse(argc, argv, &a, err, sizeof(err))))
		return ss_optable_exit(ret, "plot", &ss_plot_help, err);
	nr = a.nr_traces;
	/* a terminal is refused before the traces are read and drawn */
	if (a.out && !strcmp(a.out, "-") && ss_outfile_check(a.out, err, sizeof(err))) {
		fprintf(stderr, PROG ": %s\n", err);
		return 1;
	}
	for (int i = 0; i < nr; i++) {
		const char *path = a.traces[i];

		traces[i] = ss_trace_open(path, err, sizeof(err));
		if (!traces[i]) {
			fprintf(stderr, PROG ": %s: %s\n", path, err);
			goto cleanup;
		}
	}
	/* --align names a phase every trace must have: a misuse of that trace, exit 2 */
	for (int i = 0; a.g.align && i < nr; i++) {
		if (!ss_trace_phase_begin(traces[i], a.g.align)) {
			no_such_phase(traces[i], a.g.align);
			status = 2;
			goto cleanup;
		}
	}
	for (int i = 0; a.g.device && i < nr; i++) {
		uint32_t dev;

		if ((status = ss_device_arg_pick(PROG, traces[i], a.g.device, &dev)))
			goto cleanup;
	}
	status = 1;
	/* --disk needs each device's size to lay it onto the platter: a misuse for a trace
	 * without one (an import), exit 2 */
	for (int i = 0; a.g.has_disk && i < nr; i++) {
		struct ss_disk_replay *r = ss_disk_replay_new(&a.g.disk, traces[i], err, sizeof(err));

		if (!r) {
			fprintf(stderr, PROG ": %s: --disk: %s\n", traces[i]->path, err);
			status = errno == EINVAL ? 2 : 1;
			goto cleanup;
		}
		ss_disk_replay_free(r);
	}
	if (!a.out) {
		if (ss_plot_default_output(a.traces, nr, a.ext, out_default, sizeof(out_default))) {
			status = ss_optable_misuse("plot", "the default picture name (every TRACE's "
						   "name) is too long: name it with -o");
			goto cleanup;
		}
		a.out = out_default;
	}
	if (a.html) {
		status = plot_html(&a, traces, nr);
		if (!status)
			warn_truncated(traces, nr, a.quiet);
		goto cleanup;
	}
	if (!a.size_given)
		ss_graph_default_size(nr, ss_graph_rows_for(&a.g, traces, nr), &a.g.width,
				      &a.g.height);
	g = ss_graph_new(&a.g);
	if (!g) {
		fprintf(stderr, PROG ": %s\n", strerror(errno));
		goto cleanup;
	}
	for (int i = 0; i < nr; i++) {
		char buf[PATH_MAX];

		ret = ss_graph_add_trace(g, traces[i], ss_plot_label(a.labels, a.nr_labels, i,
								      traces[i]->path, buf,
								      sizeof(buf)));
		if (ret) {
			fprintf(stderr, PROG ": %s\n", strerror(-ret));
			goto cleanup;
		}
	}
	if ((ret = ss_graph_run(g, err, sizeof(err)))) {
		if (ret == -EINVAL && a.size_given)   /* the panels do not fit into --size */
			status = ss_optable_misuse("plot", "%s", err);
		else
			fprintf(stderr, PROG ": %s\n", err);
		goto cleanup;
	}
	surf = ss_surface_new(a.out, a.fmt, a.g.width, a.g.height, err,
			      sizeof(err));
	if (!surf) {
		fprintf(stderr, PROG ": %s\n", err);
		goto cleanup;
	}
	/* a window past a trace's end is drawn (with a note) and warned about, not refused:
	 * a series of windows over traces of different lengths is a normal thing to draw */
	for (int i = 0; i < nr && !a.quiet; i++)
		if (ss_graph_outside(g, i))
			fprintf(stderr, PROG ": %s: warning: %s\n", traces[i]->path,
				ss_graph_outside(g, i));
	ss_graph_draw(g, ss_surface_cairo(surf));
	if ((ret = ss_surface_finish(surf, err, sizeof(err)))) {
		fprintf(stderr, PROG ": %s: %s\n", a.out, err);
		goto cleanup;
	}
	status = 0;
	warn_truncated(traces, nr, a.quiet);
cleanup:
	ss_surface_free(surf);
	ss_graph_free(g);
	for (int i = 0; i < nr; i++)
		ss_trace_close(traces[i]);
	return status;
}
