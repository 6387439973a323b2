// SPDX-License-Identifier: GPL-2.0-or-later
/* The recorder's pause between drains (see drainpace.h). */
#include "drainpace.h"

uint64_t ss_drain_period(uint64_t elapsed_ns, uint64_t events, uint64_t inflight)
{
	double depth, period;

	if (!events || !elapsed_ns)
		return SS_DRAIN_MAX_NS;
	depth = inflight ? (double)inflight : 1;
	period = (double)elapsed_ns * (double)SS_DRAIN_EVENTS / depth / (double)events;
	if (period >= (double)SS_DRAIN_MAX_NS)
		return SS_DRAIN_MAX_NS;
	if (period <= (double)SS_DRAIN_MIN_NS)
		return SS_DRAIN_MIN_NS;
	return (uint64_t)period;
}
