// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fuzz target: the pure parsers behind the command line and the event decoder — rwbs strings
 * (ss_rwbs_parse, checked to round-trip through ss_rwbs_format), --fsync modes, the archive
 * path policy (ss_untar_path_check, checked against a straightforward reference), the option
 * parsing of `report` and `dump` (run as commands: getopt tables, --seek-threshold numbers),
 * the argv parsers of every command: `record`, `plot`, `report`, `dump`, `convert`,
 * `mkarchive` and `movie` (parse only: no capture, no workload, no drawing, no file written)
 * and each of
 * their value parsers on its own: plot's --x-range, --y-range and device offsets (checked
 * against an exact __int128 reference: K/M/G/T multiply right and never overflow), --size,
 * --seek-threshold, --rolling, --panels, --units; record's -b, -e and --repeat; convert's
 * --fs-dev MAJ:MIN; mkarchive's --files/--dirs counts and --scale; movie's --size (even),
 * --length and --speed (plain decimals, against strtod).
 *
 * Input: first byte selects the parser (enum selector, fuzz_cli_values.h), the rest is its
 * text.  For the argv parsers the text is split at NUL or newline into argv; for report/dump
 * every argument that is not an option is replaced by a small valid trace so that no input
 * can make the harness open arbitrary host files (the parsers alone see the operands as
 * they are).
 * After any argv parse every command's known-valid command line must still parse to the same
 * options as before any input: getopt keeps static state that must not leak.
 */
#include <fcntl.h>
#include <math.h>
#include <zlib.h>

#include "commands.h"
#include "convert_args.h"
#include "dump_args.h"
#include "fuzz.h"
#include "fuzz_cli_values.h"
#include "mkarchive_args.h"
#include "movie_args.h"
#include "panel_registry.h"
#include "plot_args.h"
#include "record_args.h"
#include "render_args.h"
#include "report_args.h"
#include "seekscope/model.h"
#include "surface.h"
#include "tracecap.h"
#include "untar.h"

#define MAX_ARGS 33

static int devnull = -1;
static char trace_path[64];

/* A minimal valid trace (header + END record) in memory, for the file operands. */
static void make_trace(void)
{
	static int fd = -1;
	uint8_t buf[64 + 16 + 16] = "SEEKSCP\x1a";

	buf[8] = 1;                                   /* version */
	buf[12] = 4, buf[13] = 3, buf[14] = 2, buf[15] = 1; /* endian tag */
	buf[16] = 64;                                 /* header size */
	buf[20] = 16;                                 /* record header size */
	uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), buf + 80, 16);

	buf[64] = 8;                                  /* SS_REC_END, 16 zero bytes of payload */
	buf[68] = 16;
	buf[72] = (uint8_t)crc, buf[73] = (uint8_t)(crc >> 8);
	buf[74] = (uint8_t)(crc >> 16), buf[75] = (uint8_t)(crc >> 24);
	fuzz_memfile(&fd, buf, sizeof(buf), 0, trace_path, sizeof(trace_path));
}

