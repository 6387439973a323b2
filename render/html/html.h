// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * `seekscope plot TRACE... -o report.html`: one self-contained HTML file — the viewer's
 * JavaScript and CSS (render/html/web/, embedded into the binary at build time) and every byte
 * of data inline, nothing fetched — showing what the static plot shows, zoomable down to single
 * requests.  The data are pre-aggregated at several resolutions and the full request detail is
 * embedded as long as the file stays within its size budget; past the budget the detail of the
 * densest stretches is left out and the result says which (docs/html-viewer.md).
 *
 *   struct ss_html_opts o = { .g = &graph_opts, .max_bytes = 0 };
 *   struct ss_html_result r;
 *   ss_html_write("report.html", &o, traces, labels, nr, &r, err, sizeof(err));
 *
 * Library code: 0 or -errno with one line in err; never prints.  Memory is bounded by the
 * output (the compressed data) and a few fixed grids, not by the number of events.
 */
#ifndef SS_HTML_H
#define SS_HTML_H

#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "trace_read.h"

#define SS_HTML_MAX_BYTES_DEFAULT (20u * 1000 * 1000)   /* 20 MB */
#define SS_HTML_MIN_BYTES         (1u * 1000 * 1000)

struct ss_html_opts {
	/* Everything the static plot takes: the panels (shown at first; the others can be
	 * switched on in the page), title, --align, --x-range, --y-range, units, seek threshold,
	 * rolling.  Size is ignored: the page fills the browser window. */
	const struct ss_graph_opts *g;
	size_t max_bytes;                 /* the file's budget; 0: SS_HTML_MAX_BYTES_DEFAULT */
};

struct ss_html_result {
	size_t bytes;                     /* the file written */
	uint64_t requests;                /* data requests in the shown window, all traces */
	uint64_t dropped;                 /* of them, those whose detail was left out */
	/* The longest stretch left out, seconds after its trace's start (for an --x-range
	 * hint), and a list of the stretches ("agcount=4 1.20-3.40 s, ..."). */
	double drop_lo_s, drop_hi_s;
	char dropped_where[320];
};

/*
 * Write the page for TR[0..NR) (labels: NULL or NR names, NULL entries meaning the file's
 * name) to PATH through collector/core/outfile.h (replaced only when complete).  0, or -errno
 * with one line in err: ENOENT when a trace lacks the --align phase, EFBIG when even the
 * overview without any request detail exceeds the budget, what reading or writing said.
 */
int ss_html_write(const char *path, const struct ss_html_opts *o, struct ss_trace *const *tr,
		  const char *const *labels, int nr, struct ss_html_result *res, char *err,
		  size_t errlen);

#endif
