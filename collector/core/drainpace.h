// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How long the recorder waits between two drains of the ring buffer.
 *
 * A drain holds a CPU while it decodes, orders and writes what it read, and a request of the
 * workload that needs that CPU meanwhile waits: the longer the drain, the longer the wait, and
 * the more requests are in flight, the more of them wait at once.  With one request in flight
 * (a latency-bound workload) a long pause between drains is best: few wake-ups, each delaying
 * at most that one request.  With many in flight (a throughput-bound workload keeping the CPUs
 * busy) short drains are: 50 ms' worth of events at 200,000 events a second is a CPU held for
 * milliseconds, and every request in the queue waits behind it.
 *
 * So a drain is given about SS_DRAIN_EVENTS events divided by the most requests in flight at
 * once among the events it last wrote, and the pause is the time such a share takes to arrive
 * at the rate the last drain found, kept between SS_DRAIN_MIN_NS (each wake-up costs CPU: a
 * tenth of the recorder's with pauses of 2 ms on a 2-vCPU virtual machine, where 4 ms' worth
 * of whole pages at 230,000 events a second is about 0.2 ms of the recorder's work) and
 * SS_DRAIN_MAX_NS (pages fill between drains: 8 MiB a CPU holds about 100,000 events, far
 * more than arrive in this time at any rate a disk sustains).  One request in flight gets the
 * longest pause below 80,000 events a second.
 *
 * The most in flight, not the count at one moment: on a device as fast as a loop device in
 * memory, under fio at iodepth 32, the count at the end of each write was mostly 0-2 in one run
 * and mostly 20-32 in the next (requests pile up behind short drains, which then stay short),
 * where the most of each write stayed at 12-32 in three runs out of three.  An issue whose
 * completion was lost (events lost to a full ring buffer) stays counted: after such a loss the
 * pauses can only be shorter, costing CPU, never events.
 */
#ifndef SS_DRAINPACE_H
#define SS_DRAINPACE_H

#include <stdint.h>

#define SS_DRAIN_MAX_NS 50000000ull
#define SS_DRAIN_MIN_NS  4000000ull
/* events a drain may take with one request in flight: about a millisecond of its work */
#define SS_DRAIN_EVENTS 4000

/*
 * The pause before the next drain, in ns: the last drain found EVENTS events that arrived in
 * the ELAPSED_NS since the drain before it, with at most INFLIGHT requests in flight at once
 * (0 counts as 1).  Without a rate to go by (no events, or no time elapsed) the longest pause.
 */
uint64_t ss_drain_period(uint64_t elapsed_ns, uint64_t events, uint64_t inflight);

#endif