/* Known-valid command lines of record and plot, and what they parsed to before any input. */
static const char *const valid_record[] = {
	"record", "-o", "a.sst", "-qd", "/dev/x", "-d/dev/y", "--buffer-size=64", "-e", "insert",
	"--no-zones", "dd", "if=/dev/zero", "-o", "x", NULL,
};
static const char *const valid_plot[] = {
	"plot", "a.sst", "-l", "one", "b.sst", "-o", "x.svg", "--x-range", "1.5:20",
	"--y-range=1G:2.5G", "-s800x600", "-p", "io,seeks", "-u", "mib", "-t", "256", "-r", "3",
	"-T", "t", NULL,
};
static const char *const valid_report[] = {
	"report", "a.sst", "-ja", "--seek-threshold=0", "b.sst", NULL,
};
static const char *const valid_dump[] = { "dump", "-n", "a.sst", "--absolute", NULL };
static const char *const valid_convert[] = {
	"convert", "in", "-oout.sst", "--fs", "img", "--fs-dev=8:16", "--fs-offset", "1M", "-q",
	NULL,
};
static const char *const valid_movie[] = {
	"movie", "a.sst", "-l", "one", "b.sst", "-o", "x.webm", "--style", "scan", "--speed", "2.5",
	"-s", "1280x720", "--skip-idle", "-p", "lat,seeks", "-x", "1:9", NULL,
};
static const char *const valid_mkarchive[] = {
	"mkarchive", "--files", "40", "--dirs=5", "--seed", "0x2a", "--scale", "0.5", "--top", "t",
	"-qo", "t.tar", NULL,
};
static struct ss_record_opts ref_record;
static struct ss_plot_args ref_plot;
static struct ss_report_args ref_report;
static struct ss_dump_args ref_dump;
static struct ss_convert_args ref_convert;
static struct ss_mkarchive_args ref_mkarchive;
static struct ss_movie_args ref_movie;
static char *ref_movie_argv[MAX_ARGS + 1];
static char *ref_record_argv[MAX_ARGS + 1], *ref_plot_argv[MAX_ARGS + 1];
static char *ref_report_argv[MAX_ARGS + 1], *ref_dump_argv[MAX_ARGS + 1];
static char *ref_convert_argv[MAX_ARGS + 1], *ref_mkarchive_argv[MAX_ARGS + 1];

/* A writable copy of a template argv (getopt may permute it); its argc. */
static int copy_argv(const char *const *tmpl, char **argv)
{
	int n = 0;

	for (; tmpl[n]; n++)
		argv[n] = (char *)tmpl[n];
	argv[n] = NULL;
	return n;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char err[200];

	(void)argc, (void)argv;
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	make_trace();
	FUZZ_ASSERT(ss_record_parse(copy_argv(valid_record, ref_record_argv), ref_record_argv,
				    &ref_record, err, sizeof(err)) == 0, "valid record line: %s", err);
	FUZZ_ASSERT(ss_plot_parse(copy_argv(valid_plot, ref_plot_argv), ref_plot_argv, &ref_plot,
				  err, sizeof(err)) == 0, "valid plot line: %s", err);
	FUZZ_ASSERT(ss_report_parse(copy_argv(valid_report, ref_report_argv), ref_report_argv,
				    &ref_report, err, sizeof(err)) == 0, "valid report line: %s", err);
	FUZZ_ASSERT(ss_dump_parse(copy_argv(valid_dump, ref_dump_argv), ref_dump_argv, &ref_dump,
				  err, sizeof(err)) == 0, "valid dump line: %s", err);
	FUZZ_ASSERT(ss_convert_parse(copy_argv(valid_convert, ref_convert_argv), ref_convert_argv,
				     &ref_convert, err, sizeof(err)) == 0, "valid convert line: %s",
		    err);
	FUZZ_ASSERT(ss_mkarchive_parse(copy_argv(valid_mkarchive, ref_mkarchive_argv),
				       ref_mkarchive_argv, &ref_mkarchive, err, sizeof(err)) == 0,
		    "valid mkarchive line: %s", err);
	FUZZ_ASSERT(ss_movie_parse(copy_argv(valid_movie, ref_movie_argv), ref_movie_argv,
				   &ref_movie, err, sizeof(err)) == 0, "valid movie line: %s", err);
	return 0;
}

/* The policy spelled out the slow way: split at '/', refuse any ".." component, count the
 * others but "." (the inputs here are too short to pass the limit: test_untar.c checks it). */
