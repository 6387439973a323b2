// SPDX-License-Identifier: GPL-2.0-or-later
/* When the recorder pauses the kworkers' stacks (see stackpace.h). */
#include "stackpace.h"

enum ss_stackpace_step ss_stackpace_decide(struct ss_stackpace *p, uint64_t now)
{
	bool kworker = p->kworker_read;
	uint64_t span;

	p->kworker_read = false;
	if (p->paused) {
		if (!kworker)
			return SS_STACKS_KEEP;
		p->paused = false;
		p->win_from = now;
		p->others = 0;
		return SS_STACKS_RESUME;
	}
	if (!p->win_from || now < p->win_from) {
		p->win_from = now;
		p->others = 0;
		return SS_STACKS_KEEP;
	}
	span = now - p->win_from;
	if (span < SS_STACK_PAUSE_WINDOW_NS)
		return SS_STACKS_KEEP;
	/* others * 1e9 / span >= RATE, without overflow for any count a window can hold */
	if (!kworker && (double)p->others * 1e9 >= (double)SS_STACK_PAUSE_RATE * (double)span &&
	    (!p->last_kworker ||
	     (now > p->last_kworker && now - p->last_kworker >= SS_STACK_PAUSE_HOLD_NS))) {
		p->paused = true;
		p->paused_at = now;
	}
	p->win_from = now;
	p->others = 0;
	return p->paused ? SS_STACKS_PAUSE : SS_STACKS_KEEP;
}
