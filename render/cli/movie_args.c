// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope movie's command line (movie_args.h): the option table, which is also the source of
 * --help, the parsers of the option values and the parse into struct ss_movie_args.  Prints
 * nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "errbuf.h"
#include "device_arg.h"
#include "movie_args.h"
#include "panel_registry.h"
#include "plot_args.h"
#include "render_args.h"

#define PROG "seekscope movie"
#define DEFAULT_PANELS "seeks,tput"

/* --panels' help: the registry's time panels. */
static void panels_help(char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "time panels under the animation, top to bottom\n"
					      "(default " DEFAULT_PANELS "; none: no panel):");

	for (size_t i = 0; i < ss_panels_count() && n < len; i++) {
		const struct ss_panel_ops *p = ss_panels_at(i);

		if (p->time_x && !p->sector_y && !p->needs_disk)
			n += (size_t)snprintf(buf + n, len - n, "\n%-5s %s", p->name, p->help);
	}
}

enum {
	OPT_STYLE = SS_OPT_LONG_ONLY, OPT_FPS, OPT_LENGTH, OPT_SPEED, OPT_CELL, OPT_FADE,
	OPT_SKIP_IDLE, OPT_FORMAT, OPT_COLOR_BY, OPT_GROUPS,
};

static const struct ss_option options[] = {
	SS_OPTION_OUTPUT("movie to write: .mp4 (H.264), .webm (VP9) or .mkv\n"
			 "(H.264, else VP9); - is standard output (with\n"
			 "--format; MP4 then fragmented)"),
	{ "format", OPT_FORMAT, "FMT", "mp4, webm or mkv: the container, needed with -o -;\n"
				       "else the extension of -o says it" },
	SS_OPTION_LABEL,
	{ "style", OPT_STYLE, "STYLE", "grid (default): the device as cells in LBA order;\n"
				      "spindle: a platter of rings, outer = offset 0;\n"
				      "scan: the sector-over-time plot, drawn as it plays" },
	{ "fps", OPT_FPS, "N", "frames per second, 1 to 240 (default 30)" },
	{ "length", OPT_LENGTH, "SECONDS", "length of the movie (default 30)" },
	{ "speed", OPT_SPEED, "X", "instead of --length: X trace seconds per movie\n"
				   "second (1: real time)" },
	{ "size", 's', "WxH", "frame size in pixels, even, 320x240 to 8192x8192\n"
			      "(default 1920x1080)" },
	{ "cell-size", OPT_CELL, "N", "grid and spindle: cell side in pixels, 2 to 256\n"
				      "(default 8)" },
	{ "fade", OPT_FADE, "N", "frames a request stays lit, fading (default 10)" },
	{ "color-by", OPT_COLOR_BY, "WHAT", "light requests in the colour of their class\n"
					    "(default), process, dir (dir:DEPTH) or file, as\n"
					    "plot --color-by; the legend names them" },
	{ "groups", OPT_GROUPS, "N", "with --color-by: the N processes, directories or\n"
				     "files with most requests get a colour (default 8;\n"
				     "10 at most; 0: all), the rest grey (\"other\")" },
	{ "skip-idle", OPT_SKIP_IDLE, NULL, "shorten stretches of more than 1 s without an\n"
					    "event to 0.25 s; the movie says what it skipped" },
	{ "x-range", 'x', "A:B", "film seconds A to B after each trace's start" },
	SS_OPTION_DEVICE(SS_DEVICE_ARG_HELP "; a movie films one\n"
			 "device: a trace of several needs it"),
	{ "panels", 'p', "LIST", NULL, panels_help },
	{ "title", 'T', "TITLE", "title above the movie" },
	SS_OPTION_SEEK_THRESHOLD,
	SS_OPTION_QUIET,
	SS_OPTION_HELP,
	SS_OPTION_VERSION,
};

