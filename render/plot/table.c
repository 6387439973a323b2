// SPDX-License-Identifier: GPL-2.0-or-later
/* The summary table: its rows, its columns, the honest highlights and the drawing; see table.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "palette.h"
#include "table.h"
#include "text.h"

enum rank {
	SHOWN,                      /* a figure, never ranked */
	LOWER,                      /* lower is better among runs of the same work */
	LOWER_TIMED,                /* the same, in rows whose period is the work's (not "all") */
};

struct column {
	const char *head;
	enum rank rank;
	bool (*get)(const struct ss_table_row *r, double *v);
	const char *fmt;
	bool warn_nonzero;          /* a non-zero value is drawn as a warning */
	int keep;                   /* in a picture too narrow for every column, the lowest go
				     * first (report has them all) */
};

static bool get_dur(const struct ss_table_row *r, double *v) { *v = r->s->duration_s; return true; }
static bool get_ios(const struct ss_table_row *r, double *v)
{
	*v = (double)r->s->ios;
	return true;
}
static bool get_seeks(const struct ss_table_row *r, double *v)
{
	*v = (double)r->s->seeks;
	return true;
}
static bool get_rmb(const struct ss_table_row *r, double *v) { *v = r->s->read_mb_s; return true; }
static bool get_wmb(const struct ss_table_row *r, double *v) { *v = r->s->write_mb_s; return true; }
static bool get_iops(const struct ss_table_row *r, double *v) { *v = r->s->iops; return true; }
static bool get_seeks_s(const struct ss_table_row *r, double *v)
{
	*v = r->s->seeks_per_s;
	return true;
}
/* Bytes of a class, in MB; absent (not a column) when no row has any. */
static bool class_mb(const struct ss_table_row *r, enum ss_op op, double *v)
{
	*v = (double)r->s->op_bytes[op] / 1e6;
	return r->s->op_ios[op] > 0;
}
/* reads and writes always have a column, even when 0 */
static bool get_r(const struct ss_table_row *r, double *v)
{
	class_mb(r, SS_OP_READ, v);
	return true;
}
static bool get_w(const struct ss_table_row *r, double *v)
{
	class_mb(r, SS_OP_WRITE, v);
	return true;
}
static bool get_d(const struct ss_table_row *r, double *v) { return class_mb(r, SS_OP_DISCARD, v); }
static bool get_o(const struct ss_table_row *r, double *v) { return class_mb(r, SS_OP_OTHER, v); }
static bool get_p50(const struct ss_table_row *r, double *v)
{
	*v = (double)r->s->lat_p50_ns / 1e6;
	return r->s->lat.count > 0;
}
static bool get_p99(const struct ss_table_row *r, double *v)
{
	*v = (double)r->s->lat_p99_ns / 1e6;
	return r->s->lat.count > 0;
}
static bool get_files(const struct ss_table_row *r, double *v)
{
	*v = r->files_per_s;
	return r->has_files;
}
static bool get_lost(const struct ss_table_row *r, double *v)
{
	*v = (double)r->lost;
	return r->has_lost;
}

/* The modelled disk busy time of the period's issues (plot --disk: every row has it). */
static bool get_model(const struct ss_table_row *r, double *v)
{
	*v = r->s->model.total_s;
	return r->has_model;
}

/* Totals first, then the rates they make; a column is shown when some row has a value. */
static const struct column columns[] = {
	{ "duration s", LOWER_TIMED, get_dur, "%.2f", false, 9 },
	{ "I/Os", SHOWN, get_ios, "%.0f", false, 8 },
	{ "read MB", SHOWN, get_r, "%.1f", false, 6 },
	{ "write MB", SHOWN, get_w, "%.1f", false, 6 },
	{ "discard MB", SHOWN, get_d, "%.1f", false, 3 },
	{ "other MB", SHOWN, get_o, "%.1f", false, 2 },
	{ "seeks", LOWER, get_seeks, "%.0f", false, 9 },
	{ "modelled s", LOWER, get_model, "%.2f", false, 7 },
	{ "read MB/s", SHOWN, get_rmb, "%.2f", false, 4 },
	{ "write MB/s", SHOWN, get_wmb, "%.2f", false, 5 },
	{ "IOPS", SHOWN, get_iops, "%.0f", false, 5 },
	{ "seeks/s", SHOWN, get_seeks_s, "%.0f", false, 1 },
	{ "lat p50 ms", SHOWN, get_p50, "%.2f", false, 1 },
	{ "lat p99 ms", SHOWN, get_p99, "%.2f", false, 6 },
	{ "files/s", SHOWN, get_files, "%.0f", false, 0 },
	{ "lost events", SHOWN, get_lost, "%.0f", true, 9 },
};
#define NR_COLUMNS (int)(sizeof(columns) / sizeof(columns[0]))
_Static_assert(NR_COLUMNS <= SS_TABLE_MAX_COLS, "SS_TABLE_MAX_COLS holds every column");