static int ref_path_check(const char *p)
{
	char *copy, *tok, *save = NULL;
	size_t depth = 0;
	int ret = 0;

	if (!*p)
		return -EINVAL;
	if (*p == '/')
		return -EPERM;
	copy = strdup(p);
	if (!copy)
		return 0;
	for (tok = strtok_r(copy, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (!strcmp(tok, ".."))
			ret = -EPERM;
		depth += strcmp(tok, ".") != 0;
	}
	free(copy);
	if (!ret && depth > SS_UNTAR_MAX_DEPTH)
		ret = -ENAMETOOLONG;
	return ret;
}

/*
 * TEXT split at newlines/NULs into ARGV after NAME, at most MAX_ARGS in all; argc.  The
 * strings live in the returned buffer (the caller frees it).  With TRACES, every argument that
 * is not an option becomes the small valid trace.
 */
static char *split_argv(const char *name, const char *text, size_t len, bool traces,
			char **argv, int *argc)
{
	char *buf = malloc(len + 1);
	size_t start = 0;
	int n = 0;

	if (!buf)
		return NULL;
	memcpy(buf, text, len);
	buf[len] = 0;
	argv[n++] = (char *)name;
	for (size_t i = 0; i <= len && n < MAX_ARGS; i++) {
		if (i == len || buf[i] == '\n' || buf[i] == '\0') {
			buf[i] = 0;
			argv[n++] = !traces || buf[start] == '-' ? buf + start : trace_path;
			start = i + 1;
		}
	}
	argv[n] = NULL;
	*argc = n;
	return buf;
}

/*
 * Run CMD with argv from TEXT (split at newlines/NULs); output discarded.  Returns its exit
 * status; the argument strings stay allocated in *KEEP (the caller frees it) so that state a
 * parse leaves pointing into them is still readable and misparses show up deterministically.
 */
static int run_cmd(int (*cmd)(int, char **), const char *name, const char *text, size_t len,
		   char **keep)
{
	char *buf, *argv[MAX_ARGS + 1];
	int argc, saved_out, saved_err, ret;

	buf = split_argv(name, text, len, true, argv, &argc);
	if (!buf)
		return -1;
	fflush(stdout);
	fflush(stderr);
	saved_out = dup(STDOUT_FILENO);
	saved_err = ss_fuzz_replay ? -1 : dup(STDERR_FILENO);
	dup2(devnull, STDOUT_FILENO);
	if (saved_err >= 0)
		dup2(devnull, STDERR_FILENO);
	ret = cmd(argc, argv);  /* each command resets getopt itself */
	fflush(stdout);
	fflush(stderr);
	if (saved_out >= 0) {
		dup2(saved_out, STDOUT_FILENO);
		close(saved_out);
	}
	if (saved_err >= 0) {
		dup2(saved_err, STDERR_FILENO);
		close(saved_err);
	}
	*keep = buf;
	return ret;
}

/* ---- record and plot: argv parsing --------------------------------------------------- */

static bool same_str(const char *a, const char *b)
{
	return a == b || (a && b && !strcmp(a, b));
}

static bool same_strv(char *const *a, char *const *b, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!same_str(a[i], b[i]))
			return false;
	return true;
}

static bool same_record(const struct ss_record_opts *a, const struct ss_record_opts *b)
{
	size_t na = 0, nb = 0;

	while (a->command && a->command[na])
		na++;
	while (b->command && b->command[nb])
		nb++;
	return same_str(a->output, b->output) && a->nr_devs == b->nr_devs &&
	       same_strv((char *const *)a->devs, (char *const *)b->devs, a->nr_devs) &&
	       a->buffer_kb == b->buffer_kb && a->extra == b->extra && a->quiet == b->quiet &&
	       a->no_zones == b->no_zones && !a->command == !b->command && na == nb &&
	       (!a->command || same_strv(a->command, b->command, na)) &&
	       same_str(a->untar.archive, b->untar.archive) &&
	       same_str(a->untar.dest, b->untar.dest) &&
	       a->untar.fsync_mode == b->untar.fsync_mode && a->untar.repeat == b->untar.repeat &&
	       a->untar.drop_caches == b->untar.drop_caches &&
	       a->untar.delete_after == b->untar.delete_after;
}

