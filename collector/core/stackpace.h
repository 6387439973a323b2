// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * When the recorder pauses the kworkers' stacks (tracecap.h, SS_CAP_WORK).
 *
 * The stacks name the work behind a kworker's requests, and the kernel takes one only after a
 * kworker's issue, insert or queue event; but it tries the trigger's filter on every such
 * event on the machine, kworker's or not, before the event's own filter (about 170 ns each on
 * a 2-vCPU virtual machine, a point or two of the IOPS of a latency-bound workload on a fast
 * device: docs/recorder-performance.md).  That is paid for nothing while a busy workload
 * issues its own requests and no kworker issues any.
 *
 * So the stacks pause when, over the last SS_STACK_PAUSE_WINDOW_NS, other tasks issued
 * SS_STACK_PAUSE_RATE requests a second or more on the traced devices and no kworker issued,
 * inserted or queued any there for SS_STACK_PAUSE_HOLD_NS or since the recording began (the
 * first window can pause them).  Below that rate the trigger costs about a thousandth of a
 * CPU or less on the traced devices' requests (the recorder does not see the other devices',
 * which pay it too).  The first kworker's event stamped after the pause began, read while
 * they are paused, resumes them: the kworkers' events until the trigger is back (read a drain
 * or two later, up to about 100 ms, then the write) go without their work's name, and the
 * recorder counts them.  A kworker that issued within SS_STACK_PAUSE_HOLD_NS keeps them on,
 * so a writeback that comes back every few seconds (every 5 s by default) is not cut each
 * time.
 *
 * Pure bookkeeping: the caller feeds the events as it reads them and acts on each decision.
 */
#ifndef SS_STACKPACE_H
#define SS_STACKPACE_H

#include <stdbool.h>
#include <stdint.h>

#define SS_STACK_PAUSE_WINDOW_NS 500000000ull
#define SS_STACK_PAUSE_RATE 5000u
#define SS_STACK_PAUSE_HOLD_NS 10000000000ull

struct ss_stackpace {
	uint64_t win_from;       /* when the window being counted began (0: not yet) */
	uint64_t others;         /* other tasks' issues read in it */
	uint64_t last_kworker;   /* the stamp of the last kworker's event read (0: none yet) */
	bool kworker_read;       /* a kworker's event read since the last decision (while
				  * paused: one stamped after the pause began) */
	bool paused;
	uint64_t paused_at;      /* the NOW of the pause */
};

enum ss_stackpace_step {
	SS_STACKS_KEEP,          /* nothing to do */
	SS_STACKS_PAUSE,         /* remove the trigger */
	SS_STACKS_RESUME,        /* put it back */
};

/* An event stamped TS read from the ring buffer: a kworker's issue, insert or queue, or
 * another task's issue. */
static inline void ss_stackpace_event(struct ss_stackpace *p, uint64_t ts, bool kworker)
{
	if (kworker) {
		if (!p->paused || ts >= p->paused_at)
			p->kworker_read = true;
		if (ts > p->last_kworker)
			p->last_kworker = ts;
	} else {
		p->others++;
	}
}

/* After a drain that began at NOW (the trace clock): what to do with the trigger.  The state
 * changes as if the caller did it. */
enum ss_stackpace_step ss_stackpace_decide(struct ss_stackpace *p, uint64_t now);

#endif
