// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filters by process: `--pid PID` and `--comm NAME` of report, plot and dump (like trace-cmd's
 * and iowatcher's -P).  A request belongs to its owner (owner.h: its submitter when the trace
 * has QUEUE or INSERT events, else the task that issued it); its completion is matched to the
 * issue (pair.h) and kept with it, so a filtered trace keeps whole requests.  INSERT, QUEUE
 * and REQUEUE events belong to their own context.
 *
 * A task matches when its pid is one of the PIDs or its name matches one of the NAME patterns
 * (fnmatch(3) globs: "tar", "kworker*", "xfsaild*") — the name as ps shows it
 * ("kworker/u8:3-flush-254:0"), its bare comm ("kworker/u8:3") or its group
 * ("kworker:flush", tasks.h).  A trace without task names matches by pid only.
 * Nothing here prints.
 */
#ifndef SS_TASKFILTER_H
#define SS_TASKFILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "seekscope/format.h"
#include "trace_read.h"

#define SS_TASK_SPEC_MAX 16          /* --pid and --comm values, each */

/* What to keep, as given on the command line; empty = everything. */
struct ss_task_spec {
	uint32_t pids[SS_TASK_SPEC_MAX];
	size_t nr_pids;
	const char *comms[SS_TASK_SPEC_MAX];    /* borrowed (argv) */
	size_t nr_comms;
};

/* Add a --pid / --comm value: 0, or -EINVAL with the reason (not a pid, too many, empty). */
int ss_task_spec_add_pid(struct ss_task_spec *s, const char *arg, char *err, size_t errlen);
int ss_task_spec_add_comm(struct ss_task_spec *s, const char *arg, char *err, size_t errlen);
/* Anything to filter on? */
bool ss_task_spec_active(const struct ss_task_spec *s);
/* "pid 1234, comm tar" into BUF, for titles and notes. */
void ss_task_spec_describe(const struct ss_task_spec *s, char *buf, size_t len);
/* Whether the task entry REC (NULL: a pid the trace does not name) with PID matches. */
bool ss_task_spec_match(const struct ss_task_spec *s, uint32_t pid, const struct ss_rec_task *rec);

struct ss_evfilter;

/* A filter over the events of T in time order (T and S must outlive it).  NULL on ENOMEM. */
struct ss_evfilter *ss_evfilter_new(const struct ss_task_spec *s, const struct ss_trace *t);
void ss_evfilter_free(struct ss_evfilter *f);      /* accepts NULL */
/* Start over (with the trace's rewind). */
void ss_evfilter_reset(struct ss_evfilter *f);
/* Whether to keep EV (the next event in time order): 1 or 0; -ENOMEM. */
int ss_evfilter_keep(struct ss_evfilter *f, const struct ss_event *ev);

#endif
