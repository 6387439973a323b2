// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The recorder's work markers among its pending events.
 *
 * A kworker's event is named by the work the kworker ran: a marker of type SS_WORK_MARK (no
 * block event's type) put just before it in the pending events, with the pid, CPU and stamp
 * of the event and the work function's address in its sector (0: no work known — the stack
 * trigger was paused when the event came).  The recorder turns a marker into the kworker's
 * name when it writes the events (tasks.h).
 *
 * A stack arrives after its event (the kernel writes it next, on the same CPU), so the
 * marker it gives, appended after the events read so far, is moved back before its event:
 * where the last pending entries are that CPU's in ring order, the run stays in order for
 * the merge.  Pure: no allocation, nothing printed.
 */
#ifndef SS_WORKMARK_H
#define SS_WORKMARK_H

#include <stddef.h>

#define SS_WORK_MARK 0                  /* enum ss_event_type has no 0 */
#define SS_WORKMARK_LOOK_BACK 8         /* how far back a stack's event is looked for */

/*
 * Places the marker that entry N-1 of the N entries at BASE is (each STRIDE bytes, beginning
 * with a struct ss_event; the marker appended by the caller for a stack taken after the event
 * of its stamp, pid and CPU): just before the latest such event (not a marker) among the
 * SS_WORKMARK_LOOK_BACK entries before it, the entries from there on moved up by one; where
 * that event already has a marker of no work (of the same stamp, pid and CPU) right before it,
 * the marker's work goes into that one and the appended marker is dropped.  Where no such
 * event is found, it stays last.  Returns how many entries are left: N, or N - 1.
 */
size_t ss_workmark_place(void *base, size_t n, size_t stride);

#endif
