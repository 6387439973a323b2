// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Process attribution: the task table (renames, unknown pids, the idle pid, out-of-order
 * input, names and groups), the trace's TASKS records written and read back (and skipped by
 * nothing), request owners (submitter via queue/insert events, else issuer), the per-process
 * statistics and the --pid/--comm filter, on a hand-made trace whose figures are in comments.
 */
#include <errno.h>
#include <string.h>

#include "tap.h"
#include "testdir.h"
#include "owner.h"
#include "groups.h"
#include "procstats.h"
#include "stats.h"
#include "taskfilter.h"
#include "tasks.h"
#include "trace_backend.h"
#include "trace_read.h"
#include "trace_write.h"

#define DEV SS_MKDEV(7, 0)
#define MS 1000000ull

static struct ss_rec_task task(uint64_t ts, uint32_t pid, const char *comm, const char *work)
{
	struct ss_rec_task t = { .ts_ns = ts, .pid = pid };

	memcpy(t.comm, comm, strnlen(comm, sizeof(t.comm)));
	strncpy(t.work, work, sizeof(t.work) - 1);
	return t;
}

static const char *name_at(const struct ss_tasks *t, uint32_t pid, uint64_t ts)
{
	static char buf[SS_TASK_NAME_LEN];
	long id = ss_tasks_find(t, pid, ts);

	if (id < 0)
		return "unknown";
	ss_task_name(ss_tasks_entry(t, (size_t)id), buf, sizeof(buf));
	return buf;
}

static void test_table(void)
{
	struct ss_tasks *t = ss_tasks_new();
	struct ss_rec_task e;
	char buf[SS_TASK_NAME_LEN];

	is_int(ss_tasks_add(t, &(struct ss_rec_task){ 0 }), 1, "an empty name is still a name");
	ss_tasks_free(t);
	t = ss_tasks_new();
	e = task(100, 42, "sh", "");
	is_int(ss_tasks_add(t, &e), 1, "first name of a pid: added");
	is_int(ss_tasks_add(t, &e), 0, "the same again: nothing added");
	e = task(150, 42, "sh", "");
	is_int(ss_tasks_add(t, &e), 0, "same name later: nothing added");
	e = task(200, 42, "tar", "");
	is_int(ss_tasks_add(t, &e), 1, "exec renames: added");
	is_str(name_at(t, 42, 50), "sh", "before the first entry: the first name");
	is_str(name_at(t, 42, 199), "sh", "before the rename: the old name");
	is_str(name_at(t, 42, 200), "tar", "from the rename on: the new name");
	is_str(name_at(t, 42, 1000), "tar", "long after: still the new name");
	is_str(name_at(t, 43, 200), "unknown", "a pid never named is unknown");
	/* out of order (importers): an earlier name slots in before */
	e = task(120, 42, "bash", "");
	is_int(ss_tasks_add(t, &e), 1, "an earlier rename given late: added");
	is_str(name_at(t, 42, 130), "bash", "and found at its time");
	is_str(name_at(t, 42, 210), "tar", "the later entry still wins after it");
	is_int(ss_tasks_count(t), 3, "three entries");
	/* the idle tasks: pid 0 on every CPU, named swapper/N */
	e = task(10, 0, "swapper/0", "");
	is_int(ss_tasks_add(t, &e), 1, "pid 0 named once");
	e = task(20, 0, "swapper/1", "");
	is_int(ss_tasks_add(t, &e), 0, "pid 0 is not renamed by another CPU's idle task");
	/* a 15-character comm and a full 16-byte one */
	ss_tasks_add_name(t, 5, 7, "kworker/u8:3abcdefgh", 16, NULL, 0);
	is_str(name_at(t, 7, 5), "kworker/u8:3abc", "comm cut to 15 characters");
	/* workers: named with their work, grouped by it */
	e = task(300, 99, "kworker/u8:2", "wb_workfn");
	ss_tasks_add(t, &e);
	e = task(400, 99, "kworker/u8:2", "xlog_cil_push_work");
	is_int(ss_tasks_add(t, &e), 1, "a worker that moves to other work: renamed");
	is_str(name_at(t, 99, 350), "kworker/u8:2-wb_workfn", "a worker's name carries its work");
	ss_task_group(ss_tasks_entry(t, (size_t)ss_tasks_find(t, 99, 350)), buf, sizeof(buf));
	is_str(buf, "kworker:wb_workfn", "its group: kworker:WORK");
	e = task(0, 5, "kworker/1:1H", "");
	ss_task_group(&e, buf, sizeof(buf));
	is_str(buf, "kworker", "a worker without work: kworker");
	e = task(0, 5, "xfsaild/loop0", "");
	ss_task_group(&e, buf, sizeof(buf));
	is_str(buf, "xfsaild", "a per-device kernel thread: its name up to the '/'");
	e = task(0, 5, "kworker/u8:1", "flush-254:0");
	ss_task_group(&e, buf, sizeof(buf));
	is_str(buf, "kworker:flush", "a workqueue description loses its device");
	ss_tasks_free(t);
}

