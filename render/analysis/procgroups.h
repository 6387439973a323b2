// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Process groups for pictures coloured by process (plot --color-by process): what a task is,
 * the same in every capture (tasks.h, ss_task_group: "tar", "xfsaild", "kworker+wb_workfn"),
 * so that side-by-side traces give a process the same colour although its pids differ.
 * Requests are counted for their owner (owner.h) at the issue; the groups with most issued
 * data requests over all the traces get a colour of their own, the rest share "other".
 * A pid the trace does not name is the group "unknown".  Nothing here prints.
 */
#ifndef SS_PROCGROUPS_H
#define SS_PROCGROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "owner.h"
#include "taskfilter.h"
#include "trace_read.h"

#define SS_PROC_GROUPS_MAX 10                 /* coloured groups at most (+ "other") */
#define SS_PROC_GROUP_LEN 48

struct ss_proc_groups {
	char name[SS_PROC_GROUPS_MAX][SS_PROC_GROUP_LEN];   /* most requests first */
	uint64_t issues[SS_PROC_GROUPS_MAX];
	size_t n;
	uint64_t other;                    /* requests of the groups beyond the first n */
};

/* What of a trace is drawn, so that only it is ranked: issues in [from_ns, to_ns] (trace
 * clock), of `device` only when one_device. */
struct ss_proc_scope {
	uint64_t from_ns, to_ns;
	bool one_device;
	uint32_t device;
};

/*
 * One pass over each of the NR traces (rewound; requests of ONLY's processes when it is
 * active, within SCOPE[i] when SCOPE is not NULL): count issued data requests per group,
 * keep the TOP (1..SS_PROC_GROUPS_MAX) biggest in OUT.  0, or -errno with the reason in err.
 */
int ss_proc_groups_rank(struct ss_trace *const *t, const struct ss_proc_scope *scope, int nr,
			const struct ss_task_spec *only, unsigned top, struct ss_proc_groups *out,
			char *err, size_t errlen);
/* The colour slot of GROUP: 0..n-1, or n for "other". */
size_t ss_proc_groups_slot(const struct ss_proc_groups *g, const char *group);
/* The group of WHO's task in T into BUF ("unknown" when T does not name it). */
void ss_proc_group_of(const struct ss_trace *t, const struct ss_req_owner *who, char *buf,
		      size_t len);

/*
 * Per-trace lookup from a request's owner to its colour slot, cached per task entry so that
 * the cost per request is one task-table lookup.  NULL on ENOMEM.
 */
struct ss_proc_slots;
struct ss_proc_slots *ss_proc_slots_new(const struct ss_proc_groups *g, const struct ss_trace *t);
void ss_proc_slots_free(struct ss_proc_slots *s);    /* accepts NULL */
size_t ss_proc_slots_get(struct ss_proc_slots *s, const struct ss_req_owner *who);

#endif