static bool same_plot(const struct ss_plot_args *a, const struct ss_plot_args *b)
{
	const struct ss_graph_opts *g = &a->g, *h = &b->g;

	return same_str(a->out, b->out) && a->nr_labels == b->nr_labels &&
	       same_strv((char *const *)a->labels, (char *const *)b->labels, (size_t)a->nr_labels) &&
	       a->size_given == b->size_given && a->quiet == b->quiet && a->nr_traces == b->nr_traces &&
	       same_strv(a->traces, b->traces, (size_t)a->nr_traces) && g->width == h->width &&
	       g->height == h->height && same_str(g->title, h->title) &&
	       g->nr_panels == h->nr_panels &&
	       !memcmp(g->panels, h->panels, sizeof(g->panels[0]) * (size_t)g->nr_panels) &&
	       g->has_x_range == h->has_x_range && g->x_lo_s == h->x_lo_s &&
	       g->x_hi_s == h->x_hi_s && g->has_y_range == h->has_y_range && g->y_lo == h->y_lo &&
	       g->y_hi == h->y_hi && g->units == h->units && g->seek_threshold == h->seek_threshold &&
	       g->rolling == h->rolling;
}

/* What any parse may return: 0, --help, or -EINVAL with a reason. */
#define CHECK_RET(cmd, s, ret, err)                                                         \
	do {                                                                                \
		FUZZ_ASSERT((ret) == 0 || (ret) == SS_PARSE_HELP || (ret) == SS_PARSE_VERSION ||  \
			    (ret) == -EINVAL, cmd " '%s': %d", s, ret);                         \
		FUZZ_ASSERT((ret) != -EINVAL || (err)[0], cmd " '%s': refused without a reason", \
			    s);                                                             \
	} while (0)

/* record's argv: what a parse may return and what a successful one must hold. */
static void check_record(const char *s, char **argv, int argc)
{
	char *before[MAX_ARGS + 1], err[200] = "x";
	struct ss_record_opts o;
	int ret;

	memcpy(before, argv, sizeof(before[0]) * (size_t)(argc + 1));
	ret = ss_record_parse(argc, argv, &o, err, sizeof(err));
	CHECK_RET("record", s, ret, err);
	/* '+': options stop at the command, so argv is never permuted under its feet */
	FUZZ_ASSERT(!memcmp(before, argv, sizeof(before[0]) * (size_t)(argc + 1)),
		    "record '%s': argv permuted", s);
	if (ret)
		return;
	FUZZ_ASSERT(o.nr_devs >= 1 && o.nr_devs <= SS_RECORD_MAX_DEVS, "record '%s': %zu devices",
		    s, o.nr_devs);
	for (size_t i = 0; i < o.nr_devs; i++)
		FUZZ_ASSERT(o.devs[i], "record '%s': device %zu NULL", s, i);
	FUZZ_ASSERT(o.output && o.buffer_kb >= SS_RECORD_MIN_BUFFER_KB &&
		    o.buffer_kb <= SS_RECORD_MAX_BUFFER_KB, "record '%s': buffer %zu", s, o.buffer_kb);
	FUZZ_ASSERT(!(o.extra & ~(SS_CAP_INSERT | SS_CAP_QUEUE)), "record '%s': events %#x", s,
		    o.extra);
	if (o.untar.archive || o.untar.dest)
		FUZZ_ASSERT(o.untar.archive && o.untar.dest && !o.command && o.untar.repeat >= 1 &&
			    o.untar.repeat <= SS_UNTAR_MAX_REPEAT, "record '%s': untar options", s);
	if (o.command) {
		ptrdiff_t at = o.command - argv;

		FUZZ_ASSERT(at >= 1 && at < argc, "record '%s': command at %td of %d", s, at, argc);
		/* the command is the first operand: a non-option, or what follows "--" */
		FUZZ_ASSERT(o.command[0][0] != '-' || !o.command[0][1] || !strcmp(argv[at - 1], "--"),
			    "record '%s': command starts with option '%s'", s, o.command[0]);
	}
}

