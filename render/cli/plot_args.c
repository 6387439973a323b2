// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope plot's command line (plot_args.h): the option table, which is also the source of
 * --help, the parsers of the option values and the parse into struct ss_plot_args.  Prints
 * nothing.
 */
#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "disk_opt.h"
#include "errbuf.h"
#include "html.h"
#include "panel_registry.h"
#include "device_arg.h"
#include "plot_args.h"
#include "render_args.h"
#include "surface.h"
#include "ticks.h"

#define PROG "seekscope plot"

/* --panels' help: the default set, then one line per registered panel. */
static void panels_help(char *buf, size_t len)
{
	size_t n = 0, w = 0;
	char defaults[128];

	for (size_t i = 0; i < ss_panels_count(); i++)
		if (strlen(ss_panels_at(i)->name) > w)
			w = strlen(ss_panels_at(i)->name);
	ss_panels_names(defaults, sizeof(defaults), true);
	n += (size_t)snprintf(buf, len, "top to bottom (default %s)", defaults);
	for (size_t i = 0; i < ss_panels_count() && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "\n%-*s %s", (int)w, ss_panels_at(i)->name,
				      ss_panels_at(i)->help);
}

enum { OPT_ALIGN = SS_OPT_LONG_ONLY, OPT_DISK, OPT_HTML_MAX, OPT_COLOR_BY, OPT_GROUPS, OPT_PID,
       OPT_COMM, OPT_FORMAT };

/* What plot writes: --format's names, the extensions of -o. */
static const struct {
	const char *name;
	enum ss_out_format fmt;   /* a picture's surface; unused for html */
	bool html;
} formats[] = {
	{ "png", SS_OUT_PNG, false },
	{ "svg", SS_OUT_SVG, false },
	{ "pdf", SS_OUT_PDF, false },
	{ "html", SS_OUT_PNG, true },
};
#define NR_FORMATS (sizeof(formats) / sizeof(formats[0]))

static const struct ss_option options[] = {
	SS_OPTION_OUTPUT("picture to write: .png, .svg or .pdf picks the\n"
			 "format; .html writes the interactive viewer;\n"
			 "- is standard output (with --format)\n"
			 "(default: every TRACE's name, joined by\n"
			 "-vs-, with .png: a.png, a-vs-b.png)"),
	{ "format", OPT_FORMAT, "FMT", "png, svg, pdf or html: the output's format, needed\n"
				       "with -o -; else the extension of -o says it" },
	SS_OPTION_LABEL,
	{ "panels", 'p', "LIST", NULL, panels_help },
	{ "title", 'T', "TITLE", "title above the plots" },
	{ "size", 's', "WxH", "picture size in pixels (PDF: points); default\n"
			      "1600 wide for one trace, 1100 more per extra trace" },
	{ "x-range", 'x', "A:B", "show seconds A to B after each trace's start; the table\n"
				 "and the seek distances summarise only that window" },
	{ "align", OPT_ALIGN, "PHASE", "line the traces up on the start of PHASE (e.g.\n"
				       "extract) instead of their start; time is counted\n"
				       "from there and what came before is not drawn" },
	SS_OPTION_DEVICE(SS_DEVICE_ARG_HELP "; without it, each\n"
			 "device of a trace gets its own io panel"),
	{ "y-range", 'y', "A:B", "device offsets in the io panel: sectors, or bytes\n"
				 "with K, M, G, T (binary), e.g. 1G:2G; default: the\n"
				 "whole filesystem when the trace has zones, else\n"
				 "the range the I/O touched" },
	{ "units", 'u', "UNIT", "offset axis: auto, sectors, mib or gib" },
	SS_OPTION_SEEK_THRESHOLD,
	{ "rolling", 'r', "N", "smooth time series: moving average over N bins" },
	{ "color-by", OPT_COLOR_BY, "WHAT", "io panel colours: class (default: the request\n"
					    "classes) or process (whose request it is), dir\n"
					    "(the directory under the mapped DIR whose file it\n"
					    "holds; dir:DEPTH for deeper ones) or file" },
	{ "groups", OPT_GROUPS, "N", "with --color-by: colour the N processes,\n"
				     "directories or files with most requests\n"
				     "(default 8; 10 colours at most; 0: all), the\n"
				     "rest grey (\"other\"); --processes is the same" },
	SS_OPTION_PROCESSES,
	{ "pid", OPT_PID, "PID", "draw and count only the requests of process PID\n"
				 "(repeatable)" },
	{ "comm", OPT_COMM, "NAME", "draw and count only the requests of processes named\n"
				    "NAME, a glob (\"tar\", \"kworker*\"; repeatable)" },
	{ "disk", OPT_DISK, SS_DISK_OPT_ARG, SS_DISK_OPT_HELP ";\n"
					      "adds the model panel (modelled busy time) and a\n"
					      "\"modelled s\" column to the table" },
	{ "html-max", OPT_HTML_MAX, "MB", "size budget of an .html page (default 20); past\n"
					  "it the detail of the densest stretches is left\n"
					  "out (zoom there with --x-range instead)" },
	SS_OPTION_QUIET,
	SS_OPTION_HELP,
	SS_OPTION_VERSION,
};

