// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A trace's requests replayed through the disk model (diskmodel.h): one model per traced
 * device, each fed that device's events in issue order.  This is what `--disk MODEL` on report
 * and plot hands to the statistics pass (stats.h: ss_stats_opts.disk), which attributes each
 * request's cost to the trace, its phase, its device, its zone and its time bin.
 *
 * The model lays a device's sectors onto the platter, so it needs the device's size: the
 * recorded size, or for an imported trace (devices known by number only) the end of the
 * device's last zone (`seekscope convert --fs` adds them).  A device with neither is refused
 * with a message saying so.  Nothing here prints.
 */
#ifndef SS_DISKREPLAY_H
#define SS_DISKREPLAY_H

#include <stddef.h>
#include <stdint.h>

#include "diskmodel.h"
#include "trace_read.h"

struct ss_disk_replay;

/*
 * Models for every device of T with parameters P (copied; T is only read here).  NULL with
 * errno and one line in ERR: EINVAL (a device of unknown size, or P refused by the model),
 * ENOMEM.  Caller frees.
 */
struct ss_disk_replay *ss_disk_replay_new(const struct ss_disk_params *p,
					  const struct ss_trace *t, char *err, size_t errlen);
void ss_disk_replay_free(struct ss_disk_replay *r);       /* accepts NULL */

/*
 * Feed one event (any type, time order).  1 when it was modelled, its cost in *COST (may be
 * NULL); 0 when it was not (not an issue with data, or a device the trace's table does not
 * have: counted in ss_disk_replay_result()'s `ignored`).
 */
int ss_disk_replay_feed(struct ss_disk_replay *r, const struct ss_event *ev,
			struct ss_disk_cost *cost);

/* The parameters in use. */
const struct ss_disk_params *ss_disk_replay_params(const struct ss_disk_replay *r);
/* Totals over every device (times, requests, arm moves, bytes, events not modelled). */
void ss_disk_replay_result(const struct ss_disk_replay *r, struct ss_disk_result *res);
/* The sectors mapped onto the platter for device DEV (0: not a device of the trace). */
uint64_t ss_disk_replay_device_sectors(const struct ss_disk_replay *r, uint32_t dev);

#endif