#define RULE(ranked)                                                                        \
	"Highlighted: the lower " ranked " among runs of the same work (record --untar of the "  \
	"same archive, --fsync and --repeat; the same phase), each whole (not cut by the time "  \
	"range), with at least 100 I/Os or 1 MB and no lost events. Rates, bytes, latency and "  \
	"capture length are not ranked."

/* The rule where there is no room for the whole one (a small picture) */
#define RULE_SHORT                                                                          \
	"Highlighted: the lower among runs of the same work (seekscope-plot(1): THE TABLE)."

const char *ss_table_rule(const struct ss_table *tb)
{
	return ss_table_column(tb, "modelled s") >= 0
		? RULE("phase duration, seeks and modelled s (--disk)")
		: RULE("phase duration and seeks");
}

int ss_table_lines(const struct ss_trace *const *t, int n)
{
	int rows = 0;
	uint64_t a, b;

	for (int i = 0; i < n; i++) {
		rows += 1 + ss_stats_durable_span(t[i], &a, &b);
		for (size_t p = 0; p < t[i]->nr_phases; p++)
			rows += t[i]->phases[p].kind == SS_PHASE_BEGIN;
	}
	if (rows > SS_TABLE_MAX_ROWS)
		rows = SS_TABLE_MAX_ROWS;
	return rows + (n > 1);
}

/* What the trace did, as far as it says: the work of one phase, and of the whole trace (its
 * phases in order too).  Both "" when the trace does not say. */
static void work_of(const struct ss_table_run *run, char *phase_key, char *all_key, size_t len)
{
	const struct ss_trace *t = run->t;
	const char *wl = ss_trace_meta(t, "workload"), *bytes = ss_trace_meta(t, "archive.bytes"),
		   *entries = ss_trace_meta(t, "archive.entries"),
		   *data = ss_trace_meta(t, "archive.data_bytes"), *fsync = ss_trace_meta(t, "fsync"),
		   *repeat = ss_trace_meta(t, "repeat");
	size_t n;

	phase_key[0] = all_key[0] = '\0';
	/* an extraction that failed or a trace cut short did not do the whole work */
	if (!wl || strcmp(wl, "untar") || !bytes || !entries || !data || !fsync || !repeat ||
	    ss_trace_meta(t, "workload.error") || t->truncated)
		return;
	n = (size_t)snprintf(all_key, len, "untar %s bytes %s entries %s data, fsync=%s, repeat=%s",
			     bytes, entries, data, fsync, repeat);
	if (n >= len)
		n = len - 1;
	memcpy(phase_key, all_key, n);
	phase_key[n] = '\0';
	n += (size_t)snprintf(all_key + n, len - n, ", phases");
	for (size_t p = 0; p < ss_stats_nr_phases(run->st) && n < len; p++)
		n += (size_t)snprintf(all_key + n, len - n, " %s", ss_stats_phase(run->st, p)->name);
}

static bool negligible(const struct ss_summary *s)
{
	uint64_t bytes = 0;

	for (int op = 0; op < SS_NR_DATA_OPS; op++)
		bytes += s->op_bytes[op];
	return s->ios < SS_TABLE_MIN_IOS && bytes < SS_TABLE_MIN_BYTES;
}

