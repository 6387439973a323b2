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
	{ "duration s", LOWER_TIMED, get_dur, "%.2f", false },
	{ "I/Os", SHOWN, get_ios, "%.0f", false },
	{ "read MB", SHOWN, get_r, "%.1f", false },
	{ "write MB", SHOWN, get_w, "%.1f", false },
	{ "discard MB", SHOWN, get_d, "%.1f", false },
	{ "other MB", SHOWN, get_o, "%.1f", false },
	{ "seeks", LOWER, get_seeks, "%.0f", false },
	{ "modelled s", LOWER, get_model, "%.2f", false },
	{ "read MB/s", SHOWN, get_rmb, "%.2f", false },
	{ "write MB/s", SHOWN, get_wmb, "%.2f", false },
	{ "IOPS", SHOWN, get_iops, "%.0f", false },
	{ "seeks/s", SHOWN, get_seeks_s, "%.0f", false },
	{ "lat p50 ms", SHOWN, get_p50, "%.2f", false },
	{ "lat p99 ms", SHOWN, get_p99, "%.2f", false },
	{ "files/s", SHOWN, get_files, "%.0f", false },
	{ "lost events", SHOWN, get_lost, "%.0f", true },
};
#define NR_COLUMNS (int)(sizeof(columns) / sizeof(columns[0]))
_Static_assert(NR_COLUMNS <= SS_TABLE_MAX_COLS, "SS_TABLE_MAX_COLS holds every column");

#define RULE(ranked)                                                                        \
	"Highlighted: the lower " ranked " among runs of the same work (record --untar of the "  \
	"same archive, --fsync and --repeat; the same phase), each whole (not cut by the time "  \
	"range), with at least 100 I/Os or 1 MB and no lost events. Rates, bytes, latency and "  \
	"capture length are not ranked."

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
	if (row < 0 || row >= tb->nr_rows || col < 0 || col >= tb->nr_cols || !(tb->row_h > 0))
		return -ENOENT;
	*out = (struct ss_rect){ tb->first_col_x + col * tb->col_w, tb->y0 + (row + 1) * tb->row_h,
				 tb->col_w, tb->row_h };
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

/* Width of the widest run label (or phase name, bold as drawn for totals), plus air. */
static double text_col_w(cairo_t *cr, const struct ss_table *tb, bool phase, const char *head)
{
	double w, best;

	ss_text_measure(cr, ss_metrics.font_small, true, head, &best, NULL);
	for (int i = 0; i < tb->nr_rows; i++) {
		char buf[64];

		phase_label(&tb->rows[i], buf, sizeof(buf));
		ss_text_measure(cr, ss_metrics.font_small, phase, phase ? buf : tb->rows[i].run, &w,
				NULL);
		if (w > best)
			best = w;
	}
	return best + 16;
}

static void draw_rule(cairo_t *cr, const struct ss_rect *r, const struct ss_table *tb, double y)
{
	const char *rule = ss_table_rule(tb);
	double fs = ss_metrics.font_small, w;

	ss_text_measure(cr, fs, false, rule, &w, NULL);
	if (w > r->w - 8)
		fs *= (r->w - 8) / w;           /* one line, whatever the width */
	ss_set_rgb(cr, ss_col_axis);
	ss_text_draw(cr, r->x + 4, y + ss_metrics.row_h / 2, SS_LEFT, SS_MIDDLE, fs, false,
		     rule, NULL);
}

void ss_table_draw(cairo_t *cr, const struct ss_rect *r, struct ss_table *tb)
{
	const double rh = ss_metrics.row_h, fs = ss_metrics.font_small;
	double run_w, phase_w, cw, y = r->y;
	char buf[64];
	bool warn;

	if (tb->nr_rows <= 0 || tb->nr_cols <= 0)
		return;
	cairo_save(cr);
	run_w = fmin(text_col_w(cr, tb, false, "run"), r->w * 0.2);
	phase_w = fmin(text_col_w(cr, tb, true, "phase"), r->w * 0.12);
	cw = (r->w - run_w - phase_w) / tb->nr_cols;
	tb->x0 = r->x;
	tb->y0 = r->y;
	tb->row_h = rh;
	tb->col_w = cw;
	tb->first_col_x = r->x + run_w + phase_w;
	ss_set_rgb(cr, ss_col_text);
	ss_text_draw(cr, r->x + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, true, "run", NULL);
	ss_text_draw(cr, r->x + run_w + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, true, "phase", NULL);
	for (int c = 0; c < tb->nr_cols; c++)
		ss_text_draw(cr, tb->first_col_x + (c + 1) * cw - 6, y + rh / 2, SS_RIGHT,
			     SS_MIDDLE, fs, true, ss_table_head(tb, c), NULL);
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
		ss_text_draw(cr, r->x + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, false, row->run, NULL);
		ss_table_text(tb, i, -1, buf, sizeof(buf), &warn);
		ss_text_draw(cr, r->x + run_w + 4, y + rh / 2, SS_LEFT, SS_MIDDLE, fs, row->group == 0,
			     buf, NULL);
		for (int c = 0; c < tb->nr_cols; c++) {
			double x1 = tb->first_col_x + (c + 1) * cw;
			bool best = tb->best[i][c];

			ss_table_text(tb, i, c, buf, sizeof(buf), &warn);
			if (best) {
				ss_set_rgb(cr, ss_col_best);
				cairo_rectangle(cr, x1 - cw + 2, y + 1, cw - 3, rh - 2);
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
