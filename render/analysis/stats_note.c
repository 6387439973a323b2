// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The statistics pass's batch hook (stats.h:
 * ss_stats_note): what needs the events alone, beside the pass.  The hook either judges every
 * event itself (struct judgement, stats_priv.h), when the pass lets it and the trace decodes
 * cheaply, or notes whose request each event is (owner.h) and, in another thread than the
 * pass's, runs the attribution's seek half (stats_attr.h).  Its state is struct stats_noter
 * (stats_priv.h) and what judging touches (the seek and pairing rules, the process filter),
 * which the pass's thread does not touch until the pass has ended.
 */
#include <pthread.h>
#include <string.h>

#include "owner.h"
#include "seek.h"
#include "stats_attr.h"
#include "stats_judge.h"
#include "stats_priv.h"
#include "trace_read.h"

size_t ss_stats_notes(struct ss_stats *st, bool judge)
{
	struct stats_noter *nt = st->noter;

	if (!nt)
		return 0;
	nt->caller = pthread_self();
	/*
	 * Judged in the hook: not when the fan-out's threads take judged events from the pass's
	 * thread, nor for a trace whose decoding is costly (blktrace's, trace-cmd's), where the
	 * read-ahead thread would then have the longer share of the pass (measured, a 6M-event
	 * blktrace report: judged in the hook, the pass's thread waited for the read-ahead's a
	 * fifth of its time).
	 */
	nt->judge = judge && !st->fan && !(st->t && ss_trace_costly_decode(st->t));
	nt->idle = false;
	/*
	 * The attribution's seek half goes to the hook when the pass judges and the hook runs in
	 * another thread, unless the half has a thread of its own already (fanout.h): judged
	 * again there by a seek rule of its own (not with a process filter, whose verdicts are
	 * the pass's).  When the hook judges, the half stays with the rest of the attribution:
	 * the read-ahead thread has the longer share of the pass already (measured, a 4M-event
	 * report: 0.22 s with the half in the hook, 0.20 s without).
	 */
	nt->attr = st->attr_here && !st->attr_idle && !nt->judge && !st->filter &&
		   (nt->seek || (nt->seek = ss_seek_new(st->o.seek_threshold)));
	atomic_store(&nt->taken_back, TAKEN_NONE);
	nt->left = TAKEN_NONE;
	nt->decided = nt->at_taken = nt->at_waited = 0;
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

/* Judge N events into M.  After an error nothing is counted: the pass ends in it
 * (ss_stats_finish). */
static void judge_run(struct ss_stats *st, struct stats_noter *nt, const struct ss_event *ev,
		      struct judgement *m, size_t n)
{
	struct ss_io io;
	int ret;

	for (size_t i = 0; i < n; i++) {
		if (nt->err) {
			m[i].counts = false;
			continue;
		}
		if ((ret = stats_judge(st, &ev[i], &m[i], false, &io)) < 0) {
			nt->err = ret;
			m[i].counts = false;
		} else if (ret) {
			judgement_keep(&m[i], &io);
		}
	}
}

/*
 * judge_run() into NOTES, a run at a time through a buffer that stays in this CPU's cache:
 * the notes were read last by the CPU that counts, so every line written there must be taken
 * back from it, which one copy of a run does much faster than stores scattered among the
 * judging's work (measured, a 4M-event report: 0.40 s, those stores stalling the read-ahead
 * thread for a third of its time; 0.22 s through the buffer).
 */
#define JUDGE_RUN 256
static void note_judged(struct ss_stats *st, struct stats_noter *nt, const struct ss_event *ev,
			struct judgement *notes, size_t n)
{
	struct judgement run[JUDGE_RUN];

	for (size_t i = 0; i < n; i += JUDGE_RUN) {
		size_t k = n - i < JUDGE_RUN ? n - i : JUDGE_RUN;

		judge_run(st, nt, ev + i, run, k);
		memcpy(notes + i, run, k * sizeof(*run));
	}
}

void ss_stats_hand_over(struct ss_stats *st)
{
	struct stats_noter *nt = st->noter;
	unsigned next;

	if (!nt)
		return;
	next = atomic_load_explicit(&nt->taken_back, memory_order_relaxed) + 1;
	if (next == TAKEN_SEEK_HALF && !nt->attr)
		next = TAKEN_OWNERS;
	if (next <= TAKEN_OWNERS)
		atomic_store_explicit(&nt->taken_back, next, memory_order_release);
}

#define BALANCE_SLOTS 32
void ss_stats_balance(struct ss_stats *st)
{
	struct stats_noter *nt = st->noter;
	/* the parts the pass may take back, one a decision */
	unsigned parts = nt ? (unsigned)nt->attr + (nt->owner != NULL) : 0, taken, waited;

	if (!nt || nt->judge || nt->decided >= parts)
		return;
	if (!st->t || !ss_trace_readahead_waits(st->t, &taken, &waited)) {
		nt->decided = parts;    /* no read-ahead: the hook runs here, the seek half here */
		return;
	}
	if (taken - nt->at_taken < BALANCE_SLOTS)
		return;
	if (waited - nt->at_waited > (taken - nt->at_taken) / 2) {
		nt->decided++;
		ss_stats_hand_over(st);
	} else {
		nt->decided = parts;
	}
	nt->at_taken = taken;
	nt->at_waited = waited;
}

void ss_stats_note(struct ss_stats *st, const struct ss_event *ev, void *notes, size_t n)
{
	struct stats_noter *nt = st->noter;
	bool here = pthread_equal(pthread_self(), nt->caller), attr, unnoted;
	uint64_t *note = notes;
	int ret;

	if (nt->idle)
		return;
	if (nt->judge) {
		/* in the pass's own thread (no read-ahead) the pass judges the events itself, from
		 * the same state: its judgements written here and read back there would only cost
		 * time (measured, the 2M-I/O seekscope trace's report without read-ahead: 0.329 s
		 * so, 0.295 s judged there) */
		if (here) {
			nt->idle = true;
			return;
		}
		note_judged(st, nt, ev, notes, n);
		return;
	}
	/* what the pass took back (ss_stats_balance): every event before this batch was done
	 * here, before the pass could see the batch */
	if (!here && nt->left < TAKEN_OWNERS)
		nt->left = atomic_load_explicit(&nt->taken_back, memory_order_acquire);
	attr = nt->attr && !here && nt->left < TAKEN_SEEK_HALF;
	unnoted = nt->owner && nt->left >= TAKEN_OWNERS;
	for (size_t i = 0; i < n; i++) {
		note[i] = 0;
		/* judge() skips them before the attribution sees them */
		if (nt->one_device && ev[i].dev != nt->device)
			continue;
		if (unnoted) {
			note[i] = SS_OWNER_UNNOTED;     /* the pass notes it */
			continue;
		}
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