/* A trace's periods in table order: its phases, the time to durable right after "sync". */
static size_t periods_of(const struct ss_stats *st, const struct ss_phase_stats **out, size_t max)
{
	const struct ss_phase_stats *durable = ss_stats_durable(st);
	size_t n = 0;

	for (size_t p = 0; p < ss_stats_nr_phases(st) && n < max; p++) {
		out[n++] = ss_stats_phase(st, p);
		if (durable && !strcmp(out[n - 1]->name, "sync") && n < max) {
			out[n++] = durable;
			durable = NULL;
		}
	}
	if (durable && n < max)
		out[n++] = durable;
	return n;
}

static void add_row(struct ss_table *tb, const struct ss_table_run *run,
		    const struct ss_table_row *row)
{
	struct ss_table_row *x = &tb->rows[tb->nr_rows++];

	*x = *row;
	x->run = run->label;
	x->has_model = ss_stats_disk(run->st) != NULL;
	/* a period the window cut short is not the work any more */
	x->judged = x->work[0] && !negligible(x->s) && !x->s->clipped &&
		    ss_trace_lost_events(run->t) == 0;
}

static void fmt_value(const struct column *c, double v, char *buf, size_t len)
{
	snprintf(buf, len, c->fmt, v);
}

/* Is row i's value in column c the best among the rows it compares with (not all equal)? */
static bool is_best(const struct ss_table *tb, int i, const struct column *c)
{
	const struct ss_table_row *me = &tb->rows[i];
	double mine, best = NAN, worst = NAN, v;
	char a[48], b[48];
	int members = 0;

	if (c->rank == SHOWN || !me->judged || (c->rank == LOWER_TIMED && !me->timed) ||
	    !c->get(me, &mine))
		return false;
	for (int j = 0; j < tb->nr_rows; j++) {
		const struct ss_table_row *o = &tb->rows[j];

		if (o->group != me->group || !o->judged || strcmp(o->work, me->work) ||
		    !c->get(o, &v))
			continue;
		members++;
		if (isnan(best) || v < best)
			best = v;
		if (isnan(worst) || v > worst)
			worst = v;
	}
	if (members < 2)
		return false;
	/* compare at display precision: 1.234 and 1.2341 are a tie */
	fmt_value(c, best, a, sizeof(a));
	fmt_value(c, worst, b, sizeof(b));
	if (!strcmp(a, b))
		return false;
	fmt_value(c, mine, b, sizeof(b));
	return !strcmp(a, b);
}

void ss_table_build(struct ss_table *tb, const struct ss_table_run *runs, int n)
{
	const char *names[SS_TABLE_MAX_ROWS];
	int nr_names = 0;

	memset(tb, 0, sizeof(*tb));
	if (n > SS_TABLE_MAX_RUNS)
		n = SS_TABLE_MAX_RUNS;
	tb->nr_runs = n;
	for (int i = 0; i < n; i++)
		work_of(&runs[i], tb->work[i][0], tb->work[i][1], sizeof(tb->work[i][0]));
	for (int i = 0; i < n && tb->nr_rows < SS_TABLE_MAX_ROWS; i++)
		add_row(tb, &runs[i], &(struct ss_table_row){
			.phase = "all", .s = ss_stats_total(runs[i].st), .has_lost = true,
			.lost = ss_trace_lost_events(runs[i].t), .group = 0, .work = tb->work[i][1],
			.timed = false,
		});
	for (int i = 0; i < n; i++) {
		const struct ss_phase_stats *per[SS_TABLE_MAX_ROWS];
		size_t np = periods_of(runs[i].st, per, SS_TABLE_MAX_ROWS);

		for (size_t p = 0; p < np; p++) {
			bool seen = false;

			for (int k = 0; k < nr_names && !seen; k++)
				seen = !strcmp(names[k], per[p]->name);
			if (!seen && nr_names < SS_TABLE_MAX_ROWS)
				names[nr_names++] = per[p]->name;
		}
	}
	for (int k = 0; k < nr_names; k++)
		for (int i = 0; i < n; i++) {
			const struct ss_phase_stats *per[SS_TABLE_MAX_ROWS];
			size_t np = periods_of(runs[i].st, per, SS_TABLE_MAX_ROWS);

			for (size_t p = 0; p < np && tb->nr_rows < SS_TABLE_MAX_ROWS; p++) {
				if (strcmp(per[p]->name, names[k]))
					continue;
				add_row(tb, &runs[i], &(struct ss_table_row){
					.phase = per[p]->name, .s = &per[p]->s,
					.has_files = per[p]->has_files,
					.files_per_s = per[p]->files_per_s, .group = k + 1,
					.work = tb->work[i][0], .timed = true,
				});
			}
		}
	for (int c = 0; c < NR_COLUMNS; c++) {
		bool any = false;
		double v;

		for (int r = 0; r < tb->nr_rows && !any; r++)
			any = columns[c].get(&tb->rows[r], &v);
		if (any)
			tb->cols[tb->nr_cols++] = c;
	}
	for (int r = 0; r < tb->nr_rows; r++)
		for (int c = 0; c < tb->nr_cols; c++)
			tb->best[r][c] = is_best(tb, r, &columns[tb->cols[c]]);
}

