/*
 * seekscope plot: draw trace files (sector over time, seeks/s, throughput, latency, ...) into
 * a PNG, SVG or PDF; several traces side by side on shared scales.  Parse -> open -> configure
 * -> run -> draw -> one cleanup label.  The drawing itself is graph.c and the panels.
 */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "graph.h"
#include "seek.h"
#include "surface.h"
#include "trace_read.h"

#define PROG "seekscope plot"

struct plot_args {
	struct ss_graph_opts g;
	const char *out;
	const char *labels[SS_GRAPH_MAX_TRACES];
	int nr_labels;
	bool size_given;
	char panels_err[160];
};

/* The option table is the help text's source, so the two cannot drift. */
static const struct opt_help {
	struct option opt;
	const char *arg, *help;
} options[] = {
	{ { "output", required_argument, NULL, 'o' }, "FILE",
	  "picture to write: .png, .svg or .pdf picks the\n"
	  "format (default: first TRACE's name with .png)" },
	{ { "label", required_argument, NULL, 'l' }, "LABEL",
	  "name of the next trace's column; once per TRACE\n"
	  "(default: the file name)" },
	{ { "panels", required_argument, NULL, 'p' }, "LIST",
	  "top to bottom (default io,seeks,tput,lat,dist)\n"
	  "io    device offset over time, zones, phases\n"
	  "seeks seeks per second\n"
	  "tput  MB/s read and write\n"
	  "iops  completed requests per second\n"
	  "lat   latency issue -> complete (mean, max)\n"
	  "qd    queue depth (requests in flight)\n"
	  "dist  seek distances (how far the head moves)" },
	{ { "title", required_argument, NULL, 'T' }, "TITLE", "title above the plots" },
	{ { "size", required_argument, NULL, 's' }, "WxH",
	  "picture size in pixels (PDF: points); default\n"
	  "1600 wide for one trace, 1100 more per extra trace" },
	{ { "x-range", required_argument, NULL, 'x' }, "A:B",
	  "show seconds A to B after each trace's start" },
	{ { "y-range", required_argument, NULL, 'y' }, "A:B",
	  "device offsets in the io panel: sectors, or bytes\n"
	  "with K, M, G, T (binary), e.g. 1G:2G; default: the\n"
	  "whole filesystem when the trace has zones, else\n"
	  "the range the I/O touched" },
	{ { "units", required_argument, NULL, 'u' }, "UNIT",
	  "offset axis: auto, sectors, mib or gib" },
	{ { "seek-threshold", required_argument, NULL, 't' }, "N",
	  "sectors an I/O may start from the previous end\n"
	  "without being a seek (default 128)" },
	{ { "rolling", required_argument, NULL, 'r' }, "N",
	  "smooth time series: moving average over N bins" },
	{ { "help", no_argument, NULL, 'h' }, NULL, "show this help and exit" },
};
#define NR_OPTIONS (sizeof(options) / sizeof(options[0]))

static void usage(FILE *f)
{
	fprintf(f, "USAGE: " PROG " TRACE... [-o OUT.png|.svg|.pdf] [-l LABEL]... [OPTIONS]\n\n"
		   "Draw where on the disk the I/O of each trace went and how much seeking it\n"
		   "cost.  Several TRACEs are drawn side by side on shared time and value scales,\n"
		   "with a summary table (the better value of each column highlighted).\n\nOptions:\n");
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		const struct opt_help *o = &options[i];
		char head[48];
		const char *p = o->help;

		snprintf(head, sizeof(head), "-%c, --%s%s%s", o->opt.val, o->opt.name,
			 o->arg ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-26s ", head);
		/* continuation lines of the help text line up under the first */
		for (const char *nl; (nl = strchr(p, '\n')); p = nl + 1)
			fprintf(f, "%.*s\n  %-26s ", (int)(nl - p), p, "");
		fprintf(f, "%s\n", p);
	}
	fprintf(f,
		"\nSeek: an I/O is a seek when its start sector is more than the threshold (128\n"
		"sectors = 64 KiB by default) away, in either direction, from where the previous\n"
		"I/O on the same device ended.  Evaluated on ISSUE events (block_rq_issue, the\n"
		"order the device receives requests), as seekwatcher does; flushes are ignored.\n"
		"\nThe io panel plots each data request at its issue time across the sectors it\n"
		"covers: data writes blue, data reads orange, metadata (M flag) black, requests\n"
		"in the log/journal zone green; flushes and FUA writes as ticks along the top,\n"
		"never as I/O at sector 0.  It is aggregated per pixel, so large traces stay\n"
		"fast and SVG/PDF files stay small.  MB = 10^6 bytes.\n"
		"\nExit status: 0 on success, 1 if a trace cannot be read or the picture cannot be\n"
		"written, 2 on a usage error.\n"
		"\nEXAMPLES:\n"
		"  " PROG " untar.sst -o untar.png\n"
		"  " PROG " ag1.sst ag4.sst -l agcount=1 -l agcount=4 -o ag.svg\n"
		"  " PROG " untar.sst --panels io,seeks --x-range 10:20 \\\n"
		"      --y-range 2G:3G -o zoom.pdf\n");
}