const struct ss_help ss_plot_help = {
	.usage = PROG " TRACE... [-o OUT.png|.svg|.pdf|.html] [-l LABEL]... [OPTIONS]\n"
		 "       " PROG " TRACE... -o - --format png|svg|pdf|html [OPTIONS] >OUT",
	.description =
		"Draw where on the disk the I/O of each trace went and how much seeking it\n"
		"cost.  Several TRACEs are drawn side by side on shared time and value scales,\n"
		"with a summary table: totals beside rates per trace, phase and extract+sync\n"
		"(time to durable); the lower duration, seeks and modelled s (--disk) of runs\n"
		"of the same work highlighted (same archive, --fsync, --repeat and phase; at\n"
		"least 100 I/Os or 1 MB; no lost events).",
	.opts = options,
	.nr_opts = SS_NR_OPTIONS(options),
	.sections =
		"Seek: an I/O is a seek when its start sector is more than the threshold (128\n"
		"sectors = 64 KiB by default) away, in either direction, from where the previous\n"
		"I/O on the same device ended.  Evaluated on ISSUE events (block_rq_issue, the\n"
		"order the device receives requests), as seekwatcher does.  Flushes and discards\n"
		"are ignored (a discard moves no head: SSDs, thin and loop devices get them);\n"
		"write-zeroes and other ops with sectors are evaluated like writes.\n"
		"\nThe io panel plots each request with sectors at its issue time across the\n"
		"sectors it covers, by class (rwbs op): data writes (W) blue, data reads (R)\n"
		"orange, metadata (M flag) black, reads and writes in the log/journal zone\n"
		"green, discards (D) reddish purple, write-zeroes and other ops (N, DE) sky\n"
		"blue; flushes and FUA writes as ticks along the top, never as I/O at sector 0.\n"
		"A pixel cell with several classes is shared among them, so none hides another;\n"
		"a lone request gets a light halo.  The legend lists the classes drawn.  The\n"
		"panel is aggregated per pixel, so large traces stay fast and SVG/PDF files\n"
		"stay small.  MB = 10^6 bytes.\n"
		"\nWith --color-by process, each request takes the colour of its process: its\n"
		"submitter (the task of its block_bio_queue or block_rq_insert event, recorded\n"
		"with record -e queue,insert), else the task that issued it.  Processes are\n"
		"grouped by what they are, so that a colour means the same in every column:\n"
		"tar, sync, xfsaild, jbd2, and kworkers by the work they run\n"
		"(kworker:wb_workfn is writeback, kworker:xlog_cil_push_work the XFS log).  A\n"
		"pixel cell shared by several processes is shared among them like classes.\n"
		"--pid/--comm draw only those processes' requests; seeks are still judged\n"
		"against every request (the others move the head too).\n"
		"\nWith --color-by dir or file, a request takes the colour of the directory or\n"
		"file whose data or directory blocks it holds, from the trace's file map (record\n"
		"--untar, record --map DIR).  dir is the directory right under DIR (under the\n"
		"first directory with several entries when DIR holds a lone one, like --untar's\n"
		"1/srctree); dir:2 one level deeper.  Requests holding only inodes of mapped\n"
		"files are \"inodes\"; the rest (log, other metadata, files the map never saw)\n"
		"\"unknown (not in the map)\", light grey.  The same name keeps its colour in\n"
		"every column.\n"
		"\nAn .html output is one self-contained page (no network needed) with the same\n"
		"panels and table: zoom and pan time and offset (wheel, drag, shift-drag box,\n"
		"double-click resets, keys + - arrows 0), hover a request for its details,\n"
		"click a phase or zone to zoom to it, play a cursor through time.  The page\n"
		"holds every request while it fits --html-max (docs/html-viewer.md).\n"
		"\nEXIT STATUS:\n"
		"  0 on success, 1 if a trace cannot be read or the picture cannot be written,\n"
		"  2 on a usage error.  An --x-range past the end of a trace is not an error:\n"
		"  its column says so, a warning names the trace on stderr, and the exit is 0.",
	.examples =
		"  " PROG " untar.sst -o untar.png\n"
		"  " PROG " ag1.sst ag4.sst -l agcount=1 -l agcount=4 -o ag.svg\n"
		"  " PROG " ag1.sst ag4.sst -o ag.html\n"
		"  " PROG " untar.sst --panels io,seeks --x-range 10:20 \\\n"
		"      --y-range 2G:3G -o zoom.pdf\n"
		"  " PROG " ag1.sst ag4.sst --disk hdd7200 -o ag-hdd.png\n"
		"  " PROG " ag1.sst ag4.sst --color-by process -o who.png\n"
		"  " PROG " untar.sst --comm tar --comm 'kworker*' -o tar.png",
};