/* ss_tasks_find_span: the same answer as ss_tasks_find at every time of its span, a
 * different one just outside it, for pids with one, several and tied entries. */
static void test_span(void)
{
	struct ss_tasks *t = ss_tasks_new();
	const uint64_t times[] = { 0, 1, 99, 100, 101, 149, 150, 199, 200, 201, 299, 300, 5000,
				   UINT64_MAX - 1, UINT64_MAX };
	struct ss_rec_task e;
	uint64_t from, until;
	int bad = 0, checked = 0;

	is_int(ss_tasks_find_span(t, 1, 5, &from, &until), -1, "empty table: unknown");
	ok(from == 0 && until == UINT64_MAX, "for all times");
	e = task(100, 1, "one", "");
	ss_tasks_add(t, &e);
	for (uint64_t ts = 100; ts <= 300; ts += 50) {
		e = task(ts, 2, ts % 100 ? "odd" : "even", ts == 200 ? "w" : "");
		ss_tasks_add(t, &e);
	}
	e = task(300, 2, "tied", "");       /* a second name at the same instant */
	ss_tasks_add(t, &e);
	is_int(ss_tasks_find_span(t, 3, 5, &from, &until), -1, "an unknown pid: -1");
	ok(from == 0 && until == UINT64_MAX, "for all times");
	is_int(ss_tasks_find_span(t, 1, 5, &from, &until), ss_tasks_find(t, 1, 5),
	       "one name: the same id");
	ok(from == 0 && until == UINT64_MAX, "one name: for all times");
	for (uint32_t pid = 1; pid <= 2; pid++)
		for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++) {
			long id = ss_tasks_find_span(t, pid, times[i], &from, &until);

			checked++;
			bad += id != ss_tasks_find(t, pid, times[i]) || times[i] < from ||
			       (times[i] >= until && until != UINT64_MAX) ||
			       ss_tasks_find(t, pid, from) != id ||
			       ss_tasks_find(t, pid, until - 1) != id ||
			       (until != UINT64_MAX && ss_tasks_find(t, pid, until) == id) ||
			       (from && ss_tasks_find(t, pid, from - 1) == id);
		}
	is_int(bad, 0, "the span holds the answer and ends where it changes (%d times)", checked);
	ss_tasks_find_span(t, 2, 120, &from, &until);
	ok(from == 0 && until == 150, "the first name of a renamed pid: [0, 150)");
	ss_tasks_find_span(t, 2, 170, &from, &until);
	ok(from == 150 && until == 200, "between two renames: [150, 200)");
	ss_tasks_find_span(t, 2, 300, &from, &until);
	ok(from == 300 && until == UINT64_MAX, "the last of two tied names: to the end");
	ss_tasks_free(t);
}

