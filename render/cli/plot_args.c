// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * seekscope plot's command line (plot_args.h): the option table, which is also the source of
 * --help, the parsers of the option values and the parse into struct ss_plot_args.  Prints
 * nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "errbuf.h"
#include "panel_registry.h"
#include "device_arg.h"
#include "plot_args.h"
#include "surface.h"
#include "ticks.h"

#define PROG "seekscope plot"

/* --panels' help: the default set, then one line per registered panel. */
static void panels_help(char *buf, size_t len)
{
	size_t n = 0;
	char defaults[128];

	ss_panels_names(defaults, sizeof(defaults), true);
	n += (size_t)snprintf(buf, len, "top to bottom (default %s)", defaults);
	for (size_t i = 0; i < ss_panels_count() && n < len; i++)
		n += (size_t)snprintf(buf + n, len - n, "\n%-5s %s", ss_panels_at(i)->name,
				      ss_panels_at(i)->help);
}

enum { OPT_ALIGN = SS_OPT_LONG_ONLY, OPT_DEVICE };

static const struct ss_option options[] = {
	{ "output", 'o', "FILE", "picture to write: .png, .svg or .pdf picks the\n"
				 "format (default: first TRACE's name with .png)" },
	{ "label", 'l', "LABEL", "name of the next trace's column; once per TRACE\n"
				 "(default: the file name)" },
	{ "panels", 'p', "LIST", NULL, panels_help },
	{ "title", 'T', "TITLE", "title above the plots" },
	{ "size", 's', "WxH", "picture size in pixels (PDF: points); default\n"
			      "1600 wide for one trace, 1100 more per extra trace" },
	{ "x-range", 'x', "A:B", "show seconds A to B after each trace's start; the table\n"
				 "and the seek distances summarise only that window" },
	{ "align", OPT_ALIGN, "PHASE", "line the traces up on the start of PHASE (e.g.\n"
				       "extract) instead of their start; time is counted\n"
				       "from there and what came before is not drawn" },
	{ "device", OPT_DEVICE, "DEV", SS_DEVICE_ARG_HELP "; without it, each\n"
				       "device of a trace gets its own io panel" },
	{ "y-range", 'y', "A:B", "device offsets in the io panel: sectors, or bytes\n"
				 "with K, M, G, T (binary), e.g. 1G:2G; default: the\n"
				 "whole filesystem when the trace has zones, else\n"
				 "the range the I/O touched" },
	{ "units", 'u', "UNIT", "offset axis: auto, sectors, mib or gib" },
	{ "seek-threshold", 't', "N", "sectors an I/O may start from the previous end\n"
				      "without being a seek (default 128)" },
	{ "rolling", 'r', "N", "smooth time series: moving average over N bins" },
	SS_OPTION_HELP,
};

const struct ss_help ss_plot_help = {
	.usage = PROG " TRACE... [-o OUT.png|.svg|.pdf] [-l LABEL]... [OPTIONS]",
	.description =
		"Draw where on the disk the I/O of each trace went and how much seeking it\n"
		"cost.  Several TRACEs are drawn side by side on shared time and value scales,\n"
		"with a summary table: totals beside rates per trace, phase and extract+sync\n"
		"(time to durable); the lower duration and seeks of runs of the same work\n"
		"highlighted (same archive, --fsync, --repeat and phase; at least 100 I/Os or\n"
		"1 MB; no lost events).",
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
		"\nEXIT STATUS:\n"
		"  0 on success, 1 if a trace cannot be read or the picture cannot be written,\n"
		"  2 on a usage error.  An --x-range past the end of a trace is not an error:\n"
		"  its column says so, a warning names the trace on stderr, and the exit is 0.",
	.examples =
		"  " PROG " untar.sst -o untar.png\n"
		"  " PROG " ag1.sst ag4.sst -l agcount=1 -l agcount=4 -o ag.svg\n"
		"  " PROG " untar.sst --panels io,seeks --x-range 10:20 \\\n"
		"      --y-range 2G:3G -o zoom.pdf",
};

/* Leading decimal digits of S into *V, the first byte after them into *END.  -EINVAL when
 * there are none, -ERANGE past UINT64_MAX. */
static int scan_digits(const char *s, const char **end, uint64_t *v)
{
	const char *p = s;
	uint64_t n = 0;

	for (; *p >= '0' && *p <= '9'; p++) {
		unsigned d = (unsigned)(*p - '0');

		if (n > (UINT64_MAX - d) / 10)
			return -ERANGE;
		n = n * 10 + d;
	}
	*end = p;
	*v = n;
	return p == s ? -EINVAL : 0;
}

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

/*
 * An offset in S[0..LEN).  sectors = round(x * 2^e) with x = WHOLE.FRAC and e the suffix's
 * power of two over a 512-byte sector (0 without a suffix), in integers: WHOLE << e plus the
 * fraction's share rounded, FRAC < 10^9 so that FRAC << 31 fits.
 */