int ss_plot_parse_x_range(const char *s, double *lo, double *hi)
{
	const char *colon = strchr(s, ':');
	char *e1, *e2;
	double a, b;

	if (!colon || colon == s || !colon[1])
		return -EINVAL;
	a = strtod(s, &e1);
	b = strtod(colon + 1, &e2);
	/* !(a >= 0) also refuses NaN; B's bound keeps both finite */
	if (e1 != colon || *e2 || !(a >= 0) || !(b > a) || !(b <= SS_PLOT_MAX_X_S))
		return -EINVAL;
	*lo = a;
	*hi = b;
	return 0;
}

int ss_plot_parse_y_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	const char *colon = strchr(s, ':');
	uint64_t a, b;

	if (!colon || ss_optarg_sectors(s, (size_t)(colon - s), UINT64_MAX, &a) ||
	    ss_optarg_sectors(colon + 1, strlen(colon + 1), UINT64_MAX, &b) || !(a < b))
		return -EINVAL;
	*lo = a;
	*hi = b;
	return 0;
}

int ss_plot_parse_size(const char *s, int *w, int *h)
{
	const char *x = strchr(s, 'x');
	uint64_t vw, vh;

	if (!x || ss_optarg_uint_len(s, (size_t)(x - s), SS_PLOT_MIN_WIDTH, SS_PLOT_MAX_SIDE, &vw) ||
	    ss_optarg_uint_len(x + 1, strlen(x + 1), SS_PLOT_MIN_HEIGHT, SS_PLOT_MAX_SIDE, &vh))
		return -EINVAL;
	*w = (int)vw;
	*h = (int)vh;
	return 0;
}