static void check_plot(const char *s, char **argv, int argc)
{
	const struct ss_graph_opts *g;
	struct ss_plot_args a;
	char err[200] = "x";
	int ret;

	ret = ss_plot_parse(argc, argv, &a, err, sizeof(err));
	CHECK_RET("plot", s, ret, err);
	if (ret)
		return;
	g = &a.g;
	FUZZ_ASSERT(a.nr_traces >= 1 && a.nr_traces <= SS_GRAPH_MAX_TRACES &&
		    a.nr_labels <= a.nr_traces && a.traces + a.nr_traces <= argv + argc,
		    "plot '%s': %d traces, %d labels", s, a.nr_traces, a.nr_labels);
	FUZZ_ASSERT(!a.out || !strcmp(a.out, "-") || a.html || ss_out_format_from_path(a.out) >= 0,
		    "plot '%s': output", s);
	FUZZ_ASSERT(!g->has_x_range || (g->x_lo_s >= 0 && g->x_lo_s < g->x_hi_s &&
					g->x_hi_s <= SS_PLOT_MAX_X_S), "plot '%s': x range", s);
	FUZZ_ASSERT(!g->has_y_range || g->y_lo < g->y_hi, "plot '%s': y range", s);
	FUZZ_ASSERT(g->width >= SS_PLOT_MIN_WIDTH && g->height >= SS_PLOT_MIN_HEIGHT &&
		    g->width <= SS_PLOT_MAX_SIDE && g->height <= SS_PLOT_MAX_SIDE,
		    "plot '%s': size %dx%d", s, g->width, g->height);
	FUZZ_ASSERT(g->seek_threshold <= SS_SEEK_THRESHOLD_MAX &&
		    g->rolling <= SS_PLOT_MAX_ROLLING && g->nr_panels >= 0 &&
		    g->nr_panels <= SS_GRAPH_MAX_PANELS && (unsigned)g->units <= SS_UNITS_GIB,
		    "plot '%s': graph options", s);
}

static bool same_report(const struct ss_report_args *a, const struct ss_report_args *b)
{
	return a->ro.json == b->ro.json && a->ro.all_zones == b->ro.all_zones &&
	       a->ro.seek_threshold == b->ro.seek_threshold && a->nr_files == b->nr_files &&
	       same_strv(a->files, b->files, (size_t)a->nr_files);
}

static bool same_dump(const struct ss_dump_args *a, const struct ss_dump_args *b)
{
	return a->no_events == b->no_events && a->absolute == b->absolute && a->quiet == b->quiet &&
	       same_str(a->file, b->file);
}

static bool same_convert(const struct ss_convert_args *a, const struct ss_convert_args *b)
{
	return same_str(a->in, b->in) && same_str(a->out, b->out) && same_str(a->fs, b->fs) &&
	       a->fs_dev_given == b->fs_dev_given && a->fs_dev == b->fs_dev &&
	       a->fs_offset_given == b->fs_offset_given && a->fs_offset == b->fs_offset &&
	       a->quiet == b->quiet;
}

static bool same_mkarchive(const struct ss_mkarchive_args *ma, const struct ss_mkarchive_args *mb)
{
	const struct ss_gentree_opts *a = &ma->g, *b = &mb->g;

	return same_str(a->path, b->path) && a->seed == b->seed && a->files == b->files &&
	       a->dirs == b->dirs && a->scale == b->scale && same_str(a->top, b->top) &&
	       ma->quiet == mb->quiet;
}

static void check_report(const char *s, char **argv, int argc)
{
	struct ss_report_args a;
	char err[200] = "x";
	int ret = ss_report_parse(argc, argv, &a, err, sizeof(err));

	CHECK_RET("report", s, ret, err);
	if (ret)
		return;
	FUZZ_ASSERT(a.nr_files >= 1 && a.files > argv && a.files + a.nr_files == argv + argc,
		    "report '%s': %d files", s, a.nr_files);
	for (int i = 0; i < a.nr_files; i++)
		FUZZ_ASSERT(a.files[i], "report '%s': file %d NULL", s, i);
}

static void check_dump(const char *s, char **argv, int argc)
{
	struct ss_dump_args a;
	char err[200] = "x";
	int ret = ss_dump_parse(argc, argv, &a, err, sizeof(err));

	CHECK_RET("dump", s, ret, err);
	if (!ret)
		FUZZ_ASSERT(a.file && a.file == argv[argc - 1], "dump '%s': file", s);
}

