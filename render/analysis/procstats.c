// SPDX-License-Identifier: GPL-2.0-or-later
/* Per-process figures (see procstats.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seekscope/model.h"
#include "procstats.h"
#include "tasks.h"

struct ss_procs {
	const struct ss_trace *t;
	bool pending;              /* the trace's names pending: rows by pid (ss_procs_resolve) */
	struct ss_proc_row *rows;
	size_t nr, cap;
	uint32_t *slots;           /* row index + 1 by hash of (pid, task); 0 = empty */
	size_t nr_slots;
	size_t last;               /* row index + 1 of the last lookup (runs of one process) */
	/* the last pid looked up: its row (index + 1) while the task table gives it the same
	 * name, [c_from, c_until) of the table's c_nr entries (ss_tasks_find_span) */
	uint32_t c_pid;
	size_t c_row, c_nr;
	uint64_t c_from, c_until;
};

struct ss_procs *ss_procs_new(const struct ss_trace *t)
{
	struct ss_procs *p = calloc(1, sizeof(*p));

	if (p) {
		p->t = t;
		p->pending = ss_trace_meta_pending(t);
	}
	return p;
}

void ss_procs_free(struct ss_procs *p)
{
	if (!p)
		return;
	free(p->rows);
	free(p->slots);
	free(p);
}

static size_t slot_of(const struct ss_procs *p, uint32_t pid, long task)
{
	uint64_t h = ((uint64_t)pid << 32 ^ (uint64_t)(task + 1)) * 0x9e3779b97f4a7c15ull;

	for (size_t i = (size_t)(h >> 40) & (p->nr_slots - 1);; i = (i + 1) & (p->nr_slots - 1)) {
		uint32_t r = p->slots[i];

		if (!r || (p->rows[r - 1].pid == pid && p->rows[r - 1].task == task))
			return i;
	}
}

static int rehash(struct ss_procs *p)
{
	size_t n = p->nr_slots ? p->nr_slots * 2 : 64;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	free(p->slots);
	p->slots = s;
	p->nr_slots = n;
	for (size_t i = 0; i < p->nr; i++)
		p->slots[slot_of(p, p->rows[i].pid, p->rows[i].task)] = (uint32_t)i + 1;
	return 0;
}

/* The row of (PID, TASK), added when new; NULL on ENOMEM. */
static struct ss_proc_row *find_row(struct ss_procs *p, uint32_t pid, long task)
{
	size_t i;

	if (p->last && p->rows[p->last - 1].pid == pid && p->rows[p->last - 1].task == task)
		return &p->rows[p->last - 1];
	if ((p->nr + 1) * 2 > p->nr_slots && rehash(p))
		return NULL;
	i = slot_of(p, pid, task);
	if (p->slots[i]) {
		p->last = p->slots[i];
		return &p->rows[p->slots[i] - 1];
	}
	if (p->nr == p->cap) {
		size_t ncap = p->cap ? p->cap * 2 : 32;
		struct ss_proc_row *r = reallocarray(p->rows, ncap, sizeof(*r));

		if (!r)
			return NULL;
		p->rows = r;
		p->cap = ncap;
	}
	p->rows[p->nr] = (struct ss_proc_row){ .pid = pid, .task = task, .lo_ts = UINT64_MAX };
	p->slots[i] = (uint32_t)++p->nr;
	p->last = p->nr;
	return &p->rows[p->nr - 1];
}

/* row_for's look-up, and the pid's span kept for the next */
static __attribute__((noinline)) struct ss_proc_row *row_lookup(struct ss_procs *p, uint32_t pid,
								uint64_t ts)
{
	const struct ss_tasks *tasks = p->t->tasks;
	uint64_t from = 0, until = UINT64_MAX;
	struct ss_proc_row *r;
	long task = -1;

	if (pid != SS_PROC_NO_ISSUE)
		task = ss_tasks_find_span(tasks, pid, ts, &from, &until);
	if (!(r = find_row(p, pid, task)))
		return NULL;
	p->c_pid = pid;
	p->c_row = (size_t)(r - p->rows) + 1;
	p->c_nr = ss_tasks_count(tasks);
	p->c_from = from;
	p->c_until = until;
	return r;
}

