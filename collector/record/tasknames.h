// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What a workqueue worker is doing when it issues I/O.  A kworker's comm ("kworker/u8:3")
 * says nothing about whom it works for: writeback, the XFS log, the loop driver and kblockd
 * all run in the same pool of workers.  The recorder therefore also records the kernel's stack
 * after each of a kworker's issue, insert and queue events (tracecap.h, SS_CAP_WORK), whose
 * frame that process_one_work called is the work function (ss_tasknames_stack_work); or, on a
 * kernel before 5.17 or without that trigger, workqueue:workqueue_execute_start, which says
 * which work function a worker starts running.  Replayed in time order with the block events, either
 * names the work behind each of the worker's requests — "wb_workfn" (the writeback flusher),
 * "xlog_cil_push_work" (the XFS log), "blk_mq_run_work_fn" (kblockd), as trace-cmd would print
 * the event or the stack.  A worker's other events (its completions) carry the work named
 * last.  Function addresses are named from /proc/kallsyms, read once when the first name is
 * needed (when kallsyms hides addresses, the work stays "").
 * Nothing here prints; errors are -errno.  Used by one thread.
 */
#ifndef SS_TASKNAMES_H
#define SS_TASKNAMES_H

#include <stddef.h>
#include <stdint.h>

struct ss_tasknames;

/* KALLSYMS: the symbol table to read ("/proc/kallsyms" if NULL).  NULL on ENOMEM. */
struct ss_tasknames *ss_tasknames_new(const char *kallsyms);
void ss_tasknames_free(struct ss_tasknames *n);       /* accepts NULL */
/* From now on (time order), PID runs the work function at (or, from a stack, with an address
 * in it) kernel address FUNCTION.  0 or -ENOMEM. */
int ss_tasknames_work(struct ss_tasknames *n, uint32_t pid, uint64_t function);
/* The work function in a kworker's kernel stack (NR return addresses, innermost first): an
 * address in the frame process_one_work called (its return address less one: the call
 * itself, inside the function even where the call is its last instruction and the return
 * address the next function's first byte), 0 if there is none or kallsyms cannot say. */
uint64_t ss_tasknames_stack_work(struct ss_tasknames *n, const uint64_t *frames, size_t nr);
/* The name of the work PID runs now, "" if none was seen or it has no name.  Valid until the
 * next call. */
const char *ss_tasknames_work_of(struct ss_tasknames *n, uint32_t pid);

#endif