int ss_table_column(const struct ss_table *tb, const char *head)
{
	for (int c = 0; c < tb->nr_cols; c++)
		if (!strcmp(columns[tb->cols[c]].head, head))
			return c;
	return -1;
}

int ss_table_row(const struct ss_table *tb, const char *run, const char *phase)
{
	for (int r = 0; r < tb->nr_rows; r++)
		if (!strcmp(tb->rows[r].run, run) && !strcmp(tb->rows[r].phase, phase))
			return r;
	return -1;
}

int ss_table_cell(const struct ss_table *tb, int row, int col, struct ss_rect *out)
{
	if (row < 0 || row >= tb->nr_rows || col < 0 || col >= tb->nr_cols || !(tb->row_h > 0) ||
	    tb->hidden[col])
		return -ENOENT;
	*out = (struct ss_rect){ tb->col_x[col], tb->y0 + (row + tb->head_lines) * tb->row_h,
				 tb->col_x[col + 1] - tb->col_x[col], tb->row_h };
	return 0;
}

/* "all", or "window" when the time range cut the trace; a phase cut short is "(part)". */
static void phase_label(const struct ss_table_row *row, char *buf, size_t len)
{
	if (row->group == 0)
		snprintf(buf, len, "%s", row->s->clipped ? "window" : row->phase);
	else
		snprintf(buf, len, "%s%s", row->phase, row->s->clipped ? " (part)" : "");
}

const char *ss_table_head(const struct ss_table *tb, int col)
{
	return columns[tb->cols[col]].head;
}

void ss_table_text(const struct ss_table *tb, int row, int col, char *buf, size_t len,
		   bool *warn)
{
	const struct ss_table_row *r = &tb->rows[row];
	const struct column *c;
	double v;

	*warn = false;
	if (col < 0) {
		phase_label(r, buf, len);
		return;
	}
	c = &columns[tb->cols[col]];
	if (!c->get(r, &v)) {
		snprintf(buf, len, "-");
		return;
	}
	fmt_value(c, v, buf, len);
	*warn = c->warn_nonzero && v != 0;
}

#define CELL_PAD 10     /* air between a column's text and the next column's */
#define TABLE_MIN_SCALE 0.75    /* the smallest type, of font_small, before columns go */

static int nr_hidden(const struct ss_table *tb)
{
	int n = 0;

	for (int c = 0; c < tb->nr_cols; c++)
		n += tb->hidden[c];
	return n;
}

#define LABEL_PAD 16            /* air right of the run and phase columns' text */
#define RUN_COL_MAX 0.20        /* the run column's largest share of the table's width */
#define PHASE_COL_MAX 0.12      /* the phase column's */
#define PHASE_COL_MAX_ALONE 0.20 /* ... in a table of one run, which has no run column */

/* The widest run label (drawn plain) and phase name (measured bold, as the totals' row is
 * drawn) seen so far, at one font size. */
struct label_cols {
	cairo_t *cr;
	double fs, run, phase;
};

/* Start from the columns' headings: "run" and PHASE_HEAD, bold. */
static void label_cols_start(struct label_cols *lc, cairo_t *cr, double fs,
			     const char *phase_head)
{
	*lc = (struct label_cols){ cr, fs, 0, 0 };
	ss_text_measure(cr, fs, true, "run", &lc->run, NULL);
	ss_text_measure(cr, fs, true, phase_head, &lc->phase, NULL);
}

