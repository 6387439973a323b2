// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Whether a second thread would get a CPU of its own now: the render side splits a pass over
 * two threads (the statistics' attribution, the reader's read-ahead) only when it would, as
 * two threads sharing one CPU cost a fifth to a half more time than one (the hand-overs and
 * the doubled seek and pairing state).  A hint for speed only: no figure depends on it.
 */
#ifndef SS_CPUS_H
#define SS_CPUS_H

#include <stdbool.h>

/* True when the machine has a CPU besides the caller's that nothing else is running on now:
 * online CPUs minus the tasks runnable at this instant (/proc/loadavg's fourth field, the
 * caller included) leave at least one.  False when that cannot be read. */
bool ss_cpu_free(void);

#endif
