// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-process figures: whose I/O it was and who caused the seeks.  A request belongs to its
 * owner (owner.h: the submitter when the trace has QUEUE or INSERT events, else the issuer),
 * named by the trace's task table at that time (tasks.h); one row per (pid, name), so a
 * kworker that moved from writeback to the XFS log shows as two rows.
 *
 *  - ios, bytes: completed data requests (stats.h's I/O), attributed through the issue they
 *    pair with (pair.h); completions whose issue is not in the trace go to one row of their
 *    own (pid SS_PROC_NO_ISSUE), so the rows add up to the trace's I/Os and bytes.
 *  - issues, seeks: data requests issued, and those that were seeks (seek.h): a seek is
 *    caused by the request that seeks.  The rows add up to the trace's seeks.
 *
 * Memory: one row per (pid, name) that issued or completed data.  Nothing here prints.
 */
#ifndef SS_PROCSTATS_H
#define SS_PROCSTATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "owner.h"
#include "pair.h"
#include "trace_read.h"

#define SS_PROC_NO_ISSUE UINT32_MAX   /* the row of completions without an issue */

struct ss_proc_row {
	uint32_t pid;              /* SS_PROC_NO_ISSUE for completions without an issue */
	long task;                 /* task entry id (tasks.h), -1 when the trace names no task */
	uint64_t ios, bytes;
	uint64_t issues, seeks;
	uint64_t submitted;        /* issues whose owner is their submitter (owner.h), not the
				    * issuing context */
	/* a trace whose names are pending (trace_read.h: ss_trace_open_lazy): the row is the
	 * pid's (task SS_PROC_TASK_PENDING) and these the first and last times it was looked up
	 * at, until ss_procs_resolve() names it */
	uint64_t lo_ts, hi_ts;
};
#define SS_PROC_TASK_PENDING (-2L)

struct ss_procs;

/* NULL on ENOMEM.  For a trace whose metadata is pending, the rows are the pids' until
 * ss_procs_resolve(). */
struct ss_procs *ss_procs_new(const struct ss_trace *t);
/*
 * Once the trace's names are known: each pid's row takes the task the pid had at the times it
 * was looked up at.  0, or -EAGAIN when a pid had two names over them (its figures would be
 * two rows: the pass is to be run again, the names known before it).  Before ss_procs_finish.
 */
int ss_procs_resolve(struct ss_procs *p);
void ss_procs_free(struct ss_procs *p);                    /* accepts NULL */
/* An issued data request of WHO, and whether it was a seek.  0 or -ENOMEM. */
int ss_procs_issue(struct ss_procs *p, const struct ss_req_owner *who, bool seek);
/* A completed data request of WHO (NULL: its issue is not in the trace).  0 or -ENOMEM. */
int ss_procs_io(struct ss_procs *p, const struct ss_req_owner *who, const struct ss_io *io);
/* Sort the rows: most I/Os first, then most seeks, then pid. */
void ss_procs_finish(struct ss_procs *p);
size_t ss_procs_count(const struct ss_procs *p);
const struct ss_proc_row *ss_procs_row(const struct ss_procs *p, size_t i);
/*
 * The row's process name into BUF: the task's name (tasks.h), "unknown" when the trace does
 * not name the pid, "(issue not in trace)" for the SS_PROC_NO_ISSUE row.  True only for a
 * named task.
 */
bool ss_procs_row_name(const struct ss_procs *p, const struct ss_proc_row *r, char *buf,
		       size_t len);

#endif
