// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seek detection, compatible with seekwatcher's default.
 *
 * Definition: an I/O is a seek when its start sector is more than THRESHOLD sectors (default
 * 128, i.e. 64 KiB) away — in either direction — from where the previous I/O on the same
 * device ended (prev.sector + prev.nr_sector).  The distance reported is signed:
 * start - previous end (positive = the head moves forward/outward).
 *
 * Which events: ISSUE events (block_rq_issue, blktrace "D").  Dispatch order is the order in
 * which the device receives requests, so it is the order the head sees; completion order is
 * reshuffled by the device's own queue (NCQ) and insert/queue order by the I/O scheduler.
 * Which requests: those that cover sectors (ss_event_has_data()) of a class that moves a head
 * (model.h, ss_ops[].seeks): reads, writes and other ops such as write-zeroes, which the device
 * must write.  Discards are ignored — they neither count as seeks nor move the position the
 * next request is measured from: they go to SSDs, thin provisioning and loop devices, where no
 * head moves, and an rm -rf's trims would otherwise show as thousands of seeks.  Flushes (no
 * sectors) and every other event type are ignored too.
 * The first I/O seen on a device is never a seek (there is no previous position).
 * Each device (ss_event.dev) is tracked separately.
 *
 * Memory: one small entry per device.  Nothing here prints.
 */
#ifndef SS_SEEK_H
#define SS_SEEK_H

#include <stdbool.h>
#include <stdint.h>
#include "seekscope/format.h"

#define SS_SEEK_THRESHOLD_DEFAULT 128u
#define SS_SEEK_THRESHOLD_MAX (1ull << 40)   /* sectors: 512 TiB, past any device */

/* What ss_seek_feed() decided about one event. */
enum ss_seek_verdict {
	SS_SEEK_IGNORED = 0,   /* not an ISSUE, or no data: not evaluated */
	SS_SEEK_FIRST   = 1,   /* first I/O on its device: not a seek, no distance */
	SS_SEEK_NEAR    = 2,   /* |distance| <= threshold: not a seek */
	SS_SEEK_FAR     = 3,   /* |distance| >  threshold: a seek */
};

struct ss_seek;

/* New tracker (threshold in sectors).  NULL with errno = ENOMEM.  Caller frees. */
struct ss_seek *ss_seek_new(uint64_t threshold);
void ss_seek_free(struct ss_seek *s);            /* accepts NULL */
/* Forget all device positions (e.g. before a second pass). */
void ss_seek_reset(struct ss_seek *s);
uint64_t ss_seek_threshold(const struct ss_seek *s);

/*
 * Feed one event in time order.  Returns an enum ss_seek_verdict (>= 0), or -ENOMEM when a new
 * device could not be tracked.  *distance (may be NULL) is set to start - previous end for
 * SS_SEEK_NEAR and SS_SEEK_FAR, and to 0 otherwise.
 */
int ss_seek_feed(struct ss_seek *s, const struct ss_event *ev, int64_t *distance);

/* True for SS_SEEK_FAR: convenience for callers that only count. */
static inline bool ss_seek_is_seek(int verdict) { return verdict == SS_SEEK_FAR; }

/*
 * Seek-distance distribution in signed log2 buckets of |distance| (sectors), for the
 * "how far does the head move" panel.  Bucket b >= 1 holds 2^(b-1) <= |d| < 2^b; bucket 0
 * holds d == 0.  neg[] counts backward moves, pos[] forward moves (neg[0] is always 0).
 * Every evaluated distance is counted (near ones too), so the threshold can be drawn on it.
 */
#define SS_SEEK_HIST_BUCKETS 65
struct ss_seek_hist {
	uint64_t pos[SS_SEEK_HIST_BUCKETS];
	uint64_t neg[SS_SEEK_HIST_BUCKETS];
	uint64_t count;            /* distances added */
};
/* Bucket index for |d|: 0 for 0, else floor(log2 |d|) + 1 (1..64). */
unsigned ss_seek_hist_bucket(int64_t d);
void ss_seek_hist_add(struct ss_seek_hist *h, int64_t d);
/* Lower bound, in sectors, of |d| for bucket b (0, 1, 2, 4, ...). */
uint64_t ss_seek_hist_bucket_low(unsigned b);

#endif