static void check_convert(const char *s, char **argv, int argc)
{
	struct ss_convert_args a;
	char err[200] = "x";
	int ret = ss_convert_parse(argc, argv, &a, err, sizeof(err));

	CHECK_RET("convert", s, ret, err);
	if (ret)
		return;
	FUZZ_ASSERT(a.in && a.in == argv[argc - 1] && a.out, "convert '%s': in/out", s);
	FUZZ_ASSERT(a.fs || (!a.fs_dev_given && !a.fs_offset_given), "convert '%s': --fs-* alone",
		    s);
	FUZZ_ASSERT(a.fs_dev_given || !a.fs_dev, "convert '%s': --fs-dev set, not given", s);
	FUZZ_ASSERT(a.fs_offset_given || !a.fs_offset, "convert '%s': --fs-offset set", s);
}

static void check_mkarchive(const char *s, char **argv, int argc)
{
	struct ss_mkarchive_args ma;
	const struct ss_gentree_opts *o = &ma.g;
	char err[200] = "x";
	int ret = ss_mkarchive_parse(argc, argv, &ma, err, sizeof(err));

	CHECK_RET("mkarchive", s, ret, err);
	if (ret)
		return;
	FUZZ_ASSERT(o->path && o->files <= SS_GENTREE_MAX_FILES && o->dirs <= SS_GENTREE_MAX_DIRS &&
		    (o->scale == 0 || (isfinite(o->scale) && o->scale > 0 &&
				       o->scale <= SS_GENTREE_MAX_SCALE)),
		    "mkarchive '%s': options", s);
}

static bool same_movie(const struct ss_movie_args *a, const struct ss_movie_args *b)
{
	const struct ss_movie_opts *m = &a->m, *n = &b->m;

	return same_str(a->out, b->out) && a->nr_labels == b->nr_labels &&
	       same_strv((char *const *)a->labels, (char *const *)b->labels, (size_t)a->nr_labels) &&
	       a->nr_traces == b->nr_traces && same_strv(a->traces, b->traces, (size_t)a->nr_traces) &&
	       a->quiet == b->quiet && m->style == n->style && m->width == n->width &&
	       m->height == n->height && m->fps == n->fps && m->length_s == n->length_s &&
	       m->speed == n->speed && m->cell == n->cell && m->fade == n->fade &&
	       m->skip_idle == n->skip_idle && m->has_x_range == n->has_x_range &&
	       m->x_lo_s == n->x_lo_s && m->x_hi_s == n->x_hi_s && same_str(m->title, n->title) &&
	       m->nr_panels == n->nr_panels &&
	       !memcmp(m->panels, n->panels, sizeof(m->panels[0]) * (size_t)m->nr_panels) &&
	       m->seek_threshold == n->seek_threshold;
}