static void label_cols_add(struct label_cols *lc, const char *run, const char *phase)
{
	double w;

	if (run) {
		ss_text_measure(lc->cr, lc->fs, false, run, &w, NULL);
		lc->run = fmax(lc->run, w);
	}
	if (phase) {
		ss_text_measure(lc->cr, lc->fs, true, phase, &w, NULL);
		lc->phase = fmax(lc->phase, w);
	}
}

/* The two columns' widths in a table WIDTH wide: the widest text plus air, within their
 * shares.  A table of one run has no run column: every row would repeat the name the
 * picture's title and its column's heading already give, in room the phase names and the
 * figures need in a narrow picture. */
static void label_cols_width(const struct label_cols *lc, int nr_runs, double width,
			     double *run_w, double *phase_w)
{
	*run_w = nr_runs > 1 ? fmin(lc->run + LABEL_PAD, width * RUN_COL_MAX) : 0;
	*phase_w = fmin(lc->phase + LABEL_PAD,
			width * (nr_runs > 1 ? PHASE_COL_MAX : PHASE_COL_MAX_ALONE));
}

/* HEAD's two lines: up to its last space, and after it (*SECOND NULL: one line). */
static void split_head(const char *head, char *first, size_t len, const char **second)
{
	const char *sp = strrchr(head, ' ');

	*second = sp ? sp + 1 : NULL;
	snprintf(first, len, "%.*s", sp ? (int)(sp - head) : (int)strlen(head), head);
}

/* Width heading HEAD needs at font size FS, on one line or split in two. */
static double head_w(cairo_t *cr, const char *head, double fs, bool split)
{
	char first[32];
	const char *second;
	double w1, w2 = 0;

	if (!split) {
		ss_text_measure(cr, fs, true, head, &w1, NULL);
		return w1 + CELL_PAD;
	}
	split_head(head, first, sizeof(first), &second);
	ss_text_measure(cr, fs, true, first, &w1, NULL);
	if (second)
		ss_text_measure(cr, fs, true, second, &w2, NULL);
	return fmax(w1, w2) + CELL_PAD;
}

/* Widths the shown columns need at font size FS (heading and every body cell) into NEED;
 * their sum. */
static double col_needs(cairo_t *cr, const struct ss_table *tb, double fs, bool split,
			double *need)
{
	double sum = 0;

	for (int c = 0; c < tb->nr_cols; c++) {
		need[c] = 0;
		if (tb->hidden[c])
			continue;
		need[c] = head_w(cr, ss_table_head(tb, c), fs, split);
		for (int i = 0; i < tb->nr_rows; i++) {
			char buf[64];
			bool warn;
			double w;

			ss_table_text(tb, i, c, buf, sizeof(buf), &warn);
			ss_text_measure(cr, fs, tb->best[i][c], buf, &w, NULL);
			need[c] = fmax(need[c], w + CELL_PAD);
		}
		sum += need[c];
	}
	return sum;
}

/* A cairo context for measuring text (no surface of the picture's yet), or NULL. */
static cairo_t *measuring_context(cairo_surface_t **surf)
{
	cairo_t *cr;

	cairo_font_options_t *fo;

	*surf = cairo_image_surface_create(CAIRO_FORMAT_A8, 1, 1);
	cr = cairo_create(*surf);
	if (cairo_status(cr)) {
		cairo_destroy(cr);
		cairo_surface_destroy(*surf);
		return NULL;
	}
	/* unhinted, as in SVG and PDF: the plan is the same for every format */
	fo = cairo_font_options_create();
	cairo_font_options_set_hint_metrics(fo, CAIRO_HINT_METRICS_OFF);
	cairo_font_options_set_hint_style(fo, CAIRO_HINT_STYLE_NONE);
	cairo_set_font_options(cr, fo);
	cairo_font_options_destroy(fo);
	return cr;
}

#define RULE_MAX_LINES 3

/*
 * Greedy word wrap of TEXT at font size FS into lines at most WIDTH wide: the number of
 * lines it takes (a word wider than WIDTH is a line of its own), and the byte offset where
 * each of the first MAX starts into START.
 */