bool ss_plot_output_is_html(const char *path)
{
	const char *dot = strrchr(path, '.');

	return dot && !strchr(dot, '/') && (!strcasecmp(dot, ".html") || !strcasecmp(dot, ".htm"));
}

int ss_plot_parse_rolling(const char *s, unsigned *bins)
{
	return ss_optarg_unsigned(s, 0, SS_PLOT_MAX_ROLLING, bins) ? -EINVAL : 0;
}

int ss_plot_parse_color_by(const char *s, bool *by_group, struct ss_group_spec *spec)
{
	struct ss_group_spec g = { .by = SS_GROUP_DIR, .depth = 1 };

	if (!strcmp(s, "class")) {
		*by_group = false;
		return 0;
	}
	if (!strcmp(s, "process"))
		g.by = SS_GROUP_PROCESS;
	else if (!strcmp(s, "file"))
		g.by = SS_GROUP_FILE;
	else if (!strncmp(s, "dir:", 4) &&
		 ss_optarg_unsigned(s + 4, 1, SS_PLOT_MAX_DIR_DEPTH, &g.depth))
		return -EINVAL;
	else if (strcmp(s, "dir") && strncmp(s, "dir:", 4))
		return -EINVAL;
	*by_group = true;
	*spec = g;
	return 0;
}

/* One option's value into the struct ss_plot_args at CTX (ss_optable_parse's TAKE). */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	struct ss_plot_args *a = ctx;
	const char *bad = NULL, *hint = NULL;   /* "bad --BAD 'ARG' (HINT)" */

	switch (c) {
	case 'o':
		if (strcmp(arg, "-") && !ss_plot_output_is_html(arg) &&
		    ss_out_format_from_path(arg) < 0) {
			ss_errf(err, errlen, "output '%s' must end in .png, .svg, .pdf or .html", arg);
			return -EINVAL;
		}
		a->out = arg;
		return 0;
	case OPT_FORMAT:
		a->format = arg;
		for (size_t i = 0; i < NR_FORMATS; i++)
			if (!strcmp(arg, formats[i].name))
				return 0;
		bad = "format", hint = "png, svg, pdf or html";
		break;
	case 'l':
		return ss_plot_add_label(a->labels, &a->nr_labels, arg, err, errlen);
	case 'p':
		a->panels_given = true;
		return ss_panels_parse(&a->g, arg, err, errlen);
	case OPT_DISK:
		if (ss_disk_opt_parse(arg, &a->g.disk, err, errlen))
			return -EINVAL;
		a->g.has_disk = true;
		return 0;
	case 'T':
		a->g.title = arg;
		return 0;
	case 's':
		a->size_given = true;
		if (ss_plot_parse_size(arg, &a->g.width, &a->g.height))
			bad = "size", hint = "WxH, 200x150 to 16000x16000";
		break;
	case 'x':
		a->g.has_x_range = true;
		if (ss_plot_parse_x_range(arg, &a->g.x_lo_s, &a->g.x_hi_s))
			bad = "x-range", hint = "A:B seconds, 0 <= A < B <= 1e9";
		break;
	case 'y':
		a->g.has_y_range = true;
		if (ss_plot_parse_y_range(arg, &a->g.y_lo, &a->g.y_hi))
			bad = "y-range", hint = "A:B sectors or bytes like 1G:2G, A < B";
		break;
	case 'u':
		if (ss_offset_units_parse(arg, &a->g.units))
			bad = "units", hint = "auto, sectors, mib or gib";
		break;
	case 't':
		if (ss_parse_seek_threshold(arg, &a->g.seek_threshold))
			bad = "seek-threshold", hint = SS_SEEK_THRESHOLD_HINT;
		break;
	case OPT_ALIGN:
		if (!*arg || strlen(arg) >= sizeof(((struct ss_rec_phase *)0)->name))
			bad = "align", hint = "a phase name, 1 to 31 characters";
		a->g.align = arg;
		break;
	case 'd':
		if (!*arg)
			bad = "device", hint = "a device name or MAJ:MIN";
		a->g.device = arg;
		break;
	case 'q':
		a->quiet = true;
		return 0;
	case 'r':
		if (ss_plot_parse_rolling(arg, &a->g.rolling))
			bad = "rolling", hint = "bins, 0 to 10000";
		break;
	case OPT_COLOR_BY:
		if (ss_plot_parse_color_by(arg, &a->g.color_by_group, &a->g.group))
			bad = "color-by", hint = "class, process, dir, dir:DEPTH (1 to 64) or file";
		break;
	case OPT_GROUPS:
	case SS_OPT_PROCESSES:
		if (ss_parse_groups(arg, &a->g.top_groups))
			bad = c == OPT_GROUPS ? "groups" : "processes", hint = SS_PROCESSES_HINT;
		break;
	case OPT_PID:
		return ss_task_spec_add_pid(&a->g.only, arg, err, errlen);
	case OPT_COMM:
		return ss_task_spec_add_comm(&a->g.only, arg, err, errlen);
	case OPT_HTML_MAX: {
		unsigned mb;

		if (ss_optarg_unsigned(arg, SS_HTML_MIN_BYTES / 1000000, 4000, &mb))
			bad = "html-max", hint = "MB, 1 to 4000";
		else
			a->html_max_bytes = (size_t)mb * 1000000;
		break;
	}
	default:
		return ss_optable_unhandled(c, err, errlen);
	}
	if (!bad)
		return 0;
	ss_errf(err, errlen, "bad --%s '%s' (%s)", bad, arg, hint);
	return -EINVAL;
}