static void check_movie(const char *s, char **argv, int argc)
{
	const struct ss_movie_opts *m;
	struct ss_movie_args a;
	char err[200] = "x";
	int ret = ss_movie_parse(argc, argv, &a, err, sizeof(err));

	CHECK_RET("movie", s, ret, err);
	if (ret)
		return;
	m = &a.m;
	FUZZ_ASSERT(a.out && a.nr_traces >= 1 && a.nr_traces <= SS_GRAPH_MAX_TRACES &&
		    a.nr_labels <= a.nr_traces && a.traces + a.nr_traces <= argv + argc,
		    "movie '%s': %d traces, %d labels", s, a.nr_traces, a.nr_labels);
	FUZZ_ASSERT((unsigned)m->style < SS_MOVIE_NR_STYLES && m->fps >= 1 &&
		    m->fps <= SS_MOVIE_MAX_FPS && m->cell >= SS_MOVIE_MIN_CELL &&
		    m->cell <= SS_MOVIE_MAX_CELL && m->fade >= 1 && m->fade <= SS_MOVIE_MAX_FADE,
		    "movie '%s': options", s);
	FUZZ_ASSERT((m->length_s > 0 && m->length_s <= SS_MOVIE_MAX_LENGTH_S && m->speed == 0) ||
		    (m->length_s == 0 && m->speed > 0 && m->speed <= 1e9),
		    "movie '%s': length %g, speed %g", s, m->length_s, m->speed);
	FUZZ_ASSERT(m->width >= SS_MOVIE_MIN_WIDTH && m->height >= SS_MOVIE_MIN_HEIGHT &&
		    m->width <= SS_MOVIE_MAX_SIDE && m->height <= SS_MOVIE_MAX_SIDE &&
		    !(m->width % 2) && !(m->height % 2), "movie '%s': size %dx%d", s, m->width,
		    m->height);
	FUZZ_ASSERT(m->nr_panels >= 0 && m->nr_panels <= SS_MOVIE_MAX_PANELS,
		    "movie '%s': %d panels", s, m->nr_panels);
	for (int i = 0; i < m->nr_panels; i++)
		FUZZ_ASSERT(m->panels[i] && m->panels[i]->time_x && !m->panels[i]->sector_y,
			    "movie '%s': panel %d", s, i);
	FUZZ_ASSERT(!m->has_x_range || (m->x_lo_s >= 0 && m->x_lo_s < m->x_hi_s),
		    "movie '%s': x range", s);
}

