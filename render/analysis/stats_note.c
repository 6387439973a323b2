// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics pass's judgement of each event (ss_stats_judge) and its batch hook (stats.h:
 * ss_stats_note): what needs the events alone, beside the pass.  The hook either notes whose
 * request each event is (owner.h) or, when the pass lets it, judges every event itself
 * (struct judgement, stats_priv.h); in another thread than the pass's it also runs the
 * attribution's seek half (stats_attr.h).  Its state is struct stats_noter (stats_priv.h) and
 * what judging touches (the seek and pairing rules, the process filter), which the pass's
 * thread does not touch until the pass has ended.
 */
#include <pthread.h>

#include "owner.h"
#include "seek.h"
#include "stats_attr.h"
#include "stats_priv.h"
#include "taskfilter.h"
#include "trace_read.h"

int ss_stats_judge(struct ss_stats *st, const struct ss_event *ev, struct judgement *m,
		   bool noted)
{
	int keep = 1, ret;

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
	if (!noted && (m->note = 0, st->noter && st->noter->owner) &&
	    (ret = ss_owner_note(st->noter->owner, ev, &m->note)) < 0)
		return ret;
	m->seek_done = (m->note & NOTED_ATTRIBUTED) != 0;
	m->counts = true;
	if (ev->type == SS_EV_QUEUE || ev->type == SS_EV_INSERT) {
		/* they move no head and fill no queue: the seek and pairing rules ignore them
		 * (seek.h, pair.h), without a call (a third of a blktrace trace's events) */
		m->dist = 0;
		m->verdict = SS_SEEK_IGNORED;
		m->paired = 0;
		return 1;
	}
	if ((ret = ss_seek_feed(st->seek, ev, &m->dist)) < 0)
		return ret;
	m->verdict = (int8_t)ret;
	/* an issue's owner travels with it to its completion */
	if ((ret = ss_pair_feed_tag(st->pair, ev, m->note, &m->io)) < 0)
		return ret;
	m->paired = (int8_t)ret;
	if (ev->type == SS_EV_ISSUE) {
		m->depth_after = (uint32_t)ss_pair_inflight(st->pair);
		m->dev_depth_after = (uint32_t)ss_pair_inflight_dev(st->pair, ev->dev);
	}
	return 1;
}

size_t ss_stats_notes(struct ss_stats *st, bool judge)
{
	struct stats_noter *nt = st->noter;

	if (!nt)
		return 0;
	nt->caller = pthread_self();
	/* judged in the hook: not when the fan-out's threads take judged events from the
	 * pass's thread */
	nt->judge = judge && !st->fan;
	/*
	 * The seek half goes to the hook when it runs in another thread, unless it has a thread
	 * of its own already (fanout.h): judged there, or again by a seek rule of its own when
	 * the pass judges (not with a process filter, whose verdicts are the pass's).  Not when
	 * the hook judges a trace whose decoding is costly (blktrace's, trace-cmd's): there the
	 * read-ahead thread has the longer share of the pass already (measured, a blktrace
	 * report: 268 against 196 million instructions with the half in the hook, 237 against
	 * 227 without).
	 */
	nt->attr = st->attr_here && !st->attr_idle &&
		   (nt->judge ? !(st->t && ss_trace_costly_decode(st->t)) :
				(!st->filter &&
				 (nt->seek || (nt->seek = ss_seek_new(st->o.seek_threshold)))));
	if (nt->judge)
		return sizeof(struct judgement);
	return nt->owner || nt->attr ? sizeof(uint64_t) : 0;
}

/* The attribution's seek half of EV (stats_attr.h), judged by the hook's own seek rule. */
static int note_attr(struct ss_stats *st, struct stats_noter *nt, const struct ss_event *ev)
{
	bool in = !st->o.window || (ev->ts_ns >= st->o.window_start_ns &&
				    ev->ts_ns <= st->o.window_end_ns);
	int64_t dist;
	int verdict;

	if ((verdict = ss_seek_feed(nt->seek, ev, &dist)) < 0)
		return verdict;
	return ss_stats_attr_seek(st->attr, ev, true, in, verdict);
}

/* Judge N events into M; ATTR: their seek half too.  After an error nothing is counted: the
 * pass ends in it (ss_stats_finish). */
static void note_judged(struct ss_stats *st, struct stats_noter *nt, const struct ss_event *ev,
			struct judgement *m, size_t n, bool attr)
{
	int ret;

	for (size_t i = 0; i < n; i++) {
		if (nt->err) {
			m[i].counts = false;
			continue;
		}
		if ((ret = ss_stats_judge(st, &ev[i], &m[i], false)) <= 0) {
			if (ret < 0)
				nt->err = ret;
			m[i].counts = false;
			continue;
		}
		if (attr && m[i].verdict != SS_SEEK_IGNORED) {
			if ((ret = ss_stats_attr_seek(st->attr, &ev[i], m[i].keep, m[i].in,
						      m[i].verdict)))
				nt->err = ret;
			m[i].seek_done = true;
		}
	}
}

void ss_stats_note(struct ss_stats *st, const struct ss_event *ev, void *notes, size_t n)
{
	struct stats_noter *nt = st->noter;
	bool attr = nt->attr && !pthread_equal(pthread_self(), nt->caller);
	uint64_t *note = notes;
	int ret;

	if (nt->judge) {
		note_judged(st, nt, ev, notes, n, attr);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		note[i] = 0;
		/* judge() skips them before the attribution sees them */
		if (nt->one_device && ev[i].dev != nt->device)
			continue;
		if (!nt->err && nt->owner && (ret = ss_owner_note(nt->owner, &ev[i], &note[i])))
			nt->err = ret;
		if (!attr)
			continue;
		/* after an error too: the pass's thread stays out of the attribution */
		if (!nt->err && (ret = note_attr(st, nt, &ev[i])))
			nt->err = ret;
		note[i] |= NOTED_ATTRIBUTED;
	}
}

int ss_stats_note_error(const struct ss_stats *st)
{
	return st->noter ? st->noter->err : 0;
}
