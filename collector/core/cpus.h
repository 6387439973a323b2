// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether another thread would get a CPU of its own now: the statistics pass counts and
 * attributes in threads of their own only when they would (and the machine has CPUs to
 * spare), as threads sharing one CPU cost more time than one.  A hint for speed only: no
 * figure depends on it.
 */
#ifndef SS_CPUS_H
#define SS_CPUS_H

#include <stdbool.h>

/* True when the machine has a CPU besides the caller's that nothing else is running on now:
 * online CPUs minus the tasks runnable at this instant (/proc/loadavg's fourth field, the
 * caller included) leave at least one, or, when they do not, the runnable tasks but ours are
 * mostly background work (a higher nice value than ours: /proc/PID/task/TID/stat, at most
 * 4096 tasks looked at).  False when that cannot be read. */
bool ss_cpu_free(void);

/* True when a CPU besides the caller's is idle now: /proc/loadavg's runnable tasks (the
 * caller's thread included, background work too) fewer than the online CPUs, in one of up to
 * three looks 0.2 ms apart (a kernel thread running for an instant does not count).  For a thread
 * that hands work back and forth with the caller (the trace reader's read-ahead): beside
 * anything else, even work at nice 19, each hand-over waits for the scheduler and the pair
 * is slower than one thread.  False when that cannot be read. */
bool ss_cpu_idle(void);

/* CPUs online now (at least 1). */
unsigned ss_cpus_online(void);

/* The state letter and nice value (fields 3 and 19) of a /proc/PID/stat line; -1 when BUF is
 * not one. */
int ss_task_stat_parse(const char *buf, char *state, int *nice);

#endif
