// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The task table: which process a pid named at a given time (format.h, struct ss_rec_task).
 * One structure for both halves: the recorder adds what it sees in time order and writes an
 * entry only when ss_tasks_add() says the name changed; readers and importers fill it from the
 * file's TASKS records, blktrace's process notes or trace-cmd's comms (in any order), and the
 * analysis looks each event's pid up at the event's time.
 *
 * Rules: an event at time T of pid P takes P's latest entry with ts <= T, or P's first entry
 * when T is earlier than all of them; a pid without entries is unknown.  pid 0 (the idle tasks,
 * one per CPU, "swapper/N", all pid 0) keeps its first name, so that requests issued from
 * interrupts on idle CPUs do not rename it back and forth.
 *
 * Memory: the entries (bounded by SS_TASKS_MAX) and a hash of pids.  Nothing here prints.
 */
#ifndef SS_TASKS_H
#define SS_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "seekscope/format.h"

#define SS_TASKS_MAX (1u << 20)       /* entries in one table: a bound for damaged input */
#define SS_TASK_NAME_LEN 52           /* comm (15) + '-' + work (31) + NUL, rounded */

struct ss_tasks;

struct ss_tasks *ss_tasks_new(void);          /* NULL on ENOMEM */
void ss_tasks_free(struct ss_tasks *t);       /* accepts NULL */

/*
 * From REC->ts_ns on, REC->pid is named REC->comm (and REC->work).  Returns 1 when this
 * changes the name the table gives the pid at that time (the entry was added), 0 when the
 * table said so already (nothing added), -ENOMEM, or -E2BIG beyond SS_TASKS_MAX entries.
 * comm and work are copied up to their first NUL, always terminated.
 */
int ss_tasks_add(struct ss_tasks *t, const struct ss_rec_task *rec);
/* The same from separate fields; COMM/WORK need not be terminated within their LEN bytes. */
int ss_tasks_add_name(struct ss_tasks *t, uint64_t ts, uint32_t pid, const char *comm,
		      size_t comm_len, const char *work, size_t work_len);

/* Entries, by id 0..count-1 (ids are stable: in the order they were added). */
size_t ss_tasks_count(const struct ss_tasks *t);
const struct ss_rec_task *ss_tasks_entry(const struct ss_tasks *t, size_t id);
/* The id of the entry naming PID at TS (rules above), or -1 when PID is unknown. */
long ss_tasks_find(const struct ss_tasks *t, uint32_t pid, uint64_t ts);
/*
 * The same, and [*FROM, *UNTIL): the times at which PID has that answer as long as no entry is
 * added (the table's count unchanged) -- so that a caller can keep it for a run of PID's
 * events.  *UNTIL UINT64_MAX: for ever.  An unknown PID: -1 for all times.
 */
long ss_tasks_find_span(const struct ss_tasks *t, uint32_t pid, uint64_t ts, uint64_t *from,
			uint64_t *until);

/* The name: the comm, and a worker's work after a '-' ("tar", "xfsaild/loop0",
 * "kworker/u8:3-wb_workfn"), like ps's "kworker/u8:3-flush-254:0". */
void ss_task_name(const struct ss_rec_task *rec, char *buf, size_t len);
/*
 * What the task is, the same in every capture (for colours and legends shared by traces):
 * the comm up to its first '/' ("xfsaild", "jbd2", "tar"); for a workqueue worker "kworker:"
 * and its work up to a '/' and without a trailing "-DIGITS" device ("kworker:wb_workfn",
 * "kworker:flush"), or "kworker".
 */
void ss_task_group(const struct ss_rec_task *rec, char *buf, size_t len);
/* True when the comm is a workqueue worker's ("kworker/..."): its work says more. */
bool ss_task_is_worker(const char *comm, size_t len);

#endif
