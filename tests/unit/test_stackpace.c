// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ss_stackpace_decide(): the kworkers' stacks pause only after a whole window of other tasks'
 * events at SS_STACK_PAUSE_RATE or more with no kworker's, and not within
 * SS_STACK_PAUSE_HOLD_NS of a kworker's; below the rate they stay; the first kworker's event
 * stamped from the pause on, read while paused, resumes them at once (one stamped before it
 * does not); after a resume the window starts again.
 */
#include <stdint.h>

#include "tap.h"
#include "stackpace.h"

#define MS 1000000ull
#define S 1000000000ull

/* N other tasks' events, stamped from T on, 10 us apart */
static void others(struct ss_stackpace *p, uint64_t t, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		ss_stackpace_event(p, t + i * 10000ull, false);
}

int main(void)
{
	struct ss_stackpace p = { 0 };
	unsigned per_window = (unsigned)(SS_STACK_PAUSE_RATE * SS_STACK_PAUSE_WINDOW_NS / S);

	/* a busy workload of its own, no kworker ever */
	is_int(ss_stackpace_decide(&p, 1 * S), SS_STACKS_KEEP, "the first drain opens the window");
	others(&p, 1 * S, per_window);
	is_int(ss_stackpace_decide(&p, 1 * S + SS_STACK_PAUSE_WINDOW_NS / 2), SS_STACKS_KEEP,
	       "half a window: kept, however busy");
	others(&p, 1 * S + SS_STACK_PAUSE_WINDOW_NS / 2, 10);
	is_int(ss_stackpace_decide(&p, 1 * S + SS_STACK_PAUSE_WINDOW_NS), SS_STACKS_PAUSE,
	       "a whole window at the rate, no kworker since the start: paused");
	ok(p.paused, "... and says so");
	others(&p, 2 * S, 100000);
	is_int(ss_stackpace_decide(&p, 3 * S), SS_STACKS_KEEP, "paused: others change nothing");
	ss_stackpace_event(&p, 3 * S + 5 * MS, true);
	is_int(ss_stackpace_decide(&p, 3 * S + 10 * MS), SS_STACKS_RESUME,
	       "the first kworker's event read resumes them");
	ok(!p.paused, "... and says so");

	/* after a kworker: held however busy, each window at four times the rate */
	uint64_t kw = 3 * S + 5 * MS, t = 3 * S + 10 * MS;

	while (t + SS_STACK_PAUSE_WINDOW_NS < kw + SS_STACK_PAUSE_HOLD_NS) {
		others(&p, t, per_window * 4);
		t += SS_STACK_PAUSE_WINDOW_NS;
		if (ss_stackpace_decide(&p, t) != SS_STACKS_KEEP)
			break;
	}
	ok(!p.paused, "busy windows within the hold after a kworker's event: kept");
	/* the hold's edge: a whole busy window ending a nanosecond before it, and one at it */
	struct ss_stackpace h = { .last_kworker = kw };

	ss_stackpace_decide(&h, kw + SS_STACK_PAUSE_HOLD_NS - 1 - SS_STACK_PAUSE_WINDOW_NS);
	others(&h, kw + SS_STACK_PAUSE_HOLD_NS - SS_STACK_PAUSE_WINDOW_NS, per_window * 4);
	is_int(ss_stackpace_decide(&h, kw + SS_STACK_PAUSE_HOLD_NS - 1), SS_STACKS_KEEP,
	       "a whole busy window ending a nanosecond before the hold's end: kept");
	struct ss_stackpace e = { .last_kworker = kw };

	ss_stackpace_decide(&e, kw + SS_STACK_PAUSE_HOLD_NS - SS_STACK_PAUSE_WINDOW_NS);
	others(&e, kw + SS_STACK_PAUSE_HOLD_NS - SS_STACK_PAUSE_WINDOW_NS, per_window);
	is_int(ss_stackpace_decide(&e, kw + SS_STACK_PAUSE_HOLD_NS), SS_STACKS_PAUSE,
	       "... one ending at the hold's end: paused");
	t = kw + SS_STACK_PAUSE_HOLD_NS - 1;
	others(&p, t, per_window * 4);
	is_int(ss_stackpace_decide(&p, t + SS_STACK_PAUSE_WINDOW_NS), SS_STACKS_PAUSE,
	       "a busy window past the hold: paused");
	t += SS_STACK_PAUSE_WINDOW_NS;
	ss_stackpace_event(&p, t - MS, true);
	is_int(ss_stackpace_decide(&p, t + 50 * MS), SS_STACKS_KEEP,
	       "a kworker's event stamped before the pause, read after it: still paused");
	ok(p.paused, "... and says so");
	ss_stackpace_event(&p, t, true);
	is_int(ss_stackpace_decide(&p, t + 100 * MS), SS_STACKS_RESUME,
	       "one stamped at the pause: resumed");

	/* below the rate: kept */
	struct ss_stackpace q = { 0 };

	ss_stackpace_decide(&q, 1 * S);
	others(&q, 1 * S, per_window - 1);
	is_int(ss_stackpace_decide(&q, 1 * S + SS_STACK_PAUSE_WINDOW_NS), SS_STACKS_KEEP,
	       "one event short of the rate over the window: kept");
	others(&q, 2 * S, per_window);
	is_int(ss_stackpace_decide(&q, 1 * S + 3 * SS_STACK_PAUSE_WINDOW_NS), SS_STACKS_KEEP,
	       "the rate's count over two windows' time: kept (the window started again)");
	ok(!q.paused, "never paused");

	/* a kworker's event in the busy window itself */
	struct ss_stackpace k = { 0 };

	ss_stackpace_decide(&k, 1 * S);
	others(&k, 1 * S, per_window * 2);
	ss_stackpace_event(&k, 1 * S + 100 * MS, true);
	is_int(ss_stackpace_decide(&k, 1 * S + SS_STACK_PAUSE_WINDOW_NS), SS_STACKS_KEEP,
	       "a kworker's event in the window: kept");
	ok(k.last_kworker == 1 * S + 100 * MS, "its stamp is the last kworker's");
	ss_stackpace_event(&k, 1 * S + 50 * MS, true);
	ok(k.last_kworker == 1 * S + 100 * MS, "an older stamp read later does not move it back");

	/* a clock that went back (it cannot, but the window starts again) */
	struct ss_stackpace b = { 0 };

	ss_stackpace_decide(&b, 5 * S);
	others(&b, 5 * S, per_window * 2);
	is_int(ss_stackpace_decide(&b, 4 * S), SS_STACKS_KEEP, "NOW before the window: kept");
	is_int(b.win_from, 4 * S, "... the window starts again there");
	is_int(b.others, 0, "... from no events");

	/* no overflow at extreme counts */
	struct ss_stackpace x = { 0 };

	ss_stackpace_decide(&x, 1 * S);
	x.others = UINT64_MAX;
	is_int(ss_stackpace_decide(&x, 1 * S + SS_STACK_PAUSE_WINDOW_NS), SS_STACKS_PAUSE,
	       "the most events a counter holds: paused, no overflow");
	return done_testing();
}