static int wrap(cairo_t *cr, double fs, const char *text, double width, size_t *start, int max)
{
	size_t len = strlen(text), line = 0, end;
	int n = 0;
	char buf[512];

	while (line < len) {
		size_t best = 0;
		double w;

		/* the longest run of whole words from LINE that fits */
		for (end = line; end <= len; end++) {
			if (end < len && text[end] != ' ')
				continue;
			snprintf(buf, sizeof(buf), "%.*s", (int)(end - line), text + line);
			ss_text_measure(cr, fs, false, buf, &w, NULL);
			if (w > width && best)
				break;
			best = end;
			if (w > width)
				break;
		}
		if (n < max)
			start[n] = line;
		n++;
		line = best;
		while (line < len && text[line] == ' ')
			line++;
	}
	return n;
}

static int rule_lines(cairo_t *cr, const char *rule, double width)
{
	size_t start[RULE_MAX_LINES];
	int n = wrap(cr, ss_metrics.font_small, rule, width - 8, start, RULE_MAX_LINES);

	return n > RULE_MAX_LINES ? RULE_MAX_LINES : n;
}

#define SAMPLE_FIGURE "88888.88"  /* a figure as wide as most the table shows */

/* The run and phase columns' widths in a table WIDTH wide, from the runs' labels (LABELS[i],
 * NULL: the trace's path) and their phases' names as a part ("extract (part)"), at
 * font_small. */
static void label_widths(cairo_t *cr, const char *const *labels, struct ss_trace *const *t,
			 int n, double width, double *run_w, double *phase_w)
{
	struct label_cols lc;

	label_cols_start(&lc, cr, ss_metrics.font_small, SS_DURABLE_PHASE " (part)");
	for (int i = 0; i < n; i++) {
		label_cols_add(&lc, labels[i] ? labels[i] : t[i]->path, NULL);
		for (size_t p = 0; p < t[i]->nr_phases; p++) {
			char buf[64];

			snprintf(buf, sizeof(buf), "%s (part)", t[i]->phases[p].name);
			label_cols_add(&lc, NULL, buf);
		}
	}
	label_cols_width(&lc, n, width, run_w, phase_w);
}

int ss_table_plan(double width, const char *const *labels, struct ss_trace *const *t, int n,
		  bool disk, struct ss_table_plan *plan)
{
	cairo_surface_t *surf;
	cairo_t *cr = measuring_context(&surf);
	double one = 0, fig, run_w, phase_w;

	*plan = (struct ss_table_plan){ 1, 1 };
	if (!cr)
		return 0;
	ss_text_measure(cr, ss_metrics.font_small, true, SAMPLE_FIGURE, &fig, NULL);
	for (size_t c = 0; c < NR_COLUMNS; c++)
		if (disk || columns[c].get != get_model)
			one += fmax(head_w(cr, columns[c].head, ss_metrics.font_small, false),
				    fig + CELL_PAD);
	/* as ss_table_draw will share the width out */
	label_widths(cr, labels, t, n, width, &run_w, &phase_w);
	if (one > width - run_w - phase_w)
		plan->head_lines = 2;
	if (n > 1)
		plan->rule_lines = rule_lines(cr, disk ? RULE("phase duration, seeks and modelled s "
							      "(--disk)")
						       : RULE("phase duration and seeks"), width);
	cairo_destroy(cr);
	cairo_surface_destroy(surf);
	return plan->head_lines - 1 + plan->rule_lines - 1;
}

/* The rule under a table of several runs, from Y down: wrapped over the lines of the plan,
 * smaller if it still does not fit. */