/* --format and the extension of -o into a->fmt, a->html and a->ext. */
static int resolve_format(struct ss_plot_args *a, char *err, size_t errlen)
{
	size_t by_name = NR_FORMATS, by_ext = 0;

	for (size_t i = 0; i < NR_FORMATS; i++)
		if (a->format && !strcmp(a->format, formats[i].name))
			by_name = i;
	if (a->out && !strcmp(a->out, "-")) {
		if (by_name == NR_FORMATS) {
			ss_errf(err, errlen, "-o - (standard output) needs --format png, svg, pdf or "
				"html");
			return -EINVAL;
		}
		by_ext = by_name;
	} else if (a->out) {
		while (by_ext < NR_FORMATS &&
		       (formats[by_ext].html ? !ss_plot_output_is_html(a->out) :
			ss_out_format_from_path(a->out) != (int)formats[by_ext].fmt))
			by_ext++;
		if (by_name < NR_FORMATS && by_name != by_ext) {
			ss_errf(err, errlen, "--format %s but the output '%s' is another format's "
				"name", a->format, a->out);
			return -EINVAL;
		}
	} else {
		by_ext = by_name < NR_FORMATS ? by_name : 0;
	}
	a->fmt = formats[by_ext].fmt;
	a->html = formats[by_ext].html;
	a->ext = formats[by_ext].name;
	return 0;
}

int ss_plot_default_output(char *const *traces, int nr, const char *ext, char *buf, size_t len)
{
	size_t n = 0;

	for (int i = 0; i < nr; i++) {
		const char *t = strcmp(traces[i], "-") ? traces[i] : "stdin";
		const char *end = t + strlen(t), *base, *dot;

		while (end > t + 1 && end[-1] == '/')   /* a blktrace directory "capture/" */
			end--;
		for (base = end; base > t && base[-1] != '/'; base--)
			;
		for (dot = end; dot > base && *dot != '.'; dot--)
			;
		if (dot == base)   /* no extension, or a name starting with its only dot */
			dot = end;
		n += (size_t)snprintf(buf + n, n < len ? len - n : 0, "%s%.*s", i ? "-vs-" : "",
				      (int)(dot - base), base);
	}
	n += (size_t)snprintf(buf + n, n < len ? len - n : 0, ".%s", ext);
	if (n >= len || n > SS_PLOT_MAX_DEFAULT_NAME)
		return -ENAMETOOLONG;
	return 0;
}