/* The row of PID named at TS (task looked up unless NO_ISSUE); NULL on ENOMEM.  Runs of one
 * pid under one name skip the look-ups. */
static __attribute__((noinline)) struct ss_proc_row *row_pending(struct ss_procs *p,
								  uint32_t pid, uint64_t ts)
{
	struct ss_proc_row *r = find_row(p, pid, pid == SS_PROC_NO_ISSUE ? -1 :
					 SS_PROC_TASK_PENDING);

	if (r && pid != SS_PROC_NO_ISSUE) {
		if (ts < r->lo_ts)
			r->lo_ts = ts;
		if (ts > r->hi_ts)
			r->hi_ts = ts;
	}
	return r;
}

static inline struct ss_proc_row *row_for(struct ss_procs *p, uint32_t pid, uint64_t ts)
{
	if (p->pending)
		return row_pending(p, pid, ts);
	if (p->c_row && pid == p->c_pid && ts >= p->c_from && ts < p->c_until &&
	    p->c_nr == ss_tasks_count(p->t->tasks))
		return &p->rows[p->c_row - 1];
	return row_lookup(p, pid, ts);
}

int ss_procs_issue(struct ss_procs *p, const struct ss_req_owner *who, bool seek)
{
	struct ss_proc_row *r = row_for(p, who->pid, who->ts);

	if (!r)
		return -ENOMEM;
	r->issues++;
	r->seeks += seek;
	r->submitted += who->submitter;
	return 0;
}

int ss_procs_io(struct ss_procs *p, const struct ss_req_owner *who, const struct ss_io *io)
{
	struct ss_proc_row *r = who ? row_for(p, who->pid, who->ts)
				    : row_for(p, SS_PROC_NO_ISSUE, 0);

	if (!r)
		return -ENOMEM;
	r->ios++;
	r->bytes += (uint64_t)io->nr_sector * 512;
	return 0;
}

static int cmp_rows(const void *a, const void *b)
{
	const struct ss_proc_row *x = a, *y = b;

	if (x->ios != y->ios)
		return x->ios > y->ios ? -1 : 1;
	if (x->seeks != y->seeks)
		return x->seeks > y->seeks ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->task < y->task ? -1 : x->task > y->task;
}

int ss_procs_resolve(struct ss_procs *p)
{
	if (!p->pending)
		return 0;
	if (ss_trace_meta_pending(p->t))
		return -EAGAIN;
	for (size_t i = 0; i < p->nr; i++) {
		struct ss_proc_row *r = &p->rows[i];
		uint64_t from, until;

		if (r->task != SS_PROC_TASK_PENDING)
			continue;
		r->task = ss_tasks_find_span(p->t->tasks, r->pid, r->lo_ts, &from, &until);
		if (r->hi_ts >= until)
			return -EAGAIN;
	}
	p->pending = false;
	return 0;
}

void ss_procs_finish(struct ss_procs *p)
{
	if (p->nr)
		qsort(p->rows, p->nr, sizeof(*p->rows), cmp_rows);
	p->last = p->c_row = 0;     /* the kept rows' indexes are stale */
	/* the hash indexes rows by position: rebuild it, so that feeding may go on */
	if (p->slots) {
		memset(p->slots, 0, p->nr_slots * sizeof(*p->slots));
		for (size_t i = 0; i < p->nr; i++)
			p->slots[slot_of(p, p->rows[i].pid, p->rows[i].task)] = (uint32_t)i + 1;
	}
}

size_t ss_procs_count(const struct ss_procs *p)
{
	return p->nr;
}

const struct ss_proc_row *ss_procs_row(const struct ss_procs *p, size_t i)
{
	return i < p->nr ? &p->rows[i] : NULL;
}

bool ss_procs_row_name(const struct ss_procs *p, const struct ss_proc_row *r, char *buf,
		       size_t len)
{
	const struct ss_rec_task *rec = r->task >= 0 ? ss_tasks_entry(p->t->tasks, (size_t)r->task)
						      : NULL;

	if (rec) {
		ss_task_name(rec, buf, len);
		return true;
	}
	snprintf(buf, len, "%s", r->pid == SS_PROC_NO_ISSUE ? "(issue not in trace)" : "unknown");
	return false;
}