static int misuse(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\nTry '" PROG " --help'.\n");
	return 2;
}

static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	errno = 0;
	if (!*s || *s == '-')
		return false;
	*v = strtoull(s, &end, 10);
	return !errno && !*end;
}

/* A sector count, or bytes with a binary K/M/G/T suffix. */
static bool parse_offset(const char *s, uint64_t *sectors)
{
	char *end;
	double v;
	int shift = -1;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || !(v >= 0) || !isfinite(v))
		return false;
	switch (*end) {
	case 0: shift = -1; break;
	case 'k': case 'K': shift = 10; break;
	case 'm': case 'M': shift = 20; break;
	case 'g': case 'G': shift = 30; break;
	case 't': case 'T': shift = 40; break;
	default: return false;
	}
	if (*end && end[1] && strcasecmp(end + 1, "iB") && strcasecmp(end + 1, "B"))
		return false;
	v = shift < 0 ? v : ldexp(v, shift) / 512;
	if (v > 1.8e19)
		return false;
	*sectors = (uint64_t)llround(v);
	return true;
}

static bool split_range(const char *s, char *a, char *b, size_t len)
{
	const char *colon = strchr(s, ':');

	if (!colon || (size_t)(colon - s) >= len || strlen(colon + 1) >= len)
		return false;
	memcpy(a, s, (size_t)(colon - s));
	a[colon - s] = 0;
	strcpy(b, colon + 1);
	return *a && *b;
}

