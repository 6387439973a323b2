// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Request pairing: matches each COMPLETE event with the ISSUE event of the same request, which
 * gives per-I/O latency (issue -> complete, blktrace D -> C) and the number of requests in
 * flight (queue depth as the device sees it), per device and in total.  In the core because
 * both halves need the one rule: the recorder to wait, once the workload has ended, until the
 * requests in flight have completed; the statistics for latency, depth and incomplete I/Os.
 *
 * Rules:
 *  - Requests with data (ss_event_has_data()) are matched by (dev, sector, nr_sector).  Several
 *    in-flight requests may share a key (O_DIRECT random reads hit the same block): they match
 *    in issue order (FIFO).  A completion for a smaller nr_sector than the issued request at the
 *    same sector is a partial completion: the request stays in flight for its remaining sectors.
 *  - Data-less requests (flushes: issued at sector 0 with length 0, completed at SS_SECTOR_NONE)
 *    cannot be matched by sector: they pair FIFO per device.
 *  - REQUEUE removes the request from flight (the most recent issue with that key, or the most
 *    recent data-less issue on that device); the following ISSUE adds it again, so latency is
 *    measured from the last dispatch.
 *  - A completion with no matching issue (the capture started while it was in flight, or the
 *    issue was lost) is counted in `unmatched` and does not change the queue depth.
 *  - INSERT and QUEUE events are ignored.
 *
 * Memory is bounded by the number of requests in flight: at most `max_inflight` are tracked;
 * an issue beyond that is counted in `overflow` (its completion will then be unmatched).
 * Nothing here prints.
 */
#ifndef SS_PAIR_H
#define SS_PAIR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "seekscope/format.h"

#define SS_PAIR_MAX_INFLIGHT_DEFAULT 65536u

/* One completed request, as reported by ss_pair_feed(). */
struct ss_io {
	uint32_t dev;
	uint16_t flags;        /* SS_RW_* of the completion (falls back to the issue's if 0) */
	uint16_t reserved;
	uint64_t sector;       /* of the completion: SS_SECTOR_NONE for flushes */
	uint32_t nr_sector;    /* completed sectors (0 for flushes) */
	int32_t  error;        /* completion status, negative errno */
	uint64_t issue_ts;     /* 0 when unmatched */
	uint64_t complete_ts;
	bool     matched;      /* an issue was found: latency = complete_ts - issue_ts */
	bool     has_data;     /* ss_event_has_data() of the completion */
	uint32_t issue_pid;    /* pid of the issue's context when matched (who issued it), else 0 */
	uint64_t issue_tag;    /* the caller's tag of the issue (ss_pair_feed_tag) when matched */
};

static inline uint64_t ss_io_latency_ns(const struct ss_io *io)
{
	return io->matched && io->complete_ts >= io->issue_ts ? io->complete_ts - io->issue_ts : 0;
}

struct ss_pair_stats {
	uint64_t issued;       /* ISSUE events seen (data and data-less) */
	uint64_t completed;    /* COMPLETE events seen */
	uint64_t matched;      /* completions paired with an issue */
	uint64_t unmatched;    /* completions without an issue */
	uint64_t partial;      /* partial completions (request stayed in flight) */
	uint64_t requeued;     /* REQUEUE events that removed an in-flight request */
	uint64_t requeue_unmatched; /* REQUEUE events for a request not in flight */
	uint64_t overflow;     /* issues not tracked because max_inflight was reached */
	uint64_t max_depth;    /* highest total in-flight count seen */
};

struct ss_pair;

/* New pairer tracking at most max_inflight requests (0: the default).  NULL + errno. */
struct ss_pair *ss_pair_new(size_t max_inflight);
void ss_pair_free(struct ss_pair *p);    /* accepts NULL */
/* Forget everything in flight and zero the statistics. */
void ss_pair_reset(struct ss_pair *p);

/*
 * Feed one event in time order.  Returns 1 and fills *io for a COMPLETE event (matched or not),
 * 0 for any other event, -ENOMEM if bookkeeping memory ran out (the event is then counted as
 * overflow and the state stays consistent).
 */
int ss_pair_feed(struct ss_pair *p, const struct ss_event *ev, struct ss_io *io);
/* The same; an ISSUE keeps TAG, which its completion's io gives back (issue_tag): what the
 * caller found out about the request when it was issued (owner.h: whose it is). */
int ss_pair_feed_tag(struct ss_pair *p, const struct ss_event *ev, uint64_t tag,
		     struct ss_io *io);

/*
 * The io ss_pair_feed gives for completion EV: as not matched (ss_io_unmatched); matched
 * (ss_io_match) with an issue at ISSUE_TS by PID, tagged TAG, of FLAGS (the completion's own
 * flags, when it has any, win).  For a caller that keeps what pairing found apart from the
 * event and makes the io again from both.
 */
void ss_io_unmatched(struct ss_io *io, const struct ss_event *ev);
void ss_io_match(struct ss_io *io, uint64_t issue_ts, uint32_t pid, uint64_t tag,
		 uint16_t flags);

/* Requests in flight now: in total, and on one device. */
size_t ss_pair_inflight(const struct ss_pair *p);
size_t ss_pair_inflight_dev(const struct ss_pair *p, uint32_t dev);
/* Requests in flight now whose (last) issue is stamped after AFTER and at or before UPTO: one
 * walk over the table, for a caller that asks now and then (the recorder, while it settles). */
size_t ss_pair_inflight_issued(const struct ss_pair *p, uint64_t after, uint64_t upto);
const struct ss_pair_stats *ss_pair_stats(const struct ss_pair *p);

#endif