static int parse_offset_n(const char *s, size_t len, uint64_t *sectors)
{
	static const struct { char c; int e; } suffixes[] = {
		{ 'k', 1 }, { 'm', 11 }, { 'g', 21 }, { 't', 31 },
	};
	const char *p, *end = s + len;
	uint64_t whole, frac = 0, scale = 1, part;
	int e = 0, digits = 0;

	if (scan_digits(s, &p, &whole) || p > end)
		return -EINVAL;
	if (p < end && *p == '.') {
		for (p++; p < end && *p >= '0' && *p <= '9'; p++) {
			if (++digits > SS_PLOT_MAX_FRACTION_DIGITS)
				return -EINVAL;
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	}
	if (p < end) {
		for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++)
			if ((*p | 0x20) == suffixes[i].c)
				e = suffixes[i].e;
		if (!e)
			return -EINVAL;
		p++;
		if ((size_t)(end - p) == 1 && (*p | 0x20) == 'b')
			p++;
		else if ((size_t)(end - p) == 2 && (*p | 0x20) == 'i' && (p[1] | 0x20) == 'b')
			p += 2;
	}
	if (p != end || whole > UINT64_MAX >> e)
		return -EINVAL;
	part = ((frac << e) + scale / 2) / scale;
	if ((whole << e) > UINT64_MAX - part)
		return -EINVAL;
	*sectors = (whole << e) + part;
	return 0;
}

int ss_plot_parse_offset(const char *s, uint64_t *sectors)
{
	return parse_offset_n(s, strlen(s), sectors);
}

int ss_plot_parse_y_range(const char *s, uint64_t *lo, uint64_t *hi)
{
	const char *colon = strchr(s, ':');
	uint64_t a, b;

	if (!colon || parse_offset_n(s, (size_t)(colon - s), &a) ||
	    ss_plot_parse_offset(colon + 1, &b) || !(a < b))
		return -EINVAL;
	*lo = a;
	*hi = b;
	return 0;
}

int ss_plot_parse_size(const char *s, int *w, int *h)
{
	const char *x, *end;
	uint64_t vw, vh;

	if (scan_digits(s, &x, &vw) || *x != 'x' || scan_digits(x + 1, &end, &vh) || *end ||
	    vw < SS_PLOT_MIN_WIDTH || vh < SS_PLOT_MIN_HEIGHT || vw > SS_PLOT_MAX_SIDE ||
	    vh > SS_PLOT_MAX_SIDE)
		return -EINVAL;
	*w = (int)vw;
	*h = (int)vh;
	return 0;
}

int ss_plot_parse_seek_threshold(const char *s, uint64_t *sectors)
{
	return ss_optarg_uint(s, 10, 1, SS_PLOT_MAX_SEEK_THRESHOLD, sectors) ? -EINVAL : 0;
}

int ss_plot_parse_rolling(const char *s, unsigned *bins)
{
	return ss_optarg_unsigned(s, 0, SS_PLOT_MAX_ROLLING, bins) ? -EINVAL : 0;
}

/* One option's value into the struct ss_plot_args at CTX (ss_optable_parse's TAKE). */
static int take_option(void *ctx, int c, const char *arg, char *err, size_t errlen)
{
	struct ss_plot_args *a = ctx;
	const char *bad = NULL, *hint = NULL;   /* "bad --BAD 'ARG' (HINT)" */

	switch (c) {
	case 'o':
		if (ss_out_format_from_path(arg) < 0) {
			ss_errf(err, errlen, "output '%s' must end in .png, .svg or .pdf", arg);
			return -EINVAL;
		}
		a->out = arg;
		return 0;
	case 'l':
		if (a->nr_labels >= SS_GRAPH_MAX_TRACES) {
			ss_errf(err, errlen, "too many labels (at most %d)", SS_GRAPH_MAX_TRACES);
			return -EINVAL;
		}
		a->labels[a->nr_labels++] = arg;
		return 0;
	case 'p':
		return ss_panels_parse(&a->g, arg, err, errlen);
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
		if (ss_plot_parse_seek_threshold(arg, &a->g.seek_threshold))
			bad = "seek-threshold", hint = "sectors, 1 to 2^40";
		break;
	case OPT_ALIGN:
		if (!*arg || strlen(arg) >= sizeof(((struct ss_rec_phase *)0)->name))
			bad = "align", hint = "a phase name, 1 to 31 characters";
		a->g.align = arg;
		break;
	case OPT_DEVICE:
		if (!*arg)
			bad = "device", hint = "a device name or MAJ:MIN";
		a->g.device = arg;
		break;
	case 'r':
		if (ss_plot_parse_rolling(arg, &a->g.rolling))
			bad = "rolling", hint = "bins, 0 to 10000";
		break;
	default:
		return ss_optable_unhandled(c, err, errlen);
	}
	if (!bad)
		return 0;
	ss_errf(err, errlen, "bad --%s '%s' (%s)", bad, arg, hint);
	return -EINVAL;
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
	a->traces = argv + optind;
	a->nr_traces = argc - optind;
	if (a->nr_traces <= 0) {
		ss_errf(err, errlen, "no TRACE given");
		return -EINVAL;
	}
	if (a->nr_traces > SS_GRAPH_MAX_TRACES) {
		ss_errf(err, errlen, "too many traces (at most %d side by side)", SS_GRAPH_MAX_TRACES);
		return -EINVAL;
	}
	if (a->nr_labels > a->nr_traces) {
		ss_errf(err, errlen, "more -l labels than traces");
		return -EINVAL;
	}
	return 0;
}