/* 0 to go on, else the exit status (help: 0 via *done). */
static int parse_args(int argc, char **argv, struct plot_args *a, bool *done)
{
	struct option longopts[NR_OPTIONS + 1];
	char a1[64], a2[64];
	uint64_t u;
	int c;

	for (size_t i = 0; i < NR_OPTIONS; i++)
		longopts[i] = options[i].opt;
	memset(&longopts[NR_OPTIONS], 0, sizeof(longopts[0]));
	ss_graph_opts_init(&a->g);
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":o:l:p:T:s:x:y:u:t:r:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			if (ss_out_format_from_path(optarg) < 0)
				return misuse("output '%s' must end in .png, .svg or .pdf", optarg);
			a->out = optarg;
			break;
		case 'l':
			if (a->nr_labels >= SS_GRAPH_MAX_TRACES)
				return misuse("too many labels (at most %s)", "8");
			a->labels[a->nr_labels++] = optarg;
			break;
		case 'p':
			if (ss_graph_parse_panels(&a->g, optarg, a->panels_err, sizeof(a->panels_err)))
				return misuse("%s", a->panels_err);
			break;
		case 'T':
			a->g.title = optarg;
			break;
		case 's': {
			int w, h, n = -1;

			if (sscanf(optarg, "%dx%d%n", &w, &h, &n) != 2 || n != (int)strlen(optarg) ||
			    w < 200 || h < 150 || w > 16000 || h > 16000)
				return misuse("bad --size '%s' (WxH, 200x150 to 16000x16000)", optarg);
			a->g.width = w;
			a->g.height = h;
			a->size_given = true;
			break;
		}
		case 'x': {
			char *e1, *e2;

			if (!split_range(optarg, a1, a2, sizeof(a1)))
				return misuse("bad --x-range '%s' (A:B in seconds)", optarg);
			a->g.x_lo_s = strtod(a1, &e1);
			a->g.x_hi_s = strtod(a2, &e2);
			if (*e1 || *e2 || !(a->g.x_lo_s >= 0) || !(a->g.x_hi_s > a->g.x_lo_s) ||
			    a->g.x_hi_s > 1e9)
				return misuse("bad --x-range '%s' (A:B seconds, 0 <= A < B)", optarg);
			a->g.has_x_range = true;
			break;
		}
		case 'y':
			if (!split_range(optarg, a1, a2, sizeof(a1)) ||
			    !parse_offset(a1, &a->g.y_lo) || !parse_offset(a2, &a->g.y_hi) ||
			    a->g.y_hi <= a->g.y_lo)
				return misuse("bad --y-range '%s' (A:B sectors or bytes like 1G:2G, "
					      "A < B)", optarg);
			a->g.has_y_range = true;
			break;
		case 'u':
			if (ss_offset_units_parse(optarg, &a->g.units))
				return misuse("bad --units '%s' (auto, sectors, mib or gib)", optarg);
			break;
		case 't':
			if (!parse_u64(optarg, &u) || u > (1ull << 40))
				return misuse("bad --seek-threshold '%s' (sectors)", optarg);
			if (u == 0)
				return misuse("bad --seek-threshold '%s' (at least 1 sector)", optarg);
			a->g.seek_threshold = u;
			break;
		case 'r':
			if (!parse_u64(optarg, &u) || u > 10000)
				return misuse("bad --rolling '%s' (bins, 0 to 10000)", optarg);
			a->g.rolling = (unsigned)u;
			break;
		case 'h':
			usage(stdout);
			*done = true;
			return 0;
		case ':':
			return misuse("option '%s' needs an argument", argv[optind - 1]);
		default:
			return misuse("unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return misuse("%s", "no TRACE given");
	if (argc - optind > SS_GRAPH_MAX_TRACES)
		return misuse("too many traces (at most %s side by side)", "8");
	if (a->nr_labels > argc - optind)
		return misuse("%s", "more -l labels than traces");
	return 0;
}

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

int ss_cmd_plot(int argc, char **argv)
{
	struct plot_args a = { 0 };
	struct ss_trace *traces[SS_GRAPH_MAX_TRACES] = { NULL };
	struct ss_graph *g = NULL;
	struct ss_surface *surf = NULL;
	char err[400], *out_alloc = NULL;
	bool done = false;
	int nr = 0, ret, status = 1, fmt;

	ret = parse_args(argc, argv, &a, &done);
	if (ret || done)
		return ret;
	nr = argc - optind;
	for (int i = 0; i < nr; i++) {
		const char *path = argv[optind + i];

		traces[i] = ss_trace_open(path, err, sizeof(err));
		if (!traces[i]) {
			fprintf(stderr, PROG ": %s: %s\n", path, err);
			goto cleanup;
		}
		if (traces[i]->truncated)
			fprintf(stderr, PROG ": %s: warning: %s; plotting what was recorded\n", path,
				traces[i]->warning);
	}
	if (!a.out) {
		if (!(out_alloc = default_output(argv[optind]))) {
			fprintf(stderr, PROG ": out of memory\n");
			goto cleanup;
		}
		a.out = out_alloc;
	}
	if (!a.size_given)
		ss_graph_default_size(nr, a.g.nr_panels, &a.g.width, &a.g.height);
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
		fprintf(stderr, PROG ": %s\n", err);
		status = ret == -EINVAL && a.size_given ? 2 : 1;
		goto cleanup;
	}
	fmt = ss_out_format_from_path(a.out);
	surf = ss_surface_new(a.out, (enum ss_out_format)fmt, a.g.width, a.g.height);
	if (!surf) {
		fprintf(stderr, PROG ": %s: %s\n", a.out, strerror(errno));
		goto cleanup;
	}
	ss_graph_draw(g, ss_surface_cairo(surf));
	if ((ret = ss_surface_finish(surf))) {
		fprintf(stderr, PROG ": %s: %s\n", a.out, strerror(-ret));
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