const struct ss_help ss_movie_help = {
	.usage = PROG " TRACE... -o OUT.mp4|.webm|.mkv [-l LABEL]... [OPTIONS]\n"
		 "       " PROG " TRACE... -o - --format mp4|webm|mkv [OPTIONS] >OUT",
	.description =
		"Film where on the disk the I/O of each trace went, in trace order: the order of\n"
		"the writes within a sync, the head jumping between allocation groups.  Several\n"
		"TRACEs play side by side on one clock, over the seeks/s and throughput panels\n"
		"of `seekscope plot` with a moving time line.  Encoded in process with FFmpeg's\n"
		"libraries; no external program.",
	.opts = options,
	.nr_opts = SS_NR_OPTIONS(options),
	.sections =
		"Frames: the movie has exactly fps x length frames (with --speed, as many as the\n"
		"trace time needs).  Frame k shows the requests issued (block_rq_issue) in its\n"
		"slice of trace time, lit in their class's colour as in plot's io panel (data\n"
		"write blue, data read orange, metadata black, log/journal green, discard\n"
		"purple, write-zeroes/other sky blue; a cell lit by several classes in one frame\n"
		"is shared among them); flushes and FUA writes light the lamps beside the\n"
		"clock.  Zones (AGs, log, journal, groups) are drawn in every\n"
		"style.  The file appears under its name only when complete: an interrupted or\n"
		"failed encode leaves nothing.\n"
		"\nEXIT STATUS:\n"
		"  0 on success, 1 if a trace cannot be read or the movie cannot be written\n"
		"  (this FFmpeg lacks the codec, the disk is full), 2 on a usage error,\n"
		"  130 after SIGINT, 143 after SIGTERM.",
	.examples =
		"  " PROG " untar.sst -o untar.mp4\n"
		"  " PROG " ag1.sst ag4.sst -l agcount=1 -l agcount=4 --style spindle \\\n"
		"      -o ag.webm\n"
		"  " PROG " untar.sst --style scan --speed 1 --skip-idle -o untar.mkv",
};

/* A plain decimal (digits and at most one point, nothing else) into *V. */
static int parse_decimal(const char *s, double *v)
{
	char *end;
	size_t n = strspn(s, "0123456789.");

	if (!*s || s[n] || strchr(s, '.') != strrchr(s, '.') || !strcmp(s, "."))
		return -EINVAL;
	*v = strtod(s, &end);
	return *end ? -EINVAL : 0;
}

int ss_movie_parse_length(const char *s, double *seconds)
{
	double v;

	if (parse_decimal(s, &v) || !(v > 0) || v > SS_MOVIE_MAX_LENGTH_S)
		return -EINVAL;
	*seconds = v;
	return 0;
}

int ss_movie_parse_speed(const char *s, double *x)
{
	double v;

	if (parse_decimal(s, &v) || !(v > 0) || v > 1e9)
		return -EINVAL;
	*x = v;
	return 0;
}

int ss_movie_parse_size(const char *s, int *w, int *h)
{
	int vw, vh;

	if (ss_plot_parse_size(s, &vw, &vh) || vw < SS_MOVIE_MIN_WIDTH ||
	    vh < SS_MOVIE_MIN_HEIGHT || vw > SS_MOVIE_MAX_SIDE || vh > SS_MOVIE_MAX_SIDE ||
	    vw % 2 || vh % 2)
		return -EINVAL;
	*w = vw;
	*h = vh;
	return 0;
}

int ss_movie_parse_panels(const char *list, struct ss_movie_opts *o, char *err, size_t errlen)
{
	struct ss_graph_opts g;
	int ret;

	if (!strcmp(list, "none")) {
		o->nr_panels = 0;
		return 0;
	}
	if ((ret = ss_panels_parse(&g, list, err, errlen)))
		return ret;
	if (g.nr_panels > SS_MOVIE_MAX_PANELS) {
		ss_errf(err, errlen, "bad --panels '%s' (at most %d under the animation)", list,
			SS_MOVIE_MAX_PANELS);
		return -EINVAL;
	}
	for (int i = 0; i < g.nr_panels; i++) {
		if (g.panels[i]->needs_disk) {
			ss_errf(err, errlen, "bad --panels '%s' (%s draws the disk model, which movie "
				"does not replay: plot --disk draws it)", list, g.panels[i]->name);
			return -EINVAL;
		}
		if (!g.panels[i]->time_x || g.panels[i]->sector_y) {
			ss_errf(err, errlen, "bad --panels '%s' (%s is not a time panel: the "
				"animation takes its place)", list, g.panels[i]->name);
			return -EINVAL;
		}
	}
	for (int i = 0; i < g.nr_panels; i++)
		o->panels[i] = g.panels[i];
	o->nr_panels = g.nr_panels;
	return 0;
}

struct parse_ctx {
	struct ss_movie_args *a;
	bool length_given, speed_given;
};