/* After any parse, the known-valid lines parse as they did before any input. */
static void check_valid_lines(const char *s)
{
	char *argv[MAX_ARGS + 1], err[200];
	struct ss_record_opts o;
	struct ss_plot_args a;
	struct ss_report_args ra;
	struct ss_dump_args da;
	struct ss_convert_args ca;
	struct ss_mkarchive_args mo;
	struct ss_movie_args va;

	FUZZ_ASSERT(ss_record_parse(copy_argv(valid_record, argv), argv, &o, err, sizeof(err)) == 0 &&
		    same_record(&o, &ref_record), "valid record line parsed otherwise after '%s'", s);
	FUZZ_ASSERT(ss_plot_parse(copy_argv(valid_plot, argv), argv, &a, err, sizeof(err)) == 0 &&
		    same_plot(&a, &ref_plot), "valid plot line parsed otherwise after '%s'", s);
	FUZZ_ASSERT(ss_report_parse(copy_argv(valid_report, argv), argv, &ra, err, sizeof(err)) == 0
		    && same_report(&ra, &ref_report), "valid report line parsed otherwise after '%s'",
		    s);
	FUZZ_ASSERT(ss_dump_parse(copy_argv(valid_dump, argv), argv, &da, err, sizeof(err)) == 0 &&
		    same_dump(&da, &ref_dump), "valid dump line parsed otherwise after '%s'", s);
	FUZZ_ASSERT(ss_convert_parse(copy_argv(valid_convert, argv), argv, &ca, err, sizeof(err))
		    == 0 && same_convert(&ca, &ref_convert),
		    "valid convert line parsed otherwise after '%s'", s);
	FUZZ_ASSERT(ss_mkarchive_parse(copy_argv(valid_mkarchive, argv), argv, &mo, err,
				       sizeof(err)) == 0 && same_mkarchive(&mo, &ref_mkarchive),
		    "valid mkarchive line parsed otherwise after '%s'", s);
	FUZZ_ASSERT(ss_movie_parse(copy_argv(valid_movie, argv), argv, &va, err, sizeof(err)) == 0 &&
		    same_movie(&va, &ref_movie), "valid movie line parsed otherwise after '%s'", s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = (const char *)data + 1;
	size_t len = size ? size - 1 : 0;
	char *s, *k1 = NULL, *k2 = NULL, *argv[MAX_ARGS + 1];
	int argc;

	if (!size || size > 4096)
		return 0;
	s = strndup(text, len);     /* NUL-terminated view (cut at the first NUL) */
	if (!s)
		return 0;
	switch ((enum selector)(data[0] % NR_SELECTORS)) {
	case SEL_RWBS: {                   /* rwbs: one op at most; formatting is stable */
		/* Not f == parse(format(f)): the kernel's own text is ambiguous ("FF" is a
		 * preflush flush or a flush with FUA), so the text, not the flags, round-trips. */
		char out[16], out2[16];
		uint16_t f = ss_rwbs_parse(text, len), ops;

		ops = f & (SS_RW_READ | SS_RW_WRITE | SS_RW_DISCARD | SS_RW_FLUSH | SS_RW_NONE);
		FUZZ_ASSERT(!(ops & (ops - 1)), "rwbs '%s' -> %#x: several ops", s, f);
		FUZZ_ASSERT(!f || ops, "rwbs '%s' -> %#x: flags without an op", s, f);
		ss_rwbs_format(f, out, sizeof(out));
		ss_rwbs_format(ss_rwbs_parse(out, strlen(out)), out2, sizeof(out2));
		FUZZ_ASSERT(!strcmp(out, out2), "rwbs '%s' -> '%s' -> '%s'", s, out, out2);
		break;
	}
	case SEL_FSYNC: {           /* --fsync MODE */
		enum ss_fsync_mode m = SS_FSYNC_END;

		if (ss_fsync_mode_parse(s, &m) == 0)
			FUZZ_ASSERT(!strcmp(ss_fsync_mode_name(m), s), "fsync '%s'", s);
		break;
	}
	case SEL_PATH:              /* archive path policy */
		FUZZ_ASSERT(ss_untar_path_check(s) == ref_path_check(s), "path check '%s': %d vs %d",
			    s, ss_untar_path_check(s), ref_path_check(s));
		break;
	/* Then a valid command line, which must succeed whatever the previous parse left
	 * behind: getopt keeps static state, and tests (and a future plot) run commands
	 * repeatedly in one process. */
	case SEL_REPORT:
		if ((k1 = split_argv("report", text, len, false, argv, &argc)))
			check_report(s, argv, argc);
		free(k1);
		k1 = NULL;
		run_cmd(ss_cmd_report, "report", text, len, &k1);
		FUZZ_ASSERT(run_cmd(ss_cmd_report, "report", "-j\nx", 4, &k2) == 0,
			    "report -j FILE failed after 'report %s'", s);
		break;
	case SEL_DUMP:
		if ((k1 = split_argv("dump", text, len, false, argv, &argc)))
			check_dump(s, argv, argc);
		free(k1);
		k1 = NULL;
		run_cmd(ss_cmd_dump, "dump", text, len, &k1);
		FUZZ_ASSERT(run_cmd(ss_cmd_dump, "dump", "--no-events\nx", 13, &k2) == 0,
			    "dump --no-events FILE failed after 'dump %s'", s);
		break;
	case SEL_RECORD:            /* parse only: never a capture, never a workload */
	case SEL_PLOT:              /* parse only: nothing drawn */
	case SEL_CONVERT:           /* parse only: nothing read or written */
	case SEL_MKARCHIVE:         /* parse only: no archive written */
	case SEL_MOVIE: {           /* parse only: nothing read, drawn or encoded */
		static const struct {
			const char *name;
			void (*check)(const char *s, char **argv, int argc);
		} parsers[] = {
			[SEL_RECORD] = { "record", check_record },
			[SEL_PLOT] = { "plot", check_plot },
			[SEL_CONVERT] = { "convert", check_convert },
			[SEL_MKARCHIVE] = { "mkarchive", check_mkarchive },
			[SEL_MOVIE] = { "movie", check_movie },
		};
		unsigned sel = data[0] % NR_SELECTORS;

		k1 = split_argv(parsers[sel].name, text, len, false, argv, &argc);
		if (!k1)
			break;
		parsers[sel].check(s, argv, argc);
		check_valid_lines(s);
		break;
	}
	default:
		check_values((enum selector)(data[0] % NR_SELECTORS), s);
		break;
	}
	free(k1);
	free(k2);
	free(s);
	return 0;
}
