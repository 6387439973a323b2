// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics pass's batch hook (stats.h: ss_stats_note): what needs the events alone —
 * whose request each one is (owner.h) and, in another thread than the pass's, the
 * attribution's seek half (stats_attr.h) — noted per event, beside the pass.  Its state is
 * struct stats_noter (stats_priv.h), which the pass's thread does not touch until the pass
 * has ended.
 */
#include <pthread.h>

#include "owner.h"
#include "seek.h"
#include "stats_attr.h"
#include "stats_priv.h"

bool ss_stats_notes(struct ss_stats *st)
{
	struct stats_noter *nt = st->noter;

	if (!nt)
		return false;
	/* the attribution goes to the hook when it runs in another thread, judged there again:
	 * not with a process filter (its verdicts are the pass's), nor when it has a thread of
	 * its own already (fanout.h) */
	nt->caller = pthread_self();
	nt->attr = st->attr_here && !st->filter &&
		   (nt->seek || (nt->seek = ss_seek_new(st->o.seek_threshold)));
	return true;
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

/* The attribution's first half (stats_attr.h, owner.h), for a batch hook: NOTES[i] for EV[i];
 * in another thread than the pass's, the attribution itself. */
void ss_stats_note(struct ss_stats *st, const struct ss_event *ev, uint64_t *notes, size_t n)
{
	struct stats_noter *nt = st->noter;
	bool attr = nt->attr && !pthread_equal(pthread_self(), nt->caller);
	int ret;

	for (size_t i = 0; i < n; i++) {
		notes[i] = 0;
		/* judge() skips them before the attribution sees them */
		if (nt->one_device && ev[i].dev != nt->device)
			continue;
		if (!nt->err && nt->owner && (ret = ss_owner_note(nt->owner, &ev[i], &notes[i])))
			nt->err = ret;
		if (!attr)
			continue;
		/* after an error too: the pass's thread stays out of the attribution */
		if (!nt->err && (ret = note_attr(st, nt, &ev[i])))
			nt->err = ret;
		notes[i] |= NOTED_ATTRIBUTED;
	}
}

int ss_stats_note_error(const struct ss_stats *st)
{
	return st->noter ? st->noter->err : 0;
}