/* One option's value into the struct ss_movie_args (ss_optable_parse's TAKE). */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	struct parse_ctx *pc = ctx;
	struct ss_movie_args *a = pc->a;
	const char *bad = NULL, *hint = NULL;   /* "bad --BAD 'ARG' (HINT)" */
	unsigned u;

	switch (c) {
	case 'o':
		a->out = arg;
		return 0;
	case 'l':
		return ss_plot_add_label(a->labels, &a->nr_labels, arg, err, errlen);
	case OPT_STYLE:
		if (ss_movie_style_parse(arg, &a->m.style))
			bad = "style", hint = "grid, spindle or scan";
		break;
	case OPT_FPS:
		if (ss_optarg_unsigned(arg, 1, SS_MOVIE_MAX_FPS, &u))
			bad = "fps", hint = "frames per second, 1 to 240";
		else
			a->m.fps = (int)u;
		break;
	case OPT_LENGTH:
		pc->length_given = true;
		if (ss_movie_parse_length(arg, &a->m.length_s))
			bad = "length", hint = "seconds, more than 0, at most 86400";
		break;
	case OPT_SPEED:
		pc->speed_given = true;
		if (ss_movie_parse_speed(arg, &a->m.speed))
			bad = "speed", hint = "trace seconds per movie second, more than 0";
		break;
	case 's':
		if (ss_movie_parse_size(arg, &a->m.width, &a->m.height))
			bad = "size", hint = "WxH, even, 320x240 to 8192x8192";
		break;
	case OPT_CELL:
		if (ss_optarg_unsigned(arg, SS_MOVIE_MIN_CELL, SS_MOVIE_MAX_CELL, &u))
			bad = "cell-size", hint = "pixels, 2 to 256";
		else
			a->m.cell = (int)u;
		break;
	case OPT_FADE:
		if (ss_optarg_unsigned(arg, 1, SS_MOVIE_MAX_FADE, &u))
			bad = "fade", hint = "frames, 1 to 10000";
		else
			a->m.fade = (int)u;
		break;
	case OPT_COLOR_BY:
		if (ss_plot_parse_color_by(arg, &a->m.color_by_group, &a->m.group))
			bad = "color-by", hint = "class, process, dir, dir:DEPTH (1 to 64) or file";
		break;
	case OPT_GROUPS:
		if (ss_parse_groups(arg, &a->m.top_groups))
			bad = "groups", hint = SS_PROCESSES_HINT;
		break;
	case OPT_SKIP_IDLE:
		a->m.skip_idle = true;
		return 0;
	case 'd':
		if (!*arg)
			bad = "device", hint = "a device name or MAJ:MIN";
		a->m.device = arg;
		break;
	case 'x':
		a->m.has_x_range = true;
		if (ss_plot_parse_x_range(arg, &a->m.x_lo_s, &a->m.x_hi_s))
			bad = "x-range", hint = "A:B seconds, 0 <= A < B <= 1e9";
		break;
	case 'p':
		return ss_movie_parse_panels(arg, &a->m, err, errlen);
	case 'T':
		a->m.title = arg;
		return 0;
	case 't':
		if (ss_parse_seek_threshold(arg, &a->m.seek_threshold))
			bad = "seek-threshold", hint = SS_SEEK_THRESHOLD_HINT;
		break;
	case 'q':
		a->quiet = true;
		return 0;
	case OPT_FORMAT:
		/* which of them this FFmpeg writes is the encoder's question, asked by the command */
		if (strcmp(arg, "mp4") && strcmp(arg, "webm") && strcmp(arg, "mkv"))
			bad = "format", hint = "mp4, webm or mkv";
		a->m.format = arg;
		break;
	default:
		return ss_optable_unhandled(c, err, errlen);
	}
	if (!bad)
		return 0;
	ss_errf(err, errlen, "bad --%s '%s' (%s)", bad, arg, hint);
	return -EINVAL;
}

int ss_movie_parse(int argc, char **argv, struct ss_movie_args *a, char *err, size_t errlen)
{
	struct parse_ctx pc = { .a = a };
	int ret;

	memset(a, 0, sizeof(*a));
	ss_movie_opts_init(&a->m);
	if ((ret = ss_movie_parse_panels(DEFAULT_PANELS, &a->m, err, errlen)))
		return ret;
	ret = ss_optable_parse(options, SS_NR_OPTIONS(options), 0, argc, argv, take_option, &pc,
			       err, errlen);
	if (ret)
		return ret;
	if (pc.length_given && pc.speed_given) {
		ss_errf(err, errlen, "--length and --speed both set the length: give one");
		return -EINVAL;
	}
	if (pc.speed_given)
		a->m.length_s = 0;
	if ((ret = ss_plot_parse_traces(argc, argv, a->nr_labels, &a->traces, &a->nr_traces, err,
					errlen)))
		return ret;
	if (!a->out) {
		ss_errf(err, errlen, "name the output with -o OUT.mp4, .webm or .mkv");
		return -EINVAL;
	}
	if (!strcmp(a->out, "-") && !a->m.format) {
		ss_errf(err, errlen, "-o - (standard output) needs --format mp4, webm or mkv");
		return -EINVAL;
	}
	if (strcmp(a->out, "-") && a->m.format) {
		const char *dot = strrchr(a->out, '.');

		if (!dot || strchr(dot, '/') || strcasecmp(dot + 1, a->m.format)) {
			ss_errf(err, errlen, "--format %s but the output '%s' is another format's "
				"name", a->m.format, a->out);
			return -EINVAL;
		}
	}
	return 0;
}