static void draw_rule(cairo_t *cr, const struct ss_rect *r, const struct ss_table *tb, double y)
{
	const char *rule = ss_table_rule(tb);
	double fs = ss_metrics.font_small, rh = ss_metrics.row_h;
	int avail = tb->plan.rule_lines, n;
	size_t start[RULE_MAX_LINES + 1];
	char buf[512];

	if (avail < 1)
		avail = 1;
	if (avail > RULE_MAX_LINES)
		avail = RULE_MAX_LINES;
	while ((n = wrap(cr, fs, rule, r->w - 8, start, RULE_MAX_LINES + 1)) > avail &&
	       fs > ss_metrics.font_small * TABLE_MIN_SCALE)
		fs *= 0.92;
	if (n > avail) {        /* too long for the room at a readable size: the short rule */
		rule = RULE_SHORT;
		fs = ss_metrics.font_small;
		while ((n = wrap(cr, fs, rule, r->w - 8, start, RULE_MAX_LINES + 1)) > avail &&
		       fs > ss_metrics.font_small * TABLE_MIN_SCALE)
			fs *= 0.92;
	}
	ss_set_rgb(cr, ss_col_axis);
	if (n > avail) {        /* one line, whatever the width */
		double w;

		fs = ss_metrics.font_small;
		ss_text_measure(cr, fs, false, rule, &w, NULL);
		fs *= (r->w - 8) / w;
		ss_text_draw(cr, r->x + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, false, rule, NULL);
		return;
	}
	for (int i = 0; i < n; i++) {
		size_t end = i + 1 < n ? start[i + 1] : strlen(rule);

		snprintf(buf, sizeof(buf), "%.*s", (int)(end - start[i]), rule + start[i]);
		ss_text_draw(cr, r->x + 4, y + rh * (i + 0.5), SS_LEFT, SS_MIDDLE, fs, false, buf,
			     NULL);
	}
}

/*
 * The column widths: each what its heading and cells need (headings on two lines when one
 * does not fit and the layout left room for two, ss_table_head_lines), the rest of the width
 * shared out evenly; when even that does not fit, the table's font shrinks until it does.
 */