/*
 * The trace: pid 100 "tar" and pid 200 "kworker/u8:2" running wb_workfn, pid 300 kblockd.
 *
 *   10 ms  tar issues R 1000+8 itself                         owner tar        (no seek: first)
 *   11 ms  complete 1000+8
 *   20 ms  tar queues W 5000+8 (bio_queue)                    submitter tar
 *   21 ms  kblockd issues W 5000+8                            owner tar        seek
 *   22 ms  complete 5000+8
 *   30 ms  kworker issues W 5008+16 (no queue event)          owner kworker    contiguous
 *   31 ms  complete 5008+16
 *   40 ms  complete 9000+8, whose issue is not in the trace   owner: none
 *   50 ms  tar renamed "tar2" at 45 ms: issues W 100+8        owner tar2       seek
 *   51 ms  complete 100+8
 */
static int write_trace(const char *path)
{
	const uint16_t W = SS_RW_WRITE, R = SS_RW_READ;
	struct ss_rec_task tasks[] = {
		task(10 * MS, 100, "tar", ""),
		task(21 * MS, 300, "kworker/1:1H", "blk_mq_run_work_fn"),
		task(30 * MS, 200, "kworker/u8:2", "wb_workfn"),
		task(45 * MS, 100, "tar2", ""),
	};
	struct ss_event ev[] = {
		{ 10 * MS, 1000, 8, 4096, DEV, 0, SS_EV_ISSUE, R, 0, 0, 100, 0 },
		{ 11 * MS, 1000, 8, 4096, DEV, 0, SS_EV_COMPLETE, R, 0, 0, 0, 0 },
		{ 20 * MS, 5000, 8, 4096, DEV, 0, SS_EV_QUEUE, W, 0, 0, 100, 0 },
		{ 21 * MS, 5000, 8, 4096, DEV, 0, SS_EV_ISSUE, W, 1, 0, 300, 0 },
		{ 22 * MS, 5000, 8, 4096, DEV, 0, SS_EV_COMPLETE, W, 1, 0, 0, 0 },
		{ 30 * MS, 5008, 16, 8192, DEV, 0, SS_EV_ISSUE, W, 0, 0, 200, 0 },
		{ 31 * MS, 5008, 16, 8192, DEV, 0, SS_EV_COMPLETE, W, 0, 0, 0, 0 },
		{ 40 * MS, 9000, 8, 4096, DEV, 0, SS_EV_COMPLETE, W, 0, 0, 0, 0 },
		{ 50 * MS, 100, 8, 4096, DEV, 0, SS_EV_ISSUE, W, 0, 0, 100, 0 },
		{ 51 * MS, 100, 8, 4096, DEV, 0, SS_EV_COMPLETE, W, 0, 0, 0, 0 },
	};
	char err[200];
	struct ss_writer *w = ss_writer_open(path, SS_OUT_REPLACE, err, sizeof(err));

	if (!w)
		return -errno;
	ss_writer_tasks(w, tasks, 2);
	ss_writer_events(w, ev, 4);
	ss_writer_tasks(w, tasks + 2, 2);
	ss_writer_events(w, ev + 4, sizeof(ev) / sizeof(ev[0]) - 4);
	return ss_writer_close(w);
}

static const struct ss_proc_row *row_named(const struct ss_procs *p, const char *want)
{
	char name[SS_TASK_NAME_LEN];

	for (size_t i = 0; i < ss_procs_count(p); i++) {
		ss_procs_row_name(p, ss_procs_row(p, i), name, sizeof(name));
		if (!strcmp(name, want))
			return ss_procs_row(p, i);
	}
	return NULL;
}

/* The rows of one pid's runs of requests across its rename, and across a name the task table
 * learns in the middle of them (row_for keeps the last pid's row while its name holds). */
static void issue_at(struct ss_procs *p, uint32_t pid, uint64_t ts)
{
	ss_procs_issue(p, &(struct ss_req_owner){ .pid = pid, .ts = ts }, false);
}

