// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ss_drain_period(): the recorder's pause between drains — the longest with no rate to go by,
 * and for one request in flight at the rate of record.sh's typical workload; the shortest for
 * a queue of 32 at its extreme rate; in between, the time SS_DRAIN_EVENTS / in-flight events
 * take to arrive (none in flight counts as one; one in flight at a higher rate is a shorter
 * pause); never shorter with fewer in flight or a lower rate; no overflow at extreme inputs.
 */
#include <stdint.h>

#include "tap.h"
#include "drainpace.h"

#define MS 1000000ull

int main(void)
{
	/* nothing to go by */
	is_int(ss_drain_period(0, 1000, 0), SS_DRAIN_MAX_NS, "no time elapsed: the longest pause");
	is_int(ss_drain_period(50 * MS, 0, 0), SS_DRAIN_MAX_NS, "no events: the longest pause");
	is_int(ss_drain_period(50 * MS, 0, 32), SS_DRAIN_MAX_NS,
	       "... whatever was in flight");

	/* record.sh's typical rate: iodepth 1, about 3,600 block events in 50 ms */
	is_int(ss_drain_period(50 * MS, 3600, 1), SS_DRAIN_MAX_NS,
	       "one request in flight at 72,000 events/s: the longest pause");
	is_int(ss_drain_period(40 * MS, SS_DRAIN_EVENTS, 0), 40 * MS,
	       "none in flight counts as one: SS_DRAIN_EVENTS events' time");
	is_int(ss_drain_period(40 * MS, SS_DRAIN_EVENTS, 1), 40 * MS,
	       "... as one does");
	is_int(ss_drain_period(50 * MS, 5000, 1), 40 * MS,
	       "one in flight at 100,000 events/s: 40 ms");
	/* its extreme rate: iodepth 32, about 220,000 events a second */
	is_int(ss_drain_period(2 * MS, 440, 32), SS_DRAIN_MIN_NS,
	       "32 in flight at 220,000 events/s: the shortest pause");
	is_int(ss_drain_period(50 * MS, 11000, 32), SS_DRAIN_MIN_NS,
	       "... also right after a long pause");

	/* in between: SS_DRAIN_EVENTS / in flight events at the rate found */
	is_int(ss_drain_period(10 * MS, 1000, 4), 10 * MS,
	       "4 in flight, 100,000 events/s: %d events, 10 ms", SS_DRAIN_EVENTS / 4);
	is_int(ss_drain_period(10 * MS, 2000, 4), 5 * MS, "twice the rate: half the pause");
	is_int(ss_drain_period(10 * MS, 1000, 8), 5 * MS,
	       "twice as many in flight: half the pause");

	/* never shorter for less in flight, or a lower rate */
	{
		int mono = 1;

		for (uint64_t ev = 100; ev <= 100000; ev += 700)
			for (uint64_t d = 1; d < 64; d++) {
				uint64_t p = ss_drain_period(10 * MS, ev, d);

				if (p < ss_drain_period(10 * MS, ev, d + 1) ||
				    p < ss_drain_period(10 * MS, ev + 700, d) ||
				    p < SS_DRAIN_MIN_NS || p > SS_DRAIN_MAX_NS) {
					printf("#   %" PRIu64 " events, %" PRIu64 " in flight: %" PRIu64
					       " ns\n", ev, d, p);
					mono = 0;
				}
			}
		ok(mono, "within bounds, and no shorter with fewer in flight or fewer events");
	}

	/* extreme inputs */
	is_int(ss_drain_period(UINT64_MAX, 1, 0), SS_DRAIN_MAX_NS,
	       "one event in the longest time: the longest pause");
	is_int(ss_drain_period(1, UINT64_MAX, UINT64_MAX), SS_DRAIN_MIN_NS,
	       "every event at once, ever in flight: the shortest pause");
	return done_testing();
}
