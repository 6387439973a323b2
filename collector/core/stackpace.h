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
 * So the stacks pause when, over the last SS_STACK_PAUSE_WINDOW_NS, other tasks' issue,
 * insert and queue events on the traced devices came at SS_STACK_PAUSE_RATE a second or more
 * and no kworker's came for SS_STACK_PAUSE_HOLD_NS (or since the start); below that rate the
 * trigger costs about a thousandth of a CPU or less and the stacks stay.  The first kworker's event
 * read while they are paused resumes them: its requests until the trigger is back (the drain
 * that finds it, up to SS_DRAIN_MAX_NS, and the write) keep the kworker's bare name, and the
 * recorder counts them.  A kworker that issued within SS_STACK_PAUSE_HOLD_NS keeps them on.
 *
 * Pure bookkeeping: the caller feeds the events as it reads them and acts on each decision.
 */
#ifndef SS_STACKPACE_H
#define SS_STACKPACE_H

#include <stdbool.h>
#include <stdint.h>

#define SS_STACK_PAUSE_WINDOW_NS 500000000ull
#define SS_STACK_PAUSE_RATE 5000u
#define SS_STACK_PAUSE_HOLD_NS 5000000000ull

struct ss_stackpace {
	uint64_t win_from;       /* when the window being counted began (0: not yet) */
	uint64_t others;         /* other tasks' events read in it */
	uint64_t last_kworker;   /* the stamp of the last kworker's event read (0: none yet) */
	bool kworker_read;       /* a kworker's event read since the last decision */
	bool paused;
};

enum ss_stackpace_step {
	SS_STACKS_KEEP,          /* nothing to do */
	SS_STACKS_PAUSE,         /* remove the trigger */
	SS_STACKS_RESUME,        /* put it back */
};

/* An issue, insert or queue event stamped TS read from the ring buffer: a kworker's or not. */
static inline void ss_stackpace_event(struct ss_stackpace *p, uint64_t ts, bool kworker)
{
	if (kworker) {
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
