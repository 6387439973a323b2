// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope plot: draw trace files (sector over time, seeks/s, throughput, latency, ...) into
 * a PNG, SVG or PDF; several traces side by side on shared scales.  Parse (plot_args.c) -> open
 * -> configure -> run -> draw -> one cleanup label.  The drawing itself is graph.c and the panels.
 */
#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render_commands.h"
#include "graph.h"
#include "device_arg.h"
#include "plot_args.h"
#include "surface.h"
#include "trace_read.h"

#define PROG "seekscope plot"

/* Default output: the first trace's file name with .png, in the current directory. */
static char *default_output(const char *trace)
{
	char *copy = strdup(trace), *base, *dot, *out = NULL;

	if (!copy)
		return NULL;
	base = basename(copy);
	dot = strrchr(base, '.');
	if (dot && dot != base)
		*dot = 0;
	if (asprintf(&out, "%s.png", base) < 0)
		out = NULL;
	free(copy);
	return out;
}

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

int ss_cmd_plot(int argc, char **argv)
{
	struct ss_plot_args a;
	struct ss_trace *traces[SS_GRAPH_MAX_TRACES] = { NULL };
	struct ss_graph *g = NULL;
	struct ss_surface *surf = NULL;
	char err[400], *out_alloc = NULL;
	int nr = 0, ret, status = 1, fmt;

	if ((ret = ss_plot_parse(argc, argv, &a, err, sizeof(err))))
		return ss_optable_exit(ret, "plot", &ss_plot_help, err);
	nr = a.nr_traces;
	for (int i = 0; i < nr; i++) {
		const char *path = a.traces[i];

		traces[i] = ss_trace_open(path, err, sizeof(err));
		if (!traces[i]) {
			fprintf(stderr, PROG ": %s: %s\n", path, err);
			goto cleanup;
		}
		if (traces[i]->truncated)
			fprintf(stderr, PROG ": %s: warning: %s; plotting what was recorded\n", path,
				traces[i]->warning);
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
	if (!a.out) {
		if (!(out_alloc = default_output(a.traces[0]))) {
			fprintf(stderr, PROG ": out of memory\n");
			goto cleanup;
		}
		a.out = out_alloc;
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
		char *copy = NULL;
		const char *label = i < a.nr_labels ? a.labels[i] : NULL;

		if (!label && (copy = strdup(traces[i]->path)))
			label = basename(copy);
		ret = ss_graph_add_trace(g, traces[i], label);
		free(copy);
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
	fmt = ss_out_format_from_path(a.out);
	surf = ss_surface_new(a.out, (enum ss_out_format)fmt, a.g.width, a.g.height, err,
			      sizeof(err));
	if (!surf) {
		fprintf(stderr, PROG ": %s\n", err);
		goto cleanup;
	}
	/* a window past a trace's end is drawn (with a note) and warned about, not refused:
	 * a series of windows over traces of different lengths is a normal thing to draw */
	for (int i = 0; i < nr; i++)
		if (ss_graph_outside(g, i))
			fprintf(stderr, PROG ": %s: warning: %s\n", traces[i]->path,
				ss_graph_outside(g, i));
	ss_graph_draw(g, ss_surface_cairo(surf));
	if ((ret = ss_surface_finish(surf, err, sizeof(err)))) {
		fprintf(stderr, PROG ": %s: %s\n", a.out, err);
		goto cleanup;
	}
	status = 0;
cleanup:
	ss_surface_free(surf);
	ss_graph_free(g);
	for (int i = 0; i < nr; i++)
		ss_trace_close(traces[i]);
	free(out_alloc);
	return status;
}