void ss_table_draw(cairo_t *cr, const struct ss_rect *r, struct ss_table *tb)
{
	const double rh = ss_metrics.row_h;
	double fs = ss_metrics.font_small, need[SS_TABLE_MAX_COLS], run_w, phase_w, rest, sum;
	double x, y = r->y;
	struct label_cols lc;
	bool split, warn;
	char label[512];        /* a run's label, whole: its end is what is kept */
	int shown;
	char buf[64];

	if (tb->nr_rows <= 0 || tb->nr_cols <= 0)
		return;
	cairo_save(cr);
	memset(tb->hidden, 0, sizeof(tb->hidden));
	label_cols_start(&lc, cr, fs, "phase");
	for (int i = 0; i < tb->nr_rows; i++) {
		phase_label(&tb->rows[i], buf, sizeof(buf));
		label_cols_add(&lc, tb->rows[i].run, buf);
	}
	label_cols_width(&lc, tb->nr_runs, r->w, &run_w, &phase_w);
	rest = r->w - run_w - phase_w;
	split = tb->plan.head_lines >= 2;
	sum = col_needs(cr, tb, fs, split, need);
	/* too narrow even so: smaller text, in proportion to what the text (not the air
	 * between columns) takes, down to TABLE_MIN_SCALE; hinted text does not shrink quite
	 * linearly: again if need be; then the columns the reader can best do without go */
	for (int i = 0; i < 4 && sum > rest && fs > ss_metrics.font_small * TABLE_MIN_SCALE;
	     i++) {
		double air = CELL_PAD * (tb->nr_cols - nr_hidden(tb));

		fs *= rest > air ? 0.98 * (rest - air) / (sum - air) : 0.5;
		fs = fmax(fs, ss_metrics.font_small * TABLE_MIN_SCALE);
		sum = col_needs(cr, tb, fs, split, need);
	}
	while (sum > rest && nr_hidden(tb) < tb->nr_cols - 1) {
		int drop = -1;

		for (int c = tb->nr_cols - 1; c >= 0; c--)
			if (!tb->hidden[c] &&
			    (drop < 0 || columns[tb->cols[c]].keep < columns[tb->cols[drop]].keep))
				drop = c;
		tb->hidden[drop] = true;
		sum = col_needs(cr, tb, fs, split, need);
	}
	/* a phase name cut to its share gets what room the numbers leave at their size, none of
	 * them dropped: "extract+sync (part)" whole rather than "extract+syn..." */
	if (sum < rest && !nr_hidden(tb) && lc.phase + LABEL_PAD > phase_w) {
		double more = fmin(rest - sum, lc.phase + LABEL_PAD - phase_w);

		phase_w += more;
		rest -= more;
	}
	tb->head_lines = split ? 2 : 1;
	shown = tb->nr_cols - nr_hidden(tb);
	tb->x0 = r->x;
	tb->y0 = r->y;
	tb->row_h = rh;
	tb->col_x[0] = r->x + run_w + phase_w;
	tb->phase_x = r->x + run_w;
	tb->font = fs;
	for (int c = 0; c < tb->nr_cols; c++)
		tb->col_x[c + 1] = tb->col_x[c] +
				   (tb->hidden[c] ? 0 : need[c] + fmax(0, rest - sum) / shown);
	ss_set_rgb(cr, ss_col_text);
	if (run_w > 0)
		ss_text_draw(cr, r->x + 4, y + rh * tb->head_lines / 2, SS_LEFT, SS_MIDDLE, fs,
			     true, "run", NULL);
	ss_text_draw(cr, r->x + run_w + 4, y + rh * tb->head_lines / 2, SS_LEFT, SS_MIDDLE, fs,
		     true, "phase", NULL);
	for (int c = 0; c < tb->nr_cols; c++) {
		const char *head = ss_table_head(tb, c), *second;
		char first[32];

		if (tb->hidden[c])
			continue;
		x = tb->col_x[c + 1] - 6;
		split_head(head, first, sizeof(first), &second);
		if (!split || !second) {
			ss_text_draw(cr, x, y + rh * tb->head_lines / 2, SS_RIGHT, SS_MIDDLE, fs,
				     true, head, NULL);
		} else {
			ss_text_draw(cr, x, y + rh / 2, SS_RIGHT, SS_MIDDLE, fs, true, first, NULL);
			ss_text_draw(cr, x, y + rh * 1.5, SS_RIGHT, SS_MIDDLE, fs, true, second,
				     NULL);
		}
	}
	y += rh * (tb->head_lines - 1);
	ss_set_rgb(cr, ss_col_axis);
	cairo_set_line_width(cr, 1);
	cairo_move_to(cr, r->x, y + rh + 0.5);
	cairo_line_to(cr, r->x + r->w, y + rh + 0.5);
	cairo_stroke(cr);
	for (int i = 0; i < tb->nr_rows; i++) {
		const struct ss_table_row *row = &tb->rows[i];

		y += rh;
		if (i > 0 && row->group != tb->rows[i - 1].group) {
			cairo_set_source_rgb(cr, 0.8, 0.8, 0.8);
			cairo_move_to(cr, r->x, y + 0.5);
			cairo_line_to(cr, r->x + r->w, y + 0.5);
			cairo_stroke(cr);
		}
		ss_set_rgb(cr, ss_col_text);
		if (run_w > 0) {
			snprintf(label, sizeof(label), "%s", row->run);
			ss_text_fit_start(cr, fs, false, label, run_w - 8);
			ss_text_draw(cr, r->x + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, false, label,
				     NULL);
		}
		ss_table_text(tb, i, -1, buf, sizeof(buf), &warn);
		ss_text_fit(cr, fs, row->group == 0, buf, phase_w - 8);
		ss_text_draw(cr, r->x + run_w + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, row->group == 0,
			     buf, NULL);
		for (int c = 0; c < tb->nr_cols; c++) {
			double x0 = tb->col_x[c], x1 = tb->col_x[c + 1];
			bool best = tb->best[i][c];

			if (tb->hidden[c])
				continue;
			ss_table_text(tb, i, c, buf, sizeof(buf), &warn);
			if (best) {
				ss_set_rgb(cr, ss_col_best);
				cairo_rectangle(cr, x0 + 2, y + 1, x1 - x0 - 3, rh - 2);
				cairo_fill(cr);
			}
			ss_set_rgb(cr, warn ? ss_col_warn : ss_col_text);
			ss_text_draw(cr, x1 - 6, y + rh / 2, SS_RIGHT, SS_MIDDLE, fs, best, buf, NULL);
		}
	}
	if (tb->nr_runs > 1)
		draw_rule(cr, r, tb, y + rh);
	cairo_restore(cr);
}
