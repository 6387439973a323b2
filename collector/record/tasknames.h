// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a workqueue worker is doing when it issues I/O.  A kworker's comm ("kworker/u8:3")
 * says nothing about whom it works for: writeback, the XFS log, the loop driver and kblockd
 * all run in the same pool of workers.  The recorder therefore also records
 * workqueue:workqueue_execute_start (tracecap.h, SS_CAP_WORK), which says which work function
 * a worker starts running; replayed in time order with the block events, it names the work
 * behind each of the worker's requests — "wb_workfn" (the writeback flusher),
 * "xlog_cil_push_work" (the XFS log), "blk_mq_run_work_fn" (kblockd), as trace-cmd would print
 * the same event.  Function addresses are named from /proc/kallsyms, read once when the first
 * name is needed (when kallsyms hides addresses, the work stays "").
 * Nothing here prints; errors are -errno.  Used by one thread.
 */
#ifndef SS_TASKNAMES_H
#define SS_TASKNAMES_H

#include <stdint.h>

struct ss_tasknames;

/* KALLSYMS: the symbol table to read ("/proc/kallsyms" if NULL).  NULL on ENOMEM. */
struct ss_tasknames *ss_tasknames_new(const char *kallsyms);
void ss_tasknames_free(struct ss_tasknames *n);       /* accepts NULL */
/* From now on (time order), PID runs the work function at kernel address FUNCTION.  0 or
 * -ENOMEM. */
int ss_tasknames_work(struct ss_tasknames *n, uint32_t pid, uint64_t function);
/* The name of the work PID runs now, "" if none was seen or it has no name.  Valid until the
 * next call. */
const char *ss_tasknames_work_of(struct ss_tasknames *n, uint32_t pid);

#endif
