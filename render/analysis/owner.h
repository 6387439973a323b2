// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whose request is it: the process a request is attributed to, for the per-process figures
 * (procstats.h) and the --pid/--comm filters (taskfilter.h).
 *
 * The ISSUE event fires in the context that handed the request to the driver: often the
 * process that submitted it, but as often a kblockd worker running the queue, or whoever
 * flushed a plug.  When the trace also has the events that fire in the submitter's context —
 * block_bio_queue (Q, the bio's submit_bio) or block_rq_insert (I, the request entering the
 * queue; `record -e queue,insert`) — the request belongs to the submitter: the task of the
 * latest QUEUE event at the request's device and start sector, else of the latest INSERT
 * there, at most SS_OWNER_MAX_AGE_NS before the issue.  Otherwise it belongs to the issuer.
 * A completion belongs to the owner of the issue it pairs with (pair.h: the issue's note
 * travels with it as its tag).
 *
 * Memory: none for traces without QUEUE and INSERT events; else two direct-mapped tables of
 * SS_OWNER_SLOTS submitters (a collision forgets the older entry, whose request then falls
 * back to its issuer).  Nothing here prints.
 */
#ifndef SS_OWNER_H
#define SS_OWNER_H

#include <stdbool.h>
#include <stdint.h>

#include "pair.h"
#include "seekscope/format.h"

#define SS_OWNER_SLOTS 16384u
#define SS_OWNER_MAX_AGE_NS 1000000000ull

/* A request's owner: the pid and the time at which to look its name up (tasks.h). */
struct ss_req_owner {
	uint32_t pid;
	uint64_t ts;
	bool submitter;            /* found through a QUEUE or INSERT event (else the issuer) */
};

struct ss_owner;

struct ss_owner *ss_owner_new(void);          /* NULL on ENOMEM */
void ss_owner_free(struct ss_owner *o);       /* accepts NULL */
void ss_owner_reset(struct ss_owner *o);
/*
 * Feed EV (time order).  For an ISSUE fills *OUT with its owner and returns 1; 0 for other
 * events (a completion's owner is its issue's: ss_owner_of_io() of its pairing, below);
 * -ENOMEM.
 */
int ss_owner_feed(struct ss_owner *o, const struct ss_event *ev, struct ss_req_owner *out);

/*
 * The same in parts, which may run in two threads: ss_owner_note() sees every event (time
 * order), keeps the submitters (QUEUE and INSERT events) and writes each event's note (0 but
 * for an ISSUE that a submitter's); the owner of an issue is ss_owner_of_issue() of its note,
 * that of a completion ss_owner_of_io() of its pairing, the issue paired with its note as
 * tag (ss_pair_feed_tag).  0 or -ENOMEM (ss_owner_note; *NOTE is 0 then).  A note uses bits
 * 0 to 62; bit 63 is the caller's, ignored here.
 */
int ss_owner_note(struct ss_owner *o, const struct ss_event *ev, uint64_t *note);
/* A value that no note takes (bit 62 clear, yet not 0): a caller's mark of an event left
 * unnoted, for another thread to note. */
#define SS_OWNER_UNNOTED (1ull << 61)
struct ss_req_owner ss_owner_of_issue(const struct ss_event *ev, uint64_t note);
struct ss_req_owner ss_owner_of_io(const struct ss_io *io);

#endif