static void test_procs_runs(struct ss_trace *t)
{
	struct ss_procs *p = ss_procs_new(t);
	const uint64_t at[] = { 20 * MS, 44 * MS, 45 * MS, 60 * MS, 44 * MS, 10 * MS };
	struct ss_rec_task gz = task(30 * MS, 100, "gzip", "");
	const struct ss_proc_row *r;
	int bad = 0;

	for (size_t i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		bad += ss_procs_issue(p, &(struct ss_req_owner){ .pid = 100, .ts = at[i] }, false);
	ss_procs_finish(p);
	is_int(bad, 0, "six issues of pid 100 counted");
	r = row_named(p, "tar");
	ok(r && r->issues == 4, "tar: 10, 20 and twice 44 ms (before its rename at 45 ms)");
	r = row_named(p, "tar2");
	ok(r && r->issues == 2, "tar2: 45 and 60 ms");
	ss_procs_free(p);

	/* fed on after finish, which sorts the rows (here by pid) under the kept one */
	p = ss_procs_new(t);
	issue_at(p, 200, 40 * MS);
	issue_at(p, 100, 20 * MS);
	ss_procs_finish(p);
	issue_at(p, 100, 21 * MS);
	ss_procs_finish(p);
	r = row_named(p, "tar");
	ok(r && r->issues == 2, "fed after a finish: tar's row, not the one now where it was");
	r = row_named(p, "kworker/u8:2-wb_workfn");
	ok(r && r->issues == 1, "and the worker's untouched");
	ss_procs_free(p);

	p = ss_procs_new(t);
	issue_at(p, 100, 20 * MS);
	is_int(ss_trace_add_task(t, &gz), 0, "the table learns a rename at 30 ms");
	issue_at(p, 100, 40 * MS);
	issue_at(p, 100, 20 * MS);
	ss_procs_finish(p);
	r = row_named(p, "gzip");
	ok(r && r->issues == 1, "40 ms, after the learnt rename: gzip, not the kept row of tar");
	r = row_named(p, "tar");
	ok(r && r->issues == 2, "20 ms: still tar");
	ss_procs_free(p);
}

static void test_trace(const char *path)
{
	struct ss_task_spec only = { 0 };
	struct ss_stats_opts o;
	struct ss_groups g;
	const struct ss_group_spec by_proc = { .by = SS_GROUP_PROCESS };
	struct ss_stats *st;
	const struct ss_procs *p;
	const struct ss_proc_row *r;
	char err[256], name[SS_TASK_NAME_LEN];
	struct ss_trace *t = ss_trace_open(path, err, sizeof(err));

	if (!ok(t != NULL, "the trace opens (%s)", t ? "" : err))
		return;
	is_int(ss_tasks_count(t->tasks), 4, "four task entries read from two TASKS records");
	ok(ss_trace_task_name(t, 100, 10 * MS, name, sizeof(name)) && !strcmp(name, "tar"),
	   "pid 100 at 10 ms is tar");
	ok(!ss_trace_task_name(t, 555, 10 * MS, name, sizeof(name)) && !strcmp(name, "unknown"),
	   "pid 555 is unknown");

	ss_stats_opts_init(&o);
	o.procs = true;
	st = ss_stats_new(t, &o);
	is_int(ss_stats_run(st, t), 0, "statistics pass");
	p = ss_stats_procs(st);
	is_int(ss_procs_count(p), 4, "rows: tar, kworker, tar2, no issue");
	r = row_named(p, "tar");
	ok(r && r->ios == 2 && r->bytes == 16 * 512 && r->seeks == 1 && r->submitted == 1,
	   "tar: its read and the write it queued (issued by kblockd), one seek");
	ok(!row_named(p, "kworker/1:1H-blk_mq_run_work_fn"), "kblockd owns nothing: it issued "
	   "tar's request");
	r = row_named(p, "kworker/u8:2-wb_workfn");
	ok(r && r->ios == 1 && r->bytes == 16 * 512 && r->seeks == 0,
	   "the writeback worker: one contiguous write");
	r = row_named(p, "tar2");
	ok(r && r->ios == 1 && r->seeks == 1 && r->pid == 100, "pid 100 after its rename: tar2");
	r = row_named(p, "(issue not in trace)");
	ok(r && r->ios == 1 && r->pid == SS_PROC_NO_ISSUE, "the completion without issue: its row");
	is_int(ss_stats_total(st)->seeks, 2, "the rows' seeks add up to the trace's");
	ss_stats_free(st);

	/* --comm tar: tar's requests only, judged against all of them */
	is_int(ss_task_spec_add_comm(&only, "tar", err, sizeof(err)), 0, "--comm tar");
	o.only = &only;
	st = ss_stats_new(t, &o);
	is_int(ss_stats_run(st, t), 0, "filtered pass");
	is_int(ss_stats_total(st)->ios, 2, "--comm tar: 2 I/Os (the read, the queued write)");
	is_int(ss_stats_total(st)->seeks, 1, "--comm tar: 1 seek");
	is_int(ss_stats_total(st)->events, 5, "--comm tar: 5 events (Q, 2 issues, 2 completions)");
	ss_stats_free(st);
	memset(&only, 0, sizeof(only));
	ss_task_spec_add_comm(&only, "kworker*", err, sizeof(err));
	ss_task_spec_add_pid(&only, "100", err, sizeof(err));
	st = ss_stats_new(t, &o);
	ss_stats_run(st, t);
	is_int(ss_stats_total(st)->ios, 4, "--comm 'kworker*' --pid 100: every issued request");
	ss_stats_free(st);
	is_int(ss_task_spec_add_pid(&only, "x1", err, sizeof(err)), -EINVAL, "--pid x1 refused");
	is_int(ss_task_spec_add_comm(&only, "", err, sizeof(err)), -EINVAL, "--comm '' refused");

	/* groups for colours: by issued data requests */
	is_int(ss_groups_rank(&by_proc, &t, NULL, 1, NULL, 8, &g, err, sizeof(err)), 0, "groups ranked");
	is_int(g.n, 3, "three groups");
	is_str(g.name[0], "tar", "tar first (2 requests)");
	is_int(g.issues[0], 2, "tar: 2");
	is_int(ss_groups_slot(&g, "kworker:wb_workfn"), 1, "ties by name: kworker before tar2");
	is_int(ss_groups_slot(&g, "sync"), 3, "a group not ranked: other");
	ok(!g.unknown_slot && ss_groups_nr_slots(&g) == 4, "processes: no slot for unknown");
	ss_groups_rank(&by_proc, &t, NULL, 1, NULL, 1, &g, err, sizeof(err));
	ok(g.n == 1 && g.other == 2, "top 1: the other two are other");
	{
		/* only what is drawn is ranked: a time window (--x-range), a device (--device) */
		struct ss_group_scope sc = { 25 * MS, 60 * MS, false, 0 };

		ss_groups_rank(&by_proc, &t, &sc, 1, NULL, 8, &g, err, sizeof(err));
		ok(g.n == 2 && ss_groups_slot(&g, "tar") == 2,
		   "25..60 ms: tar's requests are earlier, it is not ranked");
		sc = (struct ss_group_scope){ 0, UINT64_MAX, true, DEV + 1 };
		ss_groups_rank(&by_proc, &t, &sc, 1, NULL, 8, &g, err, sizeof(err));
		is_int(g.n, 0, "another device: nothing ranked");
	}
	test_procs_runs(t);
	ss_trace_close(t);
}

/*
 * Two requests that a worker (pid 300) issues at the same nanosecond, queued before by tar
 * (100) and gzip (400), in flight together: each completion is its own submitter's, whether
 * the pass notes the submitters read ahead or not.  (The owners of issued requests used to be
 * kept in a table keyed by device and issue time, where the second issue took the first's
 * place: both completions went to gzip.)
 */
static void test_same_instant(const char *path)
{
	const uint16_t W = SS_RW_WRITE;
	struct ss_rec_task tasks[] = {
		task(1 * MS, 100, "tar", ""),
		task(1 * MS, 400, "gzip", ""),
		task(1 * MS, 300, "kworker/0:1H", "blk_mq_run_work_fn"),
	};
	struct ss_event ev[] = {
		{ 10 * MS, 7000, 8, 4096, DEV, 0, SS_EV_QUEUE, W, 0, 0, 100, 0 },
		{ 10 * MS + 1, 8000, 8, 4096, DEV, 0, SS_EV_QUEUE, W, 0, 0, 400, 0 },
		{ 11 * MS, 7000, 8, 4096, DEV, 0, SS_EV_ISSUE, W, 0, 0, 300, 0 },
		{ 11 * MS, 8000, 8, 4096, DEV, 0, SS_EV_ISSUE, W, 0, 0, 300, 0 },
		{ 12 * MS, 8000, 8, 4096, DEV, 0, SS_EV_COMPLETE, W, 0, 0, 0, 0 },
		{ 13 * MS, 7000, 8, 4096, DEV, 0, SS_EV_COMPLETE, W, 0, 0, 0, 0 },
	};
	char err[200];
	struct ss_writer *w = ss_writer_open(path, SS_OUT_REPLACE, err, sizeof(err));
	struct ss_task_spec only = { 0 };
	struct ss_trace *t = NULL;

	if (!ok(w != NULL, "same instant: writer (%s)", w ? "" : err))
		return;
	ss_writer_tasks(w, tasks, 3);
	ss_writer_events(w, ev, sizeof(ev) / sizeof(ev[0]));
	if (!ok(ss_writer_close(w) == 0 && (t = ss_trace_open(path, err, sizeof(err))),
		"same instant: the trace written and opened"))
		return;
	for (int mode = -1; mode <= 1; mode += 2) {
		const char *how = mode > 0 ? "read ahead" : "read directly";
		struct ss_stats_opts o;
		struct ss_stats *st;
		const struct ss_proc_row *tar, *gzip;

		ss_trace_set_readahead(t, mode);
		ss_stats_opts_init(&o);
		o.procs = true;
		st = ss_stats_new(t, &o);
		is_int(st ? ss_stats_run(st, t) : -1, 0, "same instant, %s: pass", how);
		tar = st ? row_named(ss_stats_procs(st), "tar") : NULL;
		gzip = st ? row_named(ss_stats_procs(st), "gzip") : NULL;
		ok(tar && gzip && tar->ios == 1 && tar->issues == 1 && tar->submitted == 1 &&
		   gzip->ios == 1 && gzip->issues == 1 && gzip->submitted == 1,
		   "same instant, %s: tar's and gzip's requests each its own (tar %llu I/Os, gzip "
		   "%llu)", how, tar ? (unsigned long long)tar->ios : 0,
		   gzip ? (unsigned long long)gzip->ios : 0);
		ss_stats_free(st);
		memset(&only, 0, sizeof(only));
		ss_task_spec_add_comm(&only, "tar", err, sizeof(err));
		o.only = &only;
		st = ss_stats_new(t, &o);
		ok(st && !ss_stats_run(st, t) && ss_stats_total(st)->ios == 1 &&
		   ss_stats_total(st)->events == 3,
		   "same instant, %s: --comm tar keeps its queue, issue and completion", how);
		ss_stats_free(st);
	}
	ss_trace_close(t);
}

/*
 * The owner table alone (owner.h): an issue belongs to the latest QUEUE event's task at its
 * device and sector, else the latest INSERT's, at most SS_OWNER_MAX_AGE_NS before; else (and
 * for a trace without either) to its issuer; other events return 0, a reset forgets.
 */
static struct ss_req_owner fed(struct ss_owner *o, uint64_t ts, uint64_t sector, uint32_t dev,
			       uint8_t type, uint32_t pid, int *ret)
{
	struct ss_event e = { .ts_ns = ts, .sector = sector, .nr_sector = 8, .bytes = 4096,
			      .dev = dev, .type = type, .flags = SS_RW_WRITE, .pid = pid };
	struct ss_req_owner who = { .pid = UINT32_MAX };

	*ret = ss_owner_feed(o, &e, &who);
	return who;
}

static void test_owner_feed(void)
{
	struct ss_owner *o = ss_owner_new();
	struct ss_req_owner w;
	int r, q, c;

	if (!ok(o != NULL, "owner table made"))
		return;
	w = fed(o, 10 * MS, 100, DEV, SS_EV_ISSUE, 300, &r);
	ok(r == 1 && w.pid == 300 && w.ts == 10 * MS && !w.submitter,
	   "no queue or insert event seen: the issuer's (pid %u)", w.pid);
	fed(o, 20 * MS, 100, DEV, SS_EV_QUEUE, 100, &q);
	fed(o, 21 * MS, 100, DEV, SS_EV_INSERT, 200, &r);
	w = fed(o, 22 * MS, 100, DEV, SS_EV_ISSUE, 300, &r);
	ok(q == 0 && r == 1 && w.pid == 100 && w.ts == 20 * MS && w.submitter,
	   "queued by 100, inserted by 200, issued by 300: 100's, at its queue time (pid %u, "
	   "%llu ns)", w.pid, (unsigned long long)w.ts);
	fed(o, 23 * MS, 200, DEV, SS_EV_INSERT, 200, &r);
	w = fed(o, 24 * MS, 200, DEV, SS_EV_ISSUE, 300, &r);
	ok(w.pid == 200 && w.submitter, "only an insert event there: the inserter's (pid %u)",
	   w.pid);
	w = fed(o, 25 * MS, 200, DEV + 1, SS_EV_ISSUE, 300, &r);
	ok(w.pid == 300 && !w.submitter, "the same sector on another device: the issuer's");
	w = fed(o, 26 * MS, 208, DEV, SS_EV_ISSUE, 300, &r);
	ok(w.pid == 300 && !w.submitter, "another sector: the issuer's");
	fed(o, 30 * MS, 300, DEV, SS_EV_QUEUE, 100, &r);
	w = fed(o, 30 * MS + SS_OWNER_MAX_AGE_NS, 300, DEV, SS_EV_ISSUE, 300, &r);
	ok(w.pid == 100 && w.ts == 30 * MS, "queued exactly SS_OWNER_MAX_AGE_NS before: still "
	   "the submitter's");
	fed(o, 40 * MS, 400, DEV, SS_EV_QUEUE, 100, &r);
	w = fed(o, 40 * MS + SS_OWNER_MAX_AGE_NS + 1, 400, DEV, SS_EV_ISSUE, 300, &r);
	ok(w.pid == 300 && !w.submitter, "queued longer ago: the issuer's");
	w = fed(o, 50 * MS, 500, DEV, SS_EV_QUEUE, 100, &q);
	fed(o, 51 * MS, 500, DEV, SS_EV_COMPLETE, 0, &c);
	ok(q == 0 && c == 0 && w.pid == UINT32_MAX,
	   "queue and completion events: 0, no owner written (a completion's is its issue's)");
	fed(o, 52 * MS, SS_SECTOR_NONE, DEV, SS_EV_QUEUE, 100, &r);
	w = fed(o, 53 * MS, SS_SECTOR_NONE, DEV, SS_EV_ISSUE, 300, &r);
	ok(r == 1 && w.pid == 300, "a request without a sector (a flush): the issuer's");
	ss_owner_reset(o);
	w = fed(o, 60 * MS, 100, DEV, SS_EV_ISSUE, 300, &r);
	ok(w.pid == 300 && !w.submitter, "after a reset the submitters are forgotten");
	ss_owner_free(o);
	ss_owner_free(NULL);
}

int main(void)
{
	test_owner_feed();
	test_table();
	test_span();
	if (testdir_make("tasks"))
		return done_testing();
	TP(path, "tasks.sst");
	is_int(write_trace(path), 0, "trace with task records written");
	test_trace(path);
	TP(same, "same-instant.sst");
	test_same_instant(same);
	return done_testing();
}