/* The panels that draw the disk model: refused without --disk; with it, they join the default
 * set at their place in the registry's order. */
static int disk_panels(struct ss_plot_args *a, char *err, size_t errlen)
{
	const struct ss_panel_ops *dflt[SS_GRAPH_MAX_PANELS];
	int n = a->g.nr_panels;

	for (int i = 0; i < n; i++)
		if (a->g.panels[i]->needs_disk && !a->g.has_disk) {
			ss_errf(err, errlen, "panel '%s' draws the disk model: give --disk MODEL",
				a->g.panels[i]->name);
			return -EINVAL;
		}
	if (!a->g.has_disk || a->panels_given)
		return 0;
	memcpy(dflt, a->g.panels, sizeof(dflt));
	a->g.nr_panels = 0;
	for (size_t i = 0; i < ss_panels_count() && a->g.nr_panels < SS_GRAPH_MAX_PANELS; i++) {
		const struct ss_panel_ops *ops = ss_panels_at(i);
		bool in_default = false;

		for (int k = 0; k < n && !in_default; k++)
			in_default = dflt[k] == ops;
		if (in_default || ops->needs_disk)
			a->g.panels[a->g.nr_panels++] = ops;
	}
	return 0;
}

int ss_plot_parse(int argc, char **argv, struct ss_plot_args *a, char *err, size_t errlen)
{
	int ret;

	memset(a, 0, sizeof(*a));
	ss_graph_opts_init(&a->g);
	ss_panels_set_default(&a->g);
	ret = ss_optable_parse(options, SS_NR_OPTIONS(options), 0, argc, argv, take_option, a, err,
			       errlen);
	if (ret)
		return ret;
	ret = ss_plot_parse_traces(argc, argv, a->nr_labels, &a->traces, &a->nr_traces, err,
				   errlen);
	if (ret)
		return ret;
	ret = resolve_format(a, err, errlen);
	if (ret)
		return ret;
	for (int i = 0; a->html && i < a->g.nr_panels; i++)
		if (a->g.panels[i]->no_html) {
			ss_errf(err, errlen, "panel '%s' is not drawn by the .html viewer: write a "
				".png, .svg or .pdf", a->g.panels[i]->name);
			return -EINVAL;
		}
	return disk_panels(a, err, errlen);
}

int ss_plot_add_label(const char **labels, int *nr, const char *arg, char *err, size_t errlen)
{
	if (*nr >= SS_GRAPH_MAX_TRACES) {
		ss_errf(err, errlen, "too many labels (at most %d)", SS_GRAPH_MAX_TRACES);
		return -EINVAL;
	}
	labels[(*nr)++] = arg;
	return 0;
}

int ss_plot_parse_traces(int argc, char **argv, int nr_labels, char ***traces, int *nr,
			 char *err, size_t errlen)
{
	*traces = argv + optind;
	*nr = argc - optind;
	if (*nr <= 0) {
		ss_errf(err, errlen, "no TRACE given");
		return -EINVAL;
	}
	if (*nr > SS_GRAPH_MAX_TRACES) {
		ss_errf(err, errlen, "too many traces (at most %d side by side)", SS_GRAPH_MAX_TRACES);
		return -EINVAL;
	}
	if (nr_labels > *nr) {
		ss_errf(err, errlen, "more -l labels than traces");
		return -EINVAL;
	}
	return 0;
}

const char *ss_plot_label(const char *const *labels, int nr_labels, int i, const char *path,
			  char *buf, size_t len)
{
	if (i < nr_labels)
		return labels[i];
	snprintf(buf, len, "%s", strcmp(path, "-") ? path : "stdin");
	return basename(buf);
}
