// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Groups of requests for pictures coloured by who or what they are (plot --color-by process,
 * dir, file) and for per-group tables.  A group is a name that means the same in every
 * capture, so that side-by-side traces give it the same colour although pids and inode
 * numbers differ:
 *  - process: what a task is (tasks.h, ss_task_group: "tar", "xfsaild",
 *    "kworker:wb_workfn"), found from the request's owner (owner.h) at the issue; a pid the
 *    trace does not name is "unknown".
 *  - dir: the directory under the mapped DIR (filemap.h, ss_filemap_group at a depth) whose
 *    file's data or directory's blocks the request holds ("." for the files right in the
 *    top); file: that file's path below the top (ss_filemap_path_below_top).  A request
 *    that holds only on-disk inodes of mapped entries is "inodes"; one the map does not
 *    cover (log, other metadata, files the map never saw, a trace without a map) is
 *    "unknown (not in the map)", which keeps a colour of its own whatever its size.
 * The groups with most issued data requests over all the traces get a colour each, the rest
 * share "other".  Names are cut at SS_GROUP_LEN - 1 bytes.  Nothing here prints.
 */
#ifndef SS_GROUPS_H
#define SS_GROUPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "owner.h"
#include "taskfilter.h"
#include "trace_read.h"

#define SS_GROUPS_MAX 10                 /* coloured groups at most (+ "other", "unknown") */
#define SS_GROUP_LEN 256
#define SS_GROUP_UNKNOWN_FILE "unknown (not in the map)"
#define SS_GROUP_INODES "inodes"

enum ss_group_by { SS_GROUP_PROCESS, SS_GROUP_DIR, SS_GROUP_FILE };

struct ss_group_spec {
	enum ss_group_by by;
	unsigned depth;                  /* dir: 1 = right under the map's top (filemap.h) */
};

/*
 * One trace's groups: every request's group as a number, 0..count-1, found in O(1) for a
 * process (per task entry) and one index lookup for a file (filemap.h).  Group 0 is the
 * unknown one.  Memory: a number per task entry or mapped entry, and the distinct names.
 */
struct ss_group_keys;
/* NULL with errno (ENOMEM). */
struct ss_group_keys *ss_group_keys_new(const struct ss_group_spec *spec, const struct ss_trace *t);
void ss_group_keys_free(struct ss_group_keys *k);           /* accepts NULL */
size_t ss_group_keys_count(const struct ss_group_keys *k);
const char *ss_group_keys_name(const struct ss_group_keys *k, size_t group);
/* The group of request EV (its sectors) issued for WHO (may be NULL but for processes). */
size_t ss_group_keys_of(const struct ss_group_keys *k, const struct ss_event *ev,
			const struct ss_req_owner *who);
/* True when the map says anything at all (dir, file) or the trace names tasks (process). */
bool ss_group_keys_known(const struct ss_group_keys *k);
/* True when every request is in group 0 (by dir or file without mapped sectors). */
bool ss_group_keys_constant(const struct ss_group_keys *k);

/* The groups ranked over traces: the legend of a picture. */
struct ss_groups {
	struct ss_group_spec spec;
	char name[SS_GROUPS_MAX][SS_GROUP_LEN];   /* most requests first */
	uint64_t issues[SS_GROUPS_MAX];
	size_t n;
	uint64_t other;                    /* requests of the groups beyond the first n */
	bool unknown_slot;                 /* dir, file: "unknown" is slot n + 1, not ranked */
	uint64_t unknown;                  /* ... its requests */
};

/* What of a trace is drawn, so that only it is ranked: issues in [from_ns, to_ns] (trace
 * clock), of `device` only when one_device. */
struct ss_group_scope {
	uint64_t from_ns, to_ns;
	bool one_device;
	uint32_t device;
};

/*
 * One pass over each of the NR traces (rewound; requests of ONLY's processes when it is
 * active, within SCOPE[i] when SCOPE is not NULL): count issued data requests per group, keep
 * the TOP (1..SS_GROUPS_MAX) biggest in OUT.  0, or -errno with the reason in err.
 */
int ss_groups_rank(const struct ss_group_spec *spec, struct ss_trace *const *t,
		   const struct ss_group_scope *scope, int nr, const struct ss_task_spec *only,
		   unsigned top, struct ss_groups *out, char *err, size_t errlen);
/* The colour slot of group NAME: 0..n-1, n for "other", n + 1 for "unknown" (unknown_slot). */
size_t ss_groups_slot(const struct ss_groups *g, const char *name);
/* Colour slots in a picture: n, + "other", + "unknown". */
size_t ss_groups_nr_slots(const struct ss_groups *g);

/* Per trace, a request's colour slot: one lookup per request.  NULL with errno. */
struct ss_group_slots;
struct ss_group_slots *ss_group_slots_new(const struct ss_groups *g, const struct ss_trace *t);
void ss_group_slots_free(struct ss_group_slots *s);   /* accepts NULL */
size_t ss_group_slots_get(const struct ss_group_slots *s, const struct ss_event *ev,
			  const struct ss_req_owner *who);

/* The process group of WHO's task in T into BUF ("unknown" when T does not name it). */
void ss_proc_group_of(const struct ss_trace *t, const struct ss_req_owner *who, char *buf,
		      size_t len);

#endif
