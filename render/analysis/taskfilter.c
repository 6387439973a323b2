// SPDX-License-Identifier: GPL-2.0-or-later
/* Filters by process (see taskfilter.h). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines.h"
#include "errbuf.h"
#include "optable.h"
#include "owner.h"
#include "pair.h"
#include "tasks.h"
#include "taskfilter.h"

int ss_task_spec_add_pid(struct ss_task_spec *s, const char *arg, char *err, size_t errlen)
{
	uint64_t v;

	if (ss_optarg_uint(arg, 10, 0, UINT32_MAX, &v)) {
		ss_errf(err, errlen, "--pid wants a process id (a number), not '%s'", arg);
		return -EINVAL;
	}
	if (s->nr_pids == SS_TASK_SPEC_MAX) {
		ss_errf(err, errlen, "--pid given more than %d times", SS_TASK_SPEC_MAX);
		return -EINVAL;
	}
	s->pids[s->nr_pids++] = (uint32_t)v;
	return 0;
}

int ss_task_spec_add_comm(struct ss_task_spec *s, const char *arg, char *err, size_t errlen)
{
	if (!arg[0]) {
		ss_errf(err, errlen, "--comm wants a process name or pattern, not ''");
		return -EINVAL;
	}
	if (s->nr_comms == SS_TASK_SPEC_MAX) {
		ss_errf(err, errlen, "--comm given more than %d times", SS_TASK_SPEC_MAX);
		return -EINVAL;
	}
	s->comms[s->nr_comms++] = arg;
	return 0;
}

bool ss_task_spec_active(const struct ss_task_spec *s)
{
	return s && (s->nr_pids || s->nr_comms);
}

void ss_task_spec_describe(const struct ss_task_spec *s, char *buf, size_t len)
{
	size_t at = 0;

	buf[0] = 0;
	for (size_t i = 0; i < s->nr_pids && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%spid %u", at ? ", " : "", s->pids[i]);
	for (size_t i = 0; i < s->nr_comms && at < len; i++)
		at += (size_t)snprintf(buf + at, len - at, "%scomm %s", at ? ", " : "",
				       s->comms[i]);
}

bool ss_task_spec_match(const struct ss_task_spec *s, uint32_t pid, const struct ss_rec_task *rec)
{
	char name[SS_TASK_NAME_LEN], comm[sizeof(rec->comm) + 1], group[SS_TASK_NAME_LEN];

	for (size_t i = 0; i < s->nr_pids; i++)
		if (s->pids[i] == pid)
			return true;
	if (!rec || !s->nr_comms)
		return false;
	ss_task_name(rec, name, sizeof(name));
	snprintf(comm, sizeof(comm), "%.16s", rec->comm);
	ss_task_group(rec, group, sizeof(group));
	for (size_t i = 0; i < s->nr_comms; i++)
		if (!fnmatch(s->comms[i], name, 0) || !fnmatch(s->comms[i], comm, 0) ||
		    !fnmatch(s->comms[i], group, 0))
			return true;
	return false;
}

enum { UNSEEN = 0, MATCH, NO_MATCH };

struct ss_evfilter {
	const struct ss_task_spec *s;
	const struct ss_trace *t;
	struct ss_pair *pair;      /* completions follow their issue */
	struct ss_owner *owner;    /* whose request it is */
	unsigned char *verdict;    /* per task entry id: UNSEEN, MATCH, NO_MATCH */
	size_t nr_verdicts;
};

struct ss_evfilter *ss_evfilter_new(const struct ss_task_spec *s, const struct ss_trace *t)
{
	/* on lines of its own, as its verdicts: a read-ahead thread may filter while another
	 * thread writes what is allocated around them (lines.h) */
	struct ss_evfilter *f = ss_lines_alloc(sizeof(*f));

	if (!f)
		return NULL;
	f->s = s;
	f->t = t;
	f->nr_verdicts = ss_tasks_count(t->tasks);
	f->pair = ss_pair_new(0);
	f->owner = ss_owner_new();
	f->verdict = ss_lines_alloc(f->nr_verdicts);
	if (!f->pair || !f->owner || !f->verdict) {
		ss_evfilter_free(f);
		return NULL;
	}
	return f;
}

void ss_evfilter_free(struct ss_evfilter *f)
{
	if (!f)
		return;
	ss_pair_free(f->pair);
	ss_owner_free(f->owner);
	free(f->verdict);
	free(f);
}

void ss_evfilter_reset(struct ss_evfilter *f)
{
	ss_pair_reset(f->pair);
	ss_owner_reset(f->owner);
}

/* Whether PID at TS is one of the tasks asked for; the verdict is cached per task entry. */
static bool task_matches(struct ss_evfilter *f, uint32_t pid, uint64_t ts)
{
	long id = ss_tasks_find(f->t->tasks, pid, ts);

	if (id < 0 || (size_t)id >= f->nr_verdicts)
		return ss_task_spec_match(f->s, pid, NULL);
	if (f->verdict[id] == UNSEEN)
		f->verdict[id] = ss_task_spec_match(f->s, pid, ss_tasks_entry(f->t->tasks, (size_t)id))
				 ? MATCH : NO_MATCH;
	return f->verdict[id] == MATCH;
}

int ss_evfilter_keep(struct ss_evfilter *f, const struct ss_event *ev)
{
	struct ss_req_owner who;
	struct ss_io io;
	uint64_t note;
	int ret;

	/* the issue's owner travels with it to its completion (owner.h) */
	if ((ret = ss_owner_note(f->owner, ev, &note)) ||
	    (ret = ss_pair_feed_tag(f->pair, ev, note, &io)) < 0)
		return ret;
	switch (ev->type) {
	case SS_EV_ISSUE:
		who = ss_owner_of_issue(ev, note);
		return task_matches(f, who.pid, who.ts);
	case SS_EV_COMPLETE:
		if (!io.matched)
			return 0;       /* its issue is not in the trace: nobody's */
		who = ss_owner_of_io(&io);
		return task_matches(f, who.pid, who.ts);
	default:
		return task_matches(f, ev->pid, ev->ts_ns);
	}
}
