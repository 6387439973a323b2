// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics pass's judgement of one event (struct judgement, stats_priv.h), inline in
 * both of the threads that may judge: the pass's own (stats.c) and its batch hook's
 * (stats_note.c).
 */
#ifndef SS_STATS_JUDGE_H
#define SS_STATS_JUDGE_H

#include "owner.h"
#include "pair.h"
#include "seek.h"
#include "stats_priv.h"
#include "taskfilter.h"

/*
 * Judge EV into M, a completion's io into IO: NOTED, its note is M->is.note already
 * (ss_stats_note's), else it is noted here from the submitters seen so far (with the
 * attribution's procs).  1 (M->counts), 0
 * (another device's, with opts.one_device) or a negative errno.  In one thread for a pass,
 * the events in order: the read-ahead's when ss_stats_notes let the hook judge, else the
 * pass's.
 */
/* inlined in the loops that call it (measured, a called function: a plot without read-ahead
 * 0.334 s against 0.315 s) */
static inline __attribute__((always_inline)) int
stats_judge(struct ss_stats *st, const struct ss_event *ev, struct judgement *m, bool noted,
	    struct ss_io *io)
{
	uint64_t note = noted ? m->is.note : 0;
	int keep = 1, ret;
	int64_t dist;

	m->counts = false;
	if (st->o.one_device && ev->dev != st->o.device)
		return 0;
	/* a filtered-out request still moves the head and fills the queue: it is fed to the
	 * seek and pairing rules, only not counted */
	if (st->filter && (keep = ss_evfilter_keep(st->filter, ev)) < 0)
		return keep;
	m->keep = keep;
	m->in = !st->o.window || (ev->ts_ns >= st->o.window_start_ns &&
				  ev->ts_ns <= st->o.window_end_ns);
	m->depth = (uint32_t)ss_pair_inflight(st->pair);
	m->dev_depth = (uint32_t)ss_pair_inflight_dev(st->pair, ev->dev);
	/* not noted by the hook, or left to this thread (ss_stats_balance) */
	if ((!noted || note == SS_OWNER_UNNOTED) && st->noter && st->noter->owner &&
	    (ret = ss_owner_note(st->noter->owner, ev, &note)) < 0)
		return ret;
	m->seek_done = (note & NOTED_ATTRIBUTED) != 0;
	m->matched = false;
	m->counts = true;
	if (ev->type == SS_EV_QUEUE || ev->type == SS_EV_INSERT) {
		/* they move no head and fill no queue: the seek and pairing rules ignore them
		 * (seek.h, pair.h), without a call (a third of a blktrace trace's events) */
		m->verdict = SS_SEEK_IGNORED;
		m->paired = 0;
		return 1;
	}
	if ((ret = ss_seek_feed(st->seek, ev, &dist)) < 0)
		return ret;
	m->verdict = (int8_t)ret;
	/* an issue's owner travels with it to its completion */
	if ((ret = ss_pair_feed_tag(st->pair, ev, note, io)) < 0)
		return ret;
	m->paired = (int8_t)ret;
	if (ev->type == SS_EV_ISSUE) {
		m->is.dist = dist;
		m->is.note = note;
		m->is.depth_after = (uint32_t)ss_pair_inflight(st->pair);
		m->is.dev_depth_after = (uint32_t)ss_pair_inflight_dev(st->pair, ev->dev);
	}
	return 1;
}

/* What of IO, the io stats_judge gave with M, M keeps for another thread (judgement_io). */
static inline void judgement_keep(struct judgement *m, const struct ss_io *io)
{
	if (m->paired != 1 || !io->matched)
		return;
	m->matched = true;
	m->co.issue_ts = io->issue_ts;
	m->co.issue_tag = io->issue_tag;
	m->co.issue_pid = io->issue_pid;
	m->co.flags = io->flags;
}

/* The io of completion EV as judged (J; paired == 1), into IO: IO, or NULL for another event. */
static inline const struct ss_io *judgement_io(const struct ss_event *ev,
					       const struct judgement *j, struct ss_io *io)
{
	if (j->paired != 1)
		return NULL;
	ss_io_unmatched(io, ev);
	if (j->matched)
		ss_io_match(io, j->co.issue_ts, j->co.issue_pid, j->co.issue_tag, j->co.flags);
	return io;
}

#endif
